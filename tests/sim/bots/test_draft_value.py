"""What a finished draft is worth (issue 40, R-SETUP-5): borders with rivals and rival
armies beyond mine cost, regions held most bring; a draft future of the `draft` horizon
stops when the last group is placed and is judged by it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sim.board import board
from sim.bots import draft_search, draft_value, search
from sim.bots.draft_value import DraftFeatures, Weights
from sim.chance import ChanceStream
from sim.game import GameConfig, new_game
from sim.state import State
from sim.view import view
from tests.sim.bots.bot_states import draft_states

RNG_SEED = b"\x07" * 32


def board_with(owned: dict[str, tuple[int, int]]) -> State:
    """A 4-player draft game's state with exactly these provinces owned: name ->
    (seat, armies); the rest neutral."""
    s, _ = new_game(GameConfig(4, "sun", "draft"))
    for prov in s.provinces.values():
        prov.owner, prov.armies = None, 0
    for name, (seat, armies) in owned.items():
        s.provinces[name].owner, s.provinces[name].armies = seat, armies
    return s


# Sun side facts used below (spec/board.json, checked by the next test): Aki borders Bingo
# and Iyo; Hoki borders Bingo, not Aki; Aki, Bingo and Hoki are green, Iyo purple.
CASES = [
    pytest.param({}, [DraftFeatures(0, 0, 0, 0)] * 4, id="an empty board is worth nothing"),
    pytest.param({"Aki": (0, 2), "Bingo": (1, 5)},
                 [DraftFeatures(1, 3, 0, 1), DraftFeatures(1, 0, 0, 1),
                  DraftFeatures(0, 0, 0, 0), DraftFeatures(0, 0, 0, 0)],
                 id="one border: counted on both sides, the weaker side outgunned by 3"),
    pytest.param({"Aki": (0, 2), "Bingo": (0, 3)},
                 [DraftFeatures(0, 0, 1, 0)] + [DraftFeatures(0, 0, 0, 0)] * 3,
                 id="my own neighbour is no border; two of a region alone lead it"),
    pytest.param({"Aki": (0, 4), "Bingo": (1, 2), "Hoki": (1, 3), "Iyo": (2, 2)},
                 [DraftFeatures(2, 0, 0, 0), DraftFeatures(1, 2, 1, 0),
                  DraftFeatures(1, 2, 1, 0), DraftFeatures(0, 0, 0, 0)],
                 id="a border per pair of provinces; outgunned by the strongest rival"),
]


@pytest.mark.parametrize("owned, expected", CASES)
def test_features_of_a_finished_draft(owned, expected):
    assert draft_value.features(board_with(owned)) == expected


def test_the_board_facts_the_cases_rely_on():
    b = board()
    nb = b.neighbours["sun"]
    assert {"Bingo", "Iyo"} <= set(nb["Aki"]) and "Kaga" not in nb["Aki"]
    assert "Bingo" in nb["Hoki"] and "Aki" not in nb["Hoki"] and "Iyo" not in nb["Hoki"]
    region = {n: b.provinces[n].region["sun"] for n in ("Aki", "Bingo", "Hoki", "Iyo", "Kaga")}
    assert region["Aki"] == region["Bingo"] == region["Hoki"] != region["Iyo"]
    assert region["Kaga"] != region["Aki"]


def test_worth_is_the_weighted_sum_and_evaluate_the_margin_over_the_best_rival():
    w = Weights(borders=-10, outgunned=-5, leads=20, ties=10)
    assert draft_value.worth(DraftFeatures(2, 3, 1, 1), w) == -20 - 15 + 20 + 10
    s = board_with({"Aki": (0, 2), "Bingo": (1, 5)})
    # seat 0: -10 - 15 + 10 = -15; seat 1: -10 + 10 = 0; seats 2 and 3: 0
    assert draft_value.evaluate(s, 0, w) == -15 - 0
    assert draft_value.evaluate(s, 1, w) == 0 - 0
    assert draft_value.evaluate(s, 2, w) == 0 - 0


def test_a_border_costs_and_a_region_held_alone_pays_with_the_fitted_weights():
    """The signs the fit found (−0.95 a border, +1.9 a region led alone)."""
    w = draft_value.WEIGHTS
    assert w.borders < 0 and w.outgunned < 0 and w.leads > w.ties > 0
    apart = board_with({"Aki": (0, 3), "Kaga": (1, 3)})
    touching = board_with({"Aki": (0, 3), "Bingo": (1, 3)})
    assert draft_value.worth(draft_value.features(apart)[0]) > \
        draft_value.worth(draft_value.features(touching)[0])


def test_a_draft_future_stops_when_the_last_group_is_placed(monkeypatch):
    """The `draft` horizon: the rest of the draft is played and nothing after it (every
    group placed, the tower not yet filled); the value is `draft_value.evaluate` of it."""
    state, seat = draft_states(5, 3, ("draft_take",))[0]
    seen = view(state, seat)
    st = replace(search.HARD, draft_horizon="draft")
    assert search.horizon_for(seen, st) == "draft"
    first = draft_search.rule_choice(seen, seat, ChanceStream(RNG_SEED))
    base = search.determinize(seen, seat, ChanceStream(RNG_SEED))
    judged: list[State] = []
    real = draft_value.evaluate

    def judge(s: State, who: int) -> int:
        judged.append(s.copy())
        return real(s, who)

    monkeypatch.setattr(draft_value, "evaluate", judge)
    value = search.rollout(base, seat, first, RNG_SEED, None, st)
    [end] = judged
    assert end.draft is None and all(not p.groups for p in end.players)
    assert end.round is None and end.season == 0 and not end.year_events
    assert sum(p.owner is not None for p in end.provinces.values()) == 32  # 4 seats x 8 groups
    assert value == real(end, seat)
