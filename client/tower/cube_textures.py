"""Tower cube textures, drawn by the project's own code: a cube's face (the seat's colour,
shaded as a lit wooden cube with a contrasting outline, so a black cube does not vanish on
a dark tower) and its mark (the seat's letter, issue 13's colour-blind mark) as separate
textures.

Why separate: a cube turns as it tumbles, but its letter must not (issue 27 item 9: an
upside-down White "W" read as Magenta's "M"). The tower view draws the face at the cube's
angle and the mark upright at its centre. The face comes in four quarter turns, so the
tower view can pick the one whose lit edges stay at the top left whatever the cube's angle
(the light is the room's, not the cube's).

Tests: tests/client/tower/test_cubes.py.
"""

from __future__ import annotations

from functools import lru_cache

import arcade
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from client.core.text_cache import bold_font_files
from client.core.palette import style_of
from client.core.theme import text_on

PX = 48  # texture size; sprites scale it to the cube's drawn size


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The bold sans the cubes' letters (and the films' bands) are written in."""
    for name in bold_font_files():
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def _mix(a: tuple[int, ...], b: tuple[int, ...], u: float) -> tuple[int, int, int]:
    return (int(a[0] + (b[0] - a[0]) * u), int(a[1] + (b[1] - a[1]) * u),
            int(a[2] + (b[2] - a[2]) * u))


def _style(code: int) -> tuple[tuple[int, int, int], str]:
    style = style_of(code)
    colour = tuple(style.colour[:3]) if style else (128, 128, 128)
    return (int(colour[0]), int(colour[1]), int(colour[2])), (style.letter if style else "?")


def outline_of(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """A dark outline on light cubes, a light one on dark cubes."""
    ink = text_on(colour)
    return (235, 235, 225) if ink[0] > 128 else (20, 20, 20)


@lru_cache(maxsize=None)
def cube_face(code: int, quarter: int = 0) -> arcade.Texture:
    """The face of a cube of seat `code` (5 = peasants), no letter: a bevel lit from the
    top left (lighter top and left edges, darker bottom and right), turned back by
    `quarter` quarter turns so that a sprite turned by about that many quarters shows the
    light still coming from the top left."""
    colour, _ = _style(code)
    edge = outline_of(colour)
    img = Image.new("RGBA", (PX, PX), edge + (255,))
    d = ImageDraw.Draw(img)
    b, bev = 3, PX // 7
    lo, hi = b, PX - 1 - b
    light, dark = _mix(colour, (255, 250, 235), 0.45), _mix(colour, (0, 0, 0), 0.38)
    d.polygon([(lo, hi), (lo, lo), (hi, lo), (hi - bev, lo + bev), (lo + bev, lo + bev),
               (lo + bev, hi - bev)], fill=light + (255,))                       # top, left
    d.polygon([(hi, lo), (hi, hi), (lo, hi), (lo + bev, hi - bev), (hi - bev, hi - bev),
               (hi - bev, lo + bev)], fill=dark + (255,))                        # bottom, right
    # the face: a soft gradient from the lit corner, and a faint wood grain
    top, bottom = _mix(colour, (255, 255, 255), 0.12), _mix(colour, (0, 0, 0), 0.08)
    for k in range(lo + bev, hi - bev + 1):
        u = (k - lo - bev) / max(1, hi - lo - 2 * bev)
        d.line([(lo + bev, k), (hi - bev, k)], fill=_mix(top, bottom, u) + (255,))
    for k in range(3):
        y = lo + bev + 5 + k * (PX // 5)
        d.line([(lo + bev + 2, y), (hi - bev - 2, y + 1)], fill=_mix(colour, (0, 0, 0), 0.05) + (255,))
    if quarter % 4:
        img = img.rotate(-90 * (quarter % 4))       # PIL turns counter-clockwise
    return arcade.Texture(img, hash=f"shogun-cube-face-{code}-{quarter % 4}-{colour}")


@lru_cache(maxsize=None)
def cube_mark(code: int) -> arcade.Texture:
    """The seat's letter on a clear ground, with a halo in the cube's colour so that it
    reads over the cube's edges when the face under it is turned."""
    colour, letter = _style(code)
    ink = text_on(colour)
    img = Image.new("RGBA", (PX, PX), colour + (0,))
    f = font(int(PX * 0.64))       # the letter about half the cube (11 px on a 20 px cube)
    halo = Image.new("RGBA", (PX, PX), colour + (0,))
    ImageDraw.Draw(halo).text((PX / 2, PX / 2 + 1), letter, fill=colour + (255,), font=f,
                              anchor="mm", stroke_width=3, stroke_fill=colour + (255,))
    img.alpha_composite(halo.filter(ImageFilter.GaussianBlur(1.2)))
    ImageDraw.Draw(img).text((PX / 2, PX / 2 + 1), letter, fill=ink + (255,), font=f, anchor="mm")
    return arcade.Texture(img, hash=f"shogun-cube-mark-{code}-{letter}-{colour}")


@lru_cache(maxsize=None)
def glow() -> arcade.Texture:
    """A soft warm light behind a cube just thrown (it stands out from those inside)."""
    img = Image.new("RGBA", (PX, PX), (255, 236, 170, 0))
    d = ImageDraw.Draw(img)
    for r in range(PX // 2, 0, -1):
        a = int(150 * (1 - r / (PX / 2)) ** 1.5)
        d.ellipse((PX / 2 - r, PX / 2 - r, PX / 2 + r, PX / 2 + r), fill=(255, 236, 170, a))
    return arcade.Texture(img, hash="shogun-cube-glow")


@lru_cache(maxsize=None)
def shadow() -> arcade.Texture:
    """A cube's soft shadow on what it lies on (issue 48: light and depth): a dark rounded
    square, blurred; drawn under the cube, away from the light (the top left)."""
    img = Image.new("RGBA", (PX, PX), (0, 0, 0, 0))
    m = PX // 6
    ImageDraw.Draw(img).rounded_rectangle((m, m, PX - 1 - m, PX - 1 - m), radius=PX // 8,
                                          fill=(12, 6, 2, 150))
    return arcade.Texture(img.filter(ImageFilter.GaussianBlur(PX / 14)), hash="shogun-cube-shadow")


def warm_cube_textures() -> None:
    """Make every cube's textures now (a stage's first frame made those it showed)."""
    for code in range(6):                       # the five seats and the peasants (5)
        for q in range(4):
            cube_face(code, q)
        cube_mark(code)
    glow()
    shadow()
