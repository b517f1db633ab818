"""`tables`' sentences: whose move each correspondence table waits for, and since when, in
the player's language (cli/correspondence.py)."""

from __future__ import annotations

import argparse
import time
from datetime import datetime
from pathlib import Path

import pytest

from cli import correspondence
from cli.correspondence import describe, since_words, summary
from lang import i18n
from net.correspondence.my_tables import MyTable
from net.correspondence.table_list import Stage, TableStatus
from net.correspondence.table_start import TableCode
from net.trust.seat_keys import SeatKey
from tests.net.fake_game import FakeEngine

KEY = SeatKey(b"k" * 32)
TUESDAY = datetime(2026, 11, 24, 14, 2).timestamp()
NOW = datetime(2026, 11, 29, 10, 0).timestamp()


def table(name: str = "friday-club", host: bool = False) -> MyTable:
    return MyTable(Path("/shared") / name, TableCode.new(KEY.public), KEY.seed, "Me", host)


@pytest.fixture(autouse=True)
def english():
    i18n.use("en")
    yield
    i18n.use("en")


def test_the_list_says_how_many_tables_wait_for_me_and_the_oldest_wait_for_another():
    statuses = [
        TableStatus(table("a"), Stage.PLAYING, mine=True, plan=True, since=NOW - 60),
        TableStatus(table("b"), Stage.PLAYING, mine=True, since=NOW - 600),
        TableStatus(table("c"), Stage.PLAYING, awaited=("Kenji",), plan=True, since=TUESDAY),
        TableStatus(table("d"), Stage.PLAYING, awaited=("Mariko",), since=NOW - 3600),
    ]
    assert summary(statuses, NOW) == \
        "your move in 2 tables; Kenji's plan awaited since Tuesday 14:02"
    assert describe(statuses[0], NOW) == "a: your plan"
    assert describe(statuses[3], NOW) == "d: Mariko's move awaited since Sunday 09:00"


@pytest.mark.parametrize("status, says", [
    (TableStatus(table(host=True), Stage.SEATING, missing=2, since=TUESDAY),
     "friday-club: waiting for 2 more players to join since Tuesday 14:02"),
    (TableStatus(table(), Stage.SEATING, host_name="Aiko", since=TUESDAY),
     "friday-club: waiting for Aiko to seat the table since Tuesday 14:02"),
    (TableStatus(table(), Stage.OVER), "friday-club: the game is over"),
    (TableStatus(table(), Stage.BROKEN, problem="table.shogun was changed: the host's "
                 "signature does not hold"),
     "friday-club: table.shogun was changed: the host's signature does not hold"),
])
def test_each_stage_in_a_sentence(status, says):
    assert describe(status, NOW) == says


def test_a_wait_of_more_than_six_days_gives_the_date():
    assert since_words(TUESDAY - 7 * 86400, NOW) == "17 November 14:02"


@pytest.mark.parametrize("lang, says", [
    ("nl", "jouw zet aan 2 tafels; wacht sinds dinsdag 14:02 op het plan van Kenji"),
    ("ro", "mutarea ta la 2 mese; se așteaptă din marți 14:02 planul lui Kenji"),
])
def test_the_list_in_dutch_and_romanian(lang, says):
    i18n.use(lang)
    statuses = [TableStatus(table("a"), Stage.PLAYING, mine=True, since=NOW),
                TableStatus(table("b"), Stage.PLAYING, mine=True, since=NOW),
                TableStatus(table("c"), Stage.PLAYING, awaited=("Kenji",), plan=True,
                            since=TUESDAY)]
    assert summary(statuses, NOW) == says


def test_host_join_and_tables_from_the_command_line(tmp_path, monkeypatch, capsys):
    """The commands' own path with the protocol-test game: host, join, tables."""
    folder = tmp_path / "shared"
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "aiko"))
    args = argparse.Namespace(command="host", folder=str(folder), name="Aiko", players=3,
                              side="sun", setup="beginner", bots=1, bot_level=None,
                              headless=False, bot="normal")
    assert correspondence.host(args, FakeEngine(2)) == 0
    out = capsys.readouterr().out
    code = next(line.strip() for line in out.splitlines() if line.startswith("    "))
    assert "waiting for 1 more player to join" in out
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "kenji"))
    join = argparse.Namespace(command="join", folder=str(folder), address=code, name="Kenji",
                              headless=False, bot="normal")
    assert correspondence.join(join, FakeEngine(2)) == 0
    assert "You asked Aiko for a seat" in capsys.readouterr().out
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "aiko"))
    assert correspondence.host(args, FakeEngine(2)) == 0      # seals, plays on
    assert "Kenji" in capsys.readouterr().out
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "kenji"))
    assert correspondence.tables(argparse.Namespace(), FakeEngine(2)) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].startswith("your move in 1 table") or "awaited since" in listed[0], listed
    assert listed[1].startswith("  shared: ")
    join.address = "not-a-code"
    assert correspondence.join(join, FakeEngine(2)) == 2
    assert "52 letters" in capsys.readouterr().err


@pytest.mark.parametrize("lang,says", [
    ("en", "shared: Kenji's plan awaited since Tuesday 14:02; the turn timer ran out for Kenji: "
           "agree to hand the seat to a bot with ./shogun takeover --folder /shared/shared 2"),
    ("nl", "shared: wacht sinds dinsdag 14:02 op het plan van Kenji; de bedenktijd van Kenji is "
           "om: stem in om de plaats aan een bot te geven met ./shogun takeover --folder "
           "/shared/shared 2"),
])
def test_a_wait_past_the_turn_timer_says_how_to_hand_the_seat_to_a_bot(lang, says):
    i18n.use(lang)
    status = TableStatus(table("shared"), Stage.PLAYING, plan=True, since=TUESDAY,
                         awaited=("Kenji",), overdue=("Kenji",), overdue_seats=(2,))
    assert describe(status, NOW) == says


