"""Real Syncthing (Debian's 1.19) carrying a correspondence table's folder on 127.0.0.1
(issue 51): appended seat files arrive whole, append-only growth syncs, concurrent edits
give Syncthing's own `.sync-conflict-` copies, and an instance that was off catches up.
The harness is tests/net/correspondence/syncthing_cluster.py; the tests that start it (one
3-instance cluster for the module, about 15 s in all) run with --runslow, as CI does.
Without syncthing installed they fail, naming the package (never pass or skip on nothing)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.net.correspondence.syncthing_cluster import (
    FOLDER_ID, Cluster, SyncthingError, offline_problems, syncthing_binary,
    syncthing_cluster)



def record(seat: int, n: int) -> bytes:
    """One fake sealed frame: a length-prefixed record as a seat file would hold."""
    body = f"seat {seat} move {n} ".encode() * 8
    return len(body).to_bytes(4, "big") + body


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    try:
        syncthing_binary()
        with syncthing_cluster(tmp_path_factory.mktemp("syncthing"), 3) as started:
            yield started
    except SyncthingError as e:
        pytest.fail(f"the Syncthing cluster could not run: {e}")


def others(cluster: Cluster, i: int) -> list[int]:
    return [j for j in range(len(cluster.instances)) if j != i]


def append(path: Path, data: bytes) -> None:
    with open(path, "ab") as f:
        f.write(data)


@pytest.mark.slow
@pytest.mark.network
def test_instances_stay_on_loopback(cluster: Cluster) -> None:
    """What each instance runs with, read back from it: no way out of 127.0.0.1."""
    for inst in cluster.instances:
        assert offline_problems((inst.home / "config.xml").read_text()) == []
        options = inst.get("/rest/config")["options"]
        assert options["listenAddresses"] == [inst.address]
        for name in ("globalAnnounceEnabled", "localAnnounceEnabled", "relaysEnabled",
                     "natEnabled", "crashReportingEnabled", "startBrowser",
                     "announceLANAddresses"):
            assert options[name] is False, name
        assert options["urAccepted"] == -1 and options["autoUpgradeIntervalH"] == 0
        assert options["stunKeepaliveStartS"] == 0
        status = inst.get("/rest/system/status")
        assert list(status["connectionServiceStatus"]) == [inst.address]
        assert status.get("discoveryEnabled", False) is False
        devices = inst.get("/rest/config")["devices"]
        assert {a for d in devices for a in d["addresses"]} == {
            i.address for i in cluster.instances}
    # and what each process has open, connected to each other: TCP on 127.0.0.1 only
    # (listening, or to 127.0.0.1), no UDP at all (no discovery, QUIC, STUN or UPnP)
    cluster.wait_connected()
    for inst in cluster.instances:
        sockets = inst.sockets()
        assert len(sockets) >= 4, sockets    # GUI, listener, two peers
        assert {s.proto for s in sockets} == {"tcp"}, sockets
        assert {s.local for s in sockets} == {"127.0.0.1"}, sockets
        assert {s.remote for s in sockets} <= {"127.0.0.1", "0.0.0.0"}, sockets


def test_offline_check_flags_syncthing_defaults() -> None:
    """The check the harness runs before starting an instance finds each way out in
    Syncthing's own default options (so a passing check means something)."""
    default = """<configuration version="36"><gui enabled="true" tls="false">
        <address>127.0.0.1:8384</address></gui><options>
        <listenAddress>default</listenAddress>
        <globalAnnounceEnabled>true</globalAnnounceEnabled>
        <localAnnounceEnabled>true</localAnnounceEnabled>
        <relaysEnabled>true</relaysEnabled><startBrowser>true</startBrowser>
        <natEnabled>true</natEnabled><urAccepted>0</urAccepted>
        <autoUpgradeIntervalH>12</autoUpgradeIntervalH>
        <upgradeToPreReleases>false</upgradeToPreReleases>
        <crashReportingEnabled>true</crashReportingEnabled>
        <stunKeepaliveStartS>180</stunKeepaliveStartS>
        <announceLANAddresses>true</announceLANAddresses></options>
        <device id="X" name="far"><address>dynamic</address></device></configuration>"""
    found = "\n".join(offline_problems(default))
    for name in ("globalAnnounceEnabled", "localAnnounceEnabled", "relaysEnabled",
                 "natEnabled", "urAccepted", "autoUpgradeIntervalH",
                 "crashReportingEnabled", "stunKeepaliveStartS", "announceLANAddresses",
                 "startBrowser", "'default'", "'dynamic'"):
        assert name in found, name
    assert len(offline_problems(default)) == 12


