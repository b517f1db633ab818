"""The window: one Arcade window showing one scene at a time (menu, settings, table, end).

`run(args)` is what `main.py` calls. The window forwards Arcade's input and clock to the
current scene's node tree; scenes signal up (start a game, leave, quit) and the App
swaps scenes. The App owns the player's settings (`client.core.settings`) and the running
local game's autosave (`client.sessions.autosave`): every local game is saved as it goes. The Twisted reactor, when a network session exists, is driven from here
(`net_pump`) on every frame — the one place the client touches the reactor.

Tests: tests/client/scenes/test_window.py, tests/client/game/test_comforts_window.py.
"""

from __future__ import annotations

import gc
import os
import time
from dataclasses import replace
from pathlib import Path

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

import arcade
import pyglet

from client.core import theme
from client.core.beating import BEATING
from client.core.node import Node
from lang.i18n import _, use
from sim.state import DecisionKind

if TYPE_CHECKING:
    import argparse

    from client.core.settings import Settings
    from client.game.game_scene import GameScene
    from client.scenes.menu import MenuScene
    from client.sessions.autosave import Autosave
    from client.sessions.interface import GameSession
    from client.sessions.local import LocalSession
    from store.game_save import SavedGame

DEFAULT_SIZE = (1280, 800)
# the one icon: this window's, the bundle's and the Linux menu entry's (tools/make_icon.py)
ICON = Path(__file__).resolve().parents[1] / "assets" / "icon.png"


