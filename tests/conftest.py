"""Shared test options: slow/network tests run only with --runslow (CI passes it)."""
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


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow/network: run with --runslow")
    for item in items:
        if "slow" in item.keywords or "network" in item.keywords:
            item.add_marker(skip)
