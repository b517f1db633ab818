"""What the tutorial may read of a game scene (issue 50): a typed view instead of the
coach's reach into `GameScene`. The coach follows the game through the scene's
`event_played(event, coming)` signal (each event as it is shown, with the rest of its
batch still to come), reads the decision asked and the panels it outlines or keeps clear
of, and uses the pause, the pace and the dialog every player has. `GameScene` satisfies
`TutorialScene` as it is (mypy checks it where `App.start_tutorial` hands one to the
coach).

Tests: tests/client/tutorial/test_tutorial_window.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from client.board.board_view import BoardView
from client.core.node import Node
from client.core.signal import Signal
from client.game.plan_panel import PlanningPanel
from client.game.table_view import LogPanel
from client.tower.tower_view import TowerView

if TYPE_CHECKING:
    from sim.snapshot import PublicState


class TutorialPlayer(Protocol):
    """The scene's event player, for the tower lesson's pour not watched whole."""

    def play_last_drop(self) -> bool: ...


class TutorialComforts(Protocol):
    """The table's comforts: whether the rules or a question are on top, and the nodes
    under which no tooltip shows."""

    @property
    def blocking(self) -> bool: ...
    @property
    def shields(self) -> list[Node]: ...


class TutorialWinter(Protocol):
    visible: bool

    def arrive_all(self) -> None: ...

    def title_rect(self) -> tuple[float, float, float, float]: ...


class TutorialDialog(Protocol):
    def ask(self, title: str, lines: Iterable[str],
            choices: Iterable[tuple[str, object]]) -> None: ...


class TutorialScene(Protocol):
    """A game scene as the tutorial sees it: the events it plays, the decision it asks,
    the pause and pace it is held at, and the views a card outlines or keeps clear of."""

    fast: bool
    paused: bool
    speed_idx: int
    quick_bot_battles: bool
    width: float
    height: float

    @property
    def event_played(self) -> Signal: ...
    @property
    def asking(self) -> tuple[str, int, int] | None: ...
    @property
    def speed(self) -> float: ...
    @property
    def display(self) -> PublicState | None: ...
    @property
    def labels(self) -> dict[int, str]: ...
    @property
    def player(self) -> TutorialPlayer: ...
    @property
    def comforts(self) -> TutorialComforts: ...
    @property
    def winter(self) -> TutorialWinter: ...
    @property
    def dialog(self) -> TutorialDialog: ...
    @property
    def tower(self) -> TowerView: ...
    @property
    def board_view(self) -> BoardView: ...
    @property
    def planning(self) -> PlanningPanel: ...
    # outlined by a step, or kept clear of by its card
    @property
    def decision(self) -> Node: ...
    @property
    def track(self) -> Node: ...
    @property
    def players(self) -> Node: ...
    @property
    def banner(self) -> Node: ...
    @property
    def log(self) -> LogPanel: ...
    @property
    def events_panel(self) -> Node: ...
    @property
    def info(self) -> Node: ...
