"""Build the download for players without Python: a PyInstaller one-folder bundle (issue 38).

    tools/bundle                       # Linux/macOS: sets up .venv, then runs this
    python tools/build_bundle.py       # any system, in an environment with `.[bundle]`

Writes `dist/shogun/` (the executable `dist/shogun/shogun`, `shogun.exe` on Windows, and
`_internal/` with Python, the libraries and the game's data) and the archive a player
downloads: `dist/shogun-<version>-<system>-<machine>.tar.gz` (`.zip` on Windows), which
unpacks to one folder `shogun/`; on Linux the folder also carries a menu entry
(`shogun.desktop`, `add-to-menu`).

Why the checks: a downloaded game must compute the same tower drops as a cloned one, so
this refuses to build unless this Python imports the project's deterministic pymunk
(`tools/build_physics.py`), and afterwards makes sure the bundle holds exactly one copy
of pymunk's compiled library. The catalogues are compiled here (`.mo`), so the bundle
needs no Babel. The PyInstaller spec is `packaging/shogun.spec`, with the project's own
hook for Arcade in `packaging/hooks/`. docs/bundle.md says what is inside and why.

Exit status: 0 built, 1 refused or failed (the message says why).

Tests: tests/tools/test_build_bundle.py (the parts), tests/tools/test_bundle.py (the
built bundle, run as a player's machine would).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools import build_physics  # noqa: E402  (run as a script: the project on the path)
SPEC = ROOT / "packaging" / "shogun.spec"
LOCALE = ROOT / "lang" / "locale"
NAME = "shogun"
MAX_ARCHIVE_BYTES = 80 * 1024 * 1024      # what a player is asked to download, at most
LINUX_EXTRAS = ("shogun.desktop", "add-to-menu")     # from packaging/, into the folder

# Distributions the game depends on that packaging/shogun.spec leaves out (the bundle
# carries compiled catalogues instead of Babel; imageio-ffmpeg's static ffmpeg is a 170 MB
# GPL program, so a film made from the download is a GIF, docs/bundle.md): no licence of
# theirs is shipped either. (The spec excludes them by module name: `-` becomes `_`.)
# iterable-io and zipstream-ng (LGPL-3.0) are requirements of magic-wormhole that only its
# own file-transfer command line imports; the game (net/reach/rendezvous.py) never does.
NOT_SHIPPED = ("babel", "imageio-ffmpeg", "iterable-io", "zipstream-ng")
# Shipped in every bundle without being a dependency of the game: the bootloader.
BUILD_TOOLS_SHIPPED = ("pyinstaller",)
_LICENCE_FILE = re.compile(r"^(LICEN[CS]E|COPYING|NOTICE|AUTHORS)", re.IGNORECASE)

_SYSTEMS = {"linux": "linux", "win32": "windows", "darwin": "macos"}
_MACHINES = {"x86_64": "x86_64", "amd64": "x86_64", "arm64": "arm64", "aarch64": "arm64"}


class Refused(RuntimeError):
    """The bundle is not built (the message says why)."""


def version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])


def platform_tag(system: str = sys.platform, machine: str = platform.machine()) -> str:
    """`linux-x86_64`, `windows-x86_64`, `macos-arm64`: the archive's name says for whom."""
    sys_name = next((name for prefix, name in _SYSTEMS.items() if system.startswith(prefix)),
                    system)
    return f"{sys_name}-{_MACHINES.get(machine.lower(), machine.lower())}"


def archive_name(tag: str | None = None) -> str:
    tag = tag or platform_tag()
    suffix = ".zip" if tag.startswith("windows") else ".tar.gz"
    return f"{NAME}-{version()}-{tag}{suffix}"


def require_deterministic_physics() -> str:
    """The build id of the deterministic pymunk this Python imports, or `Refused`."""
    found = build_physics.imported_build()
    if found != build_physics.build_id():
        said = found or "the platform build (pymunk's PyPI wheel)"
        raise Refused(f"this Python imports {said}, not {build_physics.build_id()}: run "
                      "`python tools/build_physics.py --install` first (tools/ensure-env "
                      "does), so the download computes the same drops as a clone")
    return found


