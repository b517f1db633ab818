"""Handing an absent seat to a bot by agreement, over a folder: which claims hand a seat over.

Why the live table's rule, as written records: at a correspondence table "absent" is days,
not seconds, and each player's program runs at other times; so every player who finds a
seat's decision waiting past the turn timer (`net.correspondence.turn_timer`, on its own
clock) writes a claim into its own seat file, and every reader decides from the claims it
holds, with the live table's one policy (`net.table.policy.takeover_agreement.agreed`).
Whatever order the claims are read in, the same claims give the same hand-overs.

| claims held for (seat s, step n) | the reader |
|---|---|
| from more than half of the table's human players still in play, none of them s | hands s to a bot at step n: s's messages for step n and later count no more (a late move is named) |
| fewer (one player's claim alone, at a table of three or more), or only s's own | nothing changes: s's moves count as ever, so a lone claim never wedges the table |
| for a seat a bot plays already, or handed over at an earlier step | nothing more |
| a claim that is no claim (its payload not three small numbers, a seat with no key) | refused; its writer is named |

| a message of seat w in w's record number r, for step k, after s was handed over at n | counts |
|---|---|
| w is s and k >= n | no: the seat is the bot's from step n (a late move, named) |
| k > n and r comes before w's first record that knows the hand-over (`known`) | no: written before w knew, possibly on s's late move; w writes it again after |
| otherwise | yes |

Every player that learns a hand-over writes one `known` claim (kind `handover`) into its
own file, as a proof is written at an expulsion (`net.correspondence.fork_proof.counts`
carries the second table, with `taken` and the known records as `proved_at`).

Tests: tests/net/correspondence/test_seat_handover.py (the rows above),
tests/net/correspondence/test_folder_handover.py (in-process), and with `--runslow`
tests/net/correspondence/test_handover_processes.py (real processes).
docs/net.md, "Turn timer and hand-over by agreement".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import msgpack

from net.table.policy.takeover_agreement import SeatWait, agreed


@dataclass(frozen=True)
class HandClaim:
    """`writer`'s claim that seat `seat`'s decision at step `step` waited past the timer;
    `known`: the writer also knows the hand-over was agreed (its later moves count)."""
    writer: int
    seat: int
    step: int
    known: bool = False


@dataclass(frozen=True)
class HandOver:
    seat: int
    step: int                       # the bot plays the seat from this step on
    agreed: frozenset[int]          # whose claims made it
    sentence: str


def claim_payload(seat: int, step: int, known: bool) -> bytes:
    packed: bytes = msgpack.packb([seat, step, int(known)], use_bin_type=True)
    return packed


def read_claim(writer: int, payload: bytes) -> HandClaim | None:
    """The claim in a hand-over record's opened payload, or None (no claim)."""
    try:
        fields = msgpack.unpackb(payload, raw=False, max_bin_len=0, max_str_len=0,
                                 max_array_len=3, max_map_len=0, max_ext_len=0)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        return None
    if isinstance(fields, list) and len(fields) == 3 \
            and all(type(f) is int for f in fields) and 0 <= fields[0] <= 9 \
            and 0 <= fields[1] < 1 << 32 and fields[2] in (0, 1):
        return HandClaim(writer, fields[0], fields[1], bool(fields[2]))
    return None


def hand_overs(humans: Iterable[int], gone: Iterable[int],
               claims: Iterable[HandClaim]) -> dict[int, HandOver]:
    """The seats handed to a bot by `claims` (the first table above). `humans`: the
    table's human seats; `gone`: those already out otherwise (expelled by proof)."""
    in_play = set(humans) - set(gone)
    by_wait: dict[tuple[int, int], set[int]] = {}
    for c in claims:
        by_wait.setdefault((c.seat, c.step), set()).add(c.writer)
    done: dict[int, HandOver] = {}
    for seat, step in sorted(by_wait, key=lambda w: (w[1], w[0])):
        if seat in done or seat not in in_play:
            continue
        verdict = agreed(SeatWait(seat, step, frozenset(in_play), None, True, False,
                                  frozenset(by_wait[(seat, step)])))
        if verdict.take_over:
            done[seat] = HandOver(seat, step, verdict.agreed,
                                  f"seat {seat}'s decision at step {step} waited past the "
                                  f"turn timer: {len(verdict.agreed)} players agreed, and a "
                                  "bot plays the seat")
            in_play.discard(seat)
    return done


def counts_after(writer: int, step: int | None, handed: Mapping[int, int]) -> bool:
    """Whether the handed seat's own message for `step` still counts (first row of the
    second table above; the other rows are `fork_proof.counts`')."""
    return step is None or step < handed.get(writer, step + 1)
