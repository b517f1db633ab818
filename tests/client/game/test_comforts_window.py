"""Player comforts in the window (under Xvfb): Esc asks before leaving and the game is
kept; Continue restores the exact game; named saves; settings survive a restart; the
rules open with F1 and the button; the menu remembers the last options."""

from __future__ import annotations

import time

import arcade

from client.core.settings import Settings, load_settings, save_settings
from sim.game import state_hash
from tests.client.conftest import frame, screenshot, to_my_plan
from tests.client.conftest import run_until as _run_until
from client.sessions.local_choice import LocalChoice


def test_esc_asks_stay_keeps_playing_leave_keeps_the_save_and_continue_restores_it(app, home, shots):
    scene = to_my_plan(app)
    before = state_hash(app.session.state)
    steps = len(app.session.commands)
    app.on_key_press(arcade.key.ESCAPE, 0)
    frame(app, 2)
    assert app.scene is scene and scene.dialog.visible, "Esc must ask first"
    screenshot(app, shots / "leave-dialog.png")
    app.on_key_press(arcade.key.ESCAPE, 0)                                 # Esc again: stay
    frame(app)
    assert app.scene is scene and not scene.dialog.visible
    app.on_key_press(arcade.key.ESCAPE, 0)
    app.on_key_press(arcade.key.ENTER, 0)                                  # leave
    frame(app)
    assert app.scene.name == "menu"
    menu = app.scene
    assert menu.b_continue.visible and "4 players" in menu.b_continue.label
    frame(app, 2)
    screenshot(app, shots / "menu-continue.png")
    app.on_key_press(arcade.key.C, 0)                                      # Continue
    frame(app)
    assert app.scene.name == "game"
    assert state_hash(app.session.state) == before
    assert len(app.session.commands) == steps
    assert app.session.my_seats == (0,)
    assert _run_until(app, lambda: app.scene.planning.visible, 30), "the resumed game asks me again"


def test_the_autosave_verifies_and_a_named_save_loads_the_same_game(app, home, capsys):
    import main
    scene = to_my_plan(app, seed=12)
    before = state_hash(app.session.state)
    app.on_key_press(arcade.key.S, arcade.key.MOD_CTRL)
    frame(app)
    assert scene.dialog.visible and scene.dialog.field is not None
    for _ in range(len(scene.dialog.field.value)):
        app.on_key_press(arcade.key.BACKSPACE, 0)
    app.on_text("my first game")
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app)
    saved = home / "data" / "saves" / "my first game.save"
    assert saved.exists()
    assert main.main(["replay", str(home / "data" / "autosave.save"), "--verify"]) == 0
    assert "every state hash matches" in capsys.readouterr().out
    app.on_key_press(arcade.key.ESCAPE, 0)
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app)
    menu = app.scene
    assert [b.label.split("  (")[0] for b in menu.save_buttons] == ["my first game"]
    menu.save_buttons[0].pressed.emit()
    frame(app)
    assert app.scene.name == "game" and state_hash(app.session.state) == before


def test_leaving_without_asking_when_the_setting_says_so(app, home):
    from dataclasses import replace
    app.settings = replace(Settings(), confirm_leave=False)
    to_my_plan(app, seed=13)
    app.on_key_press(arcade.key.ESCAPE, 0)
    frame(app)
    assert app.scene.name == "menu" and app.scene.b_continue.visible


def test_settings_screen_edits_and_they_survive_a_restart(app, home, shots):
    app.show_menu()
    frame(app)
    app.on_key_press(arcade.key.O, 0)
    frame(app, 2)
    scene = app.scene
    assert scene.name == "settings"
    f = scene.f_name
    app.on_mouse_press(f.left + 5, f.bottom + 5, arcade.MOUSE_BUTTON_LEFT, 0)
    app.on_text("Aiko")
    app.on_key_press(arcade.key.ENTER, 0)         # ends the typing, does not save yet
    assert app.scene is scene
    for row, clicks in (("colour", 2), ("animation_speed", 1), ("confirm_leave", 1), ("mute", 1)):
        b = scene.buttons[row]
        for _ in range(clicks):
            app.on_mouse_press(b.left + 3, b.bottom + 3, arcade.MOUSE_BUTTON_LEFT, 0)
    frame(app, 2)
    screenshot(app, shots / "settings.png")
    app.on_key_press(arcade.key.ENTER, 0)         # save
    frame(app)
    assert app.scene.name == "menu"
    # a restart: the file is read again
    on_disk, message = load_settings()
    assert message == ""
    assert (on_disk.name, on_disk.colour, on_disk.animation_speed, on_disk.confirm_leave,
            on_disk.mute) == ("Aiko", 2, 2.0, False, True)
    app.reload_settings()
    assert app.settings == on_disk
    app.show_menu()
    assert app.scene.seat_kinds[2] == "you"       # the preferred colour is my seat
    from dataclasses import replace
    scene = app.start_local(replace(app.scene.local_choice(), seed=3))
    assert scene.labels[2] == "Aiko (Black)" and scene.speed == 2.0 and scene.comforts.confirm_leave is False
    assert scene.labels[0] == "Bot (Blue)"           # a bot seat, named for what it is
    from client.core import theme
    assert theme.seat_name(2) == "Aiko (Black)"      # the log and messages name the player


