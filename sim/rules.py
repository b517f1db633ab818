"""Rule facts and small rule functions used by the game flow, bots and UIs.

Everything here is a pure function of a state (or of numbers): what a plan may hold, what an
action yields under the round's event and a special card, where armies may move.
"""

from __future__ import annotations

from sim.board import board
from sim.commands import ACTIONS, SubmitPlan
from sim.state import State

# R-EVENT-1: event number -> winter rice loss
EVENT_RICE_LOSS = {1: 5, 2: 7, 3: 3, 4: 2, 5: 6, 6: 3, 7: 0, 8: 2, 9: 4, 10: 3, 11: 4, 12: 1}
EVENT_TEXT = {
    1: "After building a Nō theatre, remove 1 unrest marker from that province",
    2: "After building a Nō theatre, remove 1 unrest marker from that province",
    3: "An attack on a neutral province throws 2 peasants into the tower instead of 1",
    4: "When a province with a palace is attacked, 1 extra army of the defender joins",
    5: "When a province with a palace is attacked, 1 extra army of the defender joins",
    6: "Provinces with a temple may not be attacked this round",
    7: "Collect tax gives at most 5 chests",
    8: "Collect tax gives at least 6 chests",
    9: "Provinces with a temple may not be attacked this round",
    10: "Collect rice gives at least 4 rice",
    11: "Collect rice gives at most 3 rice",
    12: "Deploy 5 gives only 3 armies, deploy 3 only 2 (same cost)",
}
BUILD_COST = {"palace": 3, "temple": 2, "theatre": 1}
DEPLOY_COST = {"deploy5": 3, "deploy3": 2, "deploy1": 1}
MONEY_CARDS = 5
BATTLE_ACTIONS = ("battle_a", "battle_b")


def tax_yield(printed: int, event: int | None, special: str | None) -> int:
    """R-EXEC-7 with R-EVENT-3 and R-SPECIAL-3: event bound first, then +1 chest."""
    value = printed
    if event == 7:
        value = min(value, 5)
    elif event == 8:
        value = max(value, 6)
    return value + (1 if special == "chest" else 0)


def rice_yield(printed: int, event: int | None, special: str | None) -> int:
    """R-EXEC-6 with R-EVENT-3 and R-SPECIAL-3."""
    value = printed
    if event == 10:
        value = max(value, 4)
    elif event == 11:
        value = min(value, 3)
    return value + (1 if special == "rice" else 0)


def deploy_count(action: str, event: int | None, special: str | None) -> int:
    """R-EXEC-8: armies placed; event 12 first, then `six_armies` adds one to deploy 5."""
    if action == "deploy1":
        return 1
    count = {"deploy5": 5, "deploy3": 3}[action]
    if event == 12:
        count = {"deploy5": 3, "deploy3": 2}[action]
    if action == "deploy5" and special == "six_armies":
        count += 1
    return count


def temple_protected(state: State, name: str) -> bool:
    """Events 6 and 9: provinces with a temple may not be attacked this round."""
    return state.current_event in (6, 9) and "temple" in state.provinces[name].buildings


def move_targets(state: State, seat: int, origin: str, action: str) -> dict[str, int]:
    """Where armies from `origin` may go for this action, with the most that may go.

    deploy1 moves only into the player's own neighbours (R-EXEC-9); battle actions may
    target any neighbour in play (R-EXEC-10, R-EXEC-11), except temple provinces of
    others under events 6/9. At least one army stays behind.
    """
    prov = state.provinces[origin]
    most = prov.armies - 1
    if most < 1:
        return {}
    targets = {}
    for name in board().neighbours[state.config.side][origin]:
        if name not in state.provinces:  # R-SETUP-2: excluded with 3 players
            continue
        owner = state.provinces[name].owner
        if action == "deploy1" and owner != seat:
            continue
        if owner != seat and temple_protected(state, name):
            continue
        targets[name] = most
    return targets


def plan_problems(state: State, plan: SubmitPlan) -> list[str]:
    """Why a plan is not allowed (R-PLAN-1...4); empty when it is legal.

    The UI shows these before the plan is locked; `apply` raises the first one.
    """
    problems: list[str] = []
    seat = plan.seat
    if not 0 <= seat < len(state.players):
        return [f"R-COMP-1: there is no seat {seat}"]
    if len(plan.actions) != len(ACTIONS):
        return ["R-PLAN-1: a plan has exactly 10 action fields"]
    owned = set(state.cards_of(seat))
    used = [p for p in plan.actions if p is not None]
    for p in used:
        if p not in owned:
            problems.append(f"R-PLAN-1: {p} is not one of seat {seat}'s province cards")
    if len(set(used)) != len(used):
        problems.append("R-PLAN-2: a province card is used on more than one action field")
    bid = plan.bid
    if bid is None:
        problems.append("R-PLAN-4: the bid field must hold a card (a money card is always left)")
    elif isinstance(bid, int):
        if not 0 <= bid <= 4:
            problems.append(f"R-PLAN-4: there is no money card {bid}")
        elif bid > state.players[seat].money:
            problems.append(f"R-PLAN-4: a bid of {bid} exceeds the {state.players[seat].money}"
                            " chests owned")
    else:
        if bid not in owned:
            problems.append(f"R-PLAN-4: bid card {bid} is not one of seat {seat}'s provinces")
        elif bid in used:
            problems.append(f"R-PLAN-2: {bid} is both the bid and on an action field")
    money_left = MONEY_CARDS - (1 if isinstance(bid, int) else 0)
    usable = len(owned) - (1 if isinstance(bid, str) else 0)
    placed = len(used)
    if 10 - placed > money_left and placed < usable:
        need = min(10 - money_left, usable)
        problems.append(f"R-PLAN-3: every field must hold a card: put province cards on at "
                        f"least {need} action fields (now {placed})")
    return problems
