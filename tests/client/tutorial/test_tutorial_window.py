"""The tutorial in the window (under Xvfb): Learn to play in the menu starts it; its card
shows each step of the script at its trigger, inside the window and clear of what the step
outlines and of the tower; event steps hold the table until Next; the opponents are watched one move at a
time; Show me lays out the script's plan; Skip leaves an ordinary game; Leave asks, then
goes back to the menu, and the player's own autosaved game is untouched."""

from __future__ import annotations

import arcade
import pytest

from client.core.settings import SPEEDS
from client.tutorial import script
from client.tutorial.autoplay import step_on
from client.tutorial.coach import HIGHLIGHTS
from tests.client.conftest import frame, run_until, screenshot
from tests.client.tutorial.window_walk import (_resize, _start, _walk_to, _inside, _overlap,
    _at_the_plan_step, BUTTON_WORDS)


def test_learn_to_play_starts_the_tutorial_without_touching_the_autosave(app, home, shots):
    app.show_menu()
    frame(app, 2)
    assert app.scene.b_tutorial.visible
    scene, coach = _start(app)
    assert app.autosave is None, "the tutorial must not take the place of the player's own game"
    assert not scene.guide.enabled_guide, "the guide pop-ups give way to the coach"
    assert app.session.seed == script.SEED and app.session.my_seats == (script.ME,)
    assert run_until(app, lambda: coach.progress.current is not None, 60)
    assert coach.progress.current.key == "board" and coach.card.visible
    frame(app, 2)
    screenshot(app, shots / "tutorial-board.png")


def test_show_me_lays_out_the_scripted_plan_and_the_bid_field_is_outlined(app, home):
    scene, coach = _start(app)
    assert run_until(app, lambda: coach.progress.current is not None, 60)
    coach.next()                                        # board -> plan
    frame(app, 2)
    assert coach.progress.current.key == "plan" and coach.card.show_btn.visible
    coach.card.show_btn.pressed.emit()
    actions, bid = scene.planning.plan()
    assert tuple(actions) == script.first_plan_fields() and bid == script.FIRST_BID
    coach.next()                                        # plan -> bid
    frame(app, 2)
    assert coach.progress.current.key == "bid"
    (outlined,) = HIGHLIGHTS["bid"](scene)
    assert outlined == scene.planning.field_rect(10)


def test_next_waits_until_the_steps_task_is_done_and_says_what_is_missing(app, home, shots):
    """Issue 37, item 1: Next at "Plan your round" with nothing planned, then Next at
    "The bid for turn order", left the card gone, the plan empty and nothing saying what
    to do."""
    scene, coach = _at_the_plan_step(app, 960, 640)
    app.on_key_press(arcade.key.N, 0)                   # Next, nothing planned
    frame(app, 2)
    assert coach.progress.current.key == "plan" and coach.card.visible
    assert "action fields" in coach.card.missing and "Show me" in coach.card.missing
    screenshot(app, shots / "tutorial-next-too-soon-960x640.png")
    coach.card.show_btn.pressed.emit()
    app.on_key_press(arcade.key.N, 0)
    frame(app, 2)
    assert coach.progress.current.key == "bid" and not coach.card.missing
    app.on_key_press(arcade.key.N, 0)                   # Next before locking the plan
    frame(app, 2)
    assert coach.progress.current.key == "bid" and coach.card.visible
    assert "Enter" in coach.card.missing
    assert scene.planning.visible and scene.asking is not None and scene.asking[0] == "plan"
    scene.planning.lock_btn.pressed.emit()              # the task done: the step ends
    assert run_until(app, lambda: coach.progress.current is not None
                     and coach.progress.current.key == "special", 60)
    app.on_key_press(arcade.key.N, 0)                   # Next before choosing a card
    frame(app, 2)
    assert coach.progress.current.key == "special" and coach.card.visible
    assert coach.card.missing


@pytest.mark.parametrize("size", [(960, 640), pytest.param((1920, 1080), marks=pytest.mark.slow)])
def test_the_card_stays_in_the_window_and_clear_of_the_outlined_panel(app, home, size):
    _resize(app, *size)
    scene, coach = _start(app)
    seen: set[str] = set()
    scene.speed_idx = len(SPEEDS) - 1
    for _ in range(6000):
        frame(app)
        st = coach.progress.current
        if st is not None and st.key not in seen:
            seen.add(st.key)
            frame(app)
            box = (coach.card.left, coach.card.bottom, coach.card.width, coach.card.height)
            assert _inside(box, scene.width, scene.height), (st.key, box)
            staged = scene.tower.big and st.highlight == "tower"   # the stage is the window
            for r in HIGHLIGHTS[st.highlight](scene):
                assert staged or not _overlap(box, r), (st.key, box, r)
            tower = scene.tower                 # repainted every frame: it would cover the card
            if tower.big:                       # the battle stage: whole frames, the card on top
                assert scene.animated_nodes() == [], st.key
            else:
                assert not _overlap(box, (tower.left, tower.bottom, tower.width, tower.height)), st.key
            for b in (coach.card.next_btn, coach.card.leave_btn):
                assert b.visible and _inside((b.left, b.bottom, b.width, b.height), scene.width,
                                             scene.height)
                assert coach.card.contains(b.left + 1, b.bottom + 1)
        if "battle" in seen:
            break
        step_on(scene)
    assert {"board", "plan", "bid", "special", "actions", "battle"} <= seen


