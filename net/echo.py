"""Echo before reveal: nobody opens a commitment until every player holds the same ones.

Why: commit-reveal alone lets a player send a decoy commitment to one peer only; that
peer, holding "every" commitment, opens its plan, and the cheater reads it before
committing its real plan to the others. So each player, once it holds every human
seat's commitment, sends them all (signed by their seats) in `CommitsEchoed`, and opens
its own only when every player's echo holds the very same commitments. A decoy then
shows up as a second signed commitment of one seat for one step: a proof of cheating
(`net.signatures`), found before anything was opened.
"""

from __future__ import annotations

import logging
from typing import Callable, Iterator

log = logging.getLogger("net.lockstep")


class EchoError(ValueError):
    """An echo that is not well formed; the text says what is wrong with it."""


def compact(held: list[dict], my_hash: str) -> list[list]:
    """The commitments I hold as the echo carries them: [seat, digest, signature]. The
    rest of each signed message (type, step, the state hash) is the echo's own, so a
    receiver rebuilds it; only commitments made from my state go in (another state is a
    desync, handled by the hashes)."""
    return [[m["seat"], m["digest"], m["sig"]] for m in held
            if m.get("hash") == my_hash and "sig" in m]


def rebuilt(msg: dict, seat: int, digest: bytes, sig: bytes) -> dict:
    return {"type": "PlanCommitted", "step": msg["step"], "seat": seat, "digest": digest,
            "hash": msg["hash"], "sig": sig}


def content(msg: dict, step: int, verify: Callable[[int, dict], bool]) -> dict[int, dict]:
    """The signed commitments an echo holds, by seat, checked: one per seat, each signed
    by the seat it names (so an echo cannot claim a commitment nobody made)."""
    out: dict[int, dict] = {}
    for item in msg["commits"]:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], int)
                and not isinstance(item[0], bool) and 0 <= item[0] <= 4
                and isinstance(item[1], bytes) and len(item[1]) == 32
                and isinstance(item[2], bytes) and len(item[2]) == 64):
            raise EchoError(f"echo for step {step} holds an entry that is not "
                            "[seat, 32-byte digest, 64-byte signature]")
        seat, digest, sig = item
        if seat in out:
            raise EchoError(f"echo for step {step} holds seat {seat} twice")
        full = rebuilt(msg, seat, digest, sig)
        if not verify(seat, full):
            raise EchoError(f"echo holds a commitment not signed by seat {seat}")
        out[seat] = full
    return out


def differing(mine: dict | None, echoes: dict[int, dict[int, dict]],
              seat: int) -> Iterator[tuple[dict, dict]]:
    """(my commitment of `seat`, another player's echoed one) for each echo that differs."""
    if mine is None:
        return
    for echoer, held in echoes.items():
        theirs = held.get(seat)
        if theirs is not None and theirs["digest"] != mine["digest"]:
            log.warning("seat %s echoed a commitment of seat %d that differs from mine",
                        echoer, seat)
            yield mine, theirs


def agree(echoes: dict[int, dict[int, dict]], commits: dict[int, bytes],
          echoers: list[int], humans: list[int]) -> bool:
    """Every echoer echoed, and holds exactly the commitments I hold for `humans`."""
    for c in echoers:
        held = echoes.get(c)
        if held is None:
            return False
        if any(s not in held or held[s]["digest"] != commits[s] for s in humans):
            return False
    return True
