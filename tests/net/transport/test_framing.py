"""Frames: length prefix + one msgpack map; everything else is refused with a reason."""

import struct

import msgpack
import pytest
from hypothesis import given, settings, strategies as st

from net.transport.framing import MAX_FRAME, FrameDecoder, FrameError, encode_frame


def frame_of(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def test_round_trip_in_any_chunking():
    msgs = [{"type": "A", "n": i, "b": bytes([i]) * 40} for i in range(5)]
    data = b"".join(encode_frame(m) for m in msgs)
    dec = FrameDecoder()
    out = []
    for i in range(0, len(data), 7):
        out.extend(dec.feed(data[i:i + 7]))
    assert out == msgs


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1, 50), min_size=1, max_size=30))
def test_split_points_do_not_matter(cuts):
    msgs = [{"type": "T", "i": i, "s": "x" * i} for i in range(6)]
    data = b"".join(encode_frame(m) for m in msgs)
    dec, out, pos = FrameDecoder(), [], 0
    for c in cuts:
        out.extend(dec.feed(data[pos:pos + c]))
        pos += c
    out.extend(dec.feed(data[pos:]))
    assert out == msgs


def test_oversized_length_breaks_the_stream():
    dec = FrameDecoder()
    out = dec.feed(struct.pack(">I", MAX_FRAME + 1) + b"xx")
    assert isinstance(out[0], FrameError) and "exceeds" in str(out[0])
    assert dec.broken
    assert dec.feed(encode_frame({"type": "A"})) == []


def test_truncated_frame_waits_and_reports_pending_bytes():
    dec = FrameDecoder()
    data = encode_frame({"type": "A", "x": 1})
    assert dec.feed(data[:-2]) == []
    assert dec.pending_bytes == len(data) - 2


@pytest.mark.parametrize("body,fragment", [
    (b"\xc1", "malformed"),                                   # never-used byte
    (msgpack.packb([1, 2]), "not a map"),
    (msgpack.packb({"x": 1}), "no string 'type'"),
    (msgpack.packb({1: 2, "type": "A"}), "malformed"),        # strict_map_key
    (msgpack.packb({"type": "A", "e": msgpack.ExtType(5, b"x")}), "ext"),
    (msgpack.packb({"type": "A"}) + b"\x01", "more than one"),
    (b"\x85", "malformed"),                                   # truncated map
])
def test_bad_bodies_are_reported_and_the_stream_continues(body, fragment):
    dec = FrameDecoder()
    out = dec.feed(frame_of(body) + encode_frame({"type": "Ok"}))
    assert isinstance(out[0], FrameError) and fragment in str(out[0])
    assert out[1] == {"type": "Ok"}


def test_nothing_is_unpickled():
    import pickle
    evil = pickle.dumps({"type": "A"})
    out = FrameDecoder().feed(frame_of(evil))
    assert isinstance(out[0], FrameError)


def test_encoding_refuses_oversized_messages():
    with pytest.raises(FrameError):
        encode_frame({"type": "A", "blob": b"x" * (MAX_FRAME + 10)})
