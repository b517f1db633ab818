"""A transit relay that tampers with what it carries (issue 39, the trust issue's attacks
through the relay): a real process in front of the real relay (magic-wormhole-transit-relay).

    python tests/net/reach/tampering_relay.py LISTEN_PORT RELAY_PORT MODE

Every connection is passed to the relay at 127.0.0.1:RELAY_PORT. Once a connection has
carried AFTER bytes from a player towards the relay (the tunnel is up and the table's
frames flow), the relay does MODE to the next chunk, once for the whole run:

- alter: flips one bit of the chunk;
- inject: puts a frame of its own before it (a 4-byte length, 60 bytes);
- drop: never delivers it;
- stall (issue 47 finding 6): nothing of the above; on SIGUSR1 it stops passing bytes on,
  every connection both ways, for STALL seconds, then passes on all it kept (the bytes
  arrive late, none lost or altered): a relay that stalls, not one that tampers.

It prints "tampered: MODE (N bytes into the connection)" when it did, so a test knows
the attack happened ("stalled for N s" and "flowing again" for a stall).
"""

from __future__ import annotations

import asyncio
import signal
import sys
import time

AFTER = 4000
STALL = 25.0


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, mode: str | None,
                state: dict) -> None:
    carried = 0
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            carried += len(data)
            held = state["stalled_until"] - time.monotonic()
            if held > 0:
                await asyncio.sleep(held)
            if mode in ("alter", "inject", "drop") and not state["done"] and carried > AFTER:
                state["done"] = True
                print(f"tampered: {mode} ({carried} bytes into the connection)", flush=True)
                if mode == "alter":
                    data = data[:-1] + bytes([data[-1] ^ 0x01])
                elif mode == "inject":
                    data = (60).to_bytes(4, "big") + bytes(range(60)) + data
                else:                                   # drop
                    continue
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def main(listen: int, relay: int, mode: str) -> None:
    state = {"done": False, "stalled_until": 0.0}
    if mode == "stall":
        loop = asyncio.get_running_loop()

        def stall() -> None:
            state["stalled_until"] = time.monotonic() + STALL
            print(f"stalled for {STALL:g} s", flush=True)
            loop.call_later(STALL, lambda: print("flowing again", flush=True))
        loop.add_signal_handler(signal.SIGUSR1, stall)

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", relay)
        except OSError:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer, mode, state),
                             _pipe(up_reader, writer, None, state))

    server = await asyncio.start_server(serve, "127.0.0.1", listen)
    print(f"listening on {listen}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]))
