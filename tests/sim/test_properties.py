"""Property tests over random legal play (issue 2): invariants after every single command."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from sim.commands import ACTIONS, IllegalCommand, SubmitPlan
from sim.game import GameConfig, apply, pending, state_hash
from sim.legal import plan_problems
from sim.invariants import violations
from sim.local import LocalGame

configs = st.sampled_from([GameConfig(3, "sun", "beginner"), GameConfig(4, "sun", "beginner"),
                           GameConfig(5, "sun", "beginner"), GameConfig(3, "moon", "draft"),
                           GameConfig(4, "sun", "draft"), GameConfig(5, "moon", "draft")])
bot_mixes = st.lists(st.sampled_from(["random", "heuristic"]), min_size=5, max_size=5)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, seed=st.integers(0, 10**9), mix=bot_mixes)
def test_R_COMP_6_random_legal_play_keeps_every_invariant(config, seed, mix):
    """R-COMP-6 conservation, R-COMP-3 money never negative, R-COMP-4 buildings within slots,
    one owner per province — after every command of a whole game, which must end (R-END-1)."""
    game = LocalGame(config, seed, dict(enumerate(mix[: config.players])))
    assert violations(game.state) == []
    steps = 0
    while not game.over:
        before = game.state
        before_hash = state_hash(before)
        game.step()
        steps += 1
        assert state_hash(before) == before_hash, "apply must not touch its input state"
        problems = violations(game.state)
        assert problems == [], f"after command {steps} ({game.commands[-1]!r:.80}): {problems}"
        assert steps < 5000, "a game must end"
    assert pending(game.state).kind == "over"
    assert game.state.winners


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_R_PLAN_1_to_4_plan_problems_agree_with_apply(data):
    """R-PLAN-1…4: any plan either passes `plan_problems` and is accepted, or is rejected by
    `apply` with the first problem's rule, leaving the state as it was."""
    game = LocalGame(GameConfig(4, "sun", "beginner"), data.draw(st.integers(0, 50)), {})
    while pending(game.state).kind != "plan":
        game.submit(game.automatic_command() or _no_human())
    state = game.state
    seat = data.draw(st.integers(0, 3))
    names = state.cards_of(seat) + ["Kai", "Mutsu", "Nowhere"]
    choices = st.one_of(st.none(), st.sampled_from(names))
    actions = tuple(data.draw(choices) for _ in ACTIONS)
    bid = data.draw(st.one_of(st.none(), st.integers(0, 4), st.sampled_from(names)))
    plan = SubmitPlan(seat, actions, bid)
    problems = plan_problems(state, plan)
    before = state_hash(state)
    if problems:
        try:
            apply(state, plan)
        except IllegalCommand as exc:
            assert exc.rule == problems[0].rule and str(exc).startswith(problems[0].text[:1].upper())
        else:
            raise AssertionError(f"plan with problems {problems} was accepted")
    else:
        new, _ = apply(state, plan)
        assert (new.players[seat].plan.actions, new.players[seat].plan.bid) == (actions, bid)
    assert state_hash(state) == before


def _no_human():
    raise AssertionError("no human seats in this game")
