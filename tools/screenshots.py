"""Screenshots of the game window at several sizes, for looking at (not committed).

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python tools/screenshots.py OUTDIR

For each size (960x640, 1280x800, 1920x1080 unless --sizes says otherwise) it saves the menu,
the settings, a game's opening frame and a bot game's log in the replay viewer (as it opens
and after a seek: `shoot_screens`); it starts a local
4-player beginner game (one human seat, heuristic bots), runs it until the human is asked to
plan, saves `planning-WxH.png`, then from a bots-only game `battle-WxH.png` in the middle
of its first battle drop (the battle view), `winter-WxH.png` during the final scoring
(fast-forward stops there) and `end-WxH.png` (the end screen); then, against a stand-in
network table (no network needed), `lobby-WxH.png` (names, bot seat, the LAN join command,
chat) and `pause-WxH.png` (a seat offline: the countdown and the host's hand-over button);
`help-WxH.png` is the rules overlay opened over the planning table. The battle comes as a
small scene: `battle-opening` (the camera moving in), `battle-handful` (the thrown handful before the pour), `battle` (mid-drop),
`battle-tally` (the tray counted per side), `battle-climax` (the decision on the
stage: totals, the winner lit, its banner), `battle-banner` (the result), `battle-march`
(the survivors walking in; only when the attacker won); `film-WxH-title.png`,
`-mid.png` and `-result.png` are frames of `replay SAVE --film 3 --size WxH` (its MP4 kept
beside them). `--players 3` shows the
hatched out-of-play provinces; `--colour-blind` the colour-blind board; `--lang nl` (or ro,
en) the window in that language (file names then end in `-nl`); `--only planning,lobby,…`
limits the shots; `--small` saves 256-colour PNGs. The battle stage's moments committed under
docs/screenshots/battle/ (issue 48) are one command per language:
`xvfb-run -a -s "-screen 0 2560x1440x24" .venv/bin/python tools/screenshots.py
docs/screenshots/battle --only battle --sizes 960x640,1280x800,1920x1080,2560x1440
--lang nl` (then keep the stage's moments: opening, handful, battle, tally, climax, banner).
They are full-colour PNGs, not `--small`: 256 colours band the stage's lamplight into
stair-steps across the tower's red posts and turned the peasants' green cube grey.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if TYPE_CHECKING:
    from client.app import App

SUFFIX = [""]        # "-nl" when --lang nl: the shots of each language side by side
PALETTE = [False]    # --small: 256-colour PNGs (a third of the size: the docs' committed set)


def add_window_arguments(ap: argparse.ArgumentParser) -> None:
    """What every screenshot tool asks (this one and tools/tutorial_screenshots.py)."""
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--sizes", default="960x640,1280x800,1920x1080")
    ap.add_argument("--lang", default="en", choices=("en", "nl", "ro"),
                    help="the window's language (file names get -nl / -ro)")


def parse_sizes(ap: argparse.ArgumentParser, text: str) -> list[tuple[int, int]]:
    """`960x640,1280x800` as (width, height) pairs; anything else is the parser's error."""
    try:
        return [(int(w), int(h)) for w, h in (size.split("x") for size in text.split(","))]
    except ValueError:
        ap.error(f"--sizes must look like 960x640,1280x800 (got {text!r})")


@contextmanager
def hidden_window(size: tuple[int, int]) -> Iterator[App]:
    """The game's window, not shown; closed (its session dropped first) however the
    shots end."""
    from client.app import App
    app = App(size[0], size[1], visible=False)
    try:
        yield app
    finally:
        app.session = None
        app.close()


def _frames(app: App, n: int = 1, dt: float = 1 / 60) -> None:
    """`n` frames of the window, each standing for `dt` seconds (at most 0.1: the
    window's own clamp)."""
    for _ in range(n):
        app.dispatch_events()
        app.on_update(dt)
        app.on_draw()
        app.flip()


def _save(app: App, path: Path) -> None:
    import arcade
    app.on_draw()
    img = arcade.get_image(0, 0, app.width, app.height).convert("RGB")   # as a screen shows it
    if PALETTE[0]:
        from PIL import Image
        img = img.quantize(256, dither=Image.Dither.NONE)
    img.save(path, optimize=True)
    print(f"saved {path}")


