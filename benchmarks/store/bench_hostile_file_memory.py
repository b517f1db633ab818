"""Peak memory of the file readers on a hostile file with one 60 MB line (issue 34 item 5).

    .venv/bin/python benchmarks/bench_hostile_file_memory.py [--mb 60] [--main OTHER/main.py]

Writes three files: an honest save (3 bots), a save whose header line is 60 MB, and a game
log whose second line is 60 MB; runs `main.py replay FILE --verify` and `--text` on each
as a child process and prints each child's peak resident memory (its own VmHWM) and its
ratio to the file's size. With `--main`, the same runs with another checkout's
`main.py` (e.g. the code before the fix), side by side.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


# The child writes its own high-water mark (VmHWM, per process image) when it exits:
# `wait4`'s ru_maxrss would also count this parent's memory, which exec hands on.
_WRAPPER = """
import atexit, os, runpy, sys
def _hwm():
    with open('/proc/self/status') as f, open(os.environ['HWM_OUT'], 'w') as out:
        out.write(next(l for l in f if l.startswith('VmHWM')).split()[1])
atexit.register(_hwm)
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(sys.argv[0]))
runpy.run_path(sys.argv[0], run_name='__main__')
"""


def peak_mb(main_py: Path, argv: list[str]) -> tuple[float, int]:
    """The child's peak resident memory in MB, and its exit code."""
    with tempfile.NamedTemporaryFile() as hwm:
        proc = subprocess.run([sys.executable, "-c", _WRAPPER, str(main_py), *argv],
                              cwd=main_py.parent, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL,
                              env={**os.environ, "LANGUAGE": "en", "HWM_OUT": hwm.name})
        return int(Path(hwm.name).read_text()) / 1024, proc.returncode


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=60, help="the long line's size in MB")
    ap.add_argument("--main", type=Path, help="another checkout's main.py to compare")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="shogun-hostile-"))
    honest_save, honest_log = folder / "honest.save", folder / "honest.log"
    subprocess.run([sys.executable, str(ROOT / "main.py"), "headless", "--players", "3",
                    "--seed", "5", "--save", str(honest_save), "--log", str(honest_log),
                    "--quiet"], check=True, stdout=subprocess.DEVNULL)
    pad = b"a" * (args.mb * 1_000_000)
    long_save = folder / "long-header.save"
    long_save.write_bytes(b'{"format":"shogun-save","pad":"' + pad + b'"}\n')
    long_log = folder / "long-line.log"
    first = honest_log.read_bytes().split(b"\n", 1)[0]
    long_log.write_bytes(first + b'\n{"event":"Moved","pad":"' + pad + b'"}\n')
    del pad
    mains = [("this checkout", ROOT / "main.py")] + ([("--main", args.main)] if args.main else [])
    print(f"{'file':<18} {'MB':>6}  {'reader':<9}" + "".join(f" {name:>22}" for name, _ in mains))
    for path in (honest_save, long_save, long_log):
        size = path.stat().st_size / 1e6
        for flag in ("--verify", "--text"):
            cells = []
            for _name, main_py in mains:
                mb, code = peak_mb(main_py, ["replay", str(path), flag])
                cells.append(f"{mb:7.0f} MB ({mb / size:5.1f}x) rc {code}")
            print(f"{path.name:<18} {size:6.1f}  {flag:<9}" + "".join(f" {c:>22}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
