"""Message shapes: every map from the wire is checked here before anything reads it.

Why a table of field checks: one place decides what a well-formed message is, and the
error names the message type and the field. Commands inside messages are parsed later
by `sim.commands.from_wire`, the sim's own gate for untrusted input.

Tests: tests/net/transport/test_fuzz.py, tests/net/trust/test_hostile.py.
"""

from __future__ import annotations

from typing import Any, Callable

PROTOCOL = 9          # 2: SPAKE2 join, sealed frames, seat keys, signatures, echo; 3: plan fields;
                      # 4: bot plans face down (committed, opened card by card);
                      # 5: a spectator is told which inputs the table awaits;
                      # 6 (issue 34, 37): take-overs by signed claims of a majority
                      #    (TakeoverClaimed), a peer that is behind asks for the inputs it
                      #    missed (InputsMissed); the dialer's key offer comes first, a
                      #    refusal may say when to try again, spectators send heartbeats,
                      #    probes are greeted, a spectator admitted late is sent the
                      #    recent chat (ChatRecalled);
                      # 7 (issue 34): a chain commitment carries the digest of the start
                      #    its player was given (`start`), so a host that gives one
                      #    player other clocks or settings is found out;
                      # 8 (issue 39): two friends by code get a wormhole of their own, its
                      #    code passed on by the host (PairTunnelOpened)
                      # 9 (issue 39): a connection's round trip, end to end through any
                      #    tunnel: Pinged and PingAnswered (net/transport/round_trip.py)
MAX_STEP = 1_000_000
MAX_PING = 2 ** 31 - 1     # a ping's number (net/transport/round_trip.py)


# A message map from the wire, read as its record (`net.transport.message_records`) once
# `check` has passed it. Its values are still `Any`: the lockstep reads fields of maps it
# keeps (commitments, votes, logs) without naming their record; see docs/architecture.md.
Wire = dict[str, Any]
Rule = Callable[[object], "str | None"]   # a field's check: None, or what is wrong with it


class BadMessage(ValueError):
    """A message that is not well formed; the text says which field and why."""


def _int(lo: int, hi: int) -> Rule:
    def check(v: object) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return f"is a {type(v).__name__}, not an int"
        if not lo <= v <= hi:
            return f"{v} is out of range {lo}-{hi}"
        return None
    return check


def _bytes(n: int) -> Rule:
    def check(v: object) -> str | None:
        if not isinstance(v, bytes):
            return f"is a {type(v).__name__}, not bytes"
        if len(v) != n:
            return f"has {len(v)} bytes, not {n}"
        return None
    return check


def _str(maxlen: int, choices: tuple[str, ...] | None = None) -> Rule:
    def check(v: object) -> str | None:
        if not isinstance(v, str):
            return f"is a {type(v).__name__}, not a string"
        if len(v) > maxlen:
            return f"is longer than {maxlen}"
        if choices is not None and v not in choices:
            return f"{v!r:.40} is not one of {choices}"
        return None
    return check


def _map(v: object) -> str | None:
    return None if isinstance(v, dict) else f"is a {type(v).__name__}, not a map"


def _list(maxlen: int) -> Rule:
    def check(v: object) -> str | None:
        if not isinstance(v, list):
            return f"is a {type(v).__name__}, not a list"
        if len(v) > maxlen:
            return f"has more than {maxlen} items"
        return None
    return check


def _seconds(lo: float, hi: float) -> Rule:
    def check(v: object) -> str | None:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return f"is a {type(v).__name__}, not a number"
        if not lo <= v <= hi:
            return f"{v} is out of range {lo:g}-{hi:g}"
        return None
    return check


def _opt(inner: Rule) -> Rule:
    return lambda v: None if v is None else inner(v)


def _versions(v: object) -> str | None:
    if not isinstance(v, dict) or len(v) > 20:
        return "is not a small map"
    for k, x in v.items():
        if not isinstance(x, str) or len(x) > 200:
            return f"entry {k!r:.30} is not a short string"
    return None


def _seats(v: object) -> str | None:
    """A list of distinct seat numbers."""
    if not isinstance(v, list) or len(v) > 5:
        return "is not a list of at most 5 seats"
    for x in v:
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 4:
            return f"holds {x!r:.20}, not a seat"
    return None if len(set(v)) == len(v) else "names a seat twice"


