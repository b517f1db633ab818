"""The window's loaders meet a hostile save or log with a message, not a crash (issue 34
item 5): `ReplaySession` (Replay in the menu: a save or a JSON log) and `resume_local`
(Continue and Load) either open the file or raise a `SaveError`, whose `said()` is the
one line the menu shows. Every crafted file of `tests/store/hostile_files.py`, in process.
"""

from __future__ import annotations

import pytest

from client.sessions.replay import ReplaySession, resume_local
from store.save_error import SaveError
from tests.store.hostile_files import core, honest_game, wrong_types


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    honest = honest_game(folder)
    return core(folder, honest), wrong_types(folder, honest)


def _open(loader, path):
    """None when the loader opened the file; the message otherwise."""
    try:
        session = loader(str(path))
    except SaveError as exc:       # what the menu shows (`App.load_save`, `App.replay_log`)
        message = exc.said() if hasattr(exc, "said") else str(exc)
        assert "\n" not in message and str(path) in message, message
        return message
    session = session[0] if isinstance(session, tuple) else session
    getattr(session, "close", lambda: None)()
    return None


@pytest.mark.parametrize("loader", [ReplaySession, resume_local], ids=["replay", "continue"])
def test_every_crafted_file_opens_or_gives_a_message(corpus, loader):
    named, typed = corpus
    for path in named:
        assert _open(loader, path) is not None, path.name
    messages = [_open(loader, path) for path in typed]
    assert sum(m is not None for m in messages) > len(typed) // 2
