"""The round trip of one sealed connection, measured end to end by a ping and its answer.

Why: the kernel's estimate for a TCP connection (TCP_INFO, `net.reach.peer_links`) measures
only the hop to the other end of the socket. A friend who joined by code reaches the
host's table through a wormhole tunnel whose ends are loopback ports on both machines, so
that estimate says "well under a millisecond" for a link that goes through a relay on
another continent. A `Pinged` answered by `PingAnswered` on the same sealed connection
times the whole path (tunnel, relay, both tables' reactors) on the asker's reactor clock.

Why in the connection (like `Offended`) and not in a table part: answering and timing
needs nothing of the table, and a connection owns its clock and its sends.

Limits: a connection has at most one ping of its own out at a time (`ask` again before
the answer does nothing, unless the answer is overdue), and answers at most
`ANSWER_BURST` pings at once, refilled at `ANSWERS_PER_SECOND`: a peer that pings in a
loop gets that many answers, and the rest are ignored (counted, logged once) — never an
offence, since an answer in flight may cross a new ping. An answer that matches no ping of
ours is ignored as well: it could only be late. Both messages are sealed like every
message after the key exchange, so nobody on the path can forge or time-shift one
without the channel refusing it.

Tests: tests/net/transport/test_round_trip.py, tests/net/trust/test_hostile.py (hostile
pings).
"""

from __future__ import annotations

import logging
from typing import Callable, Mapping

from net.transport.messages import MAX_PING

log = logging.getLogger("net.transport.peer")

ANSWERS_PER_SECOND = 2.0     # pings answered per second, at most (an honest asker: 1)
ANSWER_BURST = 4.0
ASK_AGAIN_AFTER = 10.0       # a ping unanswered this long is given up; the next ask sends


class RoundTrip:
    """One connection's pings: the ones it asks, the ones it answers."""

    def __init__(self, clock: Callable[[], float], send: Callable[[Mapping[str, object]], None],
                 describe: Callable[[], str] = lambda: "a peer") -> None:
        self._clock = clock
        self._send = send
        self._describe = describe
        self.measured: float | None = None      # seconds, the last answered ping's
        self._out: tuple[int, float] | None = None   # (ping number, sent at)
        self._next = 1
        self._tokens = ANSWER_BURST
        self._tokens_at = clock()
        self.ignored = 0                        # pings not answered (over the limit)

    def ask(self) -> None:
        """Send a ping unless one is out (and not overdue); `measured` follows its answer."""
        now = self._clock()
        if self._out is not None and now - self._out[1] < ASK_AGAIN_AFTER:
            return
        ping = self._next
        self._next = self._next % MAX_PING + 1
        self._out = (ping, now)
        self._send({"type": "Pinged", "ping": ping})

    def pinged(self, ping: int) -> None:
        """The other end asks: answer it, within the answer budget."""
        now = self._clock()
        self._tokens = min(ANSWER_BURST, self._tokens + (now - self._tokens_at)
                           * ANSWERS_PER_SECOND)
        self._tokens_at = now
        if self._tokens < 1.0:
            self.ignored += 1
            if self.ignored == 1:
                log.warning("%s pings faster than %g a second: the pings over that are "
                            "not answered", self._describe(), ANSWERS_PER_SECOND)
            return
        self._tokens -= 1.0
        self._send({"type": "PingAnswered", "ping": ping})

    def answered(self, ping: int) -> None:
        """The answer to my ping: its round trip. Another number (late, or never asked)
        is ignored."""
        if self._out is None or self._out[0] != ping:
            return
        self.measured = self._clock() - self._out[1]
        self._out = None
