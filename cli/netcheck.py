"""`./shogun netcheck [ADDRESS ...]`: where this machine can be reached, and which tables
or players it reaches, over what, with what round trip.

Why: when a join fails, a player needs to know which side is the problem before asking
a friend to change a router. Everything printed is a sentence; the exit code is 0 when
every address given was reached by a Shogun table, 1 otherwise, 2 for a bad address.
It lives in cli/ beside cli/runner.py (the other network command), above net/.

Tests: tests/net/reach/test_internet_addresses.py, tests/net/reach/test_internet_nat.py.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Protocol, cast

from client.words.net_words import for_players
from lang.i18n import _, ngettext
from net.reach.addresses import AddressError, parse_address, reachable_addresses
from net.reach.reachability import probe_all
from net.reach.portmap import PortMapError, PortMapper
from net.reach import discovery
from net.transport.reactor_types import NetReactor


class CheckReactor(NetReactor, Protocol):
    """Twisted's reactor as the check drives it (cast: its interfaces are zope's)."""

    def callWhenRunning(self, callable: Callable[[], object]) -> object: ...

    def run(self) -> None: ...

    def stop(self) -> None: ...


def run(args: Any) -> int:
    try:
        targets = [parse_address(a) for a in args.addresses]
    except AddressError as exc:
        print(_("error: {reason}").format(reason=for_players(str(exc))), file=sys.stderr)
        return 2
    print(_("This machine can be reached at (for a table on port {port}):").format(port=args.port))
    for r in reachable_addresses(args.port):
        print(f"  {r.dial:<40} {r.scope} ({r.interface})")
    if not args.no_router:
        try:
            public = PortMapper(discover_ms=1500).router_address()
            print(_("The router offers port mappings; its public address is {address}.").format(
                address=public))
        except PortMapError as exc:
            print(for_players(str(exc)))
    if not targets and os.environ.get("SHOGUN_NET_DISCOVERY", "on") != "off":
        tables = discovery.browse(timeout=2.0)
        targets = [parse_address(t.address) for t in tables]
        if not tables:
            print(_("No table announces itself on this network; give addresses to check."))
    if not targets:
        return 0
    from twisted.internet import reactor as twisted_reactor  # installs the reactor: only when dialling

    reactor = cast(CheckReactor, twisted_reactor)
    result: dict[str, Any] = {}

    def done(probes: list[Any]) -> None:
        result["probes"] = probes
        reactor.stop()

    def failed(failure: Any) -> None:
        result["error"] = failure.getErrorMessage()
        reactor.stop()
    reactor.callWhenRunning(lambda: probe_all(reactor, targets, args.timeout)
                            .addCallbacks(done, failed))
    reactor.run()
    if "error" in result:
        print(_("error: the check failed: {reason}").format(reason=result["error"]), file=sys.stderr)
        return 1
    probes = result["probes"]
    reached = sum(p.greeted for p in probes)
    print(ngettext("Reached {reached} of {n} address:", "Reached {reached} of {n} addresses:",
                   len(probes)).format(reached=reached, n=len(probes)))
    for p in probes:
        print("  " + for_players(p.sentence()))
    return 0 if reached == len(probes) else 1
