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
Signals up to the app: `leave_chosen()` (back to the menu, after asking if
`confirm_leave`), `ended(summary)`, `save_asked(name)` (Ctrl+S or the Save button, when
`can_save`), `moment_reached(tag)` (for tests: 'planning', 'tower_start', 'battle', …),
`event_played(event, coming)` (each event once shown, with the rest of its batch: the
tutorial's coach follows the game by it).

The scene never changes game state: it submits commands to the session and animates the
event batches the session queues, one event at a time. It owns its nodes and composes
parts that own their state, each built with the collaborators it needs: `EventPlayer`
(event_playing.py: events onto the table), `Asker` (asking.py: decisions and commands),
`StatusLines` (status_lines.py: the top bar's and info panel's words), `TableComforts`
(table_comforts.py: rules, save, dialogs, tooltips, guide), `NetComforts`
(net_comforts.py: a network table's pause panel, chat, unlock) and `ReplayControls`. The
scene calls down; parts signal up. What several parts read (pace, display, labels) is
one declared record, `SceneState` (table_shared.py).

Tests: tests/client/scenes/test_window.py, tests/client/game/test_table_layout.py,
tests/client/game/test_comforts_window.py, tests/client/game/test_net_comforts.py.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import arcade

from client.board.board_view import BoardView
from client.core.button import Button
from client.core.node import Node, NodeT
from client.core.signal import Signal
from client.core.settings import SPEEDS
from client.core.sound import Sounds
from client.game.asking import Asker, HeldPlan
from client.game.decisions import DecisionPanel
from client.game.event_playing import EventPlayer
from client.game.net_comforts import NetComforts
from client.game.plan_panel import PlanningPanel
from client.game.replay_controls import ReplayControls
from client.game.status_lines import StatusLines
from client.game.table_comforts import TableComforts
from client.game.table_messages import Banner, InfoPanel
from client.game.table_shared import SceneState, TableViews
from client.game.table_view import ActionTrack, EventsPanel, LogPanel, PlayersPanel, TopBar
from client.game.winter_show import WinterShow
from client.sessions.interface import GameSession
from client.tower.battle_show import BattleShow
from client.tower.tower_view import TowerView
from client.widgets.thinking import ThinkingBadge
from client.words.table_names import seat_title

if TYPE_CHECKING:
    from sim.snapshot import PublicState
from sim.board import board


class GameScene(Node):
    def __init__(self, session: GameSession, *, labels: dict[int, str] | None = None,
                 fast_forward: bool = False, speed: float = 1.0, confirm_leave: bool = True,
                 can_save: bool = False, guide: bool = False, sounds: Sounds | None = None) -> None:
        super().__init__("game")
        from sim.tower.drop import GEOMETRY  # pymunk: when the table opens
        self.session = session
        self.leave_chosen = Signal("leave_chosen")
        self.ended = Signal("ended")
        self.save_asked = Signal("save_asked")
        self.moment_reached = Signal("moment_reached")   # (tag) for tests: 'planning', 'tower_start', ...
        self.event_played = Signal("event_played")       # (event, coming) each event once shown
        self.sounds = sounds or Sounds(mute=True)
        cfg = session.config
        self.board = board()
        self.topbar = self.add(TopBar())
        self.board_view = self.add(BoardView(self.board, cfg.side, cfg.players))
        self.players = self.add(PlayersPanel())
        self.events_panel = self.add(EventsPanel())
        self.log = self.add(LogPanel())
        self.track = self.add(ActionTrack())
        self.planning = self.add(PlanningPanel())
        self.decision = self.add(DecisionPanel())
        self.info = self.add(InfoPanel())
        self.tower = self.add(TowerView(GEOMETRY))       # the battle's stage covers the table
        self.banner = self.add(Banner(held=lambda: self.shared.paused))
        self.thinking = self.add(ThinkingBadge())
        self.views = TableViews(self.topbar, self.board_view, self.tower, self.players,
                                self.events_panel, self.log, self.track, self.planning,
                                self.decision, self.info, self.banner, self.thinking, self.sounds)
        self.shared = SceneState(
            labels=labels or {s: seat_title(s, "human" if s in session.my_seats else "bot",
                                            me=s in session.my_seats) for s in range(cfg.players)},
            notes={int(s): str(level) for s, level in session.bot_levels.items()},
            speed_idx=SPEEDS.index(speed) if speed in SPEEDS else 1, fast=fast_forward)
        self.winter = self.add(WinterShow(session, self.shared, self.views,
                                          blocked=lambda: self.comforts.blocking))
        # clickable pace controls in the top bar (the same as the keys)
        self.pace_buttons: list[Button] = []
        for label, key in (("−", arcade.key.MINUS), ("+", arcade.key.EQUAL),
                           ("II", arcade.key.SPACE), (">>", arcade.key.F)):
            b = self.add(Button(label, size=12, color=(110, 80, 65), hover=(150, 110, 85),
                                text_color=(250, 240, 220)))
            b.pressed.connect(lambda k=key: self.on_key_press(k, 0))
            self.pace_buttons.append(b)
        self.comforts = TableComforts(self, session, self.shared, self.views, self.pace_buttons,
                                      confirm_leave=confirm_leave, can_save=can_save, guide=guide)
        c = self.comforts   # the parts tests and the App reach
        self.dialog, self.help, self.guide, self.help_btn = c.dialog, c.help, c.guide, c.help_btn
        self.guide_dismissed = c.guide.dismissed
        c.leave_chosen.connect(self.leave_chosen.emit)
        c.save_asked.connect(self.save_asked.emit)
        self.planning.visible = False
        self.decision.visible = False
        self.banner.visible = False
        self.frame_budget = 0.012    # seconds of engine/event work per frame in fast-forward
        self.battle = BattleShow(self.tower, self.board_view, self.sounds,
                                 lambda: self.shared.fast or self.player.quick_battle,
                                 lambda: self.shared.labels)
        self.battle.layout_changed.connect(self.on_layout)
        self.winter.layout_changed.connect(self.on_layout)
        self.player = EventPlayer(session, self.shared, self.views, self.battle, self.winter)
        self.asker = Asker(session, self.shared, self.views, self.battle, self.guide,
                           self.comforts, self.pump_session)
        self.status = StatusLines(session, self.shared, self.topbar, self.info)
        self.net: NetComforts | None = None     # a network table's pause panel, chat and plan unlock
        if session.table_offers is not None:
            self.net = NetComforts(self, session.table_offers, self.shared, self.views, self.asker)
            self.asker.plan_sent.connect(self.net.remember_plan)
            self.net.table_ended.connect(self._table_ended)
        self.replay_controls: ReplayControls | None = None   # ← → PgUp PgDn Home in a replay
        if session.study is not None:
            self.replay_controls = ReplayControls(session.study, self.shared, self.views, self.player)
            self.player.batch_played.connect(self.replay_controls.batch_done)
            self.add(self.replay_controls.film_btn)
            for b in self.replay_controls.seek_btns:
                self.add(b)
            self.comforts.more_buttons = self.replay_controls.seek_btns

        self.player.batch_started.connect(self._batch_started)
        self.player.display_changed.connect(self._words)
        self.player.game_ended.connect(self.ended.emit)
        self.player.moment_reached.connect(self.moment_reached.emit)
        self.player.event_played.connect(self.event_played.emit)
        self.asker.words_changed.connect(self.refresh_info)
        self.asker.moment_reached.connect(self.moment_reached.emit)
        self.board_view.province_clicked.connect(self.asker.province_clicked)
        self.tower.finished.connect(self.player.tower_finished)
        self.planning.locked.connect(self.asker.plan_locked)
        self.planning.suggestion_asked.connect(self.asker.suggest)
        self.planning.card_selected.connect(self.asker.card_selected)
        self.decision.chosen.connect(self.asker.chosen)
        if self.replay_controls is not None:
            self.replay_controls.open()     # a game log: its table at once, on the first frame

    # -- what tests and benchmarks read and set (the shared record's fields, the asker's) --
    @property
    def fast(self) -> bool:
        return self.shared.fast

    @fast.setter
    def fast(self, value: bool) -> None:
        self.shared.fast = value

    @property
    def quick_bot_battles(self) -> bool:
        """Battles of bots only are skipped to their card, which goes on by itself."""
        return self.shared.quick_bot_battles

    @quick_bot_battles.setter
    def quick_bot_battles(self, value: bool) -> None:
        self.shared.quick_bot_battles = value

    @property
    def paused(self) -> bool:
        return self.shared.paused

    @paused.setter
    def paused(self, value: bool) -> None:
        self.shared.paused = value

    @property
    def speed_idx(self) -> int:
        return self.shared.speed_idx

    @speed_idx.setter
    def speed_idx(self, value: int) -> None:
        self.shared.speed_idx = value

    @property
    def speed(self) -> float:
        return self.shared.speed

    @property
    def display(self) -> PublicState | None:
        return self.shared.display

    @display.setter
    def display(self, value: PublicState | None) -> None:
        self.shared.display = value

    @property
    def labels(self) -> dict[int, str]:
        return self.shared.labels

    @property
    def asking(self) -> tuple[str, int, int] | None:
        """The decision shown to me: (kind, seat, step), or None."""
        return self.asker.asking

    @property
    def held(self) -> HeldPlan | None:
        return self.asker.held

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
        if self.replay_controls is not None:          # after Rules (and Save, when shown)
            after = self.comforts.save_btn if self.comforts.save_btn.visible else self.help_btn
            self.replay_controls.place(after.right + 6, bottom_h + 6,
                                       min(200.0, W - rw - tw - after.right - 20),
                                       self.battle.active)
            self.replay_controls.place_seek(self.help_btn.left, bottom_h + 40,
                                            min(420.0, W - rw - tw - 2 * self.help_btn.left),
                                            self.battle.active)
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
        if self.winter.visible:     # the year's sums stay over the info panel (the map
            self.banner.set_rect(self.info.left, self.info.bottom, self.info.width,
                                 self.info.height)   # shows the marks), as first shown
        else:
            bw = min(560, (W - rw - tw) - 40)
            self.banner.set_rect((W - rw - tw - bw) / 2, bottom_h + mid_h / 2 - 70, bw, 150)
        self.winter.set_rect(0, 0, W, H)
        self.thinking.set_rect(W - rw - tw - 290, H - top_h - 40, 280, 32)
        column: tuple[Node, ...] = (self.players, self.events_panel, self.log)
        if self.net is not None and self.net.chat is not None:
            column += (self.net.chat,)      # under the log: it goes with it (the tower's room)
        self.battle.layout(W, H, top_h, rw, tw, column,
                           (self.planning, self.decision, self.info, self.track, self.help_btn,
                            self.comforts.save_btn, self.board_view))
        # over the log; over the big tower's foot while the battle view holds the column
        if self.log.visible:
            self.comforts.place_guide(self.log, above=self.events_panel)
        else:
            self.comforts.place_guide(self.battle.tower)
        self.refresh_topbar()

    # ----------------------------------------------------------------------------- words
    def refresh_topbar(self) -> None:
        self.status.show_top(my_move=self.asker.asking is not None)

    def refresh_info(self) -> None:
        held = self.asker.held
        self.status.show_info(panel_up=self.planning.visible or self.decision.visible,
                              behind=self.player.behind,
                              held_seconds=held.seconds_left if held is not None else None)

    def _words(self) -> None:
        self.refresh_topbar()
        self.refresh_info()

    def _table_ended(self, sentence: str) -> None:
        """The network table ended for me: why on a card; the top bar says it short
        (drawn now: the table behind the card waits, `on_update` refreshes nothing)."""
        if self.asker.asking is not None:
            self.asker.hide_decision()
        self.comforts.show_ended(sentence)
        self.refresh_topbar()

    def _batch_started(self) -> None:
        if self.info.visible:
            self.refresh_info()     # no "Now: …" while these events play

    # ----------------------------------------------------------------------------- driving
    def add(self, child: NodeT) -> NodeT:
        """A part added to the table goes under the tooltip: a tip is read over anything
        (a tutorial card added later drew over the bid field's tip)."""
        super().add(child)
        comforts: TableComforts | None = self.__dict__.get("comforts")
        if comforts is not None and child is not comforts.tooltip:
            super().add(comforts.tooltip)            # to the end: drawn last
        return child

    def on_update(self, dt: float) -> None:
        self.comforts.refresh_tooltip()
        if self.net is not None:
            self.net.update()
        self.session.tick()
        if self.comforts.blocking:
            return                      # a question or the rules are open: the table waits
        self.tower.set_speed(self.shared.speed if not self.shared.fast else 50)
        if self.shared.paused:
            self.refresh_topbar()
            return
        deadline = time.perf_counter() + (self.frame_budget if self.shared.fast else 0.004)
        while True:
            if not self._advance(dt) or self.shared.paused:     # a replay step may pause
                break
            dt = 0.0
            if time.perf_counter() > deadline:
                break
        self.refresh_topbar()

    def _advance(self, dt: float) -> bool:
        """Do one piece of work; True if more may be done in this frame."""
        if self.tower.playing:
            self.player.ready_result()      # the map under the stage, as the result leaves it
            return False
        if self.winter.holding:
            return False
        played = self.player.advance(dt)
        if played is not None:
            return played
        if self.shared.over:
            return False
        if self.asker.held is not None:
            return self.asker.hold_plan(dt)
        if self.session.waiting_for_me():
            self.asker.ask()
            return False
        if self.asker.asking is not None:
            self.asker.hide_decision()
        if self.session.runs_in_window:
            return self.pump_session()
        return False

    def pump_session(self) -> bool:
        """One automatic step of a local game; a bot's decision is computed off the frame
        (at most a few milliseconds of waiting here), with the thinking badge shown."""
        done = self.session.pump(wait=0.004 if not self.shared.fast else self.frame_budget)
        self.thinking.show_for(self.session.thinking, self.session.thinking_since, self.shared.labels)
        return done

    # ----------------------------------------------------------------------------- input
    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        k = arcade.key
        if self.comforts.key(symbol, modifiers):     # Esc, F1, Ctrl+S
            return True
        if self.net is not None and self.net.key(symbol):   # T chat, U unlock
            return True
        if self.replay_controls is not None and self.replay_controls.key(symbol):
            self.refresh_topbar()
            return True
        if self.asker.held is not None and symbol in (k.U, k.ENTER, k.RETURN, k.NUM_ENTER):
            self.asker.unlock_plan() if symbol == k.U else self.asker.release_plan()
            return True
        if symbol in (k.ENTER, k.RETURN, k.NUM_ENTER) and self.player.skip_result():
            return True                         # the battle's result card: go on
        if symbol == k.R and self.player.watch_again():
            return True
        sc = self.shared
        if symbol == k.SPACE:
            sc.paused = not sc.paused
        elif symbol == k.F:
            sc.fast = not sc.fast
        elif symbol in (k.PLUS, k.EQUAL, k.NUM_ADD):
            sc.speed_idx = min(len(SPEEDS) - 1, sc.speed_idx + 1)
        elif symbol in (k.MINUS, k.NUM_SUBTRACT):
            sc.speed_idx = max(0, sc.speed_idx - 1)
        elif symbol == k.S:
            if not self.winter.skip() and not self.tower.skip():
                self.player.skip_result()       # the battle's banner: on to what follows
        else:
            return False
        self.refresh_topbar()
        return True

    def type_text(self, text: str) -> bool:
        if self.net is not None and self.net.type_text(text):
            return True
        return self.comforts.type_text(text)

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        self.comforts.mouse_motion(x, y)

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int,
                      modifiers: int) -> None:
        self.comforts.drag()

    def animated_nodes(self) -> list[Node]:
        """Nodes that change every frame on their own (redrawn even when nothing else is);
        none while an overlay covers them (a repaint would draw over the overlay)."""
        if self.comforts.blocking:
            return []
        nodes: list[Node] = [self.tower] + ([self.thinking] if self.thinking.visible else [])
        if any(self.comforts.covers(n) for n in nodes) or self._over_the_stage():
            return []          # the tooltip, guide or a tutorial card over the tower: whole frames
        return nodes

    def _over_the_stage(self) -> bool:
        """Something drawn after the tower lies over what a frame of it repaints (a
        tutorial card over the battle stage): the tower alone would be drawn over it."""
        kids = self.children
        rects = self.tower.damage_rects()      # what the frame repaints (the whole stage at
                                               # the climax), not the shaft alone

        def covers(n: Node) -> bool:
            if not n.visible or n is self.thinking:
                return False
            if n.children and (any(covers(c) for c in n.children) or n.width >= self.width):
                return True                    # a node the size of the window draws little itself
            return n.width > 0 and n.height > 0 and any(
                n.left < x + w and x < n.right and n.bottom < y + h and y < n.top
                for x, y, w, h in rects)
        return self.tower.big and any(covers(n) for n in kids[kids.index(self.tower) + 1:])
