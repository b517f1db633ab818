"""Studying a replayed game (a save or a JSON game log) in the window: step back and
forward, jump by round.

Keys (only in a replay): ← one step back, → play the next step (its events and tower
drop animate again, then the replay pauses), Page Up / Page Down the previous / next
round, Home the start; the top bar says them, and a row of buttons over the map's foot
does the same for a player with a mouse (Start, « Round, ‹ Step, Step ›, Round »). Going back rebuilds the table from the
start (`ReplaySession.seek`: a save's commands re-applied, a log's events patched onto
its Snapshots); the board shows that state at once. A game log opens so, on step 0.
"Film this battle" (or G) writes the last battle shown as a film (an MP4; a GIF without imageio-ffmpeg) into the films
folder, by `./shogun replay SAVE --film N` in a process of its own (a film is rendered in
a hidden window of its own, and the viewer stays responsive meanwhile).

Tests: tests/client/game/test_comforts_window.py, tests/client/game/test_restored_table.py.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import arcade

from client.core.button import Button, label_width
from client.core.damage import damage
from client.core.own_command import own_command
from client.core.settings import data_dir
from lang.i18n import N_, _

if TYPE_CHECKING:
    from client.game.event_playing import EventPlayer
    from client.game.table_shared import SceneState, TableViews
    from client.sessions.interface import Seeking


def replay_status(step: int, steps: int) -> str:
    """The replay's header: where it is, and the keys that step back and on (short: it
    fits the top bar of a 960x640 window in every language, tests/client/game/test_table_layout.py)."""
    return _("Replay: step {step} of {steps} — ←/→ step, PgUp/PgDn round, Home start").format(
        step=step, steps=steps)


class ReplayControls:
    def __init__(self, study: Seeking, shared: SceneState, views: TableViews,
                 player: EventPlayer) -> None:
        self.session = study
        self.shared = shared
        self.views = views
        self.player = player
        self.stepping = False          # → was pressed: pause again after this step
        self.film_btn = Button(N_("Film this battle  [G]"), name="film", size=10, key=arcade.key.G)
        self.film_btn.pressed.connect(self.film)
        # the keys as buttons, for a player with a mouse: (label, the key it presses, tip)
        self.seek_btns: list[Button] = []
        for label, key, tip in ((N_("Start"), arcade.key.HOME, N_("Back to the start [Home]")),
                                (N_("« Round"), arcade.key.PAGEUP,
                                 N_("Back to the round's start, or the round before [Page Up]")),
                                (N_("‹ Step"), arcade.key.LEFT, N_("One step back [←]")),
                                (N_("Step ›"), arcade.key.RIGHT,
                                 N_("Play the next step, then pause [→]")),
                                (N_("Round »"), arcade.key.PAGEDOWN,
                                 N_("On to the next round [Page Down]"))):
            b = Button(label, name=f"seek_{key}", size=10)
            b.tip = tip
            b.pressed.connect(lambda key=key: self.key(key))
            self.seek_btns.append(b)
        self.filming: tuple[subprocess.Popen[bytes], Path] | None = None
        study.status = self.status()

    def open(self) -> None:
        """The replay's first frame: a game log (its queue is empty) shows its step 0 at
        once, the table as its first round begins; a save plays its set-up batch."""
        if not self.session.queue and self.session.step == 0:
            self.show(0)

    def shown_step(self) -> int:
        """The step the board shows (the session may have applied one more, in flight)."""
        return max(0, self.session.step - (1 if self.player.behind else 0))

    def status(self) -> str:
        self.poll()
        return replay_status(self.shown_step(), self.session.steps)

    def key(self, symbol: int) -> bool:
        k = arcade.key
        here = self.shown_step()
        if symbol == k.LEFT:
            self.seek(here - 1)
        elif symbol == k.HOME:
            self.seek(0)
        elif symbol == k.PAGEUP:
            earlier = [r for r in self.session.round_starts() if r < here]
            self.seek(earlier[-1] if earlier else 0)
        elif symbol == k.PAGEDOWN:
            later = [r for r in self.session.round_starts() if r > here]
            self.seek(later[0] if later else self.session.steps)
        elif symbol == k.RIGHT:
            self.stepping = True
            self.shared.paused = False
        elif symbol == k.G:
            self.film()
        else:
            return False
        self.session.status = self.status()
        return True

    def seek(self, step: int) -> None:
        """Show the table after `step` steps at once (the board, the tower's contents, and
        the log up to that point), paused there."""
        self.show(step)
        self.shared.paused = True
        self.views.log.add_line(_("Replay: at step {step} of {steps}.").format(
            step=self.session.step, steps=self.session.steps), (30, 70, 140))
        damage()

    def show(self, step: int) -> None:
        sought = self.session.seek(step)
        self.player.reset()
        self.views.tower.skip()
        self.views.banner.hide()
        self.player.restore_log(sought.past)
        self.player.show_at(sought.public, sought.tower)
        damage()

    def film(self) -> Path | None:
        """Film the last battle shown so far; returns the film's path (None: no battle yet,
        or a film is still being made)."""
        self.poll()
        if self.filming is not None:
            return None
        n = self.session.battles_until(self.shown_step())
        if n == 0:
            self.views.log.add_line(_("No battle has been fought yet: step on to one first."), (150, 40, 30))
            return None
        from client.core.film_encoder import film_command, films_path  # imageio: only for a film
        out = films_path(data_dir() / "films", self.session.path, n)
        out.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.Popen([*own_command(), *film_command(self.session.path, n, out)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.filming = (proc, out)
        self.views.log.add_line(_("Filming battle {n} into {path} (a few seconds)…").format(
            n=n, path=out), (30, 70, 140))
        return out

    def poll(self) -> None:
        """Say so in the log when the film being made is ready (or failed)."""
        if self.filming is None or self.filming[0].poll() is None:
            return
        proc, out = self.filming
        self.filming = None
        if proc.returncode == 0:
            self.views.log.add_line(_("The film is ready: {path}").format(path=out), (30, 70, 140))
        else:
            self.views.log.add_line(_("The film could not be made."), (150, 40, 30))

    def place(self, left: float, bottom: float, width: float, big: bool) -> None:
        """The film button's place: beside the map's Rules button (at the top of the
        tower's column it covered the "Battle tower" heading); hidden while the battle
        view has the tower large."""
        self.film_btn.set_rect(left, bottom, width, 28)
        self.film_btn.visible = not big

    def place_seek(self, left: float, bottom: float, width: float, big: bool) -> None:
        """The step and round buttons in a row `width` wide from (left, bottom), each as
        wide as its label needs, in proportion; hidden while the battle view has the tower
        large (the keys still work)."""
        need = [label_width(_(b.label), b.size) + 16
                for b in self.seek_btns]
        gap = 4.0
        room = width - gap * (len(need) - 1)
        scale = min(1.0, room / sum(need))
        x = left
        for b, n in zip(self.seek_btns, need):
            b.set_rect(x, bottom, n * scale, 26)
            b.visible = not big
            x += n * scale + gap

    def batch_done(self) -> None:
        """A batch finished animating: after a single step, pause again."""
        if self.stepping and not self.session.queue:
            self.stepping = False
            self.shared.paused = True
        self.session.status = self.status()
