"""A battle of a saved game as an animated GIF, rendered by the window's own table scene
(issue 28 item 5): `./shogun replay SAVE --film N --out FILE.gif`.

Why the real scene: the film is exactly what the window shows (the board with the
battle's arrow, the tower with the handful, the pour, the tally, the result banner), not
a second drawing of it. The save is replayed through `ReplaySession` (a headless or
window save, or a JSON game log such as a spectator's `--log`), fast-forwarded to the
N-th battle's drop, which then plays at ×1 while every frame is captured; a band under
each frame names the battle (province and sides) and, once known, its result. The window
is hidden and may live on a virtual display (`virtual_display`). Pillow writes the GIF;
no video library is kept in the project, so there is no .mp4.

`write_battle_film(save_path, battle_number, out_path)` is the one entry point (the
command line, the replay viewer's "Film this battle" and the end screen's "film it").

Tests: tests/client/film/test_battle_film.py.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from client.tower.cube_textures import font as _font

from lang.i18n import _, ngettext

FILM_SIZE = (960, 640)    # the window's smallest size: the film reads on a phone
FPS = 20                  # frames per second of the film (the scene is stepped by 1/FPS)
AFTER = 2.2               # seconds of the result (banner, board) at most after the battle
BAND = 48                 # pixels of the caption band under each frame (two lines)
LIMIT = 600.0             # wall seconds at most to reach the battle (a long save)


@dataclass(frozen=True)
class Film:
    """What was written: the file, its frame count and size, the battle's words."""
    path: Path
    frames: int
    size: tuple[int, int]
    title: str
    result: str


def _with_band(frame: Image.Image, title: str, result: str) -> Image.Image:
    """The frame with a dark band under it naming the battle and, once known, its result."""
    out = Image.new("RGB", (frame.width, frame.height + BAND), (24, 20, 16))
    out.paste(frame.convert("RGB"), (0, 0))
    d = ImageDraw.Draw(out)
    d.text((10, frame.height + 13), title, fill=(255, 240, 200), font=_font(14), anchor="lm")
    d.text((10, frame.height + 35), result, fill=(255, 210, 120), font=_font(14), anchor="lm")
    return out


def write_battle_film(save_path: str | Path, battle_number: int, out_path: str | Path,
                      size: tuple[int, int] = FILM_SIZE, fps: int = FPS) -> Film:
    """Render battle `battle_number` (1 = the first; a revolt counts as a battle) of the
    saved game at `save_path` into the animated GIF `out_path`. Raises ValueError with a
    sentence for a missing or unreadable save, a battle number the game does not have, or
    an output that is not a .gif."""
    out = Path(out_path)
    if out.suffix.lower() != ".gif":
        raise ValueError(_("A film is written as an animated GIF: give a file name ending "
                           "in .gif (got {name}).").format(name=out.name))
    if battle_number < 1:
        raise ValueError(_("Battles are counted from 1 (got {n}).").format(n=battle_number))
    from client.sessions.replay import ReplaySession
    session = ReplaySession(str(save_path))         # ValueError / SaveError with a sentence
    from client.film.virtual_display import ensure_display
    ensure_display()
    from client.app import App
    from client.core import theme
    app = App(size[0], size[1], visible=False)
    try:
        app.partial_redraw = False                  # every frame whole: it is captured
        labels = {s: theme.SEAT_NAMES[s] for s in range(session.config.players)}
        scene = app.play(session, labels, fast=True)
        scene.sounds.mute = True
        return _film(app, scene, battle_number, out, fps)
    finally:
        app.session = None
        app.close()


@dataclass
class _Shoot:
    """Where the filming is: battles seen, this one filming, its result known, its words."""
    seen: int = 0
    filming: bool = False
    resolved: bool = False
    title: str = ""
    result: str = ""


def _film(app: Any, scene: Any, number: int, out: Path, fps: int) -> Film:
    import arcade
    state = _Shoot()

    def moment(tag: str) -> None:
        e = scene.player.playing_event or {}
        if tag == "tower_coming" and e.get("reason") in ("battle", "revolt") and not state.filming:
            state.seen += 1
            if state.seen == number:
                state.filming = True
                scene.fast = False                  # this battle at the window's pace
        elif tag == "battle" and state.filming and not state.resolved:
            state.resolved = True
            state.result = " — ".join(scene.banner.lines[2:4])
    scene.moment_reached.connect(moment)
    t0, idle = time.time(), 0
    while not state.filming:
        if time.time() - t0 > LIMIT:
            raise ValueError(_("The save took too long to reach battle {n}.").format(n=number))
        before = (scene.session.step_key(), scene.player.behind)
        app.on_update(1 / 60)
        idle = idle + 1 if (scene.session.step_key(), scene.player.behind) == before \
            and not scene.player.behind else 0
        if idle > 120 or app.scene is not scene:    # the save ended (or the end screen came)
            raise ValueError(ngettext("This game has {count} battle; there is no battle {n}.",
                                      "This game has {count} battles; there is no battle {n}.",
                                      state.seen).format(count=state.seen, n=number))
    state.title = _("Battle {n}: {caption}").format(n=number, caption=scene.battle.caption)
    frames: list[Image.Image] = []
    after = 0.0
    while after < AFTER and len(frames) < fps * 60:
        app.on_update(1 / fps)
        app.on_draw()
        shot = arcade.get_image(0, 0, app.width, app.height)
        frames.append(_with_band(shot, state.title, state.result).quantize(
            colors=255, method=Image.Quantize.FASTOCTREE))
        if state.resolved and not scene.tower.playing:
            after += 1 / fps
            if not scene.battle.active:             # the table's layout is back: the end
                break
    out.parent.mkdir(parents=True, exist_ok=True)
    frames[0].save(out, save_all=True, append_images=frames[1:], duration=int(1000 / fps),
                   loop=0, optimize=False)
    with Image.open(out) as written:                # identical neighbours are merged
        count, (w, h) = written.n_frames, written.size
    return Film(out, count, (w, h), state.title, state.result)
