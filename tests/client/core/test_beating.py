"""Keeping the network beating while the window is busy (`client.core.beating`, issue 34
item 2): a pump registered while a network table is open runs between the steps of long
work, never more often than `EVERY`, never inside itself. The window under load is
tests/client/sessions/test_busy_window.py (real processes)."""

from __future__ import annotations

from client.core.beating import EVERY, Beating


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_no_pump_no_beat():
    beating = Beating(Clock())
    beating.beat()                    # a local game: nothing registered, nothing happens


def test_a_beat_pumps_once_the_pause_is_due_and_not_before():
    clock, pumped = Clock(), []
    beating = Beating(clock)

    def pump():
        with beating.pumping() as free:
            if free:
                pumped.append(clock.now)
    beating.keep(pump)
    beating.beat()
    assert pumped == []               # just registered: not due
    clock.now += EVERY / 2
    beating.beat()
    assert pumped == []
    clock.now += EVERY
    beating.beat()
    beating.beat()                    # at once again: not due
    assert pumped == [100.0 + 1.5 * EVERY]
    beating.keep(None)
    clock.now += 10
    beating.beat()
    assert len(pumped) == 1           # the table closed: no more pumps


def test_a_beat_from_inside_the_pump_does_nothing():
    clock, depth, calls = Clock(), [0], []
    beating = Beating(clock)

    def pump():
        with beating.pumping() as free:
            if not free:
                return
            calls.append(depth[0])
            depth[0] += 1
            clock.now += 1            # long work inside a pump (a reactor callback)
            beating.beat()
            depth[0] -= 1
    beating.keep(pump)
    clock.now += 1
    beating.beat()
    assert calls == [0]


def test_a_frames_own_pump_puts_the_next_beat_off():
    clock, pumped = Clock(), []
    beating = Beating(clock)

    def pump():
        with beating.pumping() as free:
            if free:
                pumped.append(clock.now)
    beating.keep(pump)
    clock.now += 1
    pump()                            # the frame pumped
    beating.beat()
    assert pumped == [101.0]
