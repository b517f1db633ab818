"""What a seat may do now, as typed choices; `check` refuses anything else.

Why one place: the window highlights the legal targets, the bots pick among the legal
options, and `apply` refuses the illegal ones. If each rebuilt the options, they would
drift apart. Here `choices(state, seat)` answers for the pending decision and `check`
tests a command against the same functions, raising `IllegalCommand` with the rule id as
an attribute and a sentence a player can read.

Tests: tests/sim/test_legal.py, tests/sim/rules/test_illegal.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.board import board
from sim.cards import cards
from sim.commands import (ACTIONS, DRAFT_CHOICES, PLAN_FIELDS, Chance, ChooseMove, CommitPlan,
                          Command, DraftPlace, DraftTake, ForfeitField, IllegalCommand,
                          OpenField, OrderRevolts, PickSpecial, SubmitPlan, TowerSettled)
from sim.state import BID, COLOURS, DecisionKind, State
from sim.tower.contents import overlapping

MONEY_CARDS = len(cards().money_cards)


@dataclass(frozen=True)
class Problem:
    rule: str
    text: str            # a sentence for the player


@dataclass(frozen=True)
class PlanChoice:
    """R-PLAN-1...4: the cards this seat may plan with."""
    cards: tuple[str, ...]          # province cards
    bids: tuple[int, ...]           # money cards it may bid (not above its chests)


@dataclass(frozen=True)
class MoveChoice:
    """R-EXEC-9/10: where armies from `origin` may go, with the most that may go."""
    origin: str
    action: str
    targets: tuple[tuple[str, int], ...]
    optional: bool                  # deploy/move 1 may stay


@dataclass(frozen=True)
class SpecialChoice:
    """R-BID-3: free turn-order positions and the special card on each."""
    positions: tuple[int, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True)
class DraftTakeChoice:
    options: tuple[str, ...]        # among DRAFT_CHOICES
    up: tuple[str | None, ...]


@dataclass(frozen=True)
class DraftPlaceChoice:
    province: str
    groups: tuple[int, ...]


@dataclass(frozen=True)
class RevoltOrderChoice:
    provinces: tuple[str, ...]      # any order of these


@dataclass(frozen=True)
class OpenFieldChoice:
    field: str                      # the plan field this seat must open now


Choice = (PlanChoice | MoveChoice | SpecialChoice | DraftTakeChoice | DraftPlaceChoice
          | RevoltOrderChoice | OpenFieldChoice)


# ----------------------------------------------------------------------------- rule facts

def temple_protected(state: State, name: str) -> bool:
    """Events 6 and 9: provinces with a temple may not be attacked this round."""
    number = state.current_event
    event = None if number is None else cards().events.get(number)
    return (event is not None and event.effect == "temple_shield"
            and "temple" in state.provinces[name].buildings)


def move_targets(state: State, seat: int, origin: str, action: str) -> dict[str, int]:
    """Where armies from `origin` may go for this action, with the most that may go.

    deploy1 moves only into the player's own neighbours (R-EXEC-9); battle actions may
    target any neighbour in play (R-EXEC-10, R-EXEC-11), except temple provinces of
    others under events 6/9. At least one army stays behind.
    """
    most = state.provinces[origin].armies - 1
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


def free_positions(state: State) -> list[int]:
    """Turn-order positions still free for the seat choosing now (R-BID-3)."""
    taken = {p.position for p in state.players if p.position is not None}
    return [pos for pos in range(1, 6) if pos not in taken]


def _cards_word(n: int) -> str:
    return "1 action field" if n == 1 else f"{n} action fields"


def plan_problems(state: State, plan: SubmitPlan) -> list[Problem]:
    """Why a plan is not allowed (R-PLAN-1...4); empty when it is legal."""
    problems: list[Problem] = []
    seat = plan.seat
    if not 0 <= seat < len(state.players):
        return [Problem("R-COMP-1", f"there is no seat {seat}")]
    if len(plan.actions) != len(ACTIONS):
        return [Problem("R-PLAN-1", "a plan has exactly 10 action fields")]
    owned = set(state.cards_of(seat))
    used = [p for p in plan.actions if p is not None]
    for p in used:
        if p not in owned:
            problems.append(Problem("R-PLAN-1", f"you do not hold the province card {p}"))
    if len(set(used)) != len(used):
        problems.append(Problem("R-PLAN-2", "each province card may lie on one field only"))
    bid = plan.bid
    money = state.players[seat].money
    if bid is None:
        if owned:
            problems.append(Problem("R-PLAN-4", "put a card on the bid field"))
    elif isinstance(bid, int):
        if not 0 <= bid <= 4:
            problems.append(Problem("R-PLAN-4", f"there is no money card {bid}"))
        elif bid > money:
            problems.append(Problem("R-PLAN-4", f"a bid of {bid} is more than your "
                                    f"{money} {'chest' if money == 1 else 'chests'}"))
    else:
        if bid not in owned:
            problems.append(Problem("R-PLAN-4", f"you do not hold the province card {bid}"))
        elif bid in used:
            problems.append(Problem("R-PLAN-2", f"{bid} cannot be both your bid and on an "
                                    "action field"))
    money_left = MONEY_CARDS - (1 if isinstance(bid, int) else 0)
    usable = len(owned) - (1 if isinstance(bid, str) else 0)
    placed = len(used)
    if 10 - placed > money_left and placed < usable:
        need = min(10 - money_left, usable)
        problems.append(Problem("R-PLAN-3", f"put a province card on at least "
                                f"{_cards_word(need)} (now {placed})"))
    return problems


def open_problem(state: State, cmd: OpenField) -> Problem | None:
    """Whether an opened field agrees with the locked plan's hand (R-PLAN-1, 2, 4)."""
    plan = state.players[cmd.seat].plan
    index = PLAN_FIELDS.index(cmd.field)
    card = cmd.card
    if plan is None or plan.known[index]:
        return Problem("R-PLAN-5", f"the {cmd.field} field is not waiting to be turned")
    others = [plan.card(i) for i in range(len(PLAN_FIELDS)) if plan.known[i] and i != index]
    if isinstance(card, str):
        if card not in plan.hand:
            return Problem("R-PLAN-1", f"the province card {card} was not in the hand")
        if card in others:
            return Problem("R-PLAN-2", f"{card} already lies on another field")
    elif isinstance(card, int):
        if index != BID:
            return Problem("R-PLAN-1", "a money card on an action field is opened as none")
        if card > plan.money:
            return Problem("R-PLAN-4", f"a bid of {card} is more than the chests owned")
    elif index == BID and plan.hand:
        return Problem("R-PLAN-4", "the bid field always holds a card")
    return None


