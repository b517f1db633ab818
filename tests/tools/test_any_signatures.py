"""tools/seams/any_signatures.py: the count of signatures naming Any, and `--at-most`
failing CI when a package names Any in more signatures than allowed (issue 50)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "seams" / "any_signatures.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("any_signatures", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["any_signatures"] = module
    spec.loader.exec_module(module)
    return module


def test_at_most_fails_only_above_the_figure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool()
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "wire.py").write_text(
        "from typing import Any\n\n"
        "def a(x: Any) -> None: ...\n\n"
        "def b(x: int) -> 'dict[str, Any]': ...\n\n"
        "def c(x: object) -> int: ...\n")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    assert tool.any_signatures("pkg") == ["pkg/wire.py:3 a", "pkg/wire.py:5 b"]
    assert tool.main(["--at-most", "pkg=2", "pkg"]) == 0
    assert tool.main(["--at-most", "pkg=1"]) == 1
    assert "2 signatures name Any, more than the 1 allowed" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        tool.main(["--at-most", "pkg"])