def test_a_turn_timer_that_is_none_is_refused_with_a_sentence(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path / "aiko"))
    monkeypatch.delenv("SHOGUN_SHORT_TURN_TIMER", raising=False)
    args = argparse.Namespace(command="host", folder=str(tmp_path / "shared"), name="Aiko",
                              players=3, side="sun", setup="beginner", bots=1, bot_level=None,
                              headless=False, bot="normal", turn_timer="5m")
    assert correspondence.host(args, FakeEngine(2)) == 1
    assert "a turn timer of 300 seconds (it is 0, for none, or 1 hour to 90 days)" \
        in capsys.readouterr().err


def test_takeover_from_the_command_line_after_the_turn_timer(tmp_path, monkeypatch, capsys):
    """host --turn-timer, join, then Mei stops: `tables` says the timer ran out, and
    `takeover --folder DIR Mei` by both others hands her seat to a bot."""
    folder = tmp_path / "shared"
    monkeypatch.setenv("SHOGUN_SHORT_TURN_TIMER", "1")
    homes = {n: tmp_path / n.lower() for n in ("Aiko", "Kenji", "Mei")}
    monkeypatch.setenv("SHOGUN_HOME", str(homes["Aiko"]))
    host = argparse.Namespace(command="host", folder=str(folder), name="Aiko", players=3,
                              side="sun", setup="beginner", bots=0, bot_level=None,
                              headless=True, bot="normal", turn_timer="1s")
    assert correspondence.host(host, FakeEngine(2)) == 0
    code = next(line.strip() for line in capsys.readouterr().out.splitlines()
                if line.startswith("    "))
    joins = {}
    for name in ("Kenji", "Mei"):
        monkeypatch.setenv("SHOGUN_HOME", str(homes[name]))
        joins[name] = argparse.Namespace(command="join", folder=str(folder), address=code,
                                         name=name, headless=True, bot="normal")
        assert correspondence.join(joins[name], FakeEngine(2)) == 0
    for turn in range(8):                                # Mei plays once, then stops
        for name in ("Aiko", "Kenji", "Mei") if turn < 2 else ("Aiko", "Kenji"):
            monkeypatch.setenv("SHOGUN_HOME", str(homes[name]))
            if name == "Aiko":
                correspondence.host(host, FakeEngine(2))
            else:
                correspondence.join(joins[name], FakeEngine(2))
    capsys.readouterr()
    time.sleep(1.2)
    said = {}
    for name in ("Aiko", "Kenji"):
        monkeypatch.setenv("SHOGUN_HOME", str(homes[name]))
        assert correspondence.tables(argparse.Namespace(), FakeEngine(2)) == 0
        said[name] = capsys.readouterr().out
        assert "Mei's" in said[name] and "the turn timer ran out for Mei" in said[name], said
    monkeypatch.setenv("SHOGUN_HOME", str(homes["Aiko"]))
    args = argparse.Namespace(command="takeover", folder=str(folder), seat="Mei")
    assert correspondence.takeover(args, FakeEngine(2)) == 0
    out = capsys.readouterr()
    assert "You agreed that a bot plays seat 2" in out.out and "Mei's" in out.out, out
    assert correspondence.takeover(args, FakeEngine(2)) == 1
    assert "error: seat 2: already claimed" in capsys.readouterr().err
    monkeypatch.setenv("SHOGUN_HOME", str(homes["Kenji"]))
    args.seat = "2"
    assert correspondence.takeover(args, FakeEngine(2)) == 0
    out = capsys.readouterr()
    assert "a bot plays the seat" in out.err and "Mei's" not in out.out, out


@pytest.mark.parametrize("lang,hand_over,needed,handed,says", [
    ("en", "", 1, (), "You agreed to hand Kenji's seat to a bot; 1 more player must agree"),
    ("en", "", 2, (), "You agreed to hand Kenji's seat to a bot; 2 more players must agree"),
    ("en", "", 0, ("Kenji",), "Kenji's seat was handed to a bot: a bot plays it from now on"),
    ("en", "seat 2: already claimed", 0, (),
     "Could not hand Kenji's seat to a bot: seat 2: already claimed"),
    ("nl", "", 2, (), "Je stemde ermee in de plaats van Kenji aan een bot te geven; nog 2 "
                      "spelers moeten instemmen"),
])
def test_what_came_of_my_agreement_to_hand_a_seat_to_a_bot(lang, hand_over, needed, handed,
                                                            says):
    from client.words.correspondence_words import hand_words
    i18n.use(lang)
    status = TableStatus(table("shared"), Stage.PLAYING, awaited=("Kenji",),
                         hand_over=hand_over, hand_needed=needed, handed=handed)
    assert hand_words(status, "Kenji") == says


def test_the_windows_sentence_for_a_wait_past_the_turn_timer_names_no_command():
    status = TableStatus(table("shared"), Stage.PLAYING, plan=True, since=TUESDAY,
                         awaited=("Kenji",), overdue=("Kenji",), overdue_seats=(2,))
    assert describe(status, NOW, window=True) == \
        "shared: Kenji's plan awaited since Tuesday 14:02; the turn timer ran out for Kenji"
