"""The end screen (issue 27 item 14, issue 28 item 6): each score broken down as the rules
count it, a tie decided by chests said in the rule's words, the luck of the tower per
player, the biggest battle with a "Film it" button signalling up its number; its words
inside the window and clear of each other at three sizes."""

from __future__ import annotations

import functools

import arcade
import pytest

from client.scenes.end_record import end_record
from client.scenes.end_scene import EndScene, tie_sentence
from sim.local import play_bots
from sim.state import GameConfig


@functools.cache
def _game(seed: int, players: int):
    state, events = play_bots(GameConfig(players=players), seed, ["random"] * players)
    return state, events


def test_the_breakdown_adds_up_to_each_final_score():
    """R-WINTER-4: a point a province, a point a building, the majorities; both winters."""
    state, events = _game(3, 4)
    rec = end_record(events, 4)
    gained = {s: 0 for s in range(4)}
    for e in events:
        if e["event"] == "Scored":
            gained[e["seat"]] += e["gained"]
    for seat, p in rec.players.items():
        assert p.provinces + p.buildings + p.majorities == p.score == state.players[seat].score
        assert gained[seat] == p.score
        assert p.chests == state.players[seat].money
    assert rec.winners == list(state.winners)


def test_the_luck_of_the_tower_counts_every_battle_drop():
    _state, events = _game(3, 4)
    rec = end_record(events, 4)
    thrown = {s: 0 for s in range(4)}
    out = {s: 0 for s in range(4)}
    for e in events:
        if e["event"] == "TowerDropped" and e["reason"] != "fill":
            for c, n in e["thrown"].items():
                if c != "peasant":
                    thrown[int(c)] += n
            for c, n in e["out"].items():
                if c != "peasant":
                    out[int(c)] += n
    assert {s: p.thrown for s, p in rec.players.items()} == thrown
    assert {s: p.out for s, p in rec.players.items()} == out
    assert sum(thrown.values()) > 0


def test_the_biggest_battle_is_numbered_in_the_games_order():
    _state, events = _game(3, 4)
    rec = end_record(events, 4)
    battles = [e for e in events if e["event"] == "BattleResolved"]
    assert rec.battles == len(battles) > 0
    b = rec.biggest
    assert b is not None
    sizes = [sum(e["thrown"].values()) for e in battles]
    assert b.cubes == max(sizes)
    assert battles[b.number - 1]["province"] == b.province
    assert sizes.index(max(sizes)) == b.number - 1


def test_a_tie_decided_by_chests_is_said_in_the_rules_words():
    """R-END-1: ties go to the most chests; if still tied, the players share the win."""
    _state, events = _game(11, 4)        # Orange and Black tie on points; Orange has 6 chests
    rec = end_record(events, 4)
    assert rec.tied_on_score == [1, 2] and rec.winners == [1] and rec.decided_by_chests
    words = tie_sentence(rec)
    assert "a tie goes to the most chests" in words and "Orange" in words and "6 chests" in words
    _state, events = _game(17, 3)        # tied on points and on chests
    rec = end_record(events, 3)
    assert rec.winners == [0, 1] and not rec.decided_by_chests
    assert "share the win" in tie_sentence(rec)
    _state, events = _game(3, 4)         # no tie: nothing to say
    assert tie_sentence(end_record(events, 4)) == ""


def _box(t):
    return (t.left, t.bottom, t.right, t.top)


def _meets(a, b):
    return not (a[2] <= b[0] + 1 or b[2] <= a[0] + 1 or a[3] <= b[1] + 1 or b[3] <= a[1] + 1)


@pytest.mark.parametrize("lang,W,H", [("en", 960, 640), ("en", 1280, 800), ("en", 1920, 1080),
                                       ("nl", 960, 640), ("ro", 960, 640)])
