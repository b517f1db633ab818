"""A hosting window says a friend by code's rejoin line where the game shows the table's
news (the game's log, `table.on_notice`, client/game/net_comforts.py), not in the lobby's
list, which is gone once the game is on (issue 39; client/sessions/by_code.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from twisted.internet.task import Clock

from net.reach.addresses import Reachable
from net.reach.rendezvous import RendezvousOptions
from tests.net.reach.test_rejoin_by_code import _Wormhole


@dataclass
class _Opts:
    interface: str = "127.0.0.1"


class _PairLinks:
    def use_relay(self, *_args: Any, **_kwargs: Any) -> None:
        pass


@dataclass
class _Table:
    """What the host's invitation reads of a table: started, with seat 1 away (it came
    by code: `FriendsByCode` is told so directly here)."""
    started: bool = True
    closed: bool = False
    offline_seats: list[int] = field(default_factory=lambda: [1])
    conns: list[Any] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    opts: _Opts = field(default_factory=_Opts)
    join_code: str = "CODE"
    listen_port: int = 7531
    pair_links: _PairLinks = field(default_factory=_PairLinks)

    def lobby_full(self) -> bool:
        return True

    def on_notice(self, line: str) -> None:
        self.notices.append(line)


def test_the_rejoin_line_goes_to_the_games_log(monkeypatch):
    from client.sessions import by_code
    from net.reach import invitations, rejoin_by_code
    made: list[_Wormhole] = []
    monkeypatch.setattr(invitations, "wormhole_for",
                        lambda _reactor, _options, app_id="": made.append(_Wormhole())
                        or made[-1])
    monkeypatch.setattr(by_code, "window_reactor", Clock)
    monkeypatch.setattr(rejoin_by_code.FriendsByCode, "look",
                        lambda self: self.seats.add(1))     # seat 1 came by code
    table = _Table()
    lobby_list: list[str] = []
    friends = by_code.invite_friends(table, RendezvousOptions(),
                                     lambda: [Reachable("127.0.0.1", 7531, "this machine")],
                                     lobby_list.append)
    made[0].code.callback("3-apple-pie")
    code = friends.shown_code
    assert code is not None and len(code.split("-")) == 6
    assert table.notices == [f"Seat 1 rejoins with: ./shogun join {code} --resume SAVE"]
    assert lobby_list == []
    friends.close()
