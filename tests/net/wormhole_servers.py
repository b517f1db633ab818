"""A magic-wormhole mailbox server and transit relay as processes a test starts (issue 39).

Why: the rendezvous tests must not reach the public servers (nor anything outside this
machine); the magic-wormhole project publishes both servers as pip packages
(magic-wormhole-mailbox-server, magic-wormhole-transit-relay, in the dev extra), which
run as Twisted plugins of `twistd`. `start` runs one in the foreground of a child process
(inside a namespace when `preexec` enters one) and waits until it listens.

Used by tests/net/reach/test_rendezvous_loopback.py and test_internet_rendezvous.py.
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

TWISTD = str(Path(sys.executable).with_name("twistd"))


@dataclass
class Servers:
    mailbox: subprocess.Popen
    relay: subprocess.Popen
    mailbox_url: str              # ws://HOST:PORT/v1, for --rendezvous
    relay_address: str            # HOST:PORT, for --relay
    relay_log: Path
    workdir: Path
    preexec: Callable[[], None] | None = None

    def stop(self) -> None:
        for proc in (self.mailbox, self.relay):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)

    def restart_relay(self, timeout: float = 60.0) -> None:
        """A relay again at the same address (restarted, or the path to it healed)."""
        host, port = self.relay_address.rsplit(":", 1)
        self.relay, self.relay_log = _twistd(
            self.workdir, f"relay-again-{self.relay.pid}",
            ["transitrelay", "--port", f"tcp:{port}:interface={host}"], self.preexec)
        _wait_listening(self.relay, self.relay_log, f"on {port}", timeout)

    def stop_relay(self) -> None:
        """The relay dies (SIGKILL): every connection through it breaks at once."""
        if self.relay.poll() is None:
            self.relay.kill()
            self.relay.wait(5)


# the transit relay with Nagle's algorithm off on its connections (0.5.0 leaves it on):
# for benchmarks/reach/bench_relay.py --relay-no-delay, to tell the relay's share apart
_NO_DELAY_TWISTD = """
import sys
from wormhole_transit_relay import transit_server
made = transit_server.TransitConnection.connectionMade
def connectionMade(self):
    self.transport.setTcpNoDelay(True)
    made(self)
transit_server.TransitConnection.connectionMade = connectionMade
from twisted.scripts.twistd import run
sys.argv[0] = "twistd"
run()
"""


def _twistd(workdir: Path, name: str, plugin: list[str],
            preexec: Callable[[], None] | None,
            no_delay: bool = False) -> tuple[subprocess.Popen, Path]:
    log = workdir / f"{name}.log"
    command = [sys.executable, "-c", _NO_DELAY_TWISTD] if no_delay else [TWISTD]
    proc = subprocess.Popen([*command, "-n", "--pidfile=", "--logfile", str(log), *plugin],
                            cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                            preexec_fn=preexec)
    return proc, log


def _wait_listening(proc: subprocess.Popen, log: Path, marker: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = log.read_text() if log.exists() else ""
        if marker in text:
            return
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    raise RuntimeError(f"{log.name}: the server did not start:\n"
                       f"{log.read_text() if log.exists() else '(no log)'}")


def start(workdir: Path, host: str, mailbox_port: int, relay_port: int,
          preexec: Callable[[], None] | None = None, timeout: float = 60.0,
          relay_no_delay: bool = False) -> Servers:
    """Both servers listening on HOST (an IPv4 address)."""
    mailbox, mailbox_log = _twistd(
        workdir, "mailbox", ["wormhole-mailbox", "--port",
                             f"tcp:{mailbox_port}:interface={host}",
                             "--channel-db", str(workdir / "mailbox.sqlite")], preexec)
    relay, relay_log = _twistd(
        workdir, "relay", ["transitrelay", "--port", f"tcp:{relay_port}:interface={host}"],
        preexec, relay_no_delay)
    servers = Servers(mailbox, relay, f"ws://{host}:{mailbox_port}/v1",
                      f"{host}:{relay_port}", relay_log, workdir, preexec)
    try:
        _wait_listening(mailbox, mailbox_log, f"on {mailbox_port}", timeout)
        _wait_listening(relay, relay_log, f"on {relay_port}", timeout)
    except Exception:
        servers.stop()
        raise
    return servers
