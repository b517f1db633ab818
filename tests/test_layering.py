"""The architecture, enforced (docs/architecture.md): sim is pure in every sub-package,
and every import points down the layers, between packages and between sub-packages.

Every module of the project is walked (`rglob`), so a new sub-package is checked the day
it appears; a module that belongs to no layer fails the test until it is given one. An
import is an import however it is written: `import a.b`, `from a import b`, a relative
`from ..a import b`, or `importlib.import_module("a.b")` / `__import__("a.b")` with the name
written out (a name computed at run time cannot be checked, so none is allowed).
"""

from __future__ import annotations

import ast
import subprocess
import sys
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
    ("net.correspondence",),   # a folder table reuses the live table's pure policies
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

# Inside sim, one layer, parts that must not lean on each other: (importer, imported): why.
SIM_APART = {
    ("sim.rules", "sim.bots"): "the rules decide every table's game; a bot only plays it",
    ("sim.tower", "sim.bots"): "a drop (and the fallback for a split vote) is a consensus "
                               "rule; a bot's tower model only imagines futures",
}
# Modules that load without pymunk (a compiled physics engine), each for one stated reason.
WITHOUT_PYMUNK = {
    "sim.state": "a game state is read, checked and saved without the physics",
    "sim.commands": "a command's wire form is decoded without the physics",
    "sim.tower.fallback": "a split vote's drop is settled without the physics",
}


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


COMPUTED = "<a module name computed at run time>"


def _is_module(dotted: str) -> bool:
    as_path = ROOT / Path(*dotted.split("."))
    return as_path.with_suffix(".py").exists() or (as_path / "__init__.py").exists()


def _relative_base(package: str, level: int) -> str:
    """The package that `level` leading dots name, seen from a module in `package`."""
    parts = package.split(".") if package else []
    return ".".join(parts[:len(parts) - (level - 1)])


def _joined(*parts: str | None) -> str:
    return ".".join(p for p in parts if p)


def _import_call(node: ast.Call, package: str) -> str | None:
    """The module an `importlib.import_module(...)` or `__import__(...)` call loads, or
    COMPUTED when its name is not written out; None for any other call."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in ("import_module", "__import__"):
        return None
    args = list(node.args) + [k.value for k in node.keywords if k.arg in ("name", "package")]
    if not args or not isinstance(args[0], ast.Constant) or not isinstance(args[0].value, str):
        return COMPUTED
    target: str = args[0].value
    if name == "import_module" and target.startswith("."):
        dots = len(target) - len(target.lstrip("."))
        anchor = args[1] if len(args) > 1 else None
        if not isinstance(anchor, ast.Constant) or not isinstance(anchor.value, str):
            return COMPUTED
        return _joined(_relative_base(anchor.value, dots), target.lstrip("."))
    return target


def _imports_in(source: str, module: str, is_package: bool = False) -> set[str]:
    """Dotted names `module`'s source imports, with `from a import b` read as `a.b` when
    that is a module, and relative imports resolved against `module`'s package."""
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = (_joined(_relative_base(package, node.level), node.module) if node.level
                    else node.module or "")
            if base:
                names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names if _is_module(f"{base}.{a.name}"))
        elif isinstance(node, ast.Call):
            loaded = _import_call(node, package)
            if loaded is not None:
                names.add(loaded)
    return names


def _imports(path: Path) -> set[str]:
    return _imports_in(path.read_text(encoding="utf-8"), _module_name(path),
                       is_package=path.name == "__init__.py")


def _wrong_way(module: str, imported: set[str]) -> list[str]:
    """The imports of `module` that do not point down the layers."""
    me = _layer(module)
    wrong = []
    for name in sorted(imported):
        if name.split(".")[0] not in PROJECT:
            continue
        target = _layer(name)
        if target is None or target == me:
            continue
        if me is None or RANK[target] >= RANK[me]:
            wrong.append(f"{module} ({me}) imports {name} ({target})")
    return wrong


def _not_apart(module: str, imported: set[str]) -> list[str]:
    """The imports of `module` that break a `SIM_APART` rule."""
    def within(name: str, package: str) -> bool:
        return name == package or name.startswith(package + ".")
    return [f"{module} imports {name}: {why}" for (importer, banned), why in SIM_APART.items()
            if within(module, importer) for name in sorted(imported) if within(name, banned)]


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
    wrong = [line for path in _project_modules()
             for line in _wrong_way(_module_name(path), _imports(path))]
    assert not wrong, "imports that do not point down:\n" + "\n".join(wrong)


