"""The players' colours, and the letter and shape each seat's pieces carry.

Why these colours: the earlier palette (blue, orange, black, white, magenta, green peasants)
made orange and the peasants' green almost the same under protanopia and blue/magenta close
under deuteranopia. These were chosen by a search that maximised the smallest CAM02-UCS
colour difference between any two seats under normal vision and simulated deuteranopia,
protanopia and tritanopia (Machado et al. 2009, full severity); tests/client/core/test_palette.py
recomputes those distances. Colour is never the only cue: every army disc has its seat's
shape and every tower cube its seat's letter.

Tests: tests/client/core/test_palette.py, tests/client/core/test_colour_blind.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from lang.i18n import N_


@dataclass(frozen=True)
class SeatStyle:
    """How one seat (or the peasants) looks on the board and in the tower."""

    name: str
    colour: tuple[int, int, int]
    letter: str      # drawn on tower cubes and in the legend
    shape: str       # army-disc outline: circle, square, diamond, hexagon, pentagon, triangle


# names are English (marked for the catalogue); client.core.theme.seat_name translates them
SEATS: tuple[SeatStyle, ...] = (
    SeatStyle(N_("Blue"), (49, 141, 229), "B", "circle"),
    SeatStyle(N_("Orange"), (250, 122, 7), "O", "square"),
    SeatStyle(N_("Black"), (35, 35, 40), "K", "diamond"),
    SeatStyle(N_("White"), (245, 245, 240), "W", "hexagon"),
    SeatStyle(N_("Magenta"), (175, 31, 122), "M", "pentagon"),
)
PEASANTS = SeatStyle(N_("Peasants"), (64, 99, 39), "P", "triangle")


# colour-blind mode: each seat's provinces also carry stripes at its own angle(s) (degrees;
# two angles cross-hatch), so ownership reads without telling colours apart
PATTERNS: dict[int, tuple[int, ...]] = {0: (0,), 1: (45,), 2: (90,), 3: (135,), 4: (0, 90)}


def style_of(who: object) -> SeatStyle | None:
    """The style of a seat number (0-4), or of the peasants ("peasant" or 5)."""
    if who == "peasant" or who == 5:
        return PEASANTS
    try:
        return SEATS[int(who)] if isinstance(who, (int, str, float)) else None
    except (TypeError, ValueError, IndexError):
        return None
