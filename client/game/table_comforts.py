"""The table's comforts, kept apart from the game flow in `GameScene`: the Rules and Save
buttons, the leave/save dialog, the rules overlay, the first-game guide and tooltips.

`TableComforts(scene, ...)` adds its nodes to the scene last (so they draw on top and get
input first). The scene forwards layout, keys, text and mouse motion, and waits (no
updates, no tower repaints) while `blocking` is true. Signals up: `leave_chosen()`,
`save_asked(name)`.

Tests: tests/client/game/test_comforts_window.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import arcade

from client.widgets.dialog import Dialog
from client.game.guide import Guide
from client.scenes.help_scene import HelpOverlay
from client.core.button import Button
from client.core.node import Node
from client.core.signal import Signal
from client.widgets.tooltip import WIDTH, Tooltip
from client.words.seasons import SEASON_HEADINGS
from lang.i18n import N_, _

if TYPE_CHECKING:
    from client.game.table_shared import SceneState, TableViews
    from client.sessions.interface import GameSession

# what each panel of the table shows (the board says what each province is); marked
# English, translated when shown (the Tooltip looks its text up when drawn)
PANEL_TIPS = {
    "players": N_("The daimyo: chests, rice, score, armies left in supply and provinces held. "
               "The highlighted ones are being waited for."),
    "events_panel": N_("This year's event cards. Each round one is drawn and applies to everyone; "
                    "the number on the right is the rice everyone loses in winter if it is "
                    "the one left over."),
    "log": N_("Everything that happened, newest at the bottom; scroll with the mouse wheel."),
    "track": N_("The ten actions of this round in the order they are carried out; the face-down "
             "ones are turned as play reaches them."),
    "tower": N_("The battle tower: armies thrown in tumble down; some stay stuck inside, some "
             "come out with cubes that were stuck before. What lands in the tray counts."),
    "info": N_("What is happening now and who the game is waiting for."),
    "topbar": N_("Year and season, what the game waits for, and the pace controls."),
}

def bar_button(label: str) -> Button:
    """A button in the table's dark bar style (Rules, Save)."""
    return Button(label, size=10, color=(110, 80, 65), hover=(150, 110, 85),
                  text_color=(250, 240, 220))


