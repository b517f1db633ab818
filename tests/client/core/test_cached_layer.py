"""The offscreen picture of a node (`CachedLayer`), anti-aliased when it asks (issue 48:
the stage's eaves were stairs of whole pixels at 1920x1080 and 2560x1440): a slanted edge
drawn into it, in one part or in several, read back from its texture (Mesa llvmpipe under
Xvfb)."""

from __future__ import annotations

import arcade

from client.core.cached_layer import CachedLayer


def _greys(layer: CachedLayer) -> set[int]:
    """The red channel's values along the layer's picture (a white slope on black)."""
    assert layer.surface is not None
    img = layer.surface.to_image().convert("RGB")
    return set(img.getchannel("R").tobytes())


def _slope() -> None:
    arcade.draw_polygon_filled([(10, 110), (190, 110), (190, 130)], arcade.color.WHITE)


def test_an_anti_aliased_layer_blends_a_slanted_edge_and_a_plain_one_does_not(app):
    plain, smooth = CachedLayer(), CachedLayer(samples=4)
    for layer in (plain, smooth):
        layer.render((0, 100, 200, 40), lambda: (arcade.draw_lbwh_rectangle_filled(0, 100, 200, 40, (0, 0, 0)),
                                               _slope()))
    assert _greys(plain) <= {0, 255}, "a plain layer draws whole pixels"
    blended = {g for g in _greys(smooth) if 20 < g < 235}
    assert len(blended) >= 3, f"the slope's edge is not blended: {sorted(_greys(smooth))}"


def test_an_anti_aliased_layer_drawn_in_parts_keeps_each_part(app):
    """A picture drawn a part a frame (`render(..., clear=False)`): the second part adds
    to the first, both blended, and `clear` starts again."""
    layer = CachedLayer(samples=4)
    layer.render((0, 100, 200, 40), lambda: arcade.draw_lbwh_rectangle_filled(0, 100, 200, 40, (0, 0, 0)))
    layer.render((0, 100, 200, 40), _slope, clear=False)
    assert layer.surface is not None
    img = layer.surface.to_image().convert("RGBA")
    assert img.getpixel((5, 35)) == (0, 0, 0, 255), "the first part (black) was lost"
    assert img.getpixel((185, 15))[:3] == (255, 255, 255), "the second part (the slope) is missing"
    assert {g for g in _greys(layer) if 20 < g < 235}, "the second part's edge is not blended"
    layer.render((0, 100, 200, 40), lambda: None)
    assert layer.surface.to_image().getpixel((185, 15))[3] == 0, "`clear` left the old picture"
