"""Game events in plain words, for the headless printout and the window's game log.

Pure: an event dict in, a line of text (or None for bookkeeping events) out. The words are
English unless a caller passes a translator (`tr`, anything with gettext's `gettext` and
`ngettext`, e.g. `lang.i18n.translator()`): sim keeps no language state of its own, so the
same events read the same in every peer and the JSON log stays English.

Tests: tests/sim/test_narrate.py, tests/client/words/test_whole_sentences.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from sim.cards import cards


def N_(message: str) -> str:
    """Marks a word for the catalogue; translated where it is used."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural pair for the catalogue."""
    return singular, plural


class Translator(Protocol):
    """What narration needs of a translator (gettext's `GNUTranslations` has it)."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


class English:
    """The source language: the translator used when none is passed."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


ENGLISH = English()

ACTION_WORDS = {a.name: a.label for a in cards().actions}
DOES = {"palace": N_("{who} builds a castle in {province}"),
        "temple": N_("{who} builds a temple in {province}"),
        "theatre": N_("{who} builds a Nō theatre in {province}"),
        "rice": N_("{who} collects rice in {province}"),
        "tax": N_("{who} collects tax in {province}"),
        "deploy5": N_("{who} deploys 5 in {province}"),
        "deploy3": N_("{who} deploys 3 in {province}"),
        "deploy1": N_("{who} deploys/moves 1 in {province}"),
        "battle_a": N_("{who} battles/moves (A) from {province}"),     # the armies' origin
        "battle_b": N_("{who} battles/moves (B) from {province}")}
SPECIAL_WORDS = {c.name: c.label for c in cards().specials}
SEASONS = {"spring": N_("Spring"), "summer": N_("Summer"), "autumn": N_("Autumn")}
TOWER_REASONS = {"fill": N_("fill"), "revolt": N_("revolt"), "battle": N_("battle")}
BATTLE_KINDS = {"attack": N_("attack"), "neutral": N_("neutral"), "revolt": N_("revolt")}
BUILDING_WORDS = {b.label: b.label for b in cards().building.values()}


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def count(n: int, one: str, many: str) -> str:
    """'1 army', '3 armies': players read words, so plurals must be right (English only;
    translated text uses its translator's `ngettext`)."""
    return f"{n} {one if n == 1 else many}"


def armies(n: int, tr: Translator = ENGLISH) -> str:
    return tr.ngettext("{n} army", "{n} armies", n).format(n=n)


def chests(n: int, tr: Translator = ENGLISH) -> str:
    return tr.ngettext("{n} chest", "{n} chests", n).format(n=n)


def who(colour: object) -> str:
    if colour == "peasant" or colour is None:
        return "peasants"
    return f"P{colour}"


