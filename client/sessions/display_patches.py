"""What an event changes in the table's copy of the public state while a batch plays,
for the batches no engine step made (a game log, a game's set-up): armies placed and
moved, a province claimed or taken in battle, an action's slot turned, a new year's event
cards. The copy is replaced by the engine's public state (or the log's next Snapshot)
when the batch ends, so a patch only has to look right until then.

Why apart: these are the only places the client restates a consequence of the rules (a
second, unchecked copy, which misses unrest and buildings: `tools/seams/client_figures.py
--patches`). A batch of an engine step carries the engine's public view after each
event instead (`client.sessions.interface.Batch.views`, issue 35 item 2) and none of
this runs for it.

Tests: tests/client/sessions/test_display_patches.py.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sim import events as ev

if TYPE_CHECKING:
    from sim.snapshot import PublicState


def patch_board(d: PublicState, e: ev.ProvinceClaimed | ev.Moved | ev.ActionDone) -> bool:
    """The board after armies are placed or moved, or a province claimed; False when the
    event changed nothing on it (an action that placed no armies)."""
    provinces = d["provinces"]
    if e["event"] == "ProvinceClaimed":
        claimed = provinces[e["province"]]
        claimed["owner"], claimed["armies"] = e["seat"], e["armies"]
    elif e["event"] == "Moved":
        provinces[e["from"]]["armies"] -= e["count"]
        to = provinces[e["to"]]
        if to.get("owner") == e["seat"]:
            to["armies"] += e["count"]
    elif e.get("armies_placed"):
        provinces[e["province"]]["armies"] += e["armies_placed"]
    else:
        return False
    return True


def resolve_battle(d: PublicState, e: ev.BattleResolved) -> None:
    """The province after a battle: its new owner with the survivors, or neutral and
    emptied (no armies, buildings or unrest)."""
    p = d["provinces"][e["province"]]
    owner = e.get("new_owner")
    p["owner"] = owner
    p["armies"] = e.get("survivors", 0) if owner is not None else 0
    if owner is None:
        p["buildings"], p["unrest"] = [], 0


def turn_action(d: PublicState, e: ev.ActionStarted | ev.ActionRevealed) -> None:
    """The action track with the event's slot turned face up."""
    acts = list(d.get("actions") or [None] * 10)
    acts[e["slot"] - 1] = e["action"]
    d["actions"] = acts


def start_year(d: PublicState, e: ev.YearStarted) -> None:
    """A new year: its number and its four event cards, none current yet."""
    d["year"], d["events"], d["current_event"] = e["year"], list(e["events"]), None


def patched(d: PublicState, events: Iterable[ev.Event]) -> PublicState:
    """The board a game log's events lead to from `d` (changed in place and returned): a
    `Snapshot` replaces it, the events above patch it (a replay's seek in a log rebuilds
    its table so, as the events would have played)."""
    for e in events:
        if e["event"] == "Snapshot":
            d.clear()                             # type: ignore[attr-defined]  # a dict at run time
            d.update(copy.deepcopy(e["state"]))
        elif e["event"] == "ProvinceClaimed" or e["event"] == "Moved" or e["event"] == "ActionDone":
            patch_board(d, e)
        elif e["event"] == "BattleResolved":
            resolve_battle(d, e)
        elif e["event"] == "ActionStarted" or e["event"] == "ActionRevealed":
            turn_action(d, e)
        elif e["event"] == "YearStarted":
            start_year(d, e)
    return d
