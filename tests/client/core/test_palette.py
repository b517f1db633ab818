"""The player palette stays distinguishable for the common colour-vision deficiencies.

Colour differences are computed in CAM02-UCS (and CIELAB ΔE*ab, reported) after simulating
deuteranopia, protanopia and tritanopia with the Machado et al. (2009) matrices at full
severity, as implemented by the `colorspacious` package.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

colorspacious = pytest.importorskip("colorspacious")

from client.core.palette import PEASANTS, SEATS  # noqa: E402

CONDITIONS = (None, "deuteranomaly", "protanomaly", "tritanomaly")
MIN_DELTA_E = 20.0   # CAM02-UCS; about 4x the just-noticeable difference, i.e. "clearly different"


def simulate(rgb, condition):
    c = np.asarray(rgb, dtype=float) / 255
    if condition is not None:
        c = colorspacious.cspace_convert(
            c, {"name": "sRGB1+CVD", "cvd_type": condition, "severity": 100}, "sRGB1")
    return np.clip(c, 0, 1)


def closest_pair(colours, condition, space="CAM02-UCS"):
    """(smallest ΔE, i, j) over every pair of colours as someone with `condition` sees them."""
    sims = [simulate(c, condition) for c in colours]
    return min((float(colorspacious.deltaE(sims[i], sims[j], input_space="sRGB1",
                                           uniform_space=space)), i, j)
               for i, j in itertools.combinations(range(len(colours)), 2))


def palette_problems(colours, names):
    out = []
    for cond in CONDITIONS:
        d, i, j = closest_pair(colours, cond)
        if d < MIN_DELTA_E:
            out.append(f"{names[i]} and {names[j]} differ by only ΔE {d:.1f} "
                       f"under {cond or 'normal vision'}")
    return out


def test_seat_colours_stay_apart_under_colour_blindness():
    styles = list(SEATS) + [PEASANTS]
    problems = palette_problems([s.colour for s in styles], [s.name for s in styles])
    assert not problems, problems


def test_the_old_palette_fails_the_same_check():
    """The check can fail: the palette used before issue 13 does."""
    old = [(40, 95, 215), (240, 140, 25), (45, 45, 50), (240, 240, 235), (205, 55, 160),
           (70, 165, 60)]
    problems = palette_problems(old, ["Blue", "Orange", "Black", "White", "Magenta", "Peasants"])
    assert any("Orange and Peasants" in p and "protanomaly" in p for p in problems), problems


def test_every_seat_has_its_own_letter_and_shape():
    styles = list(SEATS) + [PEASANTS]
    assert len({s.letter for s in styles}) == len(styles)
    assert len({s.shape for s in styles}) == len(styles)
