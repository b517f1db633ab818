"""The architecture, enforced (docs/architecture.md): sim is pure in every sub-package,
and every import points down the layers, between packages and between sub-packages.

Every module of the project is walked (`rglob`), so a new sub-package is checked the day
it appears; a module that belongs to no layer fails the test until it is given one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SIM_FORBIDDEN = {"arcade", "pyglet", "twisted", "net", "client", "cli", "store", "lang", "time",
                 "socket", "threading", "random", "datetime", "asyncio", "subprocess", "urllib",
                 "os", "pathlib"}
# Impure modules sim itself may still use, each for one stated reason.
SIM_ALLOWED_IMPURE = {
    ("sim/board.py", "pathlib"): "reads assets/board.json once, at import",
    ("sim/cards.py", "pathlib"): "reads assets/cards.json once, at import",
}

# Bottom to top. A module belongs to the longest package prefix listed; it may import its
# own package and anything on a lower rank, nothing beside or above it. Packages on one
# rank are siblings: neither may import the other.
LAYERS: list[tuple[str, ...]] = [
    ("sim", "lang"),
    ("store",),
    ("net.trust",),
    ("net.transport",),
    ("net.reach", "net.lockstep"),
    ("net.table", "net"),
    ("client.core",),
    ("client.widgets",),
    ("client.words",),
    ("client.board", "client.tower"),
    ("client.sessions",),
    ("client.scenes",),
    ("client.game",),
    ("client", "cli"),
    ("main",),
]
RANK = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}
PROJECT = {"sim", "lang", "store", "net", "client", "cli", "main"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> str | None:
    """The longest listed package that `module` is, or lies in."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in RANK:
            return prefix
    return None


def _imports(path: Path) -> set[str]:
    """Dotted names imported, with `from a import b` read as `a.b` when that is a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                as_path = ROOT / Path(*candidate.split("."))
                if as_path.with_suffix(".py").exists() or (as_path / "__init__.py").exists():
                    names.add(candidate)
    return names


def _project_modules() -> list[Path]:
    found = [ROOT / "main.py"]
    for top in sorted(PROJECT - {"main"}):
        found += sorted((ROOT / top).rglob("*.py"))
    return found


def _sim_modules() -> list[Path]:
    return sorted((ROOT / "sim").rglob("*.py"))


def test_sim_is_walked_into_every_sub_package():
    """The old check globbed `sim/*.py` and never saw sim/rules or sim/bots."""
    seen = {p.parent.relative_to(ROOT).as_posix() for p in _sim_modules()}
    assert {"sim", "sim/rules", "sim/bots", "sim/tower"} <= seen


@pytest.mark.parametrize("path", _sim_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_sim_imports_nothing_impure(path):
    name = path.relative_to(ROOT).as_posix()
    bad = {m for m in (i.split(".")[0] for i in _imports(path)) if m in SIM_FORBIDDEN}
    bad -= {m for (f, m) in SIM_ALLOWED_IMPURE if f == name}
    assert not bad, f"{name} imports {sorted(bad)}: sim must stay pure (DESIGN)"


@pytest.mark.parametrize("path", _sim_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_sim_never_calls_the_global_random_generator(path):
    """Chance comes from the game's seed (`sim.chance`), never from Python's `random`."""
    assert "random" not in {i.split(".")[0] for i in _imports(path)}, path.name


def test_every_module_belongs_to_a_layer():
    lost = [p.relative_to(ROOT).as_posix() for p in _project_modules()
            if _layer(_module_name(p)) is None]
    assert not lost, f"modules in no layer (add their package to LAYERS): {lost}"


def test_imports_point_down_only():
    wrong = []
    for path in _project_modules():
        me = _layer(_module_name(path))
        assert me is not None
        for imported in _imports(path):
            if imported.split(".")[0] not in PROJECT:
                continue
            target = _layer(imported)
            if target is None or target == me:
                continue
            if RANK[target] >= RANK[me]:
                wrong.append(f"{path.relative_to(ROOT).as_posix()} ({me}) imports {imported} ({target})")
    assert not wrong, "imports that do not point down:\n" + "\n".join(sorted(wrong))


def test_the_checker_sees_a_wrong_import(tmp_path):
    """The rule itself: a net module importing the client, or a widget importing a scene, is
    caught (so the test above cannot pass by reading nothing)."""
    assert RANK[_layer("client.scenes.menu")] > RANK[_layer("client.widgets.dialog")]
    assert RANK[_layer("net.table.session")] > RANK[_layer("net.transport.peer")]
    assert _layer("net.transport.peer") == "net.transport"
    probe = tmp_path / "probe.py"
    probe.write_text("from client.scenes.menu import MenuScene\nimport net.table.session\n")
    assert _imports(probe) == {"client.scenes.menu", "net.table.session"}
