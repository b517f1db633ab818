"""The window: one Arcade window showing one scene at a time (menu, settings, table, end).

`run(start)` is what `main.py` calls, with a typed start: a table's options
(`net.table.options.TableOptions`), a local game's (`LocalChoice`), a file to replay, or
None for the menu. The window forwards Arcade's input and clock to the current scene's
node tree; scenes signal up (start a game, leave, quit) and the App swaps scenes. How a
session is built (and what is said when it cannot be) is `client.session_factory`'s. The
App owns the player's settings (`client.core.settings`) and the running local game's
autosave (`client.sessions.autosave`): every local game is saved as it goes. The Twisted
reactor, when a network session exists, is driven from here (`net_pump`) on every frame —
the one place the client touches the reactor.

Tests: tests/client/scenes/test_window.py, tests/client/game/test_comforts_window.py.
"""

from __future__ import annotations

import gc
import logging
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable

import arcade
import pyglet

from client.core import theme
from client.core.beating import BEATING
from client.core.damage import Damage
from client.core.dirty_union import draw_in
from client.core.node import Node
from client.core.settings import Settings, load_settings, save_settings
from client.core.sound import Sounds
from client.core.ui_scale import effective_scale, install, window_size_for_screen
from client.scenes.lan_search import LanSearch
from client.scenes.menu import MenuScene
from client.scenes.settings_scene import SettingsScene
from client.sessions.autosave import Autosave, autosave_path, continue_info, named_saves, save_named
from client.sessions.interface import GameSession
from client.sessions.local_choice import LocalChoice
from client.words.net_words import for_players
from lang.i18n import _, use
from net.table.options import TableOptions
from net.trust.peer_text import log_in_one_line
from sim.game import public_state
from sim.state import DecisionKind

if TYPE_CHECKING:
    from client.game.game_scene import GameScene
    from client.scenes.correspondence_scene import CorrespondenceScene
    from client.scenes.end_record import EndSummary
    from client.sessions.local import LocalSession
    from net.correspondence.my_tables import MyTable
    from store.game_save import SavedGame

DEFAULT_SIZE = (1280, 800)
# the one icon: this window's, the bundle's and the Linux menu entry's (tools/make_icon.py)
ICON = Path(__file__).resolve().parents[1] / "assets" / "icon.png"


def _antialiasing() -> bool:
    """Multisampling only on a graphics card. On a software renderer (Mesa's llvmpipe) a
    4x multisampled window makes every pixel filled cost about twice (a clear ten times:
    issue 36 item 6), and what it would smooth is little: the map, the tower and the
    panels are drawn from offscreen layers, which have none (but the stage's tower, drawn
    once multisampled: `CachedLayer(samples=4)`). `SHOGUN_ANTIALIAS=0/1`
    decides instead of the probe (a hidden 1x1 window asked for its renderer)."""
    mode = os.environ.get("SHOGUN_ANTIALIAS", "auto")
    if mode in ("0", "1"):
        return mode == "1"
    try:
        probe = pyglet.window.Window(width=1, height=1, visible=False)
        try:
            renderer = (pyglet.gl.gl_info.get_renderer() or "").lower()
        finally:
            probe.close()
    except Exception:             # no display or no GL: the window's own error says so
        return True
    return not any(k in renderer for k in ("llvmpipe", "softpipe", "swrast"))


