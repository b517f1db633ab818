"""Where this round's event and the players' special cards act, so the window can mark the
spot instead of leaving it to a list: the actions they change (badges on the action track)
and the provinces they change (badges on the map). Read from the card data through
`card_facts`; the engine applies the rules, this only says where to look.

Tests: tests/client/board/test_event_marks.py.
"""

from __future__ import annotations

from collections.abc import Mapping

from sim.snapshot import PlayerView, ProvinceView

from client.core import theme
from client.core.card_facts import event_effects
from lang.i18n import N_, _

# the actions each kind of event changes
EFFECT_ACTIONS = {
    "theatre_calms": ("theatre",),
    "neutral_peasants": ("battle_a", "battle_b"),
    "palace_defence": ("battle_a", "battle_b"),
    "temple_shield": ("battle_a", "battle_b"),
    "tax_at_most": ("tax",), "tax_at_least": ("tax",),
    "rice_at_most": ("rice",), "rice_at_least": ("rice",),
    "fewer_deployed": ("deploy5", "deploy3"),
}
# the actions each special card changes (the defence card acts on its owner's provinces)
SPECIAL_ACTIONS = {"chest": ("tax",), "rice": ("rice",), "six_armies": ("deploy5",),
                   "attack": ("battle_a", "battle_b")}
# map badges: the building whose provinces the event changes, and the badge's word
EFFECT_BUILDING = {"temple_shield": ("temple", N_("no attack")), "palace_defence": ("palace", "+1")}


def event_actions(event: int | None) -> tuple[str, ...]:
    """The actions this round's event card changes."""
    if event is None:
        return ()
    return EFFECT_ACTIONS.get(event_effects().get(event, ""), ())


def special_owners(players: Mapping[str, PlayerView] | None) -> dict[str, list[int]]:
    """{action: [seats]} whose special card changes that action this round."""
    out: dict[str, list[int]] = {}
    for seat, p in sorted((players or {}).items(), key=lambda kv: int(kv[0])):
        for action in SPECIAL_ACTIONS.get(p.get("special") or "", ()):
            out.setdefault(action, []).append(int(seat))
    return out


def event_provinces(event: int | None, provinces: Mapping[str, ProvinceView] | None) -> dict[str, str]:
    """{province: badge word} for provinces this round's event changes (temples that cannot
    be attacked, palaces defended by one more army)."""
    effect = event_effects().get(event, "") if event is not None else ""
    if effect not in EFFECT_BUILDING:
        return {}
    building, word = EFFECT_BUILDING[effect]
    return {n: _(word) for n, p in (provinces or {}).items()
            if building in (p.get("buildings") or []) and p.get("owner") is not None}


def event_sentence(event: int | None) -> str:
    """This round's event for a tooltip, as one sentence."""
    text = theme.EVENT_TEXT.get(event) if event is not None else None
    return _("This round's event: {event}.").format(event=text) if text else ""


def defended_by_special(players: Mapping[str, PlayerView] | None) -> set[int]:
    """Seats holding the +1 defence special (their provinces are defended by one more army)."""
    return {int(s) for s, p in (players or {}).items() if p.get("special") == "defence"}
