"""The network's sentences in the player's language.

`net/` explains a refusal, a pause, a lobby or hand-over error and a router problem in
English: those words stay English in logs and on the wire (a refusal comes from another
peer, in that peer's words). The window and the headless runner (`cli/`) show them through
`for_players` here, as `client.words.engine_words` does for the engine: each sentence net writes is matched
and said again from the catalogue with its seat numbers, names and counts kept. A field that
is itself a net sentence (the reason after "join refused: ", the router advice after "; ") is
said again the same way. A sentence of no known shape is shown as it is; nothing here raises.

The sentences are a table (`SENTENCES`) of marked msgids: net's English is, in nearly every
row, the msgid itself, so the pattern that recognises it is made from the msgid, each
`{field}` matching what `FIELDS` says a field of that name holds. A row says more only where
net's words differ: a field that matches otherwise than its name says, other English (a
unit net abbreviates), or a whole pattern.

Tests: tests/client/words/test_net_words.py.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, field

from lang.i18n import N_, _, current, ngettext
from net.trust.peer_text import shown
from sim.narrate import Nn_

# what a field matches in net's sentence, by the field's name (any other field: `ANY`)
ANY = r".+"
_SEAT = re.compile(r"-?\d+|None").pattern     # net names a seat not yet known "None"
FIELDS: Mapping[str, str] = {
    "seat": _SEAT,
    "n": r"\d+", "m": r"\d+", "live": r"\d+", "port": r"\d+", "v": r"\d+",
    "t": r"\d+(?:\.\d+)?",           # seconds, maybe with a fraction
    "why": r".*",                    # a library's error text, which may be empty
    "name": r".*",                   # a player's name, which may be empty
    "key": r"[\w.-]+",               # the name of a version field
    "at_a": r"\S+", "at_b": r"\S+", "last": r"\S+",
}
# fields that are net sentences themselves, said again on their own
INNER = ("reason", "moves", "fixes")


@dataclass(frozen=True)
class Sentence:
    """One row of the table: the marked `message` (or a plural pair counted by field
    `count`). Net's English is the message (of a pair: the plural, which net writes for
    every count) unless `english` gives other words as a template or a whole pattern;
    `fields` gives a field another match than its name's in `FIELDS`."""
    message: str | tuple[str, str]
    english: str | re.Pattern[str] | None = None
    count: str = "n"
    fields: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Shape:
    """One sentence shape, compiled from a `Sentence`: `message` (or a plural pair counted
    by field `count`); the fields named in `inner` are net sentences too."""
    pattern: re.Pattern[str]        # matched against the whole sentence
    message: str | tuple[str, str]
    count: str | None = None
    inner: tuple[str, ...] = ()


