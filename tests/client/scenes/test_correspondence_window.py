"""Play by correspondence in the window (issue 51): the list of this machine's tables in
sentences, and a table played in the table scene, my decision written to my seat file."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from client.scenes.correspondence_scene import CorrespondenceScene
from net.correspondence import my_tables
from net.correspondence.folder_names import seat_file_name
from net.correspondence.my_tables import MyTable
from net.correspondence.seat_record import parse_file
from net.correspondence.table_door import claim_seat, keep_copy, new_start, open_table
from net.correspondence.table_start import START_FILE, TableCode
from net.trust.seat_keys import SeatKey
from tests.client.conftest import frame, run_until, screenshot

DOCS = Path(__file__).resolve().parents[3] / "docs" / "screenshots" / "correspondence"
ME = SeatKey(b"m" * 32)
KENJI = SeatKey(b"k" * 32)


def my_bot_table(folder: Path, home: Path, monkeypatch) -> MyTable:
    """I host a 3-player table with two bots: sealed at my first visit."""
    folder.mkdir(parents=True)
    code = open_table(folder, ME, new_start(ME, "Aiko", 3, "sun", "beginner", 2, "easy"))
    table = MyTable(folder, code, ME.seed, "Aiko", True)
    monkeypatch.setenv("SHOGUN_HOME", str(home))
    my_tables.remember(table)
    keep_copy(folder, table.home, START_FILE)
    return table


def kenjis_table(folder: Path, home: Path, others: Path, monkeypatch) -> MyTable:
    """Kenji hosts a table of 3 (one bot) on his machine; I claim a seat with his code."""
    folder.mkdir(parents=True)
    code = open_table(folder, KENJI, new_start(KENJI, "Kenji", 3, "sun", "beginner", 1,
                                               "easy"))
    monkeypatch.setenv("SHOGUN_HOME", str(others))
    kenji = MyTable(folder, code, KENJI.seed, "Kenji", True)
    my_tables.remember(kenji)
    keep_copy(folder, kenji.home, START_FILE)
    given = TableCode.parse(code.text)
    claim_seat(folder, given, ME, "Aiko")
    monkeypatch.setenv("SHOGUN_HOME", str(home))
    mine = MyTable(folder, given, ME.seed, "Aiko", False)
    my_tables.remember(mine)
    return mine


def to_docs(shot: Path, name: str) -> None:
    """The docs' screenshots are written again only when asked (SHOGUN_DOC_SHOTS=1), so a
    test run leaves the repository as it was."""
    if os.environ.get("SHOGUN_DOC_SHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, DOCS / name)


def whole(app, path: Path) -> Path:
    """A screenshot of the whole frame (not only the tower's animated part)."""
    from client.core.damage import damage
    damage()
    return screenshot(app, path)


def records(table: MyTable, seat: int) -> int:
    return len(parse_file((table.folder / seat_file_name(seat)).read_bytes()).records)


@pytest.fixture
def tables(app, home, tmp_path, monkeypatch):
    ours = my_bot_table(tmp_path / "friday-club", home, monkeypatch)
    theirs = kenjis_table(tmp_path / "with-kenji", home, tmp_path / "kenji", monkeypatch)
    return ours, theirs


def test_the_list_says_whose_move_each_table_waits_for(app, tables, shots):
    app.set_size(1280, 800)
    scene = app.show_correspondence()
    frame(app, 2)
    assert isinstance(app.scene, CorrespondenceScene)
    assert scene.headline == "your move in 1 table"
    said = [b.label for b in scene.table_buttons]
    assert said[0] in ("friday-club: your plan", "friday-club: your move"), said
    assert said[1].startswith("with-kenji: waiting for Kenji to seat the table since "), said
    to_docs(whole(app, shots / "correspondence-list.png"), "list-1280x800.png")
    try:
        app.set_size(960, 640)
        app.on_resize(960, 640)
        frame(app, 3)
        to_docs(whole(app, shots / "correspondence-list-small.png"), "list-960x640.png")
        assert all(b.visible for b in scene.table_buttons)
    finally:
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
        frame(app)


def test_a_wrong_code_is_said_as_a_sentence_and_nothing_is_kept(app, home, tmp_path):
    scene = app.show_correspondence()
    scene.f_folder.value = str(tmp_path)
    scene.f_code.value = "not-a-code"
    scene.b_join.pressed.emit()
    assert scene.message.startswith("Could not join: "), scene.message
    assert "Traceback" not in scene.message and "Error" not in scene.message
    assert my_tables.my_tables() == ([], [])


def test_my_plan_made_in_the_scene_is_written_to_my_seat_file(app, tables, shots):
    ours, _ = tables
    app.set_size(1280, 800)
    app.show_correspondence()
    game = app.open_correspondence(ours)
    assert game is not None, app.scene.message
    assert run_until(app, lambda: game.planning.visible, 60), "never asked to plan"
    before = records(ours, 0)
    step = app.session.link.lockstep.step
    frame(app, 2)
    to_docs(whole(app, shots / "correspondence-table.png"), "table-1280x800.png")
    try:
        app.set_size(960, 640)
        app.on_resize(960, 640)
        frame(app, 3)
        to_docs(whole(app, shots / "correspondence-table-small.png"), "table-960x640.png")
    finally:
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
        frame(app)
    game.asker.suggest()
    game.planning.lock_btn.pressed.emit()
    frame(app, 2)
    assert records(ours, 0) > before, "my plan was not written to my seat file"
    assert app.session.link.lockstep.step > step          # the bots' plans: the round goes on
    app.close_session()                                  # closed at any point: nothing lost
    again = app.open_correspondence(ours)
    assert again is not None
    assert app.session.link.lockstep.step > step          # the next state, not the plan
    assert app.session.link.lockstep.my_plans                # my plan, read from my file


@pytest.mark.parametrize("lang, title", [("nl", "Correspondentiespel"),
                                         ("ro", "Joc prin corespondență")])
def test_the_list_reads_in_the_language_and_its_labels_fit(app, tables, shots, lang, title):
    from lang import i18n
    from tests.client.words.test_i18n_window import _buttons_fit
    i18n.use(lang)
    try:
        app.set_size(960, 640)
        app.on_resize(960, 640)
        scene = app.show_correspondence()
        frame(app, 2)
        assert scene.texts.labels["t"].text == title
        assert scene.headline.startswith(("jouw zet aan 1 tafel", "mutarea ta la 1 masă"))
        assert not _buttons_fit(scene), _buttons_fit(scene)
        whole(app, shots / f"correspondence-list-{lang}.png")
    finally:
        i18n.use("en")
        app.set_size(1280, 800)
        app.on_resize(1280, 800)


def test_another_players_moves_appear_while_the_table_is_open(app, home, tmp_path,
                                                             monkeypatch):
    """Kenji's program plays (a visit with a bot's choices) while my window has the table
    open: my watch reads his files within seconds and the round goes on in my window."""
    from cli.correspondence import bot_chooser
    from net.correspondence.table_list import Stage, visit
    from net.lockstep.engine import SimEngine
    mine = kenjis_table(tmp_path / "with-kenji", home, tmp_path / "kenji", monkeypatch)
    kenji = MyTable(mine.folder, mine.code, KENJI.seed, "Kenji", True)
    engine = SimEngine()

    def kenji_visits():
        monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "kenji"))
        try:
            return visit(kenji, engine, bot_chooser(engine, "easy", mine.code.table))
        finally:
            monkeypatch.setenv("SHOGUN_HOME", str(home))

    def kenji_plays_until(cond, seconds: float) -> bool:
        """Kenji's program visits now and then while my window runs (its watch reads)."""
        deadline = time.time() + seconds
        while time.time() < deadline and not cond():
            kenji_visits()
            run_until(app, cond, 1.0)
        return cond()

    kenji_visits()                                      # seals the seating, says his chain
    app.show_correspondence()                           # my visit says my chain
    first = app.open_correspondence(mine)
    assert first is not None, app.scene.message
    # opened again (as from the list): the first session is closed first, or two links of
    # my seat would both write my file and fork it (the reader then ignores my records)
    game = app.open_correspondence(mine)
    assert game is not None, app.scene.message
    readings = app.session.watch.readings
    assert kenji_plays_until(lambda: game.planning.visible, 60), "never asked to plan"
    assert app.session.watch.readings > readings        # the watch read his files
    assert "seat-1" not in " ".join(app.session.table_status.named)
    game.asker.suggest()
    game.planning.lock_btn.pressed.emit()
    frame(app, 2)
    step = app.session.link.lockstep.step
    assert app.session.waiting_text == "Waiting for Kenji"
    assert kenji_plays_until(lambda: app.session.link.lockstep.step > step, 30), \
        "Kenji's move never reached the open window"
    assert not app.session.link.findings, app.session.link.findings


