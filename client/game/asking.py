"""The decisions put to the people at this window: planning, moves, turn-order picks,
the draft, revolt order; my locked plan held (against bots) so it can be unlocked; the
commands submitted to the session. `Asker` is the table scene's part for these: it shows
the decision panels and submits commands; the engine decides what is legal.

Signals up: `words_changed()` (the info panel's words need refreshing), `plan_sent(cmd)`
(a plan went straight to a network table), `moment_reached('planning')` (tests take a
screenshot).

Tests: tests/client/board/test_board_clicks.py, tests/client/game/test_comforts_window.py,
tests/client/scenes/test_window.py, tests/client/game/test_undo.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from client.core import theme
from client.core.signal import Signal
from client.words.sentences import for_players, plural, problem_text
from lang.i18n import _
from sim.state import DecisionKind
from sim.commands import SubmitPlan
from sim import game
from sim.legal import plan_problems
from client.words.rules_text import SPECIAL_TIPS
from sim.commands import IllegalCommand
from client.words.net_words import for_players as net_said
from sim import bots
from client.board.why_not import why_not_target
from sim.commands import ChooseMove, DraftPlace, DraftTake, OrderRevolts, PickSpecial

if TYPE_CHECKING:
    from client.game.guide import Guide
    from client.game.table_comforts import TableComforts
    from client.game.table_shared import SceneState, TableViews
    from client.sessions.interface import GameSession
    from client.tower.battle_show import BattleShow
    from sim.commands import Command, SubmitPlan
    from sim.state import State

UNLOCK_SECONDS = 4.0     # a locked plan against bots can be unlocked this long (real time)


def _plan(seat: int, actions: tuple[object, ...], bid: object) -> SubmitPlan:
    """The planning panel's fields as a command; the engine checks what they hold."""
    return SubmitPlan(seat, tuple(actions), bid)  # type: ignore[arg-type]  # the engine checks the cards


@dataclass(frozen=True)
class MoveStep:
    """A move as it stood before its target changed: what one Ctrl+Z goes back to."""

    target: str | None
    count: int
    counts: tuple[int, ...]


@dataclass
class HeldPlan:
    """My locked plan, not yet submitted: U unlocks it until the time is up."""

    cmd: SubmitPlan
    seconds_left: float


