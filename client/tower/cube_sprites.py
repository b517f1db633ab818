"""The tower's cubes as sprites: a pool of cubes, each a turned face and an upright mark,
with a glow and a short trail for the cubes just thrown.

Why a pool: a frame with 150 cubes is four draw calls (trail, glow, faces, marks), and
sprites are reused from frame to frame instead of made. Why the mark apart from the face:
the letter stays upright whatever the cube's angle (issue 27 item 9); the face is one of
four quarter turns chosen so that its lit edges stay at the top left (issue 28 item 2).

Tests: tests/client/tower/test_cubes.py.
"""

from __future__ import annotations

import math

import arcade

from client.tower.cube_textures import cube_face, cube_mark, glow
from client.tower.drop_play import Pose

MARK = 0.82          # the mark's size against the cube's (it fits the cube turned 45°)
TRAIL = (110, 55)    # the alphas of a thrown cube's two ghosts, nearest first


def quarter_of(angle: float) -> int:
    """The quarter turn nearest to a counter-clockwise angle."""
    return int(round(angle / (math.pi / 2))) % 4


class CubeSprites:
    """The pool. `begin()`, then `put(pose)` for each cube of the frame (a `Pose` in
    window pixels: centre, size, trail), then `end()` hides what was not used; `draw()`
    draws them all."""

    def __init__(self) -> None:
        self.faces: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.marks: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.glows: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.ghosts: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._n = self._g = self._t = 0
        self.shown: list[Pose] = []     # this frame's cubes (tests read them)

    def begin(self) -> None:
        self._n = self._g = self._t = 0
        self.shown = []

    @staticmethod
    def _take(pool: arcade.SpriteList[arcade.Sprite], k: int, tex: arcade.Texture) -> arcade.Sprite:
        if k < len(pool):
            sp = pool[k]
            if sp.texture is not tex:
                sp.texture = tex
        else:
            sp = arcade.Sprite(tex)
            pool.append(sp)
        sp.visible = True
        return sp

    @staticmethod
    def _place(sp: arcade.Sprite, x: float, y: float, size: float, degrees: float) -> None:
        if sp.width != size:
            sp.width = sp.height = size
        sp.position = (x, y)
        sp.angle = degrees

    def put(self, p: Pose) -> None:
        q = quarter_of(p.angle)
        face = cube_face(p.code, q)     # turned back q quarters: lit edges stay top left
        for alpha, (gx, gy, ga) in zip(TRAIL, p.trail):
            sp = self._take(self.ghosts, self._t, face)
            self._place(sp, gx, gy, p.size, -math.degrees(ga))
            sp.alpha = alpha
            self._t += 1
        if p.thrown:
            sp = self._take(self.glows, self._g, glow())
            self._place(sp, p.x, p.y, p.size * 1.7, 0.0)
            self._g += 1
        sp = self._take(self.faces, self._n, face)
        self._place(sp, p.x, p.y, p.size, -math.degrees(p.angle))   # arcade: clockwise
        sp = self._take(self.marks, self._n, cube_mark(p.code))
        self._place(sp, p.x, p.y, p.size * MARK, 0.0)      # upright, always
        self._n += 1
        self.shown.append(p)

    def end(self) -> None:
        for pool, used in ((self.faces, self._n), (self.marks, self._n), (self.glows, self._g),
                           (self.ghosts, self._t)):
            for k in range(used, len(pool)):
                if pool[k].visible:
                    pool[k].visible = False

    def draw(self) -> None:
        self.ghosts.draw()
        self.glows.draw()
        self.faces.draw()
        self.marks.draw()
