"""Frames on the wire: a 4-byte big-endian length, then one msgpack map with a `type`.

Why so strict: every byte comes from a peer we do not trust. The decoder refuses
oversized lengths before buffering them, decodes with size limits and no ext types, and
returns only plain maps of plain values. Nothing here (or anywhere in `net`) unpickles
or evaluates wire data.

Tests: tests/net/transport/test_framing.py, tests/net/transport/test_fuzz.py.
"""

from __future__ import annotations

import struct
from typing import Mapping, NoReturn

import msgpack

from net.transport.messages import Wire

MAX_FRAME = 1 << 20          # 1 MiB: a whole command log of a long game fits easily
MAX_BODY = MAX_FRAME - 64    # room for sealing (net.trust.secure_channel adds 24 bytes)
_HEADER = struct.Struct(">I")


class FrameError(ValueError):
    """A frame that cannot be accepted: the reason names what was wrong."""


def encode_body(message: Mapping[str, object]) -> bytes:
    """One message as msgpack (bin type for bytes), within the size limit."""
    body: bytes = msgpack.packb(message, use_bin_type=True)
    if len(body) > MAX_BODY:
        raise FrameError(f"frame of {len(body)} bytes exceeds the limit of {MAX_BODY}")
    return body


def frame(body: bytes) -> bytes:
    """A body (plain msgpack or sealed) with its 4-byte length."""
    return _HEADER.pack(len(body)) + body


def encode_frame(message: Mapping[str, object]) -> bytes:
    """One message as a length-prefixed msgpack frame (bin type for bytes)."""
    return frame(encode_body(message))


def _ext_refused(code: int, data: bytes) -> NoReturn:
    raise FrameError(f"msgpack ext type {code} is not allowed")


def decode_body(body: bytes) -> Wire:
    """A frame body as a message map, or FrameError naming the fault."""
    try:
        obj = msgpack.unpackb(
            body, raw=False, strict_map_key=True, use_list=True,
            max_str_len=MAX_FRAME, max_bin_len=MAX_FRAME, max_array_len=100_000,
            max_map_len=10_000, max_ext_len=0, ext_hook=_ext_refused)
    except FrameError:
        raise
    except msgpack.ExtraData:
        raise FrameError("frame holds more than one msgpack object") from None
    except Exception as exc:   # msgpack raises several types for bad input
        raise FrameError(f"malformed msgpack: {type(exc).__name__}: {exc}"[:200]) from None
    if not isinstance(obj, dict):
        raise FrameError(f"frame is a msgpack {type(obj).__name__}, not a map")
    kind = obj.get("type")
    if not isinstance(kind, str) or not kind:
        raise FrameError("frame map has no string 'type' field")
    return obj


class FrameDecoder:
    """Cuts a byte stream into message maps.

    `feed(data)` returns the complete messages; a bad frame raises FrameError once the
    frame is complete (the stream stays in sync, so the caller may keep reading and
    count the offence). An oversized length cannot be resynchronised: `broken` is set.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buffer = bytearray()
        self.broken: str | None = None

    @property
    def pending_bytes(self) -> int:
        return len(self._buffer)

    def feed(self, data: bytes) -> list[Wire | FrameError]:
        """Messages (or FrameError values, in stream order) completed by `data`."""
        return [item if isinstance(item, FrameError) else _decoded(item)
                for item in self.feed_bodies(data)]

    def feed_bodies(self, data: bytes) -> list[bytes | FrameError]:
        """Frame bodies, undecoded, completed by `data` (a sealed stream opens each body
        before decoding it, and the key may change between two frames of one read)."""
        self.push(data)
        out: list[bytes | FrameError] = []
        while (body := self.next_body()) is not None:
            out.append(body)
        return out

    def push(self, data: bytes) -> None:
        """Bytes read from the stream; `next_body` cuts them into frames."""
        if not self.broken:
            self._buffer.extend(data)

    def next_body(self) -> bytes | FrameError | None:
        """The next complete frame body, or None until more bytes arrive. One at a time,
        so a limit changed after one frame (the handshake ended) holds for the next."""
        if self.broken or len(self._buffer) < _HEADER.size:
            return None
        (length,) = _HEADER.unpack_from(self._buffer)
        if length > self.max_frame:
            self.broken = f"frame length {length} exceeds the limit of {self.max_frame}"
            self._buffer.clear()
            return FrameError(self.broken)
        if len(self._buffer) < _HEADER.size + length:
            return None
        body = bytes(self._buffer[_HEADER.size:_HEADER.size + length])
        del self._buffer[:_HEADER.size + length]
        return body


def _decoded(body: bytes) -> Wire | FrameError:
    try:
        return decode_body(body)
    except FrameError as exc:
        return exc