def test_in_a_small_window_the_plan_card_leaves_the_players_provinces_in_sight(app, home):
    """At 960x640 a card in a corner of the map hid half of it, the player's own provinces
    among them, while they planned with those provinces' cards; it goes beside the map."""
    scene, coach = _at_the_plan_step(app, 960, 640)
    board = scene.board_view
    mine = [n for n, p in board.state["provinces"].items() if p.get("owner") == script.ME]
    assert len(mine) >= 6
    card = coach.card
    hidden = [n for n in mine if card.contains(*board.province_centre(n))]
    assert not hidden, hidden
    assert card.width >= 240 and _inside((card.left, card.bottom, card.width, card.height),
                                         scene.width, scene.height)


def test_an_event_step_holds_the_table_until_next(app, home):
    scene, coach = _start(app)
    scene.speed_idx = len(SPEEDS) - 1
    app.on_key_press(arcade.key.F, 0)                   # fast-forward waits for the tutorial
    frame(app)
    assert not scene.fast
    assert _walk_to(app, scene, coach, "actions", 120)
    assert scene.paused
    keep = (len(app.session.commands), len(scene.player.batch))
    frame(app, 30)
    assert (len(app.session.commands), len(scene.player.batch)) == keep, "the table went on"
    app.on_key_press(arcade.key.N, 0)                   # Next
    frame(app)
    assert coach.progress.current is None and coach.stepping
    # now one opponent move at a time: the table holds after the next opponent's action
    assert run_until(app, lambda: coach.waiting_move, 60)
    assert scene.paused and coach.card.visible and coach.card.play_on_btn.visible
    keep = (len(app.session.commands), len(scene.player.batch))
    frame(app, 20)
    assert (len(app.session.commands), len(scene.player.batch)) == keep
    app.on_key_press(arcade.key.SPACE, 0)               # the table's own "go on" works too
    frame(app)
    assert not coach.waiting_move
    assert run_until(app, lambda: coach.waiting_move, 60)
    coach.card.play_on_btn.pressed.emit()                # Play on: no more holds this round
    frame(app)
    assert not coach.stepping and not scene.paused


def test_skip_leaves_an_ordinary_game_and_leave_asks_then_returns_to_the_menu(app, home):
    scene, coach = _start(app)
    assert run_until(app, lambda: coach.progress.current is not None, 60)
    coach.card.skip_btn.pressed.emit()
    frame(app)
    assert coach.progress.finished and not coach.card.visible and not scene.paused
    assert scene.planning.visible, "the game goes on: my plan is asked"
    app.on_key_press(arcade.key.ESCAPE, 0)
    frame(app)
    assert scene.dialog.visible and app.scene is scene, "Esc asks first"
    app.on_key_press(arcade.key.ENTER, 0)               # Leave
    frame(app)
    assert app.scene.name == "menu"


@pytest.mark.slow
def test_the_window_walks_every_step_of_the_script_in_order(app, home):
    """The same steps as the headless script test (test_script.py), in the window. Its
    frames stand for a tenth of a second each (issue 49: at 1/60 it took 268 s at load 13,
    near the 300 s timeout); the steps, the tower lesson's pour and the battles play as
    in any window, in fewer drawn frames."""
    scene, coach = _start(app)
    scene.speed_idx = len(SPEEDS) - 1
    assert run_until(app, lambda: (step_on(scene) or True) and "finished" in coach.progress.shown,
                     600, dt=0.1)   # 10 frames a game second: a whole game in fewer frames
    assert coach.progress.shown == list(script.STEP_KEYS), (coach.progress.shown, coach.progress.missed)
    assert coach.progress.missed == []


