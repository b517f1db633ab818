"""The host's side of joining by code: one code at a time, the next once a friend used it.

Why its own module: the friend's side (`rendezvous.join_by_code`) and the records both
sides share (`Offer`, `RendezvousOptions`) are one idea; the host's invitation, which
keeps a code open while seats are open or a friend by code is away (issue 39), is
another. How a code is used end to end: `rendezvous`'s docstring; what a code is and why
strangers cannot find or spend it (issue 47): `invite_codes`'s.

Tests: tests/net/reach/test_rendezvous.py, tests/net/reach/test_rejoin_by_code.py,
tests/net/reach/test_invite_codes.py, tests/net/reach/test_code_burner.py.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from net.reach.addresses import Reachable
from net.reach.invite_codes import InviteCode, new_code, new_nameplate, reopen_pause
from net.reach.rendezvous import (APP_ID, Choice, Offer, RendezvousError, RendezvousOptions,
                                  plain_failure, server_name, unreachable,
                                  wormhole_for)
from net.reach.tunnel import Link, RelayRedial, link_of, serve_table
from net.transport.reactor_types import NetReactor

log = logging.getLogger("net.reach.rendezvous")


class Invitations:
    """The host's open invitation: one code at a time, the next once a friend used it.

    A wrong guess at the code (a wormhole that fails its key check, or a key agreed but
    never confirmed within `CONFIRM_WAIT`) does not spend it: the same code opens again on
    a new nameplate of its hidden namespace after `reopen_pause(wrong guesses)`.

    `addresses()` gives the table's direct addresses when a friend arrives (a router
    mapping may come late); `seats_open()` says whether another friend is wanted;
    `rejoining()` the seats of friends by code away from the game, who need a code to
    come back with `--resume` (their tunnel died with their program:
    net/reach/rejoin_by_code.py)."""

    def __init__(self, reactor: NetReactor, options: RendezvousOptions, table_code: str,
                 table_port: int, addresses: Callable[[], list[Reachable]],
                 seats_open: Callable[[], bool], say: Callable[[str], None],
                 table_host: str = "127.0.0.1",
                 rejoining: Callable[[], list[int]] = lambda: []) -> None:
        self.reactor, self.options = reactor, options
        self.rejoining = rejoining
        self.away: list[int] = []              # seats away that still wait for a code
        self.away_before = 0                   # how many seats were away at the last look
        self.rejoin_tunnels: list[float] = []  # when a tunnel opened for a seat away
        self.shown_for_rejoin = False          # the code shown is for a seat away
        self.table_code, self.table_port, self.table_host = table_code, table_port, table_host
        self.addresses, self.seats_open, self.say = addresses, seats_open, say
        self.current: Any = None               # the wormhole open with the shown code
        self.code: str | None = None           # the code shown last (its text)
        self.invite: InviteCode | None = None  # the code in use; None: withdrawn or used
        self.wrong = 0                         # wrong guesses at it
        self.reopen_at = 0.0                   # its pause after the last wrong guess
        self.tunnels: list[Any] = []           # dilated wormholes carrying a friend
        self.links: dict[int, Link] = {}       # friend number -> how its tunnel is connected
        self.tunnelled: dict[int, int] = {}    # source port at the table -> friend number
        self.redials: list[RelayRedial] = []
        self.friends = 0
        self.closed = False
        self.last_said = ""                    # a failure is said once, not at each retry
        self.retry = self.RETRY_FIRST          # seconds to the next try after a failure

    CHECK_EVERY = 2.0     # seconds: a code is shown only while a seat is open
    CONFIRM_WAIT = 15.0   # seconds from an agreed key to the other side's confirmation
    REJOIN_GRACE = 60.0   # seconds a tunnel opened for a seat away has to bring it back
    RETRY_FIRST = 1.0     # seconds: a failed code is tried again, waiting longer each time
    RETRY_MOST = 30.0

    def open(self) -> None:
        """Show a code now if a seat is open, and keep checking: the shown code is
        withdrawn once the table is full, a new one shown if a seat opens again."""
        self._show()
        if not self.closed:
            self.reactor.callLater(self.CHECK_EVERY, self.open)

    @property
    def shown_code(self) -> str | None:
        """The code a window shows now (it still works through a pause after a guess)."""
        return self.code if not self.closed and self.invite is not None else None

    def _show(self) -> None:
        if self.closed:
            return
        away = self.away = self._still_away(self.rejoining())   # asked at every look
        if not self.seats_open() and not away:
            self.invite = None                 # withdrawn: a new code when a seat opens
            if self.current is not None:
                w, self.current = self.current, None
                w.close().addErrback(lambda f: None)
            return
        if self.current is not None or self.reactor.seconds() < self.reopen_at:
            return
        fresh = self.invite is None
        if self.invite is None:
            self.invite, self.wrong, self.reopen_at = new_code(), 0, 0.0
        invite = self.invite
        w = self.current = wormhole_for(self.reactor, self.options, invite.app_id(APP_ID))
        w.set_code(invite.wormhole_code(new_nameplate()))
        if fresh:
            w.get_code().addCallbacks(lambda _code: self._code_shown(invite.text),
                                      lambda f: None)
        # once a friend's program is there (the key agreed): the addresses as they are
        # then, a router's mapping included when it came after the code was shown
        w.get_versions().addCallbacks(
            lambda _versions: w.send_message(Offer(self.table_code, self.addresses(),
                                                   self.options.relay_allowed).to_bytes()),
            lambda _failure: None)
        # a key agreed but never confirmed is a guess too (the guesser can check its guess
        # against our confirmation offline and stay silent): counted after CONFIRM_WAIT
        w.get_unverified_key().addCallbacks(lambda _key: self._confirm_within(w),
                                            lambda _failure: None)
        w.get_message().addCallbacks(lambda data: self._answered(w, data),
                                     lambda f: self._failed(w, f))

    def _confirm_within(self, w: Any) -> None:
        confirmed: list[bool] = []
        w.get_versions().addCallbacks(lambda _v: confirmed.append(True), lambda f: None)

        def check() -> None:
            if not confirmed and self.current is w and not self.closed:
                from wormhole.errors import WrongPasswordError
                self._failed(w, WrongPasswordError())
        self.reactor.callLater(self.CONFIRM_WAIT, check)

    def _still_away(self, away: list[int]) -> list[int]:
        """The seats away for which no tunnel is under way: a friend who came back
        through a new tunnel is still away until its rejoin is through, and needs no
        second code meanwhile."""
        now = self.reactor.seconds()
        back = max(0, self.away_before - len(away))
        self.away_before = len(away)
        self.rejoin_tunnels = [t for t in self.rejoin_tunnels[back:]
                               if now - t < self.REJOIN_GRACE]
        return away[len(self.rejoin_tunnels):]

    def _say_once(self, line: str) -> None:
        """A line that may come again at each retry: said when it differs from the last."""
        if line != self.last_said:
            self.last_said = line
            self.say(line)

    def _code_shown(self, code: str) -> None:
        first, self.code = self.code is None, code
        self.shown_for_rejoin = bool(self.away)
        self.retry = self.RETRY_FIRST
        if self.away:        # one code, one friend: the next code names the next seat away
            seat = self.away[0]
            self._say_once(f"Seat {seat} rejoins with: ./shogun join {code} --resume SAVE")
        elif first:
            server = server_name(self.options.mailbox)
            self._say_once(f"Friends anywhere join with: ./shogun join {code} "
                           f"(by code, through the rendezvous server {server})")
        else:
            self._say_once(f"The next friend joins with: ./shogun join {code}")

    def _answered(self, w: Any, data: bytes) -> None:
        self.current = None
        try:
            choice = Choice.from_bytes(data)
        except RendezvousError as exc:
            log.warning("a friend's answer over the rendezvous was refused: %s", exc)
            w.close().addErrback(lambda f: None)
            self.reactor.callLater(0, self._show)
            return
        self.invite = None                    # used: the next friend gets the next code
        self.friends += 1
        friend = self.friends
        if self.shown_for_rejoin and choice.path != "none":
            self.rejoin_tunnels.append(self.reactor.seconds())
        if choice.path == "direct":
            self.say("a friend who typed the code dials the table directly")
            w.close().addErrback(lambda f: None)
        elif choice.path == "none":
            self.say(f"a friend who typed the code cannot reach the table: {choice.sentence()}")
            w.close().addErrback(lambda f: None)
        elif not self.options.relay_allowed:
            log.warning("a friend asked for the relay, which this table does not allow")
            w.close().addErrback(lambda f: None)
        else:
            self.say("a friend who typed the code cannot dial the table directly: "
                     "connecting through magic-wormhole (direct if it can, else the relay)")

            def status(update: object) -> None:
                link = link_of(update)
                before = self.links.get(friend)
                self.links[friend] = link
                if link.connected and link != before:
                    self.say(f"friend {friend} is connected through the relay {link.where}"
                             if link.through_relay else f"friend {friend} is connected "
                             f"directly through magic-wormhole ({link.where})")
                elif before is not None and before.connected and not link.connected:
                    self.say(f"friend {friend}'s link is down; magic-wormhole redials it")
            dilated = w.dilate(transit_relay_location=self.options.relay,
                               no_listen=self.options.relay_only, on_status_update=status)
            serve_table(self.reactor, dilated, self.table_host, self.table_port,
                        lambda port: self.tunnelled.__setitem__(port, friend))
            if self.options.relay_allowed:
                self.redials.append(RelayRedial(self.reactor, dilated))
            self.tunnels.append(w)
        self.reactor.callLater(0, self._show)

    def _failed(self, w: Any, failure: Any) -> None:
        if self.current is not w or self.closed:
            return            # withdrawn (the table is full) or closed with the table
        from twisted.python.failure import Failure
        from wormhole.errors import WrongPasswordError
        self.current = None
        code = self.code or ""
        w.close().addErrback(lambda f: None)
        error = failure.value if isinstance(failure, Failure) else failure
        if isinstance(error, WrongPasswordError):
            self.wrong += 1
            pause = reopen_pause(self.wrong)
            self.say(f"someone tried the code {code} with wrong words at the rendezvous "
                     f"({self.wrong} so far); the code still works, open again in "
                     f"{pause:g} s")
        elif unreachable(failure):     # no internet (or the server is down): no code at all
            pause = max(self.retry, reopen_pause(self.wrong))
            self.retry = min(self.RETRY_MOST, self.retry * 2)
            server = server_name(self.options.mailbox)
            self._say_once(f"friends outside this network cannot join by code: the rendezvous "
                           f"server {server} cannot be reached (is this computer offline?); "
                           f"friends on this network can still join by address")
        else:
            pause = max(2.0, self.retry, reopen_pause(self.wrong))
            self.retry = min(self.RETRY_MOST, self.retry * 2)
            self._say_once(f"the invitation code {code} was interrupted: "
                           f"{plain_failure(failure, self.options.mailbox)}; the code still "
                           f"works and opens again by itself" if code else
                           f"no invitation code could be made: "
                           f"{plain_failure(failure, self.options.mailbox)}")
        self.reopen_at = self.reactor.seconds() + pause
        self.reactor.callLater(pause, self._show)

    def close(self) -> None:
        """When the table closes: the shown code and every tunnel."""
        self.closed = True
        for redial in self.redials:
            redial.stop()
        for w in [self.current, *self.tunnels]:
            if w is not None:
                w.close().addErrback(lambda f: None)
        self.current = None
        self.tunnels.clear()


# ----------------------------------------------------------------------------- friend


__all__ = ["Invitations"]
