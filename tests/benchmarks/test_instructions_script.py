"""`benchmarks/instructions.py` counts the same game twice (a table, then its local replay)
in separate processes; that rests on a seed fixing the whole table game. Checked here
natively with a 3-peer table (no valgrind: counting takes minutes)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "instructions.py"


def record(tmp_path: Path, seed: str, name: str) -> dict:
    log = tmp_path / name
    out = subprocess.run([sys.executable, str(SCRIPT), "--driver", "record", "--log", str(log),
                          "--seed", seed, "--players", "3"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "PYTHONHASHSEED": "0"})
    assert out.returncode == 0, out.stderr[-2000:]
    assert "native CPU" in out.stdout
    return pickle.loads(log.read_bytes())


def test_a_seed_fixes_the_table_game(tmp_path):
    first, again = record(tmp_path, "a", "1"), record(tmp_path, "a", "2")
    other = record(tmp_path, "b", "3")
    assert first["commands"] == again["commands"] and first["hash"] == again["hash"]
    assert other["hash"] != first["hash"]
