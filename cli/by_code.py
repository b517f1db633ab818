"""`host` and `join CODE` across the internet (issue 39): the headless runner's side of
net/reach/rendezvous.py.

Why a module of its own: the runner makes a table session at once, but a friend who
typed a code learns where to dial (and the table's join code) only after the rendezvous
answered, so its session is made later, in the running reactor (`join_later`).

Tests: tests/cli/test_by_code.py, tests/net/reach/test_internet_rendezvous.py.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable

from client.words.net_words import for_players
from lang.i18n import _
from net.reach.addresses import Reachable, reachable_addresses
from net.reach.offered import on_loopback
from net.reach.invitations import Invitations
from net.reach.rendezvous import (Arrival, RendezvousError, RendezvousOptions, join_by_code)
from net.reach.rejoin_by_code import FriendsByCode
from net.reach.tunnel import table_end
from net.reach.rendezvous import options_for

if TYPE_CHECKING:
    from cli.runner import Outcome
    from net.table.options import TableOptions
    from net.reach.portmap import PortMapper
    from net.table.session import TableSession

options = options_for      # the runner's name for it (`by_code.options`)


def say(line: str) -> None:
    print(for_players(line), flush=True)


def invite_friends(reactor: Any, session: TableSession, rendezvous: RendezvousOptions,
                   interface: str, mapper: PortMapper | None) -> Invitations:
    """Host: show a code for friends anywhere while seats are open, and one for a friend
    by code away from the game (to rejoin with `--resume`); two friends by code who
    cannot dial each other get a tunnel of their own (net/table/pair_links.py)."""
    def addresses() -> list[Reachable]:
        if on_loopback(interface):
            return [Reachable(interface, session.listen_port, "this machine", "lo")]
        mapped = [] if mapper is None or mapper.mapping is None else \
            [(mapper.mapping.public_host, mapper.mapping.public_port)]
        return reachable_addresses(session.listen_port, mapped)

    by_code = FriendsByCode(session, lambda: friends.tunnelled)
    friends = Invitations(reactor, rendezvous, session.join_code or "", session.listen_port,
                          addresses, lambda: not session.started and not session.lobby_full()
                          and not session.closed, say, table_end(interface), by_code.absent)
    friends.open()
    session.pair_links.use_relay(rendezvous, lambda: friends.tunnelled, say)
    return friends


def join_later(reactor: Any, rendezvous: RendezvousOptions, invite: str,
               open_session: Callable[[str | None, str | None], TableSession | int],
               drive: Callable[[TableSession], None], out: Outcome,
               stop: Callable[[], None]) -> list[Arrival]:
    """Friend: once the reactor runs, find the table by code, then make the session.
    The list returned holds the arrival (its wormhole stays open for the relay path)."""
    held: list[Arrival] = []

    def arrived(arrival: Arrival) -> None:
        held.append(arrival)
        print(_("reached the table by code: {how}").format(how=for_players(arrival.how)),
              flush=True)
        made = open_session(arrival.address, arrival.code)
        if isinstance(made, int):
            out.code = made
            stop()
            return
        drive(made)

    def failed(failure: Any) -> None:
        reason = failure.getErrorMessage() if failure.check(RendezvousError) else \
            failure.getTraceback()
        print(_("error: cannot join by code: {reason}").format(reason=for_players(reason)),
              file=sys.stderr, flush=True)
        out.code = 1
        stop()

    reactor.callWhenRunning(lambda: join_by_code(reactor, rendezvous, invite, say)
                            .addCallbacks(arrived, failed))
    return held
