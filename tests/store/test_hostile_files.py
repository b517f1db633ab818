"""A hostile save or log gives a sentence, never a traceback (issue 34 item 5), in process.

Every crafted file (`tests/store/hostile_files.py`) goes through the readers in `store`
the way `replay` and `headless --resume` use them: either it is read (a wrong value may be
a value the rules allow), or a `SaveError` names the file, the line and what is wrong,
in one line. Before this, 7 of 31 such files raised `RecursionError` or `StopIteration`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lang.i18n import use
from sim.local import LocalGame
from store import json_lines
from store.event_check import event_problem
from store.game_log import is_log, read_log
from store.game_save import SaveError, read_save, replay_into
from tests.store.hostile_files import Honest, core, honest_game, wrong_types

FILE_LEVEL = ("is empty", "holds no events", "cannot be read")   # no line to name


@pytest.fixture(scope="module")
def honest(tmp_path_factory) -> Honest:
    return honest_game(tmp_path_factory.mktemp("honest"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, honest) -> list[Path]:
    folder = tmp_path_factory.mktemp("hostile")
    return core(folder, honest) + wrong_types(folder, honest)


def read_as_the_cli_does(path: Path, verify: bool) -> None:
    """`replay --text` (a log is told, a save replayed) or `replay --verify`."""
    if not verify and is_log(path):
        read_log(path)
        return
    saved = read_save(path)
    replay_into(LocalGame(saved.config, saved.seed, dict(enumerate(saved.bots))), saved)


def assert_one_line_naming(exc: SaveError, path: Path) -> None:
    text = str(exc)
    assert "\n" not in text, text
    assert text.startswith(str(path)), text
    if not any(word in text for word in FILE_LEVEL):
        assert re.match(re.escape(str(path)) + r", line \d+: \S", text), text


def test_the_corpus_covers_what_the_issue_names(corpus):
    names = {p.stem for p in corpus}
    for word in ("deep", "huge", "truncated", "msgpack", "wrong-hash", "empty", "non-utf8",
                 "binary", "unknown"):
        assert any(word in n for n in names), word
    kinds = {n.split("-")[1] for n in names if n.startswith("log-") and n.count("-") >= 3}
    assert len(kinds) >= 20                  # every event kind of the honest game
    assert len(corpus) > 1000


@pytest.mark.parametrize("verify", [True, False], ids=["verify", "text"])
def test_every_crafted_file_is_read_or_refused_with_one_line(corpus, verify):
    refused = 0
    for path in corpus:
        try:
            read_as_the_cli_does(path, verify)
        except SaveError as exc:
            assert_one_line_naming(exc, path)
            refused += 1
    assert refused > len(corpus) // 2


def test_the_named_cases_are_all_refused(honest, tmp_path):
    """Every case of `core` is wrong in a way both readers must see (a save's torn last
    line is the one exception a save allows, and no case here is only that)."""
    for path in core(tmp_path, honest):
        for verify in (True, False):
            with pytest.raises(SaveError) as caught:
                read_as_the_cli_does(path, verify)
            assert_one_line_naming(caught.value, path)


def test_a_hash_mismatch_shows_both_hashes_in_full(honest, tmp_path):
    rows = list(honest.save)
    row = json.loads(rows[40])
    rows[40] = json.dumps({**row, "hash": "f" * 64}).encode()
    path = tmp_path / "tampered.save"
    path.write_bytes(b"\n".join(rows) + b"\n")
    saved = read_save(path)
    with pytest.raises(SaveError) as caught:
        replay_into(LocalGame(saved.config, saved.seed, {}), saved)
    text = str(caught.value)
    assert f"{path}, line 41:" in text
    assert "f" * 64 in text and row["hash"] in text       # both, all 64 characters


def test_a_line_longer_than_the_limit_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    path = tmp_path / "long.save"
    path.write_bytes(b'{"pad":"' + b"a" * (json_lines.MAX_LINE + 10) + b'"}\n')
    parsed: list[int] = []
    real = json_lines.json.loads
    monkeypatch.setattr(json_lines.json, "loads", lambda text: parsed.append(len(text)) or real(text))
    with pytest.raises(SaveError, match="longer than"):
        read_save(path)
    assert parsed == []


@pytest.mark.parametrize("row, problem", [
    ({"event": "GameStarted", "players": 3, "side": "sun", "setup": "beginner",
      "money": {"0": 18}}, None),
    ({"event": "GameStarted", "players": 3, "side": "sun", "setup": "beginner",
      "money": {"0": "18"}}, ("GameStarted", "money.0")),
    ({"event": "GameStarted", "players": 3, "side": "sun", "setup": "beginner"},
     ("GameStarted", "money")),
    ({"event": "Moved", "seat": 7, "from": "Izu", "to": "Izu", "count": 1}, ("Moved", "seat")),
    ({"event": "Moved", "seat": 1, "from": "Atlantis", "to": "Izu", "count": 1}, ("Moved", "from")),
    ({"event": "Moved", "seat": True, "from": "Izu", "to": "Izu", "count": 1}, ("Moved", "seat")),
    ({"event": "YearStarted", "year": 1, "events": [1, 2**40]}, ("YearStarted", "events.1")),
    ({"event": "CardTurned", "seat": 0, "action": "tax", "province": None}, None),
    ({"event": "GameEnded", "scores": {"7": 1}, "money": {}, "winners": []},
     ("GameEnded", "scores.7")),
    ({"event": "PlanRevealed", "seat": 0, "actions": {"tax": "Atlantis"}, "bid": 1},
     ("PlanRevealed", "actions.tax")),
    ({"event": "PlanRevealed", "seat": 0, "actions": {"nuke": None}, "bid": 1},
     ("PlanRevealed", "actions.nuke")),
    ({"event": "Exploded"}, ("Exploded", "event")),
    ({"event": 3}, ("", None)),
    ([1, 2], ("", None)),
    ({"event": "GameStarted", "seq": "0", "players": 3, "side": "sun", "setup": "beginner",
      "money": {}}, ("GameStarted", "seq")),
])
def test_an_event_is_checked_against_its_record(row, problem):
    assert event_problem(row) == problem


def test_the_message_is_said_in_the_players_language(honest, tmp_path):
    path = tmp_path / "empty-money.log"
    started = json.loads(honest.log[0])
    path.write_bytes(json.dumps({**started, "money": {}}).encode() + b"\n")
    with pytest.raises(SaveError) as caught:
        read_log(path)
    english = str(caught.value)
    try:
        use("nl")
        dutch = caught.value.said()
    finally:
        use("en")
    assert "GameStarted" in english and str(path) in dutch and "line 1" not in dutch
    assert dutch != english
