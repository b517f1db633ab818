"""Echo before reveal: nobody opens a commitment until every player holds the same ones.

Why: commit-reveal alone lets a player send a decoy commitment to one peer only; that
peer, holding "every" commitment, opens its plan, and the cheater reads it before
committing its real plan to the others. So each player, once it holds every human
seat's commitment, sends them all (signed by their seats) in `CommitsEchoed`, and opens
its own only when every player's echo holds the very same commitments. A decoy then
shows up as a second signed commitment of one seat for one step: a proof of cheating
(`net.lockstep.signatures`), found before anything was opened.

Tests: tests/net/lockstep/test_echo.py, tests/net/lockstep/test_field_reveal.py.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Iterator, Mapping

from net.transport.message_records import CommitsEchoed
from net.transport.messages import Wire

log = logging.getLogger("net.lockstep.core")


class EchoError(ValueError):
    """An echo that is not well formed; the text says what is wrong with it."""


def compact(held: list[Wire], my_hash: str) -> list[list[Any]]:
    """The commitments I hold as the echo carries them: [seat, lock, field digests,
    signature]. The rest of each signed message (type, step, the state hash) is the
    echo's own, so a receiver rebuilds it; only commitments made from my state go in
    (another state is a desync, handled by the hashes)."""
    return [[m["seat"], m["lock"], m["fields"], m["sig"]] for m in held
            if m.get("hash") == my_hash and "sig" in m]


def lock_sum(items: list[list[Any]]) -> int:
    """The echo's `lock`: the sum of the locks it holds. A seat that unlocks and relocks
    raises it, so a later echo (after a relock) is told from a second, different one."""
    return sum(item[1] for item in items)


def rebuilt(msg: Mapping[str, object], seat: int, lock: int, fields: list[bytes],
            sig: bytes) -> Wire:
    return {"type": "PlanCommitted", "step": msg["step"], "seat": seat, "lock": lock,
            "fields": fields, "hash": msg["hash"], "sig": sig}


def _well_formed(item: object) -> bool:
    return (isinstance(item, list) and len(item) == 4 and type(item[0]) is int
            and 0 <= item[0] <= 4 and type(item[1]) is int and 0 <= item[1] <= 63
            and isinstance(item[2], list) and len(item[2]) == 11
            and all(isinstance(d, bytes) and len(d) == 32 for d in item[2])
            and isinstance(item[3], bytes) and len(item[3]) == 64)


def content(msg: CommitsEchoed, step: int,
            verify: Callable[[int, Wire], bool]) -> dict[int, Wire]:
    """The signed commitments an echo holds, by seat, checked: one per seat, each signed
    by the seat it names (so an echo cannot claim a commitment nobody made)."""
    out: dict[int, Wire] = {}
    for item in msg["commits"]:
        if not _well_formed(item):
            raise EchoError(f"echo for step {step} holds an entry that is not [seat, lock, "
                            "11 field digests of 32 bytes, 64-byte signature]")
        seat = item[0]
        if seat in out:
            raise EchoError(f"echo for step {step} holds seat {seat} twice")
        full = rebuilt(msg, *item)
        if not verify(seat, full):
            raise EchoError(f"echo holds a commitment not signed by seat {seat}")
        out[seat] = full
    if lock_sum(msg["commits"]) != msg.get("lock"):
        raise EchoError(f"echo for step {step} says lock {msg.get('lock')} but its "
                        "commitments add up to another")
    return out


def differing(mine: Wire | None, echoes: dict[int, dict[int, Wire]],
              seat: int) -> Iterator[tuple[Wire, Wire]]:
    """(my commitment of `seat`, another player's echoed one) for each echo that differs
    at the same lock (a relock is a new commitment, not a second one)."""
    if mine is None:
        return
    for echoer, held in echoes.items():
        theirs = held.get(seat)
        if theirs is not None and theirs["lock"] == mine["lock"] \
                and theirs["fields"] != mine["fields"]:
            log.warning("seat %s echoed a commitment of seat %d that differs from mine",
                        echoer, seat)
            yield mine, theirs


def agree(echoes: dict[int, dict[int, Wire]], commits: dict[int, Wire],
          echoers: list[int], humans: list[int]) -> bool:
    """Every echoer echoed, and holds exactly the commitments I hold for `humans`."""
    for c in echoers:
        held = echoes.get(c)
        if held is None:
            return False
        for s in humans:
            if s not in held or s not in commits or held[s]["lock"] != commits[s]["lock"] \
                    or held[s]["fields"] != commits[s]["fields"]:
                return False
    return True


def unlock_after_echo(echoed: Mapping[str, object], unlocked: Mapping[str, object]) -> str | None:
    """If the signed `unlocked` (PlanUnlocked) takes back a commitment its seat had
    already echoed in the signed `echoed` (CommitsEchoed) of the same step, the sentence
    saying so; else None.

    Why a proof: a seat echoes only once it holds every player's commitment, and from
    then on an honest peer refuses to unlock (`PlanSteps.unlock`; the echo is saved
    before it goes out, so a restart does not forget it). Taking a plan back after that
    is what a seat would do that had seen a bid opened and wanted another plan."""
    if echoed.get("type") != "CommitsEchoed" or unlocked.get("type") != "PlanUnlocked" \
            or echoed.get("seat") != unlocked.get("seat") \
            or echoed.get("step") != unlocked.get("step"):
        return None
    seat = echoed["seat"]
    commits = echoed.get("commits")
    own = next((item for item in (commits if isinstance(commits, list) else [])
                if _well_formed(item) and item[0] == seat), None)
    lock = unlocked.get("lock")
    if own is None or not isinstance(lock, int) or lock < own[1]:
        return None             # it took back an older lock, before it relocked and echoed
    return (f"seat {seat} took back its plan of step {echoed['step']} after it had echoed "
            f"every player's commitment")
