"""Short sound cues at the player's volume (the settings' volume and mute).

The sounds are the CC0 Kenney set bundled with Arcade (`:resources:sounds/…`), so the
project ships no audio files. Without an audio device pyglet falls back to its silent
driver; any other failure turns the cues off for the session instead of stopping the game.
"""

from __future__ import annotations

import logging

log = logging.getLogger("client.sound")

CUES = {
    "drop": ":resources:sounds/fall2.wav",       # cubes go into the tower
    "battle": ":resources:sounds/hit3.wav",      # a battle's result is shown
    "locked": ":resources:sounds/coin1.wav",     # my plan is locked
    "refused": ":resources:sounds/error2.wav",   # the rules refused a command
    "ended": ":resources:sounds/gameover3.wav",  # the final standings
}


class Sounds:
    def __init__(self, volume: int = 80, mute: bool = False) -> None:
        self.volume = max(0, min(100, int(volume)))
        self.mute = mute
        self.broken = False
        self.played: list[str] = []      # cues played (tests and the curious read it)
        self._loaded: dict[str, object] = {}

    @property
    def on(self) -> bool:
        return not (self.mute or self.volume == 0 or self.broken)

    def play(self, cue: str) -> None:
        if not self.on or cue not in CUES:
            return
        try:
            import arcade
            snd = self._loaded.get(cue)
            if snd is None:
                snd = self._loaded[cue] = arcade.load_sound(CUES[cue])
            arcade.play_sound(snd, volume=self.volume / 100)
            self.played.append(cue)
        except Exception as exc:       # no audio here: the game goes on without sound
            log.warning("sound off: %s", exc)
            self.broken = True
