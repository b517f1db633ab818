"""What the top bar and the info panel say: year and season, who the game waits for and
for what, a held plan's countdown. `StatusLines` is the table scene's part for these
words: it reads the shared display state and the session, is told what only the other
parts know (my move, events still playing, a held plan), and changes nothing but the two
panels' words.

Tests: tests/client/words/test_i18n_layout.py, tests/client/game/test_table_layout.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from client.core import theme
from client.core.settings import SPEEDS
from client.words.seasons import SEASON_HEADINGS, SEASON_WORDS
from lang.i18n import N_, Translated, _, ngettext
from sim.narrate import Nn_
from sim.state import DecisionKind

if TYPE_CHECKING:
    from client.game.table_messages import InfoPanel
    from client.game.table_shared import SceneState
    from client.game.table_view import TopBar
    from client.sessions.interface import GameSession

# what the game waits for: one player or more (Romanian "alege" / "aleg"), or me ("your")
DECISION_WORDS = {
    "plan": Nn_("plan their actions", "plan their actions"),
    "special": Nn_("choose a turn-order position", "choose a turn-order position"),
    "move": Nn_("choose where armies move", "choose where armies move"),
    "draft_take": Nn_("take a draft card", "take a draft card"),
    "draft_place": Nn_("place an army group", "place an army group"),
    "revolt_order": Nn_("order their revolts", "order their revolts")}
MY_DECISION_WORDS = Translated({
    "plan": N_("plan your actions"), "special": N_("choose your turn-order position"),
    "move": N_("choose where your armies move"), "draft_take": N_("take your draft card"),
    "draft_place": N_("place your army group"), "revolt_order": N_("order your revolts")})
def active_seats(session: GameSession) -> tuple[int, ...]:
    """The seats the game waits for (highlighted in the players panel)."""
    try:
        dec = session.decision
        return dec.seats if dec is not None and dec.kind not in (DecisionKind.CHANCE, DecisionKind.OVER) else ()
    except Exception:
        return ()


class StatusLines:
    def __init__(self, session: GameSession, shared: SceneState, topbar: TopBar,
                 info: InfoPanel) -> None:
        self.session = session
        self.shared = shared
        self.topbar = topbar
        self.info = info

    def show_top(self, my_move: bool) -> None:
        """The top bar: year and season, the status sentence, the pace controls."""
        sc = self.shared
        st: Mapping[str, Any] = sc.display or {}
        season = st.get("season") or ""
        title = _("Shogun — year {year}, {season}").format(
            year=st.get("year", 1), season=SEASON_WORDS.get(season, season)) if st else "Shogun"
        status = self.session.status
        if not status:
            if sc.paused:
                status = _("Paused — press Space to go on")
            elif my_move:
                status = _("Your move")
            elif sc.over:
                status = _("Game over")
        speed = "   ".join((
            _("FAST-FORWARD [F]") if sc.fast else
            _("speed ×{speed} [−/+]").format(speed=f"{SPEEDS[sc.speed_idx]:g}"),
            _("PAUSED [Space]") if sc.paused else _("pause [Space]"),
            _("skip drop [S]"), _("menu [Esc]")))
        self.topbar.set_info(title=title, status=status, speed=speed)

    def show_info(self, panel_up: bool, behind: bool, held_seconds: float | None) -> None:
        """The info panel (when no decision panel covers it): the season and its event,
        the turn order, who the game waits for, a held plan's countdown, a hint.
        `panel_up`: a decision panel covers it; `behind`: events are still to be shown."""
        d: Mapping[str, Any] = self.shared.display or {}
        self.info.visible = not panel_up
        if not self.info.visible:
            return
        season = str(d.get("season") or "")
        season = SEASON_HEADINGS.get(season, season)
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
        if behind:
            dec = None        # the engine is ahead of the screen: don't name its next question
        if dec is not None and dec.kind not in (DecisionKind.CHANCE, DecisionKind.TOWER, DecisionKind.OVER):
            who = ", ".join(theme.seat_name(s) if s not in self.session.my_seats else
                            _("{seat} (you)").format(seat=theme.seat_name(s)) for s in dec.seats)
            if all(x in self.session.my_seats for x in dec.seats):
                what = MY_DECISION_WORDS.get(dec.kind, dec.kind)
            else:
                one, more = DECISION_WORDS.get(dec.kind, (dec.kind, dec.kind))
                what = ngettext(one, more, len(dec.seats))
            if dec.kind == DecisionKind.MOVE:
                det = dec.detail or {}
                lines.append(_("Now: {who} — {what} ({action} from {province})").format(
                    who=who, what=what, action=theme.ACTION_SHORT.get(det.get("action"), ""),
                    province=det.get("from")))
            else:
                lines.append(_("Now: {who} — {what}").format(who=who, what=what))
        elif self.shared.over:
            lines.append(_("The game is over."))
        if held_seconds is not None:
            secs = max(1, int(held_seconds + 0.999))
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