def test_the_end_screen_keeps_its_words_apart_and_films_the_biggest_battle(app, lang, W, H,
                                                                             shots):
    from lang import i18n
    from sim.game import public_state
    from tests.client.conftest import frame
    i18n.use(lang)
    state, events = _game(11, 4)
    rec = end_record(events, 4)
    summary = {"players": 4, "labels": {0: "Aiko (Blue)"}, "scores": {}, "money": {},
               "winners": rec.winners, "history": {}}
    scene = EndScene(summary, rec, dict(public_state(state)), "sun")
    asked = []
    scene.film_requested.connect(asked.append)
    app.set_size(W, H)
    app.on_resize(W, H)
    app.show(scene)
    frame(app, 2)
    try:
        texts = [(k, t) for k, t in scene.texts.labels.items() if t.visible and t.text]
        said = " ".join(t.text for _k, t in texts)
        words = {"en": ("Orange", "a tie goes to the most chests", "Luck of the tower",
                        "the points of both winters together"),      # issue 37, item 12
                 "nl": ("Oranje", "wint wie de meeste geldkisten heeft", "Het grootste gevecht",
                        "beide winters samen"),
                 "ro": ("Portocaliu", "câștigă cine are cele mai multe cufere", "Cea mai mare luptă",
                        "ambele runde de iarnă")}
        for w in words[lang]:
            assert w in said, (lang, w)
        boxes = [("board", scene.board_view)] + [(b.label, b) for b in
                                                 (scene.menu_btn, scene.quit_btn, scene.film_btn)]
        bad = []
        for i, (k, t) in enumerate(texts):
            a = _box(t)
            if a[0] < 0 or a[2] > scene.width + 1 or a[1] < 0 or a[3] > scene.height + 1:
                bad.append(f"{t.text[:25]!r} leaves the window")
            for k2, t2 in texts[i + 1:]:
                if _meets(a, _box(t2)):
                    bad.append(f"{t.text[:25]!r} runs into {t2.text[:25]!r}")
            for name, n in boxes:
                if n.visible and _meets(a, (n.left, n.bottom, n.right, n.top)):
                    bad.append(f"{t.text[:25]!r} covers {name}")
        assert not bad, f"{W}x{H}: " + "; ".join(bad[:8])
        from tests.client.conftest import screenshot
        screenshot(app, shots / f"end-{lang}-{W}x{H}.png")
        assert scene.film_btn.visible
        app.on_key_press(arcade.key.F, 0)
        assert asked == [rec.biggest.number]
        s = app.ui_scale
        b = scene.film_btn
        app.on_mouse_press((b.left + 4) * s, (b.bottom + 4) * s, arcade.MOUSE_BUTTON_LEFT, 0)
        assert asked == [rec.biggest.number] * 2
    finally:
        i18n.use("en")
        app.show_menu()
        app.set_size(1280, 800)
        app.on_resize(1280, 800)


def test_without_a_listener_there_is_no_film_button(app):
    from tests.client.conftest import frame
    _state, events = _game(3, 4)
    rec = end_record(events, 4)
    scene = EndScene({"players": 4, "winners": rec.winners}, rec, None)
    app.show(scene)
    frame(app)
    try:
        assert not scene.film_btn.visible
    finally:
        app.show_menu()


def test_a_local_game_gives_the_end_screen_every_event_and_a_counted_game_none():
    """A local session holds its commands, so its game is re-run for the screen; a session
    that only counts them (a network table, a replay: None per command) gives None, and
    the screen makes do with the summary."""
    from types import SimpleNamespace

    from client.scenes.end_record import session_events
    from client.sessions.local import LocalSession
    session = LocalSession(players=3, human_seats=(), bot="random", seed=4)
    try:
        while len(session.commands) < 12:
            assert session.pump()
        shown = [e for batch in session.queue for e in batch.events]
        assert session_events(session) == shown
        counted = SimpleNamespace(config=session.config, commands=[None] * 12)
        assert session_events(counted) is None
        assert session_events(None) is None
    finally:
        session.close()