class Asker:
    def __init__(self, session: GameSession, shared: SceneState, views: TableViews,
                 battle: BattleShow, guide: Guide, comforts: TableComforts,
                 pump: Callable[[], bool]) -> None:
        self.session = session
        self.shared = shared
        self.views = views
        self.battle = battle
        self.guide = guide
        self.comforts = comforts
        self.pump = pump                    # one automatic step of a local game
        self.words_changed = Signal("words_changed")
        self.plan_sent = Signal("plan_sent")
        self.moment_reached = Signal("moment_reached")
        self.asking: tuple[DecisionKind, int, int] | None = None   # (kind, seat, step) shown to me
        self.move_target: str | None = None
        # the move's earlier targets and their counts, each one Ctrl+Z back (a new target
        # is one change; the count's own steps are the decision panel's)
        self.move_steps: list[MoveStep] = []
        self.move_prompt = ""          # the move's question (a target picked puts it back)
        self.revolt_order: list[str] = []
        self.held: HeldPlan | None = None
        self.planned_last: int | None = None  # the seat whose plan was last shown (hot-seat cover)
        views.decision.undo_asked.connect(self.undo)

    def _engine_state(self) -> State:
        state = self.session.state
        assert state is not None, "a decision is asked only of a game the engine runs"
        return state

    def ask(self) -> None:
        """Show the decision the engine waits for from one of my seats (once per step)."""
        v = self.views
        st = self._engine_state()
        d = game.pending(st)
        seat = next(s for s in d.seats if s in self.session.my_seats)
        key = (d.kind, seat, self.session.step_key())
        if self.asking == key:
            return
        self.asking = key
        self.battle.end()
        self.move_target = None
        self.move_steps = []
        v.info.visible = False
        self.guide.point_at(d.kind)
        pub = self.shared.display or game.public_state(st)
        if d.kind == DecisionKind.PLAN:
            if len(self.session.my_seats) > 1 and seat != self.planned_last:
                self.comforts.cover_for(theme.seat_name(seat))   # hot seat: secret plans
            self.planned_last = seat
            me = pub["players"][str(seat)]
            v.decision.visible = False
            v.planning.visible = True

            def check(actions: tuple[object, ...], bid: object, seat: int = seat) -> list[str]:
                problems = plan_problems(self._engine_state(), _plan(seat, actions, bid))
                return [for_players(p.text).rstrip(".") + "." for p in problems]
            v.planning.start(seat, me.get("cards", []), me.get("money", 0), check)
            v.board_view.set_highlight(me.get("cards", []), (255, 255, 255))
            self.moment_reached.emit("planning")
            return
        v.planning.visible = False
        v.decision.visible = True
        det = d.detail or {}
        if d.kind == DecisionKind.MOVE:
            targets = det.get("targets", {})
            v.board_view.set_highlight(targets.keys(), (255, 215, 0))
            v.board_view.set_selected(det.get("from"))
            act = theme.ACTION_SHORT.get(det.get("action"), det.get("action"))
            prompt = (_("{action} from {province}: click a highlighted province, choose how many "
                        "armies go, then Go. (optional)") if det.get("optional") else
                      _("{action} from {province}: click a highlighted province, choose how many "
                        "armies go, then Go.")).format(action=act, province=det.get("from"))
            opts = [(_("Go [Enter]"), "go", False)]
            if det.get("optional"):
                opts.append((_("Don't move"), "stay", True))
            self.move_prompt = prompt
            v.decision.ask(prompt, opts, counter=(_("armies"), 1, 1, 1), default="go")
        elif d.kind == DecisionKind.SPECIAL:
            cards = det.get("cards", {})
            opts = [(f"#{p} {theme.SPECIAL_LABELS.get(cards.get(str(p)), cards.get(str(p)))}", p, True)
                    for p in det.get("positions", [])]
            tips = {p: _("Place {n} in turn order. {card}").format(
                        n=p, card=SPECIAL_TIPS.get(cards.get(str(p)), "")).strip()
                    for p in det.get("positions", [])}
            v.decision.ask(_("Choose your turn-order position and its special card."), opts, tips=tips)
        elif d.kind == DecisionKind.DRAFT_TAKE:
            up = det.get("up", [])
            opts = [(_("Take {province}").format(province=n), f"up{i}", n is not None)
                    for i, n in enumerate(up)]
            opts.append((_("Top of deck ({n})").format(n=det.get("deck", 0)), "deck", det.get("deck", 0) > 0))
            if det.get("can_refresh"):
                opts.append((_("Refresh the two"), "refresh", True))
            v.board_view.set_highlight([n for n in up if n], (255, 215, 0))
            groups = [int(g) for g in det.get("groups") or []]
            v.decision.ask(_("Draft: take a province card. Army groups still to place: {groups}.").format(
                groups=", ".join(map(str, groups))) if groups else _("Draft: take a province card."), opts)
        elif d.kind == DecisionKind.DRAFT_PLACE:
            opts = [(plural(int(g), "army", "armies"), g, True) for g in det.get("groups", [])]
            v.board_view.set_selected(det.get("province"))
            v.decision.ask(_("Place an army group on {province}.").format(province=det.get("province")), opts)
        elif d.kind == DecisionKind.REVOLT_ORDER:
            self.revolt_order = []
            provs = det.get("provinces", [])
            v.board_view.set_highlight(provs, (230, 40, 40))
            opts = [(p, p, True) for p in provs] + [(_("Done"), "done", False)]
            v.decision.ask(_("Revolts: click the provinces in the order they are fought."), opts)
        else:
            v.decision.ask(_("The game asks: {what}").format(what=d.kind), [])

    def ask_again(self) -> None:
        """Show the current decision again (my plan was unlocked)."""
        self.asking = None
        self.ask()

    def hide_decision(self) -> None:
        self.asking = None
        self.guide.hide()
        self.views.planning.visible = False
        self.views.decision.visible = False
        self.words_changed.emit()
        self.views.board_view.set_highlight(())
        self.views.board_view.set_selected(None)

    def submit(self, cmd: Command) -> None:
        """Send a command; a refusal is said in the log and the question asked again."""
        try:
            self.session.submit(cmd)
        except ValueError as exc:      # the engine's IllegalCommand, or the table's refusal
            if isinstance(exc, IllegalCommand):
                reason = problem_text(exc)
            else:
                reason = net_said(str(exc))
            self.views.log.add_line(_("Not allowed: {reason}").format(reason=reason), (180, 30, 20))
            self.views.sounds.play("refused")
            self.asking = None
            return
        self.hide_decision()

    def plan_locked(self, actions: tuple[object, ...], bid: object) -> None:
        """Against bots (a local game, not fast-forwarding) the plan is held for a few
        seconds before it goes in, so U can unlock it while no plan is open yet."""
        seat = self.asking[1] if self.asking else self.session.my_seats[0]
        cmd = _plan(seat, actions, bid)
        if self.shared.fast or not self.session.runs_in_window or not self.session.my_seats:
            self.plan_sent.emit(cmd)    # for "Unlock plan" while others still plan
            self.submit(cmd)
            return
        self.hide_decision()
        self.views.sounds.play("locked")
        self.held = HeldPlan(cmd, UNLOCK_SECONDS)
        self.words_changed.emit()

    def hold_plan(self, dt: float) -> bool:
        """While my plan is held: bots plan meanwhile; when the time is up it goes in."""
        held = self.held
        assert held is not None
        held.seconds_left -= dt
        if held.seconds_left <= 0:
            self.release_plan()
            return True
        if int(held.seconds_left + dt + 0.999) != int(held.seconds_left + 0.999):
            self.words_changed.emit()           # the countdown moved on
        return self.pump()

    def release_plan(self) -> None:
        """Enter, or the time is up: the held plan goes in."""
        assert self.held is not None
        cmd, self.held = self.held.cmd, None
        self.submit(cmd)

    def unlock_plan(self) -> None:
        """U: back to planning with the held plan on the fields."""
        assert self.held is not None
        cmd, self.held = self.held.cmd, None
        self.ask()
        self.views.planning.load(cmd.actions, cmd.bid)
        self.views.log.add_line(_("Plan unlocked: change it and lock it again."), (30, 110, 40))

    def suggest(self) -> None:
        """B: a legal plan from the heuristic bot on the planning fields."""
        if not self.asking:
            return
        seat = self.asking[1]
        cmd = bots.choose(self._engine_state(), seat, "heuristic", b"suggest" * 4 + bytes(4))
        assert isinstance(cmd, SubmitPlan)
        self.views.planning.load(cmd.actions, cmd.bid)

    def card_selected(self, card: object) -> None:
        self.views.board_view.set_selected(card if isinstance(card, str) else None)

    def province_clicked(self, name: str) -> None:
        """A click on the map answers a plan, a move or a revolt order."""
        v = self.views
        if self.asking is None:
            return
        kind = self.asking[0]
        if kind == DecisionKind.PLAN:
            v.planning.select_card(name)
        elif kind == DecisionKind.MOVE:
            d = game.pending(self._engine_state())
            targets = d.detail.get("targets", {})
            if name == self.move_target:
                return                  # the chosen target again: its count stays as set
            if name in targets:
                counter = v.decision.counter
                self.move_steps.append(MoveStep(self.move_target, counter[3] if counter else 1,
                                                tuple(v.decision.counts)))
                self._show_target(name, int(targets[name]))
            else:   # say why instead of doing nothing (client/board/why_not.py)
                cfg = self.session.config
                v.log.add_line(why_not_target(v.board_view.board, cfg.side, cfg.players,
                                              self.shared.display or game.public_state(self._engine_state()),
                                              self.asking[1], d.detail["from"],
                                              d.detail["action"], name), (180, 30, 20))
        elif kind == DecisionKind.REVOLT_ORDER:
            self.chosen(name, None)

    def _show_target(self, name: str, count: int, counts: tuple[int, ...] = ()) -> None:
        """The move's question with `name` as its target and `count` armies to go;
        `counts`: the counter's earlier values (Ctrl+Z steps back through them)."""
        v = self.views
        d = game.pending(self._engine_state())
        self.move_target = name
        v.board_view.set_selected(name)
        hi = int(d.detail.get("targets", {})[name])
        opts = [(_("Go to {province} [Enter]").format(province=name), "go", True)]
        if d.detail.get("optional"):
            opts.append((_("Don't move"), "stay", True))
        opts.append((_("Undo"), "undo", True))   # back to the target before, or none
        v.decision.ask(self.move_prompt or v.decision.prompt, opts,
                       counter=(_("armies"), 1, hi, count), default="go")
        v.decision.counts = list(counts)

    def undo(self) -> bool:
        """Ctrl+Z or Undo: take back what I chose for the decision shown and have not sent
        yet — a count, the move's target, the revolt order's last province (the plan's
        fields keep their own history). What went to the table stays: it may have met
        another player's action, hidden information or chance."""
        v = self.views
        if self.asking is None:
            return False
        kind = self.asking[0]
        if kind == DecisionKind.PLAN:
            return v.planning.undo()
        if kind == DecisionKind.MOVE:
            if v.decision.undo_count():
                return True
            if self.move_steps:
                step = self.move_steps.pop()
                if step.target is None:
                    self.ask_again()         # no target picked: the first question again
                else:                        # the target before, with the count it had
                    self._show_target(step.target, step.count, step.counts)
                return True
        if kind == DecisionKind.REVOLT_ORDER and self.revolt_order:
            order = self.revolt_order[:-1]
            self.ask_again()
            for name in order:
                self.chosen(name, None)
            return True
        return False

    def _say_no_target(self) -> None:
        """Go (or Enter) before a province was clicked: say what is missing rather than
        nothing; a battle/move action has no pass (R-EXEC-3: an action is carried out
        when it can be, and R-EXEC-10 moves at least 1 army), and the player is told so
        instead of looking for one; Deploy 1's move may be left out (R-EXEC-9), and the
        player is told which button does that."""
        dec = self.views.decision
        det = game.pending(self._engine_state()).detail or {}
        words = [_("First click a highlighted province: where your armies go.")]
        if not det.get("optional"):
            words.append(_("A Battle/move action is carried out whenever it can be: there is "
                           "no pass."))
        else:            # Deploy 1's move may stay (R-EXEC-9): its button says how
            key = next((k + 1 for k, o in enumerate(dec.options) if o[1] == "stay"), 2)
            words.append(_("Or press Don't move [{key}]: the move after Deploy 1 may be left "
                           "out.").format(key=key))
        dec.ask(" ".join(words), dec.options, counter=dec.counter, default=dec.default,
                tips=dec.tips)

    def chosen(self, value: Any, count: int | None) -> None:
        """An answer from the decision panel (or a province for the revolt order)."""
        if not self.asking:
            return
        kind, seat = self.asking[0], self.asking[1]
        if value == "undo":
            self.undo()
            return
        if kind == DecisionKind.MOVE:
            if value == "stay":
                self.submit(ChooseMove(seat, None, 0))
            elif value == "go" and self.move_target:
                self.submit(ChooseMove(seat, self.move_target, int(count or 1)))
            elif value == "go":
                self._say_no_target()
        elif kind == DecisionKind.SPECIAL:
            self.submit(PickSpecial(seat, int(value)))
        elif kind == DecisionKind.DRAFT_TAKE:
            self.submit(DraftTake(seat, value))
        elif kind == DecisionKind.DRAFT_PLACE:
            self.submit(DraftPlace(seat, int(value)))
        elif kind == DecisionKind.REVOLT_ORDER:
            provs = game.pending(self._engine_state()).detail.get("provinces", [])
            if value == "done" or len(self.revolt_order) == len(provs):
                self.submit(OrderRevolts(seat, tuple(self.revolt_order)))
                return
            if value in provs and value not in self.revolt_order:
                self.revolt_order.append(value)
            left = [p for p in provs if p not in self.revolt_order]
            opts = [(p, p, True) for p in left] + [(_("Done"), "done", not left),
                                                    (_("Undo"), "undo", True)]
            self.views.decision.ask(_("Revolt order so far: {order}").format(
                order=" → ".join(self.revolt_order)), opts, default="done" if not left else None)
