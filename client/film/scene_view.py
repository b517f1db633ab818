"""What a film may read of a game scene (issue 50): a typed view instead of the film's
untyped reach into `GameScene`. The film replays a save in a real game scene, waits for
the N-th battle's moment, and draws the scene's stage and map alone; these Protocols are
all it touches. `GameScene` satisfies `FilmScene` as it is (mypy checks it where
`battle_film` is handed one).

Tests: tests/client/film/test_battle_film.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from client.board.board_view import BoardView
from client.core.signal import Signal
from client.tower.battle_show import BattleShow
from client.tower.tower_view import TowerView

if TYPE_CHECKING:
    from client.core.played import Played
    from sim.snapshot import PublicState


class FilmPlayer(Protocol):
    """The scene's event player: the event shown now, the rest of its batch, and whether
    it is behind the session (a replay fast-forwarding)."""

    @property
    def playing_event(self) -> Played | None: ...
    @property
    def batch(self) -> Sequence[Played]: ...
    @property
    def behind(self) -> bool: ...


class FilmSession(Protocol):
    def step_key(self) -> int: ...


class FilmShared(Protocol):
    @property
    def display(self) -> PublicState | None: ...


class FilmScene(Protocol):
    """A game scene as a film sees it: its moments, where the replay is, and the three
    views it draws (the stage, the map, the battle's show)."""

    fast: bool
    width: float
    height: float

    @property
    def moment_reached(self) -> Signal: ...
    @property
    def player(self) -> FilmPlayer: ...
    @property
    def session(self) -> FilmSession: ...
    @property
    def shared(self) -> FilmShared: ...
    @property
    def tower(self) -> TowerView: ...
    @property
    def board_view(self) -> BoardView: ...
    @property
    def battle(self) -> BattleShow: ...
