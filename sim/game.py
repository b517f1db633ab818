"""The game of Shogun as a pure state machine: `new_game`, `apply`, `pending`.

The flow is a small set of stages (`draft`, `fill`, `year`, `round`, `plan`, `event`,
`bids`, `special`, `exec`, `round_end`, `winter`, `over`). `_advance` runs automatic steps
until the game needs a decision — from a seat or from chance — and records it in
`state.decision`. A command is checked against that decision, applied to a copy of the
state, and the game advances again. Every random draw waits for a `Chance` command at the
moment the physical game would reveal it (R-ACTCARD-2's ruling, DESIGN's "chance is an
input").
"""

from __future__ import annotations

from typing import Callable

from sim import tower
from sim.battle import count_battle
from sim.board import board
from sim.chance import ChanceStream
from sim.commands import (ACTIONS, DRAFT_CHOICES, Chance, ChooseMove, Command, DraftPlace,
                          DraftTake, IllegalCommand, OrderRevolts, PickSpecial, SubmitPlan)
from sim.rules import (BUILD_COST, DEPLOY_COST, EVENT_RICE_LOSS, deploy_count,
                       move_targets, plan_problems, rice_yield, tax_yield)
from sim.state import (BUILDINGS, COLOURS, PEASANT, PEASANTS, SEASONS, SPECIALS, Decision,
                       GameConfig, PlayerState, ProvinceState, State, colour_map,
                       decode_state, encode_state, public_state, state_hash)

__all__ = ["GameConfig", "Decision", "State", "new_game", "apply", "pending", "state_hash",
           "encode_state", "decode_state", "public_state", "plan_problems", "move_targets",
           "legal_specials", "IllegalCommand"]

Events = list

# The rule a decision kind answers to, for IllegalCommand messages.
DECISION_RULE = {"chance": "R-ROUND-2", "plan": "R-PLAN-5", "draft_take": "R-SETUP-5",
                 "draft_place": "R-SETUP-5", "special": "R-BID-3", "move": "R-EXEC-1",
                 "revolt_order": "R-WINTER-3", "over": "R-END-1"}
COMMAND_KIND = {Chance: ("chance",), SubmitPlan: ("plan",), DraftTake: ("draft_take",),
                DraftPlace: ("draft_place",), PickSpecial: ("special",),
                ChooseMove: ("move",), OrderRevolts: ("revolt_order",)}


# ----------------------------------------------------------------------------- public API

def new_game(config: GameConfig) -> tuple[State, Events]:
    """A fresh game, advanced to its first decision (a chance input)."""
    config.check()
    b = board()
    s = State.__new__(State)
    s.config = config
    s.provinces = {n: ProvinceState() for n in b.in_play(config.side, config.players)}
    money = b.starting_money[config.players]
    s.players = [PlayerState(money) for _ in range(config.players)]
    s.peasant_supply = PEASANTS
    s.tray = [0] * COLOURS
    s.tower = tower.EMPTY
    s.year, s.season, s.stage = 1, 0, "setup"
    s.decision = Decision("chance", (), "tower")
    s.event_deck = list(range(1, 13))
    s.year_events, s.current_event = [], None
    s.action_row, s.hidden_actions, s.specials_row = [None] * 10, [], []
    s.turn_order, s.ranking = [], []
    s.cursor, s.battle, s.draft, s.winter = {}, {}, {}, {}
    s.winners, s.chance_count = [], 0
    events: Events = [{"event": "GameStarted", "players": config.players, "side": config.side,
                       "setup": config.setup,
                       "money": {str(i): p.money for i, p in enumerate(s.players)}}]
    if config.setup == "beginner":
        for seat, claims in enumerate(b.beginner_setups_sun[config.players]):
            for name in sorted(claims):
                _claim(s, seat, name, claims[name], events)
        s.stage = "fill"
    else:
        groups = b.draft_army_groups[config.players]
        for p in s.players:
            p.groups = tuple(groups)
        s.draft = {"unknown": sorted(s.provinces), "bottom": [], "up": [None, None],
                   "pick": 0, "faced": {}, "taken": None, "need": "up"}
        s.stage = "draft"
    _advance(s, events)
    return s, events


def pending(state: State) -> Decision:
    return state.decision


def apply(state: State, command: Command) -> tuple[State, Events]:
    """Apply one command to a copy of `state`. Raises IllegalCommand; `state` is untouched."""
    _check_turn(state, command)
    s = state.copy()
    events: Events = []
    if isinstance(command, Chance):
        s.chance_count += 1
        _CHANCE[s.decision.purpose](s, ChanceStream(command.seed), command.seed, events)
    else:
        _HANDLERS[type(command)](s, command, events)
    _advance(s, events)
    return s, events


def legal_specials(state: State) -> list[int]:
    """Turn-order positions still free for the seat choosing now (R-BID-3)."""
    taken = {p.position for p in state.players if p.position is not None}
    return [pos for pos in range(1, 6) if pos not in taken]


