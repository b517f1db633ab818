"""What the top bar and the info panel say: year and season, who the game waits for and
for what, a held plan's countdown. A mixin of `GameScene` (it reads the scene's display
state and session; it changes nothing but the two panels' words)."""

from __future__ import annotations

from client.core import theme
from client.core.settings import SPEEDS
from lang.i18n import N_, Translated, _, ngettext

DECISION_WORDS = Translated({
    "plan": N_("plan their actions"), "special": N_("choose a turn-order position"),
    "move": N_("choose where armies move"), "draft_take": N_("take a draft card"),
    "draft_place": N_("place an army group"), "revolt_order": N_("order their revolts")})
SEASON_WORDS = Translated({"spring": N_("spring"), "summer": N_("summer"),
                           "autumn": N_("autumn"), "winter": N_("winter")})


class StatusLines:
    def _topbar(self) -> None:
        st = self.display or {}
        season = st.get("season") or ""
        title = _("Shogun — year {year}, {season}").format(
            year=st.get("year", 1), season=SEASON_WORDS.get(season, season)) if st else "Shogun"
        status = self.session.status
        if not status:
            if self.paused:
                status = _("Paused — press Space to go on")
            elif self.asking is not None:
                status = _("Your move")
            elif self.over:
                status = _("Game over")
        speed = "   ".join((
            _("FAST-FORWARD [F]") if self.fast else
            _("speed ×{speed} [−/+]").format(speed=f"{SPEEDS[self.speed_idx]:g}"),
            _("PAUSED [Space]") if self.paused else _("pause [Space]"),
            _("skip drop [S]"), _("menu [Esc]")))
        self.topbar.set_info(title=title, status=status, speed=speed)

    def _info(self) -> None:
        d = self.display or {}
        self.info.visible = not (self.planning.visible or self.decision.visible)
        if not self.info.visible:
            return
        season = str(d.get("season") or "")
        season = SEASON_WORDS.get(season, season)
        season = season[:1].upper() + season[1:]
        cur = d.get("current_event")
        if cur:
            lines = [_("{season} of year {year} — this round's event: {event}").format(
                season=season, year=d.get("year", 1), event=theme.EVENT_TEXT.get(cur, cur))]
        else:
            lines = [_("{season} of year {year}").format(season=season, year=d.get("year", 1))]
        players = d.get("players", {})
        order = d.get("turn_order") or []
        if order:
            bits = []
            for s in order:
                p = players.get(str(s), {})
                sp = theme.SPECIAL_LABELS.get(p.get("special"), "")
                bits.append(f"{theme.seat_name(s)}" + (f" ({sp})" if sp else ""))
            lines.append(_("Turn order: {order}").format(order=" → ".join(bits)))
        try:
            dec = self.session.decision
        except Exception:
            dec = None
        behind = bool(self.batch or self.batch_pending or self.session.queue)
        if behind:
            dec = None        # the engine is ahead of the screen: don't name its next question
        if dec is not None and dec.kind not in ("chance", "over"):
            who = ", ".join(theme.seat_name(s) if s not in self.session.my_seats else
                            _("{seat} (you)").format(seat=theme.seat_name(s)) for s in dec.seats)
            what = DECISION_WORDS.get(dec.kind, dec.kind)
            if dec.kind == "move":
                det = dec.detail or {}
                lines.append(_("Now: {who} — {what} ({action} from {province})").format(
                    who=who, what=what, action=theme.ACTION_SHORT.get(det.get("action"), ""),
                    province=det.get("from")))
            else:
                lines.append(_("Now: {who} — {what}").format(who=who, what=what))
        elif self.over:
            lines.append(_("The game is over."))
        if self.held is not None:
            secs = max(1, int(self.held[1] + 0.999))
            lines.append(ngettext(
                "Your plan is locked. The plans open in {n} second — U unlocks it to change it, "
                "Enter opens them now.",
                "Your plan is locked. The plans open in {n} seconds — U unlocks it to change it, "
                "Enter opens them now.", secs).format(n=secs))
        waiting = self.session.waiting_text
        if waiting:
            lines.append(waiting)
        if not self.session.my_seats:
            lines.append(_("You are watching. Space pauses, F fast-forwards, +/− change the pace."))
        else:
            lines.append(_("Hover a province for its tax, rice, free slots and neighbours. "
                           "Space pauses; F fast-forwards."))
        self.info.set_lines(lines)

    def _active_seats(self):
        try:
            dec = self.session.decision
            return dec.seats if dec.kind not in ("chance", "over") else ()
        except Exception:
            return ()
