"""Explicit `Any` in function signatures, per package (issue 50's figure: at most 20 each
in `net` and `client`): every function or method whose parameters or return annotation
name `Any` (`Any`, `typing.Any`, or inside a type such as `dict[str, Any]`), listed as
'path:line name'. A count of signatures, not of mentions.

Why a script: the target is counted the same way before and after a change, and CI
prints the list (.ci/run) so the ones left are in view.

Run: .venv/bin/python tools/seams/any_signatures.py [--list] [--at-most PACKAGE=N ...]
     [PACKAGE ...]   (default: net client)
`--at-most net=N` exits 1 when net names Any in more than N signatures: .ci/run holds net
to its figure so the count only goes down (the goal is 20; docs/architecture.md says which
kinds are left and why).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _names_any(node: ast.expr | None) -> bool:
    if node is None:
        return False
    if isinstance(node, ast.Constant) and isinstance(node.value, str):   # a quoted annotation
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return False
    return any((isinstance(n, ast.Name) and n.id == "Any") or
               (isinstance(n, ast.Attribute) and n.attr == "Any") or
               (isinstance(n, ast.Constant) and isinstance(n.value, str) and "Any" in n.value)
               for n in ast.walk(node))


def any_signatures(package: str) -> list[str]:
    """'path:line name' of every function in `package` whose signature names Any."""
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text())
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            a = fn.args
            params = [*a.posonlyargs, *a.args, *a.kwonlyargs,
                      *([a.vararg] if a.vararg else []), *([a.kwarg] if a.kwarg else [])]
            if _names_any(fn.returns) or any(_names_any(p.annotation) for p in params):
                found.append(f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name}")
    return found


def signatures(package: str) -> int:
    return sum(1 for path in (ROOT / package).rglob("*.py")
               for fn in ast.walk(ast.parse(path.read_text()))
               if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)))


def _limits(argv: list[str]) -> tuple[dict[str, int], list[str]]:
    """`--at-most PACKAGE=N` pairs, and the other arguments."""
    limits: dict[str, int] = {}
    rest: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--at-most":
            package, _, n = next(it, "").partition("=")
            if not package or not n.isdigit():
                raise SystemExit("--at-most wants PACKAGE=N, such as net=20")
            limits[package] = int(n)
        else:
            rest.append(arg)
    return limits, rest


def main(argv: list[str]) -> int:
    limits, argv = _limits(argv)
    show = "--list" in argv
    packages = [a for a in argv if not a.startswith("--")] or ["net", "client"]
    over = False
    for package in [*packages, *(p for p in limits if p not in packages)]:
        found = any_signatures(package)
        print(f"{package}: Any in {len(found)} of {signatures(package)} function signatures")
        if show:
            for line in found:
                print("    " + line)
        if package in limits and len(found) > limits[package]:
            print(f"{package}: {len(found)} signatures name Any, more than the {limits[package]} "
                  "allowed: type the new ones (a Protocol, a TypedDict, or object narrowed)",
                  file=sys.stderr)
            over = True
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