def _chat_lines(v: object) -> str | None:
    """The recent chat lines sent to a spectator as it comes (`net.table.chat`)."""
    if not isinstance(v, list) or len(v) > 50:
        return "is not a list of at most 50 chat lines"
    for said in v:
        if not isinstance(said, dict) or set(said) != {"sender", "seat", "text"}:
            return "holds an item that is not a chat line (sender, seat, text)"
        for field, rule in (("sender", _str(40)), ("seat", _opt(SEAT)), ("text", _str(300))):
            problem = rule(said[field])
            if problem:
                return f"holds a line whose {field} {problem}"
    return None


def _build(v: object) -> str | None:
    """The physics build a tower vote claims (`net.lockstep.tower_vote`)."""
    return None if v in ("deterministic", "platform") else "is not a physics build"


STEP = _int(0, MAX_STEP)
SEAT = _int(0, 4)
HASH = _str(128)
ID = _bytes(16)
B32 = _bytes(32)
SIG = _bytes(64)
PAKE = _bytes(33)

SCHEMAS: dict[str, dict[str, Rule]] = {
    # handshake
    "Welcomed": {"versions": _versions, "peer": ID, "pake": PAKE},
    "KeyOffered": {"pake": PAKE},
    # a reachability probe (net.reach.reachability) asks, and a listener says it is a
    # table, at no cost: no key exchange, no guess counted
    "Probed": {},
    "Greeted": {"versions": _versions},
    "Hello": {"versions": _versions, "peer": ID,
              "role": _str(12, ("player", "spectator", "rejoin")), "name": _str(40),
              "listen_port": _int(0, 65535), "seat": _opt(SEAT), "token": _opt(B32),
              "table": _opt(ID), "seat_key": _opt(B32), "seat_proof": _opt(SIG)},
    "Accepted": {"peer": ID},
    # retry: seconds after which trying again makes sense (a busy table); None: final
    "Refused": {"reason": _str(2000), "retry": _opt(_seconds(0, 3600))},
    "Offended": {"reason": _str(500)},
    # lobby (from the host)
    "LobbyChanged": {"lobby": _map},
    "SeatRequested": {"seat": SEAT},
    "GameStarted": {"table": ID, "config": _map, "seats": _list(5), "peers": _list(5),
                    "bot": _str(40), "bot_levels": _list(5),
                    "turn_time": _seconds(10, 86_400),      # the table's turn timer
                    "rejoin_timeout": _seconds(1, 86_400)},  # and its take-over countdown
    # two friends with no path but a wormhole of their own (net/reach/pair_tunnels.py): the
    # host asks both (code None) before GameStarted; the serving seat answers with the
    # wormhole code, which the host passes on to the dialling seat
    "PairTunnelOpened": {"serving": SEAT, "dialling": SEAT, "code": _opt(_str(100))},
    # game start: every player's beacon commitment and rejoin token hash
    "ChainCommitted": {"seat": SEAT, "chain_end": B32, "token_hash": B32, "start": B32,
                       "sig": SIG},
    # lockstep
    "LinkRevealed": {"step": STEP, "seat": SEAT, "link": B32, "hash": HASH, "sig": SIG},
    "CommandSent": {"step": STEP, "seat": SEAT, "command": _map, "hash": HASH, "sig": SIG},
    "TowerVoted": {"step": STEP, "seat": SEAT, "outcome": _map, "build": _build, "hash": HASH,
                   "sig": SIG},
    # the sender's signed word that `absent`'s countdown ran out on its clock at `step`
    # (a bot takes the seat once more than half of the players said so: takeover_agreement)
    "TakeoverClaimed": {"step": STEP, "seat": SEAT, "absent": SEAT, "hash": HASH, "sig": SIG},
    # the sender waits at `step` for these seats' inputs, which did not reach it: whoever
    # holds them relays them (signed, they prove themselves)
    "InputsMissed": {"step": STEP, "seats": _seats},
    "Heartbeat": {},
    # a connection's round trip, end to end (net/transport/round_trip.py): the asker's
    # number comes back in the answer; at most a few answered a second
    "Pinged": {"ping": _int(1, MAX_PING)},
    "PingAnswered": {"ping": _int(1, MAX_PING)},
    "GameFinished": {"step": STEP, "seat": SEAT, "hash": HASH, "sig": SIG},
    # two different signed messages from one seat for one step: every peer expels it
    "CheatingProved": {"seat": SEAT, "first": _map, "second": _map},
    "Relayed": {"seat": SEAT, "message": _map},
    "SeatDropped": {"seat": SEAT, "reason": _str(500)},
    # catch-up (to a rejoining peer or a spectator) and spectating
    "CaughtUp": {"start": _map, "log": _list(100_000), "chains": _map, "step": STEP},
    "StepApplied": {"entry": _map},
    # to a spectator: the seats the current step waits for (a decision / an automatic input)
    "InputsAwaited": {"step": STEP, "decisions": _seats, "automatic": _seats},
    # table chat (net.table.chat): never part of the game
    "ChatSent": {"sender": _str(40), "seat": _opt(SEAT), "text": _str(300)},
    "ChatRecalled": {"lines": _chat_lines},
}