def test_a_table_open_in_the_window_is_not_played_by_another_program_of_mine(app, tables):
    """Two programs of mine at one table would both write my seat file and fork it (the
    others would then expel me by proof): while the window plays it, a visit (as
    `./shogun tables` makes) says so and writes nothing; once closed, it plays again."""
    from net.correspondence.table_list import BUSY, Stage, visit
    from net.lockstep.engine import SimEngine
    ours, _ = tables
    assert app.open_correspondence(ours) is not None, app.scene.message
    before = (ours.folder / seat_file_name(0)).read_bytes()
    status = visit(ours, SimEngine())
    assert status.stage is Stage.BROKEN and status.problem == BUSY
    assert (ours.folder / seat_file_name(0)).read_bytes() == before
    app.close_session()
    assert visit(ours, SimEngine()).stage is Stage.PLAYING


def overdue_table(tmp_path: Path, home: Path, monkeypatch) -> tuple[Path, dict]:
    """Aiko (me, in `home`) hosts a table of three with a turn timer (in seconds:
    SHOGUN_SHORT_TURN_TIMER); Kenji and Mei join; Kenji plays once, then stops. The
    others' programs play on (a bot's choices) until Kenji's decision is awaited, and my
    `./shogun tables` has seen him awaited past the timer."""
    import argparse

    from cli import correspondence
    folder = tmp_path / "with-kenji"
    monkeypatch.setenv("SHOGUN_SHORT_TURN_TIMER", "1")
    homes = {"Aiko": home, "Kenji": tmp_path / "kenji", "Mei": tmp_path / "mei"}

    def as_(name: str):
        monkeypatch.setenv("SHOGUN_HOME", str(homes[name]))

    as_("Aiko")
    host = argparse.Namespace(command="host", folder=str(folder), name="Aiko", players=3,
                              side="sun", setup="beginner", bots=0, bot_level=None,
                              headless=True, bot="easy", turn_timer="1s")
    assert correspondence.host(host, None) == 0
    code = next(t for t in my_tables.my_tables()[0] if t.folder == folder).code.text
    joins = {}
    for name in ("Kenji", "Mei"):
        as_(name)
        joins[name] = argparse.Namespace(command="join", folder=str(folder), address=code,
                                         name=name, headless=True, bot="easy")
        assert correspondence.join(joins[name], None) == 0
    for turn in range(4):                                # Kenji plays once, then stops
        for name in ("Aiko", "Kenji", "Mei") if turn < 2 else ("Aiko", "Mei"):
            as_(name)
            if name == "Aiko":
                correspondence.host(host, None)
            else:
                correspondence.join(joins[name], None)
    as_("Aiko")
    correspondence.tables(argparse.Namespace())          # my program sees him awaited
    time.sleep(1.2)
    return folder, homes


