"""The window starts the program again (a battle film) the way it was itself started."""

from __future__ import annotations

import sys
from pathlib import Path

from client.core.own_command import own_command


def test_from_a_clone_it_is_this_python_with_main_py():
    command = own_command()
    assert command[0] == sys.executable
    assert Path(command[1]).name == "main.py" and Path(command[1]).is_file()


def test_in_the_download_it_is_the_executable_alone(monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/shogun/shogun")
    assert own_command() == ["/opt/shogun/shogun"]
