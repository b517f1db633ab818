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

import argparse
import contextlib
from pathlib import Path
from typing import Callable, Iterator

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


def add_option(parser: argparse.ArgumentParser) -> None:
    """The benchmarks' `--halt-poll-us` option."""
    parser.add_argument("--halt-poll-us", type=int, default=0, metavar="US",
                        help="idle CPUs poll this long before halting, for the run "
                             "(benchmarks/halt_poll.py; root; default: as the machine is set)")


def run(args: argparse.Namespace, measure: Callable[[argparse.Namespace], int]) -> int:
    """`measure(args)` with idle CPUs as `--halt-poll-us` asks (0: as the machine is set),
    saying which it was."""
    idle = (polling(args.halt_poll_us) if args.halt_poll_us
            else contextlib.nullcontext("idle CPUs halt as the machine is set to"))
    with idle as said:
        print(said, flush=True)
        return measure(args)
