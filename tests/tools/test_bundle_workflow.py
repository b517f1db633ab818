""".github/workflows/bundle.yml (Windows x86-64, macOS arm64) cannot run on this Linux
machine; what can be checked here is that it calls the project's own scripts as they are:
the files exist, the options are theirs, the archive names are the ones build_bundle writes,
and the physics is built, and proved by its digest, before the bundle."""

from __future__ import annotations

import re
from pathlib import Path

from tools import build_bundle, check_bundle

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = (ROOT / ".github" / "workflows" / "bundle.yml").read_text()


def test_every_script_it_runs_exists():
    scripts = set(re.findall(r"python ((?:tools/)?[\w/]+\.py)", WORKFLOW))
    assert scripts == {"tools/build_physics.py", "main.py", "tools/build_bundle.py",
                       "tools/check_bundle.py"}
    assert all((ROOT / s).is_file() for s in scripts)


def test_it_builds_the_two_systems_with_the_archive_names_build_bundle_gives():
    tags = re.findall(r"tag: ([\w-]+)", WORKFLOW)
    assert tags == [build_bundle.platform_tag("win32", "AMD64"),
                    build_bundle.platform_tag("darwin", "arm64")]
    assert "windows-2022" in WORKFLOW and "macos-14" in WORKFLOW


def test_the_physics_is_built_and_proved_before_the_bundle():
    order = [WORKFLOW.index(step) for step in (
        'pip install -e ".[bundle]"', "tools/build_physics.py --install",
        "physics: deterministic", "DETERMINISTIC_DIGEST", "tools/build_bundle.py",
        "tools/check_bundle.py")]
    assert order == sorted(order)


def test_the_check_options_it_passes_are_check_bundles():
    import contextlib
    import io
    help_text = io.StringIO()
    with contextlib.redirect_stdout(help_text), contextlib.suppress(SystemExit):
        check_bundle.main(["--help"])
    for option in set(re.findall(r"check_bundle\.py [^\n]*", WORKFLOW)):
        for flag in re.findall(r"--[\w-]+", option):
            assert flag in help_text.getvalue(), flag
