"""The network's sentences in the player's language.

`net/` explains a refusal, a pause, a lobby or hand-over error and a router problem in
English: those words stay English in logs, in the headless runner and on the wire (a refusal
comes from another peer, in that peer's words). The window shows them through `for_players`
here, as `client.engine_words` does for the engine: each sentence shape net writes is matched
and said again from the catalogue with its seat numbers, names and counts kept. A field that
is itself a net sentence (the reason after "join refused: ", the router advice after "; ") is
said again the same way. A sentence of no known shape is shown as it is; nothing here raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lang.i18n import N_, _, current, ngettext
from sim.narrate import Nn_


@dataclass(frozen=True)
class Shape:
    """One sentence shape: `message` (or a plural pair counted by field `count`); the
    fields named in `inner` are net sentences too."""
    pattern: re.Pattern          # matched against the whole sentence
    message: str | tuple[str, str]
    count: str | None = None
    inner: tuple[str, ...] = ()


_SEAT = re.compile(r"(?P<seat>-?\d+|None)").pattern
_N = re.compile(r"(?P<n>\d+)").pattern
SHAPES: list[Shape] = [
    # -- a refusal at the door (net/admission.py, net/peer.py, net/connections.py) ----------
    Shape(re.compile(r"join refused: (?P<reason>.+)"), N_("join refused: {reason}"), inner=("reason",)),
    Shape(re.compile(r"rejoin refused: (?P<reason>.+)"),
          N_("rejoin refused: {reason}"), inner=("reason",)),
    Shape(re.compile(r"cannot join: (?P<reason>.+)"), N_("cannot join: {reason}"), inner=("reason",)),
    Shape(re.compile(r"this peer has left the table"), N_("this peer has left the table")),
    Shape(re.compile(r"this peer is a spectator"), N_("this peer is a spectator")),
    Shape(re.compile(r"no game is running here to rejoin"), N_("no game is running here to rejoin")),
    Shape(re.compile(r"join the host, not another guest"), N_("join the host, not another guest")),
    Shape(re.compile(r"a player must bring a seat key"), N_("a player must bring a seat key")),
    Shape(re.compile(r"the table is full"), N_("the table is full")),
    Shape(re.compile(r"the game has started \(no seat for a new player\)"),
          N_("the game has started (no seat for a new player)")),
    Shape(re.compile(r"seat " + _SEAT + r" is not a player's seat"),
          N_("seat {seat} is not a player's seat")),
    Shape(re.compile(r"seat " + _SEAT + r" was expelled for cheating"),
          N_("seat {seat} was expelled for cheating")),
    Shape(re.compile(r"no proof of seat " + _SEAT + r"'s key \(only the player who holds it may take that seat\)"),
          N_("no proof of seat {seat}'s key (only the player who holds it may take that seat)")),
    Shape(re.compile(r"seat " + _SEAT + r" is now played by a bot"),
          N_("seat {seat} is now played by a bot")),
    Shape(re.compile(r"seat " + _SEAT + r" belongs to another peer"),
          N_("seat {seat} belongs to another peer")),
    Shape(re.compile(r"seat " + _SEAT + r" is already connected"),
          N_("seat {seat} is already connected")),
    Shape(re.compile(r"wrong rejoin token for seat " + _SEAT), N_("wrong rejoin token for seat {seat}")),
    Shape(re.compile(r"too many wrong join codes from your address; try again in " + _N + " s"),
          Nn_("too many wrong join codes from your address; try again in {n} second",
              "too many wrong join codes from your address; try again in {n} seconds"), "n"),
    Shape(re.compile(r"the join code is wrong"), N_("the join code is wrong")),
    Shape(re.compile(r"the table's reply could not be authenticated \((?P<why>.*)\)"),
          N_("the table's reply could not be authenticated ({why})")),
    Shape(re.compile(r"key-exchange message has (?P<n>\d+) bytes, not (?P<m>\d+)"),
          N_("key-exchange message has {n} bytes, not {m}")),
    Shape(re.compile(r"unusable key-exchange message: (?P<why>.+)"),
          N_("unusable key-exchange message: {why}")),
    Shape(re.compile(r"(?P<key>[\w.-]+) differs: yours (?P<a>[^,;]+), table (?P<b>[^;]+)"),
          N_("{key} differs: yours {a}, table {b}")),
    Shape(re.compile(r"(?P<key>[\w.-]+) differs: table (?P<a>[^,;]+), yours (?P<b>[^;]+)"),
          N_("{key} differs: table {a}, yours {b}")),
    Shape(re.compile(r"could not connect to (?P<address>\S+): (?P<why>.*)"),
          N_("could not connect to {address}: {why}")),
    Shape(re.compile(r"the host left before the game started"),
          N_("the host left before the game started")),
    Shape(re.compile(r"no player left to watch"), N_("no player left to watch")),
    # -- a pause (net/connections.py, net/liveness.py, net/recovery.py) --------------------
    Shape(re.compile(r"lost the connection to the peer we were watching"),
          N_("lost the connection to the peer we were watching")),
    Shape(re.compile(r"seat " + _SEAT + r" \((?P<name>.*)\) dropped; waiting up to (?P<t>\d+(?:\.\d+)?) s for it to rejoin"),
          N_("seat {seat} ({name}) dropped; waiting up to {t} s for it to rejoin")),
    Shape(re.compile(r"only (?P<live>\d+) of (?P<n>\d+) players are connected here: a bot may take a seat only "
          r"on a side with more than half of the players; waiting for the others"),
          Nn_("only {live} of {n} player is connected here: a bot may take a seat only on a side "
              "with more than half of the players; waiting for the others",
              "only {live} of {n} players are connected here: a bot may take a seat only on a side "
              "with more than half of the players; waiting for the others"), "n"),
    Shape(re.compile(r"dropped by the other players; rejoining and catching up"),
          N_("dropped by the other players; rejoining and catching up")),
    # -- the lobby (net/lobby.py, net/session.py) ------------------------------------------
    Shape(re.compile(r"only the host can change the table before the start"),
          N_("only the host can change the table before the start")),
    Shape(re.compile(r"not enough seats for the players already here"),
          N_("not enough seats for the players already here")),
    Shape(re.compile(r"only the host can choose the bots' levels, before the start"),
          N_("only the host can choose the bots' levels, before the start")),
    Shape(re.compile(r"seat " + _SEAT + r" is not a bot seat"), N_("seat {seat} is not a bot seat")),
    Shape(re.compile(r"there is no bot level called (?P<level>.+); choose (?P<levels>.+) or (?P<last>\S+)"),
          N_("there is no bot level called {level}; choose {levels} or {last}")),
    Shape(re.compile(r"only the host can move players, before the start"),
          N_("only the host can move players, before the start")),
    Shape(re.compile(r"there is no seat " + _SEAT + r" at this table"),
          N_("there is no seat {seat} at this table")),
    Shape(re.compile(r"seat " + _SEAT + r" has no player to move"),
          N_("seat {seat} has no player to move")),
    Shape(re.compile(r"seat " + _SEAT + r" is a bot's seat"), N_("seat {seat} is a bot's seat")),
    Shape(re.compile(r"seat " + _SEAT + r" is taken by a player who stays there"),
          N_("seat {seat} is taken by a player who stays there")),
    Shape(re.compile(r"two players cannot move to one seat"), N_("two players cannot move to one seat")),
    Shape(re.compile(r"only the host starts, once"), N_("only the host starts, once")),
    Shape(re.compile(r"there are open seats"), N_("there are open seats")),
    Shape(re.compile(r"bots must leave at least one human seat"),
          N_("bots must leave at least one human seat")),
    Shape(re.compile(r"[Tt]he game has not started\.?"), N_("The game has not started.")),
    # -- chat (net/chat.py) ----------------------------------------------------------------
    Shape(re.compile(r"a chat line must be text"), N_("a chat line must be text")),
    Shape(re.compile(r"there is nothing to send"), N_("there is nothing to send")),
    Shape(re.compile(r"a chat line may be at most (?P<m>\d+) characters long; this one has (?P<n>\d+)"),
          Nn_("a chat line may be at most {m} character long; this one has {n}",
              "a chat line may be at most {m} characters long; this one has {n}"), "m"),
    Shape(re.compile(r"you have left the table"), N_("you have left the table")),
    # -- handing a seat to a bot (net/takeover.py) -----------------------------------------
    Shape(re.compile(r"only the host can hand a seat to a bot"),
          N_("only the host can hand a seat to a bot")),
    Shape(re.compile(r"there is no game running in which to hand over a seat"),
          N_("there is no game running in which to hand over a seat")),
    Shape(re.compile(r"you cannot hand your own seat to a bot"),
          N_("you cannot hand your own seat to a bot")),
    Shape(re.compile(r"seat " + _SEAT + r" is already played by a bot"),
          N_("seat {seat} is already played by a bot")),
    Shape(re.compile(r"(?P<name>.*) \(seat " + _SEAT + r"\) is not offline; only a dropped player's seat can be "
          r"handed to a bot"),
          N_("{name} (seat {seat}) is not offline; only a dropped player's seat can be handed to a bot")),
    Shape(re.compile(r"only (?P<live>\d+) of (?P<n>\d+) players are connected here; a bot may take a seat only "
          r"when more than half of the players are connected, so the table waits for the others"),
          Nn_("only {live} of {n} player is connected here; a bot may take a seat only when more "
              "than half of the players are connected, so the table waits for the others",
              "only {live} of {n} players are connected here; a bot may take a seat only when more "
              "than half of the players are connected, so the table waits for the others"), "n"),
    # -- unlocking a plan (net/plan_steps.py) ----------------------------------------------
    Shape(re.compile(r"your plan is already locked; unlock it first to change it"),
          N_("your plan is already locked; unlock it first to change it")),
    Shape(re.compile(r"There is no plan of yours to unlock now\."),
          N_("There is no plan of yours to unlock now.")),
    Shape(re.compile(r"Your plan is not locked\."), N_("Your plan is not locked.")),
    Shape(re.compile(r"Every player has locked their plan, so yours can no longer be changed\."),
          N_("Every player has locked their plan, so yours can no longer be changed.")),
    # -- the start check (net/internet.py, net/reachability.py) ----------------------------
    Shape(re.compile(r"the reachability check failed: (?P<why>.*)"),
          N_("the reachability check failed: {why}")),
    Shape(re.compile(r"seats changed so that every pair can connect: (?P<moves>.+)"),
          N_("seats changed so that every pair can connect: {moves}"), inner=("moves",)),
    Shape(re.compile(r"(?P<name>[^,]+) takes seat " + _SEAT), N_("{name} takes seat {seat}")),
    Shape(re.compile(r"(?P<a>.+) and (?P<b>.+) cannot reach each other: neither can be dialled from outside "
          r"their own network \((?P=a) at (?P<at_a>\S+), (?P=b) at (?P<at_b>\S+)\)\. One of them can "
          r"forward its TCP port on the router, or use IPv6, or all can join one VPN \(ZeroTier, "
          r"Tailscale\); see docs/net\.md\."),
          N_("{a} and {b} cannot reach each other: neither can be dialled from outside their own "
             "network ({a} at {at_a}, {b} at {at_b}). One of them can forward its TCP port on the "
             "router, or use IPv6, or all can join one VPN (ZeroTier, Tailscale); see docs/net.md.")),
    # -- opening a table from the menu (net/addresses.py, net/savefile.py) -----------------
    Shape(re.compile(r"the address is empty; give HOST:PORT, e.g\. 192\.168\.1\.20:7531"),
          N_("the address is empty; give HOST:PORT, e.g. 192.168.1.20:7531")),
    Shape(re.compile(r"(?P<address>.+) opens '\[' for an IPv6 address but never closes it"),
          N_("{address} opens '[' for an IPv6 address but never closes it")),
    Shape(re.compile(r"(?P<address>.+) has (?P<rest>.+) after the IPv6 address; write \[ADDRESS\]:PORT"),
          N_("{address} has {rest} after the IPv6 address; write [ADDRESS]:PORT")),
    Shape(re.compile(r"(?P<address>.+) has a port but no host"), N_("{address} has a port but no host")),
    Shape(re.compile(r"(?P<address>.+): the port (?P<port>.+) is not a number from 1 to 65535"),
          N_("{address}: the port {port} is not a number from 1 to 65535")),
    Shape(re.compile(r"(?P<address>.+): (?P<host>.+) is not an IPv6 address"),
          N_("{address}: {host} is not an IPv6 address")),
    Shape(re.compile(r"cannot read the save (?P<path>.+): (?P<why>.*)"),
          N_("cannot read the save {path}: {why}")),
    Shape(re.compile(r"(?P<path>.+) is not a net save \(damaged\? (?P<why>.*)\)"),
          N_("{path} is not a net save (damaged? {why})")),
    Shape(re.compile(r"(?P<path>.+) is not a net save of version (?P<v>\d+)"),
          N_("{path} is not a net save of version {v}")),
    Shape(re.compile(r"(?P<path>.+) lacks (?P<fields>.+)"), N_("{path} lacks {fields}")),
    Shape(re.compile(r"(?P<path>.+) has a damaged secret or seat"), N_("{path} has a damaged secret or seat")),
    # -- the router (net/portmap.py) -------------------------------------------------------
    Shape(re.compile(r"No router answered the request for a port mapping \(UPnP is off or not offered\); players "
          r"outside this network can reach you only if you (?P<fixes>.+)\."),
          N_("No router answered the request for a port mapping (UPnP is off or not offered); "
             "players outside this network can reach you only if you {fixes}."), inner=("fixes",)),
    Shape(re.compile(r"No router here offers port mappings \((?P<why>.*)\); to be reached from outside, (?P<fixes>.+)\."),
          N_("No router here offers port mappings ({why}); to be reached from outside, {fixes}."),
          inner=("fixes",)),
    Shape(re.compile(r"The router would not tell its public address \((?P<why>.*)\); (?P<fixes>.+)\."),
          N_("The router would not tell its public address ({why}); {fixes}."), inner=("fixes",)),
    Shape(re.compile(r"The router has no public address yet \(not online\?\); (?P<fixes>.+)\."),
          N_("The router has no public address yet (not online?); {fixes}."), inner=("fixes",)),
    Shape(re.compile(r"The router refused to forward port (?P<port>\d+) \((?P<why>.*)\); (?P<fixes>.+)\."),
          N_("The router refused to forward port {port} ({why}); {fixes}."), inner=("fixes",)),
    Shape(re.compile(r"Asking the router for a port mapping failed: (?P<why>.*)\."),
          N_("Asking the router for a port mapping failed: {why}.")),
    Shape(re.compile(r"forward TCP port (?P<port>\d+) to this computer in the router's settings, use IPv6, or join "
          r"one VPN such as ZeroTier or Tailscale \(docs/net\.md, 'Beyond the LAN'\)"),
          N_("forward TCP port {port} to this computer in the router's settings, use IPv6, or join "
             "one VPN such as ZeroTier or Tailscale (docs/net.md, 'Beyond the LAN')")),
]

# lists net joins into one line: each part is said again on its own
_LISTS = ("; ", ", ")


def said(text: str) -> str | None:
    """`text` in the player's language, or None when it is of no known shape."""
    body = text.strip()
    for shape in SHAPES:
        m = shape.pattern.fullmatch(body)
        if not m:
            continue
        fields = {k: v for k, v in m.groupdict().items()}
        for name in shape.inner:
            fields[name] = for_players(fields[name])
        try:
            if isinstance(shape.message, tuple):
                return ngettext(shape.message[0], shape.message[1],
                                int(fields[shape.count])).format(**fields)
            return _(shape.message).format(**fields)
        except (KeyError, ValueError, IndexError):
            return None      # a broken translation: English is better than a crash
    for sep in _LISTS:
        parts = body.split(sep)
        if len(parts) > 1:
            again = [said(p) for p in parts]
            if all(a is not None for a in again):
                return sep.join(again)       # e.g. several "… differs: …", "X takes seat 1"
    return None


def for_players(text: str) -> str:
    """A net sentence to show in the window: in the player's language when its shape is
    known, as it came otherwise (never raises)."""
    if not isinstance(text, str):
        text = str(text)
    if current() == "en":
        return text
    try:
        again = said(text)
    except Exception:        # a window must not fall over a sentence from another peer
        return text
    return text if again is None else again
