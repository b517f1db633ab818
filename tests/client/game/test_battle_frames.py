"""A battle's frames in a game (issue 48): what the frames the stage opens and closes do.

`benchmarks/bench_client.py` plays one recorded drop through the stage; in a game the
frame the stage opened also ran the drop's physics and drew the whole map again (the
drop's event gave the board a new view, the same provinces), and the frame it closed drew
the whole map with the result, the game log's every line and the column's tower again:
80-110 ms frames on llvmpipe at 1920x1080 (benchmarks/bench_game_frames.py). Here they
are counted in calls, never in milliseconds.
"""

from __future__ import annotations

import copy

import numpy as np

from client.game import event_playing
from client.sessions.local_choice import LocalChoice
from tests.client.conftest import count_calls, frame


def _picture(board) -> np.ndarray:
    surface = board.picture.surface
    assert surface is not None
    return np.asarray(surface.to_image().convert("RGB"), dtype=np.int16)


def test_the_stage_opens_and_closes_without_drawing_the_map_or_running_physics(app, monkeypatch):
    replays = [0]
    real = event_playing.replay_drop

    def counted(rep):
        replays[0] += 1
        return real(rep)
    monkeypatch.setattr(event_playing, "replay_drop", counted)
    scene = app.start_local(LocalChoice.one_level("heuristic", players=3, humans=(), seed=3),
                            autosave=False)
    board, player = scene.board_view, scene.player
    frame(app)
    battles = 0
    for _stage in range(3):             # the set-up's fill, then two battles
        # the frames before the stage: the drop's physics and the stage's picture, a part each
        stage = scene.tower._layers[True]
        while not scene.tower.big:
            builds, before = count_calls(board, "rebuild"), replays[0]
            drawn = count_calls(stage, "render")
            frame(app)
            del board.rebuild, stage.render
        assert builds[0] == 0, "the stage's first frame drew the whole map again"
        assert replays[0] == before, "the stage's first frame ran the drop's physics"
        assert drawn[0] == 0, f"the stage's first frame drew its picture ({scene.tower.caption})"
        # the frames of the stage, then the one it closes in
        while scene.tower.big:
            builds = count_calls(board, "rebuild")
            frame(app)
            del board.rebuild
        assert builds[0] == 0, "the frame the stage closed in drew the whole map again"
        if player.playing_kind == "BattleResolved":     # the map shows the battle's result
            battles += 1
            assert player.view is not None and board.state is player.view
            drawn = _picture(board)                # drawn while the stage held
            board.rebuild()
            assert (drawn != _picture(board)).any(axis=2).mean() == 0, \
                "the map drawn under the stage is not the result's"
    assert battles >= 2, f"{battles} battles staged"
    app.show_menu()


def test_a_views_event_that_moves_nothing_on_the_map_does_not_draw_it_again(app):
    """The map's picture shows the provinces and the round's event; most events change
    neither (a card turned, a bid, a drop), and each drew the whole map again."""
    scene = app.start_local(LocalChoice.one_level("heuristic", players=3, humans=(), seed=5),
                            autosave=False)
    frame(app, 2)
    board = scene.board_view
    state = board.state
    assert state is not None
    builds = count_calls(board, "rebuild")
    board.set_state(copy.deepcopy(state))            # the same map, a new view of it
    board.rebuild_if_dirty()
    assert builds[0] == 0, "the same provinces drew the whole map again"
    changed = copy.deepcopy(state)
    name = next(iter(changed["provinces"]))
    changed["provinces"][name]["armies"] += 1
    board.set_state(changed)
    board.rebuild_if_dirty()
    assert builds[0] == 1, "an army more was not drawn"
    changed["provinces"][name]["armies"] += 1      # a game log's patch: the same dict, changed
    board.set_state(changed)
    board.rebuild_if_dirty()
    assert builds[0] == 2, "a state changed in place was not drawn"
    del board.rebuild
    app.show_menu()


def test_a_line_added_to_the_log_lays_out_only_itself(app):
    """The log's lines were keyed by their place in the panel: a new line changed every
    place's words, and each shown line was laid out again (15-45 ms as a stage closed).
    Keyed by the line's number, the others only move; lines gone from view are let go."""
    from client.game.table_view import LogPanel

    log = LogPanel()
    log.set_rect(0, 0, 320, 400)
    for n in range(40):
        log.add_line(f"Line {n}: Blue attacks Kai from Shinano with 3 armies and 2 peasants.")
    log.draw()
    words = {id(t): t.text for t in log.texts.labels.values()}
    log.add_line("Line 40: White wins the battle.")
    log.draw()
    now = [t for t in log.texts.labels.values() if t.visible]
    new = [t for t in now if id(t) not in words]
    rewritten = [t for t in now if id(t) in words and words[id(t)] != t.text]
    assert len(new) == 1 and not rewritten, \
        f"{len(new)} labels made and {len(rewritten)} given new words for one new line"
    for _ in range(200):
        log.add_line("Another line.")
        log.draw()
    hidden = [k for k, t in log.texts.labels.items() if not t.visible]
    assert not hidden, f"{len(hidden)} lines out of view are kept"