def test_a_damaged_settings_file_shows_a_message_and_the_defaults(app, home):
    path = home / "config" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text("{ this is not json")
    app.reload_settings()
    assert app.settings == Settings()
    app.show_menu()
    assert "damaged" in app.scene.message and "defaults" in app.scene.message


def test_the_menu_remembers_the_last_options(app, home):
    app.show_menu()
    app.on_key_press(arcade.key.P, 0)             # 4 -> 5 players
    app.scene.b_side.pressed.emit()               # moon (the setup becomes draft)
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app)
    assert app.session.config.players == 5
    app.show_menu()
    menu = app.scene
    assert (menu.players, menu.side, menu.setup) == (5, "moon", "draft")
    assert load_settings()[0].last_game.players == 5


def test_rules_open_from_the_menu_and_in_a_game(app, home, shots):
    app.show_menu()
    frame(app)
    app.on_key_press(arcade.key.F1, 0)
    frame(app, 2)
    help_ = app.scene.help
    assert help_.visible
    assert help_.titles()[:3] == ["Goal", "Three players", "A year"]
    assert {"The actions", "Special cards", "Battles and the tower", "Winter"} <= set(help_.titles())
    screenshot(app, shots / "help.png")
    app.on_mouse_scroll(600, 400, 0, -6)
    frame(app, 2)
    assert help_.scroll > 0
    screenshot(app, shots / "help-scrolled.png")
    app.on_key_press(arcade.key.ESCAPE, 0)
    assert not help_.visible and app.scene.name == "menu"
    # in a game: the Rules button opens it
    scene = to_my_plan(app, seed=14)
    b = scene.help_btn
    app.on_mouse_press(b.left + 3, b.bottom + 3, arcade.MOUSE_BUTTON_LEFT, 0)
    assert scene.help.visible
    app.on_key_press(arcade.key.ENTER, 0)             # closes the help, does not lock the plan
    assert not scene.help.visible and scene.planning.visible


def test_every_field_card_and_button_of_the_planning_table_has_a_tooltip(app, home, shots):
    from client.game.plan_panel import FIELDS
    scene = to_my_plan(app, seed=15)
    panel = scene.planning
    for k, f in enumerate(FIELDS):
        l, b, w, h = panel.field_rect(k)
        tip = scene.comforts.tooltip_at(l + w / 2, b + h / 2)
        assert tip and tip.endswith("."), (f, tip)
    costs = {"palace": "3 chests", "temple": "2 chests", "theatre": "1 chest", "deploy1": "1 chest"}
    for f, words in costs.items():
        l, b, w, h = panel.field_rect(FIELDS.index(f))
        assert words in scene.comforts.tooltip_at(l + 3, b + 3)
    for card, (l, b, w, h) in panel.card_rects():
        assert scene.comforts.tooltip_at(l + w / 2, b + h / 2), card
    for btn in (panel.lock_btn, panel.sugg_btn, panel.clear_btn, scene.help_btn,
                scene.comforts.save_btn, *scene.pace_buttons):
        assert scene.comforts.tooltip_at(btn.left + 2, btn.bottom + 2), btn.label
    l, b, w, h = panel.field_rect(0)
    app.on_mouse_motion(l + w / 2, b + h / 2, 0, 0)
    frame(app, 2)
    assert scene.comforts.tooltip.visible and "castle" in scene.comforts.tooltip.text
    screenshot(app, shots / "planning-tooltip.png")
    for name in ("players", "events_panel", "log", "track", "tower", "topbar"):
        node = getattr(scene, name)
        assert scene.comforts.tooltip_at(node.left + 30, node.bottom + 5), name
    # the next question, the turn-order pick: each place says what its special card does
    app.on_key_press(arcade.key.B, 0)
    app.on_key_press(arcade.key.ENTER, 0)
    assert _run_until(app, lambda: scene.asking and scene.asking[0] == "special", 30)
    buttons = [b for b in scene.decision.children if b.label.startswith("#")]
    assert buttons
    for b in buttons:
        tip = scene.comforts.tooltip_at(b.left + 3, b.bottom + 3)
        assert tip.startswith("Place ") and ":" in tip, tip


