"""A battle of a saved game as a film worth sending (issue 36 item 5, after issue 28 item 5):
`./shogun replay SAVE --film N --out FILE.mp4` (or .webm, .gif).

Why the real scene: the film is what the window shows of the battle (the map with the
battle's arrow and the large tower with the handful, the pour, the tally, the survivors'
march), not a second drawing of it. The stage is filmed to its climax (the decision on
the stage); the map shot after it marks the province in the winner's colour and shows the
result beside it in the climax's words (issue 48, `film_cards.beside`). What the film
reads of the scene is `scene_view.FilmScene` (issue 50). Only the battle scene is drawn, the map and the
tower side by side filling the frame (no top bar, replay header, buttons or panels), at a
fixed FPS stepped offline (1/FPS of the game's clock per frame, however long a frame
takes to draw). A title card opens it (year and season, attacker against defender, the
province) and a result card closes it (who won, what came out of the tower, survivors,
who holds the province now), both in the player's language (`film_cards`).

The save is replayed through `ReplaySession` (a headless or window save, or a JSON game
log such as a spectator's `--log`), fast-forwarded to the N-th battle's drop, which then
plays at x1. The window is hidden and may live on a virtual display (`virtual_display`:
Xvfb is started when DISPLAY is unset). Frames go to `film_encoder` as they are made.

`write_battle_film(save_path, battle_number, out_path, size)` is the one entry point (the
command line, the replay viewer's "Film this battle" and the end screen's "Film it", the
last two through the command line, naming the file by `film_encoder.films_path`).

Tests: tests/client/film/test_battle_film.py.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from client.film.film_cards import beside, card, title_lines
from client.film.scene_view import FilmScene
from client.core.played import as_kind
from client.tower.stage_climax import verdict
from client.core.film_encoder import film_format, open_sink
from lang.i18n import _, ngettext
from client.sessions.replay import ReplaySession
from client.core import theme
from lang.i18n import current, use
from client.tower.battle_show import battle_context
import arcade
from client.game.battle_results import battle_result_lines
from sim import events as ev

if TYPE_CHECKING:
    from client.app import App
    from sim.snapshot import PublicState

FILM_SIZE = (1280, 720)   # a 720p film: what chat apps and video sites show well
FPS = 30                  # frames per second of the film (the scene is stepped by 1/FPS)
TITLE = 1.5               # seconds of the title card
RESULT = 3.0              # seconds of the result card at most (at least RESULT_LEAST)
RESULT_LEAST = 1.5
AFTER = 1.5               # seconds of the map shot after the stage (the march) at most
LONGEST = 14.8            # seconds of a film at most (issue 48: 6-15 s): the result card gives way
LIMIT = 600.0             # wall seconds at most to reach the battle (a long save)


@dataclass(frozen=True)
class Film:
    """What was written: the file, its frame count and size, the battle's words, and a
    sentence when the file is not what was asked (no video encoder: a GIF)."""
    path: Path
    frames: int
    size: tuple[int, int]
    title: str
    result: str
    note: str = ""
    climax_frames: int = 0          # frames of the stage's climax (the decision on the stage)
    map_frames: int = 0             # frames of the map shot (the province marked, the result beside it)


def parse_size(text: str) -> tuple[int, int]:
    """'1280x720' -> (1280, 720); ValueError with a sentence for anything else."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        w = h = 0
    if not (160 <= w <= 3840 and 120 <= h <= 2160) or w % 2 or h % 2:
        raise ValueError(_("A film's size is WIDTHxHEIGHT in even pixels between 160x120 "
                           "and 3840x2160, such as 1280x720 (got {size}).").format(size=text))
    return w, h


def write_battle_film(save_path: str | Path, battle_number: int, out_path: str | Path,
                      size: tuple[int, int] = FILM_SIZE, fps: int = FPS) -> Film:
    """Render battle `battle_number` (1 = the first; a revolt counts as a battle) of the
    saved game at `save_path` into the film `out_path` (.mp4, .webm or .gif). Raises
    ValueError with a sentence for a missing or unreadable save, a battle number the game
    does not have, or a name that is not a film's."""
    fmt = film_format(Path(out_path))
    if battle_number < 1:
        raise ValueError(_("Battles are counted from 1 (got {n}).").format(n=battle_number))
    session = ReplaySession(str(save_path))         # ValueError / SaveError with a sentence
    from client.film.virtual_display import ensure_display  # Xvfb: only for a film
    ensure_display((max(1920, size[0]), max(1080, size[1])))
    from client.app import App  # the window, after the display exists
    language = current()                            # --lang, else the settings' or system's
    app = App(size[0], size[1], visible=False)
    use(language)                                   # the window applied its settings' choice
    try:
        app.partial_redraw = False                  # every frame whole: it is captured
        labels = {s: theme.SEAT_NAMES[s] for s in range(session.config.players)}
        scene = app.play(session, labels, fast=True)
        scene.sounds.mute = True
        shoot = _Shoot(app, scene, battle_number, fps)
        film = shoot.shoot(fmt.path)
        return Film(fmt.path, film[0], size, film[1], film[2], fmt.note, shoot.climaxed, shoot.map_shots)
    finally:
        app.session = None
        app.close()


