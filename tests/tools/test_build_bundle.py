"""tools/build_bundle.py and packaging/: the parts of the download's build that run without
building it (tests/tools/test_bundle.py builds and runs the bundle itself, in the slow run)."""

from __future__ import annotations

import gettext
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
from tools import build_bundle, build_physics


@pytest.mark.parametrize("system, machine, tag", [
    ("linux", "x86_64", "linux-x86_64"),
    ("win32", "AMD64", "windows-x86_64"),
    ("darwin", "arm64", "macos-arm64"),
    ("linux", "aarch64", "linux-arm64"),
])
def test_the_archive_is_named_for_the_system_it_runs_on(system, machine, tag):
    assert build_bundle.platform_tag(system, machine) == tag


def test_windows_gets_a_zip_the_others_a_tarball():
    version = build_bundle.version()
    assert build_bundle.archive_name("linux-x86_64") == f"shogun-{version}-linux-x86_64.tar.gz"
    assert build_bundle.archive_name("windows-x86_64") == f"shogun-{version}-windows-x86_64.zip"
    assert build_bundle.archive_name("macos-arm64") == f"shogun-{version}-macos-arm64.tar.gz"


def test_the_build_is_refused_without_the_deterministic_pymunk(monkeypatch):
    """A download with the PyPI wheel would split from a cloned game at the first battle."""
    monkeypatch.setattr(build_physics, "imported_build", lambda env=None: "")
    with pytest.raises(build_bundle.Refused, match="not deterministic pymunk"):
        build_bundle.require_deterministic_physics()
    monkeypatch.setattr(build_physics, "imported_build", lambda env=None: build_physics.build_id())
    assert build_bundle.require_deterministic_physics() == build_physics.build_id()


def test_the_compiled_catalogues_say_what_the_po_files_say(tmp_path):
    from lang.i18n import translations
    written = build_bundle.compile_catalogues(tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == [
        "lang/locale/nl/LC_MESSAGES/shogun.mo", "lang/locale/ro/LC_MESSAGES/shogun.mo"]
    for mo in written:
        lang = mo.parent.parent.name
        with mo.open("rb") as f:
            compiled = gettext.GNUTranslations(f)
        source = translations(lang)
        for word in ("Start", "Settings", "Close  [Esc]", "Your move"):
            assert compiled.gettext(word) == source.gettext(word)
        assert compiled.gettext("Settings") != "Settings"      # a translation, not English


def test_i18n_reads_a_compiled_catalogue_where_no_po_lies(tmp_path, monkeypatch):
    """The bundle's layout: `.mo` files and no `.po` (and no Babel)."""
    from lang import i18n
    build_bundle.compile_catalogues(tmp_path)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "lang" / "locale")
    i18n.translations.cache_clear()
    try:
        assert i18n.translations("nl").gettext("Settings") == "Instellingen"
    finally:
        i18n.translations.cache_clear()


def _bundle_folder(root: Path, copies: list[str], version_is_folder: bool = False) -> Path:
    folder = root / "shogun"
    for rel in copies:
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(b"\x7fELF")
    version = folder / "_internal" / "arcade" / "VERSION"
    version.parent.mkdir(parents=True, exist_ok=True)
    if version_is_folder:
        version.mkdir()
        (version / "VERSION").write_text("3.3.3")
    else:
        version.write_text("3.3.3")
    return folder


def test_a_bundle_with_one_compiled_pymunk_passes(tmp_path):
    build_bundle.check_bundle(_bundle_folder(tmp_path, ["_internal/pymunk/_chipmunk.abi3.so"]))


def test_a_second_copy_of_pymunks_library_is_refused(tmp_path):
    """Arcade's own hook put one more at the bundle's root."""
    folder = _bundle_folder(tmp_path, ["_internal/pymunk/_chipmunk.abi3.so",
                                       "_internal/_chipmunk.abi3.so"])
    with pytest.raises(build_bundle.Refused, match="2 copies"):
        build_bundle.check_bundle(folder)


def test_arcade_version_bundled_as_a_folder_is_refused(tmp_path):
    folder = _bundle_folder(tmp_path, ["_internal/pymunk/_chipmunk.abi3.so"], version_is_folder=True)
    with pytest.raises(build_bundle.Refused, match="issue 2837"):
        build_bundle.check_bundle(folder)


def _hook(path: Path) -> dict:
    return runpy.run_path(str(path))


def test_the_projects_arcade_hook_puts_version_in_a_file_and_no_pymunk_at_the_root():
    import arcade
    theirs = _hook(Path(arcade.__file__).parent / "__pyinstaller" / "hook-arcade.py")
    ours = _hook(ROOT / "packaging" / "hooks" / "hook-arcade.py")
    # Arcade 3.3.3's hook: VERSION's destination is a folder named VERSION, and pymunk's
    # library goes to the root a second time (the bugs this hook is here for)
    assert any(str(src).endswith("VERSION") and str(dest).rstrip("/").endswith("arcade/VERSION")
               for src, dest in theirs["datas"])
    assert any("_chipmunk" in str(src) for src, dest in theirs["binaries"])
    assert [dest for src, dest in ours["datas"] if str(src).endswith("VERSION")] == ["arcade"]
    assert not any("_chipmunk" in str(src) for src, dest in ours["binaries"])
    assert ours["hiddenimports"] == theirs["hiddenimports"]


def test_add_to_menu_writes_an_entry_with_this_folders_game_and_icon(tmp_path):
    folder = tmp_path / "unpacked here" / "shogun"
    folder.mkdir(parents=True)
    for name in build_bundle.LINUX_EXTRAS:
        (folder / name).write_bytes((ROOT / "packaging" / name).read_bytes())
    (folder / "add-to-menu").chmod(0o755)
    data = tmp_path / "data"
    done = subprocess.run([str(folder / "add-to-menu")], capture_output=True, text=True,
                          env={"PATH": os.environ["PATH"], "HOME": str(tmp_path),
                               "XDG_DATA_HOME": str(data)})
    assert done.returncode == 0, done.stderr
    entry = (data / "applications" / "shogun.desktop").read_text().splitlines()
    assert f'Exec="{folder}/shogun"' in entry
    assert f"Icon={folder}/_internal/assets/icon.png" in entry
    assert "Type=Application" in entry and "Name=Shogun" in entry


def test_the_licences_of_everything_shipped_go_with_it(tmp_path):
    written = build_bundle.collect_licences(tmp_path)
    for name in ("arcade", "pymunk", "pyglet", "twisted", "zeroconf", "pyinstaller", "python",
                 "magic-wormhole", "noiseprotocol", "spake2"):
        assert name in written and any((tmp_path / name).iterdir()), name
    assert "babel" not in written and "imageio-ffmpeg" not in written and "pytest" not in written and "mypy" not in written
    bootloader = (tmp_path / "pyinstaller" / "COPYING.txt").read_text()
    assert "exception" in bootloader.lower()         # the bootloader exception
    assert "Copyright" in (tmp_path / "arcade" / "LICENSE-from-metadata.txt").read_text()


def test_what_is_not_shipped_is_excluded_by_the_spec():
    spec = (ROOT / "packaging" / "shogun.spec").read_text()
    excludes = spec[spec.index("EXCLUDES = ["):spec.index("]", spec.index("EXCLUDES = ["))]
    for name in build_bundle.NOT_SHIPPED:
        assert f'"{name.replace("-", "_")}"' in excludes
    assert '"readline"' in excludes       # GNU readline (GPL-3) has no place in the download