def _listing(names: Iterable[str], tr: Translator) -> str:
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return tr.gettext("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def _cubes(counts: dict[str, int], name_of: Callable[[object], str], tr: Translator) -> str:
    if not counts:
        return tr.gettext("nothing")

    def part(c: str, n: int) -> str:
        if c == "peasant":
            return tr.ngettext("{n} peasant", "{n} peasants", n).format(n=n)
        return f"{n} {name_of(int(c))}"
    return ", ".join(part(c, n) for c, n in counts.items())


# The engine's lapse reasons (sim/rules/actions.py, movement.py), as sentence shapes a
# translator can reorder: (pattern over the English reason, message, plural?)
_LAPSES: list[tuple[re.Pattern[str], str | tuple[str, str]]] = [
    (re.compile(r"^(?P<p>.+) changed hands this round$"), N_("{p} changed hands this round")),
    (re.compile(r"^cannot pay (?P<n>\d+) chests?$"), Nn_("cannot pay {n} chest", "cannot pay {n} chests")),
    (re.compile(r"^(?P<p>.+) already has a (?P<b>.+)$"), N_("{p} already has a {b}")),
    (re.compile(r"^(?P<p>.+) has no free slot$"), N_("{p} has no free slot")),
    (re.compile(r"^no (?P<b>.+) is left in the box$"), N_("no {b} is left in the box")),
    (re.compile(r"^only (?P<n>\d+) armies in supply, (?P<m>\d+) needed$"),
     Nn_("only {n} army in supply, {m} needed", "only {n} armies in supply, {m} needed")),
    (re.compile(r"^no army is left in supply$"), N_("no army is left in supply")),
    (re.compile(r"^(?P<p>.+) needs at least 2 armies$"), N_("{p} needs at least 2 armies")),
    (re.compile(r"^(?P<p>.+) has no province it may enter$"), N_("{p} has no province it may enter")),
]


def lapse_reason(reason: str, tr: Translator = ENGLISH) -> str:
    """The engine's (English) reason an action lapsed, in the reader's language."""
    for pattern, message in _LAPSES:
        m = pattern.match(reason)
        if not m:
            continue
        fields = m.groupdict()
        if "b" in fields:
            building = fields["b"]
            said = tr.gettext(building)          # the card label; lower-case mid-sentence
            fields["b"] = building if said == building else _lower(said)
        if isinstance(message, tuple):
            n = int(fields["n"])
            return tr.ngettext(message[0], message[1], n).format(**fields)
        return tr.gettext(message).format(**fields)
    return reason


@dataclass(frozen=True)
class Narration:
    """How one reader wants events said: `who` names a seat (or "peasant"), `tr` translates."""
    who: Callable[[object], str]
    tr: Translator

    def action_word(self, name: str) -> str:
        return _lower(self.tr.gettext(ACTION_WORDS[name]))


def describe(e: Mapping[str, Any], who: Callable[[object], str] = who,
             tr: Translator = ENGLISH) -> str | None:
    """One line (or a few) for an event; `who` names a seat or "peasant" (a UI passes its
    own, e.g. colour names); `tr` translates (see the module's docstring). Events no
    reader needs told (e.g. a shuffled deck) have no narrator and give None."""
    _ = tr.gettext
    if who is globals()["who"]:
        def who(c: object, _plain: Callable[[object], str] = who) -> str:
            return _("peasants") if c == "peasant" or c is None else _plain(c)
    narrator = NARRATORS.get(e["event"])
    return narrator(e, Narration(who, tr)) if narrator else None


def _game_started(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    ngettext = say.tr.ngettext
    # whole phrases per side and setup: a language declines "the sun's side" its own way
    side = _("the sun side") if e["side"] == "sun" else _("the moon side")
    setup = _("the beginner setup") if e["setup"] == "beginner" else _("the draft setup")
    return ngettext("Shogun for {players} player on {side} with {setup}; each starts with "
                    "{chests}", "Shogun for {players} players on {side} with {setup}; each "
                    "starts with {chests}", e["players"]).format(
        players=e["players"], side=side, setup=setup,
        chests=chests(next(iter(e["money"].values())), say.tr))


def _province_claimed(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    return "  " + _("{who} claims {province} with {armies}").format(
        who=say.who(e["seat"]), province=e["province"], armies=armies(e["armies"], say.tr))


def _draft_ended(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    return "  " + _("The draft is over")


def _draft_cards_turned(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    return "  " + _("face up: {provinces}").format(provinces=", ".join(p for p in e["up"] if p))


def _tower_dropped(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    ngettext = say.tr.ngettext
    out = sum(e["out"].values())        # the verb agrees with what comes out (ro: iese/ies)
    line = (ngettext("tower ({reason}): in {thrown}; out {out}; inside now {inside}",
                     "tower ({reason}): in {thrown}; out {out}; inside now {inside}", out)
            if out else _("tower ({reason}): in {thrown}; nothing comes out; inside now {inside}"))
    return "    " + line.format(
        reason=_(TOWER_REASONS.get(e["reason"], e["reason"])),
        thrown=_cubes(e["thrown"], say.who, say.tr), out=_cubes(e["out"], say.who, say.tr),
        inside=sum(e["inside_after"].values()))


def _year_started(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    return "== " + _("Year {year}: events {events}").format(
        year=e["year"], events=", ".join(map(str, e["events"])))


def _round_started(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    row = ", ".join(say.action_word(a) for a in e.get("actions", []))
    specials = ", ".join(f"{i + 1}:{_(SPECIAL_WORDS[c]) if c else '-'}"
                         for i, c in enumerate(e["specials"]))
    return "-- " + _("{season} of year {year}. Face-up actions: {actions}. Specials "
                     "{specials}").format(season=_(SEASONS.get(e["season"], e["season"])),
                                          year=e["year"], actions=row, specials=specials)


def _event_drawn(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    card = cards().events[e["event_card"]]
    return "  " + _("Event {number}: {text}").format(number=e["event_card"], text=_(card.text))


def _bids_revealed(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    return "  " + _("Bids: {bids}").format(
        bids=", ".join(f"{say.who(int(s))} {b}" for s, b in e["bids"].items()))


def _turn_order_set(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    order = " > ".join(f"{say.who(s)} ({_(SPECIAL_WORDS[c]) if (c := e['specials'][str(s)]) else '-'})"
                       for s in e["order"])
    return "  " + _("Turn order: {order}").format(order=order)


def _action_started(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    return "  " + _("Action {slot}: {action}").format(slot=e["slot"], action=say.action_word(e["action"]))


def _action_revealed(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    return "  " + _("action {slot} is turned face up: {action}").format(
        slot=e["slot"], action=say.action_word(e["action"]))


def _action_done(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    gains = []
    if e["paid"]:
        gains.append(_("pays {n}").format(n=e["paid"]))
    if e["money_gained"]:
        gains.append("+" + chests(e["money_gained"], say.tr))
    if e["rice_gained"]:
        gains.append(_("+{n} rice").format(n=e["rice_gained"]))
    if e["armies_placed"]:
        gains.append("+" + armies(e["armies_placed"], say.tr))
    if e.get("moved_to"):
        gains.append(_("moves to {province}").format(province=e["moved_to"]))
    if e.get("attacked"):
        gains.append({"attacker": _("attacked {province} and won"),
                      "defender": _("attacked {province} and was beaten back"),
                      "draw": _("attacked {province} and drew")}[e["result"]].format(
            province=e["attacked"]))
    if e.get("revolt_lost"):
        gains.append(_("lost the province to a revolt"))
    does = DOES[e["action"]]
    line = _(does).format(who=say.who(e["seat"]), province=e["province"])
    return "    " + line + (f": {', '.join(gains)}" if gains else "")


def _action_lapsed(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    return "    " + _("{who}: {action} in {province} lapses ({reason})").format(
        who=say.who(e["seat"]), action=say.action_word(e["action"]), province=e["province"],
        reason=lapse_reason(e["reason"], say.tr))


def _moved(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    return "    " + _("{who} moves {armies} from {origin} to {target}").format(
        who=say.who(e["seat"]), armies=armies(e["count"], say.tr), origin=e["from"], target=e["to"])


def _battle_resolved(e: Mapping[str, Any], say: Narration) -> str:
    return "    " + battle_line(e, say.who, say.tr)


def _field_forfeited(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    if e["field"] == "bid":
        line = _("{who}'s bid card cannot be turned (the player left and a bot took the "
                 "seat over): it counts as a money card")
    else:
        line = _("{who}'s {action} card cannot be turned (the player left and a bot took "
                 "the seat over): it counts as a money card")
    action = "" if e["field"] == "bid" else say.action_word(e["field"])
    return "    " + line.format(who=say.who(e["seat"]), action=action)


def _winter_started(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    return "== " + _("Winter of year {year}: event {event} costs {rice} rice").format(
        year=e["year"], event=e["event_card"], rice=e["rice_loss"])


def _shortage(e: Mapping[str, Any], say: Narration) -> str:
    ngettext = say.tr.ngettext
    line = ngettext("{who} has {rice} rice for {n} province: short {short}, revolts in "
                    "{where}", "{who} has {rice} rice for {n} provinces: short {short}, "
                    "revolts in {where}", e["provinces"]).format(
        who=say.who(e["seat"]), rice=e["rice"], n=e["provinces"], short=e["shortage"],
        where=", ".join(e["drawn"]))
    if e["extra_peasants"]:
        line += " " + ngettext("(+{n} peasant each)", "(+{n} peasants each)",
                               e["extra_peasants"]).format(n=e["extra_peasants"])
    return "  " + line


def _scored(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    ngettext = say.tr.ngettext
    return "  " + _("{who} scores {gained} ({provinces}, {buildings}, {majority}) = "
                    "{score}").format(
        who=say.who(e["seat"]), gained=e["gained"],
        provinces=ngettext("{n} province", "{n} provinces", e["provinces"]).format(n=e["provinces"]),
        buildings=ngettext("{n} building", "{n} buildings", e["buildings"]).format(n=e["buildings"]),
        majority=_("{n} for majorities").format(n=e["majority_points"]), score=e["score"])


def _game_ended(e: Mapping[str, Any], say: Narration) -> str:
    _ = say.tr.gettext
    ngettext = say.tr.ngettext
    standings = sorted(e["scores"], key=lambda s: (-e["scores"][s], -e["money"][s]))
    lines = ["== " + _("Final standings")]
    for rank, s in enumerate(standings, 1):
        points = ngettext("{n} point", "{n} points", e["scores"][s]).format(n=e["scores"][s])
        lines.append(f"  {rank}. {say.who(int(s))}: {points}, {chests(e['money'][s], say.tr)}")
    lines.append("  " + ngettext("Winner: {names}", "Winners: {names}", len(e["winners"])).format(
        names=_listing([say.who(w) for w in e["winners"]], say.tr)))
    return "\n".join(lines)


# what each event kind says: one narrator per kind, so a new event is a new line here
NARRATORS: dict[str, Callable[[Mapping[str, Any], Narration], str]] = {
    "GameStarted": _game_started,
    "ProvinceClaimed": _province_claimed,
    "DraftEnded": _draft_ended,
    "DraftCardsTurned": _draft_cards_turned,
    "TowerDropped": _tower_dropped,
    "YearStarted": _year_started,
    "RoundStarted": _round_started,
    "EventDrawn": _event_drawn,
    "BidsRevealed": _bids_revealed,
    "TurnOrderSet": _turn_order_set,
    "ActionStarted": _action_started,
    "ActionRevealed": _action_revealed,
    "ActionDone": _action_done,
    "ActionLapsed": _action_lapsed,
    "Moved": _moved,
    "BattleResolved": _battle_resolved,
    "FieldForfeited": _field_forfeited,
    "WinterStarted": _winter_started,
    "Shortage": _shortage,
    "Scored": _scored,
    "GameEnded": _game_ended,
}


def battle_line(e: Mapping[str, Any], who: Callable[[object], str], tr: Translator) -> str:
    """A BattleResolved in whole clauses: the peasants are a plural subject of their own
    ("the peasants win", never "{attacker} win" with "peasants" put in), and a province
    "is neutral" or "belongs to" a seat (never "is {owner}" with "neutral" put in)."""
    _ = tr.gettext
    peasants = ("peasant", None)
    att, dfn = e["attacker"], e["defender"]
    head = {"revolt": _("revolt in {province}"), "neutral": _("attack on neutral {province}")
            }.get(e["kind"], _("battle for {province}")).format(province=e["province"])
    a, d = e["attacker_count"], e["defender_count"]
    if att in peasants:
        counts = _("the peasants {a} against {defender} {d}").format(a=a, defender=who(dfn), d=d)
    elif dfn in peasants:
        counts = _("{attacker} {a} against the peasants {d}").format(attacker=who(att), a=a, d=d)
    else:
        counts = _("{attacker} {a} against {defender} {d}").format(
            attacker=who(att), a=a, defender=who(dfn), d=d)
    if e["result"] == "draw":
        result = _("a draw")
    else:
        side = att if e["result"] == "attacker" else dfn
        result = (_("the peasants win") if e["result"] == "attacker" else _("the peasants hold")) \
            if side in peasants else \
            (_("{seat} wins the battle") if e["result"] == "attacker" else _("{seat} holds")).format(
                seat=who(side))
    n = e["survivors"]
    survivors = tr.ngettext("{n} army survives", "{n} armies survive", n).format(n=n)
    owner = e["new_owner"]
    held = (_("{province} is neutral").format(province=e["province"]) if owner is None else
            _("{province} belongs to {owner}").format(province=e["province"], owner=who(owner)))
    return _("{battle}: {counts} — {result}, {survivors}; {held}").format(
        battle=head, counts=counts, result=result, survivors=survivors, held=held)
