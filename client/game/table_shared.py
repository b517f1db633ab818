"""What the table scene's parts share, declared in one place: the pace the player chose and
what the board shows (`SceneState`), and the scene's nodes the parts draw on
(`TableViews`). The scene builds both and hands them to its parts (`EventPlayer`,
`Asker`, `StatusLines`); everything else a part keeps is its own.

Tests: tests/client/game/test_table_layout.py, tests/client/scenes/test_window.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from client.core.settings import SPEEDS

if TYPE_CHECKING:
    from client.board.board_view import BoardView
    from client.core.sound import Sounds
    from client.game.decisions import DecisionPanel
    from client.game.plan_panel import PlanningPanel
    from client.game.table_messages import Banner, InfoPanel
    from client.game.table_view import ActionTrack, EventsPanel, LogPanel, PlayersPanel, TopBar
    from client.tower.tower_view import TowerView
    from client.widgets.thinking import ThinkingBadge
    from sim.snapshot import PublicState


@dataclass
class SceneState:
    """Read by several parts; the keys (pace) and the event player (display, over) write it."""

    labels: dict[int, str]          # {seat: "Aiko (Blue)"}
    notes: dict[int, str]           # {seat: "hard"}: a local bot's level after its seat
    speed_idx: int                  # index into SPEEDS
    fast: bool                      # fast-forward
    paused: bool = False
    quick_bot_battles: bool = False # battles of bots only: skipped to their card, which goes
                                    # on by itself (the tutorial turns it on after its tower lesson)
    over: bool = False              # the game's end has been shown
    display: PublicState | None = None    # the public state the board shows (a copy)

    @property
    def speed(self) -> float:
        return 1000.0 if self.fast else SPEEDS[self.speed_idx]


@dataclass
class TableViews:
    """The table's nodes (children of the scene) the parts show things on."""

    topbar: TopBar
    board_view: BoardView
    tower: TowerView
    players: PlayersPanel
    events_panel: EventsPanel
    log: LogPanel
    track: ActionTrack
    planning: PlanningPanel
    decision: DecisionPanel
    info: InfoPanel
    banner: Banner
    thinking: ThinkingBadge
    sounds: Sounds
