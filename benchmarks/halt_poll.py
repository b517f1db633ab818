"""Let an idle virtual CPU poll a while before it halts, for the length of a benchmark.

Why: on this machine (a KVM guest; the kernel's command line sets
`haltpoll.guest_halt_poll_ns=0`) a CPU with nothing to run halts at once and the host
may hand the physical core to someone else; what runs next on it comes back to cold
caches. A network peer waits for the others about 120 times a game, ~0.5 ms each, so it
pays that every time, and the local game it is compared with never waits.
`benchmarks/waking_cost.py` measures it: the same tower drop costs ~1.08x the CPU after a
0.5 ms sleep. A real computer idling for half a millisecond stays in a shallow sleep
state with its caches kept, which is what polling emulates: the waiting CPU spins in the
kernel's idle loop (not counted as any process's CPU) and picks up the wake-up itself.

`polling(microseconds)` sets the guest's halt-polling limit (and stops the governor from
shrinking it), then puts the old values back. It needs root and the `haltpoll` cpuidle
driver; without them it changes nothing and says why.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator

KNOBS = Path("/sys/module/haltpoll/parameters")


@contextlib.contextmanager
def polling(microseconds: int) -> Iterator[str]:
    """Within the block, idle CPUs poll up to `microseconds` before halting. Yields a
    sentence saying what was done (or why nothing was)."""
    limit, shrink = KNOBS / "guest_halt_poll_ns", KNOBS / "guest_halt_poll_allow_shrink"
    try:
        old = limit.read_text().strip(), shrink.read_text().strip()
        limit.write_text(str(microseconds * 1000))
        shrink.write_text("N")
    except OSError as exc:
        yield f"idle CPUs halt as they are set to (cannot set halt polling: {exc})"
        return
    try:
        yield (f"idle CPUs poll up to {microseconds} us before halting (haltpoll; was "
               f"{int(old[0]) // 1000} us)")
    finally:
        limit.write_text(old[0])
        shrink.write_text(old[1])
