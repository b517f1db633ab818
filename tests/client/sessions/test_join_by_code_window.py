"""Join by code in the window (issue 39), through a magic-wormhole mailbox and transit
relay started by the test on 127.0.0.1 (tests/net/wormhole_servers.py; nothing outside
this machine).

On loopback every direct path works, so both sides run with SHOGUN_NET_RELAY_ONLY=1: the
friend dials none of the host's addresses and magic-wormhole offers no direct hints, so the
table's frames go through the relay, as between two homes behind symmetric NAT (that
choice itself is shown in network namespaces: tests/net/reach/test_internet_rendezvous.py).

- the Settings screen keeps the rendezvous and the relay (typed, saved, read again);
- the window joins by the code a headless host printed, typed in the menu's join field:
  the lobby says it reached the table through the relay, and the game starts;
- the window hosts: its lobby shows a code first among the join lines, a headless friend
  joins with it through the relay, and the game starts;
- the window hosts two friends by code who cannot dial each other: its start check plans a
  tunnel of their own (net/table/pair_links.py), as a headless host's does, and the game
  starts instead of "… cannot reach each other".
"""

from __future__ import annotations

import re
import time

import arcade
import pytest

from net.reach.reachability import lobby_players
from net.reach.rendezvous import is_invite
from net.table.options import TableOptions
from tests.client.conftest import frame, heard, run_until, screenshot
from tests.net import processes as P
from tests.net import wormhole_servers

pytestmark = [pytest.mark.network, pytest.mark.slow]

CODE_LINE = r"Friends anywhere join with: \./shogun join ([a-z]+(?:-[a-z]+){5})"
RELAY_ONLY = {"SHOGUN_NET_RELAY_ONLY": "1"}


@pytest.fixture
def servers(tmp_path, monkeypatch):
    monkeypatch.setenv("SHOGUN_NET_RELAY_ONLY", "1")          # the window's side too
    monkeypatch.setenv("SHOGUN_NET_PORTMAP", "off")           # no router outside this machine
    started = wormhole_servers.start(tmp_path, "127.0.0.1", P.free_port(), P.free_port())
    try:
        yield started
    finally:
        started.stop()


def _set_rendezvous_in_settings(app, servers) -> None:
    """Typed into the Settings screen and saved, as a player would."""
    from client.core.settings import load_settings
    app.show_settings()
    scene = app.scene
    assert scene.name == "settings"
    for row, text in (("rendezvous", servers.mailbox_url), ("relay", servers.relay_address)):
        field = scene.fields[row]
        field.focused = True
        field.value = ""
        app.on_text(text)
        app.on_key_press(arcade.key.ENTER, 0)               # ends the typing
        frame(app)
    app.on_key_press(arcade.key.ENTER, 0)                   # Save
    frame(app)
    assert app.scene.name == "menu"
    saved = load_settings()[0]
    assert (saved.rendezvous, saved.relay) == (servers.mailbox_url, servers.relay_address)
    assert (app.settings.rendezvous, app.settings.relay) == (saved.rendezvous, saved.relay)


def test_settings_refuse_a_rendezvous_that_is_no_mailbox_address(app, home):
    app.show_settings()
    scene = app.scene
    scene.fields["rendezvous"].value = "relay.example:4000"
    app.on_key_press(arcade.key.ENTER, 0)                   # Save: refused, said
    frame(app)
    assert app.scene is scene and "ws://HOST:PORT/v1" in scene.message
    scene.fields["rendezvous"].value = ""
    scene.fields["relay"].value = "relay.example:4001"
    scene.buttons["direct_only"].pressed.emit()
    app.on_key_press(arcade.key.ENTER, 0)
    frame(app)
    from client.core.settings import load_settings
    saved = load_settings()[0]
    assert saved.relay == "relay.example:4001" and saved.direct_only and saved.rendezvous == ""