def compile_catalogues(stage: Path) -> list[Path]:
    """Each language's `.po` compiled to `stage/<lang>/LC_MESSAGES/shogun.mo` (the layout
    under `lang/locale/` that `lang.i18n` reads)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    written = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        lang = po.parent.parent.name
        with po.open("rb") as f:
            catalog = read_po(f, locale=lang, domain=po.stem)
        mo = stage / "lang" / "locale" / po.relative_to(LOCALE).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as f:
            write_mo(f, catalog)
        written.append(mo)
    return written


def compiled_libraries(folder: Path, stem: str = "_chipmunk") -> list[Path]:
    """The files of a compiled library named `stem` (any suffix) anywhere in `folder`."""
    return sorted(p for p in folder.rglob(f"{stem}*")
                  if p.is_file() and p.suffix in (".so", ".pyd", ".dylib", ".dll"))


def check_bundle(folder: Path) -> None:
    """What must hold of a built bundle before anyone downloads it."""
    copies = compiled_libraries(folder)
    if len(copies) != 1:
        raise Refused(f"the bundle holds {len(copies)} copies of pymunk's compiled library "
                      f"({', '.join(str(p.relative_to(folder)) for p in copies)}); one expected")
    version_file = folder / "_internal" / "arcade" / "VERSION"
    if not version_file.is_file():
        raise Refused(f"{version_file} is not a file (the Arcade hook of issue 2837?)")


def shipped_distributions(root: str = "shogun") -> list[str]:
    """The installed distributions the game needs (its requirements, theirs, and so on;
    no extras), less `NOT_SHIPPED`, plus `BUILD_TOOLS_SHIPPED`; sorted names."""
    from packaging.requirements import Requirement
    seen: dict[str, str] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        dist = importlib.metadata.distribution(name)
        seen[key] = dist.metadata["Name"]
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    names = [key for key in seen if key != root and key not in NOT_SHIPPED]
    return sorted(names + list(BUILD_TOOLS_SHIPPED))


def collect_licences(into: Path) -> list[str]:
    """Each shipped distribution's licence files into `into/<name>/`, and Python's own:
    the notices the libraries' licences ask a binary distribution to carry. A distribution
    whose wheel has no licence file gets the licence its metadata states
    (`LICENSE-from-metadata.txt`). Returns the folder names written."""
    into.mkdir(parents=True, exist_ok=True)
    written = []
    for name in shipped_distributions():
        dist = importlib.metadata.distribution(name)
        target = into / name
        target.mkdir(exist_ok=True)
        files = [f for f in dist.files or [] if _LICENCE_FILE.match(f.name)
                 and ".dist-info" in str(f)]
        for f in files:
            shutil.copyfile(Path(str(f.locate())), target / f.name)
        if not files:
            meta = dist.metadata
            stated = meta["License-Expression"] or meta["License"] or ""
            (target / "LICENSE-from-metadata.txt").write_text(
                f"{dist.metadata['Name']} {dist.version}: {stated.strip() or 'no licence stated'}\n",
                encoding="utf-8")
        written.append(name)
    python = Path(sys.base_prefix)
    for candidate in (python / "LICENSE.txt",
                      python / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "LICENSE.txt"):
        if candidate.is_file():
            (into / "python").mkdir(exist_ok=True)
            shutil.copyfile(candidate, into / "python" / "LICENSE.txt")
            written.append("python")
            break
    return written


def run_pyinstaller(dist: Path, work: Path, stage: Path) -> Path:
    env = dict(os.environ, SHOGUN_BUNDLE_STAGE=str(stage))
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
           "--distpath", str(dist), "--workpath", str(work), str(SPEC)]
    done = subprocess.run(cmd, cwd=ROOT, env=env)
    if done.returncode != 0:
        raise Refused(f"PyInstaller failed (exit {done.returncode})")
    return dist / NAME


def add_linux_extras(folder: Path) -> None:
    for name in LINUX_EXTRAS:
        shutil.copy2(ROOT / "packaging" / name, folder / name)


def make_archive(folder: Path, out: Path) -> Path:
    """`out` holding `folder` as one top-level folder `shogun/` (modes kept in a tar)."""
    out.unlink(missing_ok=True)
    if out.suffix == ".zip":
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for path in sorted(folder.rglob("*")):
                z.write(path, Path(NAME) / path.relative_to(folder))
    else:
        with tarfile.open(out, "w:gz", compresslevel=9) as t:
            t.add(folder, arcname=NAME)
    if out.stat().st_size > MAX_ARCHIVE_BYTES:
        raise Refused(f"{out.name} is {out.stat().st_size / 2**20:.1f} MB, over the "
                      f"{MAX_ARCHIVE_BYTES / 2**20:.0f} MB a player is asked to download")
    return out


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def build(dist: Path) -> Path:
    """The whole build; returns the archive."""
    physics = require_deterministic_physics()
    dist.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="shogun-bundle-") as tmp:
        stage = Path(tmp) / "stage"
        compile_catalogues(stage)
        folder = run_pyinstaller(dist, Path(tmp) / "work", stage)
    check_bundle(folder)
    collect_licences(folder / "licenses")
    if sys.platform.startswith("linux"):
        add_linux_extras(folder)
    archive = make_archive(folder, dist / archive_name())
    print(f"bundle: {folder} ({folder_bytes(folder) / 2**20:.1f} MB unpacked; {physics})")
    print(f"archive: {archive} ({archive.stat().st_size / 2**20:.1f} MB)")
    return archive


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist",
                        help="where the folder and the archive go (default: dist/)")
    args = parser.parse_args(argv)
    try:
        build(args.dist.resolve())
    except Refused as why:
        print(f"bundle: {why}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
