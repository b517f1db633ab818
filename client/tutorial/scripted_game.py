"""The tutorial's game: a local session on the script's fixed seed, and the choices the
script makes for the player (what "Show me" lays out, what the tests answer).

Why a plain `LocalSession`: the tutorial plays the real rules against real bots; only
the seed, the seats and the pace are fixed. It is not autosaved, so the tutorial never
takes the place of the player's own game under Continue.

Tests: tests/client/tutorial/test_script.py.
"""

from __future__ import annotations

from client.sessions.local import LocalSession
from client.tutorial import script
from sim.commands import Command, SubmitPlan
from sim.state import DecisionKind, State
from sim import bots


def new_session() -> LocalSession:
    """The tutorial's game, ready to play: Blue against three easy bots."""
    return LocalSession(script.PLAYERS, script.SIDE, script.SETUP, (script.ME,), script.BOT,
                        script.SEED)


def first_plan() -> SubmitPlan:
    """The plan "Show me" lays out in the first spring."""
    return SubmitPlan(script.ME, script.first_plan_fields(), script.FIRST_BID)


def is_first_round(state: State) -> bool:
    return state.year == 1 and state.season == 0


def scripted_choice(state: State, seat: int = script.ME) -> Command:
    """The script's answer for the player: the tutorial's plan in the first spring, else
    what the planning panel's Suggest (the heuristic bot, the same seed) would do."""
    if state.decision.kind == DecisionKind.PLAN and is_first_round(state):
        return first_plan()
    return bots.choose(state, seat, "heuristic", script.SUGGEST_SEED)
