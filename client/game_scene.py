"""The table scene: board, tower, panels; plays a session's events at a readable pace.

Tree: GameScene
  ├─ TopBar           year/season, status, speed
  ├─ BoardView        the map                    (signals: province_clicked/hovered)
  ├─ TowerView        the battle tower           (signal: finished)
  ├─ PlayersPanel / EventsPanel / LogPanel
  ├─ ActionTrack
  ├─ PlanningPanel    when my seat plans          (signals: locked, suggest)
  ├─ DecisionPanel    other decisions             (signal: chosen)
  ├─ Banner           battle results, winter, messages
  ├─ Dialog           "Leave this game?", "Save as…" (modal; the game waits)
  └─ HelpOverlay      the rules (F1; modal)
Signals up to the app: `leave()` (back to the menu, after asking if `confirm_leave`),
`ended(summary)`, `save_as(name)` (Ctrl+S or the Save button, when `can_save`).

The scene never changes game state: it submits commands to the session and animates the
event batches the session queues, one event at a time.
"""

from __future__ import annotations

import time

import arcade

from client import theme
from client.board_view import BoardView
from client.decisions import DecisionPanel
from client.describe import describe
from client.node import Button, Node, Signal, TextCache, damage
from client.planning import PlanningPanel
from client.table_view import (ActionTrack, CachedPanel, EventsPanel, LogPanel, PlayersPanel,
                                TopBar)
from client.tower_view import TowerView
from client.words import for_players, plural, problem_text

SPEEDS = (0.5, 1.0, 2.0, 4.0)
UNLOCK_SECONDS = 4.0     # a locked plan against bots can be unlocked this long (real time)

# seconds an event holds the stage at speed 1
PACE = {"ActionDone": 0.45, "ActionLapsed": 0.35, "Moved": 0.5, "BattleResolved": 2.2,
        "ActionStarted": 0.5, "ActionRevealed": 0.3, "TurnOrderSet": 0.9, "EventDrawn": 0.9, "RoundStarted": 0.8,
        "YearStarted": 1.2, "WinterStarted": 1.5, "Shortage": 1.2, "Scored": 0.9,
        "PlanRevealed": 0.25, "GameEnded": 1.0}


class Banner(Node):
    """A message box over the board for a while (battle results, winter, pauses)."""

    def __init__(self) -> None:
        super().__init__("banner")
        self.lines: list[str] = []
        self.colour = (40, 30, 25)
        self.timer = 0.0
        self.sticky = False
        self._text = TextCache()

    def show(self, lines, seconds: float = 2.0, colour=(40, 30, 25), sticky: bool = False) -> None:
        self.lines = [l for l in lines if l]
        if self.parent is not None:
            est = sum(1 + len(l) // max(20, int(self.width / 7.5)) for l in self.lines)
            h = 36 + 19 * est
            self.set_rect(self.left, self.bottom + self.height / 2 - h / 2, self.width, h)
        self.timer = seconds
        self.colour = colour
        self.sticky = sticky
        self.visible = bool(self.lines)
        self.mark_dirty()

    def hide(self) -> None:
        if self.visible:
            damage()
        self.visible = False
        self.sticky = False

    def on_update(self, dt) -> None:
        if self.visible and not self.sticky:
            self.timer -= dt
            if self.timer <= 0:
                self.visible = False
                damage()

    def rebuild(self) -> None:
        self._text.begin()
        y = self.top - 14
        for k, line in enumerate(self.lines[:8]):
            t = self._text.put(k, line, self.left + self.width / 2, y, size=13 if k == 0 else 10.5,
                               bold=k == 0, anchor_x="center", anchor_y="top", color=(255, 248, 230),
                               width=int(self.width - 20), multiline=True, align="center")
            y -= max(22 if k == 0 else 17, t.content_height + 3)
        self._text.end()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (*self.colour, 225))
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height, (240, 200, 120), 2)
        self._text.draw()


class InfoPanel(CachedPanel):
    """What is going on, while it is not my turn: round, turn order, who acts now."""

    def __init__(self) -> None:
        super().__init__("info")
        self.lines: list[str] = []

    def set_lines(self, lines) -> None:
        lines = list(lines)
        if lines != self.lines:
            self.lines = lines
            self.mark_dirty()

    def paint(self, text) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (240, 233, 216))
        arcade.draw_lbwh_rectangle_outline(self.left, self.bottom, self.width, self.height, (120, 105, 85), 1)
        y = self.top - 22
        for k, line in enumerate(self.lines[:6]):
            text.put(k, line, self.left + 12, y, size=12 if k == 0 else 10.5, bold=k == 0,
                     color=theme.INK if k else (60, 40, 30))
            y -= 24


