"""Equal CPU shares for benchmark processes, as if each ran on its own (slower) machine.

Why: the network benchmark compares a 5-peer game with the same game played locally. On a
LAN every peer has a machine of its own; here five peers share two cores, so the raw wall
time mostly measures the five-fold duplicated simulation queueing for two cores. Giving
each peer a fixed CPU quota of cores/peers (a Linux cgroup CPU bandwidth limit) and the
local game the same quota emulates five equal machines: the ratio then shows what the
protocol costs, not how many cores this box has.

Works with cgroup v1 (`/sys/fs/cgroup/cpu`) or v2 (`cpu.max`) when writable (root);
`available()` says why not otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

V1 = Path("/sys/fs/cgroup/cpu")
V2 = Path("/sys/fs/cgroup")
PERIOD_US = 10_000      # a short period: a throttled process waits at most this long


def _root() -> tuple[str, Path] | None:
    if (V1 / "cpu.cfs_quota_us").exists():
        return "v1", V1
    controllers = V2 / "cgroup.controllers"
    if controllers.exists() and "cpu" in controllers.read_text().split():
        return "v2", V2
    return None


def available() -> str | None:
    """None if shares can be made here, else the reason they cannot."""
    root = _root()
    if root is None:
        return "no cgroup CPU controller is mounted"
    if not os.access(root[1], os.W_OK):
        return f"{root[1]} is not writable (run as root)"
    return None


class CpuShare:
    """One cgroup with a CPU quota of `cores` (e.g. 0.4 = 40% of one core)."""

    def __init__(self, name: str, cores: float) -> None:
        root = _root()
        if root is None:
            raise OSError("no cgroup CPU controller is mounted")
        self.version, base = root
        self.path = base / f"shogun-bench-{os.getpid()}-{name}"
        self.path.mkdir(exist_ok=True)
        quota = max(1000, int(PERIOD_US * cores))
        if self.version == "v1":
            (self.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
            self._tasks = self.path / "tasks"
        else:
            (self.path / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            self._tasks = self.path / "cgroup.procs"

    def enter(self) -> None:
        """Move the calling process (a child before exec) into this share."""
        self._tasks.write_text(str(os.getpid()))

    def preexec(self) -> Callable[[], None]:
        return self.enter

    def remove(self) -> None:
        try:
            self.path.rmdir()
        except OSError:
            pass            # still has a process in it: the kernel keeps it until then
