"""What a peer's reach may do, read once at the program's edge.

Why a record: `net.reach` used to read environment variables deep inside (whether to
check the lobby's pairs, ask the router, use a rendezvous, only the relay, how long a
friend waits). Now the program's edge (cli/runner.py, the window's scenes) reads them
once with `from_environment` and hands the record down; `net.reach` itself reads no
environment, and a test says what it wants with a record.

    SHOGUN_NET_REACH_CHECK=off     the host starts without probing every pair (StartGate)
    SHOGUN_NET_PORTMAP=off         no port mapping asked of the router
    SHOGUN_NET_RENDEZVOUS=off      no rendezvous unless one is given or a code was typed
    SHOGUN_NET_RELAY_ONLY=1        (tests) act as if no direct path worked: the relay
                                   carries the table even on loopback
    SHOGUN_NET_RENDEZVOUS_WAIT=S   how long `join CODE` waits for a table (tests)

Tests: tests/net/reach/test_rendezvous.py, tests/net/reach/test_internet_addresses.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

ANSWER_WAIT = 120.0     # seconds a friend waits for the host's offer


@dataclass(frozen=True)
class ReachSettings:
    reach_check: bool = True        # probe every pair of players before the start
    portmap: bool = True            # ask the router to forward the listen port
    rendezvous: bool = True         # offer join by code (a table not on loopback)
    relay_only: bool = False        # (tests) no direct path: the relay carries the table
    answer_wait: float = ANSWER_WAIT

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> ReachSettings:
        try:
            wait = max(1.0, float(environ.get("SHOGUN_NET_RENDEZVOUS_WAIT", ANSWER_WAIT)))
        except ValueError:
            wait = ANSWER_WAIT
        return cls(reach_check=environ.get("SHOGUN_NET_REACH_CHECK", "on") != "off",
                   portmap=environ.get("SHOGUN_NET_PORTMAP", "on") != "off",
                   rendezvous=environ.get("SHOGUN_NET_RENDEZVOUS", "on") != "off",
                   relay_only=environ.get("SHOGUN_NET_RELAY_ONLY", "") == "1",
                   answer_wait=wait)
