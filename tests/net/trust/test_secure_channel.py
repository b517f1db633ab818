"""Sealed frames: a replayed, reordered, forged or unsealed frame is refused with a reason
naming what was wrong, the stream goes on, and the game is not disturbed."""

import pytest

from net.transport.framing import encode_body, encode_frame
from net.trust.secure_channel import ChannelError, SecureChannel
from tests.net.tables import autoplay, bot_seed, finished, hashes
from tests.net.trust.test_hostile import HOSTILE, reasons, table_with_hostile


def pair():
    a, b = b"a" * 32, b"b" * 32
    return SecureChannel(a, b), SecureChannel(b, a)


def test_frames_open_in_order_and_each_fault_is_named():
    me, you = pair()
    f0, f1, f2 = (me.seal(b"zero"), me.seal(b"one"), me.seal(b"two"))
    assert you.open(f0) == b"zero"
    with pytest.raises(ChannelError, match="replayed frame: number 0"):
        you.open(f0)
    with pytest.raises(ChannelError, match="out of order: number 2, expected 1"):
        you.open(f2)
    forged = f1[:-1] + bytes([f1[-1] ^ 1])
    with pytest.raises(ChannelError, match="forged or corrupted frame number 1"):
        you.open(forged)
    assert you.open(f1) == b"one" and you.open(f2) == b"two"   # nothing was lost
    with pytest.raises(ChannelError, match="not sealed for this connection"):
        you.open(encode_body({"type": "Hello"}) + b"x" * 30)
    with pytest.raises(ChannelError, match="too short"):
        you.open(b"short")
    # the other direction has its own key: my own frames do not open as yours
    with pytest.raises(ChannelError):
        me.open(me.seal(b"mine"))


def test_on_a_table_bad_frames_are_offences_and_play_goes_on(tmp_path):
    net, engine, honest, hostile = table_with_hostile(tmp_path, timeout=10.0)
    conn = next(c for c in hostile.conns if c.seat == 0)
    sent_before = len(net.written)
    conn.send({"type": "SeatDropped", "seat": 0, "reason": "about yourself"})   # ignored
    net.pump()
    last = [d for s, c, d in net.written[sent_before:] if c is conn][-1]
    conn.transport.write(last)                                   # replayed
    conn.transport.write(encode_frame({"type": "Boom", "pad": "x" * 40}))   # in clear
    net.pump()
    got = reasons(honest[0])
    assert "replayed frame" in got[0] and "not sealed for this connection" in got[1]
    assert honest[0].conn_for_seat(HOSTILE) is not None          # two offences: kept
    autoplay(net, hostile, engine)                                # now it plays along
    hostile.submit(engine.choose(hostile.state, HOSTILE, "x", bot_seed(hostile, 1)))
    net.pump()
    everyone = honest + [hostile]
    assert finished(everyone) and len(hashes(everyone)) == 1