def test_the_first_game_guide_points_at_the_plan_and_can_be_hidden_for_good(app, home, shots):
    scene = to_my_plan(app, seed=16)
    guide = scene.guide
    assert guide.visible and guide.kind == "plan"
    frame(app, 2)
    screenshot(app, shots / "guide.png")
    b = guide.off_btn
    app.on_mouse_press(b.left + 3, b.bottom + 3, arcade.MOUSE_BUTTON_LEFT, 0)
    assert not guide.visible
    assert load_settings()[0].guide_done is True
    scene = to_my_plan(app, seed=17)
    assert not scene.guide.visible


def test_against_bots_a_locked_plan_can_be_unlocked_and_changed_before_the_plans_open(app, home):
    import main
    from sim.commands import SubmitPlan
    scene = to_my_plan(app, seed=18)
    scene.fast = False
    mine = lambda: [c for c in app.session.commands if isinstance(c, SubmitPlan) and c.seat == 0]
    app.on_key_press(arcade.key.B, 0)               # a suggested plan ...
    first = scene.planning.plan()
    app.on_key_press(arcade.key.ENTER, 0)           # ... locked
    frame(app, 5)
    assert scene.held is not None and not mine(), "the plan must wait before it goes in"
    assert any("U unlocks" in line for line in scene.info.lines)
    app.on_key_press(arcade.key.U, 0)               # unlock: planning again, the plan still there
    frame(app)
    assert scene.held is None and scene.planning.visible
    assert scene.planning.plan() == first
    actions, bid = first
    swapped = (actions[1], actions[0]) + actions[2:]
    scene.planning.load(swapped, bid)
    assert scene.planning.problems == []
    app.on_key_press(arcade.key.ENTER, 0)           # lock the changed plan
    assert _run_until(app, lambda: bool(mine()), 10), "the held plan went in when its time was up"
    assert [(p.actions, p.bid) for p in mine()] == [(swapped, bid)]
    app.show_menu()
    assert main.main(["replay", str(home / "data" / "autosave.save"), "--verify"]) == 0


def test_the_status_names_no_later_decision_while_earlier_events_still_play(app, home):
    """The engine runs ahead of the animation; "Now: … choose a turn-order position" must
    not show while the deploys before it are still being shown."""
    scene = app.start_local(LocalChoice.one_level("heuristic", humans=(), seed=9), fast=False)
    scene.speed_idx = 3
    wrong = []
    t0 = time.time()
    while time.time() - t0 < 8 and not wrong:
        frame(app)
        if scene.player.batch:                     # events of an earlier batch are on screen
            wrong += [line for line in scene.info.lines if line.startswith("Now:")]
    assert not wrong, wrong[:3]


def test_sound_follows_volume_and_mute(app, home):
    from dataclasses import replace
    from client.core.sound import Sounds
    app.settings = replace(Settings(), volume=40)
    scene = to_my_plan(app, seed=19)
    assert isinstance(scene.sounds, Sounds) and scene.sounds.volume == 40 and scene.sounds.on
    scene.fast = False
    app.on_key_press(arcade.key.B, 0)
    app.on_key_press(arcade.key.ENTER, 0)
    assert scene.sounds.played[-1:] == ["locked"]
    app.settings = replace(Settings(), mute=True)
    scene = to_my_plan(app, seed=19)
    scene.fast = False
    app.on_key_press(arcade.key.B, 0)
    app.on_key_press(arcade.key.ENTER, 0)
    assert scene.sounds.played == [] and not scene.sounds.on


def test_interface_scale_enlarges_the_window_and_clicks_still_land(app, home, shots):
    from dataclasses import replace
    try:
        app.settings = replace(Settings(), ui_scale=1.25)
        app.apply_ui_scale()
        app.show_menu()
        frame(app, 2)
        menu = app.scene
        assert app.ui_scale == 1.25 and (menu.width, menu.height) == (1024, 640)
        screenshot(app, shots / "menu-scale-125.png")
        b = menu.b_settings                       # a click in window pixels, on the drawn button
        app.on_mouse_press((b.left + 5) * 1.25, (b.bottom + 5) * 1.25, arcade.MOUSE_BUTTON_LEFT, 0)
        assert app.scene.name == "settings"
        import numpy as np
        # the settings' Save button (gold) is drawn at 1.25 times its logical place and size
        save = app.scene.save_btn
        frame(app, 2)
        img = np.asarray(arcade.get_image(0, 0, app.width, app.height).convert("RGB"))
        cx, cy = (save.left + save.width / 2) * 1.25, (save.bottom + 4) * 1.25
        assert tuple(img[app.height - int(cy), int(cx)]) == (250, 214, 120)
    finally:
        app.settings = Settings()
        app.apply_ui_scale()
    assert app.ui_scale == 1.0 and app.scene.width == 1280


