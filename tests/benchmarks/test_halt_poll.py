"""`benchmarks/halt_poll.py` changes the machine's idle polling only for a benchmark's run
and always puts it back (tested on stand-in files, never on the real settings)."""

from __future__ import annotations

import pytest

from benchmarks import halt_poll


@pytest.fixture
def knobs(tmp_path, monkeypatch):
    (tmp_path / "guest_halt_poll_ns").write_text("0\n")
    (tmp_path / "guest_halt_poll_allow_shrink").write_text("Y\n")
    monkeypatch.setattr(halt_poll, "KNOBS", tmp_path)
    return tmp_path


def test_polling_is_set_for_the_block_and_restored_after(knobs):
    with halt_poll.polling(3000) as said:
        assert (knobs / "guest_halt_poll_ns").read_text() == "3000000"
        assert (knobs / "guest_halt_poll_allow_shrink").read_text() == "N"
        assert "3000 us" in said
    assert (knobs / "guest_halt_poll_ns").read_text() == "0"
    assert (knobs / "guest_halt_poll_allow_shrink").read_text() == "Y"


def test_restored_even_when_the_benchmark_fails(knobs):
    with pytest.raises(RuntimeError):
        with halt_poll.polling(500):
            raise RuntimeError("a game went wrong")
    assert (knobs / "guest_halt_poll_ns").read_text() == "0"


def test_without_the_setting_nothing_changes_and_it_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(halt_poll, "KNOBS", tmp_path / "absent")
    with halt_poll.polling(3000) as said:
        assert said.startswith("idle CPUs halt as they are set to (cannot set")


def test_a_benchmark_runs_under_the_setting_it_asked_for(knobs, capsys):
    import argparse
    seen = []

    def measure(args):
        seen.append((knobs / "guest_halt_poll_ns").read_text())
        return 7

    assert halt_poll.run(argparse.Namespace(halt_poll_us=250), measure) == 7
    assert halt_poll.run(argparse.Namespace(halt_poll_us=0), measure) == 7
    assert seen == ["250000", "0"]          # restored after the first; 0: left as it is
    printed = capsys.readouterr().out.splitlines()
    assert printed == ["idle CPUs poll up to 250 us before halting (haltpoll; was 0 us)",
                       "idle CPUs halt as the machine is set to"]
