"""The player's settings and the folders the game keeps its files in.

Settings live in `settings.json` in the user's config folder (platformdirs); autosaves and
named saves in the user's data folder. `SHOGUN_HOME` moves both under one folder (tests
and portable installs use it). A settings file that cannot be read never stops the game:
`load_settings` returns the defaults (or the fields that were fine) and a sentence for
the player saying what was wrong; the file is rewritten the next time a setting changes.

Tests: tests/client/core/test_settings.py.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from lang.i18n import _
from platformdirs import user_config_dir
from platformdirs import user_data_dir
from lang.i18n import LANGUAGES
from net.reach.addresses import AddressError, parse_address

SPEEDS = (0.5, 1.0, 2.0, 4.0)
UI_SCALES = (0.0, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0)   # 0: automatic (grows with the window)
# what a seat in the menu may be: a person here, a hot-seat person, or a bot (its level;
# the two baselines stay valid in remembered options)
SEAT_KINDS = ("you", "human", "easy", "normal", "hard", "heuristic", "random")


def config_dir() -> Path:
    home = os.environ.get("SHOGUN_HOME")
    if home:
        return Path(home).expanduser() / "config"
    return Path(user_config_dir("shogun", appauthor=False))


def data_dir() -> Path:
    home = os.environ.get("SHOGUN_HOME")
    if home:
        return Path(home).expanduser() / "data"
    return Path(user_data_dir("shogun", appauthor=False))


def settings_path() -> Path:
    return config_dir() / "settings.json"


@dataclass(frozen=True)
class LastGame:
    """The menu's options for a new local game, as last used (remembered across runs)."""

    players: int = 4
    side: str = "sun"
    setup: str = "beginner"
    seat_kinds: tuple[str, ...] = ("you", "normal", "normal", "normal", "normal")   # as `play` gives

    def with_me_at(self, seat: int) -> "LastGame":
        """These options with "you" moved to `seat` (swapping with who sat there)."""
        kinds = list(self.seat_kinds)
        if "you" in kinds:
            old = kinds.index("you")
            kinds[old], kinds[seat] = kinds[seat], "you"
        else:
            kinds[seat] = "you"
        return replace(self, seat_kinds=tuple(kinds))


@dataclass(frozen=True)
class Settings:
    name: str = ""                 # shown for my seat; empty: "you"
    colour: int = 0                # preferred seat colour (0 Blue .. 4 Magenta)
    animation_speed: float = 1.0   # one of SPEEDS
    volume: int = 80               # 0..100
    mute: bool = False
    ui_scale: float = 0.0          # one of UI_SCALES; 0.0 automatic
    colour_blind: bool = False
    fullscreen: bool = False
    confirm_leave: bool = True     # Esc in a game asks before leaving
    guide_done: bool = False       # the first-game guide was dismissed
    guide_seen: tuple[str, ...] = ()   # the guide's hints answered with "Got it"
    language: str = ""             # "" follows the system locale; else a lang.i18n.LANGUAGES code
    # join by code across the internet (issue 39): "" is magic-wormhole's public mailbox/relay
    rendezvous: str = ""           # the mailbox, ws://HOST:PORT/v1
    relay: str = ""                # its transit relay, HOST:PORT
    direct_only: bool = False      # never through a relay
    last_game: LastGame = field(default_factory=LastGame)


def checked_value(name: str, value: Any, default: Any) -> Any:
    """The value if it fits the field, else raise ValueError naming what is wrong."""
    if name == "last_game":
        if not isinstance(value, dict):
            raise ValueError("is not a set of options")
        players = value.get("players", default.players)
        side = value.get("side", default.side)
        setup = value.get("setup", default.setup)
        kinds = tuple(value.get("seat_kinds", default.seat_kinds))
        if players not in (3, 4, 5) or side not in ("sun", "moon") \
                or setup not in ("beginner", "draft") or len(kinds) != 5 \
                or any(k not in SEAT_KINDS for k in kinds):
            raise ValueError("holds options the game does not know")
        return LastGame(players, side, setup, kinds)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError("should be true or false")
        return value
    if name == "name":
        if not isinstance(value, str) or len(value) > 40:
            raise ValueError("should be a name of at most 40 letters")
        return "".join(ch for ch in value if ch.isprintable())
    if name == "colour":
        if not isinstance(value, int) or not 0 <= value <= 4:
            raise ValueError("should be a seat colour number from 0 to 4")
        return value
    if name == "volume":
        if not isinstance(value, int) or not 0 <= value <= 100:
            raise ValueError("should be a whole number from 0 to 100")
        return value
    if name == "animation_speed":
        if value not in SPEEDS:
            raise ValueError(f"should be one of {', '.join(f'{s:g}' for s in SPEEDS)}")
        return float(value)
    if name == "language":
        if value != "" and value not in LANGUAGES:
            raise ValueError(f"should be one of {', '.join(LANGUAGES)} (or empty for the system's)")
        return value
    if name == "rendezvous":
        if not isinstance(value, str) or len(value) > 200 or \
                (value and not value.startswith(("ws://", "wss://"))):
            raise ValueError("should be a mailbox address ws://HOST:PORT/v1 (or empty)")
        return value
    if name == "relay":
        if not isinstance(value, str) or len(value) > 200 or (value and not _is_address(value)):
            raise ValueError("should be HOST:PORT (or empty)")
        return value
    if name == "guide_seen":
        if not isinstance(value, list) or not all(isinstance(k, str) and len(k) < 40 for k in value):
            raise ValueError("should be a list of hint names")
        return tuple(value)
    if name == "ui_scale":
        if value not in UI_SCALES:
            raise ValueError(f"should be one of {', '.join(f'{s:g}' for s in UI_SCALES)}")
        return float(value)
    return value


def _is_address(text: str) -> bool:
    try:
        parse_address(text, default_port=4001)
    except (AddressError, ValueError):
        return False
    return True


def load_settings(path: Path | None = None) -> tuple[Settings, str]:
    """(settings, message). The message is "" when the file was fine or absent."""
    path = path or settings_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings(), ""
    except OSError as exc:
        return Settings(), _("Could not read your settings ({path}: {reason}); using the "
                             "defaults.").format(path=path, reason=exc.strerror)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = (_(" (line {n})").format(n=exc.lineno) if isinstance(exc, json.JSONDecodeError)
                 else _(" (not text)"))
        return Settings(), _("Your settings file {path} is damaged{where}: using the defaults. "
                             "Changing a setting writes a fresh file.").format(path=path, where=where)
    if not isinstance(data, dict):
        return Settings(), _("Your settings file {path} holds no settings; using the "
                             "defaults.").format(path=path)
    defaults = Settings()
    values, wrong = {}, []
    for f in fields(Settings):
        if f.name not in data:
            continue
        try:
            values[f.name] = checked_value(f.name, data[f.name], getattr(defaults, f.name))
        except ValueError as exc:
            wrong.append(f"{f.name.replace('_', ' ')} {exc}")
    message = ""
    if wrong:
        message = _("Some settings in {path} were not usable ({problems}); the defaults are "
                    "used for those.").format(path=path, problems="; ".join(wrong))
    return replace(defaults, **values), message


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Atomically (write a temporary file, then rename): a crash never leaves half a file."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = asdict(settings)
    data["last_game"]["seat_kinds"] = list(settings.last_game.seat_kinds)
    data["guide_seen"] = list(settings.guide_seen)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(tmp, path)
