"""A tooltip's box stays inside its bounds on every side and off the pointer where there
is room (issue 27, item 11); no window needed."""

from __future__ import annotations

import pytest

from client.widgets.tooltip import GAP, place


@pytest.mark.parametrize("W,H", [(960, 640), (1280, 800), (1422, 800)])
@pytest.mark.parametrize("w,h", [(300, 60), (380, 220)])
def test_the_box_stays_inside_the_window_wherever_the_pointer_is(W, H, w, h):
    for x in (0, 5, W / 2, W - 5, W):
        for y in (0, 5, H / 2, H - 5, H):
            l, b = place(x, y, w, h, (0, 0, W, H))
            assert 0 <= l and l + w <= W and 0 <= b and b + h <= H, (x, y, l, b)


def test_the_box_keeps_off_the_pointer_when_there_is_room():
    for x, y in ((10, 10), (950, 10), (10, 630), (950, 630), (480, 320)):
        l, b = place(x, y, 300, 100, (0, 0, 960, 640))
        inside = l <= x <= l + 300 and b <= y <= b + 100
        assert not inside, (x, y, l, b)
    assert place(100, 100, 300, 100, (0, 0, 960, 640)) == (100 + GAP, 100 + GAP)
