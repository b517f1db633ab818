"""In-memory players for lockstep tests: messages go through real framing and checks.

Why: ordering, commit-reveal and the beacon are tested without sockets or clocks; the
queue delivers frames in a controllable order (FIFO per sender, like TCP).

Used by tests/net/lockstep/test_core.py, test_echo.py, test_field_reveal.py.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Collection
from collections import deque

from net.transport import messages
from net.lockstep.beacon import HashChain
from net.transport.framing import FrameDecoder, encode_frame
from net.lockstep import signatures
from net.lockstep.core import Lockstep, Offence
from net.trust.seat_keys import SeatKey

TABLE = b"t" * 16
from net.lockstep.host import QuietHost
from tests.net.fake_game import FakeEngine


class HostWith:
    """A lockstep host that is `host` except for the hooks given by name (a test's way to
    watch or bend one way out of the lockstep): `ls.host = HostWith(ls.host, broadcast=f)`."""

    def __init__(self, host: Any, **hooks: Callable[..., Any]) -> None:
        self._host = host
        self.__dict__.update(hooks)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._host, name)


class MeshHost(QuietHost):
    """A mesh player's host: its seat's key, the in-memory network, and the mesh's records."""

    def __init__(self, mesh: Mesh, seat: int) -> None:
        self.mesh = mesh
        self.seat = seat

    def sign(self, msg: Any) -> Any:
        return signatures.sign(self.mesh.keys[self.seat], TABLE, msg)

    def verify(self, seat: int, msg: Any) -> bool:
        return signatures.signed_by(self.mesh.keys[seat].public, TABLE, msg)

    def broadcast(self, msg: Any) -> None:
        self.mesh._broadcast(self.seat, msg)

    def offended(self, seat: int, reason: str) -> None:
        self.mesh.offences.append((self.seat, seat, reason))

    def desync_found(self, seat: int, step: int, mine: str, theirs: str) -> None:
        self.mesh.desyncs.append((self.seat, seat, step, mine, theirs))

    def decision_due(self, decision: Any, state: Any) -> None:
        self.mesh._decide(self.seat, decision, state)


class Mesh:
    def __init__(self, players: int = 4, bots: Collection[int] = (), rounds: int = 3,
                 engine: Any = None, shuffle_seed: int | None = None,
                 chain_len: int = 64) -> None:
        self.engine = engine or FakeEngine(rounds)
        self.config = self.engine.config(players, "sun", "beginner")
        kinds = {s: ("bot" if s in bots else "human") for s in range(players)}
        self.humans = [s for s in range(players) if kinds[s] == "human"]
        self.chains = {s: HashChain(bytes([s + 1]) * 32, chain_len) for s in self.humans}
        ends = {s: c.commitment for s, c in self.chains.items()}
        self.queue: deque = deque()
        self.rng = random.Random(shuffle_seed) if shuffle_seed is not None else None
        self.offences: list = []
        self.desyncs: list = []
        self.sent_bytes = {s: bytearray() for s in self.humans}
        self.peers = {}
        self.down: set[int] = set()
        self.keys = {s: SeatKey(bytes([s + 7]) * 32) for s in self.humans}
        for s in self.humans:
            self.peers[s] = Lockstep(self.engine, self.config, kinds, s, self.chains[s], ends,
                                     host=MeshHost(self, s))
        self.policy: dict[int, Callable] = {}   # seat -> function(state, decision) -> command
        self.auto = True

    def _decide(self, seat, d, state):
        if not self.auto or seat in self.down:
            return
        self.queue.append(("decide", seat))

    def _broadcast(self, sender, msg):
        frame = encode_frame(msg)
        self.sent_bytes[sender].extend(frame)
        for s in self.humans:
            if s != sender and s not in self.down:
                self.queue.append(("frame", sender, s, frame))

    def deliver(self, sender, to, frame):
        dec = FrameDecoder()
        for msg in dec.feed(frame):
            msg = messages.check(msg)
            try:
                self.peers[to].receive(sender, msg)
            except Offence as exc:
                self.offences.append((to, sender, str(exc)))

    def choose(self, seat):
        p = self.peers[seat]
        d = p.decision()
        if seat not in d.seats or seat in p.bots or p.ended:
            return
        fn = self.policy.get(seat)
        cmd = fn(p.state, d) if fn else self.engine.choose(p.state, seat, "x", bytes([seat * 7 + p.step % 200]) * 32)
        if d.kind == "plan" and seat in p.inbox.get(p.step, None).commits if p.step in p.inbox else False:
            return
        try:
            p.submit(cmd)
        except ValueError:
            pass

    def run(self, limit=100000):
        for p in self.peers.values():
            p.start()
        self.pump(limit)

    def pump(self, limit=100000):
        n = 0
        while self.queue and n < limit:
            n += 1
            if self.rng is not None:
                # deliver out of order across senders but FIFO per (sender, receiver)
                i = self.rng.randrange(len(self.queue))
                item = self.queue[i]
                if item[0] == "frame":
                    for j, other in enumerate(self.queue):
                        if other[0] == "frame" and other[1:3] == item[1:3]:
                            item, i = other, j
                            break
                del self.queue[i]
            else:
                item = self.queue.popleft()
            if item[0] == "decide":
                self.choose(item[1])
            else:
                _, sender, to, frame = item
                if sender in self.down or to in self.down:
                    continue
                self.deliver(sender, to, frame)

    def hashes(self):
        return {s: p.hash for s, p in self.peers.items()}
