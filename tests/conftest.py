"""Shared test options: slow/network tests run only with --runslow (CI passes it), and
--phase, with which ./run-tests runs the suite in two parts (docs/testing.md): the tests
that may share the machine with a second worker (`--phase shared`, run with
pytest-xdist's two workers), then the tests that run alone (`--phase alone`, one after
another)."""
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# The peers and games the tests start as processes speak the system's language; the tests
# read their English console lines, so a tester whose desktop is Dutch gets the same run.
os.environ["LANGUAGE"] = "en"


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked slow or network")
    parser.addoption("--phase", choices=("shared", "alone"), default=None,
                     help="only the tests that may run beside another worker (shared) or "
                          "only those that run alone (alone); ./run-tests runs both")


# Tests that run alone (./run-tests' second, serial part) besides those marked `network`
# or `alone`: real peer processes, sockets, network or mount namespaces, silences measured
# in seconds, frames counted against the clock, or builds and installs that share folders
# with each other. A second worker taking one of the two cores could make them time out or
# miss a deadline they check. Paths from the project root; a folder takes all its files.
RUN_ALONE = (
    "tests/net/",                          # peers, loopback, netns, silence timeouts
    "tests/physics/",                      # pymunk built under every Python, namespaces
    "tests/test_install.py",               # pip install of the checkout (build/ in it)
    "tests/tools/test_bundle.py",          # PyInstaller into dist/ and its build folder
    "tests/cli/test_headless.py",          # a game process watched as its save grows
    "tests/client/core/test_reactor_threads.py",   # a reactor thread with a 30 s deadline
    "tests/client/widgets/test_thinking.py",       # frames counted in 1.5 s of clock
    "tests/client/sessions/test_net_window.py",    # a window hosting real peer processes
    "tests/client/scenes/test_lobby_window.py",    # a closed loopback port
)
# ... except these files under tests/net/, which use the in-memory network only
# (tests/net/fakenet.py, tests/net/mesh_harness.py, twisted.internet.testing's
# MemoryReactor and Clock), files in tmp_path, and no clock but a fake one: decision
# tables, lockstep, sessions and attacks played in memory. Each was read for processes,
# sockets, namespaces, sleeps and wall-clock limits before it went here; the few real
# sockets in them are marked `alone`. A new file under tests/net/ runs alone until it is
# added here.
SHARED_NET = {
    "correspondence": "fake_sync folder_expulsion folder_handover folder_link folder_names "
                      "folder_said_twice fork_proof replay_save said_again said_twice "
                      "seat_claim seat_handover seat_record seat_trust table_door "
                      "table_start turn_timer",
    "lockstep": "beacon_commitment blame bot_plans_sealed core echo field_reveal "
                "real_engine tower_vote",
    "reach": "discovery internet_addresses invite_codes offered pair_tunnels peer_links "
             "rendezvous table_choice tunnel_splice",
    "table": "admission chat cut_off faults_random forwarded_host hand_to_bot join_retry "
             "liveness lobby lobby_record mesh_addresses missed_inputs pair_links relays "
             "report_counting session shared start_digest takeover_agreement",
    "transport": "framing fuzz message_records peer round_trip slot_choice",
    "trust": "attacks bounded_handshake door_identity guess_budget hostile peer_text "
             "secure_channel signature_checks tower_proofs",
    ".": "recycled_pake",
}
SHARED_ANYWAY = tuple(f"tests/net/{folder}/test_{name}.py".replace("/./", "/")
                      for folder, names in SHARED_NET.items() for name in names.split())
ROOT = Path(__file__).resolve().parent.parent


def runs_alone(item: pytest.Item) -> bool:
    if item.get_closest_marker("network") or item.get_closest_marker("alone"):
        return True
    where = item.path.resolve().relative_to(ROOT).as_posix()
    if where in SHARED_ANYWAY:
        return False
    return any(where == p or (p.endswith("/") and where.startswith(p)) for p in RUN_ALONE)


def pytest_collection_modifyitems(config, items):
    phase = config.getoption("--phase")
    if phase is not None:
        wanted = phase == "alone"
        other = [item for item in items if runs_alone(item) != wanted]
        if other:
            config.hook.pytest_deselected(items=other)
            items[:] = [item for item in items if runs_alone(item) == wanted]
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow/network: run with --runslow")
    for item in items:
        if "slow" in item.keywords or "network" in item.keywords:
            item.add_marker(skip)
