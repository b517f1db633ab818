"""Join codes that work across the internet: a magic-wormhole mailbox introduces host and friend.

Why: a friend behind carrier-grade NAT, a router with UPnP off or a guest network cannot
be dialled and cannot dial the host (issue 39). magic-wormhole (Twisted, maintained) gives
what the table lacks: a mailbox server where two programs holding the same short code
meet (its own SPAKE2 between the two, so the mailbox learns nothing), and a transit
relay, used only when no direct connection works. No server of ours: by default the
public ones the magic-wormhole project offers to applications, under this game's own
application id; `--rendezvous URL --relay HOST:PORT` point elsewhere.

How one friend joins (`Invitations` on the host, `join_by_code` on the friend):

1. The host makes a code of six words and prints it; it waits in the code's own
   namespace of the mailbox (net/reach/invite_codes.py, issue 47).
2. The friend types it and finds the host there (`meet_host`). Over the wormhole (encrypted under its key) the host sends an
   `Offer`: the table's own join code (40 bits) and every address it may be dialled at
   (router mapping, IPv6, LAN; net/reach/addresses.py).
3. The friend probes a handful of those addresses, those a table could honestly be
   reached at from here (net/reach/offered.py; issue 47: the list is the host's choice),
   through net/reach/reachability.py. The first that a Shogun table answers is joined
   directly, as `join ADDRESS --code C` would be. The friend answers with its path and,
   when it has none, a fixed reason (`Choice`), never what it found at each address.
4. Otherwise both sides dilate the wormhole (net/reach/tunnel.py): a direct connection
   if one of magic-wormhole's own hints works (for instance the friend can be dialled
   when the host cannot), else the transit relay. With `--direct-only` (either side)
   there is no step 4 and the friend reads why it cannot join.

Either way the table's handshake then runs as always: its SPAKE2 with the table's code
between the two players, every frame sealed end to end. A code serves one friend (a
mailbox nameplate joins two programs): once it is used the host prints the next code
while seats are open. A wrong guess fails that wormhole on both sides and spends
nothing: the host opens the same code again after a growing pause (issue 47).

Tests: tests/net/reach/test_rendezvous.py (the records, and a loopback mailbox and relay),
tests/net/reach/test_internet_rendezvous.py (homes behind NAT in network namespaces).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol

from net.reach.addresses import Reachable, format_address
from net.reach.invite_codes import InviteCode, list_nameplates, looks_like_code, parse_code
from net.reach.reach_settings import ANSWER_WAIT, ReachSettings
from net.reach.offered import FriendSide, judge, not_tried, on_loopback, to_probe
from net.reach.tunnel import (Forwarder, Link, RelayRedial, link_of,
                              no_delay_on_dilated_connections,
                              say_when_records_fail_authentication)
from net.transport.reactor_types import Clock, NetReactor, twisted_clock

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred
    from twisted.python.failure import Failure

    from net.reach.reachability import Probe

log = logging.getLogger("net.reach.rendezvous")

# magic-wormhole's convention: an application id shaped like a domain and a path, so
# this game's codes never meet another program's on a shared mailbox
APP_ID = "shogun-board-game.net/table/v1"
PUBLIC_MAILBOX = "ws://relay.magic-wormhole.io:4000/v1"
PUBLIC_RELAY = "tcp:transit.magic-wormhole.io:4001"
OFFER_VERSION = 1
INVITE_PATTERN = re.compile(r"^\d+-[A-Za-z]+(-[A-Za-z]+)+$")


class RendezvousError(Exception):
    """A friend could not join by code; the message is a sentence for the player."""


@dataclass(frozen=True)
class RendezvousOptions:
    mailbox: str = PUBLIC_MAILBOX
    relay: str | None = PUBLIC_RELAY          # magic-wormhole's form "tcp:HOST:PORT"
    direct_only: bool = False
    local: bool = False         # this peer's table is on loopback (a test): the host's
                                # loopback addresses are plausible (net/reach/offered.py)
    relay_only: bool = False    # (tests) as if no direct path worked: the relay carries the
                                # table even on loopback: the friend dials none of the host's
                                # addresses, and neither side listens for magic-wormhole's
                                # own direct connections (`no_listen`)
    answer_wait: float = ANSWER_WAIT    # seconds `join CODE` waits for a table to answer

    @property
    def relay_allowed(self) -> bool:
        return not self.direct_only and self.relay is not None


class AskedReach(Protocol):
    """What a player asked of the rendezvous (`net.table.options.TableOptions` has these;
    named here, not imported: net.reach sits below net.table)."""

    @property
    def rendezvous(self) -> str | None: ...

    @property
    def relay(self) -> str | None: ...

    @property
    def direct_only(self) -> bool: ...


def options_for(args: AskedReach, interface: str, settings: ReachSettings,
                needed: bool = False) -> RendezvousOptions | None:
    """This peer's rendezvous, or None when it uses none: `settings.rendezvous` off
    (SHOGUN_NET_RENDEZVOUS=off), or a table on loopback only (tests), unless
    `--rendezvous` is given or `needed` (a code was
    typed). ValueError says what is wrong with a given option. (`host`/`join` on the
    command line and the window's menu, whose Settings give the same three fields.)"""
    mailbox = args.rendezvous
    relay = args.relay
    loopback = on_loopback(interface)
    if mailbox is None and not needed and (
            not settings.rendezvous or loopback):
        return None
    if mailbox is not None and not mailbox.startswith(("ws://", "wss://")):
        raise ValueError(f"the rendezvous {mailbox} is not a mailbox address; give "
                         "ws://HOST:PORT/v1")
    return RendezvousOptions(mailbox or PUBLIC_MAILBOX,
                             relay_hint(relay) if relay else PUBLIC_RELAY,
                             args.direct_only, loopback, settings.relay_only,
                             settings.answer_wait)


def relay_hint(address: str) -> str:
    """`--relay HOST:PORT` (or `[IPv6]:PORT`) in magic-wormhole's hint form."""
    from net.reach.addresses import parse_address
    host, port = parse_address(address, default_port=4001)
    return f"tcp:{format_address(host, port)}"


def is_invite(text: str | None) -> bool:
    """`join absurd-pandora-tracker-guitarist-revenge-uncut`: a code of words (or one of
    the old form, `7-guitarist-revenge`, which gets a sentence), not HOST:PORT."""
    return text is not None and (looks_like_code(text)
                                 or INVITE_PATTERN.match(text.strip()) is not None)


@dataclass(frozen=True)
class Offer:
    """What the host tells a friend over the wormhole (sealed under the wormhole key)."""
    code: str                                  # the table's own join code
    addresses: list[Reachable] = field(default_factory=list)
    relay: bool = True                         # the host allows the relay path

    def to_bytes(self) -> bytes:
        return json.dumps({"shogun": OFFER_VERSION, "code": self.code, "relay": self.relay,
                           "addresses": [[a.host, a.port, a.scope] for a in self.addresses]}
                          ).encode()

    @classmethod
    def from_bytes(cls, data: bytes) -> Offer:
        """The host's offer; RendezvousError names what is wrong with a bad one."""
        try:
            raw = json.loads(data)
        except ValueError:
            raise RendezvousError("the host's offer is not readable") from None
        if not isinstance(raw, dict) or raw.get("shogun") != OFFER_VERSION:
            raise RendezvousError("the code belongs to a program that is not a Shogun table "
                                  "of this version")
        code, relay, addresses = raw.get("code"), raw.get("relay"), raw.get("addresses")
        if not isinstance(code, str) or not 0 < len(code) <= 64 or not isinstance(relay, bool) \
                or not isinstance(addresses, list) or len(addresses) > 32:
            raise RendezvousError("the host's offer is malformed")
        found = []
        for a in addresses:
            if not (isinstance(a, list) and len(a) == 3 and isinstance(a[0], str)
                    and len(a[0]) <= 64 and isinstance(a[1], int) and 0 < a[1] < 65536
                    and isinstance(a[2], str) and len(a[2]) <= 32):
                raise RendezvousError("the host's offer has a malformed address")
            found.append(Reachable(a[0], a[1], a[2]))
        return cls(code, found, relay)


# why a friend cannot reach the table, as it tells the host: a fixed reason, never what it
# found at each address (issue 47: the host's addresses are the host's choice, and the
# results would be a scan of the friend's network; the text would reach the host's terminal)
NO_PATH_REASONS = {
    "direct-only": "no direct path to the table, and the friend asked for --direct-only",
    "no-relay": "no direct path to the table, and this table allows no relay (it runs with "
                "--direct-only). You can forward the table's TCP port on the router, or both "
                "can use IPv6 or one VPN; see docs/net.md.",
}
UNNAMED_REASON = "no direct path to the table"


@dataclass(frozen=True)
class Choice:
    """What the friend answers: how it will reach the table, and for "none" which of the
    fixed `NO_PATH_REASONS` (anything else a friend sends is read as no reason)."""
    path: str                   # "direct", "relay" or "none"
    reason: str = ""            # for "none": a key of NO_PATH_REASONS

    def to_bytes(self) -> bytes:
        return json.dumps({"path": self.path, "reason": self.reason}).encode()

    @classmethod
    def from_bytes(cls, data: bytes) -> Choice:
        try:
            raw = json.loads(data)
        except ValueError:
            raise RendezvousError("the friend's answer is not readable") from None
        if not isinstance(raw, dict) or raw.get("path") not in ("direct", "relay", "none") \
                or not isinstance(raw.get("reason", ""), str):
            raise RendezvousError("the friend's answer is malformed")
        reason = raw.get("reason", "")
        return cls(raw["path"], reason if reason in NO_PATH_REASONS else "")

    def sentence(self) -> str:
        """For "none": the host's own words for the friend's reason."""
        return NO_PATH_REASONS.get(self.reason, UNNAMED_REASON)


@dataclass(frozen=True)
class Arrival:
    """Where the friend's table session dials, and how that reaches the host."""
    address: str                # HOST:PORT for `TableSession.join`
    code: str                   # the table's join code
    how: str                    # a sentence: "directly at 11.0.0.1:7531 (...)", "through the relay ..."
    wormhole: Any = None        # kept open while the relay path is used
    forwarder: Forwarder | None = None
    round_trip: float | None = None     # seconds, measured when joining (probe answered)
    tunnel: str | None = None   # through magic-wormhole: "relay", "direct" or "unknown";
                                # None: no tunnel
    redial: RelayRedial | None = None   # dials the relay again after a break


def wormhole_for(reactor: Clock, options: RendezvousOptions, app_id: str = APP_ID) -> Any:
    """A wormhole on the mailbox, under `app_id`: a code's hidden namespace
    (`InviteCode.app_id`, issue 47)."""
    import wormhole
    no_delay_on_dilated_connections()
    say_when_records_fail_authentication()
    return wormhole.create(app_id, options.mailbox, reactor, dilation=True,
                           versions={"shogun-table": OFFER_VERSION})


def server_name(mailbox: str) -> str:
    """The rendezvous as a player reads it: its host's name, not the ws:// address
    ("relay.magic-wormhole.io" for ws://relay.magic-wormhole.io:4000/v1)."""
    from urllib.parse import urlsplit
    try:
        host = urlsplit(mailbox).hostname
    except ValueError:
        host = None
    return host or mailbox


def unreachable(failure: Failure | BaseException) -> bool:
    """The failure is the rendezvous server itself not answering (no internet, or the
    server is down), not something about a code."""
    from twisted.python.failure import Failure
    from wormhole.errors import ServerConnectionError
    error = failure.value if isinstance(failure, Failure) else failure
    return isinstance(error, ServerConnectionError)


def plain_failure(failure: Failure | BaseException, mailbox: str) -> str:
    """Says a rendezvous failure (a Twisted Failure or the exception itself) as a sentence."""
    from twisted.python.failure import Failure
    from wormhole.errors import LonelyError, ServerConnectionError, WrongPasswordError
    # a Failure is a BaseException itself (Twisted 24): ask for it first
    error: BaseException | None = failure.value if isinstance(failure, Failure) else failure
    if isinstance(error, WrongPasswordError):
        return "the code is wrong (or someone else used it first); ask the host for the " \
               "code it shows now"
    if isinstance(error, LonelyError):
        return "nobody was there with that code"
    if isinstance(error, ServerConnectionError):
        server = server_name(mailbox)
        return f"the rendezvous server {server} cannot be reached"
    return str(error)


# ------------------------------------------------------------------------------- host
async def _closed(w: Any) -> None:
    try:
        await w.close()
    except Exception:         # an unhappy close: nothing more to say to the host
        pass


def choose_direct(targets: list[Reachable], probes: list[Probe]) -> Reachable | None:
    """The first of the addresses probed (the host's order, most widely reachable first)
    where a Shogun table answered our probe."""
    for address, probe in zip(targets, probes):
        if probe.greeted:
            return address
    return None


# how a direct path is said, by the scope of the address (net/reach/addresses.py)
_DIRECTLY = {"public": "directly at {address} through the host's router, round trip {rtt}",
             "global IPv6": "directly at {address} over IPv6, round trip {rtt}",
             "LAN": "directly at {address} on the same home network, round trip {rtt}",
             "LAN IPv6": "directly at {address} on the same home network, round trip {rtt}",
             "this machine": "directly at {address} on this machine, round trip {rtt}"}


CLAIM_WAIT = 15.0      # seconds one claimed nameplate has to answer


async def meet_host(reactor: NetReactor, options: RendezvousOptions,
                    code: InviteCode) -> tuple[Any, bytes]:
    """Friend: find the host's nameplate in the code's hidden namespace (listing it; only
    holders of the code can name it) and claim it with the secret words: the wormhole and
    the host's offer. RendezvousError: a sentence (the words are wrong, nobody answered
    within `options.answer_wait`, the mailbox cannot be reached)."""
    from twisted.internet import defer, task
    from wormhole.errors import WrongPasswordError
    wait = options.answer_wait
    end = reactor.seconds() + wait
    app_id = code.app_id(APP_ID)
    tried: set[str] = set()
    while reactor.seconds() < end:
        lister = wormhole_for(reactor, options, app_id)
        try:
            nameplates = await list_nameplates(lister, max(1.0, min(10.0, end - reactor.seconds())),
                                               reactor)
        except defer.TimeoutError:
            nameplates = set()
        except Exception as exc:
            raise RendezvousError(plain_failure(exc, options.mailbox)) from None
        finally:
            lister.close().addErrback(lambda f: None)
        for nameplate in sorted(nameplates - tried, key=lambda n: int(n) if n.isdigit() else 0):
            if not nameplate.isdigit() or len(nameplate) > 9:
                continue
            tried.add(nameplate)
            w = wormhole_for(reactor, options, app_id)
            w.set_code(code.wormhole_code(nameplate))
            try:
                left = max(1.0, min(CLAIM_WAIT, end - reactor.seconds()))
                return w, await w.get_message().addTimeout(left, twisted_clock(reactor))
            except WrongPasswordError:
                w.close().addErrback(lambda f: None)
                raise RendezvousError(plain_failure(WrongPasswordError(), options.mailbox)) \
                    from None
            except Exception:          # crowded, or nobody on it: the host opens another
                w.close().addErrback(lambda f: None)
        await task.deferLater(twisted_clock(reactor), 1.0, lambda: None)
    seconds = f"{wait:g}"
    server = server_name(options.mailbox)
    raise RendezvousError(f"no table answered that code within {seconds} s: is the host's "
                          f"table still open, and can this computer reach the "
                          f"rendezvous server {server}?")


def join_by_code(reactor: NetReactor, options: RendezvousOptions, invite: str,
                 say: Callable[[str], None]) -> Deferred[Arrival]:
    """Friend: a Deferred firing with an `Arrival` (or failing with RendezvousError)."""
    from twisted.internet import defer
    return defer.Deferred.fromCoroutine(_join_by_code(reactor, options, invite, say))


async def _join_by_code(reactor: NetReactor, options: RendezvousOptions, invite: str,
                        say: Callable[[str], None]) -> Arrival:
    from net.reach.reachability import probe, probe_all
    from twisted.internet import defer
    try:
        code = parse_code(invite)
    except ValueError as exc:
        raise RendezvousError(str(exc)) from None
    server = server_name(options.mailbox)
    say(f"looking for the table by code at the rendezvous server {server}")
    w, data = await meet_host(reactor, options, code)
    try:
        offer = Offer.from_bytes(data)
    except RendezvousError:
        w.close().addErrback(lambda f: None)
        raise
    side = FriendSide.here(options.local)
    judged = judge(offer.addresses, side)
    targets = to_probe(offer.addresses, side) if not options.relay_only else []
    probes = await probe_all(reactor, [(a.host, a.port) for a in targets]) if targets else []
    direct = choose_direct(targets, probes)
    if direct is not None:
        w.send_message(Choice("direct").to_bytes())
        w.close().addErrback(lambda f: None)
        rtt = next(p.round_trip for a, p in zip(targets, probes) if a == direct)
        how = _DIRECTLY.get(direct.scope, _DIRECTLY["LAN"]).format(
            address=direct.dial, rtt=f"{(rtt or 0) * 1000:.1f} ms")
        return Arrival(direct.dial, offer.code, how, round_trip=rtt)
    skipped = not_tried(judged)
    tried = "; ".join([p.sentence() for p in probes] + (
        [f"{skipped} other address{'es' if skipped != 1 else ''} the host gave not tried "
         "from here"] if skipped else [])) or "the host gave no address"
    if not offer.relay or options.direct_only:
        reason = (f"no direct path to the table ({tried}), and you asked for --direct-only. The "
                  "host can forward its TCP port on the router, or both can use IPv6 or one "
                  "VPN; see docs/net.md." if options.direct_only else
                  f"no direct path to the table ({tried}), and the host allows no relay (it runs "
                  "with --direct-only). The host can forward its TCP port on the router, or "
                  "both can use IPv6 or one VPN; see docs/net.md.")
        w.send_message(Choice("none", "direct-only" if options.direct_only
                              else "no-relay").to_bytes())
        await _closed(w)          # the answer reaches the mailbox before this program ends
        raise RendezvousError(reason)
    w.send_message(Choice("relay").to_bytes())
    links: list[Link] = []
    dilated = w.dilate(transit_relay_location=options.relay, no_listen=options.relay_only,
                       on_status_update=lambda update: links.append(link_of(update)))
    forwarder = Forwarder(reactor, dilated)
    redial = RelayRedial(reactor, dilated)
    await dilated.when_dilated()
    # the round trip through the tunnel: the table's greeting to a probe (no guess counted)
    through = await probe(reactor, forwarder.host, forwarder.port, timeout=10.0)
    said_rtt = f"{through.answered_in * 1000:.1f} ms" if through.greeted and \
        through.answered_in is not None else "unknown"
    connected = [link for link in links if link.connected]
    how = f"through magic-wormhole, round trip {said_rtt}" if not connected else \
        f"through the relay {connected[-1].where}, round trip {said_rtt}" \
        if connected[-1].through_relay else \
        f"directly through magic-wormhole ({connected[-1].where}), round trip {said_rtt}"
    return Arrival(format_address(forwarder.host, forwarder.port), offer.code, how,
                   wormhole=w, forwarder=forwarder, redial=redial,
                   round_trip=through.answered_in if through.greeted else None,
                   tunnel=("relay" if connected[-1].through_relay else "direct") if connected
                   else "unknown")
