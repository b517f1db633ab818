"""Moving armies: R-EXEC-9 (deploy/move 1), R-EXEC-10 (battle/move A and B), R-EXEC-11
(sea routes are borders), R-EXEC-12 (no limit to armies in a province).

The target and count are chosen when the action is carried out; `sim.legal.move_targets`
says where armies may go. Moving into another player's or a neutral province starts a
battle (`battle.begin_attack`).

Tests: tests/sim/rules/test_exec.py.
"""

from __future__ import annotations

from typing import Any

from sim.commands import ChooseMove
from sim.legal import move_targets
from sim.rules import battle
from sim.rules.flow import Events, current_round, done, lapse, wait
from sim.progress import evolve
from sim.state import Decision, DecisionKind, State


def start_move(s: State, seat: int, action: str, name: str, events: Events) -> Decision | None:
    """deploy1 places its army then may move; battle actions must move when they can."""
    player, prov = s.players[seat], s.provinces[name]
    if action == "deploy1":
        if player.money < 1:
            lapse(events, seat, action, name, "R-EXEC-3", "cannot pay 1 chest")
            return None
        if player.supply < 1:
            lapse(events, seat, action, name, "R-EXEC-3", "no army is left in supply")
            return None
        player.money -= 1
        player.supply -= 1
        prov.armies += 1
        targets = move_targets(s, seat, name, action)
        if not targets:
            done(events, seat, action, name, paid=1, armies=1)
            return None
        return _ask(s, seat, name, action, targets, optional=True)
    targets = move_targets(s, seat, name, action)
    if not targets:
        why = "needs at least 2 armies" if prov.armies < 2 else "has no province it may enter"
        lapse(events, seat, action, name, "R-EXEC-3", f"{name} {why}")
        return None
    return _ask(s, seat, name, action, targets, optional=False)


def _ask(s: State, seat: int, name: str, action: str, targets: dict[str, int],
         optional: bool) -> Decision:
    s.round = evolve(current_round(s), step="move")
    detail: dict[str, Any] = {"from": name, "action": action, "targets": targets,
                              "optional": optional}
    return wait(DecisionKind.MOVE, (seat,), **detail)


def on_choose(s: State, cmd: ChooseMove, events: Events) -> None:
    d = s.decision.detail
    origin, action = d["from"], d["action"]
    seat = cmd.seat
    r = current_round(s)
    finished = evolve(r, step="act", turn=r.turn + 1)
    if cmd.target is None:
        done(events, seat, action, origin, paid=1, armies=1)
        s.round = finished
        return
    src, dst = s.provinces[origin], s.provinces[cmd.target]
    src.armies -= cmd.count
    if dst.owner == seat:
        dst.armies += cmd.count
        events.append({"event": "Moved", "seat": seat, "from": origin, "to": cmd.target,
                       "count": cmd.count})
        if action == "deploy1":
            done(events, seat, action, origin, paid=1, armies=1, moved_to=cmd.target)
        else:
            done(events, seat, action, origin, moved_to=cmd.target)
        s.round = finished
        return
    battle.begin_attack(s, seat, origin, cmd.target, cmd.count, action)
    s.round = evolve(r, step="battle")