def test_the_window_joins_by_code_through_the_relay(app, home, servers, tmp_path):
    _set_rendezvous_in_settings(app, servers)
    where = ["--rendezvous", servers.mailbox_url, "--relay", servers.relay_address]
    host = P.Peer("host", ["host", "--headless", "--port", "0", "--players", "3",
                           "--rejoin-timeout", "60", *where], tmp_path, RELAY_ONLY)
    friend = None
    try:
        code = host.wait_for(CODE_LINE, 60).group(1)
        menu = app.scene
        menu.f_address.value = code                         # typed in the join field
        menu.b_join.pressed.emit()
        frame(app)
        assert app.code_search is not None and "Looking for the table" in menu.message
        assert run_until(app, lambda: app.scene.name == "lobby", 120), \
            getattr(app.scene, "message", "") + host.text() + host.errors()[-1500:]
        session = app.session
        relay_port = servers.relay_address.rsplit(":", 1)[1]
        assert session.arrival is not None
        # it can serve or claim a pair tunnel the host asks for (net/table/pair_links.py),
        # and says how that goes in the game's log (the table's news)
        assert session.table.pair_links.relay_allowed
        session.table.pair_links.say("the tunnel to seat 2 is connected through the relay "
                                     "127.0.0.1:4001")
        assert session.offers.notices[-1].startswith("the tunnel to seat 2 is connected")
        assert re.search(rf"through the relay 127\.0\.0\.1:{relay_port}, round trip \d",
                         session.arrival.how), session.arrival.how
        lobby = app.scene
        assert "through the relay" in lobby.connection_line()
        # the lobby says how I reach the host (seat 0): the relay, and the round trip
        assert run_until(app, lambda: re.fullmatch(r"relay, round trip (\d+|<1) ms",
                                                   lobby.links.get(0, "")), 30), lobby.links
        # a second friend by the next code fills the table: the headless host starts
        again = host.wait_for(r"The next friend joins with: \./shogun join ([a-z]+(?:-[a-z]+){5})",
                              60).group(1)
        friend = P.Peer("friend", ["join", again, "--headless", *where], tmp_path, RELAY_ONLY)
        assert run_until(app, lambda: session.started, 120), host.text()[-1500:]
        host.wait_for(r"game started", 30)
        assert run_until(app, lambda: app.scene.name == "game", 60)
        assert "a friend who typed the code cannot dial the table directly" in host.text()
        assert re.search(rf"friend 1 is connected through the relay 127\.0\.0\.1:{relay_port}",
                         host.text()), host.text()
    finally:
        app.show_menu()                                     # leaving closes the table
        frame(app, 2)
        P.kill_all([host] + ([friend] if friend is not None else []))
        time.sleep(0.1)


def test_the_window_hosts_and_a_friend_joins_with_the_code_its_lobby_shows(
        app, home, servers, tmp_path, shots):
    _set_rendezvous_in_settings(app, servers)
    app.start_net(TableOptions("host", players=3, bots=1, port=0))
    assert app.scene.name == "lobby", getattr(app.scene, "message", "")
    lobby, session = app.scene, app.session
    friend = None
    try:
        assert run_until(app, lambda: lobby.join_offers() and is_invite(
            lobby.join_offers()[0][0].removeprefix("./shogun join ")), 60), lobby.join_offers()
        command, where = lobby.join_offers()[0]
        assert where == "anywhere: by code, through the rendezvous"
        code = command.removeprefix("./shogun join ")
        friend = P.Peer("friend", ["join", code, "--headless", "--rendezvous",
                                   servers.mailbox_url, "--relay", servers.relay_address],
                        tmp_path, RELAY_ONLY)
        assert run_until(app, session.table.lobby_full, 120), friend.text() + friend.errors()[-1500:]
        assert "reached the table by code: through the relay" in friend.text()
        assert any("is connected through the relay" in line for line in lobby.said), lobby.said
        # the lobby names the friend's link, with its round trip end to end (a sealed
        # ping through the tunnel: the kernel's would be the loopback hop's)
        assert run_until(app, lambda: re.fullmatch(r"relay, round trip (\d+|<1) ms",
                                                   lobby.links.get(1, "")), 30), lobby.links
        frame(app, 2)
        screenshot(app, shots / "lobby-relay-link.png")
        assert run_until(app, lambda: not lobby.join_offers()[0][0].startswith(
            f"./shogun join {code}"), 30)                   # the table is full: no code shown
        app.on_key_press(arcade.key.ENTER, 0)               # start the game
        assert run_until(app, lambda: app.scene.name == "game", 60), lobby.error
        friend.wait_for(r"game started: seat 1", 60)
    finally:
        app.show_menu()
        frame(app, 2)
        if friend is not None:
            friend.kill()
        time.sleep(0.1)


def _established_to(host: str, port: int) -> bool:
    """A TCP connection to HOST:PORT is established on this machine (Linux's table)."""
    a, b, c, d = (int(part) for part in host.split("."))
    local = f"{d:02X}{c:02X}{b:02X}{a:02X}:{port:04X}"
    with open("/proc/net/tcp") as table:
        return any(row.split()[1] == local and row.split()[3] == "01"
                   for row in list(table)[1:])