@pytest.mark.slow
@pytest.mark.network
def test_appended_seat_file_reaches_everyone_whole(cluster: Cluster) -> None:
    """A seat file written in alice's folder and then grown record by record arrives in
    bob's and carol's; every state they show on the way is a prefix of the file (Syncthing
    replaces a file whole, so a reader never sees a torn record from the sync itself)."""
    cluster.wait_connected()
    a = cluster[0]
    name = "seat-1.frames"
    data = record(1, 0)
    (a.folder / name).write_bytes(data)
    for j in others(cluster, 0):
        cluster.wait_file(cluster[j], name, data)
    seen: set[bytes] = set()
    for n in range(1, 5):
        append(a.folder / name, record(1, n))
        data += record(1, n)

        def arrived(got: bytes, want: bytes = data) -> bool:
            seen.add(got)
            return got == want
        for j in others(cluster, 0):
            cluster.wait_file(cluster[j], name, arrived)
    assert all(data.startswith(s) for s in seen), "a copy held bytes that are not a prefix"
    cluster.wait_in_sync()
    for inst in cluster.instances:
        assert (inst.folder / name).read_bytes() == data
        assert inst.folder_status()["needTotalItems"] == 0


@pytest.mark.slow
@pytest.mark.network
def test_concurrent_edits_leave_a_sync_conflict_copy(cluster: Cluster) -> None:
    """Alice and bob change the same file while alice is offline: once she is back every
    folder holds one version under the name and the other as Syncthing's
    NAME.sync-conflict-DATE-TIME-DEVICE.EXT copy (the real thing a reader must tolerate)."""
    cluster.wait_connected()
    a, b = cluster[0], cluster[1]
    name = "shared.frames"
    base = record(0, 0)
    (a.folder / name).write_bytes(base)
    for inst in cluster.instances[1:]:
        cluster.wait_file(inst, name, base)
    cluster.wait_in_sync()
    a.pause_all()
    try:
        end = time.monotonic() + 30
        while a.connected() or a.device_id in b.connected():
            assert time.monotonic() < end, "alice did not go offline"
            time.sleep(0.05)
        alice, bob = base + record(1, 1), base + record(2, 1) + record(2, 2)
        append(a.folder / name, record(1, 1))
        append(b.folder / name, record(2, 1) + record(2, 2))
        a.scan()
        b.scan()
    finally:
        a.resume_all()
    cluster.wait_connected()

    def settled() -> bool:
        return all(len(list(i.folder.glob("shared.sync-conflict-*.frames"))) == 1
                   for i in cluster.instances)
    end = time.monotonic() + 30
    while not settled():
        assert time.monotonic() < end, [sorted(p.name for p in i.folder.iterdir())
                                        for i in cluster.instances]
        time.sleep(0.05)
    cluster.wait_in_sync()
    for inst in cluster.instances:
        conflict = next(inst.folder.glob("shared.sync-conflict-*.frames"))
        assert {(inst.folder / name).read_bytes(), conflict.read_bytes()} == {alice, bob}
        assert conflict.name.split(".sync-conflict-")[1].count("-") == 2   # date-time-device


@pytest.mark.slow
@pytest.mark.network
@pytest.mark.parametrize("how", ["stop", "kill"])
def test_stopped_instance_catches_up_both_ways(cluster: Cluster, how: str) -> None:
    """Carol's Syncthing is stopped (or killed -9) while alice moves, and carol moves in
    her own folder before it starts again (a player's machine off, then on): once it
    runs, carol has alice's moves and alice and bob have carol's."""
    cluster.wait_connected()
    a, b, c = cluster.instances
    c.stop() if how == "stop" else c.kill()
    later = f"seat-1.{how}"
    alice = b"".join(record(1, n) for n in range(3))
    (a.folder / later).write_bytes(alice)
    cluster.wait_file(b, later, alice)
    carol = record(3, 0) + record(3, 1)
    (c.folder / f"seat-3.{how}").write_bytes(carol)
    c.start()
    cluster.wait_connected()
    cluster.wait_file(c, later, alice)
    cluster.wait_file(a, f"seat-3.{how}", carol)
    cluster.wait_file(b, f"seat-3.{how}", carol)
    cluster.wait_in_sync()
    assert FOLDER_ID in {f["id"] for f in c.get("/rest/config")["folders"]}