def _run_until(app: App, cond: Callable[[], object], seconds: float) -> bool:
    """Frames until `cond` holds; gives up once both `seconds` of the game's frames (at
    60 a second) and `seconds` of the clock have gone by: on a loaded machine a frame
    takes longer than its sixtieth, and a clock limit alone missed stage moments (issue
    48: at load 20 the 2560x1440 openings were not seen within 120 s)."""
    t0 = time.time()
    frames = 0
    while frames < seconds * 60 or time.time() - t0 < seconds:
        if cond():
            return True
        _frames(app)
        frames += 1
    return bool(cond())


from client.sessions.interface import Batch  # noqa: E402  (after the path)
from client.sessions.local_choice import LocalChoice  # noqa: E402  (after the path)
from client.sessions.table_offers import TableCallbacks  # noqa: E402  (after the path)
from net.reach.addresses import DEFAULT_PORT  # noqa: E402


class _StandInTable(TableCallbacks):
    """Enough of `net.table.session.TableSession` (with the newer comforts) for the lobby and a
    paused game: seats with names and a bot, a join code, a countdown, chat."""

    def __init__(self, players: int, seed: int) -> None:
        from sim import game
        from sim.local import LocalGame
        self.cfg = game.GameConfig(players=players, side="sun", setup="beginner")
        self.local = LocalGame(self.cfg, seed, {})
        for _ in self.local.run():
            pass
        self.my_seat: int | None = 0
        self.join_code: str | None = "k7q2"
        self.listen_port = DEFAULT_PORT
        names = ["Aiko", "", "Ben", "Cleo", "Dai"]
        self.lobby = {"players": players, "side": "sun", "setup": "beginner", "seats": [
            {"seat": k, "kind": "bot" if k == 1 else "human", "name": names[k]}
            for k in range(players)]}
        self.countdown: dict[int, float] = {}

    state = property(lambda self: self.local.state)
    decision = property(lambda self: __import__("sim.game").game.pending(self.local.state))

    def waiting_for(self) -> list[int]:
        return list(self.decision.seats)

    opts = type("Options", (), {"interface": "127.0.0.1"})()
    start_info = None

    def takeover_countdown(self) -> dict[int, float]:
        return dict(self.countdown)

    def input_countdown(self) -> dict[int, float]:
        return {}

    def overdue_seats(self) -> list[int]:
        return []

    def hand_seat_to_bot(self, seat: int) -> None:
        pass

    def send_chat(self, text: str) -> None:
        pass

    def unlock_plan(self) -> None:
        raise ValueError("a stand-in table keeps its plans")

    def my_plan(self) -> None:
        return None

    def set_bot_level(self, seat: int, level: str) -> None:
        raise ValueError("a stand-in table keeps its bots")

    def submit(self, cmd: object) -> None:
        pass

    def set_lobby(self, players: int | None = None, side: str | None = None,
                  setup: str | None = None, bots: int | None = None) -> None:
        raise ValueError("a stand-in table keeps its lobby")

    def start_game(self) -> None:
        raise ValueError("a stand-in table has started")

    def close(self) -> None:
        pass


def shoot_table(app: App, out: Path, size: tuple[int, int], players: int, seed: int,
                only: set[str]) -> None:
    from client.scenes.lobby_scene import LobbyScene
    from client.sessions.network import NetSession
    w, h = size
    tag = f"{players}p-{w}x{h}{SUFFIX[0]}"
    table = _StandInTable(players, seed)
    session = NetSession(table, "host")
    app.session = session
    if "lobby" in only:
        app.show(LobbyScene(session, "host"))
        line = type("ChatLine", (), {"sender": "Ben", "seat": 2, "text": "ready when you are"})
        table.on_chat_received(line)
        _frames(app, 3)
        _save(app, out / f"lobby-{tag}.png")
    if "pause" in only:
        session.game_started(table.cfg, 0, table.state)
        session.queue.append(Batch([], table.state))
        scene = app.play(session, session.labels(), names=session.names())
        _run_until(app, lambda: scene.planning.visible, 10)
        table.countdown = {2: 87.4}
        _frames(app, 3)
        _save(app, out / f"pause-{tag}.png")
    app.session = None


