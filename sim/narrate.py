"""Game events in plain words, for the headless printout and the window's game log.

Pure: an event dict in, a line of text (or None for bookkeeping events) out.
"""

from __future__ import annotations

from sim.cards import cards

ACTION_WORDS = {a.name: a.label[:1].lower() + a.label[1:] for a in cards().actions}
DOES = {"palace": "builds a palace", "temple": "builds a temple",
        "theatre": "builds a Nō theatre", "rice": "collects rice", "tax": "collects tax",
        "deploy5": "deploys 5", "deploy3": "deploys 3", "deploy1": "deploys/moves 1",
        "battle_a": "battles/moves (A)", "battle_b": "battles/moves (B)"}
SPECIAL_WORDS = {**{c.name: c.label for c in cards().specials}, None: "-"}


def count(n: int, one: str, many: str) -> str:
    """'1 army', '3 armies': players read words, so plurals must be right."""
    return f"{n} {one if n == 1 else many}"


def armies(n: int) -> str:
    return count(n, "army", "armies")


def chests(n: int) -> str:
    return count(n, "chest", "chests")


def who(colour: object) -> str:
    if colour == "peasant" or colour is None:
        return "peasants"
    return f"P{colour}"


def _cubes(counts: dict, who=who) -> str:
    if not counts:
        return "nothing"
    def name(c, n):
        if c == "peasant":
            return "peasant" if n == 1 else "peasants"
        return who(int(c))
    return ", ".join(f"{n} {name(c, n)}" for c, n in counts.items())


def describe(e: dict, who=who) -> str | None:
    """One line (or a few) for an event; `who` names a seat or "peasant" (a UI passes its
    own, e.g. colour names)."""
    kind = e["event"]
    if kind == "GameStarted":
        return (f"Shogun for {e['players']} players, {e['side']} side, {e['setup']} setup; "
                f"each starts with {chests(next(iter(e['money'].values())))}")
    if kind == "ProvinceClaimed":
        return f"  {who(e['seat'])} claims {e['province']} with {armies(e['armies'])}"
    if kind == "DraftEnded":
        return "  The draft is over"
    if kind == "DraftCardsTurned":
        return f"  face up: {', '.join(p for p in e['up'] if p)}"
    if kind == "TowerDropped":
        return (f"    tower ({e['reason']}): in {_cubes(e['thrown'], who)}; out {_cubes(e['out'], who)}; "
                f"inside now {sum(e['inside_after'].values())}")
    if kind == "YearStarted":
        return f"== Year {e['year']}: events {', '.join(map(str, e['events']))}"
    if kind == "RoundStarted":
        row = ", ".join(ACTION_WORDS[a] for a in e.get("actions", []))
        specials = ", ".join(f"{i + 1}:{SPECIAL_WORDS[c]}" for i, c in enumerate(e["specials"]))
        return f"-- {e['season'].title()} of year {e['year']}. Face-up actions: {row}. Specials {specials}"
    if kind == "EventDrawn":
        return f"  Event {e['event_card']}: {cards().events[e['event_card']].text}"
    if kind == "BidsRevealed":
        return "  Bids: " + ", ".join(f"{who(int(s))} {b}" for s, b in e["bids"].items())
    if kind == "TurnOrderSet":
        return ("  Turn order: " + " > ".join(
            f"{who(s)} ({SPECIAL_WORDS[e['specials'][str(s)]]})" for s in e["order"]))
    if kind == "ActionStarted":
        return f"  Action {e['slot']}: {ACTION_WORDS[e['action']]}"
    if kind == "ActionRevealed":
        return f"  action {e['slot']} is turned face up: {ACTION_WORDS[e['action']]}"
    if kind == "ActionDone":
        gains = []
        if e["paid"]:
            gains.append(f"pays {e['paid']}")
        if e["money_gained"]:
            gains.append(f"+{chests(e['money_gained'])}")
        if e["rice_gained"]:
            gains.append(f"+{e['rice_gained']} rice")
        if e["armies_placed"]:
            gains.append(f"+{armies(e['armies_placed'])}")
        if e.get("moved_to"):
            gains.append(f"moves to {e['moved_to']}")
        if e.get("attacked"):
            gains.append(f"attacked {e['attacked']} and " + {
                "attacker": "won", "defender": "was beaten back", "draw": "drew"}[e["result"]])
        if e.get("revolt_lost"):
            gains.append("lost the province to a revolt")
        return f"    {who(e['seat'])} {DOES[e['action']]} in {e['province']}" + (
            f": {', '.join(gains)}" if gains else "")
    if kind == "ActionLapsed":
        return (f"    {who(e['seat'])}: {ACTION_WORDS[e['action']]} in {e['province']} lapses "
                f"({e['reason']})")
    if kind == "Moved":
        return f"    {who(e['seat'])} moves {armies(e['count'])} from {e['from']} to {e['to']}"
    if kind == "BattleResolved":
        result = {"attacker": f"{who(e['attacker'])} win", "defender": f"{who(e['defender'])} hold",
                  "draw": "draw"}[e["result"]]
        owner = "neutral" if e["new_owner"] is None else who(e["new_owner"])
        return (f"    battle for {e['province']} ({e['kind']}): {who(e['attacker'])} "
                f"{e['attacker_count']} vs {who(e['defender'])} {e['defender_count']} -> "
                f"{result}, {e['survivors']} {'survives' if e['survivors'] == 1 else 'survive'}; "
                f"{e['province']} is {owner}")
    if kind == "FieldForfeited":
        card = "bid" if e["field"] == "bid" else ACTION_WORDS[e["field"]]
        return (f"    {who(e['seat'])}'s {card} card cannot be turned (the player left and a "
                "bot took the seat over): it counts as a money card")
    if kind == "WinterStarted":
        return f"== Winter of year {e['year']}: event {e['event_card']} costs {e['rice_loss']} rice"
    if kind == "Shortage":
        return (f"  {who(e['seat'])} has {e['rice']} rice for {e['provinces']} provinces: short "
                f"{e['shortage']}, revolts in {', '.join(e['drawn'])}"
                + (f" (+{count(e['extra_peasants'], 'peasant', 'peasants')} each)"
                   if e['extra_peasants'] else ""))
    if kind == "Scored":
        return (f"  {who(e['seat'])} scores {e['gained']} ({e['provinces']} provinces, "
                f"{e['buildings']} buildings, {e['majority_points']} for majorities) = {e['score']}")
    if kind == "GameEnded":
        standings = sorted(e["scores"], key=lambda s: (-e["scores"][s], -e["money"][s]))
        lines = ["== Final standings"]
        for rank, s in enumerate(standings, 1):
            lines.append(f"  {rank}. {who(int(s))}: {count(e['scores'][s], 'point', 'points')}, "
                         f"{chests(e['money'][s])}")
        lines.append("  Winner: " + " and ".join(who(w) for w in e["winners"]))
        return "\n".join(lines)
    return None
