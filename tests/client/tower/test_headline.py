"""The battle headline's numbers agree with the log (issue 27 item 4): "Sending 3 armies
from Kaga showed '5 Blue, 4 Orange + 1 extra' (tray cubes silently added, the tray's White
cube not mentioned) while the log said 'in 5 Blue, 5 Orange, 1 White'"."""

from __future__ import annotations

import re

from client.core.theme import seat_name
from client.tower.battle_show import handful_sentence
from tests.client.conftest import run_until
from client.sessions.local_choice import LocalChoice


def _numbers(text: str) -> int:
    return sum(int(n) for n in re.findall(r"\d+", text))


def test_the_headline_of_every_battle_adds_up_to_the_cubes_the_log_says_went_in(app):
    scene = app.start_local(LocalChoice.one_level("heuristic", humans=(), seed=5), fast=True)
    seen: list[tuple[str, dict, dict]] = []

    def hook(tag):
        e = scene.player.playing_event or {}
        if tag == "tower_start" and e.get("reason") in ("battle", "revolt"):
            tray = dict(((scene.display or {}).get("tower") or {}).get("tray") or {})
            seen.append((scene.battle.caption, dict(e["thrown"]), tray))
    scene.moment_reached.connect(hook)
    assert run_until(app, lambda: len(seen) >= 12, 240), f"{len(seen)} battles seen"
    for caption, thrown, _ in seen:
        cubes = caption.split(": ", 1)[1]
        assert _numbers(cubes) == sum(thrown.values()), (caption, thrown)
        for colour in thrown:
            name = seat_name("peasant" if colour == "peasant" else int(colour))
            assert name.lower().rstrip("s") in cubes.lower(), (colour, caption, thrown)
    assert sum("from the tray" in c for c, _, _ in seen) >= 3, "later battles throw the tray in"


def test_the_tray_cubes_are_named_apart():
    dropped = {"event": "TowerDropped", "reason": "battle",
               "thrown": {"0": 5, "1": 5, "3": 1}}
    battle = {"event": "BattleResolved", "kind": "attack", "province": "Echizen",
              "attacker": 0, "defender": 1, "defence_card": 1}
    text = handful_sentence(dropped, battle, "Kaga", {"0": 2, "3": 1})
    assert text == "Blue attacks Echizen from Kaga: 3 Blue, 4 Orange + 1 extra; " \
                   "from the tray: 2 Blue, 1 White"
