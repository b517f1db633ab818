"""A film's title card and result card (issue 36 item 5): sentences laid over a darkened,
blurred frame of the battle itself, in the player's language.

Why over the battle's own frame: the card then opens on (and closes with) the very table
the film shows, and needs no art of its own.

Tests: tests/client/film/test_film_cards.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageEnhance, ImageFilter

from client.core import theme
from client.tower.cube_textures import font
from lang.i18n import _
from client.words.seasons import SEASON_HEADINGS
from sim import events as ev

if TYPE_CHECKING:
    from sim.snapshot import PublicState


def title_lines(battle: ev.BattleResolved, display: PublicState | None) -> list[str]:
    """When (year and season), who against whom, where."""
    d: Mapping[str, object] = display or {}
    season = str(d.get("season") or "")
    when = _("{season} of year {year}").format(season=SEASON_HEADINGS.get(season, season),
                                                year=d.get("year", 1)) if season else ""
    kind, prov = battle.get("kind"), battle.get("province")
    where = (_("Revolt in {province}") if kind == "revolt" else
             _("Attack on neutral {province}") if kind == "neutral" else
             _("Battle in {province}")).format(province=prov)
    who = _("{attacker} against {defender}").format(
        attacker=theme.seat_name(battle.get("attacker")),
        defender=theme.seat_name(battle.get("defender")))
    return [when, who, where]


def _colour_of(who: object) -> tuple[int, int, int]:
    if who in ("peasant", 5, None):
        return (230, 220, 200)
    c = theme.seat_colour(who)
    return (int(c[0]), int(c[1]), int(c[2]))


def card(frame: Image.Image, lines: Sequence[str], accent: int | str | None = None) -> Image.Image:
    """`lines` centred over `frame` darkened and blurred: the first small, the second
    large (in `accent`'s seat colour when given), the rest medium."""
    w, h = frame.size
    k = h / 720
    base = frame.convert("RGB").filter(ImageFilter.GaussianBlur(6 * k))
    out = ImageEnhance.Brightness(base).enhance(0.35)
    d = ImageDraw.Draw(out)
    sizes = [int(30 * k), int(58 * k)] + [int(32 * k)] * max(0, len(lines) - 2)
    shown = [(line, s) for line, s in zip(lines, sizes) if line]
    gap = int(22 * k)
    total = sum(s for _l, s in shown) + gap * (len(shown) - 1)
    y = (h - total) / 2
    for n, (line, s) in enumerate(shown):
        f = font(s)
        while f.getlength(line) > w * 0.92 and s > 10:      # a long name still fits
            s -= 2
            f = font(s)
        ink = _colour_of(accent) if (n == 1 and accent is not None) else (255, 244, 220)
        dark = 0.299 * ink[0] + 0.587 * ink[1] + 0.114 * ink[2] < 110   # Black's name
        d.text((w / 2, y + s / 2), line, fill=ink, font=f, anchor="mm",
               stroke_width=max(1, int((3 if dark else 2) * k)),
               stroke_fill=(235, 225, 205) if dark else (0, 0, 0))
        y += s + gap
    return out


def beside(frame: Image.Image, point: tuple[float, float], lines: Sequence[str],
           accent: int | str | None = None) -> Image.Image:
    """The map shot's result (issue 48): `lines` (the decision large, in `accent`'s
    colour, then the totals and the survivors) in a box beside `point` (the province, in
    the frame's pixels from its top left): right of it when there is room, else left."""
    w, h = frame.size
    k = h / 720
    out = frame.convert("RGB")
    d = ImageDraw.Draw(out, "RGBA")
    sizes = [int(34 * k)] + [int(24 * k)] * max(0, len(lines) - 1)
    shown = [(line, font(s), s) for line, s in zip(lines, sizes) if line]
    pad, gap, off = int(16 * k), int(10 * k), int(40 * k)
    bw = int(min(w * 0.45, max(f.getlength(line) for line, f, _s in shown) + 2 * pad))
    bh = int(sum(s for _l, _f, s in shown) + gap * (len(shown) - 1) + 2 * pad)
    x, y = point
    left = x + off if x + off + bw <= w - 8 else max(8, x - off - bw)
    top = min(max(8, y - bh / 2), h - 8 - bh)
    edge = _colour_of(accent)
    d.rectangle((left, top, left + bw, top + bh), fill=(28, 20, 16, 225), outline=edge,
                width=max(2, int(3 * k)))
    ty = top + pad
    for n, (line, f, s) in enumerate(shown):
        while f.getlength(line) > bw - 2 * pad and s > 10:    # a long name still fits
            s -= 2
            f = font(s)
        ink = edge if n == 0 and accent is not None else (255, 244, 220)
        dark = 0.299 * ink[0] + 0.587 * ink[1] + 0.114 * ink[2] < 110   # Black's name
        d.text((left + pad, ty), line, fill=ink, font=f, anchor="la",
               stroke_width=max(1, int(2 * k)), stroke_fill=(235, 225, 205) if dark else (0, 0, 0))
        ty += s + gap
    return out
