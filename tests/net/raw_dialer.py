"""A dialer's half of the handshake by hand, for tests that write bytes themselves
(a peer under test, a hostile spectator on a raw socket).

Used by tests/net/table/test_loopback.py, tests/net/transport/test_peer.py.
"""

from __future__ import annotations

from net.transport.framing import (FrameDecoder, FrameError, decode_body, encode_body,
                                   encode_frame, frame)
from net.trust.pake import JoinKeyExchange
from net.trust.secure_channel import SecureChannel


class RawDialer:
    def __init__(self, code: str, pake: JoinKeyExchange | None = None) -> None:
        # `pake`: an exchange made elsewhere (a guesser's precomputed offer)
        self.pake = pake or JoinKeyExchange(code, dialer=True)
        self.channel: SecureChannel | None = None
        self.decoder = FrameDecoder()

    def offer(self) -> bytes:
        """The plain KeyOffered a dialer sends the moment it connects (protocol 6)."""
        return encode_frame({"type": "KeyOffered", "pake": self.pake.outbound()})

    def welcomed(self, welcome: dict) -> None:
        """The listener's answer to the offer: the channel is up after it."""
        keys = self.pake.finish(welcome["pake"])
        self.channel = SecureChannel(keys.send, keys.receive)
        self.binding = keys.binding

    def seal(self, msg: dict) -> bytes:
        assert self.channel is not None, "read the Welcomed first"
        return frame(self.channel.seal(encode_body(msg)))

    def read(self, data: bytes) -> list[dict]:
        """Messages in `data`: sealed ones opened, plain ones (a refusal) as they are."""
        out = []
        for body in self.decoder.feed_bodies(data):
            if isinstance(body, FrameError):
                raise body
            if self.channel is None:             # before the key exchange: all plain
                out.append(decode_body(body))
                continue
            try:
                out.append(decode_body(self.channel.open(body)))
            except Exception:
                out.append(decode_body(body))
        return out


def hello(versions: dict, peer: bytes, role: str = "player", name: str = "Bo",
          **over) -> dict:
    msg = {"type": "Hello", "versions": versions, "peer": peer, "role": role, "name": name,
           "listen_port": 5000, "seat": None, "token": None, "table": None,
           "seat_key": None, "seat_proof": None}
    msg.update(over)
    return msg
