"""Colours, sizes and names shared by the client's nodes.

Tests: tests/client/core/test_colour_blind.py, tests/client/core/test_palette.py.
"""

from collections.abc import Sequence

from client.core import card_facts
from client.core.palette import PEASANTS, SEATS
from lang.i18n import N_, TranslatedList, _

# the seats' colours come from client/core/palette.py (chosen to be colour-blind safe)
SEAT_COLOURS = [s.colour for s in SEATS]
SEAT_NAMES = TranslatedList(s.name for s in SEATS)   # each lookup in the player's language
PEASANT = PEASANTS.colour
SEA = (150, 190, 205)
BG = (226, 218, 198)
INK = (30, 28, 25)
MUTED = (110, 100, 90)

REGION_COLOURS = {
    "brown": (186, 150, 105),
    "yellow": (236, 214, 120),
    "red": (222, 140, 120),
    "purple": (178, 150, 205),
    "green": (150, 196, 135),
}
# a region named in a sentence, whole (the colour word agrees with "region": Dutch "bruine
# regio", Romanian "regiunea maro")
REGION_NAMES = {
    "brown": N_("brown region"),
    "yellow": N_("yellow region"),
    "red": N_("red region"),
    "purple": N_("purple region"),
    "green": N_("green region"),
}
SMALLEST_TYPE = 8.5     # points: 11 px and more, the least any word is drawn at (issue 37)
EXCLUDED = (196, 196, 192)         # out of play in a 3-player game (drawn hatched)
EXCLUDED_HATCH = (120, 120, 118)
UNCLAIMED = (214, 204, 178)        # a province nobody holds: plain parchment
BUILDING_COLOURS = {"palace": (150, 30, 30), "temple": (30, 60, 150), "theatre": (20, 110, 70)}
UNREST = (200, 20, 20)

# Card words for tight places, read from the card data (sim.cards) through card_facts:
# the window holds no copy of a card fact.
ACTION_SHORT = card_facts.action_short()
SPECIAL_LABELS = card_facts.special_labels()
EVENT_TEXT = card_facts.event_short()
EVENT_RICE_LOSS = card_facts.event_rice_loss()


def _seat_number(who: object) -> int:
    """A seat given as a number or its text ("2"); TypeError for anything else."""
    if isinstance(who, (int, str, float)):
        return int(who)
    raise TypeError(f"not a seat: {who!r}")


def seat_colour(who: object) -> tuple[int, int, int]:
    if who == "peasant" or who == 5:
        return PEASANT
    try:
        return SEAT_COLOURS[_seat_number(who)]
    except (TypeError, ValueError, IndexError):
        return (128, 128, 128)


# the people's chosen names at the running table ({seat: "Aiko"}), set by the App for each
# game (`set_player_names`): log lines and messages then say "Aiko (Blue)"
PLAYER_NAMES: dict[int, str] = {}


def set_player_names(names: dict[int, str] | None) -> None:
    PLAYER_NAMES.clear()
    PLAYER_NAMES.update({int(s): n.strip() for s, n in (names or {}).items() if n and n.strip()})


def seat_name(who: object) -> str:
    if who == "peasant" or who == 5:
        return _("Peasants")
    if who is None:
        return _("nobody")
    try:
        colour = SEAT_NAMES[_seat_number(who)]
    except (TypeError, ValueError, IndexError):
        return str(who)
    name = PLAYER_NAMES.get(_seat_number(who))
    return f"{name} ({colour})" if name else colour


def text_on(colour: tuple[int, ...]) -> tuple[int, int, int]:
    r, g, b = colour[:3]
    return (20, 20, 20) if (0.3 * r + 0.59 * g + 0.11 * b) > 140 else (250, 250, 250)


def mix(a: Sequence[int], b: Sequence[int], t: float) -> tuple[int, int, int]:
    r, g, bl = (int(a[i] * (1 - t) + b[i] * t) for i in range(3))
    return r, g, bl