def test_the_window_hosts_two_friends_by_code_who_cannot_dial_each_other(
        app, home, servers, tmp_path):
    """Each friend listens on 127.0.0.2 only, while the host sees it at 127.0.0.1 (its
    tunnel's end): the host's probe of its table is refused, as for a home behind
    symmetric NAT. Before the window planned pair tunnels its lobby said `The game cannot
    start: … cannot reach each other`."""
    _set_rendezvous_in_settings(app, servers)
    app.start_net(TableOptions("host", players=3, bots=0, port=0))
    assert app.scene.name == "lobby", getattr(app.scene, "message", "")
    lobby, session = app.scene, app.session
    links = session.table.pair_links
    assert links.relay_allowed and links.options is not None
    assert (links.options.mailbox, links.options.relay) == \
        (servers.mailbox_url, f"tcp:{servers.relay_address}")
    behind_nat = {**RELAY_ONLY, "SHOGUN_NET_INTERFACE": "127.0.0.2"}
    friends: list[P.Peer] = []
    try:
        used: list[str] = []

        def offered() -> str | None:
            """The code the lobby shows first, once it is a new one."""
            offers = lobby.join_offers()
            code = offers[0][0].removeprefix("./shogun join ") if offers else ""
            return code if is_invite(code) and code not in used else None

        for n in (1, 2):
            assert run_until(app, lambda: offered() is not None, 120), lobby.join_offers()
            code = offered()
            used.append(code)
            friends.append(P.Peer(f"friend{n}", [
                "join", code, "--headless", "--rejoin-timeout", "60", "--rendezvous",
                servers.mailbox_url, "--relay", servers.relay_address], tmp_path, behind_nat))
            assert run_until(app, lambda: sum(c.ready for c in session.table.conns) == n,
                             120), friends[-1].text() + friends[-1].errors()[-1500:]
        assert run_until(app, session.table.lobby_full, 120)
        first_port = next(port for seat, _name, _host, port in lobby_players(session.table)
                          if seat == 1)
        # the start check knows who came by code: the source ports of the host's tunnels
        assert set(links.tunnelled_ports()) == set(session.invitations.tunnelled)
        app.on_key_press(arcade.key.ENTER, 0)               # start the game
        assert run_until(app, lambda: app.scene.name == "game", 120), lobby.error
        first, second = friends
        heard(app, first, r"game started: seat 1", 60)
        heard(app, second, r"game started: seat 2", 60)
        heard(app, first, r"seat 2 cannot dial this table directly: a tunnel of our own", 60)
        heard(app, second, r"seat 1 cannot be dialled directly: dialling it through a "
                           r"tunnel of our own", 60)
        heard(app, second, r"the tunnel to seat 1 is connected through the relay", 120)
        # the mesh's link between the two: the tunnel's far end reached friend 1's table
        # (only there: the host dials no friend, its probes went to 127.0.0.1)
        assert run_until(app, lambda: _established_to("127.0.0.2", first_port), 60), \
            first.errors()[-1500:] + second.errors()[-1500:]
    finally:
        app.show_menu()
        frame(app, 2)
        P.kill_all(friends)
        time.sleep(0.1)
    assert "cannot reach each other" not in lobby.error


def test_the_lobby_says_a_friend_on_this_machine_and_the_round_trip(app, home, tmp_path,
                                                                    monkeypatch, shots):
    monkeypatch.setenv("SHOGUN_NET_PORTMAP", "off")
    app.start_net(TableOptions("host", players=3, bots=1, port=0))
    lobby, session = app.scene, app.session
    assert lobby.name == "lobby" and session.invitations is None     # no rendezvous: none asked
    friend = P.Peer("friend", ["join", f"127.0.0.1:{session.table.listen_port}", "--code",
                               session.table.join_code, "--headless"], tmp_path)
    try:
        assert run_until(app, session.table.lobby_full, 60), friend.text() + friend.errors()
        assert run_until(app, lambda: re.fullmatch(r"on this machine, round trip (\d+|<1) ms",
                                                   lobby.links.get(1, "")), 30), lobby.links
        frame(app, 2)
        seat_line = lobby.texts.labels[("seat", 1)].text
        assert seat_line.endswith("— " + lobby.links[1]), seat_line
        screenshot(app, shots / "lobby-links.png")
    finally:
        app.show_menu()
        frame(app, 2)
        friend.kill()
        time.sleep(0.1)
