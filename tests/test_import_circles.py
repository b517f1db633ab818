"""No import circle runs, at import time or at call time (issue 50).

`tests/test_layering.py` checks that imports point down between packages; inside a
package two modules could still import each other, one of them from inside a function to
dodge the error a circle raises at import time (`sim.bots` and its search did; the window's
network session and joining by code did). Such a circle still runs whenever the function
is called, and it ties the two modules into one idea.

The check: every import of a project module (at the top, in a function, in a class;
`if TYPE_CHECKING:` blocks aside, which never run) is an edge of a graph over the
project's modules, and the graph has no cycle (Tarjan's strongly connected components,
each listed if it has more than one module). A package's `__init__` running before its
submodules is Python's, not an edge: `from sim.bots import heuristic` is an edge to
`sim.bots.heuristic` only.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "net", "client", "cli", "store", "lang")


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    found = {_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    found["main"] = ROOT / "main.py"
    return found


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def import_graph() -> dict[str, set[str]]:
    """{module: the project modules it imports anywhere that runs}."""
    modules = _modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        edges: set[str] = set()

        def walk(node: ast.AST) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _type_checking(child):
                    for other in child.orelse:
                        walk_one(other)
                    continue
                walk_one(child)

        def walk_one(node: ast.AST) -> None:
            if isinstance(node, ast.Import):
                edges.update(filter(None, (known(a.name) for a in node.names)))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
                for alias in node.names:
                    sub = known(f"{base}.{alias.name}") if base else None
                    target = sub if sub is not None and sub != base else known(base)
                    if target is not None:
                        edges.add(target)
            else:
                walk(node)

        walk(ast.parse(path.read_text()))
        edges.discard(module)
        graph[module] = edges
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_no_import_circle_runs():
    assert circles(import_graph()) == []


def test_the_check_sees_a_circle_through_a_function_level_import():
    """The control: a circle closed only inside a function is found."""
    graph = {"a": {"b"}, "b": {"c"}, "c": set()}
    assert circles(graph) == []
    graph["c"] = {"a"}
    assert circles(graph) == [["a", "b", "c"]]


def test_function_level_imports_are_edges():
    graph = import_graph()
    # client.app imports the session factory inside its methods (kept out of the start-up)
    assert "client.session_factory" in graph["client.app"]
