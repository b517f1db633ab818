"""A stranger's attacks at the door, as its own process (issue 34). Each speaks either
order of the handshake (it offers its key at once; a table that spoke first, before
protocol 6, has its Welcomed read all the same), so one attacker runs against the code
before and after the fix.

Run: `python tests/net/trust/stranger_attacker.py MODE PORT SECONDS [CODE]`, MODE one of

- `guess`: wrong codes, each from a new 127.x.y.z source address, as fast as it can;
  prints "guesses N: C checked, T turned away" every second;
- `slots`: 8 source addresses hold 8 handshake connections each (64, the table's slots),
  and reconnect the moment one is closed; prints "held N" every second;
- `spectators`: 800 spectator connections with the right CODE, 4 from each of 200
  addresses, held in silence; prints "spectators N admitted, R refused" when done;
- `connect`: bare connections from rotating addresses, opened and closed, 500 a second;
  prints "connections N" when done;
- `offers`: one precomputed key offer sent again and again, as fast as the table takes
  them, from the 250 addresses of 127.0.5.0/24 (one network), 200 connections in flight,
  each closed and opened anew the moment the table answers or refuses it; prints
  "offers N: W answered, T turned away" every second.
"""

from __future__ import annotations

import selectors
import socket
import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import msgpack  # noqa: E402

from net.transport.versions import local_versions  # noqa: E402
from tests.net.raw_dialer import RawDialer, hello  # noqa: E402


def rotating(i: int) -> str:
    return f"127.{1 + i // 62500 % 250}.{i // 250 % 250}.{1 + i % 250}"


def read_frame(s: socket.socket) -> bytes:
    head = b""
    while len(head) < 4:
        got = s.recv(4 - len(head))
        if not got:
            raise ConnectionError("closed")
        head += got
    (n,) = struct.unpack(">I", head)
    body = b""
    while len(body) < n:
        got = s.recv(n - len(body))
        if not got:
            raise ConnectionError("closed")
        body += got
    return head + body


def first_answer(s: socket.socket, dialer: RawDialer) -> dict:
    """The table's first word to our key offer: a Welcomed (either order) or a refusal."""
    s.sendall(dialer.offer())
    msg = msgpack.unpackb(read_frame(s)[4:], raw=False)
    if msg.get("type") == "Welcomed":
        dialer.welcomed(msg)
    return msg


def guess(port: int, seconds: float) -> None:
    checked = turned = i = 0
    end = next_print = time.monotonic()
    end += seconds
    while time.monotonic() < end:
        i += 1
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=3,
                                          source_address=(rotating(i), 0)) as s:
                dialer = RawDialer("WRONGCOD")
                if first_answer(s, dialer).get("type") != "Welcomed":
                    turned += 1
                else:
                    s.sendall(dialer.seal(hello({}, b"g" * 16)))
                    try:
                        s.recv(65536)
                    except OSError:
                        pass
                    checked += 1
        except (OSError, ConnectionError, ValueError):
            turned += 1
        if time.monotonic() >= next_print:
            print(f"guesses {i}: {checked} checked, {turned} turned away", flush=True)
            next_print += 1.0


def slots(port: int, seconds: float) -> None:
    sel = selectors.DefaultSelector()
    sources = [f"127.0.9.{n}" for n in range(1, 9)]

    def open_one(source: str) -> None:
        s = socket.socket()
        s.setblocking(False)
        s.bind((source, 0))
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            return
        sel.register(s, selectors.EVENT_READ, source)

    for source in sources:
        for _ in range(8):
            open_one(source)
    end = next_print = time.monotonic()
    end += seconds
    reopened = 0
    while time.monotonic() < end:
        for key, _ in sel.select(0.2):
            s = key.fileobj
            try:
                data = s.recv(65536)       # type: ignore[union-attr]
            except OSError:
                data = b""
            if not data:                   # closed (or refused, evicted): at once again
                sel.unregister(s)
                s.close()                  # type: ignore[union-attr]
                open_one(key.data)
                reopened += 1
        if time.monotonic() >= next_print:
            print(f"held {len(sel.get_map())}, reopened {reopened}", flush=True)
            next_print += 1.0


def spectators(port: int, code: str, count: int = 800) -> list[socket.socket]:
    versions = local_versions()
    held, refused = [], 0
    for i in range(count):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                         source_address=(rotating(i // 4), 0))
            dialer = RawDialer(code)
            if first_answer(s, dialer).get("type") != "Welcomed":
                refused += 1
                s.close()
                continue
            s.sendall(dialer.seal(hello(versions, bytes([i % 256]) * 16, role="spectator",
                                        name=f"w{i}", listen_port=0)))
            answer = dialer.read(read_frame(s))
            if answer and answer[0].get("type") == "Accepted":
                held.append(s)
            else:
                refused += 1
                s.close()
        except (OSError, ConnectionError, ValueError):
            refused += 1
    print(f"spectators {len(held)} admitted, {refused} refused", flush=True)
    return held


def connect_flood(port: int, seconds: float, rate: float = 500.0) -> None:
    n = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        due = time.monotonic() + 1 / rate
        n += 1
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=1,
                                         source_address=(rotating(n), 0))
            s.close()
        except OSError:
            pass
        time.sleep(max(0.0, due - time.monotonic()))
    print(f"connections {n}", flush=True)


def offers(port: int, seconds: float, in_flight: int = 200) -> None:
    sel = selectors.DefaultSelector()
    offer = RawDialer("WRONGCOD").offer()          # precomputed: no work per offer
    sent = answered = turned = 0

    def open_one() -> None:
        nonlocal sent
        sent += 1
        s = socket.socket()
        s.setblocking(False)
        s.bind((f"127.0.5.{1 + sent % 250}", 0))
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            return
        sel.register(s, selectors.EVENT_WRITE)

    for _ in range(in_flight):
        open_one()
    end = next_print = time.monotonic()
    end += seconds
    while time.monotonic() < end:
        for key, events in sel.select(0.2):
            s = key.fileobj
            if events & selectors.EVENT_WRITE:
                try:
                    s.send(offer)              # type: ignore[union-attr]
                    sel.modify(s, selectors.EVENT_READ)
                    continue
                except OSError:
                    data = b""
            else:
                try:
                    data = s.recv(65536)       # type: ignore[union-attr]
                except OSError:
                    data = b""
            if b"Welcomed" in data:
                answered += 1
            else:
                turned += 1
            sel.unregister(s)
            s.close()                          # type: ignore[union-attr]
            open_one()
        if time.monotonic() >= next_print:
            print(f"offers {sent}: {answered} answered, {turned} turned away", flush=True)
            next_print += 1.0


def main() -> None:
    mode, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    if mode == "guess":
        guess(port, seconds)
    elif mode == "slots":
        slots(port, seconds)
    elif mode == "spectators":
        held = spectators(port, sys.argv[4])
        time.sleep(seconds)
        for s in held:
            s.close()
    elif mode == "connect":
        connect_flood(port, seconds)
    elif mode == "offers":
        offers(port, seconds)
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
