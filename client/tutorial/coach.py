"""The tutorial on the table: watches the game the table scene plays, shows each step of
the script when its trigger comes, outlines what the step is about, holds the table at
event steps until Next, and lets the player watch the opponents one move at a time.

Why a node added over the scene rather than a change to the scene: the table plays the
tutorial's game exactly as any local game (the same parts, the same rules), and the
coach only reads what the scene shows (the decision asked, the events played) and uses
the pause every player has (Space). What it reads of the scene is
`scene_view.TutorialScene`. Events come by the scene's `event_played` signal as each is
shown, and are taken in at the coach's next update, after the decision the player
answered (a quick event never slips by between two frames). Each step carries what is
particular to it (`script.Step`: its check, its fact, what it does at the table), so
nothing here keys a step by its name.

Leaving (the card's Leave tutorial, or Esc) asks first in the scene's dialog; its yes
goes up as the scene's `leave_chosen`.

Tests: tests/client/tutorial/test_tutorial_window.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypedDict

import arcade

from client.core.node import Node
from client.core.settings import SPEEDS
from client.core.theme import SMALLEST_TYPE
from client.tower.drop_clock import MAX_RATE
from client.tower.stage_layout import shaft_rect
from client.tutorial import script
from client.tutorial.card import TutorialCard
from client.tutorial.pour_lesson import NORMAL_SPEED, PourWatch
from client.tutorial.progress import TutorialProgress
from client.tutorial.scene_view import TutorialScene
from client.tutorial.script import Step
from client.tutorial.step_tasks import Figures, TaskSeen
from client.core.played import Played, as_kind, kind_of
from lang.i18n import N_, _
from client.words.describe import describe
from sim import events as ev
from sim.state import DecisionKind

HIGHLIGHT_COLOUR = (255, 196, 40)

Rect = tuple[float, float, float, float]


def _union(rects: Sequence[Rect]) -> Rect:
    left = min(r[0] for r in rects)
    bottom = min(r[1] for r in rects)
    right = max(r[0] + r[2] for r in rects)
    top = max(r[1] + r[3] for r in rects)
    return (left, bottom, right - left, top - bottom)


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _box(node: Node) -> list[Rect]:
    return [(node.left, node.bottom, node.width, node.height)] if node.visible else []


def stage_keep(sc: TutorialScene) -> list[Rect]:
    """What the battle stage's lesson is about, which no card may cover: the tower (its
    shaft, the handful beside it and its tray) and each side's tray with its count."""
    t = sc.tower
    if not t.big:
        return _box(t)
    x, y, w, h = shaft_rect(t.geo, (t.left, t.bottom, t.width, t.height), True)
    return [(float(x), float(y), float(w), min(float(h), t.top - 4 - y)), *t.tray_boxes()]


# what each step's `highlight` outlines on the scene
HIGHLIGHTS: dict[str, Callable[[TutorialScene], list[Rect]]] = {
    "provinces": lambda sc: [],               # the map's own highlight marks them (`_show`)
    "fields": lambda sc: [_union([sc.planning.field_rect(k) for k in range(10)])]
    if sc.planning.visible else [],
    "bid": lambda sc: [sc.planning.field_rect(10)] if sc.planning.visible else [],
    "decision": lambda sc: _box(sc.decision),
    "track": lambda sc: _box(sc.track),
    "tower": lambda sc: stage_keep(sc),
    "players": lambda sc: _box(sc.players),
}


class CoachStatus(TypedDict):
    """What tests and the screenshot tool read of the coach (`TutorialCoach.status`)."""
    step: str | None        # the step on show
    shown: list[str]        # the steps shown so far, in order
    missed: list[str]       # the steps passed over
    waiting_move: bool      # held after an opponent's move until Next move


