"""Colour-blind mode does something on the board (issue 13, item 3): every owned province
carries its owner's stripe pattern and a chip with the owner's letter; off, neither."""

from __future__ import annotations

import arcade

from client.core.palette import PATTERNS, SEATS
from client.board.shapes import point_in_poly
from tests.client.conftest import frame, run_until
from client.sessions.local_choice import LocalChoice


def _stripe_pixels(app, scene, name: str, owner: int) -> int:
    from client.core import theme
    from client.board.board_view import owner_fill
    fill = owner_fill(owner)
    ink = theme.mix(fill, theme.text_on(fill), 0.4)
    poly = scene.board_view.screen_polys[name]
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    l, b, r, t = int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1
    img = arcade.get_image(l, b, r - l, t - b).convert("RGB")
    near = 0
    for y in range(0, t - b, 2):
        for x in range(0, r - l, 2):
            if not point_in_poly(l + x, b + y, poly):
                continue
            px = img.getpixel((x, img.height - 1 - y))
            assert isinstance(px, tuple)
            if all(abs(px[i] - ink[i]) <= 14 for i in range(3)):
                near += 1
    return near


def test_colour_blind_mode_stripes_and_letters_each_owned_province(app):
    scene = app.start_local(LocalChoice.one_level("easy", seed=5), fast=True)
    assert run_until(app, lambda: scene.planning.visible, 60)
    provs = scene.display["provinces"]
    owned = {seat: next(n for n, p in sorted(provs.items()) if p.get("owner") == seat)
             for seat in range(4)}
    scene.board_view.set_colour_blind(False)
    frame(app, 2)
    off = {seat: _stripe_pixels(app, scene, n, seat) for seat, n in owned.items()}
    letters_off = [t for k, t in scene.board_view.texts.labels.items() if k[0] == "L" and t.visible]
    scene.board_view.set_colour_blind(True)
    frame(app, 2)
    on = {seat: _stripe_pixels(app, scene, n, seat) for seat, n in owned.items()}
    letters = {k[1]: t.text for k, t in scene.board_view.texts.labels.items()
               if k[0] == "L" and t.visible}
    assert not letters_off
    for seat, name in owned.items():
        assert on[seat] > 4 * off[seat] + 20, (SEATS[seat].name, name, on[seat], off[seat])
        assert letters[name] == SEATS[seat].letter
    assert set(PATTERNS) == set(range(5)) and len(set(PATTERNS.values())) == 5


def test_the_setting_reaches_the_board(app):
    from dataclasses import replace
    old = app.settings
    app.settings = replace(old, colour_blind=True)
    try:
        scene = app.start_local(LocalChoice.one_level("easy", seed=5), fast=True)
        assert scene.board_view.colour_blind
    finally:
        app.settings = old
