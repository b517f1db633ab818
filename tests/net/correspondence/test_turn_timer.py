"""The turn timer's setting and my own notes of since when a seat is awaited
(net/correspondence/turn_timer.py)."""

from __future__ import annotations

import pytest

from net.correspondence.turn_timer import (HOUR, MAX_TIMER, NOTES, SHORT_ENV, TimerError,
                                           WaitNotes, parse_timer, ran_out, timer_problem)

PARSE_ROWS = [("2d", 2 * 24 * HOUR), ("36h", 36 * HOUR), ("36", 36 * HOUR),
              ("90m", 90 * 60), (" 1D ", 24 * HOUR), ("0", 0), ("90d", MAX_TIMER)]


@pytest.mark.parametrize("text,seconds", PARSE_ROWS)
def test_parse_timer(text, seconds, monkeypatch) -> None:
    monkeypatch.delenv(SHORT_ENV, raising=False)
    assert parse_timer(text) == seconds


@pytest.mark.parametrize("text", ["30s", "59m", "91d", "2w", "", "-1h", "1.5d", "x" * 99])
def test_parse_timer_refuses(text, monkeypatch) -> None:
    monkeypatch.delenv(SHORT_ENV, raising=False)
    with pytest.raises(TimerError):
        parse_timer(text)


def test_seconds_only_with_the_test_switch(monkeypatch) -> None:
    monkeypatch.setenv(SHORT_ENV, "1")
    assert parse_timer("3s") == 3
    assert timer_problem(3) != "" and timer_problem(3, short=True) == ""


@pytest.mark.parametrize("since,now,timer,out", [
    (100.0, 150.0, 50, True), (100.0, 149.9, 50, False), (100.0, 10 ** 9, 0, False)])
def test_ran_out(since, now, timer, out) -> None:
    assert ran_out(since, now, timer) is out


def test_notes_keep_the_first_time_seen_across_sessions_and_forget_what_moved_on(tmp_path) -> None:
    notes = WaitNotes(tmp_path)
    notes.note(7, (2,), 100.0)
    notes.note(7, (2,), 500.0)
    assert WaitNotes(tmp_path).since(2, 7) == 100.0         # read back by the next session
    again = WaitNotes(tmp_path)
    again.note(8, (1,), 600.0)
    assert again.since(2, 7) is None and WaitNotes(tmp_path).since(1, 8) == 600.0


@pytest.mark.parametrize("junk", [b"", b"\xc1", b"\x91\x93\xa1x\x01\x02", b"\x81\x01\x02"])
def test_notes_that_are_junk_are_no_notes(tmp_path, junk) -> None:
    (tmp_path / NOTES).write_bytes(junk)
    assert WaitNotes(tmp_path).seen == {}