@pytest.mark.slow
def test_each_steps_words_agree_with_the_screen(app, home, shots):
    """Issue 37, item 2: the "actions" card named Next move and Play on, buttons it did not
    have; at "Scoring" the players panel said Score 0 for everyone and the scoring
    breakdown went away while the card still asked to look at them; at "One year played"
    the year-2 event list was empty."""
    from lang.i18n import _
    _resize(app, 960, 640)
    scene, coach = _start(app)
    scene.speed_idx = len(SPEEDS) - 1
    seen: set[str] = set()

    def check() -> bool:
        st = coach.progress.current
        if st is not None and st.key not in seen:
            seen.add(st.key)
            frame(app, 2)
            card = coach.card
            on_card = {_(b.label).split("  [")[0] for b in
                       (card.next_btn, card.show_btn, card.skip_btn, card.leave_btn,
                        card.play_on_btn) if b.visible}
            for words in BUTTON_WORDS:
                if words in _(st.task):
                    assert words in on_card, (st.key, words, on_card)
            if st.key == "scoring":
                mine = coach.scores[script.ME]
                assert mine > 0
                frame(app, 6 * 60)                   # the card asks to look: it all stays
                shown = scene.players.state["players"][str(script.ME)]["score"]
                assert shown >= mine, ("the players panel", shown, mine)
                assert scene.banner.visible and scene.winter.visible, "the breakdown went"
                screenshot(app, shots / "tutorial-scoring-held-960x640.png")
            if st.key == "finished":
                year, _season, events, _cur = scene.events_panel.info
                assert year == 2 and len(events) == 4, scene.events_panel.info
                screenshot(app, shots / "tutorial-finished-960x640.png")
                return True
        step_on(scene)
        return False
    assert run_until(app, check, 900)
    assert {"scoring", "finished"} <= seen


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
def test_a_long_step_title_wraps_rather_than_being_cut_or_tiny(app, lang):
    """Issue 37, item 11: the Dutch step-4 title read "Spelersvolgorde en speciale kaar…"
    in a narrow card; a title too long for one line takes two, at 11 px or more."""
    from lang.i18n import _, use
    from client.tutorial.card import TutorialCard
    use(lang)
    try:
        for st, w in ((st, w) for st in script.STEPS for w in (272.0, 330.0)):
            card = TutorialCard()      # 272: the right-hand column at 960x640
            card.show_step(_(st.title), _("Step {n} of {total}").format(n=4, total=11),
                           _(st.text), _(st.task), short_counter="4/11")
            h = card.needed_height(w, 600)
            card.set_rect(10, 10, w, h)
            card.rebuild()
            head, body = card.texts.labels["h"], card.texts.labels["b"]
            assert head.text == _(st.title), (st.key, head.text)
            assert head.font_size * 96 / 72 >= 11, (st.key, head.font_size)
            assert card.left <= head.left and head.right <= card.right, st.key
            assert body.top <= head.bottom + 1, (st.key, "the words run into the title")
    finally:
        use("en")


def test_the_missing_line_follows_the_player_and_says_yet_once(app, home):
    """Issue 49 item 5: step 2 still said "(now 0)" after eight cards were placed, until
    the next Next; step 3 said "Not yet: Your plan is not locked yet: …"."""
    _resize(app, 960, 640)
    scene, coach = _start(app)
    assert run_until(app, lambda: coach.progress.current is not None, 60)
    coach.next()                                        # board -> plan
    frame(app, 2)
    app.on_key_press(arcade.key.N, 0)                   # Next, nothing planned
    frame(app, 2)
    assert "(now 0)" in coach.card.missing
    panel = scene.planning
    cards = [c for c in panel.cards][:3]
    for field, card in zip(("palace", "temple", "theatre"), cards):
        panel.fields[field] = card                      # three cards placed by the player
    panel._recheck()
    frame(app, 2)
    assert "(now 3)" in coach.card.missing, coach.card.missing     # no Next pressed
    coach.card.show_btn.pressed.emit()                  # the whole plan: nothing is missing
    frame(app, 2)
    assert not coach.card.missing, coach.card.missing
    app.on_key_press(arcade.key.N, 0)
    frame(app, 2)
    assert coach.progress.current.key == "bid"
    app.on_key_press(arcade.key.N, 0)                   # Next before locking the plan
    frame(app, 2)
    line = coach.card.task_line()
    assert "Enter" in line and line.lower().count("yet") == 1, line


@pytest.mark.parametrize("size", [(960, 640), (1280, 800)])
def test_the_move_bar_keeps_clear_of_the_province_it_tells_of(app, home, size):
    """Issue 49 item 4: the pop-up "Orange builds a castle in Ise" covered Ise."""
    _resize(app, *size)
    scene, coach = _start(app)
    assert _walk_to(app, scene, coach, "actions", 180)
    coach.next()                                        # now one opponent move at a time
    board = scene.board_view
    seen = 0
    for _move in range(6):
        if not run_until(app, lambda: coach.waiting_move, 60):
            break
        frame(app, 2)
        if coach.move_at in board.board.provinces:
            x, y = board.province_centre(coach.move_at)
            c = coach.card
            assert not (c.left <= x <= c.right and c.bottom <= y <= c.top), \
                f"{size}: the bar covers {coach.move_at}"
            seen += 1
        coach.next()
        frame(app)
    assert seen >= 2, seen