class _Shoot:
    """The filming of one battle: find it, then frames until the table is back."""

    def __init__(self, app: App, scene: FilmScene, number: int, fps: int) -> None:
        self.app, self.scene, self.number, self.fps = app, scene, number, fps
        self.seen = 0
        self.filming = False
        self.battle: ev.BattleResolved | None = None
        self.display: PublicState | None = None
        self.resolved: ev.BattleResolved | None = None
        self.climaxed = 0                           # frames of the stage's climax filmed
        self.map_shots = 0                          # frames of the map shot, the result beside it
        scene.moment_reached.connect(self._moment)

    def _moment(self, tag: str) -> None:
        sc = self.scene
        played = sc.player.playing_event
        if played is None:
            return
        dropped = as_kind(played, ev.TowerDropped)            # the moment of a TowerDropped
        if tag == "tower_coming" and dropped is not None \
                and dropped["reason"] in ("battle", "revolt") and not self.filming:
            self.seen += 1
            if self.seen == self.number:
                self.filming = True
                sc.fast = False                     # this battle at the window's pace
                self.battle = battle_context(dropped, sc.player.batch)[0]
                self.display = copy.copy(sc.shared.display)
        resolved = as_kind(played, ev.BattleResolved)         # the moment of a BattleResolved
        if tag == "battle" and resolved is not None and self.filming and self.resolved is None:
            self.resolved = resolved.copy()

    def _reach(self) -> None:
        app, sc = self.app, self.scene
        t0, idle = time.time(), 0
        shown: object = sc                  # the scene as the window holds it (a Node)
        while not self.filming:
            if time.time() - t0 > LIMIT:
                raise ValueError(_("The save took too long to reach battle {n}.").format(n=self.number))
            before = (sc.session.step_key(), sc.player.behind)
            app.on_update(1 / 60)
            idle = idle + 1 if (sc.session.step_key(), sc.player.behind) == before \
                and not sc.player.behind else 0
            if idle > 120 or app.scene is not shown:   # the save ended (or the end screen came)
                raise ValueError(ngettext("This game has {count} battle; there is no battle {n}.",
                                          "This game has {count} battles; there is no battle {n}.",
                                          self.seen).format(count=self.seen, n=self.number))

    def _frame(self) -> Image.Image:
        """The battle scene alone, the whole frame: the stage (the tower between the two
        sides' panels) while the cubes fall, then the map with the arrow and the survivors'
        march (the scene's own layout is put back at its next change)."""
        sc, app = self.scene, self.app
        W, H = sc.width, sc.height
        app.clear()
        if sc.tower.big:
            self.climaxed += sc.tower.stage == "climax"
            sc.tower.set_rect(0, 0, W, H)
            sc.tower.draw()
            return arcade.get_image(0, 0, app.width, app.height)
        board, e = sc.board_view, self.resolved
        board.set_rect(0, 0, W, H)
        if e is not None:                   # the map shot: the province marked
            board.set_highlight({e["province"]}, self._accent_colour(e))
        board.draw()
        sc.battle.march.draw()
        image = arcade.get_image(0, 0, app.width, app.height)
        if e is None:
            return image
        x, y = board.province_centre(e["province"])
        k = image.height / max(1.0, H)              # the window's pixels per unit
        v = verdict(e)                              # the climax's words, in the film's language
        self.map_shots += 1
        return beside(image, (x * k, image.height - y * k), [v.headline, v.totals, v.detail],
                      self._winner(e))

    @staticmethod
    def _winner(e: ev.BattleResolved) -> int | str | None:
        return {"attacker": e["attacker"], "defender": e["defender"]}.get(e["result"])

    def _accent_colour(self, e: ev.BattleResolved) -> tuple[int, int, int]:
        who = self._winner(e)
        if who in ("peasant", 5, None):
            return (240, 226, 190)
        c = theme.seat_colour(who)
        return (int(c[0]), int(c[1]), int(c[2]))

    def shoot(self, out: Path) -> tuple[int, str, str]:
        """Frames streamed to the encoder as they are drawn: the title card over the
        first, the battle, the result card over the last."""
        self._reach()
        sc, fps = self.scene, self.fps
        sink = open_sink(out, (self.app.width, self.app.height), fps)
        try:
            frame = self._frame()
            b = self.battle             # found with the drop: its batch holds the result
            opening = card(frame, title_lines(b, self.display) if b else [],
                           b["attacker"] if b else None)
            for _n in range(int(TITLE * fps)):
                sink.add(opening)
            after, shot = 0.0, 0
            while after < AFTER and shot < fps * 60:
                self.app.on_update(1 / fps)
                frame = self._frame()
                sink.add(frame)
                shot += 1
                if self.resolved is not None and not sc.tower.playing:
                    after += 1 / fps
                    if not sc.battle.active:        # the table's layout is back: the end
                        break
            e = self.resolved
            result = battle_result_lines(e) if e else []
            if e and result:
                closing = card(frame, [result[0], *result[2:], result[1]], self._winner(e))
                room = LONGEST * fps - int(TITLE * fps) - shot       # a long battle: a shorter card
                for _n in range(int(max(RESULT_LEAST * fps, min(RESULT * fps, room)))):
                    sink.add(closing)
        finally:
            count = sink.close()
        words = _("Battle {n}: {caption}").format(n=self.number, caption=sc.battle.caption)
        return count, words, " — ".join(result[2:4])
