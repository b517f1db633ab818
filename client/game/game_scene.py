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
event batches the session queues, one event at a time. Its parts by idea:
`event_playing.py` (events onto the table), `asking.py` (decisions and commands),
`status_lines.py` (the top bar's and info panel's words), `table_messages.py` (Banner,
InfoPanel), `table_comforts.py` (rules, save, dialogs, tooltips, guide).
"""

from __future__ import annotations

import time

import arcade

from client.game.asking import Asking
from client.board.board_view import BoardView
from client.game.decisions import DecisionPanel
from client.game.event_playing import EventPlaying
from client.core.node import Button, Node, Signal
from client.game.plan_panel import PlanningPanel
from client.core.settings import SPEEDS
from client.game.status_lines import StatusLines
from client.game.table_messages import Banner, InfoPanel
from client.game.table_view import ActionTrack, EventsPanel, LogPanel, PlayersPanel, TopBar
from client.tower.tower_view import TowerView



class GameScene(EventPlaying, Asking, StatusLines, Node):
    def __init__(self, session, *, labels: dict[int, str] | None = None,
                 fast_forward: bool = False, speed: float = 1.0, confirm_leave: bool = True,
                 can_save: bool = False, guide: bool = False, sounds=None) -> None:
        super().__init__("game")
        from sim.board import board
        from sim.tower.drop import GEOMETRY
        self.session = session
        self.leave = Signal("leave")
        self.ended = Signal("ended")
        self.save_as = Signal("save_as")
        from client.core.sound import Sounds
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
        from client.widgets.thinking import ThinkingBadge
        self.thinking = self.add(ThinkingBadge())
        from client.game.winter_show import WinterShow
        self.winter = self.add(WinterShow(self))
        # clickable pace controls in the top bar (the same as the keys)
        self.pace_buttons = []
        for label, key in (("−", arcade.key.MINUS), ("+", arcade.key.EQUAL),
                           ("II", arcade.key.SPACE), (">>", arcade.key.F)):
            b = self.add(Button(label, size=12, color=(110, 80, 65), hover=(150, 110, 85),
                                text_color=(250, 240, 220)))
            b.pressed.connect(lambda k=key: self.on_key_press(k, 0))
            self.pace_buttons.append(b)
        from client.game.table_comforts import TableComforts
        self.comforts = TableComforts(self, confirm_leave=confirm_leave, can_save=can_save,
                                      guide=guide)
        self.net = None     # a network table's pause panel, chat and plan unlock
        if session.table_offers is not None:
            from client.game.net_comforts import NetComforts
            self.net = NetComforts(self, session.table_offers)
        c = self.comforts   # the parts tests and the App reach
        self.dialog, self.help, self.guide, self.help_btn = c.dialog, c.help, c.guide, c.help_btn
        self.guide_dismissed = c.guide.dismissed
        self.planning.visible = False
        self.decision.visible = False
        self.banner.visible = False
        from client.words.table_names import seat_title
        self.labels = labels or {s: seat_title(s, "human" if s in session.my_seats else "bot",
                                               me=s in session.my_seats)
                                 for s in range(cfg.players)}
        # a local bot's level, shown small after its seat ("hard")
        self.notes = {int(s): str(level) for s, level in session.bot_levels.items()}

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
        if session.study is not None:
            from client.game.replay_controls import ReplayControls
            self.replay_controls = ReplayControls(self, session.study)

        self.board_view.province_clicked.connect(self._on_province_clicked)
        self.tower.finished.connect(self._on_tower_finished)
        from client.tower.battle_show import BattleShow
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
        chat_h = self.net.chat_height if self.net is not None else 0
        self.log.set_rect(W - rw, chat_h, rw, H - top_h - ph - eh - chat_h)
        if self.net is not None:
            self.net.layout(W, H, (W - rw, 0, rw, chat_h),
                            (0, bottom_h, W - rw - tw, H - top_h - bottom_h))
        self.track.set_rect(0, bottom_h - 56, W - rw, 56)
        self.planning.set_rect(0, 0, W - rw, bottom_h - 58)
        self.decision.set_rect(0, 0, W - rw, bottom_h - 58)
        self.info.set_rect(0, 0, W - rw, bottom_h - 58)
        bw = min(560, (W - rw - tw) - 40)
        self.banner.set_rect((W - rw - tw - bw) / 2, bottom_h + mid_h / 2 - 70, bw, 150)
        self.winter.set_rect(0, 0, W, H)
        self.thinking.set_rect(W - rw - tw - 290, H - top_h - 40, 280, 32)
        if hasattr(self, "battle"):
            self.battle.layout(W, H, top_h, rw, tw)
        self._topbar()

    # ----------------------------------------------------------------------------- driving
    @property
    def speed(self) -> float:
        return 1000.0 if self.fast else SPEEDS[self.speed_idx]

    def on_update(self, dt: float) -> None:
        if self.net is not None:
            self.net.update()
        self.session.tick()
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
        if self.session.runs_in_window:
            return self.pump_session()
        return False

    def pump_session(self) -> bool:
        """One automatic step of a local game; a bot's decision is computed off the frame
        (at most a few milliseconds of waiting here), with the thinking badge shown."""
        done = self.session.pump(wait=0.004 if not self.fast else self.frame_budget)
        self.thinking.show_for(self.session.thinking, self.session.thinking_since, self.labels)
        return done

    # ----------------------------------------------------------------------------- input
    def on_key_press(self, symbol, modifiers) -> bool:
        k = arcade.key
        if self.comforts.key(symbol, modifiers):     # Esc, F1, Ctrl+S
            return True
        if self.net is not None and self.net.key(symbol):   # T chat, U unlock
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
        if self.net is not None and self.net.type_text(text):
            return True
        return self.comforts.type_text(text)

    def on_mouse_motion(self, x, y, dx, dy) -> None:
        self.comforts.mouse_motion(x, y)

    def animated_nodes(self) -> list:
        """Nodes that change every frame on their own (redrawn even when nothing else is);
        none while an overlay covers them (a repaint would draw over the overlay)."""
        if self.comforts.blocking:
            return []
        return [self.tower] + ([self.thinking] if self.thinking.visible else [])

    # ----------------------------------------------------------------------------- end
    def _summary(self) -> dict:
        e = self.standings or {}
        return {"scores": e.get("scores", {}), "money": e.get("money", {}),
                "winners": e.get("winners", []), "history": self.score_history,
                "labels": self.labels, "players": self.session.config.players}
