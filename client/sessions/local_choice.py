"""A local game as the player chose it: players, side, setup, who sits where.

Why a record: the menu, the command line's `play` and the tests start a local game; one
frozen record from the menu to the session (`MenuScene.local_choice()`, `App.start_local`,
`client.session_factory.local_game`) names every field, so mypy checks each step where a
dict with keys such as "humans" and "bots" did not (issue 50). Light on purpose: the menu
imports it before any game module is loaded.

Tests: tests/client/sessions/test_local_choice.py, tests/client/scenes/test_menu_names.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class LocalChoice:
    """Seats `humans` are played at this window; every other seat by the bot level
    `bots[seat]` ("easy", "normal", "hard"). `seed`: the game's, or None for the clock's."""

    players: int = 4
    side: str = "sun"
    setup: str = "beginner"
    humans: tuple[int, ...] = (0,)
    bots: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    seed: int | None = None

    def __post_init__(self) -> None:
        # frozen all the way down: a read-only copy of the bots, humans as a tuple
        object.__setattr__(self, "humans", tuple(self.humans))
        object.__setattr__(self, "bots", MappingProxyType(dict(self.bots)))

    @classmethod
    def one_level(cls, level: str = "normal", *, players: int = 4, side: str = "sun",
                  setup: str = "beginner", humans: tuple[int, ...] = (0,),
                  seed: int | None = None) -> LocalChoice:
        """The bot level `level` at every seat not in `humans` (`play`'s game: me at one
        seat, its `--bots` level at the others)."""
        return cls(players, side, setup, humans,
                   {s: level for s in range(players) if s not in humans}, seed)

    def bot_seats(self) -> dict[int, str]:
        """The bots by seat, as a session takes them."""
        return dict(self.bots)
