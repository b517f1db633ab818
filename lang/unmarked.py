"""Which player-facing string literals in a module are not marked for translation.

The rule (an AST walk, no running of the code), chosen to name few strings that are not for
players: a string literal or f-string with a word in it (two letters or more) is player-facing
when it is
  (a) text given to a call that shows or prints it: a `SINKS` name (its positional arguments,
      or only the one at the listed position) or any call's `TEXT_KEYWORDS` argument;
  (b) a value in a module-level table with an ALL-CAPS name (`LABELS = {...: "Your name"}`);
  (c) returned by a function annotated to return `str` (or `str | None`);
  (d) assigned to a name or attribute that holds text by its name (`TEXT_NAMES`:
      `self.status = "Replaying a game log"`, `title = "Winter scoring"`).
It is marked when it sits inside `_()`, `ngettext()`, `pgettext()`, `N_()` or `Nn_()` (or
their `tr.` forms). Lowercase identifier-like strings ("palace", "settings:name") nested in
such places are keys, not words, and are skipped; so are dict keys, subscripts, comparisons
and docstrings. An f-string with words is always reported: it cannot be translated whole.

`python -m lang.unmarked FILE...` prints what is left to mark, file by file.

Tests: tests/client/words/test_i18n.py (every player-facing literal is marked).
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

MARKERS = {"_", "ngettext", "pgettext", "gettext", "N_", "Nn_"}
# calls whose string arguments are patterns, paths or formats, never words for players
OPAQUE = {"compile", "strftime", "strptime", "Path", "open", "glob", "with_suffix", "getenv"}
# call name -> the positional argument holding the text (None: every positional argument)
SINKS: dict[str, int | None] = {
    "Button": 0, "set_label": 0, "TextField": 0, "Section": None, "ask": None,
    "set_message": 0, "set_status": 0, "_status": None, "show": 0, "print": None,
    "put": 1, "Text": 0, "draw_text": 0, "say": None, "tell": None, "notice": None,
    "log.add": 0, "log.extend": 0, "warn": 0, "title": 0, "put_fitted": 2, "put_boxed": 2,
}
TEXT_KEYWORDS = {"text", "label", "message", "title", "prompt", "hint", "tip", "tips",
                 "caption", "lines", "help"}
TEXT_NAMES = {"title", "head", "status", "message", "label", "text", "note", "hint", "tip",
              "prompt", "caption", "line", "lines", "summary", "tips"}
_WORD = re.compile(r"[A-Za-zÀ-ɏ]{2,}")
_KEYLIKE = re.compile(r"^[a-z0-9_:\-./#]*$")


@dataclass(frozen=True)
class Unmarked:
    path: str
    line: int
    text: str
    why: str
    span: tuple[int, int, int, int] = (0, 0, 0, 0)   # line, column, end line, end column
    fstring: bool = False

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r} ({self.why})"


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, (ast.Name, ast.Attribute)) and func.attr in ("add", "extend"):
            inner = func.value.id if isinstance(func.value, ast.Name) else func.value.attr
            if inner == "log":
                return f"log.{func.attr}"
        return func.attr
    return ""


def _text_of(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str)
                       else "{…}" for v in node.values)
    return None


class _Finder(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.found: list[Unmarked] = []
        self._seen: set[int] = set()

    def report(self, node: ast.expr, why: str, direct: bool) -> None:
        """Walk `node` (text that reaches a player) for unmarked literals."""
        text = _text_of(node)
        if text is not None:
            if id(node) in self._seen or not _WORD.search(text.replace("{…}", "")):
                return
            if not direct and isinstance(node, ast.Constant) and _KEYLIKE.match(text):
                return
            self._seen.add(id(node))
            self.found.append(Unmarked(self.path, node.lineno, text, why,
                                       (node.lineno, node.col_offset, node.end_lineno or node.lineno,
                                        node.end_col_offset or node.col_offset),
                                       isinstance(node, ast.JoinedStr)))
            return
        if isinstance(node, ast.Call):
            if _name(node.func) in MARKERS or _name(node.func) in OPAQUE:
                return
            if isinstance(node.func, ast.Attribute):      # "…".join(x), _("…").format(…)
                self.report(node.func.value, why, False)
            for a in node.args:
                self.report(a, why, False)
            for k in node.keywords:
                if k.arg is None or k.arg in TEXT_KEYWORDS or k.arg == "end":
                    self.report(k.value, why, False)
            return
        if isinstance(node, (ast.Compare, ast.Subscript)):
            if isinstance(node, ast.Subscript):
                self.report(node.value, why, False)
            return
        if isinstance(node, ast.Dict):
            for v in node.values:
                self.report(v, why, False)
            return
        if isinstance(node, ast.Lambda):
            self.report(node.body, why, False)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.report(child, why, isinstance(node, (ast.IfExp, ast.BinOp)) and direct)

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node.func)
        if name in SINKS:
            pos = SINKS[name]
            args = node.args if pos is None else node.args[pos:pos + 1]
            for a in args:
                self.report(a, f"shown by {name}()", True)
        for k in node.keywords:
            if k.arg in TEXT_KEYWORDS:
                self.report(k.value, f"{k.arg}= of {name or 'a call'}()", True)
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        ret = ast.unparse(node.returns) if node.returns else ""
        if ret in ("str", "str | None", "Optional[str]"):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Return) and sub.value is not None:
                    self.report(sub.value, f"returned by {node.name}()", True)
        self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            name = target.id if isinstance(target, ast.Name) else \
                target.attr if isinstance(target, ast.Attribute) else ""
            if name in TEXT_NAMES:
                self.report(node.value, f"assigned to {name}", True)
        self.generic_visit(node)


def _tables(tree: ast.Module, finder: _Finder) -> None:
    for stmt in tree.body:
        targets = []
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        if any(isinstance(t, ast.Name) and t.id.isupper() for t in targets):
            finder.report(value, "a table of words", False)


def unmarked(path: Path, root: Path | None = None) -> list[Unmarked]:
    """The player-facing literals in the module at `path` that are not marked."""
    rel = str(path.relative_to(root)) if root else str(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    finder = _Finder(rel)
    _tables(tree, finder)
    finder.visit(tree)
    return sorted(finder.found, key=lambda u: u.line)


def main(argv: list[str]) -> int:
    total = 0
    for name in argv:
        found = unmarked(Path(name))
        total += len(found)
        for u in found:
            print(u)
    print(f"{total} unmarked player-facing literals in {len(argv)} files")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
