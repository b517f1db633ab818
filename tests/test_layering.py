"""DESIGN's layering promise, enforced: sim is pure, and imports point down only."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIM_FORBIDDEN = {"arcade", "pyglet", "twisted", "net", "client", "cli", "time", "socket",
                 "threading", "random", "datetime", "asyncio", "subprocess", "urllib"}
BELOW = {"sim": {"net", "client", "cli"}, "net": {"client"}, "cli": {"client", "net"}}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_sim_imports_nothing_impure():
    for path in sorted((ROOT / "sim").glob("*.py")):
        bad = _imports(path) & SIM_FORBIDDEN
        assert not bad, f"{path.name} imports {sorted(bad)}: sim must stay pure (DESIGN)"


def test_imports_point_down_only():
    for package, forbidden in BELOW.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            bad = _imports(path) & forbidden
            assert not bad, f"{package}/{path.name} imports {sorted(bad)} from a higher layer"


def test_sim_never_calls_the_global_random_generator():
    for path in sorted((ROOT / "sim").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "import random" not in text and "from random" not in text, path.name
