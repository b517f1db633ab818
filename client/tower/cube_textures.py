"""Tower cube textures: the seat's colour, a contrasting outline and the seat's letter, so a
cube reads without colour (issue 13) and a black cube does not vanish on a dark tower.

Tests: tests/client/tower/test_battle_view.py (the cubes drawn).
"""

from __future__ import annotations

from functools import lru_cache

import arcade
from PIL import Image, ImageDraw, ImageFont

from client.core.palette import style_of
from client.core.theme import text_on

PX = 48  # texture size; sprites scale it to the cube's drawn size


def _font(size: int):
    for name in ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=None)
def cube_texture(code: int) -> arcade.Texture:
    """The texture for a cube of seat `code` (5 = peasants)."""
    style = style_of(code)
    colour = style.colour if style else (128, 128, 128)
    letter = style.letter if style else "?"
    ink = text_on(colour)
    edge = (235, 235, 225) if ink[0] > 128 else (20, 20, 20)
    img = Image.new("RGBA", (PX, PX), edge + (255,))
    d = ImageDraw.Draw(img)
    b = PX // 8
    d.rectangle((b, b, PX - 1 - b, PX - 1 - b), fill=colour + (255,))
    f = _font(int(PX * 0.62))
    d.text((PX / 2, PX / 2 + 1), letter, fill=ink + (255,), font=f, anchor="mm")
    return arcade.Texture(img, hash=f"shogun-cube-{code}-{letter}-{colour}")
