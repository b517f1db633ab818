"""A friend who came by code rejoins after a restart with `--resume` (issue 39).

Its tunnel died with its program (magic-wormhole's Dilation does not outlive it), and its
save holds that tunnel's loopback end as the host's address. So the host keeps its
invitation open while a seat of a friend by code is away from the game and says
`Seat 1 rejoins with: ./shogun join CODE --resume SAVE` (net/reach/rejoin_by_code.py,
`Invitations`); the friend with `--resume` and a code finds the table by code first and
dials the host at the new tunnel's end (cli/by_code.py, `TableSession.resume(host_at=)`).
The rejoin through it is the table's own: role `rejoin`, the saved token and seat key.

Real processes with a mailbox and relay of their own on 127.0.0.1 (tests/net/reach/
conftest.py); SHOGUN_NET_RELAY_ONLY=1 so that the friend dials nothing directly.
"""

from __future__ import annotations

import re
import time
from typing import cast

import pytest

from net.reach.rejoin_by_code import absent_by_code
from net.transport.reactor_types import NetReactor
from tests.net import processes as P
from tests.net.reach.conftest import CODE_LINE, RELAY_ONLY as ENV


@pytest.mark.parametrize("by_code, offline, started, closed, away", [
    ({1}, [1], True, False, [1]),            # a friend by code left mid-game: a code for it
    ({1, 2}, [2, 1], True, False, [1, 2]),   # two away: the lowest seat is named first
    ({1}, [2], True, False, []),             # seat 2 came by address: it dials the host again
    (set(), [1], True, False, []),
    ({1}, [], True, False, []),              # everyone is here
    ({1}, [1], False, False, []),            # before the start a seat that leaves is open again
    ({1}, [1], True, True, []),              # the table is closed
])
def test_a_code_is_wanted_for_each_friend_by_code_away_from_the_game(
        by_code, offline, started, closed, away):
    assert absent_by_code(by_code, offline, started, closed) == away


REJOIN_LINE = r"Seat 1 rejoins with: \./shogun join ([a-z]+(?:-[a-z]+){5}) --resume SAVE"



@pytest.mark.network
@pytest.mark.slow
def test_a_friend_by_code_killed_mid_game_rejoins_with_a_new_code(servers, tmp_path):
    where = ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address,
             "--rejoin-timeout", "300"]
    save = tmp_path / "friend.save"
    host = P.Peer("host", ["host", "--headless", "--port", "0", "--players", "3", "--bots", "1",
                           "--save", str(tmp_path / "host.save"), *where], tmp_path, ENV)
    peers = [host]
    try:
        code = host.wait_for(CODE_LINE, 60).group(1)
        friend = P.Peer("friend", ["join", code, "--headless", "--save", str(save), *where],
                        tmp_path, ENV)
        peers.append(friend)
        friend.wait_for(r"reached the table by code: through the relay", 120)
        friend.wait_for(r"game started: seat 1", 120)
        log = tmp_path / "friend.save.log"
        end = time.monotonic() + 120
        while time.monotonic() < end and (not log.exists() or log.stat().st_size < 3000):
            time.sleep(0.01)                          # mid-game: some steps applied
        friend.kill()
        assert friend.proc.returncode == -9
        host.wait_for_error("paused: seat 1", 120)        # two humans: no majority, no bot
        new_code = host.wait_for(REJOIN_LINE, 120).group(1)
        assert new_code != code
        back = P.Peer("friend-resumed", ["join", new_code, "--headless", "--resume", str(save),
                                         *where], tmp_path, ENV)
        peers.append(back)
        P.wait_all([host, back], 400)
        # the host is gone: its code is stale now, and said so in a sentence
        stale = P.Peer("friend-stale", ["join", new_code, "--headless", "--resume", str(save),
                                        *where], tmp_path,
                       {**ENV, "SHOGUN_NET_RENDEZVOUS_WAIT": "5"})
        peers.append(stale)
        P.wait_all([stale], 120)
    finally:
        P.kill_all(peers)
    assert stale.proc.returncode == 1
    assert "error: cannot join by code: " in stale.errors() and \
        "Traceback" not in stale.errors(), stale.errors()[-2000:]
    finished = [host, back]
    assert [p.proc.returncode for p in finished] == [0, 0], \
        [(p.name, p.text()[-800:], p.errors()[-2000:]) for p in finished]
    finals = {p.name: p.final_hash() for p in finished}
    assert None not in finals.values() and len(set(finals.values())) == 1, finals
    assert "reached the table by code: through the relay" in back.text()
    assert "resuming seat 1" in back.text()
    assert "seat 1 is played by a bot" not in host.errors()      # the friend came back
    assert "friend 2 is connected through the relay" in host.text()   # through a new tunnel


