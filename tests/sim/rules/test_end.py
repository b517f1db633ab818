"""The end of the game: R-END-1."""

import pytest

from sim.game import pending

from tests.sim.scenario import at_plan, begin_winter, clear_owner, of, played

NO_LOSS = 7


@pytest.mark.parametrize("scores, money, winners", [
    ((10, 12, 11, 5), (9, 1, 1, 1), [1]),   # most points
    ((12, 12, 5, 5), (3, 7, 9, 9), [1]),    # tie: most chests
    ((12, 12, 5, 12), (7, 7, 9, 3), [0, 1]),  # still tied: shared
])
def test_R_END_1_most_points_then_most_chests_then_shared(scores, money, winners):
    s = at_plan()
    for seat in range(4):
        clear_owner(s, seat)
        s.players[seat].score, s.players[seat].money = scores[seat], money[seat]
    s2, events = begin_winter(s, NO_LOSS, rice={i: 45 for i in range(4)})
    assert s2.winners == winners
    assert pending(s2).kind == "over" and pending(s2).detail == {"winners": winners}
    assert of(events, "GameEnded")[0]["winners"] == winners


def test_R_END_1_a_whole_game_ends_after_the_second_winter_with_a_winner():
    states, events = played()
    final = states[-1]
    assert pending(final).kind == "over" and final.year == 2
    ended = of(events, "GameEnded")[0]
    top = max(ended["scores"].values())
    assert all(ended["scores"][str(w)] == top for w in ended["winners"])
    assert events[-1]["event"] == "GameEnded"
