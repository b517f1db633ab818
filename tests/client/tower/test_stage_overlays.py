"""Nothing over the battle stage while it is open (issue 48, item 4): a card still on show
(the winter's, a rice shortage) goes before the stage opens, instead of lying across it;
the cubes waiting for the pour stay under the window's top bar."""

from __future__ import annotations

from client.core.settings import SPEEDS
from client.tower.drop_play import DropPlay
from sim.tower import drop as tower
from tests.client.conftest import frame
from client.sessions.local_choice import LocalChoice


def test_a_card_on_show_goes_before_the_stage_opens(app):
    from sim.game import GameConfig
    from sim.local import play_bots
    _state, events = play_bots(GameConfig(4, "sun", "beginner"), 5, ["heuristic"] * 4)
    first = next(i for i, e in enumerate(events) if e.get("event") == "TowerDropped"
                 and e.get("reason") == "battle" and e.get("replay"))
    scene = app.start_local(LocalChoice.one_level("heuristic", humans=(), seed=5))
    frame(app, 3)
    normal = scene.player.shared.speed_idx
    scene.player.shared.speed_idx = len(SPEEDS) - 1   # the game's opening stage (the fill) plays out
    for _ in range(1200):
        if not scene.tower.big:
            break
        frame(app)
    scene.player.shared.speed_idx = normal
    assert not scene.tower.big, "the opening stage closed"
    scene.banner.hide()
    # the events of a battle come next, while a card (the winter's) is still on show
    scene.player.batch = list(events[first:first + 12])
    scene.player.batch_views = None
    scene.player.wait = 0.0
    scene.banner.show(["Winter of year 1", "Everyone loses 2 rice"], 1.0)
    frame(app)
    assert scene.banner.visible and not scene.tower.big, "the stage waits for the card"
    opened_under_card = False
    for _ in range(240):
        frame(app)
        if scene.tower.big and scene.banner.visible:
            opened_under_card = True
        if scene.tower.big:
            break
    assert scene.tower.big and not opened_under_card, "the stage opens once the card has gone"
    scene.battle.end()
    app.show_menu()


def test_the_cubes_waiting_for_the_pour_stay_under_the_top_bar():
    """A long handful queued at one slot rose over the window's top bar: the queue is a
    heap no higher than the stage's top (the roof's mouth)."""
    from sim.tower.drop import EMPTY
    rec = tower.drop(EMPTY, {0: 14, 1: 12, 5: 3}, b"queue".ljust(32, b"."), record=True).recording
    assert rec is not None
    from client.tower import tower_art as art
    d = DropPlay(rec, tower.GEOMETRY, (0, 1))
    top = tower.GEOMETRY["top"] + art.STAGE_ABOVE
    highest = max(d.waiting_place(i, 0)[1] + tower.GEOMETRY["cube"] / 2
                  for i in range(rec.inside_before, len(rec.colours)))
    assert highest <= top, f"a waiting cube reaches {highest:.0f}, the stage ends at {top}"


def test_no_tooltip_is_shown_over_the_open_stage(app):
    """Issue 48: nothing over the stage while it is open. The map, panels and plan are
    hidden under it; the pointer over any point of the stage (where a province, a card
    or a panel's field lay) shows no tooltip."""
    scene = app.start_local(LocalChoice.one_level("heuristic", players=4, seed=11))
    frame(app, 3)
    import time
    t0 = time.time()
    while not scene.tower.big and time.time() - t0 < 60:   # the game's opening stage (the fill)
        frame(app)
    assert scene.tower.big, "the game opened on its stage"
    tv = scene.tower
    shown = []
    for i in range(1, 12):
        for j in range(1, 10):
            x, y = tv.left + tv.width * i / 12, tv.bottom + tv.height * j / 10
            scene.on_mouse_motion(x, y, 1, 1)
            frame(app)
            if scene.comforts.tooltip.visible:
                shown.append((round(x), round(y)))
    assert not shown, f"tooltips over the open stage at {shown[:5]}"
    app.show_menu()
