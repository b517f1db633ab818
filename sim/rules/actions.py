"""Executing the ten actions: R-EXEC-1...8, R-ACTCARD-2 (the rolling reveal), R-EXEC-2
(cards turned one at a time), R-EVENT-1/3 and R-SPECIAL-1/3 (what an action yields).

Actions run in action-row order; each is done by every player in turn order before the
next. At a player's turn their card for the action is turned (opened first by its owner
where this state lacks it). When every player has done the action of slot k (k = 1...5),
the face-down card of slot k + 5 is turned — drawn by chance at that moment — so the next
five actions are always known during execution. Moves and battles: `movement`, `battle`.

Tests: tests/sim/rules/test_exec.py, tests/sim/rules/test_examples.py.
"""

from __future__ import annotations


from sim.board import board
from sim.cards import cards
from sim.chance import ChanceStream
from sim.commands import ACTIONS
from sim.rules import battle
from sim.rules.flow import Events, Next, current_round, done, lapse, wait_chance
from sim.rules.movement import start_move
from sim.rules.planning import field_to_open, reveal_plans
from sim.progress import evolve
from sim.state import BUILDINGS, Decision, State

FACE_UP = 5


def _bounded(printed: int, event: int | None, at_most: str, at_least: str) -> int:
    """R-EVENT-3: an "at most" / "at least" event bound replaces the printed value."""
    card = None if event is None else cards().events.get(event)
    if card is not None and card.effect == at_most:
        return min(printed, card.bound)
    if card is not None and card.effect == at_least:
        return max(printed, card.bound)
    return printed


def tax_yield(printed: int, event: int | None, special: str | None) -> int:
    """R-EXEC-7 with R-EVENT-3 and R-SPECIAL-3: event bound first, then +1 chest."""
    return _bounded(printed, event, "tax_at_most", "tax_at_least") + (special == "chest")


def rice_yield(printed: int, event: int | None, special: str | None) -> int:
    """R-EXEC-6 with R-EVENT-3 and R-SPECIAL-3."""
    return _bounded(printed, event, "rice_at_most", "rice_at_least") + (special == "rice")


def deploy_count(action: str, event: int | None, special: str | None) -> int:
    """R-EXEC-8 with R-SPECIAL-3: event 12 first; `6 armies` then makes deploy 5 give 6,
    event 12 or not (E-6)."""
    c = cards()
    count = c.action[action].armies
    card = None if event is None else c.events.get(event)
    if card is not None and card.effect == "fewer_deployed":
        count = c.reduced_deploys.get(action, count)
    if action == "deploy5" and special == "six_armies":
        count = 6
    return count


def stage_exec(s: State, events: Events) -> Next:
    # (the round and the plans narrowed inline, not by `current_round`/`locked_plan`:
    # this loop runs at every step of every look-ahead)
    while True:
        r = s.round
        assert r is not None
        if r.step == "move":
            return s.decision                    # a ChooseMove is still awaited
        if r.step == "battle":
            if not battle.settled(s):
                return battle.drop_decision(s)
            _after_battle(s, events)
            continue
        if r.slot == len(ACTIONS):
            reveal_plans(s, events)
            return "round_end"
        action = s.action_row[r.slot]
        assert action is not None                # turned before its slot (R-ACTCARD-2)
        if r.step == "start":
            events.append({"event": "ActionStarted", "slot": r.slot + 1, "action": action})
            s.round = r = evolve(r, step="act", turn=0)
        if r.turn >= len(s.turn_order):          # everyone did this slot (R-EXEC-1)
            if r.slot < FACE_UP and s.action_row[r.slot + FACE_UP] is None:
                return wait_chance("action", slot=r.slot + FACE_UP + 1)   # R-ACTCARD-2
            s.round = evolve(r, slot=r.slot + 1, step="start", turn=0)
            continue
        seat = s.turn_order[r.turn]
        index = ACTIONS.index(action)
        plan = s.players[seat].plan
        assert plan is not None
        if not plan.known[index]:
            return field_to_open(seat, action)
        if not plan.turned[index]:                # R-EXEC-2: turned at this player's turn
            s.players[seat].plan = plan = plan.turned_up(index)
            events.append({"event": "CardTurned", "seat": seat, "action": action,
                           "province": plan.actions[index]})
        waiting = start_action(s, seat, action, events)
        if waiting is not None:
            return waiting
        r = s.round
        assert r is not None
        s.round = evolve(r, turn=r.turn + 1)


