"""The project's PyInstaller hook for Arcade 3.3.3, in place of Arcade's own (tools/bundle).

PyInstaller prefers a hook given with `hookspath` (packaging/shogun.spec) to the one a
package ships, so this file replaces `arcade/__pyinstaller/hook-arcade.py`. Two changes:

* `arcade/VERSION` goes into the folder `arcade` (Arcade's hook names the destination
  `arcade/VERSION`, which PyInstaller takes as a folder: the bundled game then printed
  "Unable to load version number ... Is a directory" and reported 0.0.0; Arcade issue
  2837, fixed after 3.3.3). Remove this hook once a fixed Arcade is pinned.
* pymunk's compiled library is not copied to the bundle's root. PyInstaller already
  bundles it where `pymunk._chipmunk` is imported from (`pymunk/`); the root copy was
  never loaded, and a second copy could be a different build from the one the tower runs.
  The one left is the project's deterministic build (tools/build_bundle.py checks that
  before building, tests/tools/test_bundle.py counts the copies and runs the selftest).
"""

from importlib.util import find_spec
from pathlib import Path

from PyInstaller.compat import is_darwin

hiddenimports = ["arcade.gl.backends.opengl.provider", "arcade.gl.backends.opengl"]

_spec = find_spec("arcade")
if _spec is None or _spec.origin is None:
    raise ImportError("Arcade is not installed")
_arcade = Path(_spec.origin).parent

datas = [(str(_arcade / "resources" / "system"), "arcade/resources/system"),
         (str(_arcade / "VERSION"), "arcade")]
binaries = [(str(_arcade / "lib"), "arcade/lib")] if is_darwin else []
