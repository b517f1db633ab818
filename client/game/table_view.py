"""The table around the board: players, action track, year/season, events, game log.

Each panel is a node with a `set_*` input and a cached drawing (rebuilt on change).

Tests: tests/client/game/test_table_layout.py, tests/client/board/test_event_marks.py, tests/client/words/test_i18n_layout.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import arcade
from arcade.types import RGBOrA255

from client.board import map_geometry as geo
from client.board.tokens import seat_token
from client.core import theme
from client.core.cached_layer import CachedLayer
from client.core.node import Node
from client.core.panel import draw_panel
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.words.table_names import seat_title
from client.words.sentences import LEVEL_WORDS
from client.widgets.text_fit import abbreviated, put_boxed, put_fitted  # noqa: F401  (panels and tests use it from here)
from lang.i18n import _, ngettext
from client.words.seasons import SEASON_HEADINGS
from client.board.event_marks import special_owners
from client.core.card_facts import special_texts
from client.board.event_marks import event_actions, event_sentence
from client.board.event_marks import event_actions

if TYPE_CHECKING:
    from sim.snapshot import PlayerView, PublicState


class CachedPanel(Node):
    """A node whose whole drawing is cached; subclasses implement `paint(text)`."""

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self._layer = CachedLayer()
        self.texts = TextCache()

    def rebuild(self) -> None:
        self._layer.render((self.left, self.bottom, self.width, self.height), self._paint_all)

    def _paint_all(self) -> None:
        self.texts.begin()
        self.paint(self.texts)
        self.texts.end()
        self.texts.draw()

    def paint(self, text: TextCache) -> None: ...

    def on_draw(self) -> None:
        self._layer.draw()


FLOOR = theme.SMALLEST_TYPE


class TopBar(CachedPanel):
    def __init__(self) -> None:
        super().__init__("topbar")
        self.info = {"title": "Shogun", "status": "", "speed": ""}

    def set_info(self, **kw: str) -> None:
        if any(self.info.get(k) != v for k, v in kw.items()):
            self.info.update(kw)
            self.mark_dirty()

    def paint(self, text: TextCache) -> None:
        arcade.draw_lbwh_rectangle_filled(self.left, self.bottom, self.width, self.height, (60, 40, 35))
        y = self.bottom + self.height / 2
        title = text.put("title", self.info["title"], self.left + 10, y, size=13, bold=True,
                         color=(250, 235, 200), anchor_y="center")
        sx = self.left + 10 + title.content_width + 24
        if self.width >= 1200:
            sx = max(sx, self.left + 330)
        # a narrow window: both shrink together down to 11 px, then the key hints go one
        # whole hint at a time (the pace buttons beside them say the same), then the
        # status says only its head (what comes before " — " or " (": a replay's keys go
        # last, issue 49), and only then is the status cut; never overlapping, never a
        # hint cut in the middle (Dutch "menu [E…" in round 1)
        end = self.right - 200
        status_words = self.info["status"]
        all_hints = [h for h in self.info["speed"].split(HINT_GAP) if h]
        hints = list(all_hints)
        scale = 1.0
        status: arcade.Text
        while True:
            speed = text.put("speed", HINT_GAP.join(hints), end, y, size=10 * scale,
                             color=(230, 220, 200), anchor_x="right", anchor_y="center")
            status = text.put("status", status_words, sx, y, size=11 * scale,
                              color=(255, 220, 150), anchor_y="center")
            if status.content_width + 16 + speed.content_width <= end - sx:
                break
            if 10 * scale > FLOOR:
                scale = max(FLOOR / 10, scale - 0.05)
            elif len(hints) > 1:
                hints.remove(min(hints[:-1], key=lambda h: HINT_ORDER.index(all_hints.index(h))
                                 if all_hints.index(h) in HINT_ORDER else -1))
            elif status_head(status_words) != status_words:
                status_words = status_head(status_words)
            else:
                break
        room = max(0.0, end - sx - 16 - speed.content_width)
        whole = self.info["status"]
        if status_words != whole and whole.startswith(status_words + " — "):
            # the head alone fits: the rest (a replay's keys) goes on a second line if it
            # fits there, both in the smallest type, rather than unsaid (issue 49)
            tail = whole[len(status_words) + 3:]
            one = text.put("status", status_words, sx, y + 7, size=FLOOR,
                           color=(255, 220, 150), anchor_y="center")
            two = text.put("status2", tail, sx, y - 7, size=FLOOR, color=(255, 220, 150),
                           anchor_y="center")
            if max(one.content_width, two.content_width) <= room:
                speed.visible = True
                return
            two.visible = False
        status = put_fitted(text, "status", status_words, sx, y, room, 11 * scale,
                            min_size=11 * scale, cut=True, color=(255, 220, 150),
                            anchor_y="center")
        speed.visible = status.content_width + 16 + speed.content_width <= end - sx + 0.5


HINT_GAP = "   "           # between the top bar's key hints (`TopBar.set_info(speed=…)`)
# which hint goes first when there is no room, by its place: pause [Space] and the pace
# (their buttons are beside them), then skip drop [S]; the last (menu [Esc]) stays
HINT_ORDER = (1, 0, 2)


def status_head(words: str) -> str:
    """A status sentence's head, for a narrow bar: before " — ", or without a closing
    "(…)" ("Replaying a game log (it plays forward only)")."""
    head = words.split(" — ")[0]
    if head == words and words.endswith(")") and " (" in words:
        head = words.rsplit(" (", 1)[0]
    return head


@dataclass(frozen=True)
class _Heading:
    """A players-panel row's first line: the name, the tag beside it and the room the name
    has, the size the name fits at, and the special card's words when they go below."""
    name: str
    tag: str
    room: float
    size: float
    special_below: str


