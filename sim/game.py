"""The game of Shogun as a pure state machine: `new_game`, `apply`, `pending`.

The flow is a table of stages; each stage function (in `sim/rules/`) runs automatic steps
and returns the next stage, or the `Decision` the game now waits for — from a seat, from
chance, or from the tower. A command is checked by `sim.legal.check`, applied to a copy of
the state by its handler, and the game advances again. Every random draw waits for a
`Chance` command at the moment the physical game would reveal it, and every drop's result
for a `TowerSettled` (DESIGN: chance and the tower's outcome are inputs).

Tests: tests/sim/rules/ (every rule through apply), tests/sim/test_determinism.py.
"""

from __future__ import annotations

from typing import Callable

from sim import legal
from sim.chance import ChanceStream
from sim.commands import (Chance, ChooseMove, CommitPlan, Command, DraftPlace, DraftTake,
                          ForfeitField, IllegalCommand, OpenField, OrderRevolts, PickSpecial,
                          SubmitPlan, TowerSettled)
from sim.events import Events
from sim.rules import (actions, battle, bidding, draft, movement, planning, rounds, scoring,
                       setup, winter)
from sim.rules.flow import Next
from sim.snapshot import public_state
from sim.state import (Decision, DecisionKind, GameConfig, Stage, State, decode_state,
                       encode_state, state_hash)

# What a saved command log was played under. A save of an older version cannot be
# replayed: its games had other rules (cards turned at once, deploy 5 under event 12 with
# `6 armies`) and no `TowerSettled` inputs.
RULES_VERSION = 2

__all__ = ["RULES_VERSION", "GameConfig", "Decision", "State", "new_game", "apply", "pending",
           "state_hash", "encode_state", "decode_state", "public_state", "IllegalCommand"]


def _stage_over(s: State, events: Events) -> Next:
    return Decision(DecisionKind.OVER, (), "", {"winners": list(s.winners)})


STAGES: dict[Stage, Callable[[State, Events], Next]] = {
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


def new_game(config: GameConfig) -> tuple[State, Events]:
    """A fresh game, advanced to its first decision."""
    events: Events = []
    s = setup.initial_state(config, events)
    advance(s, events)
    return s, events


def pending(state: State) -> Decision:
    return state.decision


def apply(state: State, command: Command) -> tuple[State, Events]:
    """Apply one command to a copy of `state`. Raises IllegalCommand; `state` is untouched."""
    legal.check(state, command)
    s = state.copy()
    events: Events = []
    play(s, command, events)
    return s, events


def play(s: State, command: Command, events: Events) -> None:
    """Apply `command` to `s` itself, unchecked, and run the stages to the next decision.

    Why apart from `apply`: the look-ahead (`sim.fast`) applies commands built from the
    rules to states it owns, without the check and the copy; both run this one body, so
    the rules they play cannot drift apart. Each command goes to the rule module that
    waited for it (the commonest first)."""
    match command:
        case Chance():
            s.chance_count += 1
            CHANCE[s.decision.purpose](s, ChanceStream(command.seed), command.seed, events)
        case ChooseMove():
            movement.on_choose(s, command, events)
        case TowerSettled():
            battle.on_settled(s, command, events)
        case SubmitPlan():
            planning.on_submit(s, command, events)
        case CommitPlan():
            planning.on_commit(s, command, events)
        case OpenField():
            planning.on_open(s, command, events)
        case ForfeitField():
            planning.on_forfeit(s, command, events)
        case PickSpecial():
            bidding.on_pick(s, command, events)
        case DraftTake():
            draft.on_take(s, command, events)
        case DraftPlace():
            draft.on_place(s, command, events)
        case OrderRevolts():
            winter.on_order(s, command, events)
    advance(s, events)


def advance(s: State, events: Events) -> None:
    """Run stages until the game needs a decision."""
    while True:
        nxt = STAGES[s.stage](s, events)
        if isinstance(nxt, Decision):
            s.decision = nxt
            return
        s.stage = nxt
