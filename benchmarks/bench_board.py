"""The map's rebuild: what a state change costs the board (its cached layer drawn again).

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python benchmarks/bench_board.py [--size 1280x800]

A `BoardView` of a new 4-player game fills the window; 25 times it is given the state
(`set_state`, which marks it dirty) and one frame is drawn with `ctx.finish()`, so the
software renderer's work is counted. Prints the median and the largest time. The paper
and sea patterns and the names' halos (issue 28, item 4) are drawn here, never per frame.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="1280x800", help="window size WxH")
    ap.add_argument("--repeats", type=int, default=25)
    args = ap.parse_args()
    from client.app import App
    from client.board.board_view import BoardView
    from sim.board import board
    from sim.game import new_game, public_state
    from sim.state import GameConfig

    width, height = (int(v) for v in args.size.lower().split("x"))
    app = App(width, height, visible=False)
    state, _events = new_game(GameConfig(players=4))
    pub = public_state(state)
    view = BoardView(board(), "sun", 4)
    app.show(view)
    app.on_draw()
    times = []
    for _ in range(args.repeats):
        view.set_state(pub)
        t = time.perf_counter()
        app.on_draw()
        app.ctx.finish()
        times.append((time.perf_counter() - t) * 1000)
    print(f"window {app.width}x{app.height} (scale {app.ui_scale:g}): board rebuild + frame "
          f"median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")
    app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
