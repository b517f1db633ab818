"""Bot strength over seeded 4-player games (issues 15, 29, 40). Prints figures, asserts nothing.

Each line plays one `subject` bot against three `opponent` bots on the draft setup; the
subject's seat rotates (game i: seat i % 4) and each game has its own seed (game i: seed
150_000 + i, `--offset` chooses i's start). A game's win counts 1/k for k tied winners.
The interval is the normal approximation's 95% band.
The `setups` line plays four identical bots on the beginner setup (seat = fixed starting
position) and prints the win share of each position, before (`heuristic`) and after
(`normal`); the weakest position's share is the figure the issue asks for.
For a searching subject (`hard`, `hard_2025`) it also prints decision times (median, p95,
max) per decision kind, wall clock and the process's own CPU time (on a shared machine
the wall time includes waiting for a core; the load average is printed at the start).

Incremental runs (issue 29): with `--out FILE` every finished game is appended to FILE
as one JSON line (line, game number, seat, share, times) and its event log is written
gzipped to FILE's `.logs/` folder (for `benchmarks/bots/bot_blunders.py`); a run started
again with the same FILE skips the games already there, so a stopped run continues where
it stopped. `--summary` only reads FILE and prints the lines' figures; from the logs it
adds the subject's score margin over its best rival minus the other seats' average, at
year 1's scoring and at the end (issue 40: 0 on average between equal bots, and a few
points of it show in fewer games than a few points of win share). `--against BASE`
adds each line's game-by-game difference from an earlier run of the same bots and game
numbers (a variant measured against the recorded run: issue 40's plans).

Usage: .venv/bin/python benchmarks/bots/bot_strength.py [--games 200] [--jobs 2]
       [--offset 0] [--budget N] [--lines normal:heuristic,normal:easy,easy:random,hard:normal,setups]
       [--out results.jsonl [--summary [--against base.jsonl]]] [--set field=value,...]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from collections.abc import Iterable
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sim import bots  # noqa: E402
from sim.game import GameConfig  # noqa: E402
from sim.local import LocalGame  # noqa: E402

TARGETS = {("normal", "heuristic"): 0.35, ("normal", "easy"): 0.60, ("easy", "random"): 0.80,
           ("hard", "normal"): 0.60, ("hard", "hard_2025"): 0.40, ("hard_2025", "normal"): 0.50,
           ("hard", "hard_2026"): 0.35}
SEARCHING = ("hard", "hard_2025", "hard_2026")
Result = tuple[float, list[tuple[str, float, float]], float]


def play(job: tuple[str, str, int, str], log_path: str | None = None) -> Result:
    """(subject's win share, [(decision kind, wall s, CPU s)] of the subject, wall s).
    With `log_path`, the game's events go there as gzipped JSON lines."""
    subject, opponent, seed, setup = job
    seat = seed % 4
    names = [opponent] * 4
    names[seat] = subject
    start = time.perf_counter()
    game = LocalGame(GameConfig(4, "sun", setup), 150_000 + seed, dict(enumerate(names)))
    times = []
    events: list[dict[str, object]] = [dict(e) for e in game.first_events]
    while not game.over:
        d = game.state.decision
        timed = d.kind not in ("chance", "tower") and seat in d.seats and subject in SEARCHING
        t0, c0 = time.perf_counter(), time.process_time()
        cmd = game.automatic_command()
        assert cmd is not None   # every seat is a bot
        if timed and getattr(cmd, "seat", None) == seat:
            times.append((str(d.kind), time.perf_counter() - t0, time.process_time() - c0))
        happened = game.submit(cmd)
        if log_path is not None:
            events.extend(dict(e) for e in happened)
    if log_path is not None:
        with gzip.open(log_path, "wt", encoding="utf-8") as f:
            for i, e in enumerate(events):
                f.write(json.dumps({"seq": i, **e}, separators=(",", ":"), default=str) + "\n")
    winners = game.state.winners
    share = (1.0 / len(winners)) if seat in winners else 0.0
    return share, times, time.perf_counter() - start


def setup_game(job: tuple[str, int]) -> list[float]:
    bot, seed = job
    game = LocalGame(GameConfig(4, "sun", "beginner"), 250_000 + seed, dict.fromkeys(range(4), bot))
    for _ in game.run():
        pass
    w = game.state.winners
    return [(1.0 / len(w)) if s in w else 0.0 for s in range(4)]


def _mean_and_half(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal-approximation 95% interval."""
    sd = statistics.pstdev(xs) if len(xs) > 1 else 0.0
    return statistics.fmean(xs), 1.96 * sd / len(xs) ** 0.5


def band(shares: list[float]) -> str:
    n = len(shares)
    mean, half = _mean_and_half(shares)
    return f"{mean:.1%} (95% CI {max(0.0, mean - half):.1%}-{min(1.0, mean + half):.1%}, {n} games)"


def _set_budget(budget: int | None, variant: str = "") -> None:
    """The new hard bot's budget and other settings for this process (`search.HARD`);
    `variant` is "field=value,..." (tuning runs: `--set prefer_t2=2,horizon=round`)."""
    from dataclasses import replace
    from sim.bots import search
    if budget is not None:
        search.HARD = replace(search.HARD, budget=budget)
    for item in filter(None, variant.split(",")):
        key, value = item.split("=")
        if key == "plan_equilibrium":     # regret matching's iterations (issue 40, not adopted)
            from sim.bots.plan_equilibrium import RegretMatching
            search.HARD = replace(search.HARD, plan_chooser=RegretMatching(int(value)) if int(value) else None)
            continue
        old = getattr(search.HARD, key)
        new: Any = value
        if isinstance(old, bool):
            new = value in ("1", "true", "True")
        elif isinstance(old, int):
            new = int(value)
        elif isinstance(old, tuple):
            new = tuple(int(v) for v in value.split("/"))
        search.HARD = replace(search.HARD, **{key: new})


def _logged(job: tuple[str, str, int, str, str, str, str]) -> dict[str, object]:
    """Play one game for an incremental run; the record appended to the results file."""
    subject, opponent, game_no, setup, out, budget, variant = job
    _set_budget(int(budget) if budget else None, variant)
    logs = Path(out + ".logs")
    logs.mkdir(exist_ok=True)
    tag = f"@{variant}" if variant else ""
    log = logs / f"{subject}-{opponent}{tag.replace('=', '-').replace(',', '_')}-{game_no}.jsonl.gz"
    share, times, wall = play((subject, opponent, game_no, setup), str(log))
    return {"line": f"{subject}:{opponent}{tag}", "game": game_no, "seed": 150_000 + game_no,
            "seat": game_no % 4, "share": share, "wall": round(wall, 2),
            "cpu": [[k, round(c, 4)] for k, _, c in times], "log": log.name}


def read_results(out: str) -> list[dict[str, object]]:
    """The games an incremental run has finished (a half-written last line is skipped)."""
    if not os.path.exists(out):
        return []
    rows = []
    with open(out, encoding="utf-8") as f:
        for line in f:
            try:
                rows.append(json.loads(line))
            except ValueError:
                continue
    return rows


def seat_margins(scores: list[int]) -> list[int]:
    """Each seat's score minus the best other seat's."""
    return [v - max(w for j, w in enumerate(scores) if j != i) for i, v in enumerate(scores)]


def margin_edge(events: Iterable[dict[str, Any]], seat: int) -> tuple[float, float] | None:
    """How far `seat`'s margin over its best rival beats the average other seat's, at year
    1's scoring and at the game's end (points). Why: the win share drowns a few points of
    margin in luck (issue 40); between equal bots this is 0 on average, seat for seat."""
    year1: dict[int, int] = {}
    final: list[int] = []
    for e in events:
        if e["event"] == "Scored" and e["seat"] not in year1:
            year1[e["seat"]] = e["score"]
        elif e["event"] == "GameEnded":
            final = [e["scores"][str(i)] for i in range(len(e["scores"]))]
    if not final or len(year1) != len(final):
        return None
    edges = []
    for scores in ([year1[i] for i in range(len(final))], final):
        m = seat_margins(scores)
        edges.append(m[seat] - statistics.fmean(v for i, v in enumerate(m) if i != seat))
    return edges[0], edges[1]


def _edges(mine: list[dict[str, object]], out: str) -> dict[int, tuple[float, float]]:
    """Each game's margin edges (year 1, the end) read from its log, by game number."""
    found: dict[int, tuple[float, float]] = {}
    for r in mine:
        log = Path(out + ".logs") / str(r.get("log", ""))
        if log.is_file():
            with gzip.open(log, "rt", encoding="utf-8") as f:
                edge = margin_edge((json.loads(x) for x in f), int(str(r["seat"])))
            if edge is not None:
                found[int(str(r["game"]))] = edge
    return found


def _margins(mine: list[dict[str, object]], out: str) -> str:
    found = list(_edges(mine, out).values())
    if len(found) < 2:
        return ""
    return (f"year 1 {_mean_band([a for a, _ in found])}, game's end "
            f"{_mean_band([b for _, b in found])} points ({len(found)} games)")


def _mean_band(xs: list[float]) -> str:
    mean, half = _mean_and_half(xs)
    return f"{mean:+.1f} (95% CI {mean - half:+.1f} to {mean + half:+.1f})"


def paired(mine: dict[int, float], base: dict[int, float]) -> list[float]:
    """Game by game, mine minus the base run's, over the game numbers both played. Why:
    the same game number is the same seed and seat, so a variant measured against a
    recorded run on the same games cancels part of the deal's luck."""
    return [mine[g] - base[g] for g in sorted(mine.keys() & base.keys())]


def compare(rows: list[dict[str, object]], out: str, base_rows: list[dict[str, object]],
            base_out: str) -> None:
    """Print each line's paired difference from the base run's line of the same bots."""
    for line in sorted({str(r["line"]) for r in rows}):
        bots_of = line.split("@")[0]
        mine = [r for r in rows if r["line"] == line]
        my_shares = {int(str(r["game"])): float(str(r["share"])) for r in mine}
        my_edges = _edges(mine, out)
        for base_line in sorted({str(r["line"]) for r in base_rows
                                 if str(r["line"]).split("@")[0] == bots_of}):
            base = [r for r in base_rows if r["line"] == base_line]
            wins = paired(my_shares,
                          {int(str(r["game"])): float(str(r["share"])) for r in base})
            if len(wins) < 2:
                continue
            mean, half = _mean_and_half(wins)
            print(f"{line} minus {base_line}, paired over {len(wins)} games: wins "
                  f"{mean:+.1%} (95% CI {mean - half:+.1%} to {mean + half:+.1%})")
            base_edges = _edges(base, base_out)
            for k, name in ((0, "year 1"), (1, "game's end")):
                diffs = paired({g: e[k] for g, e in my_edges.items()},
                               {g: e[k] for g, e in base_edges.items()})
                if len(diffs) >= 2:
                    print(f"  margin edge at {name}: {_mean_band(diffs)} points "
                          f"({len(diffs)} games)")


def summary(rows: list[dict[str, object]], out: str | None = None) -> None:
    for line in sorted({str(r["line"]) for r in rows}):
        mine = [r for r in rows if r["line"] == line]
        games = sorted(int(str(r["game"])) for r in mine)
        subject, opponent = line.split("@")[0].split(":")
        target = TARGETS.get((subject, opponent)) if "@" not in line else None
        print(f"{line.replace(':', ' vs 3x ', 1)}: wins {band([float(str(r['share'])) for r in mine])}"
              + (f" (target >= {target:.0%})" if target else "")
              + f"; games {games[0]}-{games[-1]} (seeds {150_000 + games[0]}-{150_000 + games[-1]})")
        edge = _margins(mine, out) if out else ""
        if edge:
            print(f"  {subject}'s margin over its best rival minus the other seats' average: {edge}")
        cpu = [(str(k), float(c)) for r in mine for k, c in r["cpu"]]  # type: ignore[attr-defined]
        for kind in sorted({k for k, _ in cpu}):
            ts = sorted(c for k, c in cpu if k == kind)
            print(f"  {subject} decision '{kind}': {len(ts)} decisions, CPU {_spread(ts)}")
        if cpu:   # the issue 40 target covers every decision, the draft included
            ts = sorted(c for _, c in cpu)
            print(f"  {subject} every decision: {len(ts)} decisions, CPU {_spread(ts)}")
        if cpu:
            per_game = sorted(sum(c for _, c in r["cpu"]) for r in mine)  # type: ignore[attr-defined]
            print(f"  {subject} CPU per game: median {statistics.median(per_game):.1f} s, "
                  f"max {per_game[-1]:.1f} s")


def incremental(args: argparse.Namespace) -> None:
    """Play the games of each line not yet in `args.out`, appending each as it ends."""
    done = {(str(r["line"]), int(str(r["game"]))) for r in read_results(args.out)}
    tag = f"@{args.set}" if args.set else ""
    for line in args.lines.split(","):
        subject, opponent = line.split(":")
        assert subject in bots.BOT_NAMES and opponent in bots.BOT_NAMES, line
        jobs = [(subject, opponent, args.offset + i, "draft", args.out, str(args.budget or ""),
                 args.set) for i in range(args.games) if (line + tag, args.offset + i) not in done]
        print(f"{line}: {len(jobs)} games to play", flush=True)
        with ProcessPoolExecutor(args.jobs) as pool:
            for record in pool.map(_logged, jobs, chunksize=1):
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(json.dumps(record) + "\n")
    summary(read_results(args.out), args.out)


def _spread(ts: list[float]) -> str:
    p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
    return f"median {statistics.median(ts):.2f} s, p95 {p95:.2f} s, max {ts[-1]:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--offset", type=int, default=0, help="first game number (other seeds)")
    ap.add_argument("--budget", type=int, default=None,
                    help="the hard bot's rollouts per decision (default: sim.bots.search.BUDGET)")
    ap.add_argument("--lines", default="normal:heuristic,normal:easy,easy:random,hard:normal,setups")
    ap.add_argument("--out", default=None, help="append each game to this JSON-lines file; "
                    "games already there are skipped (a resumable run)")
    ap.add_argument("--set", default="", help="(tuning) the new hard's settings changed, "
                    "as field=value,... (tuples as 0/1/2); part of the line's name in --out")
    ap.add_argument("--summary", action="store_true", help="only print --out's figures")
    ap.add_argument("--against", default=None, help="with --summary: each line's paired "
                    "difference from this earlier run's games of the same bots and numbers")
    args = ap.parse_args()
    if args.out:
        if args.summary:
            summary(read_results(args.out), args.out)
            if args.against:
                compare(read_results(args.out), args.out, read_results(args.against),
                        args.against)
        else:
            incremental(args)
        return
    from sim.bots import search
    print(f"hard bot budget: {args.budget or search.HARD.budget}", flush=True)
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    with ProcessPoolExecutor(args.jobs, initializer=_set_budget, initargs=(args.budget,)) as pool:
        for line in args.lines.split(","):
            start = time.perf_counter()
            if line == "setups":
                for bot in ("heuristic", "normal"):
                    seats = list(pool.map(setup_game, [(bot, i) for i in range(args.games)]))
                    share = [sum(s[i] for s in seats) / len(seats) for i in range(4)]
                    print(f"beginner setup, 4x {bot}, {len(seats)} games: win share by position "
                          + ", ".join(f"{i + 1}: {v:.1%}" for i, v in enumerate(share))
                          + f"; weakest {min(share):.1%}", flush=True)
                continue
            subject, opponent = line.split(":")
            assert subject in bots.BOT_NAMES and opponent in bots.BOT_NAMES, line
            jobs = [(subject, opponent, args.offset + i, "draft") for i in range(args.games)]
            results = []
            for result in pool.imap(play, jobs, chunksize=1) if hasattr(pool, "imap") else \
                    pool.map(play, jobs, chunksize=1):
                results.append(result)
                if len(results) % 20 == 0 and len(results) < len(jobs):
                    print(f"  ... {subject} vs 3x {opponent} after {len(results)} games: "
                          f"{band([r[0] for r in results])}", flush=True)
            shares = [r[0] for r in results]
            target = TARGETS.get((subject, opponent))
            print(f"{subject} vs 3x {opponent}: wins {band(shares)}"
                  + (f" (target >= {target:.0%})" if target else "")
                  + f"; {time.perf_counter() - start:.0f} s wall", flush=True)
            times = [t for r in results for t in r[1]]
            for kind in sorted({t[0] for t in times}):
                walls = sorted(t[1] for t in times if t[0] == kind)
                cpus = sorted(t[2] for t in times if t[0] == kind)
                print(f"  {subject} decision '{kind}': {len(walls)} decisions, wall "
                      f"{_spread(walls)}; CPU {_spread(cpus)}", flush=True)
            if times:
                print(f"  game wall time: median {statistics.median(r[2] for r in results):.0f} s, "
                      f"max {max(r[2] for r in results):.0f} s", flush=True)


if __name__ == "__main__":
    main()
