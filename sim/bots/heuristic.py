"""The heuristic bot: plays like a sensible person.

It plans all ten actions, keeps rice for winter, taxes safe provinces, builds toward
region majorities, reinforces threatened borders, attacks where it has the numbers and
bids when a special card or an early turn is worth it.

Tests: tests/sim/bots/test_view.py, tests/cli/test_headless_bots.py.
"""

from __future__ import annotations

from sim.board import board
from sim.bots import random_bot
from sim.cards import cards as card_facts
from sim.chance import ChanceStream
from sim.commands import ACTIONS, ChooseMove, DraftTake, SubmitPlan
from sim.legal import MONEY_CARDS, plan_problems, temple_protected
from sim.rules.actions import rice_yield, tax_yield
from sim.state import State

BATTLE_ACTIONS = tuple(a.name for a in card_facts().actions if a.kind == "battle")


def action_cost(action: str) -> int:
    return card_facts().action[action].cost


def neighbours_in_play(state: State, name: str) -> tuple[str, ...]:
    """The province's neighbours that are in play, board order."""
    near = _NEAR.get((state.config.side, state.config.players))
    if near is None or len(near) != len(state.provinces):
        near = _near_in_play(state)
    return near[name]


# (side, players) -> each province in play's neighbours in play. Why a cache: the bots ask
# for a province's neighbours several times a plan, in every step of every rollout of the
# hard bot (issue 40), and the provinces in play never change in a game: they are the
# board's for its side and player count (R-SETUP-2, `Board.in_play`; nothing adds or
# removes one). A state holding another number of provinces is answered uncached.
_NEAR: dict[tuple[str, int], dict[str, tuple[str, ...]]] = {}


def _near_in_play(state: State) -> dict[str, tuple[str, ...]]:
    side, provinces = state.config.side, state.provinces
    near = {name: tuple(n for n in board().neighbours[side][name] if n in provinces)
            for name in provinces}
    if set(provinces) == set(board().in_play(side, state.config.players)):
        _NEAR[(side, state.config.players)] = near
    return near


def enemy_threat(state: State, seat: int, name: str) -> int:
    """The biggest enemy army next to a province."""
    worst = 0
    for n in neighbours_in_play(state, name):
        p = state.provinces[n]
        if p.owner is not None and p.owner != seat:
            worst = max(worst, p.armies)
    return worst


def regions_of(state: State, names: list[str]) -> list[str]:
    """The region of each province named, in order."""
    b, side = board(), state.config.side
    return [b.region_of(n, side) for n in names]


def best_attack(state: State, seat: int, name: str, movable: int,
                my_regions: list[str] | None = None) -> tuple[float, str | None, int]:
    """(value, target, count) of the best attack from `name` with `movable` armies.
    `my_regions`: the regions of the seat's provinces, one a province (`regions_of`), when
    the caller has them (a plan weighs an attack from each of its provinces)."""
    best: tuple[float, str | None, int] = (0.0, None, 0)
    if movable < 2:          # no margin of 2 against any defence (a speed-up: same answer)
        return best
    side = state.config.side
    for n in neighbours_in_play(state, name):
        p = state.provinces[n]
        if p.owner == seat:
            continue
        if temple_protected(state, n):
            continue
        defence = p.armies + (1 if p.owner is None else 0) + (1 if "palace" in p.buildings else 0)
        margin = movable - defence
        if margin < 2:
            continue
        info = board().provinces[n]
        value = 2.0 + 0.6 * len(p.buildings) + 0.25 * (info.tax + info.rice) + min(margin, 6) * 0.3
        if p.owner is not None:
            value += 1.0  # taking a rival's province hurts them too
        # prefer targets in regions where we already build
        if my_regions is None:    # once a call (a speed-up: the same count)
            my_regions = regions_of(state, state.cards_of(seat))
        value += 0.2 * my_regions.count(board().region_of(n, side))
        if value > best[0]:
            best = (value, n, movable)
    return best


