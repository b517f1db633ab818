"""Playing the session's event batches onto the table, one event at a time at a readable
pace (event_pace.py): the log line, the board as the engine's public view after the
event (the batch's `views`; patched by display_patches.py where a game log has none), a
tower drop handed to the battle view, the cards (result_cards.py), the end. `EventPlayer`
is the scene's part for this and owns the batch in play; it only shows what the engine
did (the display state is the engine's public view).

Signals up: `batch_started()`, `event_played(event, coming)` (each event once shown, with
the rest of its batch, still to come: read it at once), `batch_played()` (before the board
shows its state),
`display_changed()` (the scene refreshes its words), `game_ended(summary)`,
`moment_reached(tag)` ('tower_coming', 'tower_start', 'battle', 'tower_end': tests take
screenshots there).

Tests: tests/client/tower/test_battle_view.py, tests/client/scenes/test_window.py,
tests/client/words/test_i18n_layout.py, tests/client/game/test_restored_table.py,
tests/client/game/test_fast_forward_stops.py, tests/client/game/test_viewed_board.py.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from client.core import theme
from client.core.signal import Signal
from client.game.status_lines import active_seats
from client.game.table_shared import SceneState, TableViews
from client.words.describe import describe
from client.sessions import display_patches as patches
from client.game import result_cards as cards
from client.game.battle_results import (DROP_DIFFERS_SAID, drop_differs, province_fought_by,
                                       replay_drop, tray_counted, tray_dropped)
from client.game.event_pace import CARD_SECONDS, PACE, log_colour
from client.sessions.interface import Played, Resumed, as_kind, kind_of, shows
from lang.i18n import _
from sim import events as ev
from sim.game import public_state

if TYPE_CHECKING:
    from client.game.winter_show import WinterShow
    from client.sessions.interface import GameSession
    from sim.snapshot import PublicState
    from client.scenes.end_record import EndSummary
    from client.tower.battle_show import BattleShow
    from sim.state import State
    from sim.tower.drop import DropResult



class EventPlayer:
    def __init__(self, session: GameSession, shared: SceneState, views: TableViews,
                 battle: BattleShow, winter: WinterShow) -> None:
        self.session = session
        self.shared = shared
        self.views = views
        self.battle = battle
        self.winter = winter
        self.batch_started = Signal("batch_started")
        self.event_played = Signal("event_played")
        self.batch_played = Signal("batch_played")
        self.display_changed = Signal("display_changed")
        self.game_ended = Signal("game_ended")
        self.moment_reached = Signal("moment_reached")
        self.wait = 0.0                          # seconds (at speed 1) the stage still holds
        self.batch: list[Played] = []             # events of the batch not played yet
        self.batch_state: State | None = None    # the state the batch leads to
        # the engine's public view after each event not played yet (None: not known, the
        # board's copy is patched by display_patches.py) and the one after the event played
        self.batch_views: list[PublicState] | None = None
        self.view: PublicState | None = None
        self.batch_pending = False               # the batch's end is still to be shown
        self.playing_event: Played | None = None  # the event being played (tests read it)
        self.playing_kind = ""                   # its name
        self.quick_battle = False                # the drop in play: bots' battle, shown quickly
        self.drop_line: str | None = None        # the drop's log line, held until it lands
        self.applied_tray: dict[str, int] | None = None   # the table's tray, where my drop differed
        self.last_drop: tuple[ev.TowerReplay, DropResult] | None = None   # the newest drop
        self.current_slot: int | None = None
        self.score_history: dict[int, list[int]] = {s: [0] for s in range(session.config.players)}
        self.scoring: list[ev.Scored] = []       # this winter's Scored events so far
        self.standings: ev.GameEnded | None = None
        # the tray as the events left it: the next battle throws it in, and its headline
        # names these cubes apart (issue 27 item 4); the public state between batches may
        # already show it thrown. None: not known (a replay jumped), the state's is taken.
        self.tray: dict[str, int] | None = None
        # the last battle's drop as it began (the event, the batch after it, the tray): R
        # watches it again; `again` is the result to show once more when it has played
        self.last_battle: tuple[ev.TowerDropped, list[Played], dict[str, int]] | None = None
        self.again: ev.BattleResolved | None = None
        self._prepared: ev.TowerDropped | None = None   # the coming drop whose stage is drawn
        self._readied: Played | None = None     # the result whose map is drawn while its stage holds
        # the coming drop and its cubes' fall, run by this computer's physics ahead of it
        self._replayed: tuple[ev.TowerDropped, DropResult] | None = None
        self._holds = 0                 # frames the coming drop has waited for its stage's picture

    @property
    def behind(self) -> bool:
        """The engine is ahead of the screen: events are still to be shown."""
        return bool(self.batch or self.batch_pending or self.session.queue)

    def advance(self, dt: float) -> bool | None:
        """Play one piece of the queued events: True if more may be played this frame,
        False while the stage holds, None when nothing is left to play."""
        if self.wait > 0:
            self.wait -= dt * self.shared.speed
            if self.wait > 0:
                self._prepare_battle()
                return False
        if self.batch:
            banner = self.views.banner
            coming = as_kind(self.batch[0], ev.TowerDropped)
            if coming is not None and coming["reason"] != "fill" and banner.visible \
                    and not banner.sticky and not self.shared.fast:
                return False        # a card (the winter's, a shortage) goes before the stage opens
            if coming is not None and not self._prepare_battle() and self._holds < 8:
                self._holds += 1    # its stage's picture still being drawn, a part a frame
                return False        # (at most 8 frames: then its first frame draws the rest)
            self._holds = 0
            self.view = self.batch_views.pop(0) if self.batch_views else None
            self.play_event(self.batch.pop(0))
            return True
        if self.batch_pending:
            self.batch_pending = False
            self.finish_batch()
            return True
        q = self.session.queue
        if q:
            events, state, views = q.popleft()
            self.batch = list(events)
            self.batch_state = state
            self.batch_views = list(views) if views is not None else None
            self.batch_pending = True
            self.batch_started.emit()
            return True
        return None

    def _prepare_battle(self) -> bool:
        """Before a battle's drop: the cubes' fall run by this computer's physics, then the
        stage's picture and the map's arrow drawn, a part a frame (`BattleShow.prepare`),
        not in the stage's first frame; while the event
        before it holds, or, when the drop comes first in its batch (a bots' game: every
        drop), in frames of their own just before it (4-5 frames, about 60 ms). True when
        nothing is left to do (no drop coming, done, or a bots' quick battle; the set-up's
        fill's picture has its sentence where a battle's has the sides)."""
        coming = as_kind(self.batch[0], ev.TowerDropped) if self.batch else None
        if coming is None or coming is self._prepared or \
                (self.shared.quick_bot_battles and self.my_battle(coming) is None):
            return True
        if "replay" in coming and (self._replayed is None or self._replayed[0] is not coming):
            # the drop's physics, a part of its own (issue 48: 15-30 ms of the stage's
            # first frame in a game; bench_client.py plays a recorded drop, not this).
            # The engine's drops always carry their record; a stand-in drop without one
            # (the stage's tests hand it its recording) has nothing to run ahead
            self._replayed = (coming, replay_drop(coming["replay"]))
            return False
        if self.battle.prepare(coming, self.batch[1:], self.tray):   # a part a frame
            self._prepared = coming
            return True
        return False

    def ready_result(self) -> None:
        """While a battle's stage holds its tally and climax (the map hidden under it,
        nothing on the stage moving), the map's picture is drawn as the result leaves it:
        the board takes the engine's view after the coming `BattleResolved` now, so the
        frame the stage closes only copies it (issue 48: that frame drew the whole map
        again, 30-60 ms on llvmpipe). A game log (no views) patches the board then."""
        tower, views = self.views.tower, self.batch_views
        if not views or not self.batch or kind_of(self.batch[0]) != "BattleResolved" \
                or not (self.battle.active and tower.big) or tower.stage not in ("tally", "climax") \
                or self._readied is self.batch[0]:
            return
        self._readied = self.batch[0]
        self.views.board_view.set_state(views[0])
        self.views.board_view.rebuild_if_dirty()

    def reset(self) -> None:
        """Drop what is in play (a replay jumped elsewhere)."""
        self.batch, self.batch_pending, self.batch_state = [], False, None
        self.batch_views, self.view = None, None
        self.wait = 0.0
        self.drop_line = None
        self.tray = None
        self.last_battle, self.again = None, None
        self.shared.over, self.standings = False, None

    def play_event(self, e: Played) -> None:
        """Show one event: its log line, its change to the board, its banner or drop."""
        kind = kind_of(e)
        self.playing_event, self.playing_kind = e, kind
        dropped = as_kind(e, ev.TowerDropped)
        if dropped is not None:
            self.quick_battle = self.shared.quick_bot_battles and dropped["reason"] != "fill" \
                and self.my_battle(dropped) is None
            self.moment_reached.emit("tower_coming")   # tests may slow down for this drop
            mine = self.my_battle(dropped) if self.shared.fast else None
            if mine is not None:
                self.stop_fast(_("Fast-forward stops: your battle in {province}.").format(
                    province=mine))
        if self.battle.active and kind != "BattleResolved":
            self.battle.end()          # the result has been shown: back to the table
        resumed = as_kind(e, Resumed)
        if resumed is not None:
            self.restore_log(resumed["past"])    # the game so far, then "continues"
        line = describe(e) if resumed is None else _("The saved game continues.")
        if line and dropped is not None:
            self.drop_line = line      # what came out: logged once the cubes have landed
            line = None
        if line:
            self.views.log.add_line(line, log_colour(kind))
        self.wait = PACE.get(kind, 0.0)
        if self.view is not None and kind != "Snapshot":
            self.show_view(self.view)
        self.show(e)
        if self.shared.fast:
            self.wait = 0.0
        self.event_played.emit(e, self.batch)

    def show(self, e: Played) -> None:
        """What each kind of event shows beyond its log line (a kind not in `SHOWN` has
        only its line): its handler takes it as its record in `sim.events`, whose keys
        mypy checks there."""
        handle = SHOWN.get(kind_of(e))
        if handle is not None:
            handle(self, e)

    # -- each kind of event, as its record ------------------------------------------------
    # The board shows the engine's public view after each event (`show_view`) where the
    # session sends it; else (a game log, a game's set-up) its copy is patched as events
    # play (display_patches.py) and replaced by the engine's public state at the batch's end.
    def _board_changed(self) -> None:
        if self.shared.display:
            self.views.board_view.set_state(self.shared.display)

    def show_view(self, view: PublicState) -> None:
        """The engine's public view after the event being played: the board shows it (the
        track and the year's cards follow their events, the players panel and the tower
        the batch's end, as before)."""
        self.shared.display = d = view
        self.views.board_view.set_state(d)

    def show_snapshot(self, e: ev.Snapshot) -> None:
        self.show_state(e["state"])

    def show_on_board(self, e: ev.ProvinceClaimed | ev.Moved | ev.ActionDone) -> None:
        """Armies placed or moved, a province claimed: the board's copy patched."""
        d = self.shared.display
        if self.view is None and d and patches.patch_board(d, e):
            self._board_changed()

    def show_action_started(self, e: ev.ActionStarted) -> None:
        """An action's slot on the track, started: it is the current one."""
        self.current_slot = e["slot"]
        self.show_action_turned(e)

    def show_action_turned(self, e: ev.ActionStarted | ev.ActionRevealed) -> None:
        """An action's slot on the track: started or revealed."""
        d = self.shared.display
        if d and self.view is None:
            patches.turn_action(d, e)
        self.views.track.set_track(d.get("actions") if d else None, self.current_slot, "")

    def show_round_started(self, e: ev.RoundStarted) -> None:
        self.current_slot = None

    def show_year_started(self, e: ev.YearStarted) -> None:
        d = self.shared.display
        if d:
            if self.view is None:
                patches.start_year(d, e)
            self.views.events_panel.set_events(d["year"], d.get("season"), d["events"], None)

    def show_tower_dropped(self, e: ev.TowerDropped) -> None:
        self.last_battle = (e, list(self.batch), dict(self.tray or {}))
        self._drop(e, self.battle.start(e, self.batch, self.tray))
        self.tray = tray_dropped(self.tray, e)

    def show_battle_resolved(self, e: ev.BattleResolved) -> None:
        sc = self.shared
        self.battle.resolved(e, sc.speed)      # the stage closes: the card beside the province
        self.battle_banner(e)
        if not sc.fast and not self.battle.stung:       # the stage's climax sounded it
            self.views.sounds.play("sting")
        d = sc.display
        if d and self.view is None:
            patches.resolve_battle(d, e)
            self._board_changed()
        self.tray = tray_counted(e)
        self.views.tower.set_tray(self.tray)   # the counted cubes go back: the tray keeps the rest
        self.moment_reached.emit("battle")

    def show_winter_started(self, e: ev.WinterStarted) -> None:
        self.views.banner.show(cards.winter_lines(e), 2.5 / max(1.0, self.shared.speed),
                               colour=(40, 60, 90))

    def show_shortage(self, e: ev.Shortage) -> None:
        self.views.banner.show(cards.shortage_lines(e), 2.0 / max(1.0, self.shared.speed),
                               colour=(90, 50, 30))
        cards.place_clear_of(self.views, e.get("drawn", []) or [])   # the revolts in sight

    def show_scored(self, e: ev.Scored) -> None:
        self.score_history.setdefault(e["seat"], [0]).append(e["score"])
        self.scoring.append(e)
        coming = {kind_of(x) for x in self.batch}
        if "Scored" not in coming:
            last = "GameEnded" in coming
            if last and self.shared.fast:
                self.stop_fast(_("Fast-forward stops for the final scoring."))
            self.winter.show(self.scoring, last)
            self.scoring_banner()

    def show_game_ended(self, e: ev.GameEnded) -> None:
        self.shared.over = True
        self.standings = e
        self.views.sounds.play("ended")

    def my_battle(self, dropped: ev.TowerDropped) -> str | None:
        """The province of the battle this drop decides when one of my seats fights in it
        (attacks, defends, or faces a revolt), else None."""
        return province_fought_by(self.session.my_seats, dropped, self.batch)

    def stop_fast(self, why: str) -> None:
        """Fast-forward ends here (the player's own battle, the final scoring): this plays
        at the chosen pace, and the log says why."""
        sc = self.shared
        sc.fast = False
        self.views.tower.set_speed(sc.speed)
        self.views.log.add_line(why, (30, 70, 140))
        self.display_changed.emit()

    @property
    def result_shown(self) -> bool:
        """A battle's result card is on show and the table waits for it to go."""
        return self.playing_kind == "BattleResolved" and self.wait > 0

    def skip_result(self) -> bool:
        """S (or Enter) while a battle's result is shown: on to what follows (the card goes)."""
        if not self.result_shown:
            return False
        self.wait = 0.0
        self.views.banner.hide()
        return True

    def finish_batch(self) -> None:
        """The batch has been played: the board shows the state it led to."""
        self.battle.end()
        self.batch_played.emit()
        state, self.batch_state = self.batch_state, None
        if state is not None:      # None: a replayed log, no engine state (the Snapshots rule)
            self.show_engine_state(state)
        if self.shared.over and self.standings is not None and not self.session.queue:
            self.game_ended.emit(self.summary())

    def show_engine_state(self, state: State) -> None:
        """Show an engine state at once: its public part on the board and panels, and the
        cubes resting inside the tower where the state has them (after Continue or a
        replay's seek no drop has drawn them)."""
        self.show_at(public_state(state), state.tower.to_wire())

    def show_at(self, pub: PublicState, tower: list[list[int]]) -> None:
        """Show a public state and the tower's resting contents at once."""
        self.views.tower.show_contents(tower)
        self.show_state(pub)

    def restore_log(self, events: Iterable[ev.Event]) -> None:
        """The log says the game so far (a resumed game, a replay's seek): every event's
        line, as if it had been played, in place of what the log held."""
        log = self.views.log
        log.clear()
        for e in events:
            line = describe(e)
            if line:
                log.add_line(line, log_colour(kind_of(e)))

    def show_state(self, pub: PublicState) -> None:
        """Show a public state at once (a copy: events patch it as they play)."""
        v, sc = self.views, self.shared
        sc.display = d = copy.deepcopy(pub)
        v.board_view.set_state(d)
        sc.labels = self.session.labels() or sc.labels   # a network table: names change
        v.players.set_state(d, sc.labels, notes=sc.notes, active=active_seats(self.session),
                            me=self.session.my_seats)
        v.track.set_track(d.get("actions"), self.current_slot, d.get("season") or "")
        v.track.set_marks(d.get("current_event"), d.get("players"))
        v.events_panel.set_events(d.get("year"), d.get("season"), d.get("events"),
                                  d.get("current_event"))
        tower = d.get("tower") or {}
        v.tower.set_tray(tower.get("tray"))
        if self.tray is None:
            self.tray = {str(c): int(n) for c, n in (tower.get("tray") or {}).items()}
        self.display_changed.emit()

    def _drop(self, e: ev.TowerDropped, caption: str) -> None:
        rep = e["replay"]
        ahead = self._replayed
        res = ahead[1] if ahead is not None and ahead[0] is e else replay_drop(rep)
        self._replayed = None
        self.last_drop = (rep, res)
        assert res.recording is not None        # asked for with record=True
        self.applied_tray = None
        if drop_differs(e, res):
            # the table applied another outcome than my physics (a platform build outvoted,
            # or a drop settled from its seed): say so; the tray shows the table's
            self.applied_tray = dict(e["out"])
            self.views.log.add_line(DROP_DIFFERS_SAID[e["decided_by"]](), (150, 40, 30))
        self.views.tower.set_tray({})
        self.views.tower.play(res.recording, caption, self.battle.sides,
                              self.battle.handful_seconds(), self.battle.from_tray)
        self.moment_reached.emit("tower_start")
        if self.shared.fast or self.quick_battle:
            self.views.tower.skip()

    def watch_again(self) -> bool:
        """R while a battle's result card is shown: the battle's stage once more (the same
        recorded drop, nothing in the game changes), then the card again."""
        e = as_kind(self.playing_event, ev.BattleResolved) if self.playing_event else None
        if e is None or self.wait <= 0:
            return False
        if not self.play_last_drop():
            return False
        self.views.banner.hide()
        self.again = e
        return True

    def play_last_drop(self) -> bool:
        """The last battle's stage once more (R on its result card; the tutorial's tower
        lesson when its pour was not watched): the same recorded drop, nothing in the game
        changes. False when there is none or a drop is playing."""
        if self.last_battle is None or self.last_drop is None \
                or self.views.tower.playing or self.shared.fast:
            return False
        dropped, rest, tray = self.last_battle
        caption = self.battle.start(dropped, rest, tray)
        self.views.tower.set_tray({})
        recording = self.last_drop[1].recording
        assert recording is not None             # recorded when it was first shown
        self.views.tower.play(recording, caption, self.battle.sides, self.battle.handful_seconds(),
                              self.battle.from_tray)
        return True

    def tower_finished(self) -> None:
        """The cubes have landed: the drop's line goes to the log (or, a battle watched
        again, its result card comes back)."""
        if self.again is not None:
            e, self.again = self.again, None
            self.battle.resolved(e, self.shared.speed)
            self.battle_banner(e)
            self.views.tower.set_tray(tray_counted(e))
            return
        if self.drop_line:
            self.views.log.add_line(self.drop_line, theme.INK)
            self.drop_line = None
        if self.applied_tray is not None:
            self.views.tower.set_tray(self.applied_tray)
            self.applied_tray = None
        self.moment_reached.emit("tower_end")

    def scoring_banner(self) -> None:
        """This winter's scores, under the map (the majorities are marked on it)."""
        cards.show_scoring_card(self.views, self.scoring, self.shared.display["year"] if self.shared.display else "",
                                self.shared.speed if not self.shared.fast else 1.0)
        self.scoring = []
        self.wait = max(self.wait, 3.0)

    def battle_banner(self, e: ev.BattleResolved) -> None:
        """A battle's result card beside the province (issue 36 item 3): who won, what came
        out, the survivors, who holds it now. It stays until the player goes on (Enter or
        S; R watches the battle again) at a table with my seat or in a replay; a table of
        bots only goes on by itself after CARD_SECONDS; in fast-forward it shows for
        about 3 s while the game runs on."""
        sc = self.shared
        quick = sc.fast or self.quick_battle     # a bots' battle shown quickly: on by itself
        study = getattr(self.session, "study", None) is not None
        hold = not quick and (bool(self.session.my_seats) or study)
        cards.show_battle_card(self.views, self.battle, e, fast=quick, speed=sc.speed,
                               hold=hold, can_watch=self.last_drop is not None)
        if not quick:
            self.wait = math.inf if hold else max(self.wait, CARD_SECONDS)

    def summary(self) -> EndSummary:
        """The end screen's figures."""
        e = self.standings
        return {"scores": e["scores"] if e else {}, "money": e["money"] if e else {},
                "winners": e["winners"] if e else [], "history": self.score_history,
                "labels": self.shared.labels, "players": self.session.config.players}



# what each kind of event shows beyond its log line (`EventPlayer.show`), by its record
SHOWN: dict[str, Callable[[EventPlayer, Played], None]] = dict([
    shows(ev.Snapshot, EventPlayer.show_snapshot),
    shows(ev.ProvinceClaimed, EventPlayer.show_on_board),
    shows(ev.Moved, EventPlayer.show_on_board),
    shows(ev.ActionDone, EventPlayer.show_on_board),
    shows(ev.ActionStarted, EventPlayer.show_action_started),
    shows(ev.ActionRevealed, EventPlayer.show_action_turned),
    shows(ev.RoundStarted, EventPlayer.show_round_started),
    shows(ev.YearStarted, EventPlayer.show_year_started),
    shows(ev.TowerDropped, EventPlayer.show_tower_dropped),
    shows(ev.BattleResolved, EventPlayer.show_battle_resolved),
    shows(ev.WinterStarted, EventPlayer.show_winter_started),
    shows(ev.Shortage, EventPlayer.show_shortage),
    shows(ev.Scored, EventPlayer.show_scored),
    shows(ev.GameEnded, EventPlayer.show_game_ended),
])
