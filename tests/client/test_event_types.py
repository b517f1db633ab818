"""mypy catches a renamed event field in the client (issue 50): one event type from the
rules to the pixels (`sim.events.Event`, the client's `Played`), so a key renamed in
`sim/events.py` is a type error where the client reads it, not a gap at run time.

The check plants renames in a temporary copy of the tree and runs mypy there: the
game log's `GameStarted.setup` (read by the replay of a game log, which took the log's
events as `dict[str, Any]` before) and `BattleResolved.survivors` (the battle's card and
the end screen). mypy checks the two client modules that read them, and everything they
import (sim, store, the client's scenes they use), not the whole client: the modules
the test names are where the reads are. Slow: mypy reads much of the tree (about 8 s of CPU here).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("sim", "client", "net", "store", "lang", "assets")

# (the line in sim/events.py, its renamed form, the key the client reads, a client module
# that must be named)
RENAMES = [
    ("    setup: str\n    money: dict[str, int]", "    set_up: str\n    money: dict[str, int]",
     "setup", "client/sessions/replay.py"),
    ("    survivors: int\n    new_owner", "    survivors_left: int\n    new_owner",
     "survivors", "client/game/battle_results.py"),
]


# the libraries' own sources are not read (their names are Any here): the run only has to
# see the project's types, and reading Arcade, Twisted and numpy is most of its time
SKIPPED = ("arcade", "pyglet", "twisted", "numpy", "pymunk", "PIL", "zope", "cryptography",
           "imageio", "imageio_ffmpeg", "matplotlib")


def _copy(dest: Path) -> Path:
    """The project's packages in `dest`, and a mypy configuration for them there."""
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, dest / pkg,
                        ignore=shutil.ignore_patterns("__pycache__", "*.wav", "*.png", "*.po",
                                                      "*.mo"))
    config = (ROOT / "pyproject.toml").read_text()
    skipped = ", ".join(f'"{name}", "{name}.*"' for name in SKIPPED)
    config += ("\n[[tool.mypy.overrides]]\n"
               f"module = [{skipped}]\nfollow_imports = \"skip\"\nfollow_imports_for_stubs = true\n")
    (dest / "pyproject.toml").write_text(config)
    return dest / "pyproject.toml"


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_mypy_names_the_client_reads_of_a_renamed_event_field(tmp_path: Path) -> None:
    """The copy is the tree (which checks clean: CI's `mypy`) with the renames: mypy names
    each renamed key where the client reads it."""
    config = _copy(tmp_path)
    events = tmp_path / "sim" / "events.py"
    text = events.read_text()
    for old, new, _key, _where in RENAMES:
        assert text.count(old) == 1, f"the test's anchor moved in sim/events.py: {old!r}"
        text = text.replace(old, new)
    events.write_text(text)
    readers = sorted({where for _old, _new, _key, where in RENAMES})
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(config),
                          "--cache-dir", str(tmp_path / ".cache"), *readers],
                         cwd=tmp_path, capture_output=True, text=True, timeout=1100)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    errors = [line for line in out.splitlines() if ": error:" in line]
    for _old, _new, key, where in RENAMES:
        assert any(line.startswith(where) and f'"{key}"' in line for line in errors), \
            f"mypy did not name {where}'s read of {key!r}:\n{out}"