def on_action_chance(s: State, stream: ChanceStream, seed: bytes, events: Events) -> None:
    """R-ACTCARD-2: turn the face-down card five slots after the one just finished."""
    slot = current_round(s).slot + FACE_UP
    action = s.hidden_actions.pop(stream.below(len(s.hidden_actions)))
    s.action_row[slot] = action
    events.append({"event": "ActionRevealed", "slot": slot + 1, "action": action})


def _chests(n: int) -> str:
    return "1 chest" if n == 1 else f"{n} chests"


def start_action(s: State, seat: int, action: str, events: Events) -> Decision | None:
    """Begin `action` for `seat`: None when it is finished, else the decision it awaits."""
    player = s.players[seat]
    assert player.plan is not None and s.round is not None     # (inline: a hot path)
    name = player.plan.actions[ACTIONS.index(action)]
    if name is None:
        return None  # a money card: no action (R-PLAN-1)
    prov = s.provinces[name]
    card = cards().action[action]
    r = s.round
    if prov.owner != seat or name in r.changed:
        lapse(events, seat, action, name, "R-EXEC-4", f"{name} changed hands this round")
        return None
    if card.kind == "build":                     # R-EXEC-5
        label = cards().building[action].label
        if player.money < card.cost:
            lapse(events, seat, action, name, "R-EXEC-3", f"cannot pay {_chests(card.cost)}")
        elif action in prov.buildings:
            lapse(events, seat, action, name, "R-EXEC-3", f"{name} already has a {label}")
        elif len(prov.buildings) >= board().provinces[name].slots:
            lapse(events, seat, action, name, "R-EXEC-3", f"{name} has no free slot")
        elif s.buildings_left(action) == 0:
            lapse(events, seat, action, name, "R-COMP-4", f"no {label} is left in the box")
        else:
            player.money -= card.cost
            prov.buildings = tuple(b for b in BUILDINGS if b in prov.buildings or b == action)
            removed = 0
            event = cards().event(s.current_event)
            if action == "theatre" and event and event.effect == "theatre_calms" and prov.unrest:
                prov.unrest -= 1                 # R-EVENT-1 events 1/2
                removed = 1
            done(events, seat, action, name, paid=card.cost, unrest_removed=removed)
        return None
    if card.kind == "collect":                   # R-EXEC-6/7: a revolt first
        if prov.unrest:
            battle.begin_revolt(s, name, extra=0, then=action)
            s.round = evolve(r, step="battle")
            return battle.drop_decision(s)
        collect(s, seat, action, name, events)
        return None
    if action in ("deploy5", "deploy3"):         # R-EXEC-8
        count = deploy_count(action, s.current_event, player.special)
        if player.money < card.cost:
            lapse(events, seat, action, name, "R-EXEC-3", f"cannot pay {_chests(card.cost)}")
        elif player.supply < count:
            lapse(events, seat, action, name, "R-EXEC-3",
                  f"only {player.supply} armies in supply, {count} needed")
        else:
            player.money -= card.cost
            player.supply -= count
            prov.armies += count
            done(events, seat, action, name, paid=card.cost, armies=count)
        return None
    return start_move(s, seat, action, name, events)


def collect(s: State, seat: int, action: str, name: str, events: Events) -> None:
    player, prov = s.players[seat], s.provinces[name]
    printed = board().provinces[name]
    marker = 1 if s.unrest_left() > 0 else 0  # R-COMP-5
    prov.unrest += marker
    if action == "rice":
        gained = rice_yield(printed.rice, s.current_event, player.special)
        player.rice += gained
        done(events, seat, action, name, rice=gained, unrest_placed=marker)
    else:
        gained = tax_yield(printed.tax, s.current_event, player.special)
        player.money += gained
        done(events, seat, action, name, money=gained, unrest_placed=marker)


def _after_battle(s: State, events: Events) -> None:
    """A battle or revolt during an action is counted; the player's turn ends."""
    bt, result = battle.resolve(s, events)
    # a battle of an action has its province and action, an attack its attacker and origin,
    # a revolt its owner (the defender)
    assert bt.province is not None and bt.action is not None
    if bt.kind == "revolt":
        seat = bt.defender
        assert seat is not None
        if result == "defender":
            collect(s, seat, bt.action, bt.province, events)   # ruling: income after a won revolt
        else:
            done(events, seat, bt.action, bt.province, revolt_lost=True)
    else:
        assert bt.attacker is not None and bt.origin is not None
        done(events, bt.attacker, bt.action, bt.origin, attacked=bt.province, result=result)
    r = current_round(s)
    s.round = evolve(r, step="act", turn=r.turn + 1)
