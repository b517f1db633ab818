"""How a table is opened from one peer: hosted (its first lobby and join code), joined,
watched, or resumed from my save after a crash.

Why apart from `net.table.session`: the session is built the same way for every role
(its parts and the message table); what differs is the first thing each role does,
and that is the whole of this module. `TableSession.host/join/watch/resume` call it.

Tests: tests/net/table/test_session.py, tests/net/table/test_resume.py,
tests/net/trust/test_guess_budget.py (the join code).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from net.transport.messages import Wire

from net.lockstep.beacon import HashChain
from net.reach.addresses import parse_address   # IPv4, [IPv6]:port, names
from net.table.input_deadline import turn_time_problem
from net.table.takeover import HOST_SEAT
from net.trust.seat_keys import SeatKey

if TYPE_CHECKING:
    from net.table.session import TableSession

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_join_code() -> str:
    """8 letters of 32, shown as two groups of four ("K7Q2-M9XD"): 40 bits, so that a
    guesser held to `net.trust.guess_limit.EXCHANGE_RATE` guesses a second has no
    real chance in an evening, and the table needs no lock-out that would keep friends
    out too (issue 34). The dash and the case are ignored when a code is typed
    (`net.trust.pake.normalized_code`)."""
    letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return f"{letters[:4]}-{letters[4:]}"


def hosted(s: TableSession, port: int, players: int, side: str, setup: str,
           bots: int) -> None:
    """The host's first lobby: my seat first, the last `bots` seats bots, listening."""
    opts = s.opts
    s.code = opts.code or new_join_code()
    if not 0 <= bots < players:
        raise ValueError("bots must leave at least one human seat")
    assert s.seat_key is not None
    seats: list[dict[str, Any]] = [{"seat": i, "kind": "bot" if i >= players - bots else "open",
              "name": f"bot {i}" if i >= players - bots else "", "peer": None, "key": None}
             for i in range(players)]
    seats[0].update(kind="human", name=s.name, peer=s.peer_id, key=s.seat_key.public)
    for seat in seats:
        if seat["kind"] == "bot":
            seat["level"] = opts.bot
    problem = turn_time_problem(opts.turn_time)
    if problem is not None:
        raise ValueError(problem)
    s.lobby = {"players": players, "side": side, "setup": setup, "code": s.code,
               "started": False, "seats": seats, "tower_vote": False,
               "platform_seats": [], "turn_time": opts.turn_time}
    s.my_seat = 0
    s.dialer.listen(port)


def joined(s: TableSession, address: str, code: str | None) -> None:
    """A player's dial to the host (it listens too: the other players dial it)."""
    s.code = code if code is not None else s.opts.code
    s.dialer.listen(0)
    host, port = parse_address(address)
    s.handshake.host_address = (host, port)
    s.dialer.dial(host, port, {"role": "player"})


def watched(s: TableSession, address: str, code: str | None) -> None:
    """A spectator's dial to the host."""
    s.code = code if code is not None else s.opts.code
    host, port = parse_address(address)
    s.spectate.watch(host, port)
    s.liveness.start_heartbeat()   # no frames to send: it runs the input clocks it shows


def resumed(s: TableSession, save_path: str, save: Wire,
            host_at: tuple[str, int] | None = None) -> None:
    """My seat again after a crash, from my local save: who I was, my chain, my plans;
    the host dialled at `host_at` when given (a new tunnel's end), not where the save says."""
    s.save_path = save_path
    s.peer_id = save["peer"]
    s.name = save["name"]
    s.code = save["code"]
    s.my_seat = save["seat"]
    s.chain = HashChain(save["secret"])
    s.start.token = save["token"]
    s.signer.saved_table = save["start"]["table"]
    s.handshake.saved_start = save["start"]     # the start my chain commitment signs
    if save.get("seat_key") is not None:
        s.seat_key = SeatKey(save["seat_key"])
    s.recovery.saved_plans = {step: (nonce, wire) for step, nonce, wire in save["plans"]}
    s.recovery.saved_outbox = {step: msgs for step, msgs in save.get("outbox", [])}
    s.addresses = {seat: (host, port) for seat, host, port in save["addresses"]}
    if host_at is not None:
        s.addresses[HOST_SEAT] = host_at
    try:
        s.dialer.listen(save.get("listen_port", 0))
    except Exception:
        s.dialer.listen(0)
    s.recovery.rejoin(save["start"]["table"])
    s.liveness.start_heartbeat()   # silent while it waits to catch up, it would be dropped
