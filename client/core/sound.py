"""Short sound cues at the player's volume (the settings' volume and mute).

The cues are the project's own: `tools/make_sounds.py` synthesises them (noise bursts,
decaying sines) into `assets/sounds/`; nothing downloaded or borrowed is played. Without
an audio device pyglet falls back to its silent driver; any other failure (a missing
file among them) turns the cues off for the session instead of stopping the game.

Tests: tests/client/game/test_comforts_window.py, tests/tools/test_make_sounds.py.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING
import arcade

if TYPE_CHECKING:
    from arcade import Sound

log = logging.getLogger("client.core.sound")

SOUNDS = Path(__file__).resolve().parents[2] / "assets" / "sounds"
CUES = {name: SOUNDS / f"{name}.wav" for name in (
    "rattle",     # a battle's handful, shaken in the hand before the pour
    "clatter",    # cubes go into the tower, and each shake of it
    "thud",       # a cube lands on the tray (softer as more land)
    "tally",      # the tray counted: the last cube of a battle has landed
    "sting",      # a battle's result is shown
    "score",      # winter scoring
    "locked",     # my plan is locked
    "refused",    # the rules refused a command
    "ended",      # the final standings
)}


class Sounds:
    def __init__(self, volume: int = 80, mute: bool = False) -> None:
        self.volume = max(0, min(100, int(volume)))
        self.mute = mute
        self.broken = False
        self.played: list[str] = []      # cues played (tests and the curious read it)
        self._loaded: dict[str, Sound] = {}

    @property
    def on(self) -> bool:
        return not (self.mute or self.volume == 0 or self.broken)

    def play(self, cue: str, gain: float = 1.0) -> None:
        """Play a cue at the player's volume times `gain` (a battle's thuds get softer)."""
        if not self.on or cue not in CUES:
            return
        try:
            snd = self._loaded.get(cue)
            if snd is None:
                snd = self._loaded[cue] = arcade.load_sound(CUES[cue])
            arcade.play_sound(snd, volume=self.volume / 100 * max(0.0, min(1.0, gain)))
            self.played.append(cue)
        except Exception as exc:       # no audio here: the game goes on without sound
            log.warning("sound off: %s", exc)
            self.broken = True
