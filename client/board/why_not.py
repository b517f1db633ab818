"""Why a clicked province is not a place the armies can go: a sentence for the player.

The engine's `move_targets` decides; this only explains a click outside its answer, from
the public view, in the same terms as the rules (R-EXEC-9/10/11, events 6 and 9), so that a
click on a non-target never does nothing silently (issue 13).

Tests: tests/client/board/test_why_not.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from client.core.theme import seat_name

if TYPE_CHECKING:
    from sim.snapshot import PublicState
from lang.i18n import N_, Translated, _
from sim.board import Board

ACTION_WORDS = Translated({"deploy1": N_("Deploy/move 1"), "battle_a": N_("Battle/move A"),
                           "battle_b": N_("Battle/move B")})


def _listing(names: Iterable[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def why_not_target(board: Board, side: str, players: int, public: PublicState | None, seat: int, origin: str,
                   action: str, name: str) -> str:
    """A sentence saying why armies from `origin` cannot go to `name` for `action`."""
    provs: Mapping[str, Mapping[str, Any]] = public["provinces"] if public else {}
    act = ACTION_WORDS.get(action, _("This action"))
    if name == origin:
        return _("Your armies are in {origin}: click a highlighted province to send them "
                 "there.").format(origin=origin)
    if players == 3 and name in board.excluded_3p[side]:
        return _("{name} is out of play in a 3-player game.").format(name=name)
    nbs = board.neighbours[side][origin]
    if name not in nbs:
        return _("{name} does not border {origin}. From {origin} armies can reach "
                 "{listing}.").format(name=name, origin=origin, listing=_listing(nbs))
    if int((provs.get(origin) or {}).get("armies", 0) or 0) < 2:
        return _("At least one army must stay in {origin}, so none can leave it.").format(origin=origin)
    owner = (provs.get(name) or {}).get("owner")
    if action == "deploy1" and owner != seat:
        return _("{action} only moves armies into your own provinces; {name} belongs to "
                 "{owner}. Attack it with a battle action instead.").format(
            action=act, name=name, owner=seat_name(owner))
    if owner != seat and "temple" in ((provs.get(name) or {}).get("buildings") or []) \
            and public is not None and public.get("current_event") in (6, 9):
        return _("{name} has a temple, and this round's event forbids attacking temple "
                 "provinces.").format(name=name)
    return _("Armies from {origin} cannot go to {name} now.").format(origin=origin, name=name)
