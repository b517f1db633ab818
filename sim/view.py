"""What one seat may know of the game (R-PLAN-5, R-EXEC-2).

The full state holds every plan a local engine was given; at the table, each planned card
lies face down until it is turned. `view(state, seat)` is the state as that seat sees it:
its own plan whole, every other seat's unturned cards hidden (`Plan.known` false, value
None); `seat=None` is a spectator, who sees only turned cards. Bots decide from a view and
the window draws one, so neither can use what a player at the real table could not see.
Face-down action cards, the event deck and the unseen draft deck are never in the state
before they are turned (they are drawn by chance at that moment), so there is nothing
else to hide.

Tests: tests/sim/bots/test_view.py, tests/sim/rules/test_reveal.py.
"""

from __future__ import annotations

from sim.state import State


def view(state: State, seat: int | None) -> State:
    """A copy of `state` without the cards `seat` cannot see."""
    v = state.copy()
    for other, player in enumerate(v.players):
        if other == seat or player.plan is None:
            continue
        plan = player.plan
        for index, turned in enumerate(plan.turned):
            if not turned and plan.known[index]:
                plan = plan.hidden(index)
        player.plan = plan
    return v
