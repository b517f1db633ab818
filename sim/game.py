"""The game of Shogun as a pure state machine: `new_game`, `apply`, `pending`.

The flow is a table of stages; each stage function (in `sim/rules/`) runs automatic steps
and returns the next stage, or the `Decision` the game now waits for — from a seat, from
chance, or from the tower. A command is checked by `sim.legal.check`, applied to a copy of
the state by its handler, and the game advances again. Every random draw waits for a
`Chance` command at the moment the physical game would reveal it, and every drop's result
for a `TowerSettled` (DESIGN: chance and the tower's outcome are inputs).
"""

from __future__ import annotations

from typing import Callable

from sim import legal
from sim.chance import ChanceStream
from sim.commands import (Chance, ChooseMove, CommitPlan, Command, DraftPlace, DraftTake,
                          ForfeitField, IllegalCommand, OpenField, OrderRevolts, PickSpecial,
                          SubmitPlan, TowerSettled)
from sim.rules import (actions, battle, bidding, draft, planning, rounds, scoring, setup,
                       winter)
from sim.rules.flow import Events, Next
from sim.snapshot import public_state
from sim.state import Decision, GameConfig, State, decode_state, encode_state, state_hash

# What a saved command log was played under. A save of an older version cannot be
# replayed: its games had other rules (cards turned at once, deploy 5 under event 12 with
# `6 armies`) and no `TowerSettled` inputs.
RULES_VERSION = 2

__all__ = ["RULES_VERSION", "GameConfig", "Decision", "State", "new_game", "apply", "pending",
           "state_hash", "encode_state", "decode_state", "public_state", "IllegalCommand"]


def _stage_over(s: State, events: Events) -> Next:
    return Decision("over", (), "", {"winners": list(s.winners)})


STAGES: dict[str, Callable[[State, Events], Next]] = {
    "draft": draft.stage_draft,            # R-SETUP-5
    "fill": setup.stage_fill,              # R-SETUP-6
    "year": rounds.stage_year,             # R-SETUP-7, R-ROUND-4
    "round": rounds.stage_round,           # R-ACTCARD, R-SPECIAL-1
    "plan": planning.stage_plan,           # R-PLAN
    "event": bidding.stage_event,          # R-EVENT-2
    "bids": bidding.stage_bids,            # R-BID-1/2
    "ties": bidding.stage_ties,            # R-BID-2
    "special": bidding.stage_special,      # R-BID-3
    "exec": actions.stage_exec,            # R-EXEC
    "round_end": rounds.stage_round_end,   # R-ROUND-3
    "winter": winter.stage_winter,         # R-WINTER-1...3
    "scoring": scoring.stage_scoring,      # R-WINTER-4, R-END
    "over": _stage_over,
}

# Chance inputs by the purpose of the draw they answer.
CHANCE: dict[str, Callable[[State, ChanceStream, bytes, Events], None]] = {
    "draft": draft.on_chance, "tower": battle.on_tower_chance,
    "events": rounds.on_events_chance, "round": rounds.on_round_chance,
    "event": bidding.on_event_chance, "ties": bidding.on_ties_chance,
    "action": actions.on_action_chance, "revolts": winter.on_revolts_chance,
}

HANDLERS: dict[type, Callable[[State, Command, Events], None]] = {
    SubmitPlan: planning.on_submit, CommitPlan: planning.on_commit,
    OpenField: planning.on_open, ForfeitField: planning.on_forfeit,
    TowerSettled: battle.on_settled,
    DraftTake: draft.on_take, DraftPlace: draft.on_place, PickSpecial: bidding.on_pick,
    ChooseMove: actions.movement_choice, OrderRevolts: winter.on_order,
}


def new_game(config: GameConfig) -> tuple[State, Events]:
    """A fresh game, advanced to its first decision."""
    events: Events = []
    s = setup.initial_state(config, events)
    _advance(s, events)
    return s, events


def pending(state: State) -> Decision:
    return state.decision


def apply(state: State, command: Command) -> tuple[State, Events]:
    """Apply one command to a copy of `state`. Raises IllegalCommand; `state` is untouched."""
    legal.check(state, command)
    s = state.copy()
    events: Events = []
    if isinstance(command, Chance):
        s.chance_count += 1
        CHANCE[s.decision.purpose](s, ChanceStream(command.seed), command.seed, events)
    else:
        HANDLERS[type(command)](s, command, events)
    _advance(s, events)
    return s, events


def _advance(s: State, events: Events) -> None:
    """Run stages until the game needs a decision."""
    while True:
        nxt = STAGES[s.stage](s, events)
        if isinstance(nxt, Decision):
            s.decision = nxt
            return
        s.stage = nxt