# ----------------------------------------------------------------------------- choices

def choices(state: State, seat: int) -> Choice | None:
    """The typed choice `seat` faces now, or None if it need not act."""
    d = state.decision
    if seat not in d.seats:
        return None
    if d.kind == DecisionKind.PLAN:
        owned = tuple(state.cards_of(seat))
        money = state.players[seat].money
        return PlanChoice(owned, tuple(b for b in range(MONEY_CARDS) if b <= money))
    if d.kind == DecisionKind.MOVE:
        det = d.detail
        return MoveChoice(det["from"], det["action"], tuple(sorted(det["targets"].items())),
                          det["optional"])
    if d.kind == DecisionKind.SPECIAL:
        free = tuple(free_positions(state))
        return SpecialChoice(free, tuple(state.specials_row[p - 1] for p in free))
    if d.kind == DecisionKind.DRAFT_TAKE:
        det = d.detail
        options = [c for i, c in enumerate(("up0", "up1")) if det["up"][i] is not None]
        if det["deck"]:
            options.append("deck")
        if det["can_refresh"]:
            options.append("refresh")
        return DraftTakeChoice(tuple(options), tuple(det["up"]))
    if d.kind == DecisionKind.DRAFT_PLACE:
        return DraftPlaceChoice(d.detail["province"], tuple(d.detail["groups"]))
    if d.kind == DecisionKind.REVOLT_ORDER:
        return RevoltOrderChoice(tuple(d.detail["provinces"]))
    if d.kind == DecisionKind.OPEN:
        return OpenFieldChoice(d.purpose)
    return None


# ----------------------------------------------------------------------------- check

K = DecisionKind
# the decision each command answers
_KIND: dict[type, DecisionKind] = {
    Chance: K.CHANCE, TowerSettled: K.TOWER, SubmitPlan: K.PLAN, CommitPlan: K.PLAN,
    OpenField: K.OPEN, ForfeitField: K.OPEN, DraftTake: K.DRAFT_TAKE,
    DraftPlace: K.DRAFT_PLACE, PickSpecial: K.SPECIAL, ChooseMove: K.MOVE,
    OrderRevolts: K.REVOLT_ORDER}
_WAITING_FOR = {K.CHANCE: "a chance draw", K.TOWER: "the tower to settle",
                K.PLAN: "the players' plans", K.OPEN: "a card to be turned",
                K.DRAFT_TAKE: "a draft pick", K.DRAFT_PLACE: "an army group to be placed",
                K.SPECIAL: "a turn-order choice", K.MOVE: "a move",
                K.REVOLT_ORDER: "the order of the revolts"}
_RULE = {K.CHANCE: "R-ROUND-2", K.TOWER: "R-BATTLE-1", K.PLAN: "R-PLAN-5", K.OPEN: "R-EXEC-2",
         K.DRAFT_TAKE: "R-SETUP-5", K.DRAFT_PLACE: "R-SETUP-5", K.SPECIAL: "R-BID-3",
         K.MOVE: "R-EXEC-1", K.REVOLT_ORDER: "R-WINTER-3"}
del K