def test_a_seat_past_its_turn_timer_is_handed_to_a_bot_from_the_list(app, home, tmp_path,
                                                                    monkeypatch, shots):
    """The button appears only under the table whose player ran out of time; pressing it
    writes my hand-over claim into my seat file (as `./shogun takeover` does) and the list
    says what came of it."""
    from net.correspondence.seat_record import KIND_HAND
    ours = my_bot_table(tmp_path / "friday-club", home, monkeypatch)   # no timer: no button
    folder, _homes = overdue_table(tmp_path, home, monkeypatch)
    app.set_size(960, 640)
    app.on_resize(960, 640)
    try:
        scene = app.show_correspondence()
        frame(app, 2)
        labels = [b.label for b in scene.hand_buttons]
        assert labels == ["Hand Kenji's seat to a bot"], labels
        row = next(b.label for b in scene.table_buttons if b.label.startswith("with-kenji"))
        assert row.endswith("; the turn timer ran out for Kenji"), row
        assert "takeover" not in row
        assert not any(b.label.startswith("friday-club") and "timer" in b.label
                       for b in scene.table_buttons)
        assert scene.hand_buttons[0].visible
        from tests.client.words.test_i18n_window import _buttons_fit
        assert not _buttons_fit(scene), _buttons_fit(scene)
        to_docs(whole(app, shots / "correspondence-list-overdue.png"),
                "list-overdue-960x640.png")
        from lang import i18n
        for lang, words in (("nl", "Geef de plaats van Kenji aan een bot"),
                            ("ro", "Dă locul lui Kenji unui bot")):
            i18n.use(lang)
            try:
                scene.show_statuses(scene.statuses)
                frame(app, 2)
                assert [b.label for b in scene.hand_buttons] == [words]
                assert not _buttons_fit(scene), (lang, _buttons_fit(scene))
                whole(app, shots / f"correspondence-list-overdue-{lang}.png")
            finally:
                i18n.use("en")
        scene.show_statuses(scene.statuses)
        mine = (folder / seat_file_name(0)).read_bytes()
        assert not [r for r in parse_file(mine).records if r.kind == KIND_HAND]
        scene.hand_buttons[0].pressed.emit()
        frame(app, 2)
        claims = [r for r in parse_file((folder / seat_file_name(0)).read_bytes()).records
                  if r.kind == KIND_HAND]
        assert len(claims) == 1, "my hand-over claim was not written to my seat file"
        assert scene.message == ("You agreed to hand Kenji's seat to a bot; 1 more player "
                                 "must agree"), scene.message
        assert scene.hand_buttons == []                   # claimed: no second claim
        row = next(b.label for b in scene.table_buttons if b.label.startswith("with-kenji"))
        assert "turn timer" not in row, row
        whole(app, shots / "correspondence-list-overdue-claimed.png")
    finally:
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
        frame(app)
    assert ours.folder.is_dir()


