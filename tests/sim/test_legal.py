"""`sim.legal`: every choice it offers applies, and commands outside it are refused with
IllegalCommand naming the rule (R-EXEC-9/10, R-BID-3, R-SETUP-5, R-WINTER-3, R-PLAN-1...4)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sim import legal
from sim.commands import (ChooseMove, DraftPlace, DraftTake, IllegalCommand, OrderRevolts,
                          PickSpecial, SubmitPlan)
from sim.game import GameConfig, apply, pending
from sim.local import LocalGame


def _refused(state, command, rule: str) -> None:
    with pytest.raises(IllegalCommand) as info:
        apply(state, command)
    assert info.value.rule == rule, (command, info.value.rule, str(info.value))
    assert "R-" not in str(info.value)


def _check_choices(state) -> int:
    """Apply every offered choice of the pending decision; try a few outside it."""
    d = pending(state)
    seat = d.seats[0]
    choice = legal.choices(state, seat)
    tried = 0
    if isinstance(choice, legal.MoveChoice):
        rule = "R-EXEC-9" if choice.action == "deploy1" else "R-EXEC-10"
        for target, most in choice.targets:
            for count in range(1, most + 1):
                apply(state, ChooseMove(seat, target, count))
                tried += 1
            _refused(state, ChooseMove(seat, target, most + 1), rule)
            _refused(state, ChooseMove(seat, target, 0), rule)
        if choice.optional:
            apply(state, ChooseMove(seat, None, 0))
        else:
            _refused(state, ChooseMove(seat, None, 0), rule)
        offered = {t for t, _ in choice.targets}
        outside = [n for n in sorted(state.provinces) if n not in offered][:3]
        for name in outside:
            _refused(state, ChooseMove(seat, name, 1), rule)
    elif isinstance(choice, legal.SpecialChoice):
        for position in choice.positions:
            apply(state, PickSpecial(seat, position))
            tried += 1
        for position in sorted(set(range(0, 7)) - set(choice.positions)):
            _refused(state, PickSpecial(seat, position), "R-BID-3")
    elif isinstance(choice, legal.DraftTakeChoice):
        for option in ("up0", "up1", "deck", "refresh"):
            if option in choice.options:
                apply(state, DraftTake(seat, option))
                tried += 1
            else:
                _refused(state, DraftTake(seat, option), "R-SETUP-5")
    elif isinstance(choice, legal.DraftPlaceChoice):
        for size in range(0, 8):
            if size in choice.groups:
                apply(state, DraftPlace(seat, size))
                tried += 1
            else:
                _refused(state, DraftPlace(seat, size), "R-SETUP-5")
    elif isinstance(choice, legal.RevoltOrderChoice):
        for order in itertools.permutations(choice.provinces):
            apply(state, OrderRevolts(seat, order))
            tried += 1
        _refused(state, OrderRevolts(seat, choice.provinces[:-1]), "R-WINTER-3")
        _refused(state, OrderRevolts(seat, choice.provinces + choice.provinces[:1]), "R-WINTER-3")
    elif isinstance(choice, legal.PlanChoice):
        assert choice.bids == tuple(b for b in range(5) if b <= state.players[seat].money)
        if 4 not in choice.bids:
            spare = SubmitPlan(seat, tuple(choice.cards[:6]) + (None,) * (10 - len(choice.cards[:6])), 4)
            _refused(state, spare, "R-PLAN-4")
    return tried


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from([GameConfig(4, "sun", "beginner"), GameConfig(3, "moon", "draft"),
                               GameConfig(5, "sun", "draft")]),
       seed=st.integers(0, 10**6), bot=st.sampled_from(["random", "heuristic"]))
def test_every_offered_choice_applies_and_nothing_else_does(config, seed, bot):
    game = LocalGame(config, seed, dict.fromkeys(range(config.players), bot))
    tried = 0
    seen = set()
    while not game.over:
        d = pending(game.state)
        if d.kind not in ("chance", "tower", "over") and (d.kind not in seen or d.kind == "move"):
            seen.add(d.kind)
            tried += _check_choices(game.state)
        game.step()
    assert tried > 0
