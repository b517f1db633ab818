"""The download's figures (issue 38): archive size, unpacked size, time from start to the menu
drawn, peak memory; the clone's `.venv` run beside it for the ratio.

    tools/bundle && xvfb-run -a -s "-screen 0 1280x800x24" \\
        .venv/bin/python benchmarks/bench_bundle.py [dist/shogun-<version>-linux-x86_64.tar.gz] [--runs 5]

The archive is unpacked into a temporary folder and `shogun smoke` started there with a
player's environment (tools/check_bundle.py); "start to menu" is the wall time from
starting the process to its line "menu drawn after" (the second frame of the menu is on
screen), read as it is printed, beside the CPU time the process had used by then (which
a loaded machine inflates far less than the wall time). Peak memory is the process's maximum RSS over the whole
smoke run (menu, then a game against three bots up to the first plan). Medians of
`--runs`; the first run after unpacking is reported apart (a cold page cache).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tools import build_bundle, check_bundle  # noqa: E402


def one_run(command: list[str], env: dict[str, str], out: Path) -> tuple[float, float, float]:
    """(seconds from start to "menu drawn", CPU seconds the process had used by then, peak
    RSS in MB) of one smoke run."""
    start = time.perf_counter()
    proc = subprocess.Popen([*command, "smoke", "--out", str(out)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    menu, cpu = None, 0.0
    assert proc.stdout is not None
    for line in proc.stdout:
        if menu is None and line.startswith("menu drawn after"):
            menu = time.perf_counter() - start
            cpu = float(line.split("(")[1].split()[0])
    _, status, usage = os.wait4(proc.pid, 0)      # this process's own peak, not the children's
    if os.waitstatus_to_exitcode(status) != 0 or menu is None:
        raise SystemExit(f"{command[0]} smoke failed (status {status})")
    return menu, cpu, usage.ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("archive", nargs="?", type=Path,
                        default=ROOT / "dist" / build_bundle.archive_name())
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--clone", action="store_true",
                        help="measure the clone's .venv instead of the bundle")
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY"):
        raise SystemExit("no DISPLAY: run under xvfb-run (see the docstring)")
    with tempfile.TemporaryDirectory(prefix="shogun-bench-") as tmp:
        place = Path(tmp)
        home = place / "home"
        env = check_bundle.player_env(home, **check_bundle.window_env())
        if args.clone:
            command = [sys.executable, str(ROOT / "main.py")]
            env = {**os.environ, "SHOGUN_HOME": str(home)}
            print("clone: .venv python main.py")
        else:
            folder = check_bundle.unpack(args.archive.resolve(), place)
            print(f"archive {args.archive.name}: {args.archive.stat().st_size / 2**20:.1f} MB; "
                  f"unpacked: {build_bundle.folder_bytes(folder) / 2**20:.1f} MB")
            command = [str(folder / check_bundle.EXE)]
        runs = [one_run(command, env, place / f"smoke-{k}.png") for k in range(args.runs + 1)]
    first, rest = runs[0], runs[1:]
    print(f"first run: menu drawn {first[0]:.2f} s after start ({first[1]:.2f} s CPU)")
    print(f"start to menu drawn, median of {len(rest)}: {statistics.median(r[0] for r in rest):.2f} s "
          f"(min {min(r[0] for r in rest):.2f}, max {max(r[0] for r in rest):.2f}); CPU used by "
          f"then: median {statistics.median(r[1] for r in rest):.2f} s")
    print(f"peak memory (max RSS, menu + a game to the first plan): "
          f"{max(r[2] for r in runs):.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
