"""What the top bar and the info panel say: year and season, who the game waits for and
for what, a held plan's countdown. A mixin of `GameScene` (it reads the scene's display
state and session; it changes nothing but the two panels' words)."""

from __future__ import annotations

from client import theme
from client.settings import SPEEDS

DECISION_WORDS = {"plan": "plan their actions", "special": "choose a turn-order position",
                  "move": "choose where armies move", "draft_take": "take a draft card",
                  "draft_place": "place an army group", "revolt_order": "order their revolts"}


class StatusLines:
    def _topbar(self) -> None:
        st = self.display or {}
        season = st.get("season") or ""
        title = f"Shogun — year {st.get('year', 1)}, {season}" if st else "Shogun"
        status = getattr(self.session, "status", "") or ""
        if not status:
            if self.paused:
                status = "Paused — press Space to go on"
            elif self.asking is not None:
                status = "Your move"
            elif self.over:
                status = "Game over"
        speed = ("FAST-FORWARD [F]" if self.fast else f"speed ×{SPEEDS[self.speed_idx]:g} [−/+]") + \
            ("   PAUSED [Space]" if self.paused else "   pause [Space]") + "   skip drop [S]   menu [Esc]"
        self.topbar.set_info(title=title, status=status, speed=speed)

    def _info(self) -> None:
        d = self.display or {}
        self.info.visible = not (self.planning.visible or self.decision.visible)
        if not self.info.visible:
            return
        season = str(d.get("season") or "").capitalize()
        cur = d.get("current_event")
        lines = [f"{season} of year {d.get('year', 1)}"
                 + (f" — this round's event: {theme.EVENT_TEXT.get(cur, cur)}" if cur else "")]
        players = d.get("players", {})
        order = d.get("turn_order") or []
        if order:
            bits = []
            for s in order:
                p = players.get(str(s), {})
                sp = theme.SPECIAL_LABELS.get(p.get("special"), "")
                bits.append(f"{theme.seat_name(s)}" + (f" ({sp})" if sp else ""))
            lines.append("Turn order: " + " → ".join(bits))
        try:
            dec = self.session.decision
        except Exception:
            dec = None
        behind = bool(self.batch or self.batch_pending or self.session.queue)
        if behind:
            dec = None        # the engine is ahead of the screen: don't name its next question
        if dec is not None and dec.kind not in ("chance", "over"):
            who = ", ".join(theme.seat_name(s) + ("" if s not in self.session.my_seats else " (you)")
                            for s in dec.seats)
            extra = ""
            if dec.kind == "move":
                det = dec.detail or {}
                extra = f" ({theme.ACTION_SHORT.get(det.get('action'), '')} from {det.get('from')})"
            lines.append(f"Now: {who} — {DECISION_WORDS.get(dec.kind, dec.kind)}{extra}")
        elif self.over:
            lines.append("The game is over.")
        if self.held is not None:
            secs = max(1, int(self.held[1] + 0.999))
            lines.append(f"Your plan is locked. The plans open in {secs} "
                         f"{'second' if secs == 1 else 'seconds'} — U unlocks it to change it, "
                         "Enter opens them now.")
        waiting = getattr(self.session, "waiting_text", "")
        if waiting:
            lines.append(waiting)
        if not self.session.my_seats:
            lines.append("You are watching. Space pauses, F fast-forwards, +/− change the pace.")
        else:
            lines.append("Hover a province for its tax, rice, free slots and neighbours. "
                         "Space pauses; F fast-forwards.")
        self.info.set_lines(lines)

    def _active_seats(self):
        try:
            dec = self.session.decision
            return dec.seats if dec.kind not in ("chance", "over") else ()
        except Exception:
            return ()
