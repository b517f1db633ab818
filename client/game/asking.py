"""The decisions put to the people at this window: planning, moves, turn-order picks,
the draft, revolt order; my locked plan held (against bots) so it can be unlocked; the
commands submitted to the session. A mixin of `GameScene`: it shows panels and submits
commands; the engine decides what is legal."""

from __future__ import annotations

from client.core import theme
from client.words.sentences import for_players, plural, problem_text
from lang.i18n import _

UNLOCK_SECONDS = 4.0     # a locked plan against bots can be unlocked this long (real time)


class Asking:
    def _ask(self) -> None:
        from sim import game
        st = self.session.state
        d = game.pending(st)
        seat = next(s for s in d.seats if s in self.session.my_seats)
        key = (d.kind, seat, self.session.step_key())
        if self.asking == key:
            return
        self.asking = key
        self.battle.end()
        self.move_target = None
        self.info.visible = False
        self.guide.point_at(d.kind)
        pub = self.display or game.public_state(st)
        if d.kind == "plan":
            if len(self.session.my_seats) > 1 and seat != self.planned_last:
                self.comforts.cover_for(theme.seat_name(seat))   # hot seat: secret plans
            self.planned_last = seat
            me = pub["players"][str(seat)]
            self.decision.visible = False
            self.planning.visible = True

            def check(actions, bid, seat=seat):
                from sim.commands import SubmitPlan
                from sim.legal import plan_problems
                problems = plan_problems(self.session.state, SubmitPlan(seat, tuple(actions), bid))
                return [for_players(p.text).rstrip(".") + "." for p in problems]
            self.planning.start(seat, me.get("cards", []), me.get("money", 0), check)
            self.board_view.set_highlight(me.get("cards", []), (255, 255, 255))
            self.screenshot_hook.emit("planning")
            return
        self.planning.visible = False
        self.decision.visible = True
        det = d.detail or {}
        if d.kind == "move":
            targets = det.get("targets", {})
            self.board_view.set_highlight(targets.keys(), (255, 215, 0))
            self.board_view.set_selected(det.get("from"))
            act = theme.ACTION_SHORT.get(det.get("action"), det.get("action"))
            prompt = (_("{action} from {province}: click a highlighted province, choose how many "
                        "armies go, then Go. (optional)") if det.get("optional") else
                      _("{action} from {province}: click a highlighted province, choose how many "
                        "armies go, then Go.")).format(action=act, province=det.get("from"))
            opts = [(_("Go [Enter]"), "go", False)]
            if det.get("optional"):
                opts.append((_("Don't move"), "stay", True))
            self.decision.ask(prompt, opts, counter=(_("armies"), 1, 1, 1), default="go")
        elif d.kind == "special":
            cards = det.get("cards", {})
            opts = [(f"#{p} {theme.SPECIAL_LABELS.get(cards.get(str(p)), cards.get(str(p)))}", p, True)
                    for p in det.get("positions", [])]
            from client.words.rules_text import SPECIAL_TIPS
            tips = {p: _("Place {n} in turn order. {card}").format(
                        n=p, card=SPECIAL_TIPS.get(cards.get(str(p)), "")).strip()
                    for p in det.get("positions", [])}
            self.decision.ask(_("Choose your turn-order position and its special card."), opts, tips=tips)
        elif d.kind == "draft_take":
            up = det.get("up", [])
            opts = [(_("Take {province}").format(province=n), f"up{i}", n is not None)
                    for i, n in enumerate(up)]
            opts.append((_("Top of deck ({n})").format(n=det.get("deck", 0)), "deck", det.get("deck", 0) > 0))
            if det.get("can_refresh"):
                opts.append((_("Refresh the two"), "refresh", True))
            self.board_view.set_highlight([n for n in up if n], (255, 215, 0))
            groups = [int(g) for g in det.get("groups") or []]
            self.decision.ask(_("Draft: take a province card. Army groups still to place: {groups}.").format(
                groups=", ".join(map(str, groups))) if groups else _("Draft: take a province card."), opts)
        elif d.kind == "draft_place":
            opts = [(plural(int(g), "army", "armies"), g, True) for g in det.get("groups", [])]
            self.board_view.set_selected(det.get("province"))
            self.decision.ask(_("Place an army group on {province}.").format(province=det.get("province")), opts)
        elif d.kind == "revolt_order":
            self.revolt_order = []
            provs = det.get("provinces", [])
            self.board_view.set_highlight(provs, (230, 40, 40))
            opts = [(p, p, True) for p in provs] + [(_("Done"), "done", False)]
            self.decision.ask(_("Revolts: click the provinces in the order they are fought."), opts)
        else:
            self.decision.ask(_("The game asks: {what}").format(what=d.kind), [])

    def _hide_decision(self) -> None:
        self.asking = None
        self.guide.hide()
        self.planning.visible = False
        self.decision.visible = False
        self._info()
        self.board_view.set_highlight(())
        self.board_view.set_selected(None)

    def _submit(self, cmd) -> None:
        from sim.commands import IllegalCommand
        try:
            self.session.submit(cmd)
        except ValueError as exc:      # the engine's IllegalCommand, or the table's refusal
            if isinstance(exc, IllegalCommand):
                reason = problem_text(exc)
            else:
                from client.words.net_words import for_players
                reason = for_players(str(exc))
            self.log.add(_("Not allowed: {reason}").format(reason=reason), (180, 30, 20))
            self.sounds.play("refused")
            self.asking = None
            return
        self._hide_decision()

    def _on_plan_locked(self, actions, bid) -> None:
        """Against bots (a local game, not fast-forwarding) the plan is held for a few
        seconds before it goes in, so U can unlock it while no plan is open yet."""
        from sim.commands import SubmitPlan
        seat = self.asking[1] if self.asking else self.session.my_seats[0]
        cmd = SubmitPlan(seat, tuple(actions), bid)
        if self.fast or not self.session.runs_in_window or not self.session.my_seats:
            if self.net is not None:
                self.net.remember_plan(cmd)     # for "Unlock plan" while others still plan
            self._submit(cmd)
            return
        self._hide_decision()
        self.sounds.play("locked")
        self.held = [cmd, UNLOCK_SECONDS]
        self._info()

    def _hold_plan(self, dt: float) -> bool:
        """While my plan is held: bots plan meanwhile; when the time is up it goes in."""
        self.held[1] -= dt
        if self.held[1] <= 0:
            self.release_plan()
            return True
        if int(self.held[1] + dt + 0.999) != int(self.held[1] + 0.999):
            self._info()                        # the countdown moved on
        return self.pump_session()

    def release_plan(self) -> None:
        cmd, self.held = self.held[0], None
        self._submit(cmd)

    def unlock_plan(self) -> None:
        """U: back to planning with the held plan on the fields."""
        cmd, self.held = self.held[0], None
        self._ask()
        self.planning.load(cmd.actions, cmd.bid)
        self.log.add(_("Plan unlocked: change it and lock it again."), (30, 110, 40))

    def _on_suggest(self) -> None:
        from sim import bots
        if not self.asking:
            return
        seat = self.asking[1]
        cmd = bots.choose(self.session.state, seat, "heuristic", b"suggest" * 4 + bytes(4))
        self.planning.load(cmd.actions, cmd.bid)

    def _on_card_selected(self, card) -> None:
        self.board_view.set_selected(card if isinstance(card, str) else None)

    def _on_province_clicked(self, name: str) -> None:
        if self.asking is None:
            return
        kind = self.asking[0]
        if kind == "plan":
            self.planning.select_card(name)
        elif kind == "move":
            from sim import game
            d = game.pending(self.session.state)
            targets = d.detail.get("targets", {})
            if name in targets:
                self.move_target = name
                self.board_view.set_selected(name)
                hi = int(targets[name])
                opts = [(_("Go to {province} [Enter]").format(province=name), "go", True)]
                if d.detail.get("optional"):
                    opts.append((_("Don't move"), "stay", True))
                self.decision.ask(self.decision.prompt, opts, counter=(_("armies"), 1, hi, hi), default="go")
            else:   # say why instead of doing nothing (client/board/why_not.py)
                from client.board.why_not import why_not_target
                cfg = self.session.config
                self.log.add(why_not_target(self.board_view.board, cfg.side, cfg.players,
                                            self.display or game.public_state(self.session.state),
                                            self.asking[1], d.detail.get("from"),
                                            d.detail.get("action"), name), (180, 30, 20))
        elif kind == "revolt_order":
            self._on_chosen(name, None)

    def _on_chosen(self, value, count) -> None:
        from sim.commands import ChooseMove, DraftPlace, DraftTake, OrderRevolts, PickSpecial
        if not self.asking:
            return
        kind, seat = self.asking[0], self.asking[1]
        if kind == "move":
            if value == "stay":
                self._submit(ChooseMove(seat, None, 0))
            elif value == "go" and self.move_target:
                self._submit(ChooseMove(seat, self.move_target, int(count or 1)))
        elif kind == "special":
            self._submit(PickSpecial(seat, int(value)))
        elif kind == "draft_take":
            self._submit(DraftTake(seat, value))
        elif kind == "draft_place":
            self._submit(DraftPlace(seat, int(value)))
        elif kind == "revolt_order":
            from sim import game
            provs = game.pending(self.session.state).detail.get("provinces", [])
            if value == "done" or len(self.revolt_order) == len(provs):
                self._submit(OrderRevolts(seat, tuple(self.revolt_order)))
                return
            if value in provs and value not in self.revolt_order:
                self.revolt_order.append(value)
            left = [p for p in provs if p not in self.revolt_order]
            opts = [(p, p, True) for p in left] + [(_("Done"), "done", not left)]
            self.decision.ask(_("Revolt order so far: {order}").format(order=" → ".join(self.revolt_order)), opts,
                              default="done" if not left else None)
