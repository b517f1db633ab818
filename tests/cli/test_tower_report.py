"""`./shogun tower`: every band printed as a sentence with its figure, and the plot."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from cli import tower_report
from sim.tower import build

pytestmark = pytest.mark.slow


def test_report_prints_every_band_and_writes_the_plot(tmp_path, capsys):
    plot = tmp_path / "tower.png"
    assert tower_report.run(SimpleNamespace(drops=40, seed=3, plot=str(plot))) == 0
    text = capsys.readouterr().out
    for needle in ("1 game-like sequence of 40 battles", "(band 4-8)", "at most 40%",
                   "(band 60-85%)", "at least 90%", "no permanent column",
                   "released cubes (band: none)", "60 cubes into a tower holding 15",
                   "self-test digest", "canary digest", f"Plot written to {plot}"):
        assert needle in text, needle
    assert "{" not in text and "Summary(" not in text      # sentences, not reprs
    assert plot.stat().st_size > 20_000 and plot.read_bytes()[:4] == b"\x89PNG"


def test_selftest_prints_the_build_and_the_digest(capsys):
    assert tower_report.run(SimpleNamespace(drops=40, seed=3, plot=None, selftest=True)) == 0
    line, verdict = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"physics: (deterministic|platform)  digest [0-9a-f]{64}", line)
    assert ("runs the verified tower" in verdict) == (line == "physics: deterministic  digest "
                                                      + build.DETERMINISTIC_DIGEST)
