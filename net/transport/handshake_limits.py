"""What a connection may cost the host before it has proved the join code.

Why: until the SPAKE2 handshake ends, a connection is a stranger's. Without bounds one
stranger could make the host buffer a 1 MiB frame per connection (300 connections took
the host from 47 to 355 MiB) or hold connections open for ever. So, until the handshake
ends, a connection gets a small frame limit and a deadline, and the listener admits only
so many of them at once, in all and per address; beyond that a new connection is closed
at once, before a byte of it is read. After the handshake the normal limits apply
(`net.transport.framing.MAX_FRAME`, heartbeats in `net.table.liveness`).

The open-files limit is the machine's, not the table's: a host whose descriptors a flood
used up could not open a file the game needs, nor accept an honest player. So the
listener also keeps its connections, proven or not, well short of the process's limit
(`OpenFilesBudget`, read with `resource.getrlimit(RLIMIT_NOFILE)`), and the game's files
are read before it listens (`net.lockstep.engine.SimEngine.prepare`).

Tests: tests/net/trust/test_bounded_handshake.py, tests/net/trust/test_flood.py.
"""

from __future__ import annotations

import logging
from typing import Any

try:
    import resource
except ImportError:             # not on Windows: there the C runtime's limit is far off
    resource = None  # type: ignore[assignment]

log = logging.getLogger("net.transport.handshake_limits")

# The largest honest handshake frame is a `Refused` with the longest reason the schema
# allows (2,000 characters: 2,024 bytes); a `Hello` with every field set is 663 bytes, a
# `Welcomed` 399. 8 KiB leaves room for non-ASCII reasons and for the schema's largest
# versions map (20 entries of 200 characters), while a stranger's buffer stays small.
HANDSHAKE_MAX_FRAME = 8 * 1024

# The handshake is three messages each way, computed in milliseconds and typed by no one
# (the code is entered before dialing): 10 s covers a slow link and a busy machine many
# times over, and a flood of idle connections is gone within seconds.
HANDSHAKE_DEADLINE = 10.0

# A deadline that fires this much late means this peer itself was busy (its timers run
# before its reads): it waits this long once more, so an answer already received is read.
STALL_GRACE = 1.0

# A table has at most 5 players and a few spectators; at the start every player dials
# every lower seat at once, all from one address on a LAN behind NAT (or loopback). 64
# handshakes at once in all and 16 per address leave honest peers ample room, and bound
# a flood to 64 × (8 KiB + one 64 KiB read) of buffers.
MAX_UNPROVEN = 64
MAX_UNPROVEN_PER_ADDRESS = 16

SUMMARY_AFTER = 10.0   # seconds: connections refused at the cap are summed up in one line

# Descriptors kept free for everything else this process opens: its saves and logs, the
# players it dials, the modules and files a game loads, a desync report. A quarter of
# the limit, at least 64: under a desktop's usual 1,024 the listener holds at most 768.
FILES_RESERVE_SHARE = 4
FILES_RESERVE_MIN = 64


def accepted_files_limit() -> int:
    """How many accepted connections the listener may hold: the soft open-files limit
    less the reserve (no limit known: 4,096)."""
    if resource is None:
        return 4096
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return 4096
    return max(8, soft - max(FILES_RESERVE_MIN, soft // FILES_RESERVE_SHARE))


class UnprovenConnections:
    """The listener's count of connections still in their handshake, in all and per
    address. `admit` takes a slot (False: refuse at once); `release` gives it back."""

    def __init__(self, reactor: Any, limit: int = MAX_UNPROVEN,
                 per_address: int = MAX_UNPROVEN_PER_ADDRESS) -> None:
        self.reactor = reactor
        self.limit = limit
        self.per_address = per_address
        self._by_address: dict[str, int] = {}
        self._open = 0
        self._refused_since_log = 0

    @property
    def open(self) -> int:
        """Connections that hold a slot now."""
        return self._open

    def admit(self, address: str) -> bool:
        held = self._by_address.get(address, 0)
        if self._open >= self.limit or held >= self.per_address:
            self._refused(address)
            return False
        self._open += 1
        self._by_address[address] = held + 1
        return True

    def release(self, address: str) -> None:
        held = self._by_address.get(address, 0)
        if held <= 0:
            return
        self._open -= 1
        if held == 1:
            del self._by_address[address]
        else:
            self._by_address[address] = held - 1

    def _refused(self, address: str) -> None:
        """Counted, not logged each time: a flood must not flood the log as well."""
        self._refused_since_log += 1
        if self._refused_since_log == 1:
            log.warning("refusing connections: %d handshakes under way (at most %d, %d per "
                        "address; %s was at its share or the table at its limit)",
                        self._open, self.limit, self.per_address, address)
            if self.reactor is not None:
                self.reactor.callLater(SUMMARY_AFTER, self._summary)

    def _summary(self) -> None:
        refused, self._refused_since_log = self._refused_since_log, 0
        if refused > 1:
            log.warning("refused %d connections in the last %g s: too many handshakes under "
                        "way (%d now)", refused, SUMMARY_AFTER, self._open)


class OpenFilesBudget:
    """The listener's accepted connections, proven or not, held under
    `accepted_files_limit`; beyond it a new one is closed at once (not an offence: the
    machine is full, not the stranger guilty)."""

    def __init__(self, reactor: Any, limit: int | None = None) -> None:
        self.reactor = reactor
        self.limit = accepted_files_limit() if limit is None else limit
        self.open = 0
        self._refused = 0

    def admit(self) -> bool:
        if self.open >= self.limit:
            self._refused += 1
            if self._refused == 1:
                log.warning("refusing connections: %d accepted, the most this machine's "
                            "open-files limit leaves room for", self.open)
                if self.reactor is not None:
                    self.reactor.callLater(SUMMARY_AFTER, self._summary)
            return False
        self.open += 1
        return True

    def release(self) -> None:
        if self.open > 0:
            self.open -= 1

    def _summary(self) -> None:
        refused, self._refused = self._refused, 0
        if refused > 1:
            log.warning("refused %d connections in the last %g s: at the open-files budget "
                        "(%d of %d)", refused, SUMMARY_AFTER, self.open, self.limit)
