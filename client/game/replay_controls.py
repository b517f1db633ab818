"""Studying a saved game in the window: step back and forward, jump by round.

Keys (only when the session is a save being replayed): ← one step back, → play the next
step (its events and tower drop animate again, then the replay pauses), Page Up / Page
Down the previous / next round, Home the start. Going back re-applies the save's
commands from the start (`ReplaySession.seek`); the board shows that state at once.

Tests: tests/client/game/test_comforts_window.py, tests/client/game/test_restored_table.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade

from client.core.node import damage
from lang.i18n import _

if TYPE_CHECKING:
    from client.game.event_playing import EventPlayer
    from client.game.table_shared import SceneState, TableViews
    from client.sessions.interface import Seeking


class ReplayControls:
    def __init__(self, study: Seeking, shared: SceneState, views: TableViews,
                 player: EventPlayer) -> None:
        self.session = study
        self.shared = shared
        self.views = views
        self.player = player
        self.stepping = False          # → was pressed: pause again after this step

    def shown_step(self) -> int:
        """The step the board shows (the session may have applied one more, in flight)."""
        return max(0, self.session.step - (1 if self.player.behind else 0))

    def status(self) -> str:
        return _("Replay: step {step} of {steps} — ← → step, Page Up/Down round, Home "
                 "start").format(step=self.shown_step(), steps=self.session.steps)

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
        else:
            return False
        self.session.status = self.status()
        return True

    def seek(self, step: int) -> None:
        """Show the table after `step` commands at once: the board, the tower's contents,
        and the log up to that point."""
        state, past = self.session.seek(step)
        self.player.reset()
        self.views.tower.skip()
        self.views.banner.hide()
        self.player.restore_log(past)
        self.player.show_engine_state(state)
        self.shared.paused = True
        self.views.log.add_line(_("Replay: back at step {step} of {steps}.").format(step=step, steps=self.session.steps),
                   (30, 70, 140))
        damage()

    def batch_done(self) -> None:
        """A batch finished animating: after a single step, pause again."""
        if self.stepping and not self.session.queue:
            self.stepping = False
            self.shared.paused = True
        self.session.status = self.status()
