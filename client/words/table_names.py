"""Who sits where, in words: the players' chosen names at the table ("Aiko (Blue)"), a
bot seat as "Bot (Orange)", and the lobby's join lines (every address this table can be
reached at, from `net.reach.addresses`, with the exact command a friend types).

Tests: tests/client/game/test_net_comforts.py, tests/client/scenes/test_lobby_window.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from client.core import theme
from lang.i18n import N_, _
from net.reach.addresses import reachable_addresses
from net.reach.addresses import Reachable
from net.table.before_start.lobby_record import LobbySeat


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


def lobby_titles(seats: Sequence[LobbySeat], my_seats: Sequence[int] = (),
                 my_name: str = "") -> dict[int, str]:
    """{seat: title} for a network table's seats (its lobby's, or its start's)."""
    out = {}
    for s in seats:
        mine = s.seat in my_seats
        name = my_name if mine and my_name else s.name
        out[s.seat] = seat_title(s.seat, s.kind, name, me=mine)
    return out


def join_command(dial: str, code: str | None) -> str:
    """The exact command a friend runs to join this table (`dial` is HOST:PORT as `join`
    reads it, IPv6 in brackets)."""
    code_part = f" --code {code}" if code else ""
    return f"./shogun join {dial}{code_part}"


def table_addresses(port: int, mapped: Iterable[tuple[str, int]] = ()) -> list[Reachable]:
    """Where friends can reach this table (`net.reach.addresses.Reachable`, most widely
    reachable first): a router's mapping, global IPv6, then the LAN."""
    try:
        return reachable_addresses(port, mapped)
    except Exception:          # no interface list on this system: loopback only
        return [Reachable("127.0.0.1", port, "this machine", "lo")]


WHERE = {"public": N_("over the internet (the router forwards the port)"),
         "global IPv6": N_("over the internet, by IPv6"),
         "LAN": N_("from your home network"), "LAN IPv6": N_("from your home network, by IPv6"),
         "this machine": N_("from this computer only")}


def join_offers(port: int, code: str | None, addresses: Sequence[Reachable] | None = None) -> list[tuple[str, str]]:
    """(exact command, where it works from) for each address friends can use, best first."""
    addresses = table_addresses(port) if addresses is None else addresses
    return [(join_command(r.dial, code), _(WHERE.get(r.scope, r.scope))) for r in addresses[:3]]


def join_lines(port: int, code: str | None, addresses: Sequence[Reachable] | None = None) -> list[str]:
    """The lobby's lines telling friends how to join: one exact command per address, with
    where it works from."""
    return [_("Friends join with one of these:")] + [
        _("{command}    ({where})").format(command=c, where=w)
        for c, w in join_offers(port, code, addresses)]


# the table's options as the menu and the lobby say them ("Board side: sun"); the game's
# records keep the English keys
_SIDES = {"sun": N_("sun"), "moon": N_("moon")}
_SETUPS = {"beginner": N_("beginner"), "draft": N_("draft")}


def side_word(side: str) -> str:
    """"sun" or "moon" in the player's language (anything else as it is)."""
    return _(_SIDES[side]) if side in _SIDES else str(side)


def setup_word(setup: str) -> str:
    """"beginner" or "draft" in the player's language (anything else as it is)."""
    return _(_SETUPS[setup]) if setup in _SETUPS else str(setup)