class App(arcade.Window):
    def __init__(self, width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1],
                 visible: bool = True, title: str = "Shogun") -> None:
        super().__init__(width, height, title, resizable=True, visible=visible, vsync=False)
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
        from client.scenes.lan_search import LanSearch
        self.lan_search = LanSearch()
        self.on_scene_changed: Callable[[Node], None] | None = None     # tests hook: fn(scene)
        self._drawn_serial = -1
        self._force_full = True
        self.partial_frames = 0
        self.full_frames = 0
        self.partial_redraw = self._probe_partial_redraw()

    def reload_settings(self) -> None:
        """Read the settings file (a damaged one gives the defaults and a message)."""
        from client.core.settings import load_settings
        self.settings, self.settings_message = load_settings()
        use(self.settings.language or None)     # "" follows the system locale

    def apply_ui_scale(self) -> None:
        """Draw at the settings' interface scale (fitted to the window); scenes get the
        logical size."""
        from client.core.ui_scale import effective_scale, install
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
        if self.autosave is not None:
            self.autosave.close()          # the file stays: Continue picks it up
            self.autosave = None
        if self.session is not None:
            self.session.close()
            self.session = None
        BEATING.keep(None)

    def show_menu(self, defaults: dict | None = None, message: str = "") -> None:
        from dataclasses import asdict

        from client.sessions.autosave import continue_info, named_saves
        from client.scenes.menu import MenuScene
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

        def start(opts: dict[str, Any], menu: MenuScene = menu) -> None:
            self._remember(menu)
            self.start_local(opts)
        menu.local_chosen.connect(start)
        menu.continue_chosen.connect(self.continue_game)
        menu.tutorial_chosen.connect(self.start_tutorial)
        menu.settings_chosen.connect(self.show_settings)
        menu.host_chosen.connect(lambda o: self.start_net("host", o))
        menu.join_chosen.connect(lambda o: self.start_net("join", o))
        menu.watch_chosen.connect(lambda o: self.start_net("watch", o))
        menu.load_chosen.connect(self.load_save)
        menu.replay_chosen.connect(self.replay_log)
        menu.quit_chosen.connect(self.close)
        self.show(menu)

    def _remember(self, menu: MenuScene) -> None:
        self.update_settings(replace(self.settings, last_game=menu.last_game()))

    def update_settings(self, settings: Settings) -> None:
        """Keep and write the settings; a folder that cannot be written is said, not fatal."""
        from client.core.settings import save_settings
        self.settings = settings
        try:
            save_settings(settings)
        except OSError as exc:
            self.settings_message = _("Could not write your settings ({reason}).").format(reason=exc.strerror)

    def show_settings(self) -> None:
        from client.scenes.settings_scene import SettingsScene
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

    def _labels(self, players: int, humans: Sequence[int]) -> dict[int, str]:
        """{seat: "Aiko (Blue)" / "You (Blue)" / "Bot (Orange)"} for a local game; the
        chosen name goes to my seat when I am the only person at this window."""
        from client.words.table_names import seat_title
        name = self.settings.name.strip() if len(humans) == 1 else ""
        return {s: seat_title(s, "human" if s in humans else "bot", name,
                              me=s in humans and len(humans) == 1) for s in range(players)}

    def _names(self, humans: Sequence[int]) -> dict[int, str]:
        name = self.settings.name.strip()
        return {humans[0]: name} if name and len(humans) == 1 else {}

    def _start_autosave(self, session: LocalSession, saved: SavedGame | None = None) -> None:
        from client.sessions.autosave import Autosave
        try:
            self.autosave = Autosave.start(session, saved=saved)
        except OSError as exc:
            self.autosave = None
            self.settings_message = _("This game cannot be saved ({reason}).").format(reason=exc.strerror)

    def continue_game(self) -> None:
        from client.sessions.autosave import autosave_path
        self.load_save(str(autosave_path()))
    def start_local(self, opts: dict[str, Any], *, seed: int | None = None,
                    fast: bool = False, autosave: bool = True) -> GameScene:
        """A local game; `autosave=False` (the smoke check) leaves the player's autosave
        as it was."""
        from client.sessions.local import LocalSession
        humans = tuple(opts.get("humans", (0,)))
        bots = opts.get("bots") or {}
        if isinstance(bots, str):
            bots = {s: bots for s in range(opts["players"]) if s not in humans}
        seed = seed if seed is not None else int(time.time() * 1000) % 2_000_000_000
        session = LocalSession(opts["players"], opts["side"], opts["setup"], humans, bots, seed)
        labels = self._labels(opts["players"], humans)
        if autosave:
            self._start_autosave(session)
        return self.play(session, labels, fast=fast, names=self._names(humans))

    def start_tutorial(self) -> GameScene:
        """Learn to play: the tutorial's scripted game with its coach (not autosaved, so
        Continue keeps the player's own game; the guide pop-ups give way to the coach)."""
        from client.tutorial.coach import TutorialCoach
        from client.tutorial.scripted_game import new_session
        self.close_session()
        session = new_session()
        scene = self.play(session, self._labels(session.config.players, session.my_seats),
                          names=self._names(session.my_seats))
        scene.guide.enabled_guide = False
        scene.add(TutorialCoach(scene))
        return scene

    def play(self, session: GameSession, labels: dict[int, str] | None = None, fast: bool = False,
             names: dict[int, str] | None = None) -> GameScene:
        from client.game.game_scene import GameScene
        from client.core.sound import Sounds
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
        scene.leave_chosen.connect(lambda: self.show_menu())
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
        from client.sessions.autosave import save_named
        from client.game.game_scene import GameScene
        if self.autosave is None or not isinstance(self.scene, GameScene):
            return
        try:
            path = save_named(self.autosave, name)
        except OSError as exc:
            self.scene.log.add_line(_("Could not save: {reason}").format(reason=exc.strerror), (180, 30, 20))
            return
        self.scene.log.add_line(_("Saved as “{name}” — the menu lists it under Saves.").format(name=path.stem),
                           (30, 110, 40))

    def show_end(self, summary: dict) -> None:
        from client.scenes.end_scene import EndScene
        save_path = getattr(self.session, "path", None)       # a replayed save
        if self.autosave is not None:
            save_path = self.autosave.path                     # last-game.save once over
            self.autosave.close()
            self.autosave = None
        from client.scenes.end_record import session_events
        from client.scenes.end_scene import record_for
        session = self.session
        state = getattr(session, "state", None) if session is not None else None
        final = None
        if state is not None:
            from sim.game import public_state
            final = dict(public_state(state))
        end = EndScene(summary, record_for(summary, session_events(session)), final,
                       session.config.side if session is not None else "sun")
        end.back_chosen.connect(lambda: self.show_menu())
        end.quit_chosen.connect(self.close)
        if save_path and str(save_path).endswith(".save"):
            end.film_requested.connect(lambda n: end.film(str(save_path), n))
        self.show(end)

    def search_lan(self) -> None:
        """Browse for tables in a thread; results reach the menu later (`_browse_poll`)."""
        from client.scenes.menu import MenuScene
        if self.lan_search.start() and isinstance(self.scene, MenuScene):
            self.scene.set_message(_("Searching the LAN for tables…"))

    def _browse_poll(self) -> None:
        from client.scenes.menu import MenuScene
        done, res = self.lan_search.poll()
        if done and isinstance(self.scene, MenuScene):
            if isinstance(res, Exception):
                self.scene.set_message(_("LAN search failed: {reason}").format(reason=res))
            else:
                self.scene.show_tables(res or [])

    def start_net(self, command: str, opts: dict) -> None:
        if command in ("join", "watch") and not opts.get("address") and not opts.get("resume"):
            self.search_lan()
            return
        # the game scene's modules now, before any connection, not in the frame the game
        # starts in (about a second of imports; issue 34 item 2)
        import client.game.game_scene  # noqa: F401
        try:
            from client.sessions.network import NetSession
            session = NetSession.open(command, {**opts, "name": self.settings.name.strip()})
        except Exception as exc:   # net missing or refused at once: say so in the menu
            from client.words.net_words import said
            from client.words.sentences import problem_text
            what = {"host": _("Could not host: {reason}"), "join": _("Could not join: {reason}"),
                    "watch": _("Could not watch: {reason}")}.get(command, _("Could not start: {reason}"))
            self.show_menu(message=what.format(reason=said(str(exc)) or problem_text(exc)))
            return
        from client.scenes.lobby_scene import LobbyScene
        self.close_session()
        self.session = session
        # the network beats while the window builds the game scene (issue 34 item 2)
        BEATING.keep(session.net_pump)
        lobby = LobbyScene(session, command)
        lobby.started.connect(lambda: self.play(session, session.labels(), names=session.names()))
        lobby.leave_chosen.connect(lambda: self.show_menu())
        self.show(lobby)

    def load_save(self, path: str) -> None:
        """Play on from a save (checking every state hash); it becomes the autosave."""
        from store.game_save import SaveError
        from client.sessions.replay import resume_local
        if not path:
            self.show_menu(message=_("Type the save's file name in the box first."))
            return
        try:
            session, saved = resume_local(path)
        except (SaveError, ValueError, OSError) as exc:      # the save's line and problem
            reason = exc.said() if isinstance(exc, SaveError) else str(exc)
            self.show_menu(message=_("Cannot load {path}: {reason}").format(path=path, reason=reason))
            return
        self.close_session()
        humans = session.my_seats
        labels = self._labels(session.config.players, humans)
        if session.decision.kind != DecisionKind.OVER:
            self._start_autosave(session, saved)
        self.play(session, labels, names=self._names(humans))

    def replay_log(self, path: str) -> None:
        try:
            from client.sessions.replay import ReplaySession
            session = ReplaySession(path)
        except Exception as exc:
            from store.save_error import SaveError
            reason = exc.said() if isinstance(exc, SaveError) else str(exc)
            self.show_menu(message=_("Cannot replay {path}: {reason}").format(
                path=path or _("(no file)"), reason=reason))
            return
        self.close_session()
        self.play(session, {s: theme.SEAT_NAMES[s] for s in range(session.config.players)})

    # -- arcade events --------------------------------------------------------------------
    def on_update(self, dt: float) -> None:
        self._browse_poll()
        if self.session is not None:
            self.session.net_pump()
        if self.scene is not None:
            self.scene.update(min(dt, 0.1))

    def on_draw(self) -> None:
        from client.core.damage import Damage
        scene = self.scene
        animated: list[Node] = scene.animated_nodes() if scene is not None else []
        if (self.partial_redraw and not self._force_full and animated
                and Damage.serial == self._drawn_serial):
            # nothing else changed: repaint only the animated nodes' rectangles (in the
            # framebuffer's pixels: the interface scale and the screen's pixel ratio)
            k = self.ui_scale * self.get_pixel_ratio()
            for node in animated:
                x, y, w, h = node.damage_rect()        # a node may repaint less than its box
                x0, y0 = int(x * k), int(y * k)
                self.ctx.scissor = (x0, y0, int((x + w) * k + 1) - x0, int((y + h) * k + 1) - y0)
                node.draw()
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
    from client.core.ui_scale import window_size_for_screen
    screen_width, screen_height = arcade.get_display_size()
    width, height = window_size_for_screen(screen_width, screen_height)
    app = App(width, height, visible=visible)
    app.set_location(max(0, (screen_width - width) // 2), max(0, (screen_height - height) // 2))
    return app


def run(args: argparse.Namespace) -> int:
    """Open the window. `args` is main.py's namespace (play, host, join, watch or replay)."""
    command = getattr(args, "command", None) or "play"
    app = open_window()
    if getattr(args, "lang", None):      # --lang wins over the settings for this run
        use(args.lang)
    if app.settings.fullscreen:
        app.set_fullscreen(True)
    if getattr(args, "command", None) == "play":
        # `main.py [--lang L] play ...`: straight into the game with the given options
        bots = getattr(args, "bots", "heuristic")
        seat = getattr(args, "seat", 0)
        opts = {"players": args.players, "side": args.side, "setup": args.setup,
                "humans": [seat], "bots": {s: bots for s in range(args.players) if s != seat}}
        app.start_local(opts, seed=getattr(args, "seed", None))
    elif command in ("host", "join", "watch"):
        opts = {"players": getattr(args, "players", 4), "side": getattr(args, "side", "sun"),
                "setup": getattr(args, "setup", "beginner"), "bots": getattr(args, "bots", 0),
                "address": getattr(args, "address", None), "code": getattr(args, "code", None),
                "port": getattr(args, "port", 7531), "log": getattr(args, "log", None),
                "save": getattr(args, "save", None), "resume": getattr(args, "resume", None),
                "rejoin_timeout": getattr(args, "rejoin_timeout", 120.0),
                "turn_time": getattr(args, "turn_time", 300.0)}
        if command != "host" and not opts["address"] and not opts["resume"]:
            app.show_menu({"code": opts["code"]})      # pick a table from the LAN list
        app.start_net(command, opts)
    elif command == "replay":
        app.replay_log(args.file)     # a save or a JSON game log, in the viewer
    else:
        app.show_menu()      # the options last used (remembered in the settings)
    arcade.run()
    return app.exit_code
