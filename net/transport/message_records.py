"""Message records: one TypedDict per message kind, read by the parts that take it.

Why beside `net.transport.messages`: `messages.check` decides that a map from the wire has
exactly the fields of its kind, each well formed; these records say the same thing to the
type checker, so a part reads `msg["step"]` as an int rather than as Any. The two are kept
in agreement by tests/net/transport/test_message_records.py (same kinds, same fields).

A checked message is cast to its record once, where it is handed to the part that takes
its kind (`handles`, or `checked` where a part branches on the kind); the maps stored,
signed and relayed stay `Wire`.

Tests: tests/net/transport/test_message_records.py.
"""

from __future__ import annotations

from typing import Any, Callable, Literal, Mapping, TypedDict, TypeVar, cast

from net.transport import messages
from net.transport.messages import PlanCard

from net.transport.messages import Wire as Wire   # re-exported: the parts import it from here


class RecalledLine(TypedDict):
    """One line of the recent chat a late spectator is sent (`ChatRecalled`)."""
    sender: str
    seat: int | None
    text: str


class Welcomed(TypedDict):
    type: Literal["Welcomed"]
    versions: dict[str, str]
    peer: bytes
    pake: bytes


class KeyOffered(TypedDict):
    type: Literal["KeyOffered"]
    pake: bytes


class Probed(TypedDict):
    type: Literal["Probed"]


class Greeted(TypedDict):
    type: Literal["Greeted"]
    versions: dict[str, str]


class Hello(TypedDict):
    type: Literal["Hello"]
    versions: dict[str, str]
    peer: bytes
    role: str
    name: str
    listen_port: int
    seat: int | None
    token: bytes | None
    table: bytes | None
    seat_key: bytes | None
    seat_proof: bytes | None


class Accepted(TypedDict):
    type: Literal["Accepted"]
    peer: bytes


class Refused(TypedDict):
    type: Literal["Refused"]
    reason: str
    retry: float | None


class Offended(TypedDict):
    type: Literal["Offended"]
    reason: str


class LobbyChanged(TypedDict):
    type: Literal["LobbyChanged"]
    lobby: Wire


class SeatRequested(TypedDict):
    type: Literal["SeatRequested"]
    seat: int


class GameStarted(TypedDict):
    type: Literal["GameStarted"]
    table: bytes
    config: Wire
    seats: list[Any]
    peers: list[Any]
    bot: str
    bot_levels: list[Any]
    turn_time: float
    rejoin_timeout: float


class PairTunnelOpened(TypedDict):
    type: Literal["PairTunnelOpened"]
    serving: int
    dialling: int
    code: str | None


class ChainCommitted(TypedDict):
    type: Literal["ChainCommitted"]
    seat: int
    chain_end: bytes
    token_hash: bytes
    start: bytes
    sig: bytes


class LinkRevealed(TypedDict):
    type: Literal["LinkRevealed"]
    step: int
    seat: int
    link: bytes
    hash: str
    sig: bytes


class CommandSent(TypedDict):
    type: Literal["CommandSent"]
    step: int
    seat: int
    command: Wire
    hash: str
    sig: bytes


class TowerVoted(TypedDict):
    type: Literal["TowerVoted"]
    step: int
    seat: int
    outcome: Wire
    build: str
    hash: str
    sig: bytes


class TakeoverClaimed(TypedDict):
    type: Literal["TakeoverClaimed"]
    step: int
    seat: int
    absent: int
    hash: str
    sig: bytes


class InputsMissed(TypedDict):
    type: Literal["InputsMissed"]
    step: int
    seats: list[int]


class Heartbeat(TypedDict):
    type: Literal["Heartbeat"]


class Pinged(TypedDict):
    type: Literal["Pinged"]
    ping: int


class PingAnswered(TypedDict):
    type: Literal["PingAnswered"]
    ping: int


class GameFinished(TypedDict):
    type: Literal["GameFinished"]
    step: int
    seat: int
    hash: str
    sig: bytes


class CheatingProved(TypedDict):
    type: Literal["CheatingProved"]
    seat: int
    first: Wire
    second: Wire


class Relayed(TypedDict):
    type: Literal["Relayed"]
    seat: int
    message: Wire


class SeatDropped(TypedDict):
    type: Literal["SeatDropped"]
    seat: int
    reason: str


class CaughtUp(TypedDict):
    type: Literal["CaughtUp"]
    start: Wire
    log: list[Any]
    chains: Wire
    step: int


class StepApplied(TypedDict):
    type: Literal["StepApplied"]
    entry: Wire


class InputsAwaited(TypedDict):
    type: Literal["InputsAwaited"]
    step: int
    decisions: list[int]
    automatic: list[int]


class ChatSent(TypedDict):
    type: Literal["ChatSent"]
    sender: str
    seat: int | None
    text: str


class ChatRecalled(TypedDict):
    type: Literal["ChatRecalled"]
    lines: list[RecalledLine]


class PlanCommitted(TypedDict):
    type: Literal["PlanCommitted"]
    step: int
    seat: int
    lock: int
    fields: list[bytes]
    hash: str
    sig: bytes


class PlanUnlocked(TypedDict):
    type: Literal["PlanUnlocked"]
    step: int
    seat: int
    lock: int
    hash: str
    sig: bytes


class CommitsEchoed(TypedDict):
    type: Literal["CommitsEchoed"]
    step: int
    seat: int
    lock: int
    commits: list[Any]
    hash: str
    sig: bytes


class BidOpened(TypedDict):
    type: Literal["BidOpened"]
    step: int
    seat: int
    lock: int
    salt: bytes
    card: PlanCard
    link: bytes
    hash: str
    sig: bytes


class HashStated(TypedDict):
    type: Literal["HashStated"]
    step: int
    seat: int
    hash: str
    sig: bytes


class FieldOpened(TypedDict):
    type: Literal["FieldOpened"]
    step: int
    seat: int
    plan: int
    lock: int
    field: str
    salt: bytes
    card: PlanCard
    hash: str
    sig: bytes


Message = (
    Welcomed | KeyOffered | Probed | Greeted | Hello | Accepted | Refused | Offended |
    LobbyChanged | SeatRequested | GameStarted | PairTunnelOpened | ChainCommitted | LinkRevealed |
    CommandSent | TowerVoted | TakeoverClaimed | InputsMissed | Heartbeat | Pinged |
    PingAnswered | GameFinished
    | CheatingProved | Relayed | SeatDropped | CaughtUp | StepApplied | InputsAwaited |
    ChatSent | ChatRecalled | PlanCommitted | PlanUnlocked | CommitsEchoed | BidOpened |
    HashStated | FieldOpened)

R = TypeVar("R")
M = TypeVar("M")
C = TypeVar("C")


def kind_of(record: type[object]) -> str:
    """The message kind a record describes: its class name, as the schemas spell it."""
    return record.__name__


def handles(record: type[M], handle: Callable[[C, M], R]) -> tuple[str, Callable[[C, Wire], R]]:
    """A table entry: the kind of `record` and its handler, taking the checked map.

    The one cast for a handler: `messages.check` has shown that a map of this kind has
    exactly the record's fields, so the handler may read it as the record.
    """
    return kind_of(record), cast(Callable[[C, Wire], R], handle)


def checked(msg: Wire) -> Message:
    """`messages.check`, its answer read as the record of its kind: the one cast for a
    message checked where it arrives (narrowed then by `msg["type"] == ...`)."""
    return cast(Message, messages.check(msg))


def as_wire(msg: Mapping[str, object]) -> Wire:
    """A record as the map it is (no copy), for the parts that keep, sign or pass on maps."""
    return cast(Wire, msg)