class PlayersPanel(CachedPanel):
    def __init__(self) -> None:
        super().__init__("players")
        self.state: PublicState | None = None
        self.labels: dict[int, str] = {}
        self.notes: dict[int, str] = {}
        self.active: set[int] = set()
        self.me: tuple[int, ...] = ()

    def set_state(self, state: PublicState | None, labels: dict[int, str] | None = None,
                  active: Iterable[int] = (), me: Iterable[int] = (), notes: dict[int, str] | None = None) -> None:
        """`labels`: {seat: title} ("Aiko (Blue)", "Bot (Orange)"); `notes`: a short
        muted word after it (a bot's level)."""
        self.state = state
        if labels is not None:
            self.labels = labels
        if notes is not None:
            self.notes = notes
        self.active = set(active)
        self.me = tuple(me)
        self.mark_dirty()

    def paint(self, text: TextCache) -> None:
        draw_panel(self.left, self.bottom, self.width, self.height)
        if not self.state:
            return
        players = self.state.get("players", {})
        n = len(players)
        rh = int(min(80.0, (self.height - 4) / max(1, n)))
        k = max(0.72, min(1.0, rh / 74))      # a short panel scales its rows down
        k = round(k * 10) / 10                # whole half-points: fractional sizes clip glyphs
        rows = [self._heading(text, i, players[str(i)], k) for i in range(n)]
        # every name at one size, the largest at which all fit beside their tags (a name
        # alone drawn smaller, "Jij (Blauw) — jij", looked like a lesser player)
        name_size = min([max(FLOOR, 11 * k)] + [row.size for row in rows])
        for i, row in enumerate(rows):
            p = players[str(i)]
            top = int(self.top) - 2 - rh * i
            if i in self.active:
                arcade.draw_lbwh_rectangle_filled(self.left + 2, top - rh + 1, self.width - 4, rh - 2,
                                                  (255, 236, 170))
            seat_token(i, self.left + 14, top - 14 * k, 8 * k)
            who = self.notes.get(i, "")
            who = _(LEVEL_WORDS[who]) if who in LEVEL_WORDS else who     # a bot's level
            name, tag = row.name, row.tag
            nt = put_fitted(text, ("n", i), name, self.left + 28, top - 19 * k, row.room,
                            name_size, min_size=FLOOR, cut=True, bold=True,
                            color=theme.INK)    # cut only a name of 40 letters, not 7 px
            tt = text.put(("t", i), tag, self.right - 8, top - 19 * k, size=9.5 * k,
                          color=(120, 40, 30), anchor_x="right")
            wx = self.left + 34 + nt.content_width
            room = self.right - 8 - tt.content_width - 8 - wx
            if who and room >= geo.text_width(who[:16], FLOOR) * 0.9:   # the level: room or none
                put_fitted(text, ("w", i), who[:16], wx, top - 19 * k, room, FLOOR,
                           min_size=FLOOR, color=theme.MUTED)
            money = _("Chests {chests}   Rice {rice}   Score {score}   Supply {supply}").format(
                chests=p.get("money", 0), rice=p.get("rice", 0), score=p.get("score", 0),
                supply=p.get("supply", 0))
            for gap in ("   ", "  ", " "):      # closer together before the type goes under 11 px
                m = put_fitted(text, ("m", i), money.replace("   ", gap), self.left + 8,
                               top - 37 * k, self.width - 16, 10 * k, min_size=FLOOR,
                               cut=gap == " ", color=theme.INK)
                if m.content_width <= self.width - 16 + 0.5:
                    break
            self._cards(text, i, p.get("cards", []) or [], top - 41 * k, top - rh + 2, k,
                        row.special_below)
            if i < n - 1:
                arcade.draw_line(self.left + 4, top - rh, self.right - 4, top - rh, (200, 190, 170), 1)

    def _heading(self, text: TextCache, i: int, p: PlayerView, k: float) -> _Heading:
        """Row `i`'s name and tag ("#2  +1 attack"), and the size its name fits at. A name
        that would not fit at its full size beside the whole tag keeps its size and every
        letter: the special card's words go to the start of the provinces line instead
        (Dutch "Bot (Oranje)" beside "#2  +1 leger bij verdediging" was cut to "Bo…")."""
        name = self.labels.get(i) or theme.SEAT_NAMES[i]
        if i in self.me and name != seat_title(i, "", me=True):
            name = _("{name} — you").format(name=name)
        pos = p.get("position")
        special = p.get("special")
        tag = f"#{pos}" if pos else ""
        label = theme.SPECIAL_LABELS.get(special, special) if special else ""
        below = ""
        size = max(FLOOR, 11 * k)
        whole = f"{tag}  {label}".strip()

        def room(tag: str) -> float:
            return self.width - 36 - (geo.text_width(tag, 9.5 * k) if tag else 0) - 12
        # measured as drawn (the label is put again at the panel's one size after)
        width = text.put(("n", i), name, 0, 0, size=size, bold=True).content_width
        if label and width > room(whole):
            below = label
        else:
            tag = whole
        fits = put_fitted(text, ("n", i), name, 0, 0, room(tag), size, min_size=FLOOR,
                          bold=True)
        return _Heading(name, tag, room(tag), fits.font_size, below)

    def _cards(self, text: TextCache, i: int, cards: list[str], top: float, bottom: float, k: float,
               special: str = "") -> None:
        """The seat's province cards, in the room left in its row: never under 11 px, the
        list cut short with how many more (hovering the map names every owner); `special`,
        the seat's special card when its name needed the room beside it, first."""
        width = int(self.width - 14)
        shown = len(cards)
        size = max(FLOOR, 8 * k)
        while True:
            more = len(cards) - shown
            listed = ", ".join(cards[:shown])
            if more:
                listed = ngettext("{list} and {n} more", "{list} and {n} more", more).format(
                    list=listed, n=more)
            line = ngettext("{n} province: {list}", "{n} provinces: {list}", len(cards)).format(
                n=len(cards), list=listed)
            if special:
                line = _("{special} · {provinces}").format(special=special, provinces=line)
            t = text.put(("c", i), line, self.left + 8, top, size=size, color=theme.MUTED,
                         width=width, multiline=True, anchor_y="top")
            if t.content_height <= top - bottom or shown == 0:
                return
            shown -= 1                   # never under 11 px: fewer names, "and N more"