class TableComforts:
    def __init__(self, scene: Node, session: GameSession, shared: SceneState, views: TableViews,
                 pace_buttons: list[Button], *, confirm_leave: bool, can_save: bool,
                 guide: bool) -> None:
        self.session = session
        self.shared = shared
        self.views = views
        self.pace_buttons = pace_buttons
        self.more_buttons: list[Button] = []      # a replay's step buttons, with their tips
        self.leave_chosen = Signal("leave_chosen")
        self.save_asked = Signal("save_asked")
        self.confirm_leave = confirm_leave
        self.can_save = can_save
        self.help_btn = scene.add(bar_button(N_("Rules  [F1]")))
        self.save_btn = scene.add(bar_button(N_("Save  [Ctrl+S]")))
        self.save_btn.visible = can_save
        self.guide = scene.add(Guide())
        self.guide.enabled_guide = guide
        self.tooltip = scene.add(Tooltip())
        self.pointer: tuple[float, float] | None = None   # where the mouse was last seen
        # drawn over the table without tips of their own: under them no tip of what they
        # cover (the result banner; a tutorial card adds itself)
        self.shields: list[Node] = [views.banner]
        self.dialog = scene.add(Dialog())
        self.help = scene.add(HelpOverlay())
        self.help_btn.tip = N_("The rules: turn structure, actions and costs, events, battles, winter.")
        self.save_btn.tip = N_("Save this game under a name (it is also saved all the time by itself).")
        for b, tip in zip(pace_buttons, (N_("Slower"), N_("Faster"), N_("Pause / go on"),
                                               N_("Fast-forward"))):
            b.tip = tip
        self.help_btn.pressed.connect(self.help.open)
        self.save_btn.pressed.connect(self.ask_save)
        self.dialog.answered.connect(self._on_dialog)

    @property
    def blocking(self) -> bool:
        """A question or the rules are open: the table waits."""
        return self.dialog.visible or self.help.visible

    def layout(self, W: float, H: float, top_h: float, board_bottom: float = 0) -> None:
        # in the board's bottom-left corner (sea on both sides' maps; the map's legend
        # holds the top-left corner)
        self.help_btn.set_rect(8, board_bottom + 6, 100, 28)
        self.save_btn.set_rect(114, board_bottom + 6, 120, 28)
        self.guide.set_rect(8, H - top_h - 42 - 176, 360, 176)     # until `place_guide`
        for node in (self.tooltip, self.dialog, self.help):
            node.set_rect(0, 0, W, H)

    def place_guide(self, column: Node, above: Node | None = None) -> None:
        """The guide hangs from the top of the right-hand column's `column` panel (the
        game log), reaching up over `above` (the events) only when a hint needs the room:
        at the map's top left it covered the legend and the provinces its hints talk
        about (issue 37, item 12)."""
        ceiling = above.top if above is not None else column.top
        self.guide.anchor(column.left + 4, column.width - 8, column.top - 4,
                          column.bottom + 4, ceiling - 4)

    def key(self, symbol: int, modifiers: int) -> bool:
        k = arcade.key
        if symbol == k.ESCAPE:
            self.ask_leave()
        elif symbol == k.F1:
            self.help.open()
        elif symbol == k.S and modifiers & (k.MOD_CTRL | k.MOD_COMMAND):
            self.ask_save()
        else:
            return False
        return True

    def type_text(self, text: str) -> bool:
        return self.help.type_text(text) or self.dialog.type_text(text)

    # -- leaving and saving ---------------------------------------------------------------
    def ask_leave(self) -> None:
        """Esc: leave at once, or first ask (the setting); a local game stays saved."""
        if not self.confirm_leave or self.shared.over:
            self.leave_chosen.emit()
            return
        if self.can_save:
            note = [N_("The game is saved: Continue in the menu picks it up where you left.")]
        elif self.session.runs_in_window:
            note = [N_("This is a replay; leaving stops it.")]
        else:
            note = [N_("Leaving gives up your seat at the table (a bot takes over if you do"),
                    N_("not come back in time).")]
        self.dialog.ask(N_("Leave this game?"), note, [(N_("Leave  [Enter]"), "leave"),
                                                       (N_("Stay  [Esc]"), "stay")])

    def ask_save(self) -> None:
        if not self.can_save:
            return
        d: Mapping[str, Any] = self.shared.display or {}
        season = SEASON_HEADINGS.get(str(d.get("season") or ""), "")
        suggestion = _("Year {year} {season}").format(year=d.get("year", 1), season=season).strip()
        self.dialog.ask(N_("Save this game"), [N_("Give it a name; the menu lists named saves to load.")],
                        [(N_("Save  [Enter]"), "save"), (N_("Cancel  [Esc]"), "cancel")], text=suggestion)

    def _on_dialog(self, value: object, text: str | None) -> None:
        if value == "leave":
            self.leave_chosen.emit()
        elif value == "save":
            self.save_asked.emit(text or "")

    def show_ended(self, sentence: str) -> None:
        """The table ended for me in the game: why, whole (wrapped) on a card, and the
        way back to the menu (Enter or Esc); the table behind waits."""
        said = sentence[:1].upper() + sentence[1:] + ("." if sentence[-1:].isalnum() else "")
        self.dialog.ask(N_("The game ended for you"), [said],
                        [(N_("Back to menu  [Enter]"), "leave")])

    def cover_for(self, seat_name: str) -> None:
        """Hot seat: hide the table until the next player says they have the screen."""
        self.dialog.ask(_("Pass the screen to {name}").format(name=seat_name),
                        [_("{name} plans in secret now; the others look away.").format(name=seat_name),
                         _("{name}: press Enter when you are ready.").format(name=seat_name)],
                        [(_("I am {name} — show my cards  [Enter]").format(name=seat_name), "ready")],
                        opaque=True)

    # -- tooltips -------------------------------------------------------------------------
    def mouse_motion(self, x: float, y: float) -> None:
        """A tooltip for the field, card, button or province under the mouse."""
        self.pointer = (x, y)
        self.point_at(x, y, moved=True)

    def refresh_tooltip(self) -> None:
        """Each frame: a tooltip on show belongs to one element (its owner) and dies with
        it: hidden when that element has gone, been covered or left the pointer without
        the mouse moving; it may follow its owner's changed words."""
        if self.tooltip.visible and self.pointer is not None:
            self.point_at(*self.pointer, moved=False)

    def point_at(self, x: float, y: float, moved: bool) -> None:
        found = self.tip_at(x, y)
        if found is None or (not moved and found[1] is not self.tooltip.owner):
            self.tooltip.hide()
            return
        text, owner, width = found
        self.tooltip.show(text, x, y, width=width, owner=owner)

    def tip_at(self, x: float, y: float) -> tuple[str, Node, float] | None:
        """The tip under the pointer: its words, the element it belongs to, its width;
        None under a question, the rules or an overlay without tips (the guide, a
        banner, a tutorial card: no tip of what they cover)."""
        stage = self.views.tower
        if self.blocking or any(s.visible and s.contains(x, y) for s in (self.guide, *self.shields)) \
                or (stage.big and stage.contains(x, y)):     # the open stage: no tip over it
            return None
        found = self.owned_tip_at(x, y)
        if found is not None:
            return found[0], found[1], WIDTH
        board = self.views.board_view
        tip = board.tooltip_at(x, y)
        return (tip, board, 380.0) if tip else None

    def drag(self) -> None:
        """A drag started: the tooltip of where it began would stay over the fields."""
        self.tooltip.hide()

    def covers(self, node: Node) -> bool:
        """An overlay (the tooltip, the guide) is drawn over part of `node`: repainting
        `node` alone would draw over it."""
        for over in (self.tooltip, self.guide):
            if not over.visible:
                continue
            l, b, w, h = self.tooltip.box if over is self.tooltip else \
                (over.left, over.bottom, over.width, over.height)
            if l < node.right and node.left < l + w and b < node.top and node.bottom < b + h:
                return True
        return False

    def tooltip_at(self, x: float, y: float) -> str | None:
        """The words of the tip of the panel, card or button under the pointer."""
        found = self.owned_tip_at(x, y)
        return found[0] if found is not None else None

    def owned_tip_at(self, x: float, y: float) -> tuple[str, Node] | None:
        """The tip of the panel, card or button under the pointer and its owner."""
        v = self.views
        planning, decision = v.planning, v.decision
        tip = planning.tooltip_at(x, y) if planning.visible else None
        if tip:
            return tip, planning
        tip = decision.tooltip_at(x, y) if decision.visible else None
        if tip:
            return tip, decision
        tip = v.track.tooltip_at(x, y)      # the event's and specials' marks
        if tip:
            return tip, v.track
        for b in (self.help_btn, self.save_btn, *self.pace_buttons, *self.more_buttons):
            if b.visible and b.contains(x, y):
                return (_(b.tip), b) if b.tip else None
        panels: dict[str, Node] = {"players": v.players, "events_panel": v.events_panel,
                                   "log": v.log, "track": v.track, "tower": v.tower,
                                   "info": v.info, "topbar": v.topbar}
        for name, tip in PANEL_TIPS.items():
            node = panels[name]
            if node.visible and node.contains(x, y):
                return _(tip), node
        return None
