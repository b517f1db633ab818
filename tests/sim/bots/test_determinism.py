"""The hard bots (the new `hard` with its year-long rollouts and its draft search, and the
frozen `hard_2025`) decide alike on every peer (issue 15, item 3; issue 29, item 6;
issue 40: draft takes and army-group places are searched too).

Bot seats in a network game are computed by every peer, so the search's answer must
depend only on the view, the seed and its fixed budget. The states are built here and
sent as bytes to child processes, one with a different hash seed and one with glibc's
AVX2/FMA code paths switched off (what a peer on another CPU runs); every candidate's
score must come out the same. Slow: a dozen searches per process.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from sim import bots
from sim.state import encode_state
from tests.sim.bots.bot_states import decision_states, draft_states

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
CHILD = """
import hashlib, sys
sys.path.insert(0, {root!r})
import msgpack
from sim import bots
from sim.state import decode_state
for raw, seat in msgpack.unpackb(sys.stdin.buffer.read()):
    for bot in ("hard", "hard_2025"):
        scores = bots.hard_scores(decode_state(raw), seat, hashlib.sha256(raw).digest(), bot)
        print(repr(scores))
"""


def _cases():
    found = (decision_states(11, ("plan",), 2, "draft")
             + decision_states(11, ("special", "move"), 4, "draft")
             + draft_states(11, 2, ("draft_take",), skip=3) + draft_states(11, 1, ("draft_place",)))
    return [(encode_state(s), seat) for s, seat in found]


def _in_child(payload: bytes, **env: str) -> str:
    out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT))],
                         input=payload, env={**os.environ, **env}, capture_output=True,
                         check=True, timeout=600)
    return out.stdout.decode()


def test_hard_decisions_equal_across_processes_and_cpu_paths():
    from sim.state import decode_state
    cases = _cases()
    assert len(cases) >= 5
    here = "".join(repr(bots.hard_scores(decode_state(raw), seat,
                                         hashlib.sha256(raw).digest(), bot)) + "\n"
                   for raw, seat in cases for bot in ("hard", "hard_2025"))
    payload = msgpack.packb(cases)
    other_hash = _in_child(payload, PYTHONHASHSEED="977")
    no_avx = _in_child(payload, PYTHONHASHSEED="3", GLIBC_TUNABLES="glibc.cpu.hwcaps=-AVX2,-FMA")
    assert here.count("\n") == 2 * len(cases) and "SubmitPlan" in here
    assert "DraftTake" in here and "DraftPlace" in here
    assert other_hash == here
    assert no_avx == here
