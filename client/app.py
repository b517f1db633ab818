"""The window: one Arcade window showing one scene at a time (menu, table, end screen).

`run(args)` is what `main.py` calls. The window forwards Arcade's input and clock to the
current scene's node tree; scenes signal up (start a game, leave, quit) and the App
swaps scenes. The Twisted reactor, when a network session exists, is driven from here
(`net_pump`) on every frame — the one place the client touches the reactor.
"""

from __future__ import annotations

import os
import sys
import time

import arcade

from client import theme

DEFAULT_SIZE = (1280, 800)


class App(arcade.Window):
    def __init__(self, width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1],
                 visible: bool = True, title: str = "Shogun") -> None:
        super().__init__(width, height, title, resizable=True, visible=visible, vsync=False)
        self.set_minimum_size(960, 640)
        self.background_color = theme.BG
        self.scene = None
        self.session = None
        self.exit_code = 0
        self.on_scene_changed = None     # tests hook: fn(scene)
        self._drawn_serial = -1
        self._force_full = True
        self.partial_frames = 0
        self.full_frames = 0
        self.partial_redraw = self._probe_partial_redraw()

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
            px = arcade.get_image(self.width // 2, self.height // 2, 1, 1).getpixel((0, 0))
            return tuple(px[:3]) == (12, 34, 56)
        except Exception:
            return False

    def show(self, scene) -> None:
        self._force_full = True
        self.scene = scene
        scene.set_rect(0, 0, self.width, self.height)
        if self.on_scene_changed:
            self.on_scene_changed(scene)

    def show_menu(self, defaults: dict | None = None, message: str = "") -> None:
        from client.menu import MenuScene
        if self.session is not None:
            self.session.close()
            self.session = None
        menu = MenuScene(defaults)
        menu.set_message(message)
        menu.start_local.connect(self.start_local)
        menu.host.connect(lambda o: self.start_net("host", o))
        menu.join.connect(lambda o: self.start_net("join", o))
        menu.watch.connect(lambda o: self.start_net("watch", o))
        menu.load.connect(self.load_save)
        menu.replay.connect(self.replay_log)
        menu.quit.connect(self.close)
        self.show(menu)

    def start_local(self, opts: dict, *, seed: int | None = None, fast: bool = False):
        from client.session import LocalSession
        humans = tuple(opts.get("humans", (0,)))
        bots = opts.get("bots") or {}
        if isinstance(bots, str):
            bots = {s: bots for s in range(opts["players"]) if s not in humans}
        seed = seed if seed is not None else int(time.time() * 1000) % 2_000_000_000
        session = LocalSession(opts["players"], opts["side"], opts["setup"], humans, bots, seed)
        labels = {s: ("you" if s in humans else f"bot {bots.get(s, '')}".strip()) for s in range(opts["players"])}
        if len(humans) > 1:
            labels = {s: ("human" if s in humans else labels[s]) for s in labels}
        return self.play(session, labels, fast=fast)

    def play(self, session, labels=None, fast: bool = False):
        from client.game_scene import GameScene
        self.session = session
        scene = GameScene(session, labels=labels, fast_forward=fast)
        scene.leave.connect(lambda: self.show_menu())
        scene.ended.connect(self.show_end)
        self.show(scene)
        return scene

    def show_end(self, summary: dict) -> None:
        from client.end_scene import EndScene
        end = EndScene(summary)
        end.back.connect(lambda: self.show_menu())
        end.quit.connect(self.close)
        self.show(end)

    def search_lan(self) -> None:
        """Browse for tables in a thread (zeroconf waits); results reach the menu later."""
        import threading
        from client.menu import MenuScene
        if getattr(self, "_browse_thread", None) and self._browse_thread.is_alive():
            return
        self._browse_result = None

        def work():
            try:
                from net.discovery import browse
                self._browse_result = browse(2.0)
            except Exception as exc:
                self._browse_result = exc
        self._browse_thread = threading.Thread(target=work, daemon=True)
        self._browse_thread.start()
        if isinstance(self.scene, MenuScene):
            self.scene.set_message("Searching the LAN for tables…")

    def _browse_poll(self) -> None:
        from client.menu import MenuScene
        t = getattr(self, "_browse_thread", None)
        if t is None or t.is_alive():
            return
        self._browse_thread = None
        res = self._browse_result
        if isinstance(self.scene, MenuScene):
            if isinstance(res, Exception):
                self.scene.set_message(f"LAN search failed: {res}")
            else:
                self.scene.show_tables(res or [])

    def start_net(self, command: str, opts: dict) -> None:
        if command in ("join", "watch") and not opts.get("address") and not opts.get("resume"):
            self.search_lan()
            return
        try:
            from client.net_session import NetSession
            session = NetSession.open(command, opts)
        except Exception as exc:   # net missing or refused at once: say so in the menu
            self.show_menu(message=f"Could not {command}: {exc}")
            return
        from client.lobby_scene import LobbyScene
        self.session = session
        lobby = LobbyScene(session, command)
        lobby.started.connect(lambda: self.play(session, session.labels()))
        lobby.leave.connect(lambda: self.show_menu())
        self.show(lobby)

    def load_save(self, path: str) -> None:
        try:
            from client.replay_session import resume_local
            session = resume_local(path, 0)
        except Exception as exc:
            self.show_menu(message=f"Cannot load {path or '(no file)'}: {exc}")
            return
        labels = {s: ("you" if s in session.my_seats else f"bot {session.bots.get(s, '')}")
                  for s in range(session.config.players)}
        self.play(session, labels)

    def replay_log(self, path: str) -> None:
        try:
            from client.replay_session import ReplaySession
            session = ReplaySession(path)
        except Exception as exc:
            self.show_menu(message=f"Cannot replay {path or '(no file)'}: {exc}")
            return
        self.play(session, {s: "replay" for s in range(session.config.players)})

    # -- arcade events --------------------------------------------------------------------
    def on_update(self, dt: float) -> None:
        self._browse_poll()
        if self.session is not None and hasattr(self.session, "net_pump"):
            self.session.net_pump()
        if self.scene is not None:
            self.scene.update(min(dt, 0.1))

    def on_draw(self) -> None:
        from client.node import Damage
        scene = self.scene
        animated = scene.animated_nodes() if hasattr(scene, "animated_nodes") else []
        if (self.partial_redraw and not self._force_full and animated
                and Damage.serial == self._drawn_serial):
            # nothing else changed: repaint only the animated nodes' rectangles
            for node in animated:
                self.ctx.scissor = (int(node.left), int(node.bottom),
                                    int(node.width) + 1, int(node.height) + 1)
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
        if self.scene is not None:
            self.scene.set_rect(0, 0, width, height)

    def on_mouse_press(self, x, y, button, modifiers):
        if self.scene is not None:
            self.scene.mouse_press(x, y, button, modifiers)

    def on_mouse_release(self, x, y, button, modifiers):
        if self.scene is not None:
            self.scene.mouse_release(x, y, button, modifiers)

    def on_mouse_motion(self, x, y, dx, dy):
        if self.scene is not None:
            self.scene.mouse_motion(x, y, dx, dy)

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        if self.scene is not None:
            self.scene.mouse_drag(x, y, dx, dy, buttons, modifiers)

    def on_mouse_scroll(self, x, y, sx, sy):
        if self.scene is not None:
            self.scene.mouse_scroll(x, y, sx, sy)

    def on_key_press(self, symbol, modifiers):
        if self.scene is not None:
            self.scene.key_press(symbol, modifiers)

    def on_text(self, text):
        if self.scene is not None and hasattr(self.scene, "type_text"):
            self.scene.type_text(text)

    def on_close(self):
        if self.session is not None:
            self.session.close()
        super().on_close()


def run(args) -> int:
    """Open the window. `args` is main.py's namespace (play, host, join or watch)."""
    command = getattr(args, "command", None) or "play"
    app = App()
    if command == "play" and any(a.startswith("play") for a in sys.argv[1:2]):
        # `main.py play ...`: straight into the game with the given options
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
                "rejoin_timeout": getattr(args, "rejoin_timeout", 120.0)}
        if command != "host" and not opts["address"] and not opts["resume"]:
            app.show_menu({"code": opts["code"]})      # pick a table from the LAN list
        app.start_net(command, opts)
    else:
        app.show_menu({"players": getattr(args, "players", 4), "side": getattr(args, "side", "sun"),
                       "setup": getattr(args, "setup", "beginner"),
                       "bots": getattr(args, "bots", "heuristic"), "seat": getattr(args, "seat", 0)})
    arcade.run()
    return app.exit_code
