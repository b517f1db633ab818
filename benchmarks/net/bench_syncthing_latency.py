"""Benchmark: from a record appended to a seat file in one Syncthing instance's folder to
the whole file in another's, over real Syncthing on 127.0.0.1 (issue 51: "the time from
one player's move to the next player's program seeing it").

Run: .venv/bin/python benchmarks/net/bench_syncthing_latency.py [--samples 20]
    [--instances 3] [--gap 2] [--watch-delay 1]

Needs Debian's syncthing (`tools/ensure-env --syncthing`). The instances are the tests'
(tests/net/correspondence/syncthing_cluster.py): discovery, relays and NAT off, linked by
tcp://127.0.0.1 addresses, one sendreceive folder with the file watcher on. `--watch-delay`
is the folder's fsWatcherDelayS: 1 here and in the tests, 10 in a folder a player adds
with Syncthing's own defaults. Each sample appends one record to alice's seat file, then
polls (every 2 ms) the other folders until they hold the whole file; `--gap` seconds pass
between samples (a file changed again within the watcher's delay is held back longer).

Printed (median, p90, max in seconds, from the append): "detected", when alice's
Syncthing had scanned the change (its LocalIndexUpdated event); "pulled", when the
reader's Syncthing finished writing it (ItemFinished); "seen", when the reader's folder
held the whole file (the first reader and the last). This measures the sync layer only:
the game's own folder watch (inotify or polling) comes on top of "seen".
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.net.correspondence.syncthing_cluster import (  # noqa: E402
    FOLDER_ID, Instance, syncthing_cluster)


def event_time(event: dict[str, Any]) -> float:
    """An event's wall-clock time (Syncthing writes RFC 3339 with nanoseconds)."""
    stamp: str = event["time"]
    head, _, rest = stamp.partition(".")
    digits = "".join(ch for ch in rest if ch.isdigit())
    zone = rest[len(digits):] if rest else stamp[19:]
    zone = "+00:00" if zone == "Z" else zone
    base = datetime.fromisoformat(head[:19] + zone).timestamp()
    return base + (int(digits[:6].ljust(6, "0")) / 1e6 if digits else 0.0)


def last_event_id(inst: Instance) -> int:
    events = inst.get("/rest/events", since="0", limit="1", timeout="0")
    return int(events[-1]["id"]) if events else 0


def first_event(inst: Instance, since: int, kind: str, name: str, after: float) -> float | None:
    """Seconds from `after` to the first `kind` event about `name` (None: none came)."""
    for event in inst.events(since, (kind,), timeout_s=0):
        data = event.get("data") or {}
        if data.get("folder") not in (None, FOLDER_ID):
            continue
        if name in (data.get("filenames") or []) or data.get("item") == name:
            moment = event_time(event)
            if moment >= after - 0.01:
                return moment - after
    return None


def figures(label: str, values: list[float]) -> str:
    if not values:
        return f"{label:<22} (none)"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]
    return (f"{label:<22} median {statistics.median(ordered):6.3f}  p90 {p90:6.3f}  "
            f"max {ordered[-1]:6.3f}  (n={len(ordered)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--instances", type=int, default=3, choices=(2, 3))
    parser.add_argument("--gap", type=float, default=2.0,
                        help="seconds between one append and the next")
    parser.add_argument("--watch-delay", type=int, default=1,
                        help="the folder's fsWatcherDelayS (Syncthing's default: 10)")
    args = parser.parse_args()
    name = "seat-1.frames"
    detected: list[float] = []
    pulled: list[float] = []
    first_seen: list[float] = []
    last_seen: list[float] = []
    started = time.monotonic()
    with syncthing_cluster(None, args.instances, watch_delay_s=args.watch_delay) as cluster:
        print(f"{args.instances} instances up and connected in "
              f"{time.monotonic() - started:.2f} s")
        writer, readers = cluster[0], cluster.instances[1:]
        data = b"seat 1 opens\n"
        (writer.folder / name).write_bytes(data)
        for reader in readers:
            cluster.wait_file(reader, name, data, timeout=60)
        cluster.wait_in_sync()
        for n in range(args.samples):
            time.sleep(args.gap)
            since_w, since_r = last_event_id(writer), last_event_id(readers[0])
            move = f"seat 1 move {n:04d} ".encode() * 6 + b"\n"
            data += move
            wall, t0 = time.time(), time.monotonic()
            with open(writer.folder / name, "ab") as f:
                f.write(move)
            seen: dict[str, float] = {}
            while len(seen) < len(readers):
                for reader in readers:
                    if reader.name not in seen:
                        try:
                            if (reader.folder / name).read_bytes() == data:
                                seen[reader.name] = time.monotonic() - t0
                        except FileNotFoundError:
                            pass
                if time.monotonic() - t0 > 120:
                    raise SystemExit(f"sample {n}: not everywhere after 120 s: {seen}")
                time.sleep(0.002)
            first_seen.append(min(seen.values()))
            last_seen.append(max(seen.values()))
            found = first_event(writer, since_w, "LocalIndexUpdated", name, wall)
            if found is not None:
                detected.append(found)
            found = first_event(readers[0], since_r, "ItemFinished", name, wall)
            if found is not None:
                pulled.append(found)
            by = ", ".join(f"{k} {v:.3f} s" for k, v in seen.items())
            print(f"sample {n + 1:3d}: seen by {by}", flush=True)
    print(f"\nSyncthing {args.instances} instances on 127.0.0.1, fsWatcherDelayS "
          f"{args.watch_delay}, {args.samples} appends {args.gap:g} s apart "
          f"(seconds from the append):")
    print(figures("detected (writer)", detected))
    print(figures(f"pulled ({readers[0].name})", pulled))
    print(figures("seen, first reader", first_seen))
    print(figures("seen, last reader", last_seen))


if __name__ == "__main__":
    main()
