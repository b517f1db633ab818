"""What a connection may cost the host before it has proved the join code.

Why: until the SPAKE2 handshake ends, a connection is a stranger's. Without bounds one
stranger could make the host buffer a 1 MiB frame per connection (300 connections took
the host from 47 to 355 MiB) or hold connections open for ever. So, until the handshake
ends, a connection gets a small frame limit and short deadlines (its first message within
`FIRST_MESSAGE_DEADLINE`, its Hello within `KEYED_DEADLINE` of the answer), and the
listener holds only so many of them at once, in all and per address.

Why a full table evicts instead of refusing (issue 34): refusing the newcomer let 8
addresses that held the 64 slots and reconnected at once keep a friend with the code out
57 of 57 tries. Now a newcomer always gets a slot: `choose_slot` evicts the oldest silent
connection of the address that holds the most slots (a flood evicts itself, a friend from
another address keeps its slot), and a connection whose key offer was already answered
is never evicted (there are few: `net.trust.guess_limit` rations the answers). The
evicted one is told it may try again. After the handshake the normal limits apply
(`net.transport.framing.MAX_FRAME`, heartbeats in `net.table.liveness`).

The open-files limit is the machine's, not the table's: a host whose descriptors a flood
used up could not open a file the game needs, nor accept an honest player. So the
listener also keeps its connections, proven or not, well short of the process's limit
(`OpenFilesBudget`, read with `resource.getrlimit(RLIMIT_NOFILE)`), and the game's files
are read before it listens (`net.lockstep.engine.SimEngine.prepare`).

Tests: tests/net/transport/test_slot_choice.py (the eviction table),
tests/net/trust/test_bounded_handshake.py, tests/net/trust/test_flood.py,
tests/net/trust/test_slot_flood.py (a real host, 8 addresses holding every slot).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from net.transport.reactor_types import Clock
from net.trust.guess_limit import address_group

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
# times over for the dialer's wait.
HANDSHAKE_DEADLINE = 10.0
# The listener's waits are shorter (issue 34): an honest dialer sends its key offer the
# moment it connects, and its Hello the moment it reads the answer — one round trip each,
# a fraction of a second even across the world. A silent stranger is gone after 2 s.
FIRST_MESSAGE_DEADLINE = 2.0
KEYED_DEADLINE = 3.0

# A deadline that fires this much late means this peer itself was busy (its timers run
# before its reads): it waits this long once more, so an answer already received is read.
STALL_GRACE = 1.0

# A table has at most 5 players and a few spectators; at the start every player dials
# every lower seat at once, all from one address on a LAN behind NAT (or loopback). 64
# handshakes at once in all and 16 per address leave honest peers ample room, and bound
# a flood to 64 × (8 KiB + one 64 KiB read) of buffers.
MAX_UNPROVEN = 64
MAX_UNPROVEN_PER_ADDRESS = 16

# A slot taken back from a stranger: it is told to try again this much later.
EVICTED_RETRY = 1.0

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


@dataclass(frozen=True)
class Stranger:
    """A connection in its handshake, as the slot choice sees it."""
    address: str
    opened_at: float
    keyed: bool            # its key offer was answered: only its Hello is awaited


@dataclass(frozen=True)
class SlotChoice:
    admit: bool
    evict: int | None = None     # the index in `strangers` of the connection to close


def choose_slot(strangers: Sequence[Stranger], address: str, limit: int = MAX_UNPROVEN,
                per_address: int = MAX_UNPROVEN_PER_ADDRESS) -> SlotChoice:
    """Whether a new connection from `address` gets a slot, and whose slot it takes.

    | the table's slots | the address's share | a slot for the newcomer |
    |-------------------|---------------------|-------------------------|
    | room              | room                | a free one              |
    | any               | full                | this address's oldest silent one; none silent: refused |
    | full              | room                | the oldest silent one of the address group holding the most (ties: the oldest); none silent anywhere: refused |

    Silent: no key offer answered yet. An answered one is never evicted: its exchange
    is spent host work, and its Hello is due within `KEYED_DEADLINE`. A group: an IPv4
    /24 or IPv6 /48 (`address_group`), so a flood from rotating addresses of one network
    evicts its own connections, not a friend's offer waiting in the guess limit's line.
    """
    def oldest_silent(indices: list[int]) -> int | None:
        silent = [i for i in indices if not strangers[i].keyed]
        return min(silent, key=lambda i: strangers[i].opened_at) if silent else None

    mine = [i for i, s in enumerate(strangers) if s.address == address]
    if len(mine) >= per_address:
        victim = oldest_silent(mine)
        return SlotChoice(victim is not None, victim)
    if len(strangers) < limit:
        return SlotChoice(True)
    by_address: dict[str, list[int]] = {}
    for i, s in enumerate(strangers):
        if not s.keyed:
            by_address.setdefault(address_group(s.address), []).append(i)
    if not by_address:
        return SlotChoice(False)
    crowd = max(by_address.values(),
                key=lambda held: (len(held), -min(strangers[i].opened_at for i in held)))
    return SlotChoice(True, oldest_silent(crowd))


class UnprovenConnections:
    """The listener's connections still in their handshake. `admit` gives a newcomer a
    slot (evicting per `choose_slot`; False: refuse at once), `keyed` marks one whose key
    offer was answered, `release` gives a slot back."""

    def __init__(self, reactor: Clock | None, limit: int = MAX_UNPROVEN,
                 per_address: int = MAX_UNPROVEN_PER_ADDRESS) -> None:
        self.reactor = reactor
        self.limit = limit
        self.per_address = per_address
        # token -> (the stranger, how to close it, where it counts now)
        self._held: dict[int, tuple[Stranger, Callable[[], None], Callable[[], str]]] = {}
        self._next = 0
        self._refused_since_log = 0
        self._evicted_since_log = 0

    @property
    def open(self) -> int:
        """Connections that hold a slot now."""
        return len(self._held)

    def admit(self, address: str, evict: Callable[[], None],
              where: Callable[[], str] | None = None) -> int | None:
        """A slot token for a newcomer from `address` (None: refused). `evict` is how its
        connection is closed should a later newcomer take its slot; `where`, what it
        counts as when a later newcomer comes (issue 47: a tunnel's port is known to the
        table only once the tunnel recorded it, `net.trust.door_identity`)."""
        tokens = list(self._held)
        strangers = []
        for t in tokens:
            stranger, close, now_at = self._held[t]
            strangers.append(replace(stranger, address=now_at()))
        choice = choose_slot(strangers, address, self.limit, self.per_address)
        if not choice.admit:
            self._count("refused", address)
            return None
        if choice.evict is not None:
            victim = tokens[choice.evict]
            _stranger, close, _where = self._held.pop(victim)
            self._count("evicted", address)
            close()
        token, self._next = self._next, self._next + 1
        now = self.reactor.seconds() if self.reactor is not None else 0.0
        self._held[token] = (Stranger(address, now, keyed=False), evict,
                             where if where is not None else (lambda: address))
        return token

    def keyed(self, token: int) -> None:
        held = self._held.get(token)
        if held is not None:
            stranger, close, where = held
            self._held[token] = (replace(stranger, keyed=True), close, where)

    def release(self, token: int) -> None:
        self._held.pop(token, None)

    def _count(self, what: str, address: str) -> None:
        """Counted, not logged each time: a flood must not flood the log as well."""
        first = self._refused_since_log + self._evicted_since_log == 0
        if what == "refused":
            self._refused_since_log += 1
        else:
            self._evicted_since_log += 1
        if first:
            log.warning("handshake slots full: %d under way (at most %d, %d per address); "
                        "a connection from %s was %s", len(self._held), self.limit,
                        self.per_address, address,
                        "refused" if what == "refused" else "given the slot of an older one")
            if self.reactor is not None:
                self.reactor.callLater(SUMMARY_AFTER, self._summary)

    def _summary(self) -> None:
        refused, self._refused_since_log = self._refused_since_log, 0
        evicted, self._evicted_since_log = self._evicted_since_log, 0
        if refused + evicted > 1:
            log.warning("in the last %g s, with every handshake slot taken: %d connections "
                        "took an older stranger's slot, %d were refused (%d under way now)",
                        SUMMARY_AFTER, evicted, refused, len(self._held))


class OpenFilesBudget:
    """The listener's accepted connections, proven or not, held under
    `accepted_files_limit`; beyond it a new one is closed at once (not an offence: the
    machine is full, not the stranger guilty)."""

    def __init__(self, reactor: Clock | None, limit: int | None = None) -> None:
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
