"""Studying a saved game in the window: step back and forward, jump by round.

Keys (only when the session is a save being replayed): ← one step back, → play the next
step (its events and tower drop animate again, then the replay pauses), Page Up / Page
Down the previous / next round, Home the start. Going back re-applies the save's
commands from the start (`ReplaySession.seek`); the board shows that state at once.
"""

from __future__ import annotations

import arcade

from client.core.node import damage
from client.sessions.interface import Seeking
from lang.i18n import _


class ReplayControls:
    def __init__(self, scene, study: Seeking) -> None:
        self.scene = scene
        self.session = study
        self.stepping = False          # → was pressed: pause again after this step

    def shown_step(self) -> int:
        """The step the board shows (the session may have applied one more, in flight)."""
        sc, s = self.scene, self.session
        behind = bool(sc.batch or sc.batch_pending or s.queue)
        return max(0, s.step - (1 if behind else 0))

    def status(self) -> str:
        return _("Replay: step {step} of {steps} — ← → step, Page Up/Down round, Home "
                 "start").format(step=self.shown_step(), steps=self.session.steps)

    def key(self, symbol) -> bool:
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
            self.scene.paused = False
        else:
            return False
        self.session.status = self.status()
        return True

    def seek(self, step: int) -> None:
        from sim.game import public_state
        sc = self.scene
        state = self.session.seek(step)
        sc.batch, sc.batch_pending, sc.batch_state = [], False, None
        sc.wait = 0.0
        sc.over, sc.standings = False, None
        sc.tower.skip()
        sc.banner.hide()
        sc._set_display(public_state(state))
        sc.paused = True
        sc.log.add(_("Replay: back at step {step} of {steps}.").format(step=step, steps=self.session.steps),
                   (30, 70, 140))
        damage()

    def batch_done(self) -> None:
        """A batch finished animating: after a single step, pause again."""
        if self.stepping and not self.session.queue:
            self.stepping = False
            self.scene.paused = True
        self.session.status = self.status()