class _Wormhole:
    """A wormhole that answers when the test says (the mailbox is not the point here)."""

    def __init__(self) -> None:
        from twisted.internet.defer import Deferred
        self.code: Deferred = Deferred()
        self.message: Deferred = Deferred()
        self.closed = False

    def set_code(self, code: str) -> None:
        self.wormhole_code = code

    def get_unverified_key(self):
        from twisted.internet.defer import Deferred
        return Deferred()

    def get_code(self):
        return self.code

    def get_versions(self):
        from twisted.internet.defer import Deferred
        return Deferred()

    def get_message(self):
        return self.message

    def send_message(self, _data: bytes) -> None:
        pass

    def close(self):
        from twisted.internet.defer import succeed
        self.closed = True
        return succeed(None)


def _invitations(monkeypatch, away: list[int]):
    from twisted.internet.task import Clock

    from net.reach import invitations, rendezvous
    made: list[_Wormhole] = []

    def wormhole_for(_reactor, _options, app_id=""):
        made.append(_Wormhole())
        return made[-1]
    monkeypatch.setattr(invitations, "wormhole_for", wormhole_for)
    said: list[str] = []
    clock = Clock()
    # a clock for a reactor: this test opens no tunnel (serve_table never runs)
    friends = invitations.Invitations(cast(NetReactor, clock), rendezvous.RendezvousOptions(),
                                      "CODE", 7531,
                                      lambda: [], lambda: False, said.append,
                                      rejoining=lambda: list(away))
    friends.open()
    return friends, clock, made, said


def test_a_seat_away_gets_one_code_and_no_second_while_its_friend_comes_back(monkeypatch):
    from net.reach.rendezvous import Choice
    away = [1]
    friends, clock, made, said = _invitations(monkeypatch, away)
    assert len(made) == 1
    made[0].code.callback("3-apple-pie")
    assert len(said) == 1 and re.fullmatch(r"Seat 1 rejoins with: \./shogun join "
                                           r"[a-z]+(-[a-z]+){5} --resume SAVE", said[0]), said
    made[0].message.callback(Choice("direct").to_bytes())   # the friend is on its way
    clock.advance(0)
    for _ in range(10):
        clock.advance(friends.CHECK_EVERY)     # its rejoin is not through yet: no new code
    assert len(made) == 1
    away.clear()                               # it is back
    clock.advance(friends.CHECK_EVERY)
    assert len(made) == 1
    away.append(1)                             # away again: a new code for it
    clock.advance(friends.CHECK_EVERY)
    assert len(made) == 2
    made[1].code.callback("4-banana-split")
    assert said[-1].startswith("Seat 1 rejoins with: ./shogun join ") and said[-1] != said[0]
    friends.close()


def test_a_friend_who_took_the_code_but_never_came_back_gets_another(monkeypatch):
    from net.reach.rendezvous import Choice
    friends, clock, made, said = _invitations(monkeypatch, [1])
    made[0].code.callback("3-apple-pie")
    made[0].message.callback(Choice("direct").to_bytes())
    clock.advance(friends.REJOIN_GRACE + friends.CHECK_EVERY)
    assert len(made) == 2
    friends.close()


def test_no_seat_away_no_code_once_the_game_is_on(monkeypatch):
    friends, clock, made, said = _invitations(monkeypatch, [])
    clock.advance(10 * friends.CHECK_EVERY)
    assert made == [] and said == []
    friends.close()
