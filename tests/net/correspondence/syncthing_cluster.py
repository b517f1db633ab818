"""Real Syncthing instances on 127.0.0.1 sharing one folder (issue 51's tests and benchmark).

    with syncthing_cluster(tmp_path, 3) as cluster:
        a, b, c = cluster.instances
        (a.folder / "seat-1").write_bytes(b"...")
        cluster.wait_file(b, "seat-1", b"...")      # or cluster.wait_in_sync()
        c.stop(); ...; c.start()                      # a player's machine off and on again

Each instance is Debian's `syncthing` (1.19) started with a home made here (`syncthing
generate`, then its config.xml rewritten): the GUI/REST API on 127.0.0.1 at an ephemeral
port with an API key, listening only on tcp://127.0.0.1:PORT, every other device named by
its explicit tcp://127.0.0.1:PORT address, and global discovery, local discovery, relays,
NAT traversal (UPnP/NAT-PMP), STUN, usage reporting, crash reporting and upgrades off.
`offline_problems` checks the written config says so and the cluster refuses to start an
instance otherwise. The folder is a sendreceive folder with the file watcher on (1 s
delay) and a short rescan interval; readiness and completion are read from the REST API
(/rest/system/status, /rest/system/connections, /rest/db/status, /rest/db/completion,
/rest/events), never slept for.

The context manager always stops the processes and removes what it made. If syncthing is
missing or an instance cannot start, `SyncthingError` says why (with the log's tail).
"""

from __future__ import annotations

import ipaddress
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FOLDER_ID = "shogun-table"
WATCH_DELAY_S = 1          # the file watcher's aggregation delay (1.19 takes whole seconds)
RESCAN_S = 10              # full rescan interval, a fallback to the watcher
START_TIMEOUT = 30.0
INSTALL_HINT = ("Debian's syncthing package is needed: `tools/ensure-env --xvfb` (what "
                "./run-tests and CI run) or `tools/ensure-env --syncthing` installs it")


class SyncthingError(RuntimeError):
    """A Syncthing instance could not be set up, started or reached, in words."""


def syncthing_binary() -> str:
    """The syncthing program on PATH; SyncthingError naming how to install it otherwise."""
    found = shutil.which("syncthing")
    if found is None:
        raise SyncthingError(f"syncthing is not installed. {INSTALL_HINT}")
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _loopback_tcp(address: str) -> bool:
    parsed = urllib.parse.urlsplit(address)
    return parsed.scheme == "tcp" and parsed.hostname == "127.0.0.1" and parsed.port is not None


# options whose every value keeps an instance off the internet (config version 36, 1.19)
OFFLINE_OPTIONS: dict[str, str] = {
    "globalAnnounceEnabled": "false",
    "localAnnounceEnabled": "false",
    "relaysEnabled": "false",
    "natEnabled": "false",
    "urAccepted": "-1",
    "crashReportingEnabled": "false",
    "autoUpgradeIntervalH": "0",
    "upgradeToPreReleases": "false",
    "stunKeepaliveStartS": "0",
    "announceLANAddresses": "false",
    "startBrowser": "false",
}
# speed and politeness on a shared machine, not safety
QUICK_OPTIONS: dict[str, str] = {
    # Syncthing's default. An instance dials the others as it starts; two dialling each
    # other at the same moment can hang both for 1.19's 20 s Hello timeout, so the others
    # do not retry every second (they start in order, each dialling the earlier ones).
    "reconnectionIntervalS": "60",
    "setLowPriority": "false",
    "progressUpdateIntervalS": "1",
}


