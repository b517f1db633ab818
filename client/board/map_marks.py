"""Marks on the map that come and go with the game: winter scoring chips (the majorities
per region) placed clear of every province name and army token, and this round's event
where it acts (a badge on the temples that cannot be attacked, on the palaces defended by
one more army) with a sentence in the province tooltip.

Tests: tests/client/board/test_event_marks.py, tests/client/game/test_winter_view.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from client.board import map_geometry as geo
from client.core import theme
from client.board.event_marks import defended_by_special, event_provinces, event_sentence
from client.core.palette import style_of
from client.widgets.text_fit import abbreviated
from lang.i18n import _
from client.board.map_legend import legend_rect

if TYPE_CHECKING:
    from client.board.board_view import BoardView
    from sim.snapshot import ProvinceView

Put = Callable[..., None]    # adds a shape of one colour to the map's mesh

EVENT_BADGE = (150, 40, 30)
Box = tuple[float, float, float, float]      # left, bottom, right, top
Tagged = Box | tuple[float, float, float, float, str]   # a box, or one tagged ("chip")


def _pt(size: float) -> float:
    return max(1.0, int(size * 2) / 2)


def label_boxes(view: BoardView, s: float) -> tuple[list[Box], list[Box]]:
    """(names, tokens): (left, bottom, right, top) of every province name and army token
    as drawn (a name's box a little generous)."""
    names, tokens = [], []
    for name in view.shapes["provinces"]:
        cx, cy = view.province_centre(name)
        label, size = view.name_label(name)
        tw = geo.text_width(label, size) + 2
        names.append((cx - tw / 2, cy + 11 * s - 1, cx + tw / 2,
                      cy + 11 * s + size * 96 / 72 * 0.75 + 1))
        r = 10.5 * s * 1.25
        tokens.append((cx - r, cy - r, cx + r, cy + r))
    return names, tokens


def _clear(box: Box, taken: Iterable[Tagged]) -> bool:
    """No overlap with any box in `taken` (boxes may carry a tag after their 4 numbers)."""
    return not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                   for b in taken)


def drawn_names(view: BoardView, s: float) -> list[Box]:
    """The province names' boxes as drawn this build (descenders and accents with them),
    or as `label_boxes` reckons them where a name is not drawn yet."""
    reckoned, _tokens = label_boxes(view, s)
    out = []
    for name, box in zip(view.shapes["provinces"], reckoned):
        t = view.texts.labels.get(("n", name))
        out.append((t.left, t.bottom, t.right, t.top) if t is not None and t.visible else box)
    return out


class Ground:
    """Which region's province lies under each pixel of the map (0: the sea), drawn
    once per build, for keeping a region's chip on its own provinces or on the sea
    beside them."""

    def __init__(self, view: BoardView) -> None:
        from PIL import Image, ImageDraw
        regions = sorted({p.region[view.side] for p in view.board.provinces.values()})
        self.code = {r: k + 1 for k, r in enumerate(regions)}
        self.x0, self.y0 = view.left, view.bottom
        w, h = int(view.width) + 2, int(view.height) + 2
        img = Image.new("L", (w, h), 0)
        pen = ImageDraw.Draw(img)
        for name, poly in view.screen_polys.items():
            code = self.code[view.board.provinces[name].region[view.side]]
            pen.polygon([(x - self.x0, h - 1 - (y - self.y0)) for x, y in poly], fill=code)
        self.grid = np.asarray(img)[::-1]                  # row 0 at the map's bottom

    def foreign(self, boxes: np.ndarray, region: str) -> np.ndarray:
        """Which of `boxes` have any of a 21 x 9 grid of points over them on another
        region's province."""
        fx, fy = np.linspace(0.0, 1.0, 21), np.linspace(0.0, 1.0, 9)
        xs = boxes[:, 0, None] + (boxes[:, 2] - boxes[:, 0])[:, None] * fx
        ys = boxes[:, 1, None] + (boxes[:, 3] - boxes[:, 1])[:, None] * fy
        ix = np.clip((xs - self.x0).astype(int), 0, self.grid.shape[1] - 1)
        iy = np.clip((ys - self.y0).astype(int), 0, self.grid.shape[0] - 1)
        codes = self.grid[iy[:, :, None], ix[:, None, :]]
        out: np.ndarray = np.asarray(((codes != 0) & (codes != self.code.get(region, -1)))
                                     .any(axis=(1, 2)), dtype=bool)
        return out