def test_hot_seat_covers_the_table_between_secret_plans(app, home, shots):
    scene = app.start_local(LocalChoice.one_level("heuristic", humans=(0, 1), seed=20), fast=True)
    assert _run_until(app, lambda: scene.planning.visible, 60)
    assert scene.dialog.visible and scene.dialog.opaque and "Blue" in scene.dialog.title
    frame(app, 2)
    screenshot(app, shots / "hot-seat-cover.png")
    import numpy as np
    img = np.asarray(arcade.get_image(0, 0, app.width, app.height).convert("RGB"))
    assert tuple(img[5, 5]) == (60, 45, 35), "the cards behind the cover must not show"
    app.on_key_press(arcade.key.ENTER, 0)            # Blue has the screen
    assert not scene.dialog.visible and scene.planning.seat == 0
    app.on_key_press(arcade.key.B, 0)
    app.on_key_press(arcade.key.ENTER, 0)            # Blue locks; Orange is next
    assert _run_until(app, lambda: scene.planning.visible and scene.planning.seat == 1, 30)
    assert scene.dialog.visible and "Orange" in scene.dialog.title
    app.on_key_press(arcade.key.ENTER, 0)
    assert not scene.dialog.visible


def test_a_replayed_save_steps_back_and_forth_and_jumps_by_round(app, home, tmp_path):
    import main
    from store.game_save import read_save
    from sim.game import GameConfig, apply, new_game
    save = tmp_path / "g.save"
    assert main.main(["headless", "--players", "3", "--seed", "6", "--quiet", "--save", str(save)]) == 0
    saved = read_save(save)

    def hash_after(step):
        state, _ = new_game(saved.config)
        for cmd in saved.commands[:step]:
            state, _ = apply(state, cmd)
        return state_hash(state)

    app.replay_log(str(save))
    scene = app.scene
    ctl = scene.replay_controls
    assert ctl is not None
    rounds = app.session.round_starts()
    assert len(rounds) >= 6 and rounds == sorted(rounds)
    app.on_key_press(arcade.key.PAGEDOWN, 0)
    app.on_key_press(arcade.key.PAGEDOWN, 0)
    assert ctl.shown_step() == rounds[2] and scene.paused
    assert state_hash(app.session.state) == hash_after(rounds[2])
    assert "step %d of %d" % (rounds[2], len(saved.commands)) in app.session.status
    app.on_key_press(arcade.key.LEFT, 0)
    assert ctl.shown_step() == rounds[2] - 1
    assert state_hash(app.session.state) == hash_after(rounds[2] - 1)
    app.on_key_press(arcade.key.RIGHT, 0)              # play that one step again, then pause
    assert _run_until(app, lambda: scene.paused and ctl.shown_step() == rounds[2], 30)
    assert state_hash(app.session.state) == hash_after(rounds[2])
    app.on_key_press(arcade.key.PAGEUP, 0)
    assert ctl.shown_step() == rounds[1]
    app.on_key_press(arcade.key.HOME, 0)
    assert ctl.shown_step() == 0


def test_ctrl_a_in_the_save_name_replaces_the_suggestion(app, home, shots):
    """Issue 37, item 12: Ctrl+A did nothing in the save-name field; the suggested name
    had to be taken back letter by letter."""
    scene = to_my_plan(app, seed=12)
    app.on_key_press(arcade.key.S, arcade.key.MOD_CTRL)
    frame(app)
    field = scene.dialog.field
    assert field is not None and field.value
    app.on_key_press(arcade.key.A, arcade.key.MOD_CTRL)
    frame(app)
    screenshot(app, shots / "save-name-selected.png")
    app.on_text("quick")
    assert field.value == "quick"
    app.on_key_press(arcade.key.A, arcade.key.MOD_CTRL)
    app.on_key_press(arcade.key.BACKSPACE, 0)
    assert field.value == ""
    app.on_text("second try")
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app)
    assert (home / "data" / "saves" / "second try.save").exists()


def test_the_guide_measures_its_hint_once_per_width(app):
    """Issue 48: the battle's start and end lay the table out again, and the guide's
    note laid its hint's text out each time (2 ms of the stage's first frame on
    llvmpipe); it is measured once per hint and width, at the height it measures."""
    from client.game.guide import Guide
    guide = Guide()
    guide.point_at("plan")
    laid = [0]
    put = guide._probe.put

    def counted(*a, **kw):
        laid[0] += 1
        return put(*a, **kw)
    guide._probe.put = counted
    heights = []
    for width in (300, 200, 300, 200, 300):
        guide.anchor(10, width, 700, 100, 750)
        heights.append(guide.height)
    assert laid[0] == 4, f"{laid[0] // 2} text layouts for two widths"
    assert heights[0] == heights[2] == heights[4] and heights[1] == heights[3]
    assert heights[1] > heights[0], "narrower, taller"
    assert heights[0] == min(750 - 100, guide._measure(*guide._words(), 300 - 24))
