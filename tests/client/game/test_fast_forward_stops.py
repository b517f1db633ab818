"""Fast-forward stops at the player's own battles and at the final scoring (issue 27,
item 10): a fast-forwarding player still sees every battle one of their seats fights, in
the battle view, and the final scores at the chosen pace."""

from __future__ import annotations

import pytest

from client.tower.battle_show import battle_context
from tests.client.conftest import run_until


@pytest.fixture
def save(tmp_path):
    import main
    path = tmp_path / "g.save"
    assert main.main(["headless", "--players", "3", "--seed", "6", "--quiet", "--save", str(path)]) == 0
    return path


def _battles_of(seat: int, save) -> list[str]:
    """The provinces of the drops that decide a battle `seat` fights, in order."""
    from sim.game import apply, new_game
    from store.game_save import read_save
    saved = read_save(save)
    state, events = new_game(saved.config)
    out = []
    for cmd in saved.commands:
        state, events = apply(state, cmd)
        for k, e in enumerate(events):
            if e.get("event") == "TowerDropped":
                battle, _ = battle_context(e, events[k + 1:])
                if battle is not None and seat in (battle.get("attacker"), battle.get("defender")):
                    out.append(battle["province"])
    return out


def test_fast_forward_stops_at_my_battles_and_at_the_final_scoring(app, save):
    from client.sessions.replay import ReplaySession
    session = ReplaySession(str(save))
    session.my_seats = (0,)          # watch the save as Blue's player: Blue's battles are mine
    scene = app.play(session, {0: "Blue", 1: "Orange", 2: "Black"}, fast=True)
    expected = _battles_of(0, save)
    assert expected
    stops: list[str] = []
    while True:
        assert run_until(app, lambda: not scene.fast or scene.shared.over, 120)
        if scene.fast:
            break                       # the game ended while fast: the final stop was missed
        e = scene.player.playing_event or {}
        if e.get("event") == "TowerDropped":
            assert scene.battle.active, "my battle is shown in the battle view"
            battle, _ = battle_context(e, scene.player.batch)
            assert battle is not None and 0 in (battle.get("attacker"), battle.get("defender"))
            stops.append(battle["province"])
            scene.fast = True           # on again: the next stop is the next battle of mine
            continue
        assert scene.winter.visible and scene.winter.last, e.get("event")
        stops.append("final scoring")
        break
    assert stops == expected + ["final scoring"]
    assert "Fast-forward stops for the final scoring." in [line for line, _ in scene.log.lines]