def _spots(view: BoardView, cx: float, cy: float, w: float, h: float) -> np.ndarray:
    """Boxes (left, bottom, right, top) of size w x h inside the map, their centres on a
    grid half a chip high around (cx, cy), nearest first (in pixels, any direction: the
    rings of old went six chip widths sideways before two heights down, so a region's
    chips at 1280x800 went to the sea a region away rather than the coast below)."""
    step = max(h * 0.5, 4.0)
    n = int(max(view.width, view.height) * 0.6 / step)
    ks = np.arange(-n, n + 1) * step
    xs, ys = np.meshgrid(cx + ks, cy + ks)
    xs, ys = xs.ravel(), ys.ravel()
    order = np.argsort(np.hypot(xs - cx, ys - cy), kind="stable")
    xs, ys = xs[order], ys[order]
    boxes = np.stack([xs - w / 2, ys - h / 2, xs + w / 2, ys + h / 2], axis=1)
    inside = (boxes[:, 0] >= view.left) & (boxes[:, 2] <= view.right) & \
        (boxes[:, 1] >= view.bottom) & (boxes[:, 3] <= view.top)
    return boxes[inside]


def _free(boxes: np.ndarray, taken: Sequence[Tagged]) -> np.ndarray:
    """Which of `boxes` meet none of `taken`."""
    if not taken or not len(boxes):
        return np.ones(len(boxes), dtype=bool)
    t = np.array([b[:4] for b in taken], dtype=float)
    meet = (boxes[:, None, 0] < t[None, :, 2]) & (t[None, :, 0] < boxes[:, None, 2]) & \
        (boxes[:, None, 1] < t[None, :, 3]) & (t[None, :, 1] < boxes[:, None, 3])
    free: np.ndarray = np.asarray(~meet.any(axis=1), dtype=bool)
    return free


def place_chip(view: BoardView, cx: float, cy: float, w: float, h: float, names: Sequence[Box],
               others: Sequence[Tagged], region: str | None = None,
               ground: Ground | None = None) -> Box:
    """The box nearest (cx, cy) of size w x h inside the map, clear of the province names
    and of `others` (tokens, chips already placed) — or, in a crowded small map, clear of
    the names at least. Given a `region` (and the `ground`), the box lies on that
    region's provinces or on the sea beside them, not on another region's, where any
    such spot is free (issue 49: the western region's chips lay over Iyo)."""
    boxes = _spots(view, cx, cy, w, h)
    if not len(boxes):
        return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    chips = [b for b in others if b[4:] == ("chip",)]
    off_names = _free(boxes, names)
    off_chips = off_names & _free(boxes, chips)
    rules = (off_chips & _free(boxes, [b for b in others if b[4:] != ("chip",)]), off_chips,
             off_names)
    known = np.zeros(len(boxes), dtype=bool)       # which boxes' ground is looked at
    away = np.zeros(len(boxes), dtype=bool)        # ... and lie on another region

    def first(free: np.ndarray, keep_home: bool) -> int | None:
        hits = np.flatnonzero(free)
        if not keep_home or region is None or ground is None:
            return int(hits[0]) if len(hits) else None
        for k in range(0, len(hits), 128):           # nearest first, a few at a time
            some = hits[k:k + 128]
            new = some[~known[some]]
            away[new] = ground.foreign(boxes[new], region)
            known[new] = True
            ok = some[~away[some]]
            if len(ok):
                return int(ok[0])
        return None
    # clear of everything on its own region or the sea, then of the names and chips
    # there, then anywhere; clear of the names at least
    for free, keep_home in ((rules[0], True), (rules[1], True), (rules[0], False),
                            (rules[1], False), (rules[2], True), (rules[2], False)):
        i = first(free, keep_home)
        if i is not None:
            l, b, r, t = (float(v) for v in boxes[i])
            return (l, b, r, t)
    l, b, r, t = (float(v) for v in boxes[0])
    return (l, b, r, t)


def build_winter_marks(view: BoardView, put: Put, s: float) -> None:
    """Winter scoring: near each region's middle, a chip per seat holding a majority
    there, in the seat's colour with its letter and the points it scored, on the
    region's own provinces or the sea beside them, never over a province's name (as
    drawn), the legend, the title or another chip, nor over an army token where there is
    room."""
    _names, tokens = label_boxes(view, s)
    # the names as drawn, the legend and the scoring's title: never under a chip (at
    # 960x640 a chip found the sea under the legend)
    names = drawn_names(view, s) + [(l, b, l + w, b + h) for l, b, w, h in
                                    (legend_rect(view, s), *view.marks_clear_of())]
    ground = Ground(view)
    others: list[Tagged] = list(tokens)
    size = max(theme.SMALLEST_TYPE, _pt(8.5 * s))        # never under 11 px (issue 37)
    h = max(18 * s, size * 2.1)
    edge, width = max(1.0, 1 * s), max(3.0, 3 * s)      # the chip's dark edges and its region's band
    view.mark_boxes = []
    for region, rows in sorted(view.marks.items()):
        cx, cy = view.region_centre(region)
        y = cy + (len(rows) - 1) * h / 2
        for k, (seat, text) in enumerate(rows):
            style = style_of(seat)
            colour = style.colour if style else (128, 128, 128)
            label = f"{style.letter if style else '?'}  {text}"
            w = geo.text_width(label, size) + 18 * s
            box = place_chip(view, cx, y, w, h, names, others, region, ground)
            others.append(box + ("chip",))
            view.mark_boxes.append(box)
            # framed in its region's band colour: a chip that found room only on the sea,
            # away from its region (the central region at 960x640), still says whose it is
            band = theme.REGION_COLOURS.get(region, (20, 20, 20))
            put(geo.rect(*box), (20, 20, 20))
            for inset, fill in ((edge, band), (edge + width, (20, 20, 20)), (2 * edge + width, colour)):
                put(geo.rect(box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), fill)
            view.texts.put(("m", region, k), label, (box[0] + box[2]) / 2,
                           (box[1] + box[3]) / 2 + 0.5 * s, size=size,
                           color=theme.text_on(colour), anchor_x="center", anchor_y="center",
                           bold=True)
            y = box[1] - h / 2