def _check_turn(state: State, command: Command) -> None:
    d = state.decision
    rule = DECISION_RULE.get(d.kind, "R-ROUND-2")
    if d.kind == "over":
        raise IllegalCommand("R-END-1", "the game is over")
    kinds = COMMAND_KIND.get(type(command))
    if kinds is None:
        raise IllegalCommand("R-ROUND-2", f"{type(command).__name__} is not a command")
    if d.kind not in kinds:
        who = "chance" if d.kind == "chance" else f"seat(s) {list(d.seats)}"
        raise IllegalCommand(rule, f"the game waits for a {d.kind} decision from {who}, "
                                   f"not {type(command).__name__}")
    if not isinstance(command, Chance) and command.seat not in d.seats:
        raise IllegalCommand(rule, f"seat {command.seat} may not act now; waiting for "
                                   f"seat(s) {list(d.seats)}")
    if isinstance(command, Chance) and not (isinstance(command.seed, (bytes, bytearray))
                                            and len(command.seed) == 32):
        raise IllegalCommand(rule, "a chance input is a seed of exactly 32 bytes")


# ----------------------------------------------------------------------------- the flow

def _advance(s: State, events: Events) -> None:
    """Run automatic steps until the game needs a decision."""
    while True:
        step = _STAGES[s.stage]
        if not step(s, events):
            return


def _wait_chance(s: State, purpose: str, **detail) -> bool:
    s.decision = Decision("chance", (), purpose, detail)
    return False


def _wait(s: State, kind: str, seats: tuple[int, ...], **detail) -> bool:
    s.decision = Decision(kind, tuple(seats), "", detail)
    return False


def _stage_setup(s: State, events: Events) -> bool:
    return False  # not reached: new_game moves on at once


# --- draft (R-SETUP-5) -----------------------------------------------------------------

def _draft_deck_size(d: dict) -> int:
    return len(d["unknown"]) + len(d["bottom"])


def _stage_draft(s: State, events: Events) -> bool:
    d = s.draft
    if d["need"] == "up":
        if None in d["up"] and d["unknown"]:
            return _wait_chance(s, "draft")
        for i in range(2):  # only known (put-under) cards or none left: no chance needed
            if d["up"][i] is None and d["bottom"]:
                d["up"][i] = d["bottom"].pop(0)
        d["need"] = "take"
    n = len(s.players)
    if d["need"] == "take":
        if all(not p.groups for p in s.players):
            for p in s.players:
                p.groups = ()
            s.draft = {}
            s.stage = "fill"
            events.append({"event": "DraftEnded"})
            return True
        seat = d["pick"] % n
        faced = d["faced"].get(seat)
        can_refresh = (faced is not None and faced == d["up"] and None not in d["up"]
                       and _draft_deck_size(d) >= 2)
        return _wait(s, "draft_take", (seat,), up=list(d["up"]), deck=_draft_deck_size(d),
                     can_refresh=can_refresh, groups=list(s.players[seat].groups))
    if d["need"] == "deck":
        return _wait_chance(s, "draft")
    seat = d["pick"] % n
    return _wait(s, "draft_place", (seat,), province=d["taken"],
                 groups=sorted(set(s.players[seat].groups), reverse=True))


