"""Window fixtures for client tests: one Arcade window per test session (pytest-xvfb
provides the virtual display; Mesa llvmpipe renders)."""

from __future__ import annotations

import os
import time
import shutil
from pathlib import Path

import pytest
from client.sessions.local_choice import LocalChoice


def _private_display() -> None:
    """pytest-xvfb's default display is 16-bit, on which GLX (Mesa) hangs creating an
    Arcade window. Start our own 24-bit Xvfb for the client tests and use it, before
    anything opens a display connection (the films' own starter)."""
    from client.film.virtual_display import NoDisplay, start_xvfb
    if os.environ.get("SHOGUN_TEST_DISPLAY_READY") or not shutil.which("Xvfb") \
            or os.environ.get("SHOGUN_TEST_USE_DISPLAY"):
        return
    try:
        start_xvfb((2560, 1440))
    except NoDisplay:
        return
    os.environ["SHOGUN_TEST_DISPLAY_READY"] = "1"


SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"


@pytest.fixture(scope="session", autouse=True)
def shogun_home(tmp_path_factory):
    """Settings and autosaves of window tests go to a temporary folder, never the
    developer's own config and data folders."""
    home = tmp_path_factory.mktemp("shogun-home")
    old = os.environ.get("SHOGUN_HOME")
    os.environ["SHOGUN_HOME"] = str(home)
    yield home
    if old is None:
        os.environ.pop("SHOGUN_HOME", None)
    else:
        os.environ["SHOGUN_HOME"] = old


@pytest.fixture(autouse=True)
def no_public_rendezvous(monkeypatch):
    """A window that hosts asks magic-wormhole's public mailbox for a code friends anywhere
    can type (issue 39); window tests reach nothing outside this machine, so it is off
    unless a test gives a rendezvous of its own (tests/net/wormhole_servers.py)."""
    monkeypatch.setenv("SHOGUN_NET_RENDEZVOUS", "off")


@pytest.fixture(autouse=True)
def no_names_from_an_earlier_game():
    """The players' names are the running game's (the App sets them for each game); a test
    starts with none, whatever game the worker's previous test played (CI's stop 59 failed
    when a networked-table test ran before the film card's title test on one worker)."""
    from client.core import theme
    theme.set_player_names(None)
    yield
    theme.set_player_names(None)


@pytest.fixture(scope="session")
def app():
    _private_display()   # here, not at import: pytest-xvfb sets DISPLAY during configure
    if not os.environ.get("DISPLAY"):
        pytest.skip("no display (run under xvfb: pytest-xvfb or xvfb-run)")
    import arcade
    from client.app import App
    # a real window and GL context; not mapped (mapping waits for a window manager event
    # that some bare Xvfb setups never send)
    window = App(1280, 800, visible=False)
    yield window
    window.session = None
    window.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def frame(app, n: int = 1, dt: float = 1 / 60) -> None:
    """Run n frames: the window's own update and draw, plus the event pump."""
    for _ in range(n):
        app.dispatch_events()
        app.on_update(dt)
        app.on_draw()
        app.flip()


def paused_bot_table(app, players: int, seed: int):
    """A bots' game's table (heuristic bots, no person seated), a few frames in, then
    paused at normal speed without a card over it: how far five fast frames get depends
    on the machine, and a card left from them (a battle's, the winter's) would lie over
    the map and the stage. Returns the scene."""
    scene = app.start_local(LocalChoice.one_level("heuristic", players=players, humans=(),
                                                  seed=seed), fast=True)
    frame(app, 5)
    scene.fast = False
    scene.paused = True
    scene.banner.hide()
    return scene


def count_calls(owner: object, name: str) -> list[int]:
    """Replaces `owner.name` (a method) by one that counts its calls and then calls it;
    the count is the returned list's one number. `del owner.name` puts the class's own
    method back."""
    calls = [0]
    original = getattr(owner, name)

    def counted(*args, **kw):
        calls[0] += 1
        return original(*args, **kw)
    setattr(owner, name, counted)
    return calls


def screenshot(app, path: Path) -> Path:
    import arcade
    app.on_draw()
    img = arcade.get_image(0, 0, app.width, app.height)
    img.save(path)
    return path


def run_until(app, cond, seconds: float, dt: float = 1 / 60) -> bool:
    """Draw frames until `cond()` holds or `seconds` of wall time pass; the final answer.
    `dt`: the time each frame stands for (the window's own clamp is 0.1 s: a walk
    through a whole game draws fewer frames at 10 a second than at 60)."""
    t0 = time.time()
    while time.time() - t0 < seconds:
        if cond():
            return True
        frame(app, dt=dt)
    return cond()


def heard(app, peer, pattern: str, seconds: float) -> None:
    """Wait for `pattern` in a peer process's output while the window keeps running (its
    frames drive the reactor: a window that stops pumping sends nothing and soon looks
    dropped)."""
    import re
    if not run_until(app, lambda: re.search(pattern, peer.text()), seconds):
        raise AssertionError(f"{peer.name}: no {pattern!r} in output:\n{peer.text()}\n"
                             f"{peer.errors()[-2000:]}")


@pytest.fixture
def home(app, tmp_path, monkeypatch):
    """A fresh settings/data folder for each test, and the window reading it."""
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path))
    app.reload_settings()
    yield tmp_path
    app.show_menu()


def to_my_plan(app, seed: int = 11, bots: str = "heuristic"):
    """A 4-player beginner game on the sun side with me at seat 0, played up to my first
    plan (fast animations); the game scene."""
    scene = app.start_local(LocalChoice.one_level(bots, seed=seed), fast=True)
    assert run_until(app, lambda: scene.planning.visible, 60), "never asked to plan"
    return scene


def until_move_decision(app, scene, seconds: float = 120) -> bool:
    """Play a local game with the bot's suggested plans (answering anything else with its
    first option) until my seat is asked where to move; True if it was."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        frame(app)
        if scene.asking is None:
            continue
        kind = scene.asking[0]
        if kind == "move":
            return True
        if kind == "plan":
            scene.asker.suggest()
            scene.planning.lock_btn.pressed.emit()
        elif scene.decision.visible and scene.decision.options:
            first = next((o for o in scene.decision.options if o[2]), None)
            if first is not None:
                scene.asker.chosen(first[1], None)
    return False