def test_my_agreement_after_another_players_hands_the_seat_to_a_bot(app, home, tmp_path,
                                                                   monkeypatch):
    """Mei agreed first (`./shogun takeover` on her machine); my button makes the second of
    three: the seat is handed, and the list says so and waits for Kenji no more."""
    import argparse

    from cli import correspondence
    folder, homes = overdue_table(tmp_path, home, monkeypatch)
    monkeypatch.setenv("SHOGUN_HOME", str(homes["Mei"]))
    correspondence.tables(argparse.Namespace())          # Mei's program sees him awaited
    time.sleep(1.2)
    args = argparse.Namespace(command="takeover", folder=str(folder), seat="Kenji")
    assert correspondence.takeover(args) == 0
    monkeypatch.setenv("SHOGUN_HOME", str(home))
    scene = app.show_correspondence()
    frame(app, 2)
    assert [b.label for b in scene.hand_buttons] == ["Hand Kenji's seat to a bot"]
    scene.hand_buttons[0].pressed.emit()
    frame(app, 2)
    assert scene.message == "Kenji's seat was handed to a bot: a bot plays it from now on", \
        scene.message
    assert scene.hand_buttons == []
    assert not any("Kenji's" in b.label for b in scene.table_buttons), \
        [b.label for b in scene.table_buttons]
