"""The tutorial on the table: watches the game the table scene plays, shows each step of
the script when its trigger comes, outlines what the step is about, holds the table at
event steps until Next, and lets the player watch the opponents one move at a time.

Why a node added over the scene rather than a change to the scene: the table plays the
tutorial's game exactly as any local game (the same parts, the same rules), and the
coach only reads what the scene shows (the decision asked, the events played) and uses
the pause every player has (Space). Events are followed by batch: when the scene starts
a batch the coach keeps its events, and each frame those no longer waiting in the scene's
batch have been played (a quick event never slips by between two frames).

Leaving (the card's Leave tutorial, or Esc) asks first in the scene's dialog; its yes
goes up as the scene's `leave_chosen`.

Tests: tests/client/tutorial/test_tutorial_window.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import arcade

from client.core.node import Node
from client.tutorial import script
from client.tutorial.card import TutorialCard
from client.tutorial.progress import TutorialProgress
from client.tutorial.script import Step
from lang.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from client.game.game_scene import GameScene
    from client.sessions.interface import Event

# an opponent's move, for watching them one at a time (the action's end)
MOVE_EVENTS = ("ActionDone", "ActionLapsed")
HIGHLIGHT_COLOUR = (255, 196, 40)

Rect = tuple[float, float, float, float]


def _union(rects: Sequence[Rect]) -> Rect:
    left = min(r[0] for r in rects)
    bottom = min(r[1] for r in rects)
    right = max(r[0] + r[2] for r in rects)
    top = max(r[1] + r[3] for r in rects)
    return (left, bottom, right - left, top - bottom)


def _box(node: Node) -> list[Rect]:
    return [(node.left, node.bottom, node.width, node.height)] if node.visible else []


# what each step's `highlight` outlines on the scene
HIGHLIGHTS: dict[str, Callable[[GameScene], list[Rect]]] = {
    "provinces": lambda sc: [],               # the map's own highlight marks them (below)
    "fields": lambda sc: [_union([sc.planning.field_rect(k) for k in range(10)])]
    if sc.planning.visible else [],
    "bid": lambda sc: [sc.planning.field_rect(10)] if sc.planning.visible else [],
    "decision": lambda sc: _box(sc.decision),
    "track": lambda sc: _box(sc.track),
    "tower": lambda sc: _box(sc.tower),
    "players": lambda sc: _box(sc.players),
    "map": lambda sc: _box(sc.board_view),
}


class TutorialCoach(Node):
    def __init__(self, scene: GameScene, me: int = script.ME) -> None:
        super().__init__("tutorial")
        self.scene = scene
        self.me = me
        self.progress = TutorialProgress()
        self.card = self.add(TutorialCard())
        self.stepping = False            # the opponents are watched one move at a time
        self.waiting_move = False        # held after an opponent's move until Next move
        self.holding = False             # the table is held by a step
        self.in_play: list[Event] = []   # the scene's batch in play, as it started
        self.scores: dict[int, int] = {}  # this winter's points gained, by seat
        self._size = (0.0, 0.0)
        self.card.next_pressed.connect(self.next)
        self.card.show_pressed.connect(self.show_me)
        self.card.skip_pressed.connect(self.skip)
        self.card.leave_pressed.connect(self.ask_leave)
        self.card.play_on_pressed.connect(self.play_on)
        scene.player.batch_started.connect(self._batch_started)

    # -- following the game ---------------------------------------------------------------
    def _batch_started(self) -> None:
        self._played(everything=True)            # the batch before has been played whole
        self.in_play = list(self.scene.player.batch)

    def _played(self, everything: bool = False) -> None:
        waiting = {id(e) for e in self.scene.player.batch} if not everything else set()
        while self.in_play and id(self.in_play[0]) not in waiting:
            e = self.in_play.pop(0)
            more = any(x.get("event") == e.get("event") for x in self.in_play)
            self._event(e, more)

    def _event(self, e: Event, more: bool) -> None:
        kind = e.get("event")
        if kind == "Scored":
            self.scores[int(e["seat"])] = int(e.get("gained", 0))
        st = self.progress.event_played(e, more)
        if st is not None:
            self._show(st)
            return
        if kind == "RoundEnded":
            self.stepping = False                # one round watched move by move is enough
        elif self.stepping and kind in MOVE_EVENTS and e.get("seat") != self.me \
                and self.progress.current is None:
            self.waiting_move = True
            who = self.scene.labels.get(int(e["seat"])) or str(e["seat"])
            self.card.show_bar(_("{who} has carried out an action (see the log). Press Next "
                                 "move for the next one.").format(who=who))
            self._hold(True)

    def on_update(self, dt: float) -> None:
        if (self.scene.width, self.scene.height) != self._size:
            self._size = (self.scene.width, self.scene.height)
            self._layout()
        self._played()
        asking = self.scene.asking
        before = self.progress.current
        st = self.progress.decision_asked(asking[0] if asking is not None else None)
        if st is not None:
            self._show(st)
        elif before is not None and self.progress.current is None:
            self._closed()                        # the decision was answered
        if self.holding and not self.scene.paused and not self.scene.comforts.blocking:
            self.scene.paused = True              # held until Next (Space would go on)

    # -- the steps ------------------------------------------------------------------------
    def _show(self, st: Step) -> None:
        self.waiting_move = False
        n = script.STEP_KEYS.index(st.key) + 1
        body = _(st.text)
        fact = self._fact(st.key)
        if fact:
            body = body + "\n\n" + fact
        self.card.show_step(_(st.title), _("Step {n} of {total}").format(n=n, total=len(script.STEPS)),
                            body, _(st.task), can_show=st.key == "plan",
                            last=st.key == script.STEPS[-1].key)
        self._layout()
        if st.highlight == "provinces":
            d = self.scene.display or {}
            mine = [p for p, v in (d.get("provinces") or {}).items() if v.get("owner") == self.me]
            self.scene.board_view.set_highlight(mine, HIGHLIGHT_COLOUR)
        self._hold(st.holds)

    def _fact(self, key: str) -> str:
        """The player's own figures where a step is about them (whole sentences)."""
        d = self.scene.display or {}
        me = (d.get("players") or {}).get(str(self.me)) or {}
        if key == "winter":
            n = sum(1 for v in (d.get("provinces") or {}).values() if v.get("owner") == self.me)
            return ngettext("You hold {n} province and have {rice} rice.",
                            "You hold {n} provinces and have {rice} rice.", n).format(
                n=n, rice=me.get("rice", 0))
        if key == "scoring" and self.me in self.scores:
            g = self.scores[self.me]
            return ngettext("You scored {n} point this year.", "You scored {n} points this year.",
                            g).format(n=g)
        return ""

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
        self.progress.next()
        if st.key == "actions":
            self.stepping = True                  # now one opponent move at a time
        self._closed()
        if st.key == script.STEPS[-1].key:
            self.stepping = False

    def play_on(self) -> None:
        """Stop watching move by move: the round runs at the table's pace."""
        self.stepping = False
        self.waiting_move = False
        self._closed()

    def show_me(self) -> None:
        """Show me: the tutorial's plan on the planning fields (the player may change it)."""
        if self.scene.planning.visible:
            self.scene.planning.load(script.FIRST_PLAN, script.FIRST_BID)

    def skip(self) -> None:
        """Skip tutorial: the game goes on as an ordinary game, without the cards."""
        self.progress.skip()
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
        return super().key_press(symbol, modifiers)

    def _layout(self) -> None:
        sc = self.scene
        self.set_rect(0, 0, sc.width, sc.height)
        board = sc.board_view
        w = max(300.0, min(460.0, board.width - 16))
        if self.card.mode == "bar":
            h = 86.0
        else:
            h = max(200.0, min(300.0, board.height - 60))
        self.card.set_rect(board.left + 8, board.top - 8 - h, w, h)

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

    def status(self) -> dict[str, Any]:
        """What tests and the screenshot tool read: the step on show and what was shown."""
        cur = self.progress.current
        return {"step": cur.key if cur else None, "shown": list(self.progress.shown),
                "missed": list(self.progress.missed), "waiting_move": self.waiting_move}
