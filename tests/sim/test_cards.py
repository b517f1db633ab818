"""Card facts as data (`assets/cards.json` through `sim.cards`): they match the rules,
and a damaged file is refused with a sentence naming the fault."""

from __future__ import annotations

import json

import pytest

from sim.cards import CARDS_PATH, CardDataError, cards, load_cards


def test_R_EVENT_1_the_twelve_events_and_their_winter_rice_loss():
    loss = {n: e.rice_loss for n, e in cards().events.items()}
    assert loss == {1: 5, 2: 7, 3: 3, 4: 2, 5: 6, 6: 3, 7: 0, 8: 2, 9: 4, 10: 3, 11: 4, 12: 1}
    effects = {n: (e.effect, e.bound) for n, e in cards().events.items()}
    assert effects[7] == ("tax_at_most", 5) and effects[8] == ("tax_at_least", 6)
    assert effects[10] == ("rice_at_least", 4) and effects[11] == ("rice_at_most", 3)
    assert effects[3] == ("neutral_peasants", 2) and effects[6] == effects[9]
    assert cards().reduced_deploys == {"deploy5": 3, "deploy3": 2}


def test_R_EXEC_5_R_EXEC_8_R_EXEC_9_action_costs_and_armies():
    costs = {a.name: (a.cost, a.armies) for a in cards().actions}
    assert costs["palace"][0] == 3 and costs["temple"][0] == 2 and costs["theatre"][0] == 1
    assert costs["deploy5"] == (3, 5) and costs["deploy3"] == (2, 3) and costs["deploy1"] == (1, 1)
    assert costs["battle_a"] == costs["battle_b"] == (0, 0)


def test_R_COMP_4_R_WINTER_4_buildings_stock_and_majority_points():
    b = {k.name: (k.stock, k.majority_points) for k in cards().buildings}
    assert b == {"palace": (28, 3), "temple": (26, 2), "theatre": (26, 1)}


@pytest.mark.parametrize("damage, message", [
    (lambda d: d["events"].pop(), "numbered 1 to 12"),
    (lambda d: d["actions"][0].update(cost=-1), "whole number 'cost'"),
    (lambda d: d["events"][3].update(effect="earthquake"), "unknown effect"),
    (lambda d: d.update(money_cards=[0, 1, 2]), "money cards"),
])
def test_a_damaged_card_file_is_refused_naming_the_fault(tmp_path, damage, message):
    data = json.loads(CARDS_PATH.read_text(encoding="utf-8"))
    damage(data)
    bad = tmp_path / "cards.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CardDataError, match=message):
        load_cards(bad)
    with pytest.raises(CardDataError, match="not valid JSON"):
        bad.write_text("{", encoding="utf-8")
        load_cards(bad)


def test_no_copy_of_a_card_fact_outside_the_data_file():
    """Issue 10: rules, bots, narration and the window read the cards from sim.cards."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    facts = [e.short for e in cards().events.values()] + [e.text for e in cards().events.values()]
    facts += ["{1: 5, 2: 7, 3: 3", '"six_armies": "6 armies"', '"deploy5": 3, "deploy3": 2']
    for package in ("sim", "net", "client", "cli"):
        for path in (root / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for fact in facts:
                assert fact not in text, f"{path.relative_to(root)} holds a copy of {fact!r}"
