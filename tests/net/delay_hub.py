"""A userspace delay hub: every TCP connection between peers in one namespace passes
through it and each byte arrives `delay` seconds late, in both directions.

Why userspace: this machine's kernel has no `netem` (`tc qdisc ... netem` answers
"Specified qdisc kind is unknown"). In the namespace `install_rules` makes, nftables
redirects every new loopback connection (but the hub's own, which carry mark 1) to the
hub, which reads the original destination (SO_ORIGINAL_DST), dials it and relays with
the delay. Order is kept; there is no bandwidth limit and no loss.

Run inside the namespace: python -m tests.net.delay_hub DELAY_SECONDS

Used by tests/net/reach/test_internet_latency.py (through netns.py), benchmarks/bench_latency.py.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import sys

HUB_PORT = 9999
SO_ORIGINAL_DST = 80
MARK = 1

RULES = f"""
table ip delayhub {{
    chain out {{
        type nat hook output priority -100; policy accept;
        meta mark {MARK} return
        tcp dport {HUB_PORT} return
        ip daddr 127.0.0.0/8 tcp dport 1024-65535 redirect to :{HUB_PORT}
    }}
}}
"""


async def _relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 delay: float) -> None:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    async def read() -> None:
        try:
            while data := await reader.read(65536):
                queue.put_nowait((loop.time() + delay, data))
        except OSError:
            pass
        queue.put_nowait((loop.time() + delay, None))

    async def write() -> None:
        try:
            while True:
                due, data = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if data is None:
                    break
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            writer.close()
    await asyncio.gather(read(), write())


async def _serve(delay: float) -> None:
    loop = asyncio.get_running_loop()

    async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        raw = writer.get_extra_info("socket").getsockopt(socket.SOL_IP, SO_ORIGINAL_DST, 16)
        port, ip = struct.unpack("!H", raw[2:4])[0], socket.inet_ntoa(raw[4:8])
        out = socket.socket()
        out.setsockopt(socket.SOL_SOCKET, socket.SO_MARK, MARK)
        out.setblocking(False)
        try:
            await asyncio.sleep(delay)          # the SYN's way there ...
            await loop.sock_connect(out, (ip, port))
        except OSError:
            out.close()
            writer.close()
            return
        await asyncio.sleep(delay)              # ... and the SYN-ACK's way back
        far_reader, far_writer = await asyncio.open_connection(sock=out)
        await asyncio.gather(_relay(reader, far_writer, delay),
                             _relay(far_reader, writer, delay))

    server = await asyncio.start_server(accepted, "127.0.0.1", HUB_PORT)
    print(f"delay hub on port {HUB_PORT}, {delay * 1000:g} ms each way", flush=True)
    async with server:
        await server.serve_forever()


def main() -> None:
    asyncio.run(_serve(float(sys.argv[1])))


if __name__ == "__main__":
    main()
