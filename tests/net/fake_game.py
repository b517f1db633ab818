"""A tiny counting game with the `net.lockstep.engine.SimEngine` interface, for protocol tests.

Why: the protocol must be tested independently of the real rules (and quickly). Each
round has the same kinds of decision points as Shogun: a chance input, secret plans for
every seat, the bids opened together (`open` "bid" for the seats whose plan is a bare
commitment), one seat's tax card turned (`open` "tax") and its single decision, and
another chance input. A plan's tax card is a "province" name; bids are 0-3.

Used by tests/net/tables.py, tests/net/mesh_harness.py and the FakeNet tables of tests/net.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import msgpack

from sim.commands import (ACTIONS, Chance, ChooseMove, CommitPlan, ForfeitField,
                          IllegalCommand, OpenField, SubmitPlan, from_wire, seat_of, to_wire)

PHASES = ("round", "plan", "bids", "move", "event")
TAX = ACTIONS.index("tax")
HIDDEN = "?"


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
                 "total": 0, "plans": {}, "taxes": {}, "turned": [],
                 "bids": [0] * config.players,
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
        if phase == "bids":
            hidden = tuple(i for i in sorted(s["plans"]) if s["plans"][i] == HIDDEN)
            return Decision("open", hidden, "bid")
        mover = s["round"] % s["players"]
        if s["taxes"].get(mover) == HIDDEN:
            return Decision("open", (mover,), "tax")
        return Decision("move", (mover,), "move")

    def apply(self, s, cmd):
        d = self.pending(s)
        s = {**s, "plans": dict(s["plans"]), "taxes": dict(s["taxes"]),
             "turned": list(s["turned"]), "bids": list(s["bids"]),
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
            if not isinstance(cmd, (SubmitPlan, CommitPlan)) or cmd.seat not in d.seats:
                raise IllegalCommand("R-PLAN", "not a plan from a waiting seat")
            if isinstance(cmd, CommitPlan):
                s["plans"][cmd.seat] = s["taxes"][cmd.seat] = HIDDEN
            else:
                if cmd.bid not in (0, 1, 2, 3):
                    raise IllegalCommand("R-PLAN", "bid must be 0-3")
                s["plans"][cmd.seat] = cmd.bid
                s["taxes"][cmd.seat] = cmd.actions[TAX]
            if len(s["plans"]) == s["players"]:
                s["phase"] += 1
                self._tally(s, events)
        elif d.kind == "open":
            if not isinstance(cmd, (OpenField, ForfeitField)) or cmd.seat not in d.seats \
                    or cmd.field != d.purpose:
                raise IllegalCommand("R-EXEC-2", "not the card to turn now")
            card = cmd.card if isinstance(cmd, OpenField) else (0 if d.purpose == "bid" else None)
            if d.purpose == "bid":
                if card not in (0, 1, 2, 3):
                    raise IllegalCommand("R-PLAN", "bid must be 0-3")
                s["plans"][cmd.seat] = card
                self._tally(s, events)
            else:
                if card is not None and not isinstance(card, str):
                    raise IllegalCommand("R-PLAN", "a tax card is a province or none")
                s["taxes"][cmd.seat] = card
                s["turned"].append([cmd.seat, card])
                events.append({"event": "CardTurned", "seat": cmd.seat, "province": card})
        else:
            if not isinstance(cmd, ChooseMove) or cmd.seat != d.seats[0]:
                raise IllegalCommand("R-MOVE", "not this seat's move")
            if not 0 <= cmd.count <= 3:
                raise IllegalCommand("R-MOVE", "count 0-3")
            s["moves"][cmd.seat] += cmd.count
            events.append({"event": "Moved", "seat": cmd.seat, "count": cmd.count})
            s["phase"] += 1
        if PHASES[s["phase"] % len(PHASES)] == "bids" and d.kind != "open" \
                and HIDDEN not in s["plans"].values():
            s["phase"] += 1        # whole plans (bots, local play): no bids to open
        if s["phase"] == len(PHASES):
            s["phase"] = 0
            s["round"] += 1
        if s["round"] >= s["rounds"] and d.kind != "over":
            events.append({"event": "GameEnded", "total": s["total"]})
        return s, events

    @staticmethod
    def _tally(s, events):
        """Every bid known: add them up and go on to the move."""
        if HIDDEN in s["plans"].values():
            return
        for seat, bid in sorted(s["plans"].items()):
            s["bids"][seat] += bid
            events.append({"event": "PlanRevealed", "seat": seat, "bid": bid})
        s["plans"] = {}
        if PHASES[s["phase"]] == "bids":
            s["phase"] += 1

    def state_hash(self, s):
        return hashlib.sha256(self.encode_state(s)).hexdigest()

    def encode_state(self, s):
        return msgpack.packb({**s, "plans": sorted(s["plans"].items()),
                              "taxes": sorted(s["taxes"].items())}, use_bin_type=True)

    def decode_state(self, b):
        s = msgpack.unpackb(b, raw=False, strict_map_key=False)
        s["plans"] = dict(tuple(p) for p in s["plans"])
        s["taxes"] = dict(tuple(p) for p in s["taxes"])
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
            actions = [None] * len(ACTIONS)
            actions[TAX] = f"Province{seed[1] % 9}" if seed[1] % 3 else None
            return SubmitPlan(seat, tuple(actions), seed[0] % 4)
        return ChooseMove(seat, None, seed[0] % 4)

    def chance(self, seed):
        return Chance(seed)

    def settle(self, decision):
        raise AssertionError("the fake game has no tower: nothing is ever dropped")

    def commit_plan(self, seat):
        return CommitPlan(seat)

    def open_field(self, seat, field, card):
        return OpenField(seat, field, card)

    def forfeit_field(self, seat, field):
        return ForfeitField(seat, field)

    def plan_cards(self, plan):
        return {**plan.action_map(), "bid": plan.bid}

    to_wire = staticmethod(to_wire)
    from_wire = staticmethod(from_wire)
    seat_of = staticmethod(seat_of)