class ActionTrack(CachedPanel):
    """The round's 10 action cards in execution order, face down until revealed."""

    def __init__(self) -> None:
        super().__init__("track")
        self.actions: list[str | None] = [None] * 10
        self.current: int | None = None
        self.season = ""
        self.event: int | None = None           # this round's event card (number)
        self.specials: dict[str, list[int]] = {}   # action -> seats whose special changes it
        self.seat_specials: dict[int, str] = {}
        self.shortened: dict[int, bool] = {}    # card -> its name drawn shortened

    def set_track(self, actions: Iterable[str | None] | None, current: int | None = None,
                  season: str = "") -> None:
        actions = list(actions or [None] * 10)
        if actions != self.actions or current != self.current or season != self.season:
            self.actions, self.current, self.season = actions, current, season
            self.mark_dirty()

    def set_marks(self, event: int | None, players: Mapping[str, PlayerView] | None) -> None:
        """Mark the cards this round's event and the players' special cards change."""
        specials = special_owners(players or {})
        self.seat_specials = {int(k): special for k, p in (players or {}).items()
                              if (special := p.get("special"))}
        if event != self.event or specials != self.specials:
            self.event, self.specials = event, specials
            self.mark_dirty()

    def lead(self) -> float:
        """The room before the first card: the "Actions" heading's, unless the cards need
        it for their names (960 px: Dutch "Gevecht A" cut to "Gev. A")."""
        return 92.0 if (self.width - 100) / 10 >= 80 else 6.0

    def card_x(self, k: int) -> tuple[float, float]:
        lead = self.lead()
        w = (self.width - lead - 6) / 10
        return self.left + lead + k * w, w

    def tooltip_at(self, x: float, y: float) -> str | None:
        """What this round's event and the special cards do to the card under the mouse."""
        if not (self.visible and self.contains(x, y)):
            return None
        for k in range(10):
            cx, w = self.card_x(k)
            a = self.actions[k] if k < len(self.actions) else None
            if not (a and cx <= x < cx + w - 4):
                continue
            lines = [theme.ACTION_SHORT.get(a, a) + "."] if self.shortened.get(k) else []
            if a in event_actions(self.event):
                lines.append(event_sentence(self.event))
            for seat in self.specials.get(a, []):
                special = self.seat_specials.get(seat, "")
                lines.append(_("{seat} holds the {card} card: {text}").format(
                    seat=theme.seat_name(seat), card=theme.SPECIAL_LABELS.get(special, special),
                    text=special_texts().get(special, "")))
            return " ".join(lines) or None
        return None

    def mark_boxes(self, k: int) -> list[tuple[str, tuple[float, float, float, float]]]:
        """What card k carries besides its name, (what, (left, bottom, right, top)): its
        number, the event's badge and the special cards' tokens, all in the card's top
        row, so the action's name below has the card's whole width (issue 27, item 12)."""
        x, w = self.card_x(k)
        a = self.actions[k] if k < len(self.actions) else None
        top = self.top - 9
        num = geo.text_width(str(k + 1), 8) * 0.9
        out = [("number", (x + 4, top - 10, x + 4 + num, top))]
        right = x + w - 6
        if a and a in event_actions(self.event):
            out.append(("event", (right - 14, top - 14, right, top)))
            right -= 16
        seats = self.specials.get(a, []) if a else []
        if seats:
            room = right - (x + 6 + num)
            r = max(3.0, min(5.0, (room / len(seats) - 2) / 2))
            for j, seat in enumerate(seats):
                cx = right - r - j * (2 * r + 2)
                out.append((f"seat {seat}", (cx - r, top - 7 - r, cx + r, top - 7 + r)))
        return out

    def label_centre(self, k: int) -> tuple[float, float]:
        x, w = self.card_x(k)
        return x + (w - 4) / 2, self.bottom + 6 + (self.height - 12 - 18) / 2

    def paint(self, text: TextCache) -> None:
        draw_panel(self.left, self.bottom, self.width, self.height, fill=(236, 226, 205))
        if self.lead() > 50:
            text.put("h", _("Actions"), self.left + 8, self.top - 16, size=10, bold=True,
                     color=theme.INK)
        for k in range(10):
            x, w = self.card_x(k)
            a = self.actions[k] if k < len(self.actions) else None
            face = (250, 246, 232) if a else (120, 95, 80)
            if self.current == k + 1:
                arcade.draw_lbwh_rectangle_filled(x - 2, self.bottom + 3, w - 0, self.height - 6, (240, 190, 60))
            arcade.draw_lbwh_rectangle_filled(x, self.bottom + 6, w - 4, self.height - 12, face)
            arcade.draw_lbwh_rectangle_outline(x, self.bottom + 6, w - 4, self.height - 12, (80, 60, 50), 1)
            for what, (l, b, r, t) in self.mark_boxes(k):
                if what == "number":
                    text.put(("s", k), str(k + 1), l, b + 1, size=FLOOR,
                             color=(90, 80, 70) if a else (230, 220, 200))
                elif what == "event":        # this round's event changes this action
                    arcade.draw_circle_filled((l + r) / 2, (b + t) / 2, 8, (150, 40, 30))
                    text.put(("ev", k), str(self.event), (l + r) / 2, (b + t) / 2, size=FLOOR,
                             bold=True, anchor_x="center", anchor_y="center",
                             color=(255, 255, 255))
                else:                        # a special card acts here
                    seat_token(int(what.split()[1]), (l + r) / 2, (b + t) / 2, (r - l) / 2)
        self._names(text)

    def _names(self, text: TextCache) -> None:
        """The ten names, all at one size and weight (a row of "Paleis" at 13 px beside
        "5 lege." at 11 px read as two kinds of card): the largest size at which every name
        fits whole, bold if they all fit bold, else regular; a name that fits neither way
        at 11 px is shortened ('Gev. B', its tooltip says it whole), still at that size."""
        cards = []
        for k in range(10):
            x, w = self.card_x(k)
            a = self.actions[k] if k < len(self.actions) else None
            label = theme.ACTION_SHORT.get(a, a) if a else "?"
            cards.append((k, a, label, self.label_centre(k), w - 6))

        def sizes(bold: bool) -> list[tuple[float, bool]]:
            out = []
            for k, a, label, (lx, ly), room in cards:
                t = put_fitted(text, ("a", k), label, lx, ly, room, 10, min_size=FLOOR,
                               bold=bold and bool(a), anchor_x="center", anchor_y="center")
                out.append((t.font_size, t.content_width <= room + 0.5))
            return out
        bold = True
        fitted = sizes(True)
        if not all(whole for _size, whole in fitted):
            bold, fitted = False, sizes(False)
        size = min(s for s, _whole in fitted)
        for (k, a, label, (lx, ly), room), (_s, whole) in zip(cards, fitted):
            ink = theme.INK if a else (240, 230, 210)
            short = label if whole else abbreviated(label, size, room - 2, geo.text_width)
            self.shortened[k] = short != label
            put_fitted(text, ("a", k), short, lx, ly, room, size, min_size=size, cut=True,
                       bold=bold and bool(a), anchor_x="center", anchor_y="center", color=ink)


