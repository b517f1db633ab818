"""Engine events in plain words, for the game log panel and banners."""

from __future__ import annotations

from client.theme import ACTION_SHORT, EVENT_TEXT, SPECIAL_LABELS, seat_name


def _counts(m: dict | None) -> str:
    if not m:
        return "nothing"
    return ", ".join(f"{n} {seat_name(_colour(c))}" for c, n in m.items() if n)


def _colour(c):
    if c in ("peasant", 5, "5"):
        return "peasant"
    try:
        return int(c)
    except (TypeError, ValueError):
        return c


def describe(e: dict) -> str | None:
    """One line for an event, or None for events not worth a line."""
    k = e.get("event")
    s = lambda key="seat": seat_name(e.get(key))  # noqa: E731
    if k == "GameStarted":
        return f"A {e['players']}-player game on the {e['side']} side ({e['setup']} setup) begins."
    if k == "ProvinceClaimed":
        return f"{s()} claims {e['province']} with {e['armies']} armies."
    if k == "TowerDropped":
        reason = {"fill": "The tower is filled", "battle": "Battle cubes drop",
                  "revolt": "Revolt cubes drop"}.get(e.get("reason"), "Cubes drop")
        return f"{reason}: thrown {_counts(e.get('thrown'))}; out {_counts(e.get('out'))}."
    if k == "YearStarted":
        evs = "; ".join(f"{n}: {EVENT_TEXT.get(n, '?')}" for n in e.get("events", []))
        return f"Year {e['year']} begins. Events this year — {evs}."
    if k == "RoundStarted":
        return f"{str(e['season']).capitalize()} of year {e['year']}: plan your actions."
    if k == "PlanRevealed":
        bid = e.get("bid")
        bid = "a province card" if bid == "province" else ("no card" if bid is None else f"{bid}")
        return f"{s()} reveals a plan, bidding {bid}."
    if k == "EventDrawn":
        ev = e.get("event_card", e.get("card"))
        return f"This round's event: {EVENT_TEXT.get(ev, ev)}."
    if k == "TurnOrderSet":
        order = ", ".join(seat_name(x) for x in e.get("order", []))
        return f"Turn order: {order}."
    if k == "ActionRevealed":
        return f"Action {e['slot']} is {ACTION_SHORT.get(e['action'], e['action'])}."
    if k == "ActionDone":
        bits = []
        if e.get("paid"):
            bits.append(f"pays {e['paid']}")
        if e.get("money_gained"):
            bits.append(f"gains {e['money_gained']} chests")
        if e.get("rice_gained"):
            bits.append(f"gains {e['rice_gained']} rice")
        if e.get("armies_placed"):
            bits.append(f"places {e['armies_placed']} armies")
        act = ACTION_SHORT.get(e.get("action"), e.get("action"))
        return f"{s()}: {act} in {e.get('province')}" + (f" — {', '.join(bits)}." if bits else ".")
    if k == "ActionLapsed":
        act = ACTION_SHORT.get(e.get("action"), e.get("action"))
        return f"{s()}: {act} in {e.get('province')} lapses ({e.get('reason')})."
    if k == "Moved":
        return f"{s()} moves {e['count']} from {e['from']} to {e['to']}."
    if k == "BattleResolved":
        res = e.get("result")
        who = {"attacker": seat_name(e.get("attacker")), "defender": seat_name(e.get("defender")),
               "draw": "nobody (draw)"}.get(res, res)
        kind = {"revolt": "Revolt", "neutral": "Attack on neutral", "attack": "Battle"}.get(e.get("kind"), "Battle")
        owner = e.get("new_owner")
        own = f"; {e['province']} now belongs to {seat_name(owner)}" if owner is not None else f"; {e['province']} is neutral"
        return (f"{kind} in {e['province']}: {seat_name(e.get('attacker'))} {e.get('attacker_count')} "
                f"vs {seat_name(e.get('defender'))} {e.get('defender_count')} — {who} wins, "
                f"{e.get('survivors', 0)} survive{own}.")
    if k == "WinterStarted":
        return f"Winter of year {e['year']}: everyone loses {e['rice_loss']} rice."
    if k == "Shortage":
        drawn = ", ".join(e.get("drawn", []) or [])
        return (f"{s()} has {e['rice']} rice for {e['provinces']} provinces: short {e['shortage']}, "
                f"{e['revolts']} revolt(s)" + (f" in {drawn}" if drawn else "") + ".")
    if k == "Scored":
        return (f"{s()} scores {e['gained']} ({e['provinces']} provinces, {e['buildings']} buildings, "
                f"{e['majority_points']} for majorities) — total {e['score']}.")
    if k == "GameEnded":
        win = ", ".join(seat_name(w) for w in e.get("winners", []))
        return f"The game ends. Winner: {win}."
    if k == "SpecialTaken" or k == "SpecialPicked":
        return f"{s()} takes {SPECIAL_LABELS.get(e.get('card'), e.get('card'))}."
    if k == "Snapshot":
        return None
    if k == "Resumed":
        return "The saved game continues."
    if k == "DraftEnded":
        return "The draft is over."
    return None
