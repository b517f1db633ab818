"""The lobby of a network table: seats by the players' names ("Bot (Orange)" for a bot
seat), the join code with this machine's LAN addresses and the exact command friends
type, the host's settings, Start, a short chat; then the waiting/refused states.
Signals up: `started()` when the game begins, `leave_chosen()`.

Tests: tests/client/scenes/test_lobby_window.py, tests/client/game/test_net_comforts.py, tests/client/words/test_net_words.py,
tests/client/sessions/test_watch_window.py, tests/client/scenes/test_three_player_board.py.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Sequence

import arcade

from client.core import theme
from client.words.net_words import for_players as net_said
from client.core.button import Button
from client.core.damage import damage
from client.core.node import Node
from client.core.signal import Signal
from client.core.text_cache import TextCache
from client.sessions.network import NetSession
from lang.i18n import N_, Translated, _, ngettext
from client.scenes.lobby_facts import Facts, fact_of
from client.widgets.chat_box import ChatBox
from net.reach import portmap
from net.reach.addresses import DEFAULT_PORT, Reachable, reachable_addresses
from net.reach.peer_links import table_links
from net.reach.reach_settings import ReachSettings
from net.reach.rendezvous import options_for
from client.sessions.by_code import invite_friends
from client.sessions.reactor_pump import window_reactor
from client.words.table_names import join_command, join_lines
from client.words.table_names import join_offers, table_addresses
from sim.bots import LEVELS
from sim.board import board
from client.words.rules_text import three_player_choice
from net.table.before_start.lobby_record import TableLobby
from net.table.session import TableSession
from net.reach.internet import StartGate
from client.words.table_names import setup_word, side_word
from client.words.table_names import seat_title
from client.widgets.text_fit import put_fitted

if TYPE_CHECKING:
    from net.reach.internet import StartGate

LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
# how a peer is connected (net/reach/peer_links.py), as the lobby says it
LINK_WORDS = Translated({"this machine": N_("on this machine"), "LAN": N_("LAN"),
                         "direct": N_("direct"), "UPnP": N_("UPnP"), "relay": N_("relay"),
                         "direct through magic-wormhole": N_("direct through magic-wormhole"),
                         "through magic-wormhole": N_("through magic-wormhole")})
LINKS_EVERY = 1.0        # seconds between looks at the links (their round trips change)
TITLES = Translated({"host": N_("Your table"), "join": N_("Joining a table"),
                     "watch": N_("Watching a table"), "resume": N_("Rejoining your table")})


class LobbyScene(Node):
    def __init__(self, session: NetSession, command: str) -> None:
        super().__init__("lobby")
        self.session = session
        self.command = command
        self.reach = ReachSettings.from_environment(os.environ)    # read once, at the edge
        self.started = Signal("started")
        self.leave_chosen = Signal("leave_chosen")
        self.texts = TextCache()
        self._shown: tuple[object, ...] | None = None
        self.is_host = command == "host"
        self.b_players = self.add(Button("", size=12))
        self.b_side = self.add(Button("", size=12))
        self.b_setup = self.add(Button("", size=12))
        self.b_bots = self.add(Button("", size=12))
        self.b_start = self.add(Button(N_("Start the game  [Enter]"), size=13, key=arcade.key.ENTER,
                                       color=(250, 214, 120)))
        self.b_back = self.add(Button(N_("Leave  [Esc]"), size=12, key=arcade.key.ESCAPE))
        for b in (self.b_players, self.b_side, self.b_setup, self.b_bots, self.b_start):
            b.visible = self.is_host
        self.b_players.pressed.connect(lambda: self.change_lobby(players=3 + ((self._lobby().players or 4) - 2) % 3))
        self.b_side.pressed.connect(lambda: self.change_lobby(side="moon" if self._lobby().side == "sun" else "sun"))
        self.b_setup.pressed.connect(lambda: self.change_lobby(setup="draft" if self._lobby().setup == "beginner" else "beginner"))
        self.b_bots.pressed.connect(self._cycle_bots)
        self.b_start.pressed.connect(self.request_start)
        self.b_back.pressed.connect(self.leave_chosen.emit)
        self.error = ""
        self.chat = self.add(ChatBox())
        self.chat.sent.connect(self.send_chat)
        self.facts = Facts()               # the chat and table lines shown, oldest first
        self._said_changes = 0
        self._heard = 0
        self._join_lines: list[tuple[str, str]] | None = None
        # the host picks each bot seat's level (net: `set_bot_level`)
        self.b_levels = [self.add(Button("", size=10)) for _seat in range(5)]
        for seat, b in enumerate(self.b_levels):
            b.visible = False
            b.pressed.connect(lambda seat=seat: self.cycle_level(seat))
        self._mapped: list[tuple[str, int]] = []   # (public ip, port) the router forwards
        self.router_note = ""
        self._gate: StartGate | None = None
        self._invite_code: str | None = None    # the wormhole code in the join lines
        self.links: dict[int, str] = {}          # seat -> how its player is connected, said
        self._links_due = 0.0
        if self.is_host:
            self._ask_router()
            self._invite_friends()

    # -- the router (issue 16): friends outside this home reach us through a mapped port ---
    def _ask_router(self) -> None:
        interface = self.session.offers.interface
        port = self.session.table.listen_port
        if not port or not portmap.wanted(interface, self.reach):
            return

        def mapped(m: portmap.Mapping) -> None:
            self._mapped = [(m.public_host, m.public_port)]
            self._join_lines = None
            self.router_note = ""
            self.mark_dirty()

        def failed(message: str) -> None:
            self.router_note = net_said(message)
            self.mark_dirty()
        # kept with the session: the game needs the mapping too; App closes it with the table
        self.session.port_mapper = portmap.map_later(window_reactor(), port, mapped, failed)

    # -- friends anywhere (issue 39): a code through the rendezvous ---------------------------
    def _invite_friends(self) -> None:
        """Show a wormhole code friends anywhere type in Join (the settings' rendezvous, or
        the public one; none for a table on loopback only or SHOGUN_NET_RENDEZVOUS=off)."""
        table, options = self.session.table, self.session.table_options
        if not isinstance(table, TableSession) or options is None or not table.listen_port:
            return
        interface = table.opts.interface
        try:
            rendezvous = options_for(options, interface, self.reach)
        except ValueError as exc:
            self.error = net_said(str(exc))
            return
        if rendezvous is None:
            return

        def addresses() -> list[Reachable]:
            if interface.startswith("127.") or interface == "::1":
                return [Reachable(interface, table.listen_port, "this machine", "lo")]
            return reachable_addresses(table.listen_port, self._mapped)
        # kept with the session: App closes the code and every tunnel with the table
        self.session.invitations = invite_friends(table, rendezvous, addresses, self.table_said)

    def look_at_links(self) -> dict[int, str]:
        """{seat: "relay, round trip 48 ms"} for each player I hold a link to."""
        table = self.session.table
        if not isinstance(table, TableSession):
            return {}
        said = {}
        for seat, link in table_links(table, self.session.invitations, self.session.arrival,
                                      mapped=bool(self._mapped)).items():
            kind = LINK_WORDS.get(link.kind, link.kind)
            said[seat] = kind if link.rtt is None else _("{kind}, round trip {ms} ms").format(
                kind=kind, ms=f"{link.rtt * 1000:.0f}" if link.rtt >= 0.0005 else "<1")
        return said

    def connection_line(self) -> str:
        """A friend who joined by code: how its link to the table goes, and its round trip."""
        arrival = self.session.arrival
        if arrival is None:
            return ""
        return _("Reached the table {how}").format(how=net_said(arrival.how))

    def send_chat(self, text: str) -> None:
        try:
            self.session.offers.send_chat(text)
        except Exception as exc:
            self.error = _("Your message was not sent: {reason}").format(reason=net_said(str(exc)))
        else:
            me = self.session.my_seats[0] if self.session.my_seats else None
            who = self.session.labels().get(me) if me is not None else None
            self._say(None, _("{who}: {text}").format(who=who or _("You"), text=text))
        self.mark_dirty()

    def type_text(self, text: str) -> bool:
        return self.chat is not None and self.chat.type_text(text)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if self.chat is not None and symbol == arcade.key.T and not self.chat.focused:
            self.chat.open_by_key()
            return True
        return False

    def join_lines(self) -> list[str]:
        """How friends join (host only): a heading, then the exact command for each
        address with where it works from."""
        return join_lines(0, None, []) + [
            _("{command}    ({where})").format(command=c, where=w) for c, w in self.join_offers()]

    def join_offers(self) -> list[tuple[str, str]]:
        if self._join_lines is None:
            port = self.session.table.listen_port or DEFAULT_PORT
            self._join_lines = join_offers(port, self.session.table.join_code,
                                           table_addresses(port, self._mapped))
            if self._invite_code:      # friends anywhere: the code first (it works everywhere)
                self._join_lines.insert(0, (join_command(self._invite_code, None),
                                            _("anywhere: by code, through the rendezvous")))
        return self._join_lines

    def _lobby(self) -> TableLobby:
        return self.session.lobby

    def change_lobby(self, **kw: Any) -> None:
        """The host changes the table (players, side, setup, bots); net may refuse."""
        try:
            self.session.table.set_lobby(**kw)
            self.error = ""
        except Exception as exc:
            self.error = net_said(str(exc))
        self.mark_dirty()

    def _cycle_bots(self) -> None:
        lobby = self._lobby()
        self.change_lobby(bots=(lobby.bots() + 1) % max(1, lobby.players or 4))

    def cycle_level(self, seat: int) -> None:
        """The host's next level for a bot seat."""
        seats = self._lobby().seats
        now = seats[seat].level if seat < len(seats) else None
        level = LEVELS[(LEVELS.index(now) + 1) % len(LEVELS)] if now in LEVELS else LEVELS[0]
        try:
            self.session.offers.set_bot_level(seat, level)
            self.error = ""
        except Exception as exc:
            self.error = net_said(str(exc))
        self.mark_dirty()

    def board_note(self) -> str:
        """A 3-player table on a side whose provinces out of play this edition chose (the
        rulebooks' lists are pictures): said before the game starts."""
        lobby = self._lobby()
        side = lobby.side
        if lobby.players != 3 or side not in board().excluded_3p_chosen:
            return ""
        return three_player_choice(str(side))

    def request_start(self) -> None:
        """Start once every pair of players is known to connect (net/reach/internet.py
        `StartGate`); a pair that cannot is named here instead of a game that never begins."""
        table = self.session.table
        if not isinstance(table, TableSession):
            return self._start_now()
        if self._gate is None:
            self._gate = StartGate(window_reactor(), table, say=self.table_said,
                                   settings=self.reach)
        self.error = _("Checking that every pair of players can reach each other…")
        self.mark_dirty()
        gate = self._gate
        gate.start(self._start_now, self.pairs_unreachable)

    def _start_now(self) -> None:
        try:
            self.session.table.start_game()
            self.error = ""
        except Exception as exc:
            self.error = net_said(str(exc))
        self.mark_dirty()

    def pairs_unreachable(self, failures: list[str]) -> None:
        self.error = _("The game cannot start: {reasons}").format(reasons=" ".join(net_said(f) for f in failures))
        self.mark_dirty()

    def table_said(self, line: str) -> None:
        said = net_said(line)     # the table's lines start lower-case (they are log lines too)
        self._say(fact_of(line), said[:1].upper() + said[1:])

    @property
    def said(self) -> list[str]:
        """The chat and table lines shown, oldest first: one per fact (lobby_facts.py)."""
        return self.facts.lines

    def _say(self, fact: str | None, line: str) -> None:
        if self.facts.say(fact, line):
            self._said_changes += 1
            self.mark_dirty()

    def on_update(self, dt: float) -> None:
        s = self.session
        if s.started:
            self.started.emit()
            return
        lines = s.offers.chat_lines
        while self._heard < len(lines):
            line = lines[self._heard]
            self._heard += 1
            seat = line.seat
            who = (s.labels().get(seat) if seat is not None else None) or line.sender
            self._say(None, _("{who}: {text}").format(who=who or _("Someone"), text=line.text))
        self._links_due -= dt
        if self._links_due <= 0:
            self._links_due = LINKS_EVERY
            self.links = self.look_at_links()
        invitations = s.invitations
        code = invitations.shown_code if invitations is not None else None
        if code != self._invite_code:
            self._invite_code, self._join_lines = code, None
        shown = (repr(s.lobby), s.status, s.refused, self.error, self._said_changes,
                 self.router_note, self._join_lines is None, s.arrival is not None,
                 tuple(sorted(self.links.items())))
        if shown != self._shown:
            self._shown = shown
            self.mark_dirty()

    def on_layout(self) -> None:
        x = self.width / 2 + 60
        y = self.height - 200
        for k, b in enumerate((self.b_players, self.b_side, self.b_setup, self.b_bots)):
            b.set_rect(x, y - 44 * k, 280, 36)
        self.b_start.set_rect(x, y - 200, 280, 44)
        self.b_back.set_rect(x, 40, 200, 36)
        if self.chat is not None:
            self.chat.set_rect(80, 40, min(420, self.width / 2 - 40), 30)
        y = self.height - 250
        for k, b in enumerate(self.b_levels):
            b.set_rect(max(300, self.width / 2 - 170), y - 36 * k - 6, 150, 26)

    def rebuild(self) -> None:
        lobby = self._lobby()
        self.b_players.set_label(_("Players: {n}").format(n=lobby.players if lobby.players is not None else "?"))
        self.b_side.set_label(_("Board side: {side}").format(side=side_word(lobby.side if lobby.side is not None else "?")))
        self.b_setup.set_label(_("Setup: {setup}").format(setup=setup_word(lobby.setup if lobby.setup is not None else "?")))
        self.b_bots.set_label(_("Bot seats: {n}").format(n=lobby.bots()))
        seats = lobby.seats
        for seat, b in enumerate(self.b_levels):
            is_bot = seat < len(seats) and seats[seat].kind == "bot"
            b.visible = self.is_host and is_bot
            if b.visible:
                b.set_label(_("level: {level}").format(
                    level=_(LEVEL_WORDS.get(seats[seat].level or "normal", "normal"))))
        t = self.texts
        t.begin()
        title = TITLES.get(self.command) or _("Table")
        if self.command == "join" and self.session.my_seats:    # seated: no longer joining
            title = _("At the table: you are {colour}").format(
                colour=theme.SEAT_NAMES[self.session.my_seats[0]])
        t.put("t", title, 80, self.height - 80, size=26, bold=True, color=theme.INK)
        code = self.session.table.join_code
        port = self.session.table.listen_port
        if self.is_host:
            t.put("c", _("Join code: {code}, port {port}").format(code=code, port=port), 80, self.height - 112, size=16,
                  bold=True, color=(140, 40, 30))
            room = self.width / 2 - 40 - 96           # the left column, clear of the buttons
            t.put("c1", _("Friends join with one of these:"), 80, self.height - 134, size=10,
                  color=theme.MUTED)
            for k, (command, where) in enumerate(self.join_offers()):
                y = self.height - 151 - 17 * k
                c = put_fitted(t, ("c2", k), command, 96, y, room, size=11, min_size=8,
                               cut=True, bold=True, color=theme.INK)
                w = t.put(("c3", k), f"({where})", 96 + c.content_width + 12, y, size=10,
                          color=theme.MUTED)
                w.visible = c.content_width + 12 + w.content_width <= room
        status = (self.session.refused and _("Refused: {reason}").format(reason=net_said(self.session.refused))
                  or self.session.status)
        how = self.connection_line()
        if how:
            t.put("how", how, 80, self.height - 112, size=11, color=theme.MUTED,
                  width=int(self.width / 2 - 100), multiline=True)
        t.put("s", status or "", 80, self.height - 200, size=13, color=(30, 70, 140), bold=True,
              width=int(self.width / 2 - 100), multiline=True, anchor_y="top")
        y = self.height - 250
        for k, entry in enumerate(lobby.seats):
            kind = entry.kind
            mine = entry.seat in self.session.my_seats
            if kind == "open":
                who = _("{colour}: open — waiting for a player").format(colour=theme.SEAT_NAMES[entry.seat])
            else:
                who = seat_title(entry.seat, kind, entry.name, me=mine)
                if mine and who != seat_title(entry.seat, "", me=True):
                    who = _("{name} — you").format(name=who)
                elif not mine and entry.seat in self.links:
                    who = _("{name} — {link}").format(name=who, link=self.links[entry.seat])
                if entry.seat in lobby.platform_seats:      # issue 53: said to every peer
                    who = _("{name} — unverified tower").format(name=who)
            t.put(("seat", k), who, 110, y - 36 * k, size=14,
                  color=theme.INK if kind != "open" else theme.MUTED)
        watchers = self.session.watchers()
        if watchers:
            k = len(lobby.seats)
            t.put("w", ngettext("Watching: {names}", "Watching: {names}", len(watchers)).format(
                      names=", ".join(n or _("someone") for n in watchers)),
                  80, y - 36 * k, size=12, color=theme.MUTED,
                  width=int(self.width / 2 - 100), multiline=True, anchor_y="bottom")
        if self.chat is not None:
            # the newest line lowest; a long sentence wraps in the left column (unwrapped,
            # it ran under the turn timer's sentence on the right)
            room = int(self.width / 2 - 40)
            bottom: float = 40 + 30 + 8
            for k, line in enumerate(self.said[-5:][::-1]):
                said = t.put(("said", k), line, 80, bottom, size=10, color=(70, 50, 120),
                             width=room, multiline=True, anchor_y="bottom")
                bottom += said.content_height + 2
            t.put("ch", _("Chat"), 80, bottom + 6, size=11, bold=True, color=theme.INK)
        note = self.board_note()
        if note:     # only at 3 seats: room under the seats (and the watchers' line)
            k = len(lobby.seats) + (1 if watchers else 0)
            t.put("bn", note, 80, y - 36 * k + 8, size=11, color=theme.MUTED,
                  width=int(self.width / 2 - 100), multiline=True, anchor_y="top")
        # the right column's notes, stacked up from above Leave: the turn timer, the tower,
        # the router (each as tall as its sentence wraps)
        turn_time = lobby.turn_time
        notes = [("tt", turn_time_sentence(turn_time) if turn_time is not None and turn_time > 0
                  else "", 11),
                 ("tv", tower_sentence(lobby, self.session.my_seats), 11),
                 ("rn", self.router_note if self.is_host else "", 10)]
        above: float = 90
        for key, sentence, size in notes:
            if sentence:
                put = t.put(key, sentence, self.width / 2 + 60, above, size=size,
                            color=theme.MUTED, width=int(self.width / 2 - 100),
                            multiline=True, anchor_y="bottom")
                above += put.content_height + 8
        if self.error:
            # under Start, growing down: a start-check sentence runs to five lines and
            # would cover Leave if it grew from the bottom
            t.put("e", self.error, self.width / 2 + 60, self.height - 414, size=11,
                  color=(170, 40, 30), width=int(self.width / 2 - 100), multiline=True,
                  anchor_y="top")
        t.end()
        damage()

    def on_draw(self) -> None:
        arcade.draw_lbwh_rectangle_filled(0, 0, self.width, self.height, theme.BG)
        lobby = self._lobby()
        y = self.height - 250
        for k, seat in enumerate(lobby.seats):
            arcade.draw_lbwh_rectangle_filled(80, y - 36 * k - 4, 20, 20, theme.SEAT_COLOURS[seat.seat])
            arcade.draw_lbwh_rectangle_outline(80, y - 36 * k - 4, 20, 20, (0, 0, 0), 1)
        self.texts.draw()