class EventsPanel(CachedPanel):
    def __init__(self) -> None:
        super().__init__("events")
        self.info: tuple[int | None, str | None, tuple[int, ...], int | None] | None = None

    def set_events(self, year: int | None, season: str | None, events: Iterable[int] | None,
                   current: int | None) -> None:
        info = (year, season, tuple(events or ()), current)
        if info != self.info:
            self.info = info
            self.mark_dirty()

    def paint(self, text: TextCache) -> None:
        draw_panel(self.left, self.bottom, self.width, self.height, fill=(240, 232, 214))
        if not self.info:
            return
        year, season, events, current = self.info
        season = SEASON_HEADINGS.get(season or "", season or "")
        text.put("h", _("Year {year} — {season}").format(year=year, season=season),
                 self.left + 8,
                 self.top - 17, size=11, bold=True, color=theme.INK)
        head = _("This year's event cards (right: winter rice loss)")
        one_each = self._lines(text, events, current, self.top - 50, draw=False) > 0
        if one_each:
            h2 = put_fitted(text, "h2", head, self.left + 8, self.top - 33, self.width - 16, 8.5,
                            min_size=FLOOR, color=theme.MUTED)
            if h2.content_width > self.width - 16:     # its head whole rather than cut
                put_fitted(text, "h2", status_head(head), self.left + 8, self.top - 33,
                           self.width - 16, 8.5, min_size=FLOOR, cut=True, color=theme.MUTED)
        # a line too long for one (a narrow window) takes two, and the lines start where
        # the head was
        y = self._lines(text, events, current, self.top - (50 if one_each else 34), draw=True)
        if current and current not in events:
            text.put("cur", _("Now: {event}").format(event=theme.EVENT_TEXT.get(current, current)), self.left + 8, y,
                     size=9, bold=True, color=(150, 40, 30))

    def _lines(self, text: TextCache, events: tuple[int, ...], current: int | None, y: float,
               draw: bool) -> float:
        """The year's events from `y` down, each whole: in bold when current unless that
        is too wide (the bar marks it), else on two lines. Returns where the next line
        goes; without `draw`, 0.0 as soon as a line needs two (nothing drawn yet)."""
        room = self.width - 16 - 30
        for k, ev in enumerate(events):
            cur = ev == current
            line = f"{ev}. {theme.EVENT_TEXT.get(ev, '?')}"
            t = put_fitted(text, ("e", k), line, self.left + 8, y, room, 8.5, min_size=FLOOR,
                           bold=cur, color=theme.INK)
            if t.content_width > room:
                t = put_fitted(text, ("e", k), line, self.left + 8, y, room, 8.5,
                               min_size=FLOOR, color=theme.INK)
            high = 17.0
            if t.content_width > room + 0.5:
                if not draw:
                    return 0.0
                t = text.put(("e", k), line, self.left + 8, y + 10, size=FLOOR,
                             width=int(room), multiline=True, anchor_y="top", color=theme.INK)
                high = t.content_height + 4
            if cur and draw:
                arcade.draw_lbwh_rectangle_filled(self.left + 3, y + 12 - high, self.width - 6,
                                                  high, (250, 215, 130))
            text.put(("r", k), f"−{theme.EVENT_RICE_LOSS.get(ev, '?')}", self.right - 8, y, size=8.5,
                     bold=cur, color=(120, 80, 20), anchor_x="right")
            y -= high
        return y


