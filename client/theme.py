"""Colours, sizes and names shared by the client's nodes."""

from client.palette import PEASANTS, SEATS

# the seats' colours come from client/palette.py (chosen to be colour-blind safe)
SEAT_COLOURS = [s.colour for s in SEATS]
SEAT_NAMES = [s.name for s in SEATS]
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
REGION_DARK = {
    "brown": (110, 80, 45),
    "yellow": (165, 135, 30),
    "red": (160, 60, 45),
    "purple": (100, 70, 140),
    "green": (60, 120, 55),
}
EXCLUDED = (196, 196, 192)         # out of play in a 3-player game (drawn hatched)
EXCLUDED_HATCH = (120, 120, 118)
UNCLAIMED = (214, 204, 178)        # a province nobody holds: plain parchment
BUILDING_COLOURS = {"palace": (150, 30, 30), "temple": (30, 60, 150), "theatre": (20, 110, 70)}
UNREST = (200, 20, 20)

ACTION_LABELS = {
    "palace": "Palace (3)", "temple": "Temple (2)", "theatre": "Nō theatre (1)",
    "rice": "Collect rice", "tax": "Collect tax", "deploy5": "Deploy 5 (3)",
    "deploy3": "Deploy 3 (2)", "deploy1": "Deploy/move 1 (1)", "battle_a": "Battle/move A",
    "battle_b": "Battle/move B",
}
ACTION_SHORT = {
    "palace": "Palace", "temple": "Temple", "theatre": "Theatre", "rice": "Rice",
    "tax": "Tax", "deploy5": "Deploy 5", "deploy3": "Deploy 3", "deploy1": "Deploy 1",
    "battle_a": "Battle A", "battle_b": "Battle B",
}
SPECIAL_LABELS = {
    "chest": "+1 chest", "rice": "+1 rice", "six_armies": "6 armies",
    "attack": "+1 attack", "defence": "+1 defence",
}
EVENT_TEXT = {
    1: "New nō theatre removes 1 unrest",
    2: "New nō theatre removes 1 unrest",
    3: "Attacking a neutral: 2 peasants",
    4: "Palace attacked: +1 defender army",
    5: "Palace attacked: +1 defender army",
    6: "Temple provinces can't be attacked",
    7: "Collect tax gives at most 5",
    8: "Collect tax gives at least 6",
    9: "Temple provinces can't be attacked",
    10: "Collect rice gives at least 4",
    11: "Collect rice gives at most 3",
    12: "Deploy 5 gives 3, deploy 3 gives 2",
}
EVENT_RICE_LOSS = {1: 5, 2: 7, 3: 3, 4: 2, 5: 6, 6: 3, 7: 0, 8: 2, 9: 4, 10: 3, 11: 4, 12: 1}


def seat_colour(who) -> tuple[int, int, int]:
    if who == "peasant" or who == 5:
        return PEASANT
    try:
        return SEAT_COLOURS[int(who)]
    except (TypeError, ValueError, IndexError):
        return (128, 128, 128)


def seat_name(who) -> str:
    if who == "peasant" or who == 5:
        return "Peasants"
    if who is None:
        return "nobody"
    try:
        return SEAT_NAMES[int(who)]
    except (TypeError, ValueError, IndexError):
        return str(who)


def text_on(colour) -> tuple[int, int, int]:
    r, g, b = colour[:3]
    return (20, 20, 20) if (0.3 * r + 0.59 * g + 0.11 * b) > 140 else (250, 250, 250)


def mix(a, b, t: float) -> tuple[int, int, int]:
    return tuple(int(a[i] * (1 - t) + b[i] * t) for i in range(3))
