"""What a peer says about itself in its hello, and which differences keep it from a table.

Why a module of its own: the connection (`net.transport.peer`) only compares; what is
compared — the protocol, the rules, pymunk, the tower's digest, a hash of the game code —
and what is merely said (Python, the system, the physics build) is one idea, read also by
the session (its own versions) and the window (the sentence a refusal shows).

Tests: tests/net/transport/test_peer.py, tests/net/trust/test_attacks.py.
"""

from __future__ import annotations

import hashlib
import platform

from net.transport import messages

_VERSIONS: dict[str, str] | None = None


def _project_version() -> str:
    """The project's version: from pyproject.toml in a clone, from the installed package's
    metadata in an installed copy (so a clone and a `pip install` peer can play)."""
    try:
        import tomllib
        from pathlib import Path
        path = Path(__file__).resolve().parents[2] / "pyproject.toml"
        return str(tomllib.loads(path.read_text())["project"]["version"])
    except (OSError, KeyError, ValueError):
        pass
    try:
        from importlib.metadata import version
        return version("shogun")
    except Exception:
        return "unknown"


def _tower_digest() -> str:
    try:
        from sim.tower.drop import self_test_digest
    except ImportError:
        return "no-tower"
    digest = self_test_digest()
    return digest.hex() if isinstance(digest, bytes) else str(digest)


def _rules_version() -> str:
    try:
        from sim.game import RULES_VERSION
    except ImportError:
        return "none"
    return str(RULES_VERSION)


def _canary() -> str:
    """The raw-float canary drop (sim.tower.drop): equal on machines that compute drops
    bit-identically. Informational: tower outcomes are agreed by vote anyway."""
    try:
        from sim.tower.drop import canary_digest
    except ImportError:
        return "unknown"
    digest = canary_digest()
    return digest.hex() if isinstance(digest, bytes) else str(digest)


def _physics() -> tuple[str, str]:
    """This peer's physics build ("deterministic" or "platform") and its selftest digest
    (`sim.tower.build`): the others know before the start whether this peer's drops can
    be checked, and the lobby says when a table has platform builds (issue 25)."""
    try:
        from sim.tower.build import here
    except ImportError:
        return "none", "none"
    test = here()
    return test.build, test.digest


def _game_code_digest() -> str:
    """A hash of everything every peer computes identically: the rules, the bots (every
    peer computes bot seats), the tower and the card and board data. Two peers whose
    `sim/` differs in any way would fall out of step, so they are refused at the door.
    Line endings are normalised (a Windows checkout of the same code is the same code)."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    h = hashlib.sha256()
    files = sorted((root / "sim").rglob("*.py")) + [root / "assets" / n for n in
                                                    ("board.json", "cards.json")]
    for path in files:
        try:
            data = path.read_bytes().replace(b"\r\n", b"\n")
        except OSError:
            data = b"missing"
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + data + b"\0")
    return h.hexdigest()


# Said in the handshake but never compared: friends' laptops differ in these, and the game
# does not depend on them. `physics` and `selftest` say whether the peer's drops can be
# checked (`net.lockstep.tower_vote`); a platform build is welcome, its drops are voted.
INFORMATIONAL = ("python", "system", "machine", "canary", "physics", "selftest")


def local_versions(engine_name: str = "shogun") -> dict[str, str]:
    """What this peer says about itself in the handshake. Compared: the protocol, the rules
    (engine and version), the pymunk version, the tower's geometry and physics settings
    (its self-test digest) and the game code itself (rules, bots, data) — what decides
    the game. Not compared: `INFORMATIONAL`."""
    global _VERSIONS
    if _VERSIONS is None:
        try:
            import pymunk
            pymunk_version = str(pymunk.version)
        except ImportError:
            pymunk_version = "none"
        build, selftest = _physics()
        _VERSIONS = {"protocol": str(messages.PROTOCOL), "project": _project_version(),
                     "pymunk": pymunk_version, "tower": _tower_digest(),
                     "code": _game_code_digest(),
                     "python": platform.python_version(), "system": platform.system(),
                     "machine": platform.machine(), "canary": _canary(),
                     "physics": build, "selftest": selftest}
    return {**_VERSIONS, "rules": f"{engine_name} {_rules_version()}"}


def version_differences(mine: dict[str, str], theirs: dict[str, str],
                        me: str = "yours", them: str = "table") -> str | None:
    """A sentence naming every field that decides the game and differs, or None."""
    problems = []
    for key in sorted((set(mine) | set(theirs)) - set(INFORMATIONAL)):
        a, b = theirs.get(key, "missing"), mine.get(key, "missing")
        if a != b:
            problems.append(f"{key} differs: {me} {a}, {them} {b}")
    return "; ".join(problems) or None