def offline_problems(config_xml: str) -> list[str]:
    """What in a config.xml could reach beyond 127.0.0.1 (empty: nothing).

    Checks the listen, device and GUI addresses and every option of OFFLINE_OPTIONS."""
    root = ET.fromstring(config_xml)
    problems: list[str] = []
    options = root.find("options")
    if options is None:
        return ["no <options> section"]
    for name, wanted in OFFLINE_OPTIONS.items():
        values = [e.text or "" for e in options.findall(name)]
        if values != [wanted]:
            problems.append(f"option {name} is {values}, not {wanted!r}")
    for e in options.findall("listenAddress"):
        if not _loopback_tcp(e.text or ""):
            problems.append(f"listens on {e.text!r}, not tcp://127.0.0.1:PORT")
    if not options.findall("listenAddress"):
        problems.append("no listenAddress (Syncthing's default listens on every interface)")
    for device in root.findall("device"):
        for e in device.findall("address"):
            if not _loopback_tcp(e.text or ""):
                problems.append(f"device {device.get('name')} has address {e.text!r}")
    gui = root.find("gui")
    address = gui.findtext("address") if gui is not None else None
    if address is None or not address.startswith("127.0.0.1:"):
        problems.append(f"GUI address {address!r} is not on 127.0.0.1")
    return problems


@dataclass(frozen=True)
class Socket:
    """One IP socket of a process: protocol (tcp, tcp6, udp, udp6), its two ends' hosts."""

    proto: str
    local: str
    remote: str


def _proc_address(field: str) -> str:
    """/proc/net/tcp's "0100007F:1F90" as "127.0.0.1" (the host; ports are not needed)."""
    hexaddr = field.split(":")[0]
    raw = b"".join(bytes.fromhex(hexaddr[i:i + 8])[::-1] for i in range(0, len(hexaddr), 8))
    return str(ipaddress.ip_address(raw))