# ----------------------------------------------------------------- plans, field by field
# (a block of its own: one commitment per plan field, opened when the rules turn it)

PLAN_FIELD_NAMES = ("palace", "temple", "theatre", "rice", "tax", "deploy5", "deploy3",
                    "deploy1", "battle_a", "battle_b", "bid")
LOCK = _int(0, 63)           # how many times the seat unlocked its plan this step
PlanCard = str | int | None   # a planned card as `_card` checks it


def _card(v: object) -> str | None:
    """A planned card: a province name, a money card 0-4, or None (a money card)."""
    if v is None:
        return None
    if isinstance(v, str):
        return None if len(v) <= 40 else "is longer than 40"
    return _int(0, 4)(v)


def _digests(v: object) -> str | None:
    if not isinstance(v, list) or len(v) != len(PLAN_FIELD_NAMES):
        return f"is not a list of {len(PLAN_FIELD_NAMES)} field digests"
    for d in v:
        if not isinstance(d, bytes) or len(d) != 32:
            return "holds a field digest that is not 32 bytes"
    return None


PLAN_FIELD_SCHEMAS: dict[str, dict[str, Rule]] = {
    # a locked plan: one salted digest per field (the 10 action fields, then the bid)
    "PlanCommitted": {"step": STEP, "seat": SEAT, "lock": LOCK, "fields": _digests,
                      "hash": HASH, "sig": SIG},
    # the seat takes its locked plan back (only before it held every seat's commitment)
    "PlanUnlocked": {"step": STEP, "seat": SEAT, "lock": LOCK, "hash": HASH, "sig": SIG},
    # echo before reveal: the sender holds these signed commitments for this step;
    # `lock` is the sum of their locks (a later echo after a relock has a larger one)
    "CommitsEchoed": {"step": STEP, "seat": SEAT, "lock": _int(0, 5 * 63),
                      "commits": _list(5), "hash": HASH, "sig": SIG},
    # the bids, opened together once every commitment is echoed, with the beacon link
    "BidOpened": {"step": STEP, "seat": SEAT, "lock": LOCK, "salt": B32, "card": _card, "link": B32,
                  "hash": HASH, "sig": SIG},
    # a peer that saw a desync states its own hash at that step (net.lockstep.core._state_hash)
    "HashStated": {"step": STEP, "seat": SEAT, "hash": HASH, "sig": SIG},
    # one action field, opened by its owner when the rules turn that card
    "FieldOpened": {"step": STEP, "seat": SEAT, "plan": STEP, "lock": LOCK,
                    "field": _str(10, PLAN_FIELD_NAMES[:-1]), "salt": B32, "card": _card,
                    "hash": HASH, "sig": SIG},
}


SCHEMAS.update(PLAN_FIELD_SCHEMAS)

PLAYER_GAME_MESSAGES = frozenset({"LinkRevealed", "TowerVoted",
                                  "CommandSent", "ChainCommitted",
                                  "GameFinished"}) | frozenset(PLAN_FIELD_SCHEMAS)


def check(msg: Wire) -> Wire:
    """Return `msg` if it has a known type and every field of that type is well formed."""
    kind = msg.get("type")
    schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise BadMessage(f"unknown message type {kind!r:.40}")
    for field, rule in schema.items():
        if field not in msg:
            raise BadMessage(f"{kind}: missing field '{field}'")
        problem = rule(msg[field])
        if problem:
            raise BadMessage(f"{kind}: field '{field}' {problem}")
    if len(msg) != len(schema) + 1:          # every field is there: others are extra
        extra = set(msg) - set(schema) - {"type"}
        raise BadMessage(f"{kind}: unexpected fields {sorted(map(str, extra))[:5]}")
    return msg