def plan(state: State, seat: int, rng: ChanceStream) -> SubmitPlan:
    me = state.players[seat]
    cards = state.cards_of(seat)
    if not cards:
        return SubmitPlan(seat, (None,) * 10, 0)
    b = board()
    event = None  # the round's event is drawn after planning
    provinces = state.provinces
    season = state.season
    # rice needed for winter: one per province, gathered over the remaining rounds
    rounds_left = 3 - season
    rice_short = len(cards) + 1 - me.rice
    want_rice = rice_short > 0 and (rounds_left <= 2 or rice_short > 4)

    scores: dict[tuple[str, str], float] = {}
    for name in cards:
        p = provinces[name]
        info = b.provinces[name]
        threat = enemy_threat(state, seat, name)
        safe = p.unrest == 0 or p.armies >= p.unrest + 3
        if safe:
            scores[("tax", name)] = 1.0 + tax_yield(info.tax, event, None) * 0.9 - p.unrest * 0.8
            rice_value = rice_yield(info.rice, event, None)
            scores[("rice", name)] = (2.0 + rice_value * 1.2 if want_rice else rice_value * 0.35) \
                - p.unrest * 0.8
        free = info.slots - len(p.buildings)
        if free > 0 and threat <= p.armies + 1:
            for kind, base in (("palace", 3.3), ("temple", 2.8), ("theatre", 2.2)):
                if kind not in p.buildings:
                    scores[(kind, name)] = base + 0.3 * (free - 1)
        exposure = max(0, threat - p.armies + 2)
        frontier = 1 if any(provinces[n].owner != seat
                            for n in neighbours_in_play(state, name)) else 0
        scores[("deploy5", name)] = 1.5 + 1.0 * exposure + 1.2 * frontier
        scores[("deploy3", name)] = 1.2 + 0.8 * exposure + 1.0 * frontier
        scores[("deploy1", name)] = 0.6 + 0.4 * exposure + 0.3 * frontier
        value, target, _ = best_attack(state, seat, name, p.armies - 1)
        if target is not None:
            scores[("battle_a", name)] = 2.5 + value
            scores[("battle_b", name)] = 2.4 + value
    # greedy assignment under a money budget
    budget = me.money
    bid: int | str = 0
    wanted_specials = []
    plan: dict[str, str] = {}
    used: set[str] = set()
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    spend = 0
    for (action, name), value in ranked:
        if action in plan or name in used or value <= 0.5:
            continue
        cost = action_cost(action)
        if spend + cost > budget:
            continue
        plan[action] = name
        used.add(name)
        spend += cost
        if action in ("battle_a", "battle_b"):
            wanted_specials.append("attack")
        elif action == "deploy5":
            wanted_specials.append("six_armies")
    # bid: pay for an early turn when money is plentiful after the plan
    spare = budget - spend
    if spare >= 6 and "attack" in wanted_specials:
        bid = min(3, spare - 3)
    elif spare >= 4:
        bid = 1
    # R-PLAN-3: fill enough action fields with province cards
    money_left = MONEY_CARDS - 1
    need = min(10 - money_left, len(cards))
    spare_cards = [c for c in sorted(cards, key=lambda c: (provinces[c].unrest, -provinces[c].armies, c))
                   if c not in used]
    # harmless fillers: builds that lapse for lack of money cost nothing; avoid tax/rice on
    # unrest (it starts a revolt) and deploys we cannot afford anyway
    filler_actions = [a for a in ("theatre", "temple", "palace", "deploy1", "deploy3", "deploy5",
                                  "battle_b", "battle_a", "tax", "rice") if a not in plan]
    while len(plan) < need and spare_cards and filler_actions:
        plan[filler_actions.pop(0)] = spare_cards.pop(0)
    actions = tuple(plan.get(a) for a in ACTIONS)
    cmd = SubmitPlan(seat, actions, bid)
    if plan_problems(state, cmd):  # never submit an illegal plan; fall back to random
        return random_bot.plan(state, seat, rng)
    return cmd


def special(state: State, seat: int, positions: list[int]) -> int:
    me = state.players[seat]
    plan = me.plan.action_map() if me.plan else {}
    worth = {"chest": 1.2 if plan.get("tax") else 0.0, "rice": 1.0 if plan.get("rice") else 0.0,
             "six_armies": 1.5 if plan.get("deploy5") else 0.0,
             "attack": 1.8 if plan.get("battle_a") or plan.get("battle_b") else 0.0,
             "defence": 0.4 + 0.1 * max((enemy_threat(state, seat, n)
                                         for n in state.cards_of(seat)), default=0)}
    return max(positions, key=lambda pos: (worth[state.specials_row[pos - 1]] - 0.15 * pos, -pos))


def move(state: State, seat: int, rng: ChanceStream) -> ChooseMove:
    d = state.decision.detail
    origin, targets = d["from"], d["targets"]
    movable = state.provinces[origin].armies - 1
    if d["action"] in BATTLE_ACTIONS:
        value, target, count = best_attack(state, seat, origin, movable)
        if target is not None and target in targets:
            return ChooseMove(seat, target, count)
    # otherwise move towards the most threatened own neighbour (or the weakest target)
    own = [t for t in sorted(targets) if state.provinces[t].owner == seat]
    if own:
        dest = max(own, key=lambda t: (enemy_threat(state, seat, t) - state.provinces[t].armies, t))
        gain = enemy_threat(state, seat, dest) - state.provinces[dest].armies
        origin_threat = enemy_threat(state, seat, origin)
        if d["optional"] and (gain <= 0 or origin_threat > 0):
            return ChooseMove(seat, None, 0)
        keep = max(1, min(origin_threat, movable))
        count = max(1, movable + 1 - keep) if not d["optional"] else max(1, (movable + 1) // 2)
        return ChooseMove(seat, dest, min(count, targets[dest]))
    if d["optional"]:
        return ChooseMove(seat, None, 0)
    # forced to act with no own neighbour and no good attack: the weakest target, all in
    target = min(sorted(targets), key=lambda t: state.provinces[t].armies)
    return ChooseMove(seat, target, targets[target])


def draft_take(state: State, seat: int, rng: ChanceStream) -> DraftTake:
    d = state.decision.detail
    b = board()
    mine = set(state.cards_of(seat))

    def value(name: str) -> float:
        info = b.provinces[name]
        near = sum(1 for n in b.neighbours[state.config.side][name] if n in mine)
        return info.tax + info.rice + info.slots + 1.5 * near

    best, best_value = None, 7.5  # below this, a blind deck card is as good
    for i, name in enumerate(d["up"]):
        if name is not None and value(name) > best_value:
            best, best_value = f"up{i}", value(name)
    if best is None:
        if d["deck"]:
            return DraftTake(seat, "deck")
        best = "up0" if d["up"][0] is not None else "up1"
    return DraftTake(seat, best)