@dataclass
class Instance:
    """One Syncthing process with its own home (config, keys, database) and shared folder."""

    name: str
    home: Path
    folder: Path
    device_id: str
    gui_port: int
    listen_port: int
    api_key: str
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    _log_handle: Any = field(default=None, repr=False)

    @property
    def address(self) -> str:
        return f"tcp://127.0.0.1:{self.listen_port}"

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    # -- the REST API --------------------------------------------------------------------
    def request(self, method: str, path: str, params: dict[str, str] | None = None,
                body: Any = None, timeout: float = 10.0) -> Any:
        """One REST call; the decoded JSON answer (None when empty)."""
        url = f"http://127.0.0.1:{self.gui_port}{path}"
        if params:
            url += "?" + urllib.parse.urlencode(params)
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method,
                                     headers={"X-API-Key": self.api_key})
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            raw = answer.read()
        return json.loads(raw) if raw.strip() else None

    def get(self, path: str, **params: str) -> Any:
        return self.request("GET", path, params)

    def post(self, path: str, **params: str) -> Any:
        return self.request("POST", path, params, timeout=30.0)

    def folder_status(self) -> dict[str, Any]:
        """/rest/db/status of the shared folder (state, needFiles, globalFiles, ...)."""
        status: dict[str, Any] = self.get("/rest/db/status", folder=FOLDER_ID)
        return status

    def completion(self, device_id: str) -> dict[str, Any]:
        """How complete another device's copy of the folder is, as this instance sees it."""
        done: dict[str, Any] = self.get("/rest/db/completion", folder=FOLDER_ID,
                                        device=device_id)
        return done

    def connected(self) -> set[str]:
        """The device IDs this instance is connected to now."""
        connections = self.get("/rest/system/connections")["connections"]
        return {d for d, c in connections.items() if c.get("connected")}

    def scan(self) -> None:
        """Rescan the folder now (returns when the scan is done)."""
        self.post("/rest/db/scan", folder=FOLDER_ID)

    def pause_all(self) -> None:
        """Disconnect from every other device (as if this machine went offline)."""
        self.post("/rest/system/pause")

    def resume_all(self) -> None:
        self.post("/rest/system/resume")

    def events(self, since: int = 0, types: tuple[str, ...] = (),
               timeout_s: int = 1) -> list[dict[str, Any]]:
        """/rest/events after the event id `since` (long-polled up to `timeout_s`), from
        the subscription Syncthing keeps from its start (every type but the *ChangeDetected
        ones), of the named `types` only if any are given. (A request naming its types in
        the API gets only events after that kind of request was first made.)"""
        found: list[dict[str, Any]] = self.request(
            "GET", "/rest/events", {"since": str(since), "timeout": str(timeout_s)},
            timeout=timeout_s + 10.0) or []
        return [e for e in found if not types or e.get("type") in types]

    # -- the process ---------------------------------------------------------------------
    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the process and wait until its REST API answers and the folder is up."""
        self.launch()
        self.wait_ready(timeout)

    def launch(self) -> None:
        """Start the process (not waiting for it: see wait_ready)."""
        if self.running:
            return
        config = (self.home / "config.xml").read_text()
        problems = offline_problems(config)
        if problems:
            raise SyncthingError(f"{self.name}: refusing to start, its config could reach "
                                 f"beyond 127.0.0.1: {'; '.join(problems)}")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home),
               "LANG": "C.UTF-8", "STNOUPGRADE": "1", "STNORESTART": "1",
               "STNODEFAULTFOLDER": "1", "all_proxy": "", "GOMAXPROCS": "2",
               # one process, no monitor (1.19 keeps one even with --no-restart)
               "STMONITORED": "yes",
               # the SHA-256 implementation named, so no second of benchmarking at start
               "STHASHING": "minio"}
        self._log_handle = open(self.log, "ab")
        self.proc = subprocess.Popen(
            [syncthing_binary(), "serve", f"--home={self.home}", "--no-browser",
             "--no-restart", "--no-upgrade", "--logflags=4"],
            env=env, stdin=subprocess.DEVNULL, stdout=self._log_handle,
            stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until the REST API answers, the listener is up and the folder scanned."""
        if self.proc is None:
            raise SyncthingError(f"{self.name}: not started")
        end = time.monotonic() + timeout
        last = "no answer yet"
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise SyncthingError(f"{self.name}: syncthing exited with status "
                                     f"{self.proc.returncode} while starting\n{self.log_tail()}")
            try:
                status = self.get("/rest/system/status")
                listeners = status.get("connectionServiceStatus", {})
                if listeners and all(v.get("error") for v in listeners.values()):
                    raise SyncthingError(f"{self.name}: cannot listen on {self.address}: "
                                         f"{listeners}\n{self.log_tail()}")
                state = self.folder_status().get("state")
                if state in ("idle", "syncing", "sync-waiting", "sync-preparing"):
                    return
                last = f"folder state {state!r}"
            except (urllib.error.URLError, ConnectionError, OSError) as e:
                last = str(e)
            time.sleep(0.05)
        raise SyncthingError(f"{self.name}: not ready after {timeout:.0f} s ({last})\n"
                             f"{self.log_tail()}")

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the process (REST shutdown, then SIGTERM, then SIGKILL)."""
        proc = self.proc
        if proc is not None and proc.poll() is None:
            try:
                self.post("/rest/system/shutdown")
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)   # its own session (launch)
                    proc.wait(5)
        self.proc = None
        if self._log_handle is not None:
            self._log_handle.close()
            self._log_handle = None

    def sockets(self) -> list[Socket]:
        """The running process's IP sockets, read from /proc (no tools needed)."""
        if self.proc is None or self.proc.poll() is not None:
            return []
        pid = self.proc.pid
        inodes = set()
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
        found = []
        for proto in ("tcp", "tcp6", "udp", "udp6"):
            with open(f"/proc/{pid}/net/{proto}") as table:
                for line in table.read().splitlines()[1:]:
                    cols = line.split()
                    if cols[9] in inodes:
                        found.append(Socket(proto, _proc_address(cols[1]),
                                            _proc_address(cols[2])))
        return found

    def kill(self) -> None:
        """Kill -9 the process (a crash, or the machine switched off)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
        self.stop()

    def log_tail(self, lines: int = 25) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(f"  {self.name}| {line}" for line in text.splitlines()[-lines:])


def _generate(name: str, home: Path) -> str:
    """Make a home with keys and a default config; the new device's ID."""
    done = subprocess.run(
        [syncthing_binary(), "generate", f"--home={home}", "--no-default-folder",
         "--skip-port-probing"],
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
             "STNOUPGRADE": "1"},
        capture_output=True, text=True, timeout=60)
    for line in (done.stdout + done.stderr).splitlines():
        if "Device ID:" in line:
            return line.split("Device ID:", 1)[1].strip()
    raise SyncthingError(f"{name}: `syncthing generate` gave no device ID "
                         f"(status {done.returncode}):\n{done.stdout}{done.stderr}")


