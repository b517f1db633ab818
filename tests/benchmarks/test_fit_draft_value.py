"""`benchmarks/bots/fit_draft_value.py` (issue 40): a game's finished draft is rebuilt from
its log (R-SETUP-5's claims) and read as `draft_value` reads a state."""

from __future__ import annotations

import gzip
import json

from benchmarks.bots.fit_draft_value import NAMES, finished_draft, seat_features
from sim.bots import draft_value


def test_a_finished_draft_is_rebuilt_from_its_claims_and_read_as_the_bot_reads_it(tmp_path):
    events = [
        {"event": "ProvinceClaimed", "seat": 0, "province": "Aki", "armies": 2},
        {"event": "ProvinceClaimed", "seat": 1, "province": "Bingo", "armies": 5},
        {"event": "ProvinceClaimed", "seat": 2, "province": "Kaga", "armies": 3},
        {"event": "GameEnded", "scores": {"0": 30, "1": 41, "2": 35, "3": 12}},
    ]
    log = tmp_path / "game.jsonl.gz"
    with gzip.open(log, "wt") as f:
        f.writelines(json.dumps(e) + "\n" for e in events)
    state, scores = finished_draft(log)
    assert scores == [30, 41, 35, 12]
    owned = {n: (p.owner, p.armies) for n, p in state.provinces.items() if p.owner is not None}
    assert owned == {"Aki": (0, 2), "Bingo": (1, 5), "Kaga": (2, 3)}
    rows = seat_features(state)
    assert rows.shape == (4, len(NAMES))
    for seat, f in enumerate(draft_value.features(state)):     # the first four are the bot's
        assert list(rows[seat][:4]) == [f.borders, f.outgunned, f.leads, f.ties]
    assert list(rows[0][:4]) == [1, 3, 0, 1]    # Aki borders Bingo: 5 armies against 2
