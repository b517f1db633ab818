"""Autosave without a window: a local game's save is the headless format, checks with
`replay --verify`, and resumes to the same state hash."""

from __future__ import annotations

import pytest

import main
from store.game_save import read_save
from client.sessions.autosave import Autosave, autosave_path, last_game_path, named_saves, save_named
from client.sessions.replay import resume_local
from client.sessions.local import LocalSession
from sim.game import state_hash


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path))
    return tmp_path


def _play_until_human(session) -> None:
    while session.pump():
        pass


def test_a_game_is_saved_as_it_goes_and_resumes_exactly(home, capsys):
    session = LocalSession(4, "sun", "beginner", (2,), "heuristic", seed=21)
    save = Autosave.start(session)
    _play_until_human(session)                 # bots and chance up to my first plan
    assert session.waiting_for_me()
    saved = read_save(autosave_path())
    assert saved.humans == (2,) and len(saved.commands) == len(session.commands) > 0
    assert saved.bots[2] == "heuristic"        # a headless resume lets a bot play my seat
    save.close()
    assert main.main(["replay", str(autosave_path()), "--verify"]) == 0
    assert "every state hash matches" in capsys.readouterr().out
    again, _saved = resume_local(str(autosave_path()))
    assert again.my_seats == (2,)
    assert state_hash(again.state) == state_hash(session.state)


def test_a_finished_game_leaves_no_continue_but_keeps_the_last_game(home):
    session = LocalSession(3, "sun", "beginner", (), "random", seed=5)
    save = Autosave.start(session)
    _play_until_human(session)
    assert session.decision.kind == "over"
    assert save.finished and not autosave_path().exists()
    assert main.main(["replay", str(last_game_path()), "--verify"]) == 0


def test_resuming_appends_to_the_same_autosave(home):
    session = LocalSession(4, "sun", "beginner", (0,), "heuristic", seed=8)
    save = Autosave.start(session)
    _play_until_human(session)
    save.close()
    again, saved = resume_local(str(autosave_path()))
    save2 = Autosave.start(again, saved=saved)
    from sim import bots
    again.submit(bots.choose(again.state, 0, "heuristic", bytes(32)))   # my plan
    _play_until_human(again)
    save2.close()
    assert len(read_save(autosave_path()).commands) == len(again.commands)
    assert main.main(["replay", str(autosave_path()), "--verify"]) == 0


def test_named_saves_are_copies_listed_newest_first(home):
    session = LocalSession(4, "sun", "beginner", (0,), "heuristic", seed=8)
    save = Autosave.start(session)
    _play_until_human(session)
    first = save_named(save, "before/../the plan?")
    assert first.parent == home / "data" / "saves" and first.name == "before the plan.save"
    listed = named_saves()
    assert [i.path for i in listed] == [first]
    assert listed[0].title.startswith("before the plan  (")
    again, _ = resume_local(str(first))
    assert state_hash(again.state) == state_hash(session.state)


def test_a_tampered_save_is_refused_with_the_line(home, tmp_path):
    session = LocalSession(4, "sun", "beginner", (0,), "heuristic", seed=8)
    save = Autosave.start(session)
    _play_until_human(session)
    save.close()
    lines = autosave_path().read_text().splitlines()
    h = lines[3].split('"hash":"')[1][:64]
    lines[3] = lines[3].replace(h, "f" * 64)
    autosave_path().write_text("\n".join(lines) + "\n")
    from store.game_save import SaveError
    with pytest.raises(SaveError, match="line 4"):
        resume_local(str(autosave_path()))


def test_a_new_game_keeps_the_unfinished_one_among_the_saves(home):
    old = LocalSession(4, "sun", "beginner", (0,), "heuristic", seed=8)
    save = Autosave.start(old)
    _play_until_human(old)
    from sim import bots
    old.submit(bots.choose(old.state, 0, "heuristic", bytes(32)))     # my first plan
    _play_until_human(old)
    save.close()
    new = LocalSession(3, "moon", "draft", (1,), "random", seed=9)
    Autosave.start(new).close()
    assert read_save(autosave_path()).config.players == 3
    kept = named_saves()
    steps = len(old.commands)
    assert len(kept) == 1 and kept[0].title.startswith(f"unfinished game, {steps} steps  (")
    again, _ = resume_local(str(kept[0].path))
    assert state_hash(again.state) == state_hash(old.state)
    from lang.i18n import current, use
    before = current()
    try:                           # issue 27, item 7: the Dutch menu said "unfinished 2026-…"
        for lang, words in (("nl", "onvoltooid spel"), ("ro", "joc neterminat")):
            use(lang)
            title = named_saves()[0].title
            assert title.startswith(words) and "unfinished" not in title, title
    finally:
        use(before)


def test_a_game_left_before_its_player_decided_anything_is_not_kept(home):
    """Opening a game and leaving it at once piled up "unfinished game" entries in the
    menu (dozens, all alike); only a game its player decided something in is kept."""
    for seed in (8, 9, 10):
        untouched = LocalSession(4, "sun", "beginner", (0,), "heuristic", seed=seed)
        Autosave.start(untouched)
        _play_until_human(untouched)          # bots and chance only, up to my first plan
    assert named_saves() == []
    watched = LocalSession(3, "sun", "beginner", (), "random", seed=4)   # bots only:
    save = Autosave.start(watched)                                       # watched, kept
    for _ in range(30):
        watched.pump()
    save.close()
    Autosave.start(LocalSession(4, "sun", "beginner", (0,), "heuristic", seed=11)).close()
    assert len(named_saves()) == 1


def test_continue_says_how_far_the_game_went_in_years_and_seasons(home):
    """Issue 37, item 12: Continue said "138 steps" where a player counts "year 2,
    spring"."""
    from client.sessions.autosave import continue_info
    session = LocalSession(4, "sun", "beginner", (2,), "heuristic", seed=21)
    save = Autosave.start(session)
    _play_until_human(session)
    save.close()
    info = continue_info()
    assert info is not None
    assert "year 1, spring" in info.title and "step" not in info.title, info.title


def test_continue_dates_the_save_in_numbers_not_in_english_month_names(home):
    """Issue 49 (the first-hour screenshots): the Dutch and Romanian menus' Continue line
    read "opgeslagen 29 Nov 17:53", an English month in a Dutch sentence. The save's time
    is given as the list of saves gives it: 2026-11-29 17:53, in every language."""
    import re
    from client.sessions.autosave import continue_info
    from lang.i18n import use
    session = LocalSession(4, "sun", "beginner", (2,), "heuristic", seed=21)
    save = Autosave.start(session)
    _play_until_human(session)
    save.close()
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
              "Dec")
    try:
        for lang in ("en", "nl", "ro"):
            use(lang)
            info = continue_info()
            assert info is not None
            assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d$", info.title), (lang, info.title)
            assert not [m for m in months if m in info.title], (lang, info.title)
    finally:
        use("en")