# -- net's sentences, in the order they are tried -------------------------------------------
SENTENCES: tuple[Sentence | str, ...] = (
    # -- a refusal at the door (net/table/policy/admission.py, net/transport/peer.py, net/table/connections.py) ----------
    N_("{reason}; trying again in {t} s"),
    N_("join refused for now: {reason}"),
    N_("join refused: {reason}"),
    N_("rejoin refused: {reason}"),
    N_("cannot join: {reason}"),
    N_("this peer has left the table"),
    N_("this peer is a spectator"),
    N_("no game is running here to rejoin"),
    N_("join the host, not another guest"),
    N_("a player must bring a seat key"),
    N_("the table is full"),
    N_("the game has started (no seat for a new player)"),
    N_("seat {seat} is not a player's seat"),
    N_("seat {seat} was expelled for cheating"),
    N_("seat {seat} was dropped twice for offences"),
    N_("no proof of seat {seat}'s key (only the player who holds it may take that seat)"),
    N_("seat {seat} is now played by a bot"),
    N_("seat {seat} belongs to another peer"),
    N_("seat {seat} is already connected"),
    N_("wrong rejoin token for seat {seat}"),
    Sentence(Nn_("too many wrong join codes from your address; try again in {n} second",
                 "too many wrong join codes from your address; try again in {n} seconds"),
             english="too many wrong join codes from your address; try again in {n} s"),
    N_("the join code is wrong"),
    N_("the table is busy with other connections"),
    N_("the table is busy answering other joiners"),
    N_("the table closed the connection before the handshake"),
    N_("no key offer within {t} s of connecting"),
    N_("this table has its {n} spectators"),
    N_("your address already has {n} spectators here"),
    N_("the table's reply could not be authenticated ({why})"),
    N_("key-exchange message has {n} bytes, not {m}"),
    Sentence(N_("unusable key-exchange message: {why}"), fields={"why": ANY}),
    Sentence(N_("{key} differs: yours {a}, table {b}"), fields={"a": r"[^,;]+", "b": r"[^;]+"}),
    Sentence(N_("{key} differs: table {a}, yours {b}"), fields={"a": r"[^,;]+", "b": r"[^;]+"}),
    Sentence(N_("could not connect to {address}: {why}"), fields={"address": r"\S+"}),
    N_("the host left before the game started"),
    # -- a start that is not mine to play (net/trust/own_seat.py) ---------------------------------
    N_("the game's start has no seat for you; you did not join it"),
    N_("the game's start gives you more than one seat; you did not join it"),
    N_("the game's start gives your seat {seat} a key that is not yours, so someone else could "
       "play in your name; you did not join it"),
    # -- a start given to one player alike or not (net/table/before_start/start_mesh.py) -----------------------
    N_("the host signed a different start from the one it sent you (another turn time, take-over "
       "countdown or settings), so the players would not play one game; you left the table"),
    N_("seat {seat} was given a different start (another turn time, take-over countdown or "
       "settings), so it cannot play at this table; a bot takes the seat if it does not come back"),
    N_("could not catch up: {reason}"),
    N_("no player left to watch"),
    # -- a pause (net/table/connections.py, net/table/liveness.py, net/table/recovery.py) --------------------
    N_("lost the connection to the peer we were watching"),
    N_("seat {seat} ({name}) dropped; waiting up to {t} s for it to rejoin"),
    N_("seat {seat} ({name}) is back"),
    N_("seat {seat} ({name}) was dropped twice for offences; a bot takes the seat"),
    N_("seat {seat} ({name}) sent nothing for {t} s; a bot takes the seat in {w} s unless it plays"),
    N_("players {seats} claim your seat for a bot at step {step}, saying it sent nothing in "
       "time; you are playing, so your seat stays yours here"),
    N_("the turn time must be between {lo} and {hi} seconds"),
    Sentence(Nn_("only {live} of {n} player is connected here: a bot may take a seat only on a side "
                 "with more than half of the players; waiting for the others",
                 "only {live} of {n} players are connected here: a bot may take a seat only on a side "
                 "with more than half of the players; waiting for the others")),
    Sentence(Nn_("your seat {seat} has gone to a bot if the others play on: none of them has "
                 "heard from you for {n} second, and more than half of the table may give a "
                 "silent seat to a bot; the game ended here for you",
                 "your seat {seat} has gone to a bot if the others play on: none of them has "
                 "heard from you for {n} seconds, and more than half of the table may give a "
                 "silent seat to a bot; the game ended here for you"),
             english="your seat {seat} has gone to a bot if the others play on: none of them has "
                     "heard from you for {n} s, and more than half of the table may give a "
                     "silent seat to a bot; the game ended here for you"),
    N_("dropped by the other players; rejoining and catching up"),
    # -- the lobby (net/table/before_start/lobby.py, net/table/session.py) ----------------
    N_("only the host can change the table before the start"),
    N_("not enough seats for the players already here"),
    N_("only the host can choose the bots' levels, before the start"),
    N_("seat {seat} is not a bot seat"),
    N_("there is no bot level called {level}; choose {levels} or {last}"),
    N_("only the host can move players, before the start"),
    N_("there is no seat {seat} at this table"),
    N_("seat {seat} has no player to move"),
    N_("seat {seat} is a bot's seat"),
    N_("seat {seat} is taken by a player who stays there"),
    N_("two players cannot move to one seat"),
    N_("only the host starts, once"),
    N_("there are open seats"),
    N_("bots must leave at least one human seat"),
    Sentence(N_("The game has not started."), english=re.compile(r"[Tt]he game has not started\.?")),
    # -- chat (net/table/chat.py) ----------------------------------------------------------------
    N_("a chat line must be text"),
    N_("there is nothing to send"),
    Sentence(Nn_("a chat line may be at most {m} character long; this one has {n}",
                 "a chat line may be at most {m} characters long; this one has {n}"), count="m"),
    N_("you have left the table"),
    # -- handing a seat to a bot (net/table/takeover.py) -----------------------------------------
    N_("only the host can hand a seat to a bot"),
    N_("there is no game running in which to hand over a seat"),
    N_("you cannot hand your own seat to a bot"),
    N_("seat {seat} is already played by a bot"),
    N_("{name} (seat {seat}) is not offline; only a dropped player's seat can be handed to a bot"),
    Sentence(Nn_("only {live} of {n} player is connected here; a bot may take a seat only when more "
                 "than half of the players are connected, so the table waits for the others",
                 "only {live} of {n} players are connected here; a bot may take a seat only when more "
                 "than half of the players are connected, so the table waits for the others")),
    # -- unlocking a plan (net/lockstep/plan_steps.py) ----------------------------------------------
    N_("your plan is already locked; unlock it first to change it"),
    N_("There is no plan of yours to unlock now."),
    N_("Your plan is not locked."),
    N_("Every player has locked their plan, so yours can no longer be changed."),
    # -- the start check (net/reach/internet.py, net/reach/reachability.py) ----------------------------
    N_("the reachability check failed: {why}"),
    N_("seats changed so that every pair can connect: {moves}"),
    Sentence(N_("{name} takes seat {seat}"), fields={"name": r"[^,]+"}),
    # one address's answer to `netcheck` (net/reach/reachability.py, Probe.sentence)
    Sentence(N_("{address}: reached over {over}, round trip {rtt}, a Shogun table answered"),
             fields={"address": r"\S+", "rtt": r"[^,]+"}),
    Sentence(N_("{address}: reached over {over}, round trip {rtt}, something that is not a "
                "Shogun table answered"), fields={"address": r"\S+", "rtt": r"[^,]+"}),
    Sentence(N_("{address}: not reached ({why})"), fields={"address": r"\S+", "why": ANY}),
    N_("{a} and {b} cannot reach each other: neither can be dialled from outside their own "
       "network ({a} at {at_a}, {b} at {at_b}). One of them can forward its TCP port on the "
       "router, or use IPv6, or all can join one VPN (ZeroTier, Tailscale); see docs/net.md."),
    # -- opening a table from the menu (net/reach/addresses.py, store/table_save.py) -----------------
    N_("the address is empty; give HOST:PORT, e.g. 192.168.1.20:7531"),
    N_("{address} opens '[' for an IPv6 address but never closes it"),
    N_("{address} has {rest} after the IPv6 address; write [ADDRESS]:PORT"),
    N_("{address} has a port but no host"),
    Sentence(N_("{address}: the port {port} is not a number from 1 to 65535"), fields={"port": ANY}),
    N_("{address}: {host} is not an IPv6 address"),
    N_("cannot read the save {path}: {why}"),
    N_("{path} is not a net save (damaged? {why})"),
    N_("{path} is not a net save of version {v}"),
    N_("{path} lacks {fields}"),
    N_("{path} has a damaged secret or seat"),
    # -- the router (net/reach/portmap.py) -------------------------------------------------------
    N_("No router answered the request for a port mapping (UPnP is off or not offered); "
       "players outside this network can reach you only if you {fixes}."),
    N_("No router here offers port mappings ({why}); to be reached from outside, {fixes}."),
    N_("The router would not tell its public address ({why}); {fixes}."),
    N_("The router has no public address yet (not online?); {fixes}."),
    N_("The router refused to forward port {port} ({why}); {fixes}."),
    N_("Asking the router for a port mapping failed: {why}."),
    N_("forward TCP port {port} to this computer in the router's settings, use IPv6, or join "
       "one VPN such as ZeroTier or Tailscale (docs/net.md, 'Beyond the LAN')"),
    # -- the door of a correspondence table (net/correspondence/table_start.py, seat_claim.py,
    #    table_door.py, issue 51) ---------------------------------------------------------------
    N_("a correspondence code has 52 letters and digits; this one has {n}"),
    N_("a correspondence code holds only the letters a-z and the digits 2-7"),
    N_("there is no table in this folder yet (table.shogun is missing)"),
    N_("table.shogun is not whole yet; it is read again later"),
    N_("table.shogun is damaged: it holds no start record"),
    N_("this code does not open the table in this folder (a wrong code, or another table's folder)"),
    N_("table.shogun was changed: it does not open with the table's code"),
    N_("table.shogun is forged: it is signed by a key the code does not name (not the host's)"),
    N_("table.shogun was changed: the host's signature does not hold"),
    N_("table.shogun sets up no table: its options are out of range"),
    N_("seating.shogun is damaged, or another table's"),
    N_("seating.shogun is forged or changed: it is not signed by the host"),
    N_("seating.shogun seats no table: its seats are not the start's"),
    N_("the host's seating has no seat with my key (my claim was not taken)"),
    N_("{name} is not whole yet"),
    N_("{name} is damaged: it holds no claim; refused"),
    N_("{name} claims a seat at another table; refused"),
    N_("{name} does not prove the table's code (written with a wrong code); refused"),
    N_("{name} is not signed by the key it carries; refused"),
    N_("{name} holds the claim of another file (copied); refused"),
    N_("{name} claims a seat with the host's own key; refused"),
    N_("{name} was not read ({why})"),
    N_("a table of {players} players cannot have {bots} bot seats"),
    N_("these options set up no table"),
    N_("{folder} holds a table already; a table needs a folder of its own"),
    N_("{name} was gone from the folder: put back from the host's copy"),
    N_("{name} was changed in the folder: put back from the host's copy"),
    N_("seating.shogun was not written by the host; the host seats the table itself"),
    N_("the seating is not sealed yet"),
    N_("the shared folder is not there (is it on a drive that is not connected, or was it moved?)"),
    N_("the shared folder could not be read or written ({why})"),
    N_("this table is open in another window or command of this program on this machine "
       "(close it first)"),
    # -- expulsion by proof at a correspondence table (net/correspondence/fork_proof.py) --------
    N_("seat {seat} signed two different records numbered {n}: it is expelled and a bot plays "
       "its seat"),
    Sentence(N_("seat {writer} wrote a proof against seat {seat} that proves nothing: {reason}"),
             fields={"writer": _SEAT}),
    N_("that seat has no key at this table"),
    N_("it does not hold two whole records"),
    N_("a record of another table or seat"),
    N_("a record seat {seat} did not sign"),
    Sentence(N_("records numbered {old} and {new}, not one number"),
             fields={"old": r"\d+", "new": r"\d+"}),
    N_("the same record twice"),
    # -- the turn timer and hand-over by agreement (net/correspondence/seat_handover.py) -----
    Sentence(N_("seat {seat}'s decision at step {n} waited past the turn timer: {m} players "
                "agreed, and a bot plays the seat")),
    Sentence(N_("seat {seat}'s move for step {n} came after the others handed its seat to a "
                "bot at step {m}: ignored")),
    Sentence(N_("seat {writer} wrote a hand-over claim that claims nothing (record {n}: {why})"),
             fields={"writer": _SEAT}),
    N_("this table has no turn timer"),
    N_("seat {seat}'s decision is not awaited"),
    N_("seat {seat}: already claimed"),
    N_("seat {seat}: the turn timer has not run out"),
    N_("a turn timer of {n} seconds (it is 0, for none, or 1 hour to 90 days)"),
    N_("a turn timer must be a number with h or d (such as 36h or 2d), not {text}"),
    # -- join by code across the internet (net/reach/rendezvous.py, issue 39) ---------------------
    N_("Friends anywhere join with: ./shogun join {code} (by code, through the rendezvous server "
       "{server})"),
    N_("The next friend joins with: ./shogun join {code}"),
    N_("Seat {seat} rejoins with: ./shogun join {code} --resume SAVE"),
    N_("a friend who typed the code dials the table directly"),
    N_("a friend who typed the code cannot reach the table: {reason}"),
    N_("a friend who typed the code cannot dial the table directly: connecting through "
       "magic-wormhole (direct if it can, else the relay)"),
    N_("friend {friend} is connected through the relay {where}"),
    N_("friend {friend} is connected directly through magic-wormhole ({where})"),
    N_("friend {friend}'s link is down; magic-wormhole redials it"),
    N_("the invitation code {code} no longer works: {why}"),
    N_("no invitation code could be made: {why}"),
    N_("friends outside this network cannot join by code: the rendezvous server {server} cannot "
       "be reached (is this computer offline?); friends on this network can still join by "
       "address"),
    N_("looking for the table by code at the rendezvous server {server}"),
    N_("someone tried the code {code} with wrong words at the rendezvous ({n} so far); the code "
       "still works, open again in {t} s"),
    N_("the invitation code {code} was interrupted: {why}; the code still works and opens again "
       "by itself"),
    N_("that code has the old form (a number and two words); this version's codes are {n} "
       "words: ask the host for the code it shows now"),
    N_("a code is {n} words joined by dashes; this one has {m}"),
    N_("'{word}' is not one of the code's words: check the spelling"),
    # a tunnel per pair of friends who came by code (net/table/pair_links.py)
    N_("seat {seat} cannot dial this table directly: a tunnel of our own through "
       "magic-wormhole, its code passed on by the host"),
    N_("seat {seat} cannot be dialled directly: dialling it through a tunnel of our own "
       "(magic-wormhole)"),
    N_("seat {seat} is not dialled: the host gave an address for it that this computer does "
       "not dial (one of its own, another network's private one, or not a table's)"),
    N_("the tunnel to seat {seat} is connected through the relay {where}"),
    N_("the tunnel to seat {seat} is connected directly ({where})"),
    N_("the tunnel to seat {seat} could not be opened: {why}"),
    Sentence(N_("directly at {address} through the host's router, round trip {rtt}"),
             fields={"address": r"\S+"}),
    Sentence(N_("directly at {address} over IPv6, round trip {rtt}"), fields={"address": r"\S+"}),
    Sentence(N_("directly at {address} on the same home network, round trip {rtt}"),
             fields={"address": r"\S+"}),
    Sentence(N_("directly at {address} on this machine, round trip {rtt}"),
             fields={"address": r"\S+"}),
    N_("through the relay {where}, round trip {rtt}"),
    N_("directly through magic-wormhole ({where}), round trip {rtt}"),
    N_("through magic-wormhole, round trip {rtt}"),
    N_("no direct path to the table ({tried}), and you asked for --direct-only. The host can "
       "forward its TCP port on the router, or both can use IPv6 or one VPN; see docs/net.md."),
    N_("no direct path to the table ({tried}), and the host allows no relay (it runs with "
       "--direct-only). The host can forward its TCP port on the router, or both can use IPv6 "
       "or one VPN; see docs/net.md."),
    # the friend's reason as the host says it (issue 47: a fixed reason, never the friend's text)
    N_("no direct path to the table, and the friend asked for --direct-only"),
    N_("no direct path to the table, and this table allows no relay (it runs with "
       "--direct-only). You can forward the table's TCP port on the router, or both can use "
       "IPv6 or one VPN; see docs/net.md."),
    N_("no direct path to the table"),
    N_("the host's offer is not readable"),
    N_("the code belongs to a program that is not a Shogun table of this version"),
    N_("the host's offer is malformed"),
    N_("the host's offer has a malformed address"),
    N_("the friend's answer is not readable"),
    N_("the friend's answer is malformed"),
    N_("the code is wrong (or someone else used it first); ask the host for the code it shows now"),
    N_("nobody was there with that code"),
    N_("the rendezvous server {server} cannot be reached"),
    N_("the rendezvous {url} is not a mailbox address; give ws://HOST:PORT/v1"),
    N_("no table answered that code within {seconds} s: is the host's table still open, and "
       "can this computer reach the rendezvous server {server}?"),
)


