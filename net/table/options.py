"""What a player asks of a network table, as one typed record: `TableOptions`.

Why one record: `host`, `join` and `watch` reach a table from the command line (`main.py`,
for the window or a headless peer) and from the window's menu. Each used to read its
options by name from argparse's namespace or a dict, with its own default beside every
read (the port written in fourteen places); now `main.py` and the menu build this record
and every reader takes its fields, whose defaults are here (the port's is the address
book's, `net.reach.addresses.DEFAULT_PORT`).

Light on purpose: `main.py` reads the defaults while it builds its parser, for every
command, so this module imports nothing that loads Twisted.

Tests: tests/test_main.py, tests/cli/test_runner_names.py, tests/client/sessions/test_net_window.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from net.reach.addresses import DEFAULT_PORT

TURN_TIME = 300.0         # the default turn timer: seconds for a player's decision
REJOIN_TIMEOUT = 120.0    # seconds a dropped peer may take to rejoin before a bot plays it
BOT = "heuristic"         # the bot that plays a headless peer's seat, and bot seats

TableCommand = Literal["host", "join", "watch"]


@dataclass(frozen=True)
class TableOptions:
    """A table to open, join or watch, and how this peer plays at it."""
    command: TableCommand
    address: str | None = None          # join/watch: HOST:PORT (None: the LAN's tables)
    code: str | None = None             # the join code (host: None makes one)
    table: str | None = None            # join/watch without an address: the LAN table's name
    port: int = DEFAULT_PORT            # host: the port to listen on (0: any free one)
    players: int = 4
    side: str = "sun"
    setup: str = "beginner"
    bots: int = 0                       # host: bot seats at the table
    bot_levels: tuple[str, ...] = ()    # host: one level for all bot seats, or one each
    seed: int | None = None             # (tests) a headless bot's fixed entropy
    turn_time: float = TURN_TIME
    rejoin_timeout: float = REJOIN_TIMEOUT
    name: str = ""                      # the name others see ("" : a readable given name)
    bot: str = BOT                      # a headless peer's bot
    log: str | None = None              # write the JSON game log here
    save: str | None = None             # keep a save of the command log here
    resume: str | None = None           # resume from this save and rejoin
    rendezvous: str | None = None       # the magic-wormhole mailbox (None: the public one)
    relay: str | None = None            # its transit relay, HOST:PORT (None: the public one)
    direct_only: bool = False           # never through a relay (issue 39)