def build_event_badges(view: BoardView, put: Put, provs: Mapping[str, ProvinceView], s: float) -> None:
    """This round's event on the provinces it changes: a small red tag under the name's
    right end ("no attack" on a shielded temple, "+1" on a defended palace)."""
    event = view.state["current_event"] if view.state else None
    names, tokens = label_boxes(view, s)
    ll, lb, lw, lh = legend_rect(view, s)
    placed: list[tuple[float, float, float, float]] = [(ll, lb, ll + lw, lb + lh)]
    size = max(theme.SMALLEST_TYPE, _pt(7 * s))          # never under 11 px (issue 37)
    half = max(5.5 * s, size * 0.72)                     # the red tag's half height
    grown = half / (5.5 * s)                             # the spots further apart with it

    def meets(a: Sequence[float], b: Sequence[float]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    near = [(dx, dy) for dy in (-31.5, -45.0, -18.0, -58.0, 24.0, 38.0)
            for dx in (12.0, -12.0, 30.0, -30.0, 48.0, -48.0)]
    # further out, for a crowded map (every temple shielded on a 960x640 window)
    far = [(dx, dy) for dy in (-72.0, 52.0, -86.0, 66.0, 0.0, -100.0, 80.0, -114.0, 94.0)
           for dx in (0.0, 24.0, -24.0, 48.0, -48.0, 72.0, -72.0, 96.0, -96.0, 120.0, -120.0)]
    for name, whole in sorted(event_provinces(event, provs).items()):
        cx, cy = view.province_centre(name)
        short = abbreviated(whole, size, geo.text_width(whole, size) * 0.6, geo.text_width)
        # under the name's right end; else left, lower or higher: clear of the other tags
        # (neighbouring temples' "no attack" ran into each other) and of the names, and of
        # the army tokens where it can; with no such spot near, the word shortened ('no
        # att.'; the tooltip says it whole), then a spot a little further out
        tiers = [(whole, near, names + tokens), (whole, near, names), (short, near, names + tokens),
                 (short, near, names), (short, far, names + tokens), (short, far, names),
                 (short, near + far, [])]
        for word, offsets, avoid in tiers:
            w = geo.text_width(word, size) + 8 * s

            def box(at: tuple[float, float], w: float = w) -> tuple[float, float, float, float]:
                return (at[0] - w / 2 - 3 * s, at[1] - half - 4.5 * s, at[0] + w / 2 + 3 * s,
                        at[1] + half + 4.5 * s)
            spots = [(cx + dx * s, cy + dy * s * grown) for dx, dy in offsets]
            inside = [p for p in spots if view.left <= box(p)[0] and box(p)[2] <= view.right
                      and view.bottom <= box(p)[1] and box(p)[3] <= view.top]
            free = [p for p in inside if not any(meets(box(p), q) for q in placed + avoid)]
            if free:
                break
        x, y = (free or inside or spots)[0]
        placed.append(box((x, y)))
        put(geo.rect(x - w / 2 - 1 * s, y - half - 1 * s, x + w / 2 + 1 * s, y + half + 1 * s),
            (255, 255, 255))
        put(geo.rect(x - w / 2, y - half, x + w / 2, y + half), EVENT_BADGE)
        view.texts.put(("ev", name), word, x, y, size=size, color=(255, 255, 255),
                       anchor_x="center", anchor_y="center", bold=True)


def province_notes(view: BoardView, name: str) -> list[str]:
    """Tooltip lines: how this round's event and the special cards change this province."""
    state = view.state
    if state is None:
        return []
    provs = state["provinces"]
    lines = []
    event = state.get("current_event")
    if name in event_provinces(event, provs):
        lines.append(event_sentence(event))
    owner = provs[name]["owner"] if name in provs else None
    if owner is not None and owner in defended_by_special(state["players"]):
        lines.append(_("{seat} holds the +1 defence card: an attack here meets one more army "
                       "from their supply.").format(seat=theme.seat_name(owner)))
    return lines
