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

from net import messages

log = logging.getLogger("net.lockstep")


class EchoError(ValueError):
    """An echo that is not well formed; the text says what is wrong with it."""


def content(msg: dict, step: int, verify: Callable[[int, dict], bool]) -> dict[int, dict]:
    """The signed commitments an echo holds, by seat, checked: each a well-formed
    commitment for this step, one per seat, signed by the seat it names."""
    out: dict[int, dict] = {}
    for item in msg["commits"]:
        try:
            item = messages.check(item) if isinstance(item, dict) else None
        except messages.BadMessage as exc:
            raise EchoError(f"echo holds a malformed commitment: {exc}") from None
        if item is None or item["type"] != "PlanCommitted" or item["step"] != step \
                or item["seat"] in out:
            raise EchoError(f"echo for step {step} holds something else than one "
                            "commitment per seat for that step")
        if not verify(item["seat"], item):
            raise EchoError(f"echo holds a commitment not signed by seat {item['seat']}")
        out[item["seat"]] = item
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