def test_the_rules_and_the_tower_never_import_the_bots():
    wrong = [line for path in _sim_modules()
             for line in _not_apart(_module_name(path), _imports(path))]
    assert not wrong, "\n".join(wrong)


def test_no_module_is_imported_by_a_computed_name():
    """`importlib.import_module(name)` with `name` built at run time hides what it loads
    from every check above."""
    hidden = [p.relative_to(ROOT).as_posix() for p in _project_modules() if COMPUTED in _imports(p)]
    assert not hidden, f"modules importing by a computed name: {hidden}"


@pytest.mark.parametrize("module", sorted(WITHOUT_PYMUNK))
def test_loads_without_pymunk(module):
    """Run in a fresh interpreter: this test process has long loaded pymunk."""
    probe = f"import sys, {module}; assert 'pymunk' not in sys.modules, 'pymunk loaded'"
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, f"import {module}: {WITHOUT_PYMUNK[module]}, but\n{run.stderr}"


def test_the_checker_sees_a_wrong_import():
    """The rule itself: a net module importing the client, or a widget importing a scene, is
    caught (so the test above cannot pass by reading nothing)."""
    assert RANK[_layer("client.scenes.menu")] > RANK[_layer("client.widgets.dialog")]
    assert RANK[_layer("net.table.session")] > RANK[_layer("net.transport.peer")]
    assert _layer("net.transport.peer") == "net.transport"
    source = "from client.scenes.menu import MenuScene\nimport net.table.session\n"
    assert _imports_in(source, "net.transport.peer") == {"client.scenes.menu", "net.table.session"}
    assert len(_wrong_way("net.transport.peer", _imports_in(source, "net.transport.peer"))) == 2


@pytest.mark.parametrize("module, source, caught", [
    # a relative import: read as the module it names
    ("net.transport.peer", "from ..table import session\n", "net.table.session"),
    ("client.widgets.dialog", "from ..scenes.menu import MenuScene\n", "client.scenes.menu"),
    ("net.trust", "from ..table import session\n", "net.table.session"),
    # importlib and __import__, the name written out
    ("net.transport.peer", "import importlib\nimportlib.import_module('client.app')\n",
     "client.app"),
    ("store.game_save", "from importlib import import_module\nimport_module('net.table')\n",
     "net.table"),
    ("sim.game", "__import__('client.scenes.menu')\n", "client.scenes.menu"),
    ("net.trust.keys", "import importlib\nimportlib.import_module('.session', 'net.table')\n",
     "net.table.session"),
])
def test_the_checker_sees_a_hidden_wrong_import(module, source, caught):
    imported = _imports_in(source, module, is_package=module == "net.trust")
    assert caught in imported
    assert any(f"imports {caught} " in line for line in _wrong_way(module, imported))


@pytest.mark.parametrize("module, source", [
    ("sim.tower.fallback", "from sim.bots.tower_model import RATES\n"),
    ("sim.tower.fallback", "from sim.bots import tower_model\n"),
    ("sim.tower.fallback", "from ..bots.tower_model import model_drop\n"),
    ("sim.tower", "from ..bots import search\n"),
    ("sim.rules.battle", "import sim.bots\n"),
    ("sim.rules.battle", "import importlib\nimportlib.import_module('sim.bots.search')\n"),
])
def test_the_checker_sees_the_rules_or_the_tower_importing_a_bot(module, source):
    imported = _imports_in(source, module, is_package=module == "sim.tower")
    assert _not_apart(module, imported), imported
    assert not _not_apart("sim.local", imported)        # a local game seats bots: allowed


def test_the_checker_sees_an_import_by_a_computed_name():
    source = "import importlib\nname = 'cli' + '.runner'\nimportlib.import_module(name)\n"
    assert COMPUTED in _imports_in(source, "net.table.session")
    assert COMPUTED in _imports_in("__import__(f'{x}.game')\n", "sim.fast")
    assert COMPUTED not in _imports_in("import importlib.util\nimportlib.util.find_spec('x')\n",
                                       "client.core.node")