def _set(parent: ET.Element, tag: str, text: str) -> None:
    for old in parent.findall(tag):
        parent.remove(old)
    ET.SubElement(parent, tag).text = text


def _write_config(me: Instance, everyone: list[Instance], watch_delay_s: int) -> None:
    """Rewrite the generated config.xml: loopback only, the peers, the shared folder."""
    path = me.home / "config.xml"
    root = ET.fromstring(path.read_text())
    for device in root.findall("device"):
        root.remove(device)
    folder = ET.Element("folder", {
        "id": FOLDER_ID, "label": "Shogun table", "path": str(me.folder),
        "type": "sendreceive", "rescanIntervalS": str(RESCAN_S), "fsWatcherEnabled": "true",
        "fsWatcherDelayS": str(watch_delay_s), "ignorePerms": "false",
        "autoNormalize": "true"})
    ET.SubElement(folder, "filesystemType").text = "basic"
    for other in everyone:
        ET.SubElement(ET.SubElement(folder, "device", {"id": other.device_id,
                                                       "introducedBy": ""}),
                      "encryptionPassword")
    for tag, text in (("minDiskFree", "1"), ("maxConflicts", "-1"), ("paused", "false"),
                      ("markerName", ".stfolder"), ("order", "oldestFirst")):
        e = ET.SubElement(folder, tag)
        e.text = text
        if tag == "minDiskFree":
            e.set("unit", "%")
    devices = []
    for other in everyone:
        device = ET.Element("device", {"id": other.device_id, "name": other.name,
                                       "compression": "metadata", "introducer": "false",
                                       "skipIntroductionRemovals": "false",
                                       "introducedBy": ""})
        ET.SubElement(device, "address").text = other.address
        for tag, text in (("paused", "false"), ("autoAcceptFolders", "false")):
            ET.SubElement(device, tag).text = text
        devices.append(device)
    for old in root.findall("folder"):
        root.remove(old)
    for i, e in enumerate([folder, *devices]):
        root.insert(i, e)
    gui = root.find("gui")
    if gui is None:
        raise SyncthingError(f"{me.name}: generated config.xml has no <gui>")
    gui.set("tls", "false")
    _set(gui, "address", f"127.0.0.1:{me.gui_port}")
    _set(gui, "apikey", me.api_key)
    options = root.find("options")
    if options is None:
        raise SyncthingError(f"{me.name}: generated config.xml has no <options>")
    _set(options, "listenAddress", me.address)
    for name, value in {**OFFLINE_OPTIONS, **QUICK_OPTIONS}.items():
        _set(options, name, value)
    _set(options, "globalAnnounceServer", "")
    _set(options, "stunServer", "")
    # the template for devices added later (none are): no "dynamic" address either
    defaults_device = root.find("defaults/device")
    if defaults_device is not None:
        for e in defaults_device.findall("address"):
            e.text = "tcp://127.0.0.1:1"
    text = ET.tostring(root, encoding="unicode")
    problems = offline_problems(text)
    if problems:
        raise SyncthingError(f"{me.name}: the written config could reach beyond "
                             f"127.0.0.1: {'; '.join(problems)}")
    path.write_text(text)