def shoot_film(out: Path, size: tuple[int, int], seed: int) -> None:
    """Frames of a battle film (`replay SAVE --film 3 --size WxH`) from a headless save:
    the title card, the middle of the battle and the result card (`film-WxH-title.png`,
    `-mid`, `-result`); the MP4 is kept beside them (a GIF without imageio-ffmpeg)."""
    import subprocess
    import tempfile
    root = Path(__file__).resolve().parent.parent
    tag = f"{size[0]}x{size[1]}{SUFFIX[0]}"
    even = f"{size[0] // 2 * 2}x{size[1] // 2 * 2}"
    with tempfile.TemporaryDirectory() as tmp:
        save, film = Path(tmp) / "g.save", out / f"film-{tag}.mp4"
        subprocess.run([sys.executable, str(root / "main.py"), "headless", "--seed", str(seed),
                        "--save", str(save), "--quiet"], check=True, capture_output=True)
        from lang.i18n import current
        r = subprocess.run([sys.executable, str(root / "main.py"), "--lang", current(), "replay",
                            str(save), "--film", "3", "--out", str(film), "--size", even],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{tag}: no film: {r.stderr.strip()}", file=sys.stderr)
            return
    try:
        import imageio_ffmpeg  # type: ignore[import-untyped]
    except ImportError:
        print(f"saved {film.with_suffix('.gif')} (no imageio-ffmpeg: no frames taken)")
        return
    reader = imageio_ffmpeg.read_frames(str(film))
    meta = reader.__next__()
    frames = list(reader)
    w, h = meta["size"]
    from PIL import Image
    for name, k in (("title", 15), ("mid", len(frames) // 2), ("result", len(frames) - 15)):
        Image.frombytes("RGB", (w, h), frames[k]).save(out / f"film-{tag}-{name}.png")
    print(f"saved {out / f'film-{tag}-title.png'}, -mid, -result (and {film.name})")


def shoot_screens(app: App, out: Path, size: tuple[int, int], players: int, seed: int,
                  only: set[str]) -> None:
    """The menu (`menu-WxH`), the settings (`settings-WxH`), a game's first frame
    (`opening-WxH`: the set-up map before the tower's fill) and a bot game's JSON log in the
    viewer: as it opens (`replay-WxH`, the first round's table) and after a step back from
    round 3 (`replay-seek-WxH`: the controls' header and the log rebuilt)."""
    tag = f"{size[0]}x{size[1]}{SUFFIX[0]}"
    if "menu" in only:
        app.show_menu()
        _frames(app, 3)
        _save(app, out / f"menu-{tag}.png")
    if "settings" in only:
        app.show_settings()
        _frames(app, 3)
        _save(app, out / f"settings-{tag}.png")
    if "opening" in only:
        app.start_local(LocalChoice.one_level("heuristic", players=players, seed=seed))
        _frames(app, 2)
        _save(app, out / f"opening-{tag}.png")
    if only & {"replay", "replay-seek"}:
        import subprocess
        import tempfile
        log = Path(tempfile.mkdtemp()) / "game.jsonl"
        subprocess.run([sys.executable, str(Path(__file__).resolve().parent.parent / "main.py"),
                        "headless", "--players", str(players), "--seed", str(seed), "--quiet",
                        "--log", str(log)], check=True, stdout=subprocess.DEVNULL)
        from client.game.game_scene import GameScene
        app.replay_log(str(log))
        scene = app.scene
        assert isinstance(scene, GameScene), "the log did not open"
        _frames(app, 2)
        if "replay" in only:
            _save(app, out / f"replay-{tag}.png")
        if "replay-seek" in only and scene.replay_controls is not None:
            import arcade
            for _ in range(3):
                scene.on_key_press(arcade.key.PAGEDOWN, 0)
            scene.on_key_press(arcade.key.LEFT, 0)
            _frames(app, 3)
            _save(app, out / f"replay-seek-{tag}.png")
    app.show_menu()


SCREENS = {"menu", "settings", "opening", "replay", "replay-seek"}


def shoot(app: App, out: Path, size: tuple[int, int], players: int, seed: int,
          only: set[str] | None = None) -> None:
    only = only or {"planning", "help", "battle", "winter", "end", "lobby", "pause", "film",
                    *SCREENS}
    if "film" in only:
        shoot_film(out, size, seed)
    w, h = size
    app.set_size(w, h)
    app.on_resize(w, h)
    if only & SCREENS:
        shoot_screens(app, out, size, players, seed, only)
    if only & {"lobby", "pause"}:
        shoot_table(app, out, size, players, seed, only)
    if not only & {"planning", "help", "battle", "winter", "end"}:
        return
    scene = app.start_local(LocalChoice.one_level("heuristic", players=players, seed=seed),
                            fast=True)
    tag = f"{players}p-{w}x{h}{SUFFIX[0]}"
    if not _run_until(app, lambda: scene.planning.visible, 60):
        print(f"{tag}: never asked to plan", file=sys.stderr)
        return
    _frames(app, 3)
    if "planning" in only:
        _save(app, out / f"planning-{tag}.png")
    if "help" in only:
        scene.comforts.help.open()
        _frames(app, 3)
        _save(app, out / f"help-{tag}.png")
        scene.comforts.help.hide()
    if not only & {"battle", "winter", "end"}:
        return
    # a battle mid-drop: a bots-only game fast-forwarded until the first battle drop starts
    scene = app.start_local(LocalChoice.one_level("heuristic", players=players, humans=(),
                                                  seed=seed), fast=True)
    seen: list[bool] = []

    def on_shot(kind: str) -> None:
        e: Mapping[str, object] = scene.player.playing_event or {}
        if kind == "tower_coming" and e.get("reason") == "battle" and not seen:
            seen.append(True)
            scene.fast = False          # watch this drop at normal speed

    scene.moment_reached.connect(on_shot)
    tower = scene.tower
    # the battle as a scene: the handful before the pour, mid-drop, the tally, the banner
    stages = [("battle-opening", lambda: seen and tower.big and 0.4 < tower.opening < 0.8),
              ("battle-handful", lambda: seen and tower.stage == "handful" and tower.opening >= 1),
              ("battle", lambda: seen and tower.stage == "pour"
               and (tower.landed or tower.progress > 0.5)),
              ("battle-tally", lambda: seen and tower.stage == "tally"),
              ("battle-climax", lambda: seen and tower.stage == "climax"),
              ("battle-banner", lambda: seen and not tower.playing and scene.banner.visible),
              ("battle-march", lambda: seen and scene.battle.march.marching and scene.battle.march.t > 0.4)]
    for name, cond in stages:
        if name.split("-")[0] not in only and name not in only:
            continue
        if _run_until(app, cond, 120):
            _frames(app, 2 if name in ("battle-handful", "battle-climax") else 0)
            _save(app, out / f"{name}-{tag}.png")
        else:
            print(f"{tag}: no {name} seen", file=sys.stderr)
    scene.fast = True
    if not only & {"winter", "end"}:
        return
    if _run_until(app, lambda: scene.winter.visible and scene.winter.last, 240):
        _frames(app, 25)                # the points on their way to the players
        _save(app, out / f"winter-{tag}.png")
        scene.on_key_press(__import__("arcade").key.S, 0)
    else:
        print(f"{tag}: no final scoring seen", file=sys.stderr)
    if _run_until(app, lambda: app.scene is not None and app.scene.name == "end", 60):
        _frames(app, 3)
        _save(app, out / f"end-{tag}.png")
    else:
        print(f"{tag}: the game did not end", file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_window_arguments(ap)
    ap.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--colour-blind", action="store_true")
    ap.add_argument("--small", action="store_true",
                    help="256-colour PNGs (the set committed under docs/screenshots/)")
    ap.add_argument("--only", default="",
                    help="comma list: menu,settings,opening,replay,replay-seek,planning,help,"
                         "battle,winter,end,lobby,pause,film")
    args = ap.parse_args()
    sizes = parse_sizes(ap, args.sizes)
    PALETTE[0] = args.small
    args.outdir.mkdir(parents=True, exist_ok=True)
    from dataclasses import replace
    from lang.i18n import use
    with hidden_window(sizes[0]) as app:
        app.settings = replace(app.settings, colour_blind=args.colour_blind)
        use(args.lang)
        SUFFIX[0] = "" if args.lang == "en" else f"-{args.lang}"
        only = {o for o in args.only.split(",") if o} or None
        for size in sizes:
            shoot(app, args.outdir, size, args.players, args.seed, only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
