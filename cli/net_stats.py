"""What `SHOGUN_NET_STATS=FILE` reports of a headless peer's game, for the benchmarks:
bytes sent, round trips of the steps that need everyone, one-way hops, where the peer
waited for the network, and the clocks over the game.

Why apart from the runner: the runner plays; this only watches the game go by (the
runner hands it each step, broadcast, start and end) and writes one JSON file at the
end. `benchmarks/local_game.py` reads `usage_since` to pace a local game like a peer.

Tests: tests/cli/test_net_stats.py; tests/benchmarks/ (the figures' scripts).
"""

from __future__ import annotations

import json
import os
import resource
import time
from dataclasses import dataclass, field
from typing import Any

# the steps whose round trip is timed: my first message to the step applied here
_EVERYONE = ("Chance", "SubmitPlan", "CommitPlan")


def usage_since(start: dict[str, Any] | None) -> dict[str, Any]:
    """What the process spent since `start` (a reading of this function): page faults,
    waits (voluntary context switches) and preemptions, for the benchmarks."""
    u = resource.getrusage(resource.RUSAGE_SELF)
    now = {"minflt": u.ru_minflt, "waits": u.ru_nvcsw, "preempted": u.ru_nivcsw,
           "user": u.ru_utime, "system": u.ru_stime}
    return now if start is None else {k: now[k] - start[k] for k in now}


class WaitLog:
    """Where this peer waited for the network in its game, and how long: for the
    benchmarks' local game paced like a peer (`benchmarks/local_game.py`). Kept only when
    stats are asked for (a getrusage and two clock readings per step)."""

    def __init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        """From the game's start (again, after a rejoin)."""
        self.waited_before: list[list[float]] = []   # [index of a step's first command, seconds idle]
        self.commands = 0
        self._seen = self._now()

    @staticmethod
    def _now() -> tuple[int, float, float]:
        return (resource.getrusage(resource.RUSAGE_SELF).ru_nvcsw, time.perf_counter(),
                time.process_time())

    def step_applied(self, entry: dict[str, Any]) -> None:
        """If the process blocked since the previous step, it waited before this one:
        for as long as the wall clock ran ahead of its CPU."""
        now = self._now()
        if now[0] != self._seen[0]:
            idle = (now[1] - self._seen[1]) - (now[2] - self._seen[2])
            self.waited_before.append([self.commands, round(max(0.0, idle), 6)])
        self._seen = now
        self.commands += len(entry["commands"])


@dataclass
class GameStats:
    """The figures of one game at this peer; `waits` only when stats are asked for."""
    waits: WaitLog | None = None
    round_trips: list[float] = field(default_factory=list)
    hops: int = 0
    asked_at: dict[int, float] = field(default_factory=dict)   # step -> my first message
    started: float | None = None           # the clocks when the game started here
    cpu_started: float = 0.0
    sys_started: float = 0.0
    usage_started: dict[str, Any] | None = None
    game_seconds: float | None = None      # ... and what the game took, at its end
    game_cpu: float | None = None
    game_sys: float | None = None
    game_usage: dict[str, Any] | None = None

    def game_started(self) -> None:
        self.started = time.perf_counter()
        self.cpu_started = time.process_time()
        self.sys_started = os.times().system
        self.usage_started = usage_since(None)
        if self.waits is not None:
            self.waits.restart()

    def broadcast(self, msg: dict[str, Any]) -> None:
        self.asked_at.setdefault(msg.get("step", -1), time.perf_counter())

    def step_applied(self, entry: dict[str, Any], me: int | None, bots: Any) -> None:
        """A round trip: from my first message of a step that needs everyone's input
        (chance links, plan commit/reveal) until the step is applied here; a hop: one
        other player's move or turned card, one way from that player."""
        if self.waits is not None:
            self.waits.step_applied(entry)
        started = self.asked_at.pop(entry["step"], None)
        kind = entry["commands"][0].get("type") if entry["commands"] else None
        if started is not None and kind in _EVERYONE:
            self.round_trips.append(time.perf_counter() - started)
        elif kind not in (*_EVERYONE, "TowerSettled", None):
            seat = entry["commands"][0].get("seat")
            if seat is not None and seat != me and seat not in bots:
                self.hops += 1

    def game_ended(self) -> None:
        now = time.perf_counter()
        self.game_seconds = now - (self.started if self.started is not None else now)
        self.game_cpu = time.process_time() - self.cpu_started
        self.game_sys = os.times().system - self.sys_started
        self.game_usage = usage_since(self.usage_started)

    def write(self, path: str, bytes_sent: int, final_hash: str | None, offences: int) -> None:
        with open(path, "w") as f:
            json.dump({"bytes_sent": bytes_sent, "round_trips": self.round_trips,
                       "hops": self.hops,
                       "waited_before": self.waits.waited_before if self.waits else [],
                       "game_seconds": self.game_seconds,
                       "game_cpu": self.game_cpu, "game_sys": self.game_sys,
                       "game_usage": self.game_usage,
                       "cpu": time.process_time(),
                       "hash": final_hash, "offences": offences}, f)