class App(arcade.Window):
    def __init__(self, width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1],
                 visible: bool = True, title: str = "Shogun") -> None:
        super().__init__(width, height, title, resizable=True, visible=visible, vsync=False,
                         antialiasing=_antialiasing())
        self.set_minimum_size(960, 640)
        self.set_icon(pyglet.image.load(str(ICON)))
        self.background_color = theme.BG
        self.scene: Node | None = None
        self.session: GameSession | None = None
        self.autosave: Autosave | None = None
        self.exit_code = 0
        self.reload_settings()
        self.ui_scale = 1.0
        self.apply_ui_scale()
        self.lan_search = LanSearch()
        self.code_search: Any = None        # a friend's search for a table by code (issue 39)
        self.on_scene_changed: Callable[[Node], None] | None = None     # tests hook: fn(scene)
        self._drawn_serial = -1
        self._force_full = True
        self.partial_frames = 0
        self.full_frames = 0
        self.partial_redraw = self._probe_partial_redraw()

    def reload_settings(self) -> None:
        """Read the settings file (a damaged one gives the defaults and a message)."""
        self.settings, self.settings_message = load_settings()
        use(self.settings.language or None)     # "" follows the system locale

    def apply_ui_scale(self) -> None:
        """Draw at the settings' interface scale (fitted to the window); scenes get the
        logical size."""
        scale = effective_scale(self.settings.ui_scale, self.width, self.height)
        if scale != self.ui_scale or scale != 1.0:
            self.ui_scale = scale
            install(self, scale)
        self._force_full = True
        if self.scene is not None:
            self.scene.set_rect(0, 0, self.width / scale, self.height / scale)

    # -- scenes ---------------------------------------------------------------------------
    def _probe_partial_redraw(self) -> bool:
        """Redraw only the animated parts between changes? Only on a software renderer
        (where filling 1280x800 pixels costs milliseconds) and only if this window's back
        buffer survives a buffer swap (checked here); a GPU redraws everything."""
        mode = os.environ.get("SHOGUN_PARTIAL_REDRAW", "auto")
        if mode == "0":
            return False
        renderer = (self.ctx.info.RENDERER or "").lower()
        if mode == "auto" and not any(k in renderer for k in ("llvmpipe", "softpipe", "swrast")):
            return False
        try:
            self.clear(color=(12, 34, 56))
            self.flip()
            self.flip()
            px = arcade.get_image(self.width // 2, self.height // 2, 1, 1).convert("RGB").getpixel((0, 0))
            return isinstance(px, tuple) and tuple(px[:3]) == (12, 34, 56)
        except Exception:
            return False

    def show(self, scene: Node) -> None:
        self._force_full = True
        self.scene = scene
        scene.set_rect(0, 0, self.width / self.ui_scale, self.height / self.ui_scale)
        if self.on_scene_changed:
            self.on_scene_changed(scene)

    def close_session(self) -> None:
        if self.code_search is not None:
            self.code_search.cancel()
            self.code_search = None
        if self.autosave is not None:
            self.autosave.close()          # the file stays: Continue picks it up
            self.autosave = None
        if self.session is not None:
            self.session.close()
            self.session = None
        BEATING.keep(None)

    def show_menu(self, defaults: Mapping[str, Any] | None = None, message: str = "") -> None:
        self.close_session()
        if defaults is None:
            defaults = asdict(self.settings.last_game)
        menu = MenuScene(defaults)
        if self.settings_message:        # a damaged settings file: say so once
            message = (message + "  " if message else "") + self.settings_message
            self.settings_message = ""
        menu.set_message(message)
        info = continue_info()
        menu.offer_continue(info.title if info else None)
        menu.show_saves(named_saves())

        def start(choice: LocalChoice, menu: MenuScene = menu) -> None:
            self._remember(menu)
            self.start_local(choice)
        menu.local_chosen.connect(start)
        menu.continue_chosen.connect(self.continue_game)
        menu.tutorial_chosen.connect(self.start_tutorial)
        menu.correspondence_chosen.connect(self.show_correspondence)
        menu.settings_chosen.connect(self.show_settings)
        menu.host_chosen.connect(self.start_net)
        menu.join_chosen.connect(self.start_net)
        menu.watch_chosen.connect(self.start_net)
        menu.load_chosen.connect(self.load_save)
        menu.replay_chosen.connect(self.replay_log)
        menu.quit_chosen.connect(self.close)
        self.show(menu)

    def show_correspondence(self, message: str = "") -> CorrespondenceScene:
        """Play by correspondence: the tables kept here, each visited (issue 51)."""
        from client.scenes.correspondence_scene import CorrespondenceScene
        self.close_session()
        scene = CorrespondenceScene(self.settings.name, self.settings.last_game.players, message)
        scene.refresh()
        scene.open_chosen.connect(self.open_correspondence)
        scene.back_chosen.connect(lambda: self.show_menu())
        self.show(scene)
        return scene

    def open_correspondence(self, table: MyTable) -> GameScene | None:
        """Play a correspondence table in the table scene; back to the list when it is not
        playing (its sentence said there) or when the scene is left."""
        from client.sessions.correspondence import CorrespondenceSession, NotPlaying
        self.close_session()       # two links of my seat at once would fork my seat file
        try:
            session = CorrespondenceSession.open(table)
        except NotPlaying as e:
            self.show_correspondence(str(e))
            return None
        return self.play(session, session.labels(), names=session.names(),
                         leave=lambda: self.show_correspondence())

    def _remember(self, menu: MenuScene) -> None:
        self.update_settings(replace(self.settings, last_game=menu.last_game()))

    def update_settings(self, settings: Settings) -> None:
        """Keep and write the settings; a folder that cannot be written is said, not fatal."""
        self.settings = settings
        try:
            save_settings(settings)
        except OSError as exc:
            self.settings_message = _("Could not write your settings ({reason}).").format(reason=exc.strerror)

    def show_settings(self) -> None:
        scene = SettingsScene(self.settings)

        def done(new: Settings | None) -> None:
            if new is not None:
                if new.fullscreen != self.settings.fullscreen:
                    self.set_fullscreen(new.fullscreen)
                if new.colour != self.settings.colour:     # sit at the new colour next game
                    new = replace(new, last_game=new.last_game.with_me_at(new.colour))
                self.update_settings(new)
                self.apply_ui_scale()
            self.show_menu()
        scene.finished.connect(done)
        self.show(scene)

    def _start_autosave(self, session: LocalSession, saved: SavedGame | None = None) -> None:
        try:
            self.autosave = Autosave.start(session, saved=saved)
        except OSError as exc:
            self.autosave = None
            self.settings_message = _("This game cannot be saved ({reason}).").format(reason=exc.strerror)

    def continue_game(self) -> None:
        self.load_save(str(autosave_path()))
    def start_local(self, choice: LocalChoice, *, fast: bool = False,
                    autosave: bool = True) -> GameScene:
        """A local game as chosen in the menu or by `play`; `autosave=False` (the smoke
        check) leaves the player's autosave as it was."""
        from client import session_factory as make      # heavy: see the module's docstring
        session = make.local_game(choice)
        if autosave:
            self._start_autosave(session)
        return self._play_local(session, fast=fast)

    def _play_local(self, session: GameSession, fast: bool = False) -> GameScene:
        """A game at this window: my seats named as the settings say."""
        from client import session_factory as make      # heavy: see the module's docstring
        name, humans = self.settings.name, session.my_seats
        return self.play(session, make.seat_labels(session.config.players, humans, name),
                         fast=fast, names=make.seat_names(humans, name))

    def start_tutorial(self) -> GameScene:
        """Learn to play: the tutorial's scripted game with its coach (not autosaved, so
        Continue keeps the player's own game; the guide pop-ups give way to the coach)."""
        from client import session_factory as make      # heavy: see the module's docstring
        from client.tutorial.coach import TutorialCoach  # heavy: the coach, loaded with the tutorial
        self.close_session()
        scene = self._play_local(make.tutorial())
        scene.guide.enabled_guide = False
        scene.add(TutorialCoach(scene))
        return scene

    def play(self, session: GameSession, labels: dict[int, str] | None = None, fast: bool = False,
             names: dict[int, str] | None = None,
             leave: Callable[[], object] | None = None) -> GameScene:
        from client.game.game_scene import GameScene  # heavy (~0.7 s): loaded when the first game starts
        theme.set_player_names(names)       # log lines and messages say "Aiko (Blue)"
        self.session = session
        scene = GameScene(session, labels=labels, fast_forward=fast,
                          speed=self.settings.animation_speed,
                          confirm_leave=self.settings.confirm_leave,
                          can_save=self.autosave is not None,
                          guide=not self.settings.guide_done and bool(session.my_seats),
                          sounds=Sounds(self.settings.volume, self.settings.mute))
        scene.board_view.set_colour_blind(self.settings.colour_blind)
        scene.guide_dismissed.connect(self._guide_dismissed)
        scene.guide.seen.update(self.settings.guide_seen)     # "Got it" lasts (Continue)
        scene.guide.hint_seen.connect(self._guide_hint_seen)
        scene.leave_chosen.connect(leave or (lambda: self.show_menu()))
        scene.ended.connect(self.show_end)
        scene.save_asked.connect(self.save_named)
        self.show(scene)
        # What exists now lasts the game: frozen, the collector need not walk it. The last
        # game's frozen objects are thawed and collected first, or every game played in
        # this window would stay in memory for good.
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        return scene

    def _guide_dismissed(self) -> None:
        self.update_settings(replace(self.settings, guide_done=True))

    def _guide_hint_seen(self, kind: str) -> None:
        if kind not in self.settings.guide_seen:
            self.update_settings(replace(self.settings, guide_seen=(*self.settings.guide_seen, kind)))

    def save_named(self, name: str) -> None:
        from client.game.game_scene import GameScene  # heavy: loaded with the first game
        if self.autosave is None or not isinstance(self.scene, GameScene):
            return
        try:
            path = save_named(self.autosave, name)
        except OSError as exc:
            self.scene.log.add_line(_("Could not save: {reason}").format(reason=exc.strerror), (180, 30, 20))
            return
        self.scene.log.add_line(_("Saved as “{name}” — the menu lists it under Saves.").format(name=path.stem),
                           (30, 110, 40))

    def show_end(self, summary: EndSummary) -> None:
        from client.scenes.end_record import session_events  # heavy: the end screen,
        from client.scenes.end_scene import EndScene, record_for  # loaded when a game ends
        session = self.session
        study = session.study if session is not None else None
        save_path: str | Path | None = study.path if study is not None else None   # a replayed save
        if self.autosave is not None:
            save_path = self.autosave.path                     # last-game.save once over
            self.autosave.close()
            self.autosave = None
        state = session.state if session is not None else None
        final = None
        if state is not None:
            final = public_state(state)
        end = EndScene(summary, record_for(summary, session_events(session)), final,
                       session.config.side if session is not None else "sun")
        end.back_chosen.connect(lambda: self.show_menu())
        end.quit_chosen.connect(self.close)
        if save_path and str(save_path).endswith(".save"):
            end.film_requested.connect(lambda n: end.film(str(save_path), n))
        self.show(end)

    def search_lan(self) -> None:
        """Browse for tables in a thread; results reach the menu later (`_browse_poll`)."""
        if self.lan_search.start() and isinstance(self.scene, MenuScene):
            self.scene.set_message(_("Searching the LAN for tables…"))

    def _browse_poll(self) -> None:
        done, res = self.lan_search.poll()
        if done and isinstance(self.scene, MenuScene):
            if isinstance(res, Exception):
                self.scene.set_message(_("LAN search failed: {reason}").format(reason=res))
            else:
                self.scene.show_tables(res or [])

    def with_settings(self, options: TableOptions) -> TableOptions:
        """The options under the name chosen in the settings, and the settings' rendezvous,
        relay and "direct only" where the command line gave none."""
        s = self.settings
        return replace(options, name=s.name.strip(),
                       rendezvous=options.rendezvous or s.rendezvous or None,
                       relay=options.relay or s.relay or None,
                       direct_only=options.direct_only or s.direct_only)

    def start_net(self, options: TableOptions) -> None:
        """Host, join or watch a table, under the name chosen in the settings."""
        from net.reach.rendezvous import is_invite
        if options.command != "host" and not options.address and not options.resume:
            self.search_lan()
            return
        if options.command == "join" and is_invite(options.address) and not options.resume:
            self.search_by_code(options)
            return
        # the game scene's modules now, before any connection, not in the frame the game
        # starts in (about a second of imports; issue 34 item 2)
        import client.game.game_scene  # noqa: F401
        from client import session_factory as make  # heavy: see the module's docstring
        from client.scenes.lobby_scene import LobbyScene  # heavy: loaded when a table opens
        try:
            session = make.table(self.with_settings(options))
        except make.NotStarted as exc:
            self.show_menu(message=str(exc))
            return
        self.close_session()
        self.session = session
        # the network beats while the window builds the game scene (issue 34 item 2)
        BEATING.keep(session.net_pump)
        lobby = LobbyScene(session, options.command)
        lobby.started.connect(lambda: self.play(session, session.labels(), names=session.names()))
        lobby.leave_chosen.connect(lambda: self.show_menu())
        self.show(lobby)

    def search_by_code(self, options: TableOptions) -> None:
        """Find the table behind a code through the rendezvous; the lobby opens once it
        answered (`_code_search_poll`), the menu says why not otherwise."""
        from client.sessions.by_code import CodeSearch
        self.close_session()
        if not isinstance(self.scene, MenuScene):
            self.show_menu()
        try:
            self.code_search = CodeSearch(self.with_settings(options))
        except ValueError as exc:
            self.show_menu(message=_("Could not join: {reason}").format(
                reason=for_players(str(exc))))
            return
        if isinstance(self.scene, MenuScene):
            self.scene.set_message(_("Looking for the table with code {code}…").format(
                code=(options.address or "").strip()))

    def _code_search_poll(self) -> None:
        search = self.code_search
        if search is None:
            return
        search.pump()
        if not search.done:
            if len(search.lines) > 1 and isinstance(self.scene, MenuScene):   # after "looking…"
                self.scene.set_message(search.lines[-1])
            return
        self.code_search = None
        if search.failure is not None:
            self.show_menu(message=_("Could not join: {reason}").format(reason=search.failure))
            return
        arrival = search.arrival
        self.start_net(replace(search.options, address=arrival.address, code=arrival.code))
        session = self.session
        if session is not None and hasattr(session, "arrival"):
            session.arrival = arrival                  # closed with the table
            # a friend by code may be asked for a wormhole to another (net/table/pair_links.py);
            # how it goes is the table's news (the game's log: the lobby is gone by then)
            table = getattr(session, "table", None)
            if table is not None:
                table.pair_links.use_relay(search.rendezvous,
                                           say=lambda line: table.on_notice(line))
        else:
            from client.sessions.by_code import close_arrival
            close_arrival(arrival)

    def load_save(self, path: str) -> None:
        """Play on from a save (checking every state hash); it becomes the autosave."""
        from client import session_factory as make      # heavy: see the module's docstring
        try:
            session, saved = make.saved_game(path)
        except make.NotStarted as exc:
            self.show_menu(message=str(exc))
            return
        self.close_session()
        if session.decision.kind != DecisionKind.OVER:
            self._start_autosave(session, saved)
        self._play_local(session)

    def replay_log(self, path: str, session: GameSession | None = None) -> None:
        """Watch a save or a game log (`session`: one `prepared_replay` built already)."""
        from client import session_factory as make      # heavy: see the module's docstring
        try:
            session = session or make.replay(path)
        except make.NotStarted as exc:
            self.show_menu(message=str(exc))
            return
        self.close_session()
        self.play(session, {s: theme.SEAT_NAMES[s] for s in range(session.config.players)})

    # -- arcade events --------------------------------------------------------------------
    def on_update(self, dt: float) -> None:
        self._browse_poll()
        self._code_search_poll()
        if self.session is not None:
            self.session.net_pump()
        if self.scene is not None:
            self.scene.update(min(dt, 0.1))

    def on_draw(self) -> None:
        scene = self.scene
        animated: list[Node] = scene.animated_nodes() if scene is not None else []
        if (self.partial_redraw and not self._force_full and animated
                and Damage.serial == self._drawn_serial):
            # nothing else changed: repaint only the animated nodes' rectangles (in the
            # framebuffer's pixels: the interface scale and the screen's pixel ratio)
            # once per node, over the union of its rectangles (issue 48: once per rectangle
            # drew the battle's stage 1.7 times a frame)
            k = self.ui_scale * self.get_pixel_ratio()
            for node in animated:
                rects = []
                for x, y, w, h in node.damage_rects():   # a node may repaint less than its box
                    x0, y0 = int(x * k), int(y * k)
                    rects.append((x0, y0, int((x + w) * k + 1) - x0, int((y + h) * k + 1) - y0))
                draw_in(self.ctx, rects, node.draw, node.covers_rects)
            self.ctx.scissor = None
            self.partial_frames += 1
            return
        self.clear()
        if scene is not None:
            scene.draw()
        self._drawn_serial = Damage.serial
        self._force_full = False
        self.full_frames += 1

    def on_expose(self) -> None:
        self._force_full = True

    def on_resize(self, width: int, height: int) -> None:
        self._force_full = True
        super().on_resize(width, height)
        self.apply_ui_scale()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.scene is not None:
            s = self.ui_scale
            self.scene.mouse_press(x / s, y / s, button, modifiers)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.scene is not None:
            s = self.ui_scale
            self.scene.mouse_release(x / s, y / s, button, modifiers)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        if self.scene is not None:
            s = self.ui_scale
            self.scene.mouse_motion(x / s, y / s, dx / s, dy / s)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        if self.scene is not None:
            s = self.ui_scale
            self.scene.mouse_drag(x / s, y / s, dx / s, dy / s, buttons, modifiers)

    def on_mouse_scroll(self, x: int, y: int, sx: float, sy: float) -> None:
        if self.scene is not None:
            self.scene.mouse_scroll(x / self.ui_scale, y / self.ui_scale, sx, sy)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if self.scene is not None:
            self.scene.key_press(symbol, modifiers)

    def on_text(self, text: str) -> None:
        if self.scene is not None:
            self.scene.type_text(text)

    def on_close(self) -> None:
        self.close_session()
        super().on_close()


def open_window(visible: bool = True) -> App:
    """The window sized to the screen it opens on and centred there (a fixed size is off
    the edges of a small screen and a small window in the corner of a large one); the
    automatic interface scale follows the size."""
    screen_width, screen_height = arcade.get_display_size()
    width, height = window_size_for_screen(screen_width, screen_height)
    app = App(width, height, visible=visible)
    app.set_location(max(0, (screen_width - width) // 2), max(0, (screen_height - height) // 2))
    return app


def prepared_replay(path: str) -> GameSession | None:
    """A replay's session built before the window opens, with the table scene's modules:
    the file read and checked, the map's shapes cut, ~2-5 s on a busy machine, which an
    open window showed empty (issue 49). None if it cannot be built: the window then says why, in
    the language its settings choose."""
    from client import session_factory as make      # heavy: see the module's docstring
    import client.game.game_scene  # noqa: F401  (heavy: loaded now, not under an empty window)
    from client.board.shapes import load_shapes
    try:
        session = make.replay(path)
    except make.NotStarted:
        return None
    load_shapes()       # the provinces cut into triangles (kept): seconds on a busy machine
    return session


def run(start: TableOptions | LocalChoice | str | None, lang: str | None = None) -> int:
    """Open the window on what `main.py` asks: a table's options (host, join, watch), a
    local game's (play), a file to replay, or None for the menu. `lang`: `--lang`."""
    # every log line one line of shown text: a peer's string in it is data (issue 47)
    log_in_one_line(logging.WARNING, "%(name)s %(levelname)s %(message)s")
    prepared = prepared_replay(start) if isinstance(start, str) else None
    app = open_window()
    if lang:      # --lang wins over the settings for this run
        use(lang)
    if app.settings.fullscreen:
        app.set_fullscreen(True)
    if isinstance(start, LocalChoice):
        # `main.py [--lang L] play ...`: straight into the game with the given options
        app.start_local(start)
    elif isinstance(start, TableOptions):
        if start.command != "host" and not start.address and not start.resume:
            app.show_menu({"code": start.code})      # pick a table from the LAN list
        app.start_net(start)
    elif isinstance(start, str):
        app.replay_log(start, prepared)     # a save or a JSON game log, in the viewer
    else:
        app.show_menu()      # the options last used (remembered in the settings)
    arcade.run()
    return app.exit_code