def check(state: State, command: Command) -> None:
    """Raise IllegalCommand unless `command` answers the pending decision legally."""
    d = state.decision
    if d.kind == DecisionKind.OVER:
        raise IllegalCommand("R-END-1", "the game is over")
    kind = _KIND.get(type(command))
    if kind is None:
        raise IllegalCommand("R-ROUND-2", f"{type(command).__name__} is not a command")
    rule = _RULE.get(d.kind, "R-ROUND-2")
    if kind != d.kind:
        raise IllegalCommand(rule, f"the game is waiting for {_WAITING_FOR.get(d.kind, d.kind)}")
    if isinstance(command, Chance):
        if not (isinstance(command.seed, (bytes, bytearray)) and len(command.seed) == 32):
            raise IllegalCommand(rule, "a chance input is a seed of exactly 32 bytes")
        return
    if isinstance(command, TowerSettled):
        _check_settled(state, command)
        return
    if command.seat not in d.seats:
        raise IllegalCommand(rule, f"it is not seat {command.seat}'s turn")
    problem = _problem(state, command)
    if problem is not None:
        raise IllegalCommand(problem.rule, problem.text)


def _problem(state: State, command: Command) -> Problem | None:
    d = state.decision
    if isinstance(command, SubmitPlan):
        problems = plan_problems(state, command)
        return problems[0] if problems else None
    if isinstance(command, CommitPlan):
        return None
    if isinstance(command, OpenField):
        if command.field != d.purpose:
            return Problem("R-EXEC-2", f"the card to turn now is the {d.purpose} field")
        return open_problem(state, command)
    if isinstance(command, ForfeitField):
        if command.field != d.purpose:
            return Problem("R-EXEC-2", f"the card to turn now is the {d.purpose} field")
        plan = state.players[command.seat].plan
        if plan is None or plan.known[PLAN_FIELDS.index(command.field)]:
            return Problem("R-FORFEIT-1", f"the {command.field} field is known and is "
                           "turned as it lies")
        return None
    if isinstance(command, DraftTake):
        if command.choice not in DRAFT_CHOICES:
            return Problem("R-SETUP-5", "choose a face-up card, the deck or a refresh")
        choice = choices(state, command.seat)
        if not isinstance(choice, DraftTakeChoice) or command.choice not in choice.options:
            return Problem("R-SETUP-5", {
                "refresh": "the face-up cards may be put under the deck only by a player "
                           "who faced the same two on their previous pick",
                "deck": "the deck is empty"}.get(command.choice, "that face-up card is gone"))
        return None
    if isinstance(command, DraftPlace):
        groups = d.detail["groups"]
        if command.armies not in groups:
            return Problem("R-SETUP-5", f"you have no army group of {command.armies} left to place")
        return None
    if isinstance(command, PickSpecial):
        if command.position not in free_positions(state):
            return Problem("R-BID-3", f"turn-order position {command.position} is not free")
        return None
    if isinstance(command, ChooseMove):
        return _move_problem(state, command)
    if isinstance(command, OrderRevolts):
        if sorted(command.provinces) != sorted(d.detail["provinces"]):
            return Problem("R-WINTER-3", "list each revolting province exactly once: "
                           + ", ".join(sorted(d.detail["provinces"])))
        return None
    return Problem("R-ROUND-2", "that command does not answer this decision")


def _move_problem(state: State, cmd: ChooseMove) -> Problem | None:
    det = state.decision.detail
    origin, action, targets = det["from"], det["action"], det["targets"]
    rule = "R-EXEC-9" if action == "deploy1" else "R-EXEC-10"
    if cmd.target is None:
        if not det["optional"]:
            return Problem(rule, "a battle/move action must move armies when it can")
        return None
    if cmd.target not in targets:
        if cmd.target not in state.provinces:
            return Problem(rule, f"{cmd.target} is not in play")
        if cmd.target not in board().neighbours[state.config.side][origin]:
            return Problem(rule, f"{cmd.target} does not border {origin}")
        if action == "deploy1":
            return Problem(rule, f"deploy/move 1 may only move into your own provinces")
        return Problem("R-EXEC-10", f"{cmd.target} may not be attacked this round (temple)")
    most = targets[cmd.target]
    if not 1 <= cmd.count <= most:
        return Problem(rule, f"move 1 to {most} {'army' if most == 1 else 'armies'} "
                       f"(at least one stays in {origin}), not {cmd.count}")
    return None


def _check_settled(state: State, cmd: TowerSettled) -> None:
    """R-COMP-6 through the tower: every cube that went in is inside or out, no other."""
    battle = state.battle
    assert battle is not None                # a tower decision waits for a battle's drop
    before = state.tower.counts()
    for colour in range(COLOURS):
        went_in = before.get(colour, 0) + battle.held[colour]
        accounted = cmd.out_counts().get(colour, 0) + cmd.contents.counts().get(colour, 0)
        if accounted != went_in:
            raise IllegalCommand("R-COMP-6", f"the tower outcome accounts for {accounted} "
                                 f"cubes of colour {colour}, but {went_in} went in")
    pair = overlapping(cmd.contents)
    if pair is not None:
        raise IllegalCommand("R-BATTLE-1", f"the tower outcome puts cubes {pair[0]} and "
                             f"{pair[1]} inside the tower in one place")