def _chance_draft(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    d = s.draft
    if d["need"] == "deck":
        d["taken"] = d["unknown"].pop(stream.below(len(d["unknown"])))
        d["need"] = "place"
        events.append({"event": "DraftCardTaken", "seat": d["pick"] % len(s.players),
                       "province": d["taken"], "from": "deck"})
        return
    for i in range(2):
        if d["up"][i] is None:
            if d["unknown"]:
                d["up"][i] = d["unknown"].pop(stream.below(len(d["unknown"])))
            elif d["bottom"]:
                d["up"][i] = d["bottom"].pop(0)
    d["need"] = "take"
    events.append({"event": "DraftCardsTurned", "up": list(d["up"])})


def _on_draft_take(s: State, cmd: DraftTake, events: Events) -> None:
    d = s.draft
    seat = cmd.seat
    if cmd.choice not in DRAFT_CHOICES:
        raise IllegalCommand("R-SETUP-5", f"unknown draft choice {cmd.choice!r:.40}; "
                                          f"choose one of {', '.join(DRAFT_CHOICES)}")
    if cmd.choice == "refresh":
        if not s.decision.detail.get("can_refresh"):
            raise IllegalCommand("R-SETUP-5", "the face-up cards may be put under the deck only "
                                 "by a player who faced the same two on their previous pick")
        d["bottom"].extend(d["up"])
        d["up"] = [None, None]
        d["faced"][seat] = None
        d["need"] = "up"
        events.append({"event": "DraftCardsRefreshed", "seat": seat})
        return
    d["faced"][seat] = list(d["up"])
    if cmd.choice in ("up0", "up1"):
        i = int(cmd.choice[-1])
        if d["up"][i] is None:
            raise IllegalCommand("R-SETUP-5", f"there is no face-up card {i}")
        d["taken"], d["up"][i] = d["up"][i], None
        d["need"] = "place"
        events.append({"event": "DraftCardTaken", "seat": seat, "province": d["taken"],
                       "from": "face_up"})
        return
    if _draft_deck_size(d) == 0:
        raise IllegalCommand("R-SETUP-5", "the deck is empty")
    if d["unknown"]:
        d["need"] = "deck"
    else:
        d["taken"] = d["bottom"].pop(0)
        d["need"] = "place"
        events.append({"event": "DraftCardTaken", "seat": seat, "province": d["taken"],
                       "from": "deck"})


def _on_draft_place(s: State, cmd: DraftPlace, events: Events) -> None:
    d = s.draft
    player = s.players[cmd.seat]
    if cmd.armies not in player.groups:
        raise IllegalCommand("R-SETUP-5", f"seat {cmd.seat} has no unplaced army group of "
                                          f"{cmd.armies} (left: {list(player.groups)})")
    groups = list(player.groups)
    groups.remove(cmd.armies)
    player.groups = tuple(groups)
    _claim(s, cmd.seat, d["taken"], cmd.armies, events)
    d["taken"] = None
    d["pick"] += 1
    d["need"] = "up"


def _claim(s: State, seat: int, name: str, armies: int, events: Events) -> None:
    prov = s.provinces[name]
    prov.owner, prov.armies = seat, armies
    s.players[seat].supply -= armies
    events.append({"event": "ProvinceClaimed", "seat": seat, "province": name, "armies": armies})


# --- tower fill (R-SETUP-6) ----------------------------------------------------------------

def _stage_fill(s: State, events: Events) -> bool:
    if not s.battle:
        b = board()
        thrown = [0] * COLOURS
        for seat, p in enumerate(s.players):
            p.supply -= b.tower_fill_armies
            thrown[seat] = b.tower_fill_armies
        s.peasant_supply -= b.tower_fill_peasants
        thrown[PEASANT] = b.tower_fill_peasants
        s.battle = {"kind": "fill", "held": {c: n for c, n in enumerate(thrown) if n}}
    return _wait_chance(s, "tower", reason="fill")


def _chance_tower(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    """Every drop: what was held in hand goes into the tower (R-BATTLE-1)."""
    held = {int(c): n for c, n in s.battle["held"].items() if n}
    before = s.tower
    result = tower.drop(before, held, seed)
    s.tower = result.contents
    out = [result.out.get(c, 0) for c in range(COLOURS)]
    kind = s.battle["kind"]
    events.append({
        "event": "TowerDropped", "reason": "fill" if kind == "fill" else
        ("revolt" if kind == "revolt" else "battle"),
        "thrown": colour_map(held), "out": colour_map(out),
        "inside_after": colour_map(result.contents.counts()),
        "replay": {"before": before.to_wire(), "thrown": [[c, n] for c, n in sorted(held.items())],
                   "seed": seed.hex()}})
    s.battle["held"] = {}
    s.battle["thrown"] = held
    if kind == "fill":
        for c, n in enumerate(out):  # R-SETUP-6: what comes out goes back to supply
            _return(s, c, n)
        s.battle = {}
        s.stage = "year"
        return
    for c, n in enumerate(out):
        s.tray[c] += n
    _resolve_battle(s, events)


def _return(s: State, colour: int, n: int) -> None:
    if n == 0:
        return
    if colour == PEASANT:
        s.peasant_supply += n
    else:
        s.players[colour].supply += n


# --- years and rounds ----------------------------------------------------------------------

def _stage_year(s: State, events: Events) -> bool:
    return _wait_chance(s, "events")


def _chance_events(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    drawn = stream.sample(s.event_deck, 4)  # R-SETUP-7 / R-ROUND-4
    s.event_deck = sorted(e for e in s.event_deck if e not in drawn)
    s.year_events = drawn
    events.append({"event": "YearStarted", "year": s.year, "events": list(drawn)})
    s.stage = "round"


def _stage_round(s: State, events: Events) -> bool:
    return _wait_chance(s, "round")


def _chance_round(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    """R-ACTCARD-2 (slots 1-5 face up; 6-10 drawn when turned) and R-SPECIAL-1."""
    order = stream.shuffle(list(ACTIONS))
    s.action_row = order[:5] + [None] * 5
    s.hidden_actions = sorted(order[5:], key=ACTIONS.index)
    s.specials_row = stream.shuffle(list(SPECIALS))
    for p in s.players:
        p.plan, p.special, p.position, p.bid_paid = None, None, None, 0
    s.cursor = {"changed": []}
    events.append({"event": "RoundStarted", "year": s.year, "season": SEASONS[s.season],
                   "specials": list(s.specials_row), "actions": s.action_row[:5]})
    events.append({"event": "Snapshot", "state": public_state(s)})
    s.stage = "plan"


def _stage_plan(s: State, events: Events) -> bool:
    waiting = tuple(i for i, p in enumerate(s.players) if p.plan is None)
    if waiting:
        return _wait(s, "plan", waiting)
    for seat, p in enumerate(s.players):
        events.append({"event": "PlanRevealed", "seat": seat,
                       "actions": {a: prov for a, prov in zip(ACTIONS, p.plan.actions)},
                       "bid": "province" if isinstance(p.plan.bid, str) else p.plan.bid})
    s.stage = "event"
    return True


def _on_plan(s: State, cmd: SubmitPlan, events: Events) -> None:
    problems = plan_problems(s, cmd)
    if problems:
        rule, _, reason = problems[0].partition(": ")
        raise IllegalCommand(rule, reason)
    s.players[cmd.seat].plan = cmd
    events.append({"event": "PlanLocked", "seat": cmd.seat})


def _stage_event(s: State, events: Events) -> bool:
    return _wait_chance(s, "event")


def _chance_event(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    s.current_event = stream.choice(s.year_events)  # R-EVENT-2
    events.append({"event": "EventDrawn", "event_card": s.current_event,
                   "rice_loss": EVENT_RICE_LOSS[s.current_event]})
    _reveal_bids(s, events)


def _bid_rank(bid: int | str | None) -> int:
    """R-BID-2: 4, 3, 2, 1, province card, 0, no card."""
    if bid is None:
        return 0
    if isinstance(bid, str):
        return 2
    return 1 if bid == 0 else 2 + bid


def _reveal_bids(s: State, events: Events) -> None:
    for p in s.players:  # R-BID-1
        if isinstance(p.plan.bid, int):
            p.money -= p.plan.bid
            p.bid_paid = p.plan.bid
    groups: dict[int, list[int]] = {}
    for seat, p in enumerate(s.players):
        groups.setdefault(_bid_rank(p.plan.bid), []).append(seat)
    events.append({"event": "BidsRevealed",
                   "bids": {str(i): ("province" if isinstance(p.plan.bid, str) else p.plan.bid)
                            for i, p in enumerate(s.players)},
                   "paid": {str(i): p.bid_paid for i, p in enumerate(s.players)}})
    s.ranking = [seat for rank in sorted(groups, reverse=True) for seat in groups[rank]]
    tied = any(len(g) > 1 for g in groups.values())
    s.cursor["rank_groups"] = [groups[r] for r in sorted(groups, reverse=True)]
    s.stage = "ties" if tied else "special"
    s.cursor["pick"] = 0


def _stage_ties(s: State, events: Events) -> bool:
    return _wait_chance(s, "ties", groups=s.cursor["rank_groups"])


def _chance_ties(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    """R-BID-2: equal bids are ordered by shuffled daimyo cards."""
    s.ranking = [seat for g in s.cursor["rank_groups"] for seat in stream.shuffle(g)]
    events.append({"event": "TiesBroken", "ranking": list(s.ranking)})
    s.stage = "special"


def _stage_special(s: State, events: Events) -> bool:
    while s.cursor["pick"] < len(s.ranking):
        seat = s.ranking[s.cursor["pick"]]
        free = legal_specials(s)
        if len(free) > 1:
            return _wait(s, "special", (seat,), positions=free,
                         cards={str(pos): s.specials_row[pos - 1] for pos in free})
        _take_special(s, seat, free[0])
    s.turn_order = sorted(range(len(s.players)), key=lambda i: s.players[i].position)
    events.append({"event": "TurnOrderSet", "order": list(s.turn_order),
                   "specials": {str(i): p.special for i, p in enumerate(s.players)},
                   "paid": {str(i): p.bid_paid for i, p in enumerate(s.players)}})
    s.stage = "exec"
    s.cursor.update({"slot": 0, "turn": 0, "step": "reveal"})
    return True


def _take_special(s: State, seat: int, position: int) -> None:
    p = s.players[seat]
    p.position, p.special = position, s.specials_row[position - 1]
    s.cursor["pick"] += 1


def _on_pick_special(s: State, cmd: PickSpecial, events: Events) -> None:
    if cmd.position not in legal_specials(s):
        raise IllegalCommand("R-BID-3", f"position {cmd.position} is not a free special card "
                                        f"(free: {legal_specials(s)})")
    _take_special(s, cmd.seat, cmd.position)


# --- executing actions (R-EXEC) -------------------------------------------------------------

def _stage_exec(s: State, events: Events) -> bool:
    c = s.cursor
    while True:
        if c["step"] in ("move", "battle"):
            return False  # the decision or drop it waits for is already set
        if c["slot"] == 10:
            s.stage = "round_end"
            return True
        if c["step"] == "reveal":
            if s.action_row[c["slot"]] is None:
                return _wait_chance(s, "action", slot=c["slot"] + 1)
            events.append({"event": "ActionRevealed", "slot": c["slot"] + 1,
                           "action": s.action_row[c["slot"]], "hidden": c["slot"] >= 5})
            c["step"], c["turn"] = "act", 0
        if c["turn"] >= len(s.turn_order):
            c["slot"] += 1
            c["step"] = "reveal"
            continue
        if c["step"] == "act":
            seat = s.turn_order[c["turn"]]
            if not _start_action(s, seat, s.action_row[c["slot"]], events):
                return False  # waiting for a decision or a drop
        c["turn"] += 1
        c["step"] = "act"


def _chance_action(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    slot = s.cursor["slot"]
    action = s.hidden_actions.pop(stream.below(len(s.hidden_actions)))
    s.action_row[slot] = action
    events.append({"event": "ActionRevealed", "slot": slot + 1, "action": action, "hidden": True})
    s.cursor["step"], s.cursor["turn"] = "act", 0


def _lapse(events: Events, seat: int, action: str, province: str, rule: str, reason: str) -> bool:
    events.append({"event": "ActionLapsed", "seat": seat, "action": action,
                   "province": province, "rule": rule, "reason": reason})
    return True


def _done(events: Events, seat: int, action: str, province: str, paid: int = 0,
          money: int = 0, rice: int = 0, armies: int = 0, **extra) -> bool:
    events.append({"event": "ActionDone", "seat": seat, "action": action, "province": province,
                   "paid": paid, "money_gained": money, "rice_gained": rice,
                   "armies_placed": armies, **extra})
    return True


def _start_action(s: State, seat: int, action: str, events: Events) -> bool:
    """Begin `action` for `seat`; True when it is finished, False when it waits."""
    player = s.players[seat]
    name = player.plan.actions[ACTIONS.index(action)]
    if name is None:
        return True  # a money card: no action (R-PLAN-1)
    prov = s.provinces[name]
    if prov.owner != seat or name in s.cursor["changed"]:
        return _lapse(events, seat, action, name, "R-EXEC-4",
                      f"{name} changed hands this round")
    if action in BUILD_COST:
        cost = BUILD_COST[action]
        if player.money < cost:
            return _lapse(events, seat, action, name, "R-EXEC-3", f"cannot pay {cost} chests")
        if action in prov.buildings:
            return _lapse(events, seat, action, name, "R-EXEC-3", f"{name} already has a {action}")
        if len(prov.buildings) >= board().provinces[name].slots:
            return _lapse(events, seat, action, name, "R-EXEC-3", f"{name} has no free slot")
        if s.buildings_left(action) == 0:
            return _lapse(events, seat, action, name, "R-COMP-4", f"no {action} left in stock")
        player.money -= cost
        prov.buildings = tuple(b for b in BUILDINGS if b in prov.buildings or b == action)
        removed = 0
        if action == "theatre" and s.current_event in (1, 2) and prov.unrest:
            prov.unrest -= 1  # R-EVENT-1 events 1/2
            removed = 1
        return _done(events, seat, action, name, paid=cost, unrest_removed=removed)
    if action in ("rice", "tax"):
        if prov.unrest:
            _begin_revolt(s, name, extra=0, then=action)  # R-EXEC-6/7: revolt first
            return _wait_chance(s, "tower", reason="revolt", province=name)
        return _collect(s, seat, action, name, events)
    if action in ("deploy5", "deploy3"):
        cost = DEPLOY_COST[action]
        count = deploy_count(action, s.current_event, player.special)
        if player.money < cost:
            return _lapse(events, seat, action, name, "R-EXEC-3", f"cannot pay {cost} chests")
        if player.supply < count:
            return _lapse(events, seat, action, name, "R-EXEC-3",
                          f"only {player.supply} armies in supply, {count} needed")
        player.money -= cost
        player.supply -= count
        prov.armies += count
        return _done(events, seat, action, name, paid=cost, armies=count)
    if action == "deploy1":
        if player.money < 1:
            return _lapse(events, seat, action, name, "R-EXEC-3", "cannot pay 1 chest")
        if player.supply < 1:
            return _lapse(events, seat, action, name, "R-EXEC-3", "no army in supply")
        player.money -= 1
        player.supply -= 1
        prov.armies += 1
        targets = move_targets(s, seat, name, action)
        if not targets:
            return _done(events, seat, action, name, paid=1, armies=1)
        s.cursor["step"] = "move"
        return _wait(s, "move", (seat,), **{"from": name, "action": action, "targets": targets,
                                            "optional": True})
    # battle_a / battle_b (R-EXEC-10)
    targets = move_targets(s, seat, name, action)
    if not targets:
        why = "needs at least 2 armies" if prov.armies < 2 else "has no province it may enter"
        return _lapse(events, seat, action, name, "R-EXEC-3", f"{name} {why}")
    s.cursor["step"] = "move"
    return _wait(s, "move", (seat,), **{"from": name, "action": action, "targets": targets,
                                        "optional": False})


def _collect(s: State, seat: int, action: str, name: str, events: Events) -> bool:
    player, prov = s.players[seat], s.provinces[name]
    printed = board().provinces[name]
    marker = 1 if s.unrest_left() > 0 else 0  # R-COMP-5
    prov.unrest += marker
    if action == "rice":
        gained = rice_yield(printed.rice, s.current_event, player.special)
        player.rice += gained
        return _done(events, seat, action, name, rice=gained, unrest_placed=marker)
    gained = tax_yield(printed.tax, s.current_event, player.special)
    player.money += gained
    return _done(events, seat, action, name, money=gained, unrest_placed=marker)


def _on_choose_move(s: State, cmd: ChooseMove, events: Events) -> None:
    d = s.decision.detail
    origin, action, targets = d["from"], d["action"], d["targets"]
    rule = "R-EXEC-9" if action == "deploy1" else "R-EXEC-10"
    seat = cmd.seat
    if cmd.target is None:
        if not d["optional"]:
            raise IllegalCommand(rule, "a battle/move action must move armies when it can")
        _done(events, seat, action, origin, paid=1, armies=1)
        _finish_turn(s)
        return
    if cmd.target not in targets:
        if cmd.target in s.provinces and cmd.target not in board().neighbours[s.config.side][origin]:
            why = f"{cmd.target} does not border {origin}"
        elif cmd.target not in s.provinces:
            why = f"{cmd.target} is not in play"
        else:
            why = f"{cmd.target} may not be entered from {origin} by this action"
        raise IllegalCommand(rule, why)
    if not 1 <= cmd.count <= targets[cmd.target]:
        raise IllegalCommand(rule, f"move 1 to {targets[cmd.target]} armies (at least one "
                                   f"stays in {origin}), not {cmd.count}")
    src, dst = s.provinces[origin], s.provinces[cmd.target]
    src.armies -= cmd.count
    if dst.owner == seat:
        dst.armies += cmd.count
        events.append({"event": "Moved", "seat": seat, "from": origin, "to": cmd.target,
                       "count": cmd.count})
        if action == "deploy1":
            _done(events, seat, action, origin, paid=1, armies=1, moved_to=cmd.target)
        else:
            _done(events, seat, action, origin, moved_to=cmd.target)
        _finish_turn(s)
        return
    _begin_attack(s, seat, origin, cmd.target, cmd.count, action)


def _finish_turn(s: State) -> None:
    s.cursor["turn"] += 1
    s.cursor["step"] = "act"


# --- battles (R-BATTLE) ---------------------------------------------------------------------

def _begin_attack(s: State, seat: int, origin: str, target: str, count: int, action: str) -> None:
    """R-BATTLE-2: gather the cubes thrown into the tower, the tray's among them."""
    prov = s.provinces[target]
    attacker = s.players[seat]
    held = [0] * COLOURS
    held[seat] = count
    extras = {}
    if attacker.special == "attack" and attacker.supply > 0:
        attacker.supply -= 1
        held[seat] += 1
        extras["attack_card"] = 1
    defender = prov.owner
    if defender is None:
        peasants = min(2 if s.current_event == 3 else 1, s.peasant_supply)
        s.peasant_supply -= peasants
        held[PEASANT] += peasants
        kind = "neutral"
    else:
        kind = "attack"
        held[defender] += prov.armies
        prov.armies = 0  # R-BATTLE-9
        dplayer = s.players[defender]
        if dplayer.special == "defence" and dplayer.supply > 0:
            dplayer.supply -= 1
            held[defender] += 1
            extras["defence_card"] = 1
        if s.current_event in (4, 5) and "palace" in prov.buildings and dplayer.supply > 0:
            dplayer.supply -= 1
            held[defender] += 1
            extras["palace_event"] = 1
    for c in range(COLOURS):
        held[c] += s.tray[c]
    s.tray = [0] * COLOURS
    s.battle = {"kind": kind, "province": target, "attacker": seat, "defender": defender,
                "origin": origin, "action": action, "unrest": prov.unrest,
                "held": {c: n for c, n in enumerate(held) if n}, "extras": extras, "then": ""}
    s.cursor["step"] = "battle"
    s.decision = Decision("chance", (), "tower", {"reason": "battle", "province": target})


def _begin_revolt(s: State, name: str, extra: int, then: str) -> None:
    """R-BATTLE-4: the owner's armies, a peasant per unrest marker (+ winter extras), the tray."""
    prov = s.provinces[name]
    owner = prov.owner
    held = [0] * COLOURS
    held[owner] = prov.armies
    prov.armies = 0
    peasants = min(prov.unrest + extra, s.peasant_supply)
    s.peasant_supply -= peasants
    held[PEASANT] = peasants
    for c in range(COLOURS):
        held[c] += s.tray[c]
    s.tray = [0] * COLOURS
    s.battle = {"kind": "revolt", "province": name, "attacker": PEASANT, "defender": owner,
                "origin": None, "action": then, "unrest": prov.unrest,
                "held": {c: n for c, n in enumerate(held) if n}, "extras": {"peasants": peasants},
                "then": then}
    s.cursor["step"] = "battle"
    s.decision = Decision("chance", (), "tower", {"reason": "revolt", "province": name})


def _resolve_battle(s: State, events: Events) -> None:
    bt = s.battle
    kind, name = bt["kind"], bt["province"]
    attacker, defender = bt["attacker"], bt["defender"]
    prov = s.provinces[name]
    outcome = count_battle(kind, attacker, defender, s.tray, bt["unrest"])
    out = list(s.tray)
    for colour, n in outcome.returned.items():
        _return(s, colour, n)
    s.tray = list(outcome.tray_after)
    new_owner = prov.owner
    if outcome.result == "draw" or (kind == "revolt" and outcome.result == "attacker"):
        _neutralise(s, name)  # R-BATTLE-7 / R-BATTLE-8
        new_owner = None
    elif outcome.result == "attacker":
        if prov.owner is not None and prov.owner != attacker:
            s.cursor["changed"].append(name)  # R-EXEC-4
        prov.owner, prov.armies = attacker, outcome.survivors
        new_owner = attacker
    else:
        prov.armies = outcome.survivors if kind != "neutral" else 0
    colour = lambda c: "peasant" if c == PEASANT or c is None else c  # noqa: E731
    events.append({
        "event": "BattleResolved", "kind": kind, "province": name,
        "attacker": colour(attacker), "defender": colour(defender), "unrest": bt["unrest"],
        "thrown": colour_map(bt["thrown"]),
        "out": colour_map(out), "attacker_count": outcome.attacker_count,
        "defender_count": outcome.defender_count, "result": outcome.result,
        "survivors": outcome.survivors, "new_owner": new_owner, **bt["extras"]})
    then, seat_action = bt["then"], bt["action"]
    s.battle = {}
    s.cursor["changed"] = sorted(set(s.cursor["changed"]))
    if s.stage == "winter":
        s.winter["revolts"].pop(0)
        return
    seat = defender if kind == "revolt" else attacker
    if kind == "revolt":
        if outcome.result == "defender":
            _collect(s, seat, then, name, events)  # ruling: income after a won revolt
        else:
            _done(events, seat, then, name, revolt_lost=True)
    else:
        _done(events, seat, seat_action, bt["origin"], attacked=name, result=outcome.result)
    _finish_turn(s)


def _neutralise(s: State, name: str) -> None:
    prov = s.provinces[name]
    if prov.owner is not None:
        s.cursor.setdefault("changed", []).append(name)
    prov.owner, prov.armies, prov.buildings, prov.unrest = None, 0, (), 0


# --- end of round, winter, end ------------------------------------------------------------

def _stage_round_end(s: State, events: Events) -> bool:
    """R-ROUND-3."""
    s.year_events.remove(s.current_event)
    events.append({"event": "RoundEnded", "year": s.year, "season": SEASONS[s.season]})
    s.current_event = None
    for p in s.players:
        p.plan, p.special, p.bid_paid = None, None, 0
    s.action_row, s.hidden_actions, s.specials_row = [None] * 10, [], []
    s.cursor = {}
    s.season += 1
    s.stage = "winter" if s.season == 3 else "round"
    return True


def _stage_winter(s: State, events: Events) -> bool:
    w = s.winter
    if not w:
        leftover = s.year_events[0]
        loss = EVENT_RICE_LOSS[leftover]  # R-EVENT-2: only its rice loss applies
        events.append({"event": "WinterStarted", "year": s.year, "rice_loss": loss,
                       "event_card": leftover})
        events.append({"event": "Snapshot", "state": public_state(s)})
        for p in s.players:  # R-WINTER-1
            p.rice = max(0, p.rice - loss)
        s.winter = w = {"idx": 0, "revolts": [], "extra": 0, "drawn": False}
        s.cursor = {"changed": []}
    while w["idx"] < len(s.turn_order):
        seat = s.turn_order[w["idx"]]
        if not w["drawn"]:
            owned = len(s.cards_of(seat))
            shortage = owned - s.players[seat].rice  # R-WINTER-2
            revolts, extra = board().revolts_for(shortage)
            revolts = min(revolts, owned)
            if revolts == 0:
                w["idx"] += 1
                continue
            w.update({"shortage": shortage, "count": revolts, "extra": extra})
            return _wait_chance(s, "revolts", seat=seat, count=revolts)
        if w["revolts"]:
            if not w.get("ordered"):
                return _wait(s, "revolt_order", (seat,), provinces=list(w["revolts"]))
            _begin_revolt(s, w["revolts"][0], w["extra"], then="")
            s.decision = Decision("chance", (), "tower", {"reason": "revolt",
                                                          "province": w["revolts"][0]})
            return False
        w.update({"idx": w["idx"] + 1, "drawn": False, "ordered": False})
    _score(s, events)
    return True


def _chance_revolts(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    """R-WINTER-3: revolting provinces drawn unseen from the player's cards."""
    w = s.winter
    seat = s.turn_order[w["idx"]]
    cards = s.cards_of(seat)
    drawn = stream.sample(cards, w["count"])
    w["revolts"] = drawn
    w["drawn"] = True
    w["ordered"] = len(drawn) < 2
    events.append({"event": "Shortage", "seat": seat, "rice": s.players[seat].rice,
                   "provinces": len(cards), "shortage": w["shortage"], "revolts": w["count"],
                   "extra_peasants": w["extra"], "drawn": list(drawn)})


def _on_order_revolts(s: State, cmd: OrderRevolts, events: Events) -> None:
    w = s.winter
    if sorted(cmd.provinces) != sorted(w["revolts"]):
        raise IllegalCommand("R-WINTER-3", f"the order must list exactly the revolting "
                                           f"provinces {sorted(w['revolts'])}")
    w["revolts"] = list(cmd.provinces)
    w["ordered"] = True
    events.append({"event": "RevoltsOrdered", "seat": cmd.seat, "order": list(cmd.provinces)})


def _score(s: State, events: Events) -> None:
    """R-WINTER-4 scoring, then R-ROUND-4 or R-END."""
    b = board()
    side = s.config.side
    majority = [0] * len(s.players)
    per_seat_regions: list[dict] = [{} for _ in s.players]
    values = {"palace": 3, "temple": 2, "theatre": 1}
    for region in ("brown", "yellow", "red", "purple", "green"):
        names = [n for n in s.provinces if b.region_of(n, side) == region]
        for kind, value in values.items():
            counts = [0] * len(s.players)
            for n in names:
                p = s.provinces[n]
                if p.owner is not None and kind in p.buildings:
                    counts[p.owner] += 1
            top = max(counts)
            if top == 0:
                continue
            leaders = [i for i, c in enumerate(counts) if c == top]
            points = value if len(leaders) == 1 else value - 1
            for i in leaders:
                majority[i] += points
                per_seat_regions[i].setdefault(region, {})[kind] = points
    events.append({"event": "Snapshot", "state": public_state(s)})
    for seat, p in enumerate(s.players):
        owned = s.cards_of(seat)
        buildings = sum(len(s.provinces[n].buildings) for n in owned)
        gained = len(owned) + buildings + majority[seat]
        p.score += gained
        events.append({"event": "Scored", "seat": seat, "provinces": len(owned),
                       "buildings": buildings, "majority_points": majority[seat],
                       "gained": gained, "score": p.score, "regions": per_seat_regions[seat]})
    s.winter = {}
    if s.year == 1:  # R-ROUND-4
        for p in s.players:
            p.rice = 0
        for prov in s.provinces.values():
            prov.unrest = 0
        events.append({"event": "YearEnded", "year": 1})
        s.year, s.season = 2, 0
        s.year_events = []
        s.stage = "year"
        return
    top = max(p.score for p in s.players)  # R-END-1
    best = [i for i, p in enumerate(s.players) if p.score == top]
    richest = max(s.players[i].money for i in best)
    s.winners = [i for i in best if s.players[i].money == richest]
    events.append({"event": "Snapshot", "state": public_state(s)})
    events.append({"event": "GameEnded",
                   "scores": {str(i): p.score for i, p in enumerate(s.players)},
                   "money": {str(i): p.money for i, p in enumerate(s.players)},
                   "winners": list(s.winners)})
    s.stage = "over"


def _stage_over(s: State, events: Events) -> bool:
    s.decision = Decision("over", (), "", {"winners": list(s.winners)})
    return False


_STAGES: dict[str, Callable[[State, Events], bool]] = {
    "setup": _stage_setup, "draft": _stage_draft, "fill": _stage_fill, "year": _stage_year,
    "round": _stage_round, "plan": _stage_plan, "event": _stage_event, "ties": _stage_ties,
    "special": _stage_special, "exec": _stage_exec, "round_end": _stage_round_end,
    "winter": _stage_winter, "over": _stage_over,
}
_CHANCE = {"draft": _chance_draft, "tower": _chance_tower, "events": _chance_events,
           "round": _chance_round, "event": _chance_event, "ties": _chance_ties,
           "action": _chance_action, "revolts": _chance_revolts}
_HANDLERS = {SubmitPlan: _on_plan, DraftTake: _on_draft_take, DraftPlace: _on_draft_place,
             PickSpecial: _on_pick_special, ChooseMove: _on_choose_move,
             OrderRevolts: _on_order_revolts}
