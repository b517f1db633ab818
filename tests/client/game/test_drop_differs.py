"""A drop my physics settles otherwise than the table (issue 25, item 5): the log says so
plainly before the animation, and once the cubes have landed the tray shows the table's
outcome, never my own re-run's."""

from __future__ import annotations

from tests.client.conftest import run_until
from client.sessions.local_choice import LocalChoice


def _first_drop(app):
    scene = app.start_local(LocalChoice.one_level("heuristic", humans=(), seed=3), fast=True)
    assert run_until(app, lambda: scene.player.last_drop is not None, 120), "no drop seen"
    return scene


def _played(scene, event: dict) -> tuple[list[str], list[dict]]:
    trays: list[dict] = []
    set_tray = scene.tower.set_tray

    def spy(counts):
        trays.append(dict(counts or {}))
        set_tray(counts)
    scene.tower.set_tray = spy
    lines = len(scene.log.lines)
    try:
        scene.player._drop(event, "caption")
        scene.player.tower_finished()
    finally:
        scene.tower.set_tray = set_tray
    return [line for line, _ in scene.log.lines[lines:]], trays


def _event(rep: dict, out: dict, inside: dict, decided_by: str) -> dict:
    return {"event": "TowerDropped", "reason": "battle", "thrown": {}, "out": out,
            "inside_after": inside, "decided_by": decided_by, "replay": rep}


def test_a_drop_the_table_settled_from_its_seed_is_said_and_its_tray_shown(app):
    scene = _first_drop(app)
    rep, res = scene.player.last_drop
    from sim.state import colour_map
    mine_out, mine_inside = colour_map(res.out), colour_map(res.contents.counts())
    # the table's outcome: every cube came out (what no re-run here gives for this drop)
    total = dict(mine_out)
    for colour, n in mine_inside.items():
        total[colour] = total.get(colour, 0) + n
    assert total != mine_out
    lines, trays = _played(scene, _event(rep, total, {}, "model"))
    assert any("settled from its random seed" in line for line in lines), lines
    assert trays[-1] == total                    # the tray: the table's, after the landing


def test_a_drop_that_matches_is_not_remarked(app):
    scene = _first_drop(app)
    rep, res = scene.player.last_drop
    from sim.state import colour_map
    lines, trays = _played(scene, _event(rep, colour_map(res.out),
                                         colour_map(res.contents.counts()), "physics"))
    assert not any("differently" in line for line in lines), lines
    assert trays == [{}]                         # only the emptying before the throw
