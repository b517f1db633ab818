"""A tunnel's two ends joined (`net.reach.tunnel`): what one end sent before the other
existed reaches the other, unless the sender has gone meanwhile (issue 47's leftover: a
friend's redial, given up while a stalled relay held its bytes, still reached the table
as a key exchange for nobody once the relay flowed again)."""

from __future__ import annotations

from typing import cast

from twisted.internet.defer import Deferred
from twisted.internet.protocol import Factory
from twisted.internet.testing import StringTransport

from net.reach import tunnel


class _Endpoint:
    """The table's port (or a subchannel), connected when the test says."""

    def __init__(self) -> None:
        self.connecting: Deferred[tunnel._End] = Deferred()
        self.factory: Factory | None = None

    def connect(self, factory: Factory) -> Deferred[tunnel._End]:
        self.factory = factory
        return self.connecting

    def answer(self) -> tuple[tunnel._End, StringTransport]:
        assert self.factory is not None
        end = cast(tunnel._End, self.factory.buildProtocol(None))
        wire = StringTransport()
        end.makeConnection(wire)
        self.connecting.callback(end)
        return end, wire


class _Friend:
    """A friend's end of the tunnel (a subchannel), its other end still connecting to the
    table, having sent `sent`; `told` counts the table told of the friend's port."""

    def __init__(self, sent: bytes) -> None:
        self.end, self.wire = tunnel._End(), StringTransport()
        self.end.makeConnection(self.wire)
        self.table = _Endpoint()
        self.told: list[int] = []
        tunnel._connect_other_end(self.end, self.table, lambda _second: self.told.append(1))
        self.end.dataReceived(sent)


def test_what_a_friend_sent_before_the_table_answered_reaches_the_table():
    friend = _Friend(b"key exchange")
    second, wire = friend.table.answer()
    assert wire.value() == b"key exchange" and not wire.disconnecting
    assert friend.told == [1]
    second.dataReceived(b"answer")
    assert friend.wire.value() == b"answer"


def test_what_a_friend_sent_before_it_went_away_reaches_nothing():
    friend = _Friend(b"stale key exchange")
    friend.end.connectionLost(None)           # the friend gave this redial up
    _second, wire = friend.table.answer()     # the relay flows again
    assert wire.value() == b"", "a gone friend's bytes were handed to the table"
    assert wire.disconnecting, "the table's end is left open for nobody"
    assert friend.told == [1], "the table's connection is still the friend's (no stranger's)"