class TutorialCoach(Node):
    def __init__(self, scene: TutorialScene, me: int = script.ME) -> None:
        super().__init__("tutorial")
        self.scene = scene
        self.me = me
        self.progress = TutorialProgress()
        self.card = self.add(TutorialCard())
        self.stepping = False            # the opponents are watched one move at a time
        self.waiting_move = False        # held after an opponent's move until Next move
        self.move_at = ""                # the province of the move the bar tells of
        self.holding = False             # the table is held by a step
        self.played: list[tuple[Played, bool]] = []   # shown, not taken in yet; and whether
        #                                               more of its kind follow in its batch
        self.scores: dict[int, int] = {}  # this winter's points gained, by seat
        self.pour: PourWatch | None = None     # the tower lesson's pour, as the player saw it
        self.pours_shown = 0                    # the lesson's drop: played, and played again
        self._pour_t: float | None = None       # the drop's recorded time at the last frame
        self._heads: tuple[float, float] | None = None   # the panels' heads the card stays under
        self._speed_before: int | None = None   # the player's pace, while the lesson's is normal
        self._size = (0.0, 0.0, False)
        self._again = False                     # lay out again after the next drawing
        self.shown_by: Played | None = None     # the event that showed the step on show
        self.card.next_pressed.connect(self.next)
        self.card.show_pressed.connect(self.show_me)
        self.card.skip_pressed.connect(self.skip)
        self.card.leave_pressed.connect(self.ask_leave)
        self.card.play_on_pressed.connect(self.play_on)
        scene.event_played.connect(self._event_played)
        scene.comforts.shields.append(self.card)   # no tip of what the card covers

    # -- following the game ---------------------------------------------------------------
    def _event_played(self, e: Played, coming: Sequence[Played]) -> None:
        """The scene has shown `e` (`coming`: the rest of its batch): taken in at the next
        update, after the decision the player answered."""
        kind = kind_of(e)
        self.played.append((e, any(kind_of(x) == kind for x in coming)))

    def _take_played(self) -> None:
        played, self.played = self.played, []
        for e, more in played:
            self._event(e, more)

    def _event(self, e: Played, more: bool) -> None:
        """`more`: another of its kind follows in its batch."""
        scored = as_kind(e, ev.Scored)
        if scored is not None:
            self.scores[scored["seat"]] = scored["gained"]
        st = self.progress.event_played(e, more)
        if st is not None:
            self._show(st, e)
            return
        moved = as_kind(e, ev.ActionDone) or as_kind(e, ev.ActionLapsed)   # an opponent's move
        if kind_of(e) == "RoundEnded":
            self.stepping = False                # one round watched move by move is enough
        elif self.stepping and moved is not None and moved["seat"] != self.me \
                and self.progress.current is None:
            self.waiting_move = True
            self.move_at = moved["province"]     # the bar keeps clear of it
            who = self.scene.labels.get(moved["seat"]) or str(moved["seat"])
            done = describe(moved) or _("{who} has carried out an action.").format(who=who)
            self.card.show_bar(done + "\n" + _("Press Next move for the next one, or Play on."))
            self._layout()
            self._hold(True)

    def on_update(self, dt: float) -> None:
        if (self.scene.width, self.scene.height, self.scene.tower.big) != self._size:
            self._size = (self.scene.width, self.scene.height, self.scene.tower.big)
            self._layout()
            self._again = True
        elif self._again:        # once more after the map's first drawing at its new size
            self._again = False  # (the winter marks' chips are placed as it draws)
            self._layout()
        if self.scene.fast and not self.progress.finished:
            self.scene.fast = False               # the steps wait for their events in play
        asking = self.scene.asking
        kind = asking[0] if asking is not None else None
        if self.progress.answered(kind):          # first: the events since are not mine
            self._closed()
        self._take_played()
        st = self.progress.decision_asked(kind)
        if st is not None:
            self._show(st)
        if self.pour is not None:
            self._follow_pour(dt)
        if self.holding and not self.scene.paused and not self.scene.comforts.blocking:
            self.next()                           # Space (the table's "go on") as Next
        self._recheck_missing()

    def _follow_pour(self, dt: float) -> None:
        """The tower lesson (issue 48): its drop plays at normal speed (the player's pace
        comes back with Next) under a card clear of the tower and the trays; a frame of the
        pour counts when it was in view. A pour not watched whole is played again."""
        sc, pour = self.scene, self.pour
        assert pour is not None
        if sc.speed > NORMAL_SPEED:
            if self._speed_before is None:
                self._speed_before = sc.speed_idx
            sc.speed_idx = SPEEDS.index(NORMAL_SPEED)
        t = sc.tower
        now = t.playback_time if t.playing else None
        before, self._pour_t = self._pour_t, now
        skipped = now is not None and before is not None \
            and now - before > MAX_RATE * max(dt, 1 / 60) * 2 + 0.05
        card: Rect = (self.card.left, self.card.bottom, self.card.width, self.card.height)
        covered = self.card.visible and any(_overlap(card, k) for k in stage_keep(sc))
        in_view = t.big and not sc.comforts.blocking and not covered
        pour.frame(t.stage, t.speed, in_view, skipped)
        if t.big and self.card.mode == "step" and t.panel_heads() != self._heads:
            self._layout()                        # the panels' words drawn since: under them
        aside = t.stage == "climax"               # the stage's banner says the decision:
        if aside and self.card.visible:           # the card steps aside for it, then comes back
            self.card.hide()
        elif not aside and not self.card.visible and self.progress.current is not None:
            self.card.visible = True
            self.card.mark_dirty()
        if pour.needs_replay and not t.playing and sc.player.play_last_drop():
            self.pour = PourWatch()               # once more, this time in view
            self._pour_t = None
            self.pours_shown += 1

    def _recheck_missing(self) -> None:
        """A "Not yet" line follows the player: said again as the task's figures change
        ("(now 3)" as cards go down), gone once the task is done (it said "(now 0)"
        until the next Next)."""
        if not self.card.missing or not self.card.visible:
            return
        missing = self.missing()
        if missing != self.card.missing:
            self.card.say_missing(missing)
            self._layout()

    # -- the steps ------------------------------------------------------------------------
    def _show(self, st: Step, e: Played | None = None) -> None:
        self.waiting_move = False
        self.shown_by = e                        # shown again (another language): the same figures
        n = script.STEPS.index(st) + 1
        body = _(st.text)
        fact = st.fact(self._figures(e))
        if fact:
            body = body + "\n\n" + fact
        total = len(script.STEPS)
        self.card.show_step(_(st.title), _("Step {n} of {total}").format(n=n, total=total),
                            body, _(st.task), can_show=st.can_show,
                            last=st is script.STEPS[-1],
                            short_counter=_("{n}/{total}").format(n=n, total=total))
        if st.tower_lesson:                      # the pour is watched, frame by frame
            self.pour, self.pours_shown, self._pour_t = PourWatch(), 1, None
        if st.scores_arrive:                     # the points it asks to look at: in the panel
            self.scene.winter.arrive_all()
        if st.marks_own:                         # the provinces a step speaks of
            self.scene.board_view.set_highlight(self._mine(), HIGHLIGHT_COLOUR)
        self._layout()
        self._hold(st.holds)

    def _mine(self) -> list[str]:
        """The player's provinces on the table."""
        d = self.scene.display
        provinces = d["provinces"] if d is not None else {}
        return [p for p, v in provinces.items() if v["owner"] == self.me]

    def _figures(self, e: Played | None) -> Figures:
        """The player's own figures a step may tell (`e`: the event that showed it)."""
        d = self.scene.display
        me = d["players"].get(str(self.me)) if d is not None else None
        winter = as_kind(e, ev.WinterStarted) if e is not None else None
        return Figures(provinces=len(self._mine()), rice=me["rice"] if me is not None else 0,
                       rice_loss=winter["rice_loss"] if winter is not None else 0,
                       scored=self.scores.get(self.me))

    def _hold(self, on: bool) -> None:
        self.holding = on
        self.scene.paused = on

    def _closed(self) -> None:
        if self.progress.current is None and not self.waiting_move:
            self.card.hide()
            self._hold(False)

    def next(self) -> None:
        """Next (N): the step on show is done, or the next opponent move plays."""
        if self.waiting_move:
            self.waiting_move = False
            self.card.hide()
            self._hold(False)
            return
        st = self.progress.current
        if st is None:
            return
        missing = self.missing()
        if missing:
            if missing != self.card.missing:      # said again only when it changes
                self.card.say_missing(missing)
                self._layout()
            if self.holding:
                self.scene.paused = True          # Space (as Next) does not end the lesson
            return
        self.progress.next()
        self._end_pour()
        if st.then_moves:
            self.stepping = True                  # now one opponent move at a time
        if st.tower_lesson:                       # the tower taught: bots' battles go quickly
            self.scene.quick_bot_battles = True
        self._closed()
        if st is script.STEPS[-1]:
            self.stepping = False

    def missing(self) -> str:
        """What the player must still do before Next ends the step on show ("" when its
        task is done): the step's own check (`Step.check`, step_tasks.py) over what the
        table shows of its task."""
        st = self.progress.current
        if st is None:
            return ""
        return st.check(TaskSeen(problems=tuple(self.scene.planning.problems),
                                 pour_watched=self.pour is None or self.pour.watched))

    def play_on(self) -> None:
        """Stop watching move by move: the round runs at the table's pace."""
        self.stepping = False
        self.waiting_move = False
        self._closed()

    def show_me(self) -> None:
        """Show me: the tutorial's plan on the planning fields (the player may change it)."""
        if self.scene.planning.visible:
            self.scene.planning.load(script.first_plan_fields(), script.FIRST_BID)

    def _end_pour(self) -> None:
        """The tower lesson is over: the player's own pace again."""
        self.pour = None
        if self._speed_before is not None:
            self.scene.speed_idx, self._speed_before = self._speed_before, None

    def skip(self) -> None:
        """Skip tutorial: the game goes on as an ordinary game, without the cards."""
        self.progress.skip()
        self._end_pour()
        self.scene.quick_bot_battles = False      # an ordinary game from here
        self.stepping = self.waiting_move = False
        self._closed()

    def ask_leave(self) -> None:
        self.scene.dialog.ask(N_("Leave the tutorial?"), [N_("The tutorial's game is not saved; "
                                                             "Learn to play starts it again.")],
                              [(N_("Leave  [Enter]"), "leave"), (N_("Stay  [Esc]"), "stay")])

    # -- input and drawing ----------------------------------------------------------------
    def key_press(self, symbol: int, modifiers: int) -> bool:
        if not self.visible or self.scene.comforts.blocking:
            return False
        if symbol == arcade.key.ESCAPE:      # the scene's question would call this a replay
            self.ask_leave()
            return True
        if symbol == arcade.key.S and self.pour is not None and not self.pour.watched:
            self.next()                           # the lesson's drop is not skipped: Next says why
            return True
        st = self.progress.current
        if st is not None and st.keys_as_next and self.card.visible and symbol in (
                arcade.key.S, arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER):
            self.next()          # the marks the card points at go with the card, not before it
            return True
        return super().key_press(symbol, modifiers)

    def _layout(self) -> None:
        sc = self.scene
        self.set_rect(0, 0, sc.width, sc.height)
        self.card.set_rect(*self._place())

    def _place(self) -> Rect:
        """Where the card hides least of what the step is about: a corner of the map, the
        strip under it (the action track and the panel below, when the step is not about
        them), or the right-hand column from the log up (in a small window the card would
        hide half the map). What
        counts: the provinces the map marks (when it marks none, the player's own, which
        they plan with), the battle arrow, the winter marks, and (much more) what the step
        outlines and a banner on show. Never over the tower: its animation is repainted
        over anything on it."""
        sc = self.scene
        if sc.tower.big and self.card.mode == "step":
            return self._place_on_stage()
        board = sc.board_view
        w = max(330.0, min(440.0, board.width * 0.55))
        h = self.card.needed_height(w, max(120.0, board.height - 60))
        top, low = board.top - 8 - h, board.bottom + 42          # above the Rules button
        spots = [(x, y, w, h) for x in (board.left + 8, board.right - 8 - w) for y in (top, low)]
        if self.card.mode == "step":              # under the map: below the track, or over it too
            sw = min(1000.0, board.width + sc.tower.width - 16, sc.width - 16)   # the stage: the window
            sh = self.card.needed_height(sw, board.bottom - 8)
            # over the panel below the map, or over the track too: either whole, no line
            # cut at the card's top edge nor a field peeking out at its end (at 2560x1440
            # "Spring of year 2" showed its top half, the tenth field "…eploy 3")
            if sh > sc.info.height - 8:
                sh = board.bottom - 8
                sw = max(sw, min(sc.track.right - 8, sc.width - 8) - (board.left + 8))
            else:
                sh = max(sh, sc.info.top - 8)
            spots.append((board.left + 8, 4.0, sw, sh))
        # a small window's map is too small for the card: the right-hand column from the
        # bottom up (the log, the year's events, the players panel unless the step is about
        # it), when the words fit there at their usual size, or else in smaller type (not
        # under 11 px) if every other spot hides more of what the step is about
        st = self.progress.current
        column = (sc.log, sc.events_panel, sc.players)
        squeezed: set[Rect] = set()
        if all(n.visible for n in column) and self.card.mode == "step":
            spot = self._column_spot(st is not None and st.highlight == "players")
            if spot is not None:
                spots.append(spot[0])
                if spot[1]:
                    squeezed.add(spot[0])
        points = [board.province_centre(n) for n in board.highlight | {board.selected}
                  if n and n in board.board.provinces]
        # a decision step asks the player to click the provinces the map highlights (where
        # the armies may go, the revolts' order): each counts five times one looked at
        # (in Romanian at 960x640 the move card lay over Tamba, Settsu and Omi)
        clicked = list(points) if st is not None and st.highlight == "decision" \
            and self.card.mode == "step" else []
        provinces = board.state.get("provinces", {}) if board.state else {}
        mine = [n for n, p in provinces.items() if p.get("owner") == self.me]
        if not points:      # nothing marked: the player's own provinces are what they look at
            points = [board.province_centre(n) for n in mine if n in board.board.provinces]
        # while planning, the player's own provinces (whose cards they plan with) are
        # kept in sight whole, not only their centres (the card hid Noto and Kaga)
        planning = st is not None and st.trigger.decision == DecisionKind.PLAN \
            and self.card.mode == "step"
        own = [board.province_box(n) for n in mine if planning and n in board.board.provinces]
        if self.card.mode == "bar" and self.waiting_move and self.move_at in board.board.provinces:
            # the move the bar tells of: its province in sight, before all else on the map
            points += [board.province_centre(self.move_at)] * 50
        ends = board.arrow_ends()
        points += list(ends) if ends else []
        points += [board.region_centre(r) for r in board.marks]
        keep = HIGHLIGHTS[st.highlight](sc) if st is not None else []
        keep += _box(sc.banner) + _box(sc.tower)
        keep += [r for name in (st.keeps if st is not None and self.card.mode == "step" else ())
                 for r in self._kept(name)]            # what else the step's words speak of
        if sc.winter.visible:      # the scoring's title and each region's marks, whole
            keep += [sc.winter.title_rect()] + [(x0, y0, x1 - x0, y1 - y0)
                                                for x0, y0, x1, y1 in board.mark_boxes]

        def cost(r: Rect) -> int:
            x0, y0, x1, y1 = r[0] - 12, r[1] - 12, r[0] + r[2] + 12, r[1] + r[3] + 12
            hidden = sum(1 for x, y in points if x0 <= x <= x1 and y0 <= y <= y1)
            hidden += 4 * sum(1 for x, y in clicked if x0 <= x <= x1 and y0 <= y <= y1)
            covered = sum(1 for k in keep if _overlap(r, k))
            whole = sum(1 for k in own if _overlap(r, k))   # any part: more than the column's
            off_map = 2 if r[0] >= board.right else 0    # the column: if the map loses more
            small = 1 if r in squeezed else 0
            # a spot too small for the words even in 11 px type would cut them: only if
            # every other spot covers what the step is about
            cut = 50 if self.card.mode == "step" and \
                self.card.needed_height(r[2], float("inf"), SMALLEST_TYPE) > r[3] + 0.5 else 0
            return hidden + 3 * whole + 100 * covered + off_map + small + cut
        return min(spots, key=cost)              # the first among the best

    def _column_spot(self, about_players: bool) -> tuple[Rect, bool] | None:
        """The right-hand column from the log up, to the top of the lowest panel whose
        top holds the card's words (at their usual size, or else in smaller type, not under
        11 px): a panel it reaches is covered whole (no line cut at its top edge), and
        the players panel only when the words do not fit under it even in 11 px type (at
        960x640 steps 2-5 filled the whole column, most of it empty, over the players panel
        and the log's "Bids:" line). None when the column is too narrow or too short;
        else the spot and whether its words are smaller than usual."""
        sc = self.scene
        ceiling = sc.events_panel.top if about_players else sc.players.top
        cw, bottom = sc.log.width - 8, sc.log.bottom + 4
        if cw < 240:
            return None
        usual = self.card.needed_height(cw, float("inf"))
        least = self.card.needed_height(cw, float("inf"), SMALLEST_TYPE)
        for n in (sc.log, sc.events_panel, sc.players):
            if n.top > ceiling + 0.5:
                break
            room = n.top - 4 - bottom
            if least <= room:
                return (sc.log.left + 4, bottom, cw, room), usual > room
        return None

    def _kept(self, name: str) -> list[Rect]:
        """A panel a step's words speak of (`Step.keeps`) as the card must leave it: the
        players panel or the events panel whole, the log's newest line (the bids)."""
        sc = self.scene
        if name == "players":
            return _box(sc.players)
        if name == "events":
            return _box(sc.events_panel)
        if name == "log_last":
            return [sc.log.newest_rect()] if sc.log.visible else []
        raise ValueError(f"a step keeps clear of players, events or log_last, not {name!r}")

    def _place_on_stage(self) -> Rect:
        """On the battle stage: over a side's panel, from its foot up to under its head
        words at most (its role, name and province stay in sight: at 960x640 the card
        covered the attacker's; its words get smaller type to fit), never over the tower
        or a side's tray, which the tower lesson is about; the attacker's side unless
        the defender's hides less."""
        sc = self.scene
        keep = stage_keep(sc)
        spots = []
        self._heads = sc.tower.panel_heads()
        for (left, bottom, width, height), head in zip(sc.tower.panel_rects(), sc.tower.panel_heads()):
            room = max(60.0, head - 6 - bottom)
            spots.append((left, bottom, width, min(room, self.card.needed_height(width, height))))
        return min(spots, key=lambda r: (sum(1 for k in keep if _overlap(r, k)), r[3]))

    def on_draw(self) -> None:
        st = self.progress.current
        if st is None or self.scene.comforts.blocking:
            return
        for left, bottom, width, height in HIGHLIGHTS[st.highlight](self.scene):
            arcade.draw_lbwh_rectangle_outline(left - 3, bottom - 3, width + 6, height + 6,
                                               HIGHLIGHT_COLOUR, 3)

    def draw(self) -> None:
        if self.scene.comforts.blocking:
            return                                # the rules or a question are on top
        super().draw()

    def status(self) -> CoachStatus:
        """What tests and the screenshot tool read: the step on show and what was shown."""
        cur = self.progress.current
        return {"step": cur.key if cur else None, "shown": list(self.progress.shown),
                "missed": list(self.progress.missed), "waiting_move": self.waiting_move}