def turn_time_sentence(seconds: float) -> str:
    """The host's turn timer (`host --turn-time`), said before the start so nobody is
    surprised when a bot takes a silent seat."""
    if seconds >= 120 and seconds % 60 == 0:
        n = int(seconds // 60)
        return ngettext("Each decision has {n} minute; then a bot may take the seat.",
                        "Each decision has {n} minutes; then a bot may take the seat.", n).format(n=n)
    n = int(seconds + 0.999)
    return ngettext("Each decision has {n} second; then a bot may take the seat.",
                    "Each decision has {n} seconds; then a bot may take the seat.", n).format(n=n)


def tower_sentence(lobby: TableLobby, my_seats: Sequence[int] = ()) -> str:
    """Why the table votes on tower results, said to every peer before the start: the
    seats whose computers do not run the verified tower physics (the host lists them in
    `platform_seats` from each player's handshake) are marked in the seat list, and the
    player concerned reads that ./shogun says how to build it (issue 53). "" when every
    computer runs it."""
    if not lobby.tower_vote:
        return ""
    seats = {s.seat for s in lobby.seats}
    if not seats & set(lobby.platform_seats):
        return _("Tower results are agreed by vote on this table: these computers round "
                 "the physics differently.")
    said = _("Tower results are agreed by vote on this table: the seats marked “unverified "
             "tower” may compute drops differently.")
    if set(my_seats) & set(lobby.platform_seats):
        said += " " + _("Your computer could not build the verified tower: ./shogun says how.")
    return said