def _pattern(template: str, matches: Mapping[str, str]) -> re.Pattern[str]:
    """The pattern of net's sentence `template`: its text as it stands, each field a named
    group (a field named again must repeat what it matched the first time)."""
    out, seen = [], set()
    for text, name, _spec, _conv in string.Formatter().parse(template):
        out.append(re.escape(text))
        if name is None:
            continue
        if name in seen:
            out.append(f"(?P={name})")
        else:
            seen.add(name)
            out.append(f"(?P<{name}>{matches.get(name, FIELDS.get(name, ANY))})")
    return re.compile("".join(out))


def shape_of(row: Sentence | str) -> Shape:
    """The compiled shape of a table row."""
    row = row if isinstance(row, Sentence) else Sentence(row)
    english = row.english or (row.message[1] if isinstance(row.message, tuple) else row.message)
    plural = isinstance(row.message, tuple)
    pattern = english if isinstance(english, re.Pattern) else _pattern(english, row.fields)
    inner = tuple(name for name in INNER if name in pattern.groupindex)
    return Shape(pattern, row.message, row.count if plural else None, inner)


SHAPES: list[Shape] = [shape_of(row) for row in SENTENCES]

# lists net joins into one line: each part is said again on its own
_LISTS = ("; ", ", ")


def said(text: str) -> str | None:
    """`text` in the player's language, or None when it is of no known shape."""
    body = text.strip()
    for shape in SHAPES:
        m = shape.pattern.fullmatch(body)
        if not m:
            continue
        fields: dict[str, str] = {k: v for k, v in m.groupdict().items()}
        for name in shape.inner:
            fields[name] = for_players(fields[name])
        try:
            if isinstance(shape.message, tuple):
                return ngettext(shape.message[0], shape.message[1],
                                int(fields[shape.count or "n"])).format(**fields)
            return _(shape.message).format(**fields)
        except (KeyError, ValueError, IndexError):
            return None      # a broken translation: English is better than a crash
    for sep in _LISTS:
        parts = body.split(sep)
        if len(parts) > 1:
            again = [said(p) for p in parts]
            if all(a is not None for a in again):
                return sep.join(a for a in again if a is not None)       # e.g. several "… differs: …", "X takes seat 1"
    return None


def for_players(text: str) -> str:
    """A net sentence to show in the window: in the player's language when its shape is
    known, as it came otherwise (never raises)."""
    text = shown(text)       # a field of it may have come from a peer (issue 47)
    if current() == "en":
        return text
    try:
        again = said(text)
    except Exception:        # a window must not fall over a sentence from another peer
        return text
    return text if again is None else shown(again)
