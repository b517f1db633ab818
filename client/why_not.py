"""Why a clicked province is not a place the armies can go: a sentence for the player.

The engine's `move_targets` decides; this only explains a click outside its answer, from
the public view, in the same terms as the rules (R-EXEC-9/10/11, events 6 and 9), so that a
click on a non-target never does nothing silently (issue 13).
"""

from __future__ import annotations

from client.theme import seat_name

ACTION_WORDS = {"deploy1": "Deploy/move 1", "battle_a": "Battle/move A", "battle_b": "Battle/move B"}


def _listing(names) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def why_not_target(board, side: str, players: int, public: dict, seat: int, origin: str,
                   action: str, name: str) -> str:
    """A sentence saying why armies from `origin` cannot go to `name` for `action`."""
    provs = (public or {}).get("provinces", {})
    act = ACTION_WORDS.get(action, "This action")
    if name == origin:
        return f"Your armies are in {origin}: click a highlighted province to send them there."
    if players == 3 and name in board.excluded_3p[side]:
        return f"{name} is out of play in a 3-player game."
    nbs = board.neighbours[side][origin]
    if name not in nbs:
        return (f"{name} does not border {origin}. From {origin} armies can reach "
                f"{_listing(nbs)}.")
    if int((provs.get(origin) or {}).get("armies", 0) or 0) < 2:
        return f"At least one army must stay in {origin}, so none can leave it."
    owner = (provs.get(name) or {}).get("owner")
    if action == "deploy1" and owner != seat:
        return (f"{act} only moves armies into your own provinces; {name} belongs to "
                f"{seat_name(owner) if owner is not None else 'nobody'}. Attack it with a battle "
                f"action instead.")
    if owner != seat and "temple" in ((provs.get(name) or {}).get("buildings") or []) \
            and (public or {}).get("current_event") in (6, 9):
        return f"{name} has a temple, and this round's event forbids attacking temple provinces."
    return f"Armies from {origin} cannot go to {name} now."
