"""The headless runner, the JSON game log contract, save/resume and replay --verify."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from argparse import Namespace
from pathlib import Path

import pytest

from cli.headless import run as headless
from cli.replay import run as replay
from store.game_save import SaveError, read_save

ROOT = Path(__file__).resolve().parents[2]

# DESIGN.md's game-log table: event -> fields that must be present
LOG_FIELDS = {
    "GameStarted": {"players", "side", "setup", "money"},
    "ProvinceClaimed": {"seat", "province", "armies"},
    "TowerDropped": {"reason", "thrown", "out", "inside_after"},
    "YearStarted": {"year", "events"},
    "RoundStarted": {"year", "season", "specials"},
    "PlanRevealed": {"seat", "actions", "bid"},
    "EventDrawn": {"event_card"},
    "BidsRevealed": {"bids", "paid"},
    "CardTurned": {"seat", "action", "province"},
    "TurnOrderSet": {"order", "specials", "paid", "pick_order"},
    "ActionRevealed": {"slot", "action"},
    "ActionDone": {"seat", "action", "province", "paid", "money_gained", "rice_gained",
                   "armies_placed"},
    "ActionLapsed": {"seat", "action", "province", "rule", "reason"},
    "Moved": {"seat", "from", "to", "count"},
    "BattleResolved": {"kind", "province", "attacker", "defender", "unrest", "thrown", "out",
                       "attacker_count", "defender_count", "result", "survivors", "new_owner"},
    "WinterStarted": {"year", "rice_loss"},
    "Shortage": {"seat", "rice", "provinces", "shortage", "revolts", "extra_peasants", "drawn"},
    "Scored": {"seat", "provinces", "buildings", "majority_points", "gained", "score"},
    "Snapshot": {"state"},
    "GameEnded": {"scores", "money", "winners"},
}


def args(**kw) -> Namespace:
    base = dict(players=4, side="sun", setup="beginner", seed=1, bot=None, log=None, save=None,
                resume=None, quiet=True)
    base.update(kw)
    return Namespace(**base)


def final_hash(text: str) -> str:
    return [line for line in text.splitlines() if line.startswith("final state hash")][-1]


def test_headless_game_prints_the_whole_game(capsys):
    assert headless(args(quiet=False, players=5, seed=3)) == 0
    out = capsys.readouterr().out
    for needle in ("== Year 1", "-- Spring of year 1", "Turn order:", "battle for", "tower (",
                   "== Winter of year 2", "scores", "== Final standings", "Winner:"):
        assert needle in out


def test_json_log_follows_the_design_table(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert headless(args(log=str(log), players=3, setup="draft", side="moon", seed=4)) == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["seq"] for r in records] == list(range(len(records)))
    seen = set()
    for r in records:
        need = LOG_FIELDS.get(r["event"])
        if need:
            assert need <= set(r), f"{r['event']} lacks {need - set(r)}"
            seen.add(r["event"])
    assert {"GameStarted", "TowerDropped", "YearStarted", "RoundStarted", "PlanRevealed",
            "EventDrawn", "TurnOrderSet", "ActionRevealed", "ActionDone", "BattleResolved",
            "WinterStarted", "Scored", "Snapshot", "GameEnded"} <= seen
    snap = next(r for r in records if r["event"] == "Snapshot")["state"]
    assert {"provinces", "players", "tower", "peasant_supply"} <= set(snap)
    prov = next(iter(snap["provinces"].values()))
    assert {"owner", "armies", "buildings", "unrest"} <= set(prov)
    player = snap["players"]["0"]
    assert {"money", "rice", "score", "supply", "cards"} <= set(player)
    assert {"inside", "tray"} <= set(snap["tower"])
    assert records[-1]["event"] == "GameEnded"


def test_save_resumes_to_the_identical_final_state_from_any_cut(tmp_path, capsys):
    """A game killed at any point (even mid-line) resumes from its save to the same end."""
    full = tmp_path / "full.save"
    assert headless(args(save=str(full), seed=11)) == 0
    expected = final_hash(capsys.readouterr().out)
    data = full.read_bytes()
    for cut in (len(data) // 7, len(data) // 3 + 5, len(data) // 2 - 1, len(data) - 30):
        part = tmp_path / f"cut{cut}.save"
        part.write_bytes(data[:cut])
        assert headless(args(resume=str(part))) == 0
        assert final_hash(capsys.readouterr().out) == expected
        assert read_save(part).hashes == read_save(full).hashes  # the save is whole again


def test_resuming_a_finished_game_prints_its_end(tmp_path, capsys):
    save = tmp_path / "done.save"
    assert headless(args(save=str(save), seed=8)) == 0
    expected = final_hash(capsys.readouterr().out)
    assert headless(args(resume=str(save))) == 0
    out = capsys.readouterr().out
    assert "Final standings" in out and final_hash(out) == expected


def _wait_until_grown(path: Path, size: int, proc: subprocess.Popen[bytes],
                      timeout: float = 60.0) -> None:
    """Poll until the file at `path` holds at least `size` bytes (the game is under way)."""
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.stat().st_size >= size):
        assert proc.poll() is None, "the game ended before its save had grown"
        assert time.monotonic() < deadline, f"the save stayed under {size} bytes"
        time.sleep(0.002)


@pytest.mark.slow
def test_sigkilled_headless_game_resumes(tmp_path):
    """A game killed by SIGKILL while its save is being written resumes from that save to
    the end an uninterrupted game reaches. The kill is checked to have landed mid-game:
    the process died by the signal and the save it left was incomplete."""
    full, save = tmp_path / "full.save", tmp_path / "k.save"
    cmd = [sys.executable, str(ROOT / "main.py"), "headless", "--players", "5", "--seed", "9",
           "--quiet"]
    reference = subprocess.run(cmd + ["--save", str(full)], capture_output=True, text=True,
                               check=True, timeout=120)
    complete = read_save(full)
    proc = subprocess.Popen(cmd + ["--save", str(save)], stdout=subprocess.DEVNULL)
    _wait_until_grown(save, full.stat().st_size // 5, proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    cut = read_save(save)
    kept, whole = len(cut.hashes), len(complete.hashes)
    assert kept < whole, f"the save holds all {whole} commands: the game was over"
    assert cut.hashes == complete.hashes[:kept]
    resumed = subprocess.run(cmd[:2] + ["headless", "--resume", str(save), "--quiet"],
                             capture_output=True, text=True, check=True, timeout=120)
    assert final_hash(resumed.stdout) == final_hash(reference.stdout)


@pytest.mark.parametrize("damage, message", [
    (lambda b: b[:10], "header line is incomplete"),
    (lambda b: b"garbage\n" + b, "not JSON"),
    (lambda b: b.replace(b'"hash":"', b'"hash":"0', 1), "wrong or missing hash"),
    (lambda b: b.replace(b'"n":3,', b'"n":4,', 1), "out of order"),
    (lambda b: b.replace(b'"type":"PickSpecial"', b'"type":"Nuke"', 1), "damaged"),
])
def test_corrupt_save_gives_a_clear_error_and_overwrites_nothing(tmp_path, capsys, damage, message):
    good = tmp_path / "good.save"
    assert headless(args(save=str(good), seed=2)) == 0
    capsys.readouterr()
    bad = tmp_path / "bad.save"
    bad.write_bytes(damage(good.read_bytes()))
    before = bad.read_bytes()
    assert headless(args(resume=str(bad))) == 2
    err = capsys.readouterr().err
    assert "error:" in err and message in err
    assert bad.read_bytes() == before


def test_tampered_command_is_caught_by_its_hash(tmp_path, capsys):
    good = tmp_path / "good.save"
    assert headless(args(save=str(good), seed=2)) == 0
    lines = good.read_bytes().split(b"\n")
    row = json.loads(lines[40])
    row["hash"] = "f" * 64
    lines[40] = json.dumps(row).encode()
    bad = tmp_path / "bad.save"
    bad.write_bytes(b"\n".join(lines))
    capsys.readouterr()
    assert replay(Namespace(file=str(bad), verify=True, headless=True)) == 2
    assert "differs from the saved" in capsys.readouterr().err


def test_replay_verify_accepts_an_honest_save(tmp_path, capsys):
    good = tmp_path / "good.save"
    assert headless(args(save=str(good), seed=5, players=3)) == 0
    expected = final_hash(capsys.readouterr().out).split()[-1]
    assert replay(Namespace(file=str(good), verify=True, headless=True)) == 0
    out = capsys.readouterr().out
    assert "every state hash matches" in out and expected in out


def test_replay_of_a_save_from_older_rules_says_so_plainly(tmp_path, capsys):
    """A save written before rules version 2 (cards turned at once, no tower outcomes)."""
    good = tmp_path / "good.save"
    assert headless(args(save=str(good), seed=3)) == 0
    lines = good.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    header["version"] = 1
    del header["rules"]
    old = tmp_path / "old.save"
    old.write_bytes(b"\n".join([json.dumps(header).encode()] + lines[1:]))
    capsys.readouterr()
    assert replay(Namespace(file=str(old), verify=True, headless=True)) == 2
    err = capsys.readouterr().err
    assert "older rules" in err and "Traceback" not in err
    assert headless(args(resume=str(old))) == 2
    assert "older rules" in capsys.readouterr().err


def test_unreadable_save_is_reported(tmp_path, capsys):
    with pytest.raises(SaveError, match="cannot be read"):
        read_save(tmp_path / "missing.save")


def test_the_console_names_the_seats_by_their_colours(capsys):
    """Issue 37, item 12: `headless` printed P0-P3 where the window says Blue, Orange."""
    import re
    assert headless(args(quiet=False, seed=3)) == 0
    out = capsys.readouterr().out
    assert not re.search(r"\bP[0-4]\b", out), re.search(r".*\bP[0-4]\b.*", out).group(0)
    assert "Winner: " in out and any(c in out for c in ("Blue", "Orange", "Black", "White"))
