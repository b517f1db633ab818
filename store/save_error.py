"""The error of a save or game log that cannot be used, one class for every kind of file.

Why one: the local game's save (`store.game_save`), its JSON game log (`store.game_log`) and
a network player's save journal (`store.table_save`) fail for the same reasons a player
must read (damaged, unreadable, hostile, from another version), and a caller that handles
one should not miss the other. The modules re-export it, so `from store.game_save import
SaveError` and `from store.table_save import SaveError` name this class.

Why a problem and fields rather than a finished text: the message is a sentence for the
player, in the player's language. `problem` is a marked msgid (`N_`) with named fields;
`str(error)` is the English line (logs, tests, the scripts that read `replay`'s output),
`said()` the same line from the catalogue. Both name the file and, where there is one,
the line: "game.save, line 12: the state hash after its command, … differs …".

Tests: tests/store/test_hostile_files.py, tests/store/test_table_save.py,
tests/cli/test_headless.py.
"""

from __future__ import annotations

from typing import Any, Callable

from lang.i18n import N_, _

WHERE_LINE = N_("{path}, line {line}: {problem}")
WHERE_FILE = N_("{path}: {problem}")


class SaveError(ValueError):
    """A save or log that cannot be used or trusted; the message says which file, which
    line and why. `SaveError("text")` (one finished English text) still works."""

    def __init__(self, problem: str, path: object = None, line: int | None = None,
                 **fields: Any) -> None:
        self.problem = problem
        self.path = None if path is None else str(path)
        self.line = line
        self.fields = fields
        super().__init__(self._line(lambda text: text))

    def _line(self, tr: Callable[[str], str]) -> str:
        try:
            problem = tr(self.problem).format(**self.fields) if self.fields else tr(self.problem)
        except (KeyError, IndexError, ValueError):      # a broken translation: English
            problem = self.problem.format(**self.fields) if self.fields else self.problem
        if self.path is None:
            return problem
        if self.line is None:
            return tr(WHERE_FILE).format(path=self.path, problem=problem)
        return tr(WHERE_LINE).format(path=self.path, line=self.line, problem=problem)

    def said(self) -> str:
        """The line in the player's language."""
        return self._line(_)
