"""Network namespaces a test makes and removes itself: homes behind NAT routers.

Why: the internet tests need routers that masquerade and offer UPnP, and homes that
cannot be dialled from outside, without touching any address outside this machine. Every
namespace and process here is made by the test, has no link to the machine's own
network, and is removed by `Lab.close()` even when the test fails.

The "internet" between the routers is one bridge in a namespace of its own. Its
addresses (11.0.0.0/24) must look public because miniupnpd refuses to map ports behind a
private or reserved external address; no packet can leave the lab, as nothing in it is
connected to the machine's interfaces.

Used by tests/net/reach/test_internet_latency.py, test_internet_nat.py,
test_internet_rendezvous.py, benchmarks/bench_latency.py.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

CLONE_NEWNET = 0x40000000
WAN_PREFIX = "11.0.0"
WAN6_PREFIX = "2001:db8:5"     # documentation range: nothing outside the lab has it


def missing_reason() -> str | None:
    """Why the lab cannot be built here, or None when it can."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "nft", "miniupnpd"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not installed (tools/ensure-env --netns installs it)"
    probe = f"sgprobe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot make a network namespace: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def enter(ns: str) -> Callable[[], None]:
    """A `preexec_fn` that moves the child into namespace `ns` before it runs."""
    path = f"/var/run/netns/{ns}"

    def preexec() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        fd = os.open(path, os.O_RDONLY)
        if libc.setns(fd, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns {ns}")
        os.close(fd)
    return preexec


def _remove_stale() -> None:
    """Namespaces of a lab whose process is gone (killed before its clean-up ran)."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    for line in listed.splitlines():
        m = re.match(r"(sg(\d+)x\S*)", line)
        if m and not Path(f"/proc/{m.group(2)}").exists():
            subprocess.run(["ip", "netns", "del", m.group(1)], capture_output=True)


@dataclass(frozen=True)
class Home:
    """One home: a router namespace (WAN + LAN) and one computer behind it."""
    router: str
    pc: str
    pc_ip: str
    public_ip: str


class Lab:
    """Namespaces, links and processes of one test; `close()` removes them all."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.tag = f"sg{os.getpid()}x"
        _remove_stale()
        self.namespaces: list[str] = []
        self._links = 0
        self.procs: list[subprocess.Popen] = []
        self.wan: str | None = None
        self._homes = 0

    # ------------------------------------------------------------------ plumbing
    def sh(self, ns: str, *cmd: str) -> str:
        done = subprocess.run(["ip", "netns", "exec", ns, *cmd], capture_output=True,
                              text=True, timeout=20)
        if done.returncode != 0:
            raise RuntimeError(f"{ns}: {' '.join(cmd)} failed: {done.stderr.strip()}")
        return done.stdout

    def ns(self, name: str) -> str:
        full = f"{self.tag}{name}"
        subprocess.run(["ip", "netns", "add", full], check=True, capture_output=True)
        self.namespaces.append(full)
        self.sh(full, "ip", "link", "set", "lo", "up")
        return full

    def link(self, ns_a: str, if_a: str, ns_b: str, if_b: str) -> None:
        self._links += 1
        tmp_a, tmp_b = (f"sgv{os.getpid() % 100000}{side}{self._links}" for side in "ab")
        subprocess.run(["ip", "link", "add", tmp_a, "type", "veth", "peer", "name", tmp_b],
                       check=True, capture_output=True)
        for tmp, ns, name in ((tmp_a, ns_a, if_a), (tmp_b, ns_b, if_b)):
            subprocess.run(["ip", "link", "set", tmp, "netns", ns], check=True,
                           capture_output=True)
            self.sh(ns, "ip", "link", "set", tmp, "name", name)
            self.sh(ns, "ip", "link", "set", name, "up")

    def spawn(self, ns: str, cmd: list[str], log_name: str) -> subprocess.Popen:
        log = open(self.workdir / log_name, "w")
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                preexec_fn=enter(ns))
        self.procs.append(proc)
        return proc

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        end = time.monotonic() + 5
        for proc in self.procs:
            try:
                proc.wait(max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        for ns in reversed(self.namespaces):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.namespaces.clear()

    def __enter__(self) -> "Lab":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ topology
    def internet(self) -> str:
        """The namespace standing for the internet: a bridge the routers plug into."""
        if self.wan is None:
            self.wan = self.ns("wan")
            self.sh(self.wan, "ip", "link", "add", "br0", "type", "bridge")
            self.sh(self.wan, "ip", "link", "set", "br0", "up")
        return self.wan

    def home(self, upnp: bool = True, allowed: str = "1024-65535",
             symmetric: bool = False) -> Home:
        """A home behind a masquerading router (with miniupnpd when `upnp`, mapping only
        the internal ports `allowed`). `symmetric`: the router picks a random public port
        for every connection (nft `masquerade fully-random`, a symmetric NAT: no hole
        punching can guess the port); otherwise it keeps the source port when it can."""
        self._homes += 1
        n = self._homes
        wan = self.internet()
        router, pc = self.ns(f"r{n}"), self.ns(f"pc{n}")
        self.link(router, "wan", wan, f"port{n}")
        self.sh(wan, "ip", "link", "set", f"port{n}", "master", "br0")
        public_ip = f"{WAN_PREFIX}.{n}"
        self.sh(router, "ip", "addr", "add", f"{public_ip}/24", "dev", "wan")
        self.link(router, "lan", pc, "eth0")
        lan = f"10.{n}.0"
        self.sh(router, "ip", "addr", "add", f"{lan}.1/24", "dev", "lan")
        self.sh(pc, "ip", "addr", "add", f"{lan}.2/24", "dev", "eth0")
        self.sh(pc, "ip", "route", "add", "default", "via", f"{lan}.1")
        self.sh(router, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1")
        rules = self.workdir / f"router{n}.nft"
        rules.write_text(ROUTER_RULES.replace('oifname "wan" masquerade',
                                              'oifname "wan" masquerade fully-random')
                         if symmetric else ROUTER_RULES)
        self.sh(router, "nft", "-f", str(rules))
        if upnp:
            conf = self.workdir / f"miniupnpd{n}.conf"
            conf.write_text(MINIUPNPD_CONF.format(lan=lan, allowed=allowed, uuid=f"1af2673b-73ff-4d9e-9e71-59{n:010d}"))
            self.spawn(router, ["miniupnpd", "-d", "-f", str(conf),
                                "-P", str(self.workdir / f"miniupnpd{n}.pid")], f"miniupnpd{n}.log")
        return Home(router, pc, f"{lan}.2", public_ip)


    def delayed_loopback(self, delay: float) -> str:
        """A namespace whose loopback connections all pass the delay hub
        (tests/net/delay_hub.py): every link gets `delay` seconds each way."""
        from tests.net import delay_hub
        ns = self.ns(f"d{int(delay * 1000)}")
        rules = self.workdir / f"delayhub-{ns}.nft"
        rules.write_text(delay_hub.RULES)
        self.sh(ns, "nft", "-f", str(rules))
        root = Path(__file__).resolve().parents[2]
        log = f"delayhub-{ns}.log"
        self.spawn(ns, ["env", f"PYTHONPATH={root}", sys.executable, "-m",
                        "tests.net.delay_hub", str(delay)], log)
        end = time.monotonic() + 20
        while "delay hub on port" not in (self.workdir / log).read_text():
            if time.monotonic() > end:
                raise RuntimeError(f"the delay hub did not start: {(self.workdir / log).read_text()}")
            time.sleep(0.05)
        return ns

    def public_computer(self) -> tuple[str, str]:
        """A computer on the internet bridge with a public IPv4 address and no router (the
        rendezvous servers' machine, issue 39): (namespace, address)."""
        self._homes += 1
        n = self._homes
        wan = self.internet()
        pc = self.ns(f"s{n}")
        self.link(pc, "eth0", wan, f"port{n}")
        self.sh(wan, "ip", "link", "set", f"port{n}", "master", "br0")
        address = f"{WAN_PREFIX}.{100 + n}"
        self.sh(pc, "ip", "addr", "add", f"{address}/24", "dev", "eth0")
        return pc, address

    def delay_to_internet(self, ns: str, delay: float) -> None:
        """Every TCP connection namespace `ns` opens to the lab's internet (11.0.0.0/24)
        passes the delay hub (tests/net/delay_hub.py) started in `ns`: `delay` seconds
        each way, as a slow access line would (this kernel has no netem)."""
        from tests.net import delay_hub
        rules = self.workdir / f"delayhub-{ns}.nft"
        rules.write_text(delay_hub.RULES.replace("ip daddr 127.0.0.0/8",
                                                 f"ip daddr {WAN_PREFIX}.0/24"))
        self.sh(ns, "nft", "-f", str(rules))
        root = Path(__file__).resolve().parents[2]
        log = f"delayhub-{ns}.log"
        self.spawn(ns, ["env", f"PYTHONPATH={root}", sys.executable, "-m",
                        "tests.net.delay_hub", str(delay)], log)
        end = time.monotonic() + 20
        while "delay hub on port" not in (self.workdir / log).read_text():
            if time.monotonic() > end:
                raise RuntimeError(f"the delay hub did not start: {(self.workdir / log).read_text()}")
            time.sleep(0.05)

    def ipv6_computer(self) -> tuple[str, str]:
        """A computer on the internet bridge with a global IPv6 address and no IPv4 at
        all (IPv6 needs no NAT): (namespace, address)."""
        self._homes += 1
        n = self._homes
        wan = self.internet()
        pc = self.ns(f"v{n}")
        self.link(pc, "eth0", wan, f"port{n}")
        self.sh(wan, "ip", "link", "set", f"port{n}", "master", "br0")
        address = f"{WAN6_PREFIX}::{n}"
        self.sh(pc, "ip", "-6", "addr", "add", f"{address}/64", "dev", "eth0", "nodad")
        return pc, address


# A home router: new connections from the internet are dropped unless miniupnpd made a
# port forward (DNAT) for them; everything leaving through the WAN is masqueraded.
ROUTER_RULES = """
table inet shogunlab {
    chain forward {
        type filter hook forward priority 0; policy accept;
        ct state established,related accept
        jump miniupnpd
        iifname "wan" drop
    }
    chain miniupnpd {
    }
    chain prerouting {
        type nat hook prerouting priority -100; policy accept;
        jump prerouting_miniupnpd
    }
    chain postrouting {
        type nat hook postrouting priority 100; policy accept;
        jump postrouting_miniupnpd
        oifname "wan" masquerade
    }
    chain prerouting_miniupnpd {
    }
    chain postrouting_miniupnpd {
    }
}
"""

MINIUPNPD_CONF = """ext_ifname=wan
listening_ip=lan
port=0
enable_natpmp=yes
enable_upnp=yes
secure_mode=yes
system_uptime=yes
uuid={uuid}
upnp_table_name=shogunlab
upnp_nat_table_name=shogunlab
upnp_forward_chain=miniupnpd
upnp_nat_chain=prerouting_miniupnpd
upnp_nat_postrouting_chain=postrouting_miniupnpd
allow 1024-65535 {lan}.0/24 {allowed}
deny 0-65535 0.0.0.0/0 0-65535
"""
