"""tools/make_icon.py: the committed icon is what the script draws (nothing borrowed), and
the window and the download use that one file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[2]
ICON = ROOT / "assets" / "icon.png"


def test_the_script_draws_the_committed_icon(tmp_path):
    out = tmp_path / "icon.png"
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_icon.py"), str(out)],
                   check=True, capture_output=True)
    with Image.open(out) as made, Image.open(ICON) as committed:
        assert made.size == committed.size == (256, 256)
        assert made.mode == committed.mode == "RGBA"
        # give or take one step per channel (a resampling filter's last bit elsewhere)
        low, high = ImageChops.difference(made, committed).getextrema()[0]
        assert high <= 1


def test_the_window_and_the_bundle_name_the_same_file():
    from client.app import ICON as window_icon
    assert window_icon == ICON
    spec = (ROOT / "packaging" / "shogun.spec").read_text()
    assert '"icon.png"' in spec
