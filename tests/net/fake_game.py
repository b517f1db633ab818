"""A tiny counting game with the `net.engine.SimEngine` interface, for protocol tests.

Why: the protocol must be tested independently of the real rules (and quickly). Each
round has the same kinds of decision points as Shogun: a chance input, secret plans for
every seat, one seat's single decision, and another chance input.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import msgpack

from sim.commands import (ACTIONS, Chance, ChooseMove, IllegalCommand, SubmitPlan,
                          from_wire, seat_of, to_wire)

PHASES = ("round", "plan", "move", "event")


@dataclass(frozen=True)
class Config:
    players: int = 4
    side: str = "sun"
    setup: str = "beginner"
    rounds: int = 3


@dataclass(frozen=True)
class Decision:
    kind: str
    seats: tuple
    purpose: str = ""
    detail: dict | None = None


class FakeEngine:
    name = "fake"
    IllegalCommand = IllegalCommand

    def __init__(self, rounds: int = 3) -> None:
        self.rounds = rounds

    def config(self, players, side, setup):
        return Config(players, side, setup, self.rounds)

    def config_wire(self, c):
        return {"players": c.players, "side": c.side, "setup": c.setup, "rounds": c.rounds}

    def config_from_wire(self, w):
        if w.get("players") not in (3, 4, 5):
            raise ValueError("bad players")
        return Config(w["players"], w.get("side", "sun"), w.get("setup", "beginner"),
                      w.get("rounds", self.rounds))

    def new_game(self, config):
        state = {"players": config.players, "rounds": config.rounds, "round": 0, "phase": 0,
                 "total": 0, "plans": {}, "bids": [0] * config.players,
                 "moves": [0] * config.players, "seeds": []}
        return state, [{"event": "GameStarted", "players": config.players}]

    def pending(self, s):
        if s["round"] >= s["rounds"]:
            return Decision("over", ())
        phase = PHASES[s["phase"]]
        if phase in ("round", "event"):
            return Decision("chance", (), phase)
        if phase == "plan":
            waiting = tuple(i for i in range(s["players"]) if i not in s["plans"])
            return Decision("plan", waiting, "plan")
        return Decision("move", (s["round"] % s["players"],), "move")

    def apply(self, s, cmd):
        d = self.pending(s)
        s = {**s, "plans": dict(s["plans"]), "bids": list(s["bids"]),
             "moves": list(s["moves"]), "seeds": list(s["seeds"])}
        events = []
        if d.kind == "over":
            raise IllegalCommand("R-END", "the game is over")
        if d.kind == "chance":
            if not isinstance(cmd, Chance):
                raise IllegalCommand("R-X", "chance expected")
            s["total"] += cmd.seed[0]
            s["seeds"].append(cmd.seed.hex())
            events.append({"event": "Drawn", "value": cmd.seed[0]})
            s["phase"] += 1
        elif d.kind == "plan":
            if not isinstance(cmd, SubmitPlan) or cmd.seat not in d.seats:
                raise IllegalCommand("R-PLAN", "not a plan from a waiting seat")
            if cmd.bid not in (0, 1, 2, 3):
                raise IllegalCommand("R-PLAN", "bid must be 0-3")
            s["plans"][cmd.seat] = cmd.bid
            if len(s["plans"]) == s["players"]:
                for seat, bid in s["plans"].items():
                    s["bids"][seat] += bid
                    events.append({"event": "PlanRevealed", "seat": seat, "bid": bid})
                s["plans"] = {}
                s["phase"] += 1
        else:
            if not isinstance(cmd, ChooseMove) or cmd.seat != d.seats[0]:
                raise IllegalCommand("R-MOVE", "not this seat's move")
            if not 0 <= cmd.count <= 3:
                raise IllegalCommand("R-MOVE", "count 0-3")
            s["moves"][cmd.seat] += cmd.count
            events.append({"event": "Moved", "seat": cmd.seat, "count": cmd.count})
            s["phase"] += 1
        if s["phase"] == len(PHASES):
            s["phase"] = 0
            s["round"] += 1
        if s["round"] >= s["rounds"] and d.kind != "over":
            events.append({"event": "GameEnded", "total": s["total"]})
        return s, events

    def state_hash(self, s):
        return hashlib.sha256(self.encode_state(s)).hexdigest()

    def encode_state(self, s):
        return msgpack.packb({**s, "plans": sorted(s["plans"].items())}, use_bin_type=True)

    def decode_state(self, b):
        s = msgpack.unpackb(b, raw=False, strict_map_key=False)
        s["plans"] = dict(tuple(p) for p in s["plans"])
        return s

    def public_state(self, s):
        return {"players": {str(i): {"score": s["bids"][i] + s["moves"][i], "money": 0}
                            for i in range(s["players"])}}

    def standings(self, s):
        return sorted(((i, s["bids"][i] + s["moves"][i], 0) for i in range(s["players"])),
                      key=lambda r: (-r[1], r[0]))

    def choose(self, s, seat, bot, seed):
        d = self.pending(s)
        if d.kind == "plan":
            return SubmitPlan(seat, (None,) * len(ACTIONS), seed[0] % 4)
        return ChooseMove(seat, None, seed[0] % 4)

    def chance(self, seed):
        return Chance(seed)

    to_wire = staticmethod(to_wire)
    from_wire = staticmethod(from_wire)
    seat_of = staticmethod(seat_of)
