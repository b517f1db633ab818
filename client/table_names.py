"""Who sits where, in words: the players' chosen names at the table ("Aiko (Blue)"), a
bot seat as "Bot (Orange)", and the lobby's join line (this machine's LAN addresses and
the exact command a friend types). Only the standard library; a richer address search
(`net.addresses`) may replace `lan_addresses` once it exists."""

from __future__ import annotations

import socket

from client import theme
from lang.i18n import _


def seat_title(seat: int, kind: str, name: str = "", me: bool = False) -> str:
    """The words for a seat in panels and lists: 'Bot (Orange)', 'Aiko (Blue)', 'You
    (Blue)', or the colour alone for an unnamed person (or an open seat)."""
    colour = theme.SEAT_NAMES[seat]
    name = (name or "").strip()
    if kind == "bot":
        return _("Bot ({colour})").format(colour=colour)
    if name:
        return _("{name} ({colour})").format(name=name, colour=colour)
    if me:
        return _("You ({colour})").format(colour=colour)
    return colour


def lobby_titles(lobby: dict, my_seats=(), my_name: str = "") -> dict[int, str]:
    """{seat: title} for a network table's lobby (seats as `net.session` lists them)."""
    out = {}
    for s in lobby.get("seats", []) or []:
        seat = int(s["seat"])
        mine = seat in my_seats
        name = my_name if mine and my_name else s.get("name") or ""
        out[seat] = seat_title(seat, s.get("kind", ""), name, me=mine)
    return out


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other computers on the LAN can reach (loopback left
    out), best first: the address of the default route, then the host name's others.
    Empty when the machine has no network but loopback."""
    found: list[str] = []
    try:   # the address a datagram to the outside would leave from (nothing is sent)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        addr = info[4][0]
        if addr not in found:
            found.append(addr)
    return [a for a in found if not a.startswith("127.") and a != "0.0.0.0"]


def join_command(address: str, port: int, code: str | None) -> str:
    """The exact command a friend runs to join this table."""
    code_part = f" --code {code}" if code else ""
    return f"./shogun join {address}:{port}{code_part}"


def table_addresses() -> list[str]:
    """The addresses to offer friends: `net.addresses.lan_addresses()` once that richer
    search exists (looked up, not required), else this module's stdlib one."""
    try:
        from net import addresses as richer          # another branch adds it
        found = [str(a) for a in richer.lan_addresses()]
        if found:
            return found
    except Exception:
        pass
    return lan_addresses()


def join_lines(port: int, code: str | None, addresses: list[str] | None = None) -> list[str]:
    """The lobby's sentences telling friends how to join (one command per address)."""
    addresses = table_addresses() if addresses is None else addresses
    if not addresses:
        return [_("This computer has no LAN address (no network but itself). Friends on this "
                  "computer can join with:"), join_command("127.0.0.1", port, code)]
    lines = [_("Friends on your network join with:")]
    lines += [join_command(a, port, code) for a in addresses[:3]]
    return lines