@dataclass
class Cluster:
    """Instances that share one folder (FOLDER_ID), each linked to every other."""

    instances: list[Instance]
    root: Path

    def __getitem__(self, i: int) -> Instance:
        return self.instances[i]

    def running(self) -> list[Instance]:
        return [i for i in self.instances if i.running]

    def wait_connected(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until every running instance is connected to every other running one."""
        end = time.monotonic() + timeout
        while True:
            up = self.running()
            missing = [f"{a.name}-{b.name}" for a in up for b in up
                       if a is not b and b.device_id not in a.connected()]
            if not missing:
                return
            if time.monotonic() > end:
                raise SyncthingError(f"not connected after {timeout:.0f} s: {missing}\n"
                                     + "\n".join(i.log_tail(10) for i in up))
            time.sleep(0.05)

    def wait_in_sync(self, timeout: float = START_TIMEOUT) -> None:
        """Scan every running instance, then wait until each has the global version of
        every file and sees every other running one 100% complete."""
        for inst in self.running():
            inst.scan()
        end = time.monotonic() + timeout
        while True:
            pending = self._pending()
            if not pending:
                return
            if time.monotonic() > end:
                raise SyncthingError(f"not in sync after {timeout:.0f} s: {pending}")
            time.sleep(0.05)

    def _pending(self) -> list[str]:
        up = self.running()
        pending: list[str] = []
        for a in up:
            status = a.folder_status()
            if status.get("state") != "idle" or status.get("needTotalItems", 0):
                pending.append(f"{a.name}: {status.get('state')}, needs "
                               f"{status.get('needTotalItems')} items")
            for b in up:
                if b is not a:
                    done = a.completion(b.device_id)
                    if done.get("completion") != 100 or done.get("needItems", 0):
                        pending.append(f"{a.name} sees {b.name} {done.get('completion')}%")
        return pending

    def wait_file(self, inst: Instance, name: str, want: bytes | Callable[[bytes], bool],
                  timeout: float = START_TIMEOUT) -> float:
        """Wait until `inst`'s copy of `name` holds `want` (bytes, or a test of the bytes);
        the seconds it took."""
        start = time.monotonic()
        path = inst.folder / name
        check = want if callable(want) else (lambda data: data == want)
        last: bytes | None = None
        while True:
            try:
                last = path.read_bytes()
                if check(last):
                    return time.monotonic() - start
            except FileNotFoundError:
                last = None
            if time.monotonic() - start > timeout:
                raise SyncthingError(
                    f"{inst.name}: {name} did not arrive in {timeout:.0f} s (has "
                    f"{'nothing' if last is None else f'{len(last)} bytes'})\n"
                    + "\n".join(i.log_tail(10) for i in self.instances))
            time.sleep(0.01)

    def stop(self) -> None:
        for inst in self.instances:
            inst.stop()


@contextmanager
def syncthing_cluster(parent: Path | None = None, count: int = 3,
                      names: tuple[str, ...] = ("alice", "bob", "carol"),
                      timeout: float = START_TIMEOUT,
                      watch_delay_s: int = WATCH_DELAY_S) -> Iterator[Cluster]:
    """`count` (2 or 3) linked, started, connected instances under a new directory of
    `parent` (the system's temporary directory by default); stopped and removed after.
    `watch_delay_s`: the folder's fsWatcherDelayS (Syncthing's own default is 10)."""
    if not 2 <= count <= len(names):
        raise ValueError(f"count must be 2 to {len(names)}, not {count}")
    syncthing_binary()
    root = Path(tempfile.mkdtemp(prefix="syncthing-cluster-", dir=parent))
    instances: list[Instance] = []
    cluster = Cluster(instances, root)
    try:
        for name in names[:count]:
            home = root / name / "home"
            folder = root / name / "table"
            folder.mkdir(parents=True)
            (folder / ".stfolder").mkdir()
            instances.append(Instance(
                name=name, home=home, folder=folder, device_id=_generate(name, home),
                gui_port=_free_port(), listen_port=_free_port(),
                api_key=secrets.token_urlsafe(24), log=root / name / "syncthing.log"))
        for inst in instances:
            _write_config(inst, instances, watch_delay_s)
        for inst in instances:   # in order: each dials the earlier ones, already listening
            inst.start(timeout)
        cluster.wait_connected(timeout)
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)
