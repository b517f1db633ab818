"""The figures issue 35 sets for net/: how many fields of the table's shared record
three or more parts use, the largest classes by attribute count, the longest modules,
and how many message lookups (`msg["step"]`, `msg.get("seat")`) read an untyped map.

Why a script: the targets ("at most 8 shared fields used by three or more parts", "no
product class over 30 attributes") are counted the same way before and after a change.
A *part* is a module of net/table other than the record's own; a *use* is an attribute
read or written on the record (`self._shared.X`, or a local bound to `self._shared`),
or, in the session, a `Delegated("shared")` attribute. An attribute of a class is a
name assigned on `self` in its methods or annotated in its body. A message lookup is
typed when, in its function, `msg` is annotated with a record of
`net.transport.message_records` (or `Message`) or bound by `checked(...)`; else untyped.

Run: .venv/bin/python tools/seams/net_figures.py [--all]
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORD_MODULE = ROOT / "net/table/shared.py"
RECORD = "TableState"


def record_fields() -> list[str]:
    tree = ast.parse(RECORD_MODULE.read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == RECORD:
            return [n.target.id for n in node.body
                    if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
    return []


def _is_record(node: ast.expr, aliases: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in aliases
    return isinstance(node, ast.Attribute) and node.attr in ("_shared", "shared") \
        and isinstance(node.value, ast.Name) and node.value.id == "self"


def uses(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    aliases = {"shared"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _is_record(node.value, set()):
            aliases |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    found = {n.attr for n in ast.walk(tree)
             if isinstance(n, ast.Attribute) and _is_record(n.value, aliases)}
    for node in ast.walk(tree):       # the session's Delegated("shared") attributes
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and node.value.args and isinstance(node.value.args[0], ast.Constant) \
                and node.value.args[0].value == "shared":
            found |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return found


def shared_fields() -> dict[str, list[str]]:
    fields = record_fields()
    users: dict[str, list[str]] = defaultdict(list)
    for path in sorted((ROOT / "net/table").rglob("*.py")):
        if path == RECORD_MODULE:
            continue
        for name in uses(path) & set(fields):
            users[name].append(path.stem)
    return {f: users.get(f, []) for f in fields}


OWNED = {"_roster": "Roster", "_start": "StartRecord", "_me": "Identity",
         "_setting": "TableSetting"}
MUTATORS = {"append", "remove", "pop", "clear", "update", "add", "discard", "setdefault"}


def _on_record(node: ast.expr, attr: str) -> bool:
    """`node` is `self.<attr>.field` or something inside it (`self._start.chain_ends[s]`)."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute) and node.attr == attr \
                and isinstance(node.value, ast.Name) and node.value.id == "self":
            return True
        node = node.value
    return False


def owned_records() -> dict[str, tuple[list[str], list[str]]]:
    """Each owned record: the parts that use it, and those that write one of its fields."""
    found: dict[str, tuple[list[str], list[str]]] = {n: ([], []) for n in OWNED.values()}
    for path in sorted((ROOT / "net/table").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for attr, name in OWNED.items():
            users, writers = found[name]
            uses_it = any(isinstance(n, ast.Attribute) and n.attr == attr
                          for n in ast.walk(tree))
            writes = False
            for node in ast.walk(tree):
                targets: list[ast.expr] = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                    targets = [node.target]
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr in MUTATORS:
                    targets = [node.func.value]
                writes |= any(isinstance(t, (ast.Attribute, ast.Subscript))
                              and _on_record(t.value if isinstance(t, ast.Attribute) else t,
                                             attr) for t in targets)
            if uses_it:
                users.append(path.stem)
            if writes:
                writers.append(path.stem)
    return found


def class_attributes(root: Path) -> list[tuple[int, str]]:
    sizes = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for cls in ast.walk(tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            names = {n.target.id for n in cls.body
                     if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
            for node in ast.walk(cls):
                targets: list[ast.expr] = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                    targets = [node.target]
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) \
                            and t.value.id == "self":
                        names.add(t.attr)
            sizes.append((len(names), f"{path.relative_to(ROOT)}:{cls.name}"))
    return sorted(sizes, reverse=True)


RECORDS_MODULE = ROOT / "net/transport/message_records.py"


def _record_names() -> set[str]:
    if not RECORDS_MODULE.exists():
        return set()
    tree = ast.parse(RECORDS_MODULE.read_text())
    return {n.name for n in tree.body if isinstance(n, ast.ClassDef)} | {"Message"}


def _key_lookups(fn: ast.AST, name: str) -> int:
    """`name["key"]` and `name.get("key"...)` in `fn` (nested functions included)."""
    count = 0
    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and node.value.id == name and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str):
            count += 1
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "get" and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == name and node.args \
                and isinstance(node.args[0], ast.Constant):
            count += 1
    return count


def message_lookups(root: Path) -> tuple[int, int]:
    """(typed, untyped) lookups on a local named `msg` in the modules under `root`."""
    records = _record_names()
    typed = untyped = 0
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text())
        outer = [f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and not any(f in ast.walk(g) and f is not g for g in ast.walk(tree)
                             if isinstance(g, (ast.FunctionDef, ast.AsyncFunctionDef)))]
        for fn in outer:
            n = _key_lookups(fn, "msg")
            if not n:
                continue
            annotations = [a.annotation for a in ast.walk(fn)
                           if isinstance(a, ast.arg) and a.arg == "msg" and a.annotation]
            annotations += [a.annotation for a in ast.walk(fn) if isinstance(a, ast.AnnAssign)
                            and isinstance(a.target, ast.Name) and a.target.id == "msg"]
            bound = any(isinstance(a, ast.Assign) and isinstance(a.value, ast.Call)
                        and isinstance(a.value.func, ast.Name) and a.value.func.id == "checked"
                        and any(isinstance(t, ast.Name) and t.id == "msg" for t in a.targets)
                        for a in ast.walk(fn))
            named = {x.id for ann in annotations for x in ast.walk(ann) if isinstance(x, ast.Name)}
            if bound or named & records:
                typed += n
            else:
                untyped += n
    return typed, untyped


def longest_modules(root: Path) -> list[tuple[int, str]]:
    return sorted(((len(p.read_text().splitlines()), str(p.relative_to(ROOT)))
                   for p in root.rglob("*.py")), reverse=True)


def main() -> None:
    fields = shared_fields()
    wide = {f: u for f, u in fields.items() if len(u) >= 3}
    print(f"{RECORD}: {len(fields)} fields; used by 3 or more parts: {len(wide)}")
    for name, users in sorted(fields.items(), key=lambda kv: -len(kv[1])):
        if "--all" in sys.argv or len(users) >= 3:
            print(f"  {name:14} {len(users):2}  {' '.join(users)}")
    print("records with owners, passed to the parts that need them (users; writers):")
    for name, (users, writers) in owned_records().items():
        print(f"  {name:13} {len(users):2} parts; written by {' '.join(writers) or 'none'}")
    sizes = class_attributes(ROOT / "net")
    print("largest classes in net/ (attributes):")
    for n, name in sizes[:6]:
        print(f"  {n:3}  {name}")
    print("longest modules in net/ (lines):")
    for n, name in longest_modules(ROOT / "net")[:5]:
        print(f"  {n:4}  {name}")
    typed, untyped = message_lookups(ROOT / "net")
    print(f"msg lookups in net/: {typed + untyped}; on a message record: {typed}; "
          f"on an untyped map: {untyped}")


if __name__ == "__main__":
    main()
