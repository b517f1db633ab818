"""A friend's claim of a seat at a correspondence table, and the host's seating of claims.

Why a claim file of its own: a joiner has no seat number before the host seats it, and
a file in a synced folder must have one writer. So a joiner writes `join-<h>.shogun`,
`h` from the table id and its own public key (a name nobody else's key gives, and not
linkable between tables), holding one door record (`net.correspondence.table_start`):
its public key, its name and a proof of the code, `BLAKE2b(key=join key, table id ‖
public key ‖ name)`, sealed with the table's folder key and signed by its own key. Only
a holder of the code can make one; the code has 192 random bits, so whoever holds the
folder cannot find it by trying.

| `join-<h>.shogun` | `judge_claim` |
|---|---|
| cut short at its end | not whole yet (read again later) |
| no door record, or not a claim | damaged: named |
| another table id | another table's claim: named |
| does not open with the code's key, or its proof fails | does not prove the code (a wrong code): named |
| not signed by the key it carries | forged: named |
| named for another key | copied: named |
| carries the host's key | refused: named |
| all hold | the claim |

`seat_claims` (pure) gives the seating once there are claims for every human seat but the
host's: the host is seat 0, claims take the next seats first come first (the host reads
them in the order of their files' times, then names), bots the last seats.

Tests: tests/net/correspondence/test_seat_claim.py; real processes in
tests/net/correspondence/test_door_processes.py.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from enum import StrEnum

from net.correspondence.table_start import (DoorState, SeatEntry, Seating, TableCode,
                                            TableStart, clean_name, make_door, open_door,
                                            parse_door, signed_by)
from net.trust.peer_text import shown
from net.trust.seat_keys import PUBLIC_BYTES, SeatKey

CLAIM_NAME = re.compile(r"join-([0-9a-f]{16})\.shogun")
MAX_CLAIMS = 64                 # claim files a host reads in one session


def claim_file_name(table: bytes, public: bytes) -> str:
    return f"join-{hashlib.blake2b(table + public, digest_size=8).hexdigest()}.shogun"


def _proof(code: TableCode, public: bytes, name: str) -> bytes:
    return hashlib.blake2b(code.table + public + name.encode(), key=code.join_key).digest()


@dataclass(frozen=True)
class Claim:
    file: str
    public: bytes
    name: str


def make_claim(key: SeatKey, code: TableCode, name: str) -> bytes:
    name = clean_name(name)
    return make_door(key, "claim", code.table, code.sealing,
                     [key.public, name, _proof(code, key.public, name)])


class ClaimKind(StrEnum):
    CLAIM = "claim"
    NOT_WHOLE = "not whole"
    DAMAGED = "damaged"
    OTHER_TABLE = "other table"
    NO_CODE = "no code"
    FORGED = "forged"
    COPIED = "copied"
    HOST = "host"


@dataclass(frozen=True)
class ClaimVerdict:
    kind: ClaimKind
    sentence: str = ""
    claim: Claim | None = None

    @property
    def names_someone(self) -> bool:
        return self.kind not in (ClaimKind.CLAIM, ClaimKind.NOT_WHOLE)


def judge_claim(code: TableCode, start: TableStart, file: str, data: bytes) -> ClaimVerdict:
    """What the claim file `file` holding `data` is to the host of `start`."""
    name = shown(file)
    state, record, _ = parse_door(data)
    if state is DoorState.TORN:
        return ClaimVerdict(ClaimKind.NOT_WHOLE, f"{name} is not whole yet")
    if record is None or record.kind != "claim":
        return ClaimVerdict(ClaimKind.DAMAGED, f"{name} is damaged: it holds no claim; "
                            "refused")
    if record.table != code.table:
        return ClaimVerdict(ClaimKind.OTHER_TABLE, f"{name} claims a seat at another table; "
                            "refused")
    payload = open_door(code, record)
    public, said, proof = payload if payload is not None and len(payload) == 3 else (b"", "", b"")
    if not isinstance(public, bytes) or len(public) != PUBLIC_BYTES \
            or not isinstance(said, str) or not isinstance(proof, bytes) \
            or not hmac.compare_digest(_proof(code, public, said), proof):
        return ClaimVerdict(ClaimKind.NO_CODE, f"{name} does not prove the table's code "
                            "(written with a wrong code); refused")
    who = clean_name(said)
    if not signed_by(record, public):
        return ClaimVerdict(ClaimKind.FORGED, f"{name} is not signed by the key it carries; "
                            "refused")
    if claim_file_name(code.table, public) != file:
        return ClaimVerdict(ClaimKind.COPIED, f"{name} holds the claim of another file "
                            "(copied); refused")
    if public == start.host_public:
        return ClaimVerdict(ClaimKind.HOST, f"{name} claims a seat with the host's own key; "
                            "refused")
    return ClaimVerdict(ClaimKind.CLAIM, claim=Claim(file, public, who))


def seat_claims(start: TableStart, claims: list[Claim]) -> Seating | None:
    """The seating once `claims` (accepted, first come first) fill every human seat but
    the host's; None before. Extra claims are left out (the caller says so)."""
    chosen: list[Claim] = []
    for claim in claims:
        if claim.public not in (c.public for c in chosen):
            chosen.append(claim)
    if len(chosen) < start.humans - 1:
        return None
    seats = [SeatEntry(0, "human", start.host_public, start.host_name)]
    seats += [SeatEntry(i + 1, "human", c.public, c.name)
              for i, c in enumerate(chosen[:start.humans - 1])]
    seats += [SeatEntry(s, "bot", b"", "") for s in range(start.humans, start.players)]
    return Seating(tuple(seats))
