"""Draw the game's icon into assets/icon.png (256x256 RGBA): the battle tower before a red sun.

    .venv/bin/python tools/make_icon.py [OUT.png]

Why drawn here: the project ships no borrowed artwork (as tools/make_sounds.py for the
sounds). One picture serves everywhere: the window's icon (`client.app`), the bundle's
executable on Windows and macOS (PyInstaller converts it) and the Linux menu entry the
download carries (`packaging/shogun.desktop`). Drawing again writes the same pixels
(tests/tools/test_make_icon.py checks it).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "assets" / "icon.png"
SIZE = 256
SCALE = 4                       # drawn large and scaled down: smooth edges
PARCHMENT = (226, 218, 198, 255)
SUN = (196, 40, 32, 255)
WOOD = (58, 44, 32, 255)
CUBES = ((40, 90, 170, 255), (230, 150, 30, 255), (40, 130, 70, 255), (150, 60, 150, 255))


def draw() -> Image.Image:
    n = SIZE * SCALE
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = SCALE
    d.rounded_rectangle((8 * s, 8 * s, 248 * s, 248 * s), radius=40 * s, fill=PARCHMENT)
    d.ellipse((58 * s, 30 * s, 198 * s, 170 * s), fill=SUN)
    # the tower: a tall frame narrowing upwards, with two slanted shelves inside
    d.polygon([(92 * s, 40 * s), (164 * s, 40 * s), (178 * s, 206 * s), (78 * s, 206 * s)], fill=WOOD)
    d.polygon([(102 * s, 52 * s), (154 * s, 52 * s), (164 * s, 196 * s), (92 * s, 196 * s)],
              fill=PARCHMENT)
    d.line([(100 * s, 92 * s), (150 * s, 108 * s)], fill=WOOD, width=8 * s)
    d.line([(160 * s, 132 * s), (106 * s, 150 * s)], fill=WOOD, width=8 * s)
    # the tray, and cubes fallen out of the tower
    d.rectangle((40 * s, 206 * s, 216 * s, 222 * s), fill=WOOD)
    for k, colour in enumerate(CUBES):
        x = (52 + 44 * k) * s
        d.rectangle((x, 180 * s, x + 22 * s, 202 * s), fill=colour, outline=WOOD, width=2 * s)
    return img.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else OUT
    draw().save(out, optimize=False)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
