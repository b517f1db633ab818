"""Join by code in the window (issue 39): the friend's search for a table by its wormhole
code, and the host's open invitation, both on the reactor the window drives.

Why a module of its own: a table session is made at once from an address, but a friend
who typed a code ("7-guitarist-revenge") learns where to dial, and the table's own join
code, only once the rendezvous answered (net/reach/rendezvous.py). `CodeSearch` runs that
search while the menu stays on screen; the App makes the session when it has arrived,
and the session keeps the arrival (the dilated wormhole and the local forwarder carry the
table when the relay is used) until it closes.

Tests: tests/client/sessions/test_join_by_code_window.py.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable

from twisted.python.failure import Failure

from client.sessions.reactor_pump import pump_reactor, window_reactor
from client.words.net_words import for_players
from net.reach.addresses import Reachable
from net.reach.invitations import Invitations
from net.reach.reach_settings import ReachSettings
from net.reach.rendezvous import (Arrival, RendezvousError, RendezvousOptions, join_by_code, options_for)
from net.reach.rejoin_by_code import FriendsByCode
from net.reach.tunnel import table_end

if TYPE_CHECKING:
    from net.table.options import TableOptions
    from net.table.session import TableSession


class CodeSearch:
    """A friend's search for the table behind a code: `arrival` once found, `failure` (a
    sentence for the player) when not."""

    def __init__(self, options: TableOptions) -> None:
        """ValueError: a rendezvous given in the settings that is no mailbox address."""
        rendezvous = options_for(options, "", ReachSettings.from_environment(os.environ),
                                 needed=True)
        assert rendezvous is not None and options.address is not None
        self.options = options
        self.rendezvous = rendezvous        # also for a pair tunnel the host may ask for
        self.lines: list[str] = []          # what the search said so far (the menu shows the last)
        self.arrival: Arrival | None = None
        self.failure: str | None = None
        self.errors: list[str] = []
        join_by_code(window_reactor(), rendezvous, options.address,
                     lambda line: self.lines.append(for_players(line))
                     ).addCallbacks(self._arrived, self._failed)

    def _arrived(self, arrival: Arrival) -> None:
        self.arrival = arrival

    def _failed(self, failure: Failure) -> None:
        said = failure.getErrorMessage()
        known = failure.check(RendezvousError)   # type: ignore[no-untyped-call]  # unannotated in Twisted
        self.failure = for_players(said) if known else said or repr(failure.value)

    @property
    def done(self) -> bool:
        return self.arrival is not None or self.failure is not None

    def pump(self) -> None:
        pump_reactor(self.errors)

    def cancel(self) -> None:
        """The player went elsewhere: the wormhole closes (a later arrival is dropped)."""
        if self.arrival is not None:
            close_arrival(self.arrival)
        self.failure = self.failure or "cancelled"


def close_arrival(arrival: Arrival) -> None:
    """The tunnel of a friend who joined by code (when the relay path was used)."""
    if arrival.redial is not None:
        arrival.redial.stop()
    if arrival.forwarder is not None:
        arrival.forwarder.close()
    if arrival.wormhole is not None:
        arrival.wormhole.close().addErrback(lambda _failure: None)


def invite_friends(table: TableSession, rendezvous: RendezvousOptions,
                   addresses: Callable[[], list[Reachable]],
                   say: Callable[[str], None]) -> Invitations:
    """Host: a wormhole code for friends anywhere while seats are open (`Invitations.code`
    is the one shown, and a code for a friend by code away from the game, said in the
    game's log, to rejoin with `--resume`); the start check plans a tunnel of their own
    for two friends by code who cannot dial each other (net/table/pair_links.py), as a
    headless host's does."""
    interface = table.opts.interface
    by_code = FriendsByCode(table, lambda: friends.tunnelled)

    def said(line: str) -> None:
        """In the lobby, its list; once the game is on, the game's log (a friend's rejoin
        line comes while the game waits for it)."""
        if table.started:
            table.on_notice(line)
        else:
            say(line)
    friends = Invitations(window_reactor(), rendezvous, table.join_code or "", table.listen_port,
                          addresses, lambda: not table.started and not table.lobby_full()
                          and not table.closed, said, table_end(interface), by_code.absent)
    friends.open()
    table.pair_links.use_relay(rendezvous, lambda: friends.tunnelled, say)
    return friends
