"""The tower's cubes as sprites: a pool of cubes, each a turned face and an upright mark,
with a glow behind the cubes just thrown (they stand out from those already inside) and a
soft shadow under the others, away from the light (issue 48: light and depth).

Why a pool: a frame with 150 cubes is one draw call (a slot of glow, face and mark per
cube), and sprites are reused from frame to frame instead of made. (A motion trail of two ghosts per
cube was tried and dropped: on llvmpipe every sprite costs, hidden ones too, and five per
cube tripled the drawing time of a 60-cube drop; the glow is the highlight.) Why the mark apart from the face:
the letter stays upright whatever the cube's angle (issue 27 item 9); the face is one of
four quarter turns chosen so that its lit edges stay at the top left (issue 28 item 2).

Tests: tests/client/tower/test_cubes.py.
"""

from __future__ import annotations

import math

import arcade

from client.tower.cube_textures import cube_face, cube_mark, glow, shadow
from client.tower.drop_play import Pose

MARK = 0.82          # the mark's size against the cube's (it fits the cube turned 45°)
SHADOW = 0.18        # a cube's shadow falls this share of its size down and right (the light: top left)
SHADOW_SIZE = 1.5    # the shadow's texture against the cube (its blurred edge around it)


def quarter_of(angle: float) -> int:
    """The quarter turn nearest to a counter-clockwise angle."""
    return int(round(angle / (math.pi / 2))) % 4


def _hide(sp: arcade.Sprite) -> None:
    """Hidden, and out of the picture: a hidden sprite is still a quad the renderer fills
    (transparent), so it is also moved off the screen, where it costs nothing."""
    sp.visible = False
    sp.position = (-10000.0, -10000.0)


Bounds = tuple[float, float, float, float]     # left, bottom, right, top

SLOT = 3             # sprites per cube, in drawing order: the glow or shadow, the face, the mark


class CubeSprites:
    """The pool. `begin()`, then `put(pose)` for each cube of the frame (a `Pose` in
    window pixels), then `end()` hides what was not used; `draw()`
    draws them all. One SpriteList, a slot of SLOT sprites per cube: one draw call, and
    a cube drawn later covers an earlier one's mark as it covers its face."""

    def __init__(self) -> None:
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._n = 0
        self._used = 0                  # slots used by the last frame
        self.shown: list[Pose] = []     # this frame's cubes (tests read them)
        # per slot, the cube it showed the frame before and where (`changed`)
        self._drawn: tuple[list[tuple[object, ...]], list[Bounds]] = ([], [])
        self.changed: list[Bounds] = []
        # ^ where this frame's drawing differs from the frame before's (left, bottom,
        # right, top): each cube that moved or changed, where it was and is (`end`; as
        # the handful's tiles, one frame shown a frame drawn)

    def begin(self) -> None:
        self._n = 0
        self.shown = []

    def _slot(self, k: int) -> list[arcade.Sprite]:
        while len(self.sprites) < (k + 1) * SLOT:
            sp = arcade.Sprite(glow())
            _hide(sp)
            self.sprites.append(sp)
        return [self.sprites[i] for i in range(k * SLOT, (k + 1) * SLOT)]

    @staticmethod
    def _place(sp: arcade.Sprite, tex: arcade.Texture, x: float, y: float, size: float,
               degrees: float) -> None:
        if sp.texture is not tex:
            sp.texture = tex
            sp.width = sp.height = size
        elif sp.width != size:
            sp.width = sp.height = size
        sp.position = (x, y)
        if sp.angle != degrees:
            sp.angle = degrees
        if not sp.visible:
            sp.visible = True

    def put(self, p: Pose) -> None:
        q = quarter_of(p.angle)
        face = cube_face(p.code, q)     # turned back q quarters: lit edges stay top left
        halo, body, mark = self._slot(self._n)
        if p.thrown:
            self._place(halo, glow(), p.x, p.y, p.size * 1.7, 0.0)
        else:           # its shadow: the slot the glow takes while it is thrown (no sprite more)
            d = p.size * SHADOW
            self._place(halo, shadow(), p.x + d, p.y - d, p.size * SHADOW_SIZE, 0.0)
        self._place(body, face, p.x, p.y, p.size, -math.degrees(p.angle))   # arcade: clockwise
        self._place(mark, cube_mark(p.code), p.x, p.y, p.size * MARK, 0.0)  # upright, always
        self._n += 1
        self.shown.append(p)

    def end(self) -> None:
        for k in range(self._n * SLOT, self._used * SLOT):
            sp = self.sprites[k]
            if sp.visible:
                _hide(sp)
        self._used = self._n
        self._compare()

    def _compare(self) -> None:
        """`changed`: the boxes of the slots whose cube differs from the frame before's,
        old and new (issue 48: the pour repainted the whole shaft every frame, where only
        the cubes that moved need it). A slot's sprites are made from its `Pose` alone
        (`put`), so the poses are compared; a box holds the cube turned, its glow and
        its shadow."""
        drawn: list[tuple[object, ...]] = []
        boxes: list[Bounds] = []
        changed: list[Bounds] = []
        was, was_at = self._drawn
        reach = max(0.85, SHADOW + SHADOW_SIZE / 2, 0.71)     # glow, shadow, turned face
        for p in self.shown:
            drawn.append((p.code, p.x, p.y, p.angle, p.size, p.thrown))
            r = reach * p.size + 2
            boxes.append((p.x - r, p.y - r, p.x + r, p.y + r))
        for k in range(max(len(drawn), len(was))):
            old = was[k] if k < len(was) else None
            new = drawn[k] if k < len(drawn) else None
            if old == new:
                continue
            if old is not None:
                changed.append(was_at[k])
            if new is not None:
                changed.append(boxes[k])
        self._drawn, self.changed = (drawn, boxes), changed

    def draw(self) -> None:
        self.sprites.draw()