class LogPanel(Node):
    """A scrolling log of plain-word lines (mouse wheel scrolls back)."""

    MAX = 400

    def __init__(self) -> None:
        super().__init__("log")
        self.lines: list[tuple[str, RGBOrA255]] = []
        self.first = 0          # the number of `lines[0]` in the game's log (lines are dropped)
        self.scroll = 0
        self.texts = TextCache()
        self._layer = CachedLayer()

    def clear(self) -> None:
        self.first += len(self.lines)
        self.lines = []
        self.scroll = 0
        self.mark_dirty()

    def add_line(self, line: str, colour: RGBOrA255 = theme.INK) -> None:
        self.lines.append((line, colour))
        if len(self.lines) > self.MAX:
            self.first += len(self.lines) - self.MAX
            del self.lines[: len(self.lines) - self.MAX]
        self.scroll = 0
        self.mark_dirty()

    def rebuild(self) -> None:
        self._layer.render((self.left, self.bottom, self.width, self.height), self._paint)

    def _paint(self) -> None:
        draw_panel(self.left, self.bottom, self.width, self.height, fill=(250, 247, 238))
        self.texts.begin()
        self.texts.put("h", _("Game log"), self.left + 8, self.top - 16, size=10, bold=True, color=theme.INK)
        y = self.bottom + 6
        end = len(self.lines) - self.scroll
        k = end - 1
        while k >= 0 and y < self.top - 40:
            line, colour = self.lines[k]
            # keyed by the line's number in the log, not its place in the panel: a new
            # line moves the others up without laying their words out again (issue 48:
            # a line added re-laid every shown line, 15-45 ms as a battle's stage closed)
            key = ("l", self.first + k)
            t = self.texts.put(key, line, self.left + 6, y, size=8.5, color=colour,
                               width=int(self.width - 12), multiline=True, anchor_y="bottom")
            if y + t.content_height > self.top - 24:
                self.texts._used.discard(key)    # would cover the heading: stop
                break
            y += max(13, t.content_height) + 2
            k -= 1
        self.texts.end(forget=True)
        self.texts.draw()

    def newest_rect(self) -> tuple[float, float, float, float]:
        """Where the newest line is drawn (at the panel's foot; what a card that speaks
        of it keeps clear of): its wrapped height measured at the panel's width."""
        line = self.lines[-1][0] if self.lines and self.scroll == 0 else ""
        high = arcade.Text(line, 0, 0, font_size=8.5, width=int(max(10, self.width - 12)),
                           multiline=True).content_height if line else 13
        return (self.left, self.bottom, self.width, 6 + max(13.0, float(high)))

    def on_draw(self) -> None:
        self._layer.draw()

    def on_mouse_scroll(self, x: float, y: float, sx: float, sy: float) -> bool:
        if self.contains(x, y):
            self.scroll = max(0, min(len(self.lines) - 1, self.scroll + int(sy)))
            self.mark_dirty()
            return True
        return False
