"""How the window starts this program again in a process of its own (a battle film).

Why a module: from a clone that is this Python with main.py; in the download
(`tools/bundle`, a PyInstaller bundle) `sys.executable` is the game itself and there is
no main.py, so the same arguments follow the executable alone.

Tests: tests/client/core/test_own_command.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

MAIN = Path(__file__).resolve().parents[2] / "main.py"


def own_command() -> list[str]:
    """The program's command line up to its arguments."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    return [sys.executable, str(MAIN)]