DECISION_WORDS = {"plan": "plan their actions", "special": "choose a turn-order position",
                  "move": "choose where armies move", "draft_take": "take a draft card",
                  "draft_place": "place an army group", "revolt_order": "order their revolts"}


class GameScene(Node):
    def __init__(self, session, *, labels: dict[int, str] | None = None,
                 fast_forward: bool = False, speed: float = 1.0, confirm_leave: bool = True,
                 can_save: bool = False, guide: bool = False, sounds=None) -> None:
        super().__init__("game")
        from sim.board import board
        from sim.tower import GEOMETRY
        self.session = session
        self.leave = Signal("leave")
        self.ended = Signal("ended")
        self.save_as = Signal("save_as")
        from client.sound import Sounds
        self.sounds = sounds or Sounds(mute=True)
        self.screenshot_hook = Signal("screenshot")   # (tag) for tests: 'planning', 'tower', ...
        cfg = session.config
        self.board = board()
        self.topbar = self.add(TopBar())
        self.board_view = self.add(BoardView(self.board, cfg.side, cfg.players))
        self.tower = self.add(TowerView(GEOMETRY))
        self.players = self.add(PlayersPanel())
        self.events_panel = self.add(EventsPanel())
        self.log = self.add(LogPanel())
        self.track = self.add(ActionTrack())
        self.planning = self.add(PlanningPanel())
        self.decision = self.add(DecisionPanel())
        self.info = self.add(InfoPanel())
        self.banner = self.add(Banner())
        from client.winter_show import WinterShow
        self.winter = self.add(WinterShow(self))
        # clickable pace controls in the top bar (the same as the keys)
        self.pace_buttons = []
        for label, key in (("−", arcade.key.MINUS), ("+", arcade.key.EQUAL),
                           ("II", arcade.key.SPACE), (">>", arcade.key.F)):
            b = self.add(Button(label, size=12, color=(110, 80, 65), hover=(150, 110, 85),
                                text_color=(250, 240, 220)))
            b.pressed.connect(lambda k=key: self.on_key_press(k, 0))
            self.pace_buttons.append(b)
        from client.table_comforts import TableComforts
        self.comforts = TableComforts(self, confirm_leave=confirm_leave, can_save=can_save,
                                      guide=guide)
        c = self.comforts   # the parts tests and the App reach
        self.dialog, self.help, self.guide, self.help_btn = c.dialog, c.help, c.guide, c.help_btn
        self.guide_dismissed = c.guide.dismissed
        self.planning.visible = False
        self.decision.visible = False
        self.banner.visible = False
        self.labels = labels or {s: ("you" if s in session.my_seats else "bot")
                                 for s in range(cfg.players)}

        self.speed_idx = SPEEDS.index(speed) if speed in SPEEDS else 1
        self.fast = fast_forward
        self.paused = False
        self.wait = 0.0
        self.batch: list = []
        self.batch_state = None
        self.batch_pending = False
        self.display: dict | None = None
        self.asking = None          # the decision currently shown to me
        self.move_target: str | None = None
        self.current_slot: int | None = None
        self.revolt_order: list[str] = []
        self.score_history: dict[int, list[int]] = {s: [0] for s in range(cfg.players)}
        self.standings = None
        self.scoring: list = []
        self.over = False
        self.playing_event: dict | None = None   # the event being played (tests read it)
        self.drop_line: str | None = None        # the drop's log line, held until it lands
        self.last_drop = None        # (before wire, recording) of the newest drop
        self.frame_budget = 0.012    # seconds of engine/event work per frame in fast-forward
        self.held = None             # [plan, seconds left]: my locked plan, still unlockable
        self.planned_last = None     # the seat whose plan was last shown (hot-seat cover)
        self.replay_controls = None  # ← → PgUp PgDn Home when studying a save
        if getattr(session, "seekable", False):
            from client.replay_controls import ReplayControls
            self.replay_controls = ReplayControls(self)

        self.board_view.province_clicked.connect(self._on_province_clicked)
        self.tower.finished.connect(self._on_tower_finished)
        from client.battle_show import BattleShow
        self.battle = BattleShow(self)
        self.planning.locked.connect(self._on_plan_locked)
        self.planning.suggest.connect(self._on_suggest)
        self.planning.card_selected.connect(self._on_card_selected)
        self.decision.chosen.connect(self._on_chosen)

    # ----------------------------------------------------------------------------- layout
    def on_layout(self) -> None:
        W, H = self.width, self.height
        rw = max(280, min(340, W * 0.25))
        top_h = 34
        bottom_h = 220 if H >= 700 else 190
        tw = max(150, min(210, W * 0.15))
        self.topbar.set_rect(0, H - top_h, W, top_h)
        for k, b in enumerate(self.pace_buttons):
            b.set_rect(W - 190 + 46 * k, H - top_h + 4, 40, top_h - 8)
        self.comforts.layout(W, H, top_h, board_bottom=bottom_h)
        mid_h = H - top_h - bottom_h
        self.board_view.set_rect(0, bottom_h, W - rw - tw, mid_h)
        self.tower.set_rect(W - rw - tw, bottom_h, tw, mid_h)
        n = self.session.config.players
        ph = min(n * 74 + 6, (H - top_h) * 0.5)
        self.players.set_rect(W - rw, H - top_h - ph, rw, ph)
        eh = 118
        self.events_panel.set_rect(W - rw, H - top_h - ph - eh, rw, eh)
        self.log.set_rect(W - rw, 0, rw, H - top_h - ph - eh)
        self.track.set_rect(0, bottom_h - 56, W - rw, 56)
        self.planning.set_rect(0, 0, W - rw, bottom_h - 58)
        self.decision.set_rect(0, 0, W - rw, bottom_h - 58)
        self.info.set_rect(0, 0, W - rw, bottom_h - 58)
        bw = min(560, (W - rw - tw) - 40)
        self.banner.set_rect((W - rw - tw - bw) / 2, bottom_h + mid_h / 2 - 70, bw, 150)
        self.winter.set_rect(0, 0, W, H)
        if hasattr(self, "battle"):
            self.battle.layout(W, H, top_h, rw, tw)
        self._topbar()

    # ----------------------------------------------------------------------------- driving
    @property
    def speed(self) -> float:
        return 1000.0 if self.fast else SPEEDS[self.speed_idx]

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

    def on_update(self, dt: float) -> None:
        pump = getattr(self.session, "tick", None)
        if pump is not None:
            pump()
        if self.comforts.blocking:
            return                      # a question or the rules are open: the table waits
        self.tower.set_speed(self.speed if not self.fast else 50)
        if self.paused:
            self._topbar()
            return
        deadline = time.perf_counter() + (self.frame_budget if self.fast else 0.004)
        while True:
            if not self._advance(dt) or self.paused:     # a replay step may pause
                break
            dt = 0.0
            if time.perf_counter() > deadline:
                break
        self._topbar()

    def _advance(self, dt: float) -> bool:
        """Do one piece of work; True if more may be done in this frame."""
        if self.tower.playing or self.winter.holding:
            return False
        if self.wait > 0:
            self.wait -= dt * self.speed
            if self.wait > 0:
                return False
        if self.batch:
            self._play_event(self.batch.pop(0))
            return True
        if self.batch_pending:
            self.batch_pending = False
            self._finish_batch()
            return True
        q = self.session.queue
        if q:
            events, state = q.popleft()
            self.batch = list(events)
            self.batch_state = state
            self.batch_pending = True
            if self.info.visible:
                self._info()        # no "Now: …" while these events play
            return True
        if self.over:
            return False
        if self.held is not None:
            return self._hold_plan(dt)
        if self.session.waiting_for_me():
            self._ask()
            return False
        if self.asking is not None:
            self._hide_decision()
        if getattr(self.session, "kind", "") == "local":
            return self.session.pump()
        return False

    # ----------------------------------------------------------------------------- events
    def _play_event(self, e: dict) -> None:
        from sim.snapshot import public_state  # noqa: F401  (import check only)
        k = e.get("event")
        self.playing_event = e
        if k == "TowerDropped":
            self.screenshot_hook.emit("tower_coming")   # tests may slow down for this drop
        if self.battle.active and k != "BattleResolved":
            self.battle.end()          # the result has been shown: back to the table
        line = describe(e)
        if line and k == "TowerDropped" and e.get("replay"):
            self.drop_line = line      # what came out: logged once the cubes have landed
            line = None
        if line:
            colour = theme.INK
            if k in ("BattleResolved", "Shortage"):
                colour = (150, 40, 30)
            elif k in ("YearStarted", "RoundStarted", "WinterStarted", "GameEnded"):
                colour = (30, 70, 140)
            self.log.add(line, colour)
        self.wait = PACE.get(k, 0.0)
        d = self.display
        if k == "Snapshot" and isinstance(e.get("state"), dict):
            self._set_display(e["state"])
        elif k == "ProvinceClaimed" and d:
            d["provinces"][e["province"]].update(owner=e["seat"], armies=e["armies"])
            self.board_view.set_state(d)
        elif k == "Moved" and d:
            d["provinces"][e["from"]]["armies"] -= e["count"]
            to = d["provinces"][e["to"]]
            if to.get("owner") == e["seat"]:
                to["armies"] += e["count"]
            self.board_view.set_state(d)
        elif k == "ActionDone" and d and e.get("armies_placed"):
            d["provinces"][e["province"]]["armies"] += e["armies_placed"]
            self.board_view.set_state(d)
        elif k in ("ActionStarted", "ActionRevealed"):
            if k == "ActionStarted":
                self.current_slot = e.get("slot")
            if d:
                acts = list(d.get("actions") or [None] * 10)
                acts[e["slot"] - 1] = e["action"]
                d["actions"] = acts
            self.track.set_track(d.get("actions") if d else None, self.current_slot, "")
        elif k == "RoundStarted":
            self.current_slot = None
        elif k == "TowerDropped":
            self._drop(e, self.battle.start(e, self.batch, self.display))
        elif k == "BattleResolved":
            self._battle_banner(e)
            if not self.fast:
                self.sounds.play("sting")
            if d:
                p = d["provinces"][e["province"]]
                p["owner"] = e.get("new_owner")
                p["armies"] = e.get("survivors", 0) if e.get("new_owner") is not None else 0
                if e.get("new_owner") is None:
                    p["buildings"], p["unrest"] = [], 0
                self.board_view.set_state(d)
            self.screenshot_hook.emit("battle")
        elif k == "WinterStarted":
            self.banner.show([f"Winter of year {e['year']}",
                              f"Everyone loses {e['rice_loss']} rice; shortages cause revolts."],
                             2.5 / max(1.0, self.speed), colour=(40, 60, 90))
        elif k == "Shortage":
            self.banner.show([f"{theme.seat_name(e['seat'])}: rice shortage {e['shortage']}",
                              f"{plural(e['revolts'], 'revolt')}: " + ", ".join(e.get("drawn", []) or [])],
                             2.0 / max(1.0, self.speed), colour=(90, 50, 30))
        elif k == "Scored":
            self.score_history.setdefault(e["seat"], [0]).append(e["score"])
            self.scoring.append(e)
            if not any(x.get("event") == "Scored" for x in self.batch):
                last = any(x.get("event") == "GameEnded" for x in self.batch)
                self.winter.show(self.scoring, last)
                self._scoring_banner()
        elif k == "GameEnded":
            self.over = True
            self.standings = e
            self.sounds.play("ended")
        if self.fast:
            self.wait = 0.0

    def _finish_batch(self) -> None:
        from sim.game import public_state
        self.battle.end()
        if self.replay_controls is not None:
            self.replay_controls.batch_done()
        state, self.batch_state = self.batch_state, None
        if state is None:          # a replayed log: no engine state, the Snapshots rule
            if self.over and self.standings is not None and not self.session.queue:
                self.ended.emit(self._summary())
            return
        self._set_display(public_state(state))
        if self.over and self.standings is not None and not self.session.queue:
            self.ended.emit(self._summary())

    def _set_display(self, pub: dict) -> None:
        import copy
        self.display = copy.deepcopy(pub)
        d = self.display
        self.board_view.set_state(d)
        self.players.set_state(d, self.labels, active=self._active_seats(),
                               me=self.session.my_seats)
        self.track.set_track(d.get("actions"), self.current_slot, d.get("season") or "")
        self.events_panel.set_events(d.get("year"), d.get("season"), d.get("events"),
                                     d.get("current_event"))
        tower = d.get("tower") or {}
        self.tower.set_tray(tower.get("tray"))
        self._topbar()
        self._info()

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

    def _drop(self, e: dict, caption: str) -> None:
        rep = e.get("replay")
        if not rep:
            return
        from sim import tower
        res = tower.drop(tower.TowerContents.from_wire(rep["before"]),
                         {int(c): int(n) for c, n in rep["thrown"]},
                         bytes.fromhex(rep["seed"]), record=True)
        self.last_drop = (rep, res)
        self.tower.set_tray({})
        self.tower.play(res.recording, caption)
        self.screenshot_hook.emit("tower_start")
        if self.fast:
            self.tower.skip()

    def _on_tower_finished(self) -> None:
        if self.drop_line:
            self.log.add(self.drop_line, theme.INK)
            self.drop_line = None
        self.screenshot_hook.emit("tower_end")

    def _scoring_banner(self) -> None:
        year = (self.display or {}).get("year", "")
        lines = [f"Winter scoring — year {year}"]
        for e in sorted(self.scoring, key=lambda x: -x.get("gained", 0)):
            # the majorities are marked on the map (client/winter_show.py); here the sums
            lines.append(f"{theme.seat_name(e['seat'])} +{e['gained']} (now {e['score']}): "
                         f"{plural(e['provinces'], 'province')}, {plural(e['buildings'], 'building')}, "
                         f"{e.get('majority_points', 0)} for majorities")
        self.scoring = []
        i = self.info                   # below the map (the marks are on it), over the info panel
        self.banner.set_rect(i.left, i.bottom, i.width, i.height)
        self.banner.show(lines, 4.0 / max(1.0, self.speed if not self.fast else 1.0),
                         colour=(35, 55, 45))
        self.wait = max(self.wait, 3.0)

    def _battle_banner(self, e: dict) -> None:
        kind = {"revolt": "Revolt", "neutral": "Attack on a neutral province"}.get(e.get("kind"), "Battle")
        att, dfn = e.get("attacker"), e.get("defender")
        res = e.get("result")
        winner = {"attacker": theme.seat_name(att), "defender": theme.seat_name(dfn)}.get(res, "Draw")
        owner = e.get("new_owner")
        lines = [f"{kind} in {e.get('province')}",
                 f"Out of the tower: {theme.seat_name(att)} {e.get('attacker_count')}  vs  "
                 f"{theme.seat_name(dfn)} {e.get('defender_count')}",
                 f"{winner} wins" if res != "draw" else "A draw: the province falls empty",
                 f"{plural(int(e.get('survivors', 0)), 'army', 'armies')} "
                 f"{'survives' if e.get('survivors', 0) == 1 else 'survive'} — "
                 + (f"{e.get('province')} belongs to {theme.seat_name(owner)}" if owner is not None
                    else f"{e.get('province')} is neutral")]
        self.banner.show(lines, 2.4 / max(1.0, self.speed if not self.fast else 1000),
                         colour=theme.mix((40, 30, 25), theme.seat_colour(att), 0.25))

    # ----------------------------------------------------------------------------- decisions
    def _ask(self) -> None:
        from sim import game
        st = self.session.state
        d = game.pending(st)
        seat = next(s for s in d.seats if s in self.session.my_seats)
        key = (d.kind, seat, getattr(self.session, "step_key", lambda: len(self.session.commands))())
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
                return [p.text[:1].upper() + p.text[1:] + "." for p in problems]
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
            prompt = (f"{act} from {det.get('from')}: click a highlighted province, choose how many "
                      f"armies go, then Go." + (" (optional)" if det.get("optional") else ""))
            opts = [("Go [Enter]", "go", False)]
            if det.get("optional"):
                opts.append(("Don't move", "stay", True))
            self.decision.ask(prompt, opts, counter=("armies", 1, 1, 1), default="go")
        elif d.kind == "special":
            cards = det.get("cards", {})
            opts = [(f"#{p} {theme.SPECIAL_LABELS.get(cards.get(str(p)), cards.get(str(p)))}", p, True)
                    for p in det.get("positions", [])]
            from client.rules_text import SPECIAL_TIPS
            tips = {p: f"Place {p} in turn order. " + SPECIAL_TIPS.get(cards.get(str(p)), "")
                    for p in det.get("positions", [])}
            self.decision.ask("Choose your turn-order position and its special card.", opts, tips=tips)
        elif d.kind == "draft_take":
            up = det.get("up", [])
            opts = [(f"Take {n}", f"up{i}", n is not None) for i, n in enumerate(up)]
            opts.append((f"Top of deck ({det.get('deck', 0)})", "deck", det.get("deck", 0) > 0))
            if det.get("can_refresh"):
                opts.append(("Refresh the two", "refresh", True))
            self.board_view.set_highlight([n for n in up if n], (255, 215, 0))
            groups = [int(g) for g in det.get("groups") or []]
            left = (f" Army groups still to place: {', '.join(map(str, groups))}." if groups else "")
            self.decision.ask(f"Draft: take a province card.{left}", opts)
        elif d.kind == "draft_place":
            opts = [(plural(int(g), "army", "armies"), g, True) for g in det.get("groups", [])]
            self.board_view.set_selected(det.get("province"))
            self.decision.ask(f"Place an army group on {det.get('province')}.", opts)
        elif d.kind == "revolt_order":
            self.revolt_order = []
            provs = det.get("provinces", [])
            self.board_view.set_highlight(provs, (230, 40, 40))
            opts = [(p, p, True) for p in provs] + [("Done", "done", False)]
            self.decision.ask("Revolts: click the provinces in the order they are fought.", opts)
        else:
            self.decision.ask(f"The game asks: {d.kind}", [])

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
        except IllegalCommand as exc:
            self.log.add(f"Not allowed: {problem_text(exc)}", (180, 30, 20))
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
        if self.fast or getattr(self.session, "kind", "") != "local" or not self.session.my_seats:
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
        return self.session.pump()

    def release_plan(self) -> None:
        cmd, self.held = self.held[0], None
        self._submit(cmd)

    def unlock_plan(self) -> None:
        """U: back to planning with the held plan on the fields."""
        cmd, self.held = self.held[0], None
        self._ask()
        self.planning.load(cmd.actions, cmd.bid)
        self.log.add("Plan unlocked: change it and lock it again.", (30, 110, 40))

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
                opts = [(f"Go to {name} [Enter]", "go", True)]
                if d.detail.get("optional"):
                    opts.append(("Don't move", "stay", True))
                self.decision.ask(self.decision.prompt, opts, counter=("armies", 1, hi, hi), default="go")
            else:   # say why instead of doing nothing (client/why_not.py)
                from client.why_not import why_not_target
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
            opts = [(p, p, True) for p in left] + [("Done", "done", not left)]
            self.decision.ask("Revolt order so far: " + " → ".join(self.revolt_order), opts,
                              default="done" if not left else None)

    # ----------------------------------------------------------------------------- input
    def on_key_press(self, symbol, modifiers) -> bool:
        k = arcade.key
        if self.comforts.key(symbol, modifiers):     # Esc, F1, Ctrl+S
            return True
        if self.replay_controls is not None and self.replay_controls.key(symbol):
            self._topbar()
            return True
        if self.held is not None and symbol in (k.U, k.ENTER, k.RETURN, k.NUM_ENTER):
            self.unlock_plan() if symbol == k.U else self.release_plan()
            return True
        if symbol == k.SPACE:
            self.paused = not self.paused
        elif symbol == k.F:
            self.fast = not self.fast
        elif symbol in (k.PLUS, k.EQUAL, k.NUM_ADD):
            self.speed_idx = min(len(SPEEDS) - 1, self.speed_idx + 1)
        elif symbol in (k.MINUS, k.NUM_SUBTRACT):
            self.speed_idx = max(0, self.speed_idx - 1)
        elif symbol == k.S:
            if not self.winter.skip():
                self.tower.skip()
        else:
            return False
        self._topbar()
        return True

    def type_text(self, text: str) -> bool:
        return self.comforts.type_text(text)

    def on_mouse_motion(self, x, y, dx, dy) -> None:
        self.comforts.mouse_motion(x, y)

    def animated_nodes(self) -> list:
        """Nodes that change every frame on their own (redrawn even when nothing else is);
        none while an overlay covers them (a repaint would draw over the overlay)."""
        return [] if self.comforts.blocking else [self.tower]

    # ----------------------------------------------------------------------------- end
    def _summary(self) -> dict:
        e = self.standings or {}
        return {"scores": e.get("scores", {}), "money": e.get("money", {}),
                "winners": e.get("winners", []), "history": self.score_history,
                "labels": self.labels, "players": self.session.config.players}
