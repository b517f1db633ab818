"""A hostile save or log gives a sentence, never a traceback (issue 34 item 5), as processes.

Each crafted file (`tests/store/hostile_files.py`: every named case, and for every event
and command kind one file with a wrong type) goes through `replay --verify`, `replay
--text` and `headless --resume` as a real `main.py` process with a deadline: nothing
hangs, and each either succeeds or exits non-zero with one line on stderr naming the file
and the line, and no "Traceback". The whole type matrix runs in process
(tests/store/test_hostile_files.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.store.hostile_files import core, honest_game, wrong_types

ROOT = Path(__file__).resolve().parents[2]
READERS = {"verify": ["replay", "{file}", "--verify"], "text": ["replay", "{file}", "--text"],
           "resume": ["headless", "--resume", "{file}", "--quiet"]}


def _sample(paths: list[Path]) -> list[Path]:
    """One wrong-type file per event kind, command kind, header and config (the first
    field, the first wrong value)."""
    seen: dict[str, Path] = {}
    for p in paths:
        if p.stem.endswith("-0"):
            seen.setdefault("-".join(p.stem.split("-")[:2]), p)
    return list(seen.values())


def run_reader(reader: str, path: Path) -> subprocess.CompletedProcess:
    argv = [a.format(file=path) for a in READERS[reader]]
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "LANGUAGE": "en",
                               "SHOGUN_HOME": str(path.parent)})


def assert_one_line_or_success(result: subprocess.CompletedProcess, path: Path) -> None:
    said = result.stderr
    assert "Traceback" not in said and "Traceback" not in result.stdout, said[-3000:]
    if result.returncode == 0:
        return
    assert result.returncode == 2, (result.returncode, said[-2000:])
    lines = said.strip().splitlines()
    assert len(lines) == 1, said
    assert re.fullmatch(r"error: " + re.escape(str(path)) + r"(, line \d+)?: \S.*", lines[0]), lines[0]


@pytest.mark.slow
@pytest.mark.network           # real processes (many: about 3 x 80 runs of main.py)
def test_every_reader_answers_every_crafted_file_with_one_line(tmp_path):
    honest = honest_game(tmp_path)
    named = core(tmp_path, honest)
    files = named + _sample(wrong_types(tmp_path, honest))
    assert len(named) >= 31 and len(files) >= 70

    def each_reader(path: Path) -> list[subprocess.CompletedProcess]:
        """The readers of one file, one after another (`--resume` last: it may write)."""
        return [run_reader(reader, path) for reader in READERS]

    # the files are independent (a reader writes only to the file it resumes): a few
    # files at a time, each of the ~240 processes mostly its imports; checked in order
    with ThreadPoolExecutor(max_workers=4) as pool:
        for path, results in zip(files, pool.map(each_reader, files)):
            for reader, result in zip(READERS, results):
                assert_one_line_or_success(result, path)
                if path in named:
                    assert result.returncode == 2, (reader, path.name, result.stdout[-500:])


def test_a_hash_mismatch_in_a_process_prints_both_hashes_in_full(tmp_path):
    honest = honest_game(tmp_path)
    path = next(p for p in core(tmp_path, honest) if p.stem == "wrong-hash")
    result = run_reader("verify", path)
    assert result.returncode == 2
    assert "f" * 64 in result.stderr
    assert re.search(r"state hash after command \d+, [0-9a-f]{64}, differs from the saved f{64}",
                     result.stderr), result.stderr
