"""What the reach tests share: a magic-wormhole mailbox server and transit relay of their
own on 127.0.0.1 (the pip packages' `twistd` plugins, `tests/net/wormhole_servers.py`),
started for one test and stopped after it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.net import processes as P
from tests.net import wormhole_servers

# the host's line with its wormhole code, and a loopback table whose friends dial nothing
# directly (every path works on loopback: this makes them take the relay)
CODE_LINE = r"Friends anywhere join with: \./shogun join ([a-z]+(?:-[a-z]+){5})"
RELAY_ONLY = {"SHOGUN_NET_INTERFACE": "127.0.0.1", "SHOGUN_NET_RELAY_ONLY": "1"}


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[wormhole_servers.Servers]:
    started = wormhole_servers.start(tmp_path, "127.0.0.1", P.free_port(), P.free_port())
    try:
        yield started
    finally:
        started.stop()


def wait_text(path: Path, text: str, timeout: float) -> None:
    """Wait until a helper process's output file holds `text`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and text in path.read_text():
            return
        time.sleep(0.05)
    raise TimeoutError(f"{path.name}: no {text!r}")
