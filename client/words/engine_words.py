"""The engine's reasons in the player's language.

`sim` explains a refused plan or command in English (`Problem.text`, `IllegalCommand`), and
those words stay English in logs and tests. The window shows them through
`client.words.sentences.for_players`, which asks `translate` here: each sentence shape the engine
writes (sim/legal.py) is matched and said again from the catalogue, with its numbers and
names kept. A sentence of no known shape is shown as it is.

Tests: tests/client/words/test_i18n.py (the engine's reasons in each language).
"""

from __future__ import annotations

import re

from lang.i18n import N_, _, current, ngettext
from sim.narrate import Nn_

_P = r"(?P<p>[A-Z][\w-]*(?: [\w-]+)?)"   # a province name ("Awa-Shikoku")
# (English pattern, marked message, the field that counts a plural)
_rows: list[tuple[str, str | tuple[str, str], str | None]] = [
    (r"put a province card on at least (?P<k>\d+) action fields? \(now (?P<n>\d+)\)",
     Nn_("put a province card on at least {k} action field (now {n})",
         "put a province card on at least {k} action fields (now {n})"), "k"),
    (r"put a card on the bid field", N_("put a card on the bid field"), None),
    (r"a bid of (?P<b>\d+) is more than your (?P<m>\d+) chests?",
     Nn_("a bid of {b} is more than your {m} chest", "a bid of {b} is more than your {m} chests"), "m"),
    (r"a bid of (?P<b>\d+) is more than the chests owned", N_("a bid of {b} is more than the chests owned"), None),
    (r"there is no money card (?P<b>-?\d+)", N_("there is no money card {b}"), None),
    (r"you do not hold the province card " + _P, N_("you do not hold the province card {p}"), None),
    (r"each province card may lie on one field only", N_("each province card may lie on one field only"), None),
    (_P + r" cannot be both your bid and on an action field",
     N_("{p} cannot be both your bid and on an action field"), None),
    (_P + r" already lies on another field", N_("{p} already lies on another field"), None),
    (r"a battle/move action must move armies when it can",
     N_("a battle/move action must move armies when it can"), None),
    (_P + r" is not in play", N_("{p} is not in play"), None),
    (_P + r" does not border (?P<o>[A-Z][\w-]*(?: [\w-]+)?)", N_("{p} does not border {o}"), None),
    (r"deploy/move 1 may only move into your own provinces",
     N_("deploy/move 1 may only move into your own provinces"), None),
    (_P + r" may not be attacked this round \(temple\)",
     N_("{p} may not be attacked this round (temple)"), None),
    (r"move 1 to (?P<m>\d+) arm(?:y|ies) \(at least one stays in (?P<o>[\w -]+)\), not (?P<c>-?\d+)",
     Nn_("move 1 to {m} army (at least one stays in {o}), not {c}",
         "move 1 to {m} armies (at least one stays in {o}), not {c}"), "m"),
    (r"turn-order position (?P<n>\d+) is not free", N_("turn-order position {n} is not free"), None),
    (r"you have no army group of (?P<n>\d+) left to place",
     N_("you have no army group of {n} left to place"), None),
    (r"choose a face-up card, the deck or a refresh", N_("choose a face-up card, the deck or a refresh"), None),
    (r"the deck is empty", N_("the deck is empty"), None),
    (r"that face-up card is gone", N_("that face-up card is gone"), None),
    (r"the face-up cards may be put under the deck only by a player who faced the same two on "
     r"their previous pick", N_("the face-up cards may be put under the deck only by a player who "
                                "faced the same two on their previous pick"), None),
    (r"list each revolting province exactly once: (?P<l>.+)",
     N_("list each revolting province exactly once: {l}"), None),
    (r"that command does not answer this decision", N_("that command does not answer this decision"), None),
]
SHAPES: list[tuple[re.Pattern[str], str | tuple[str, str], str | None]] = [
    (re.compile("^" + pattern + "$"), message, count) for pattern, message, count in _rows]


def translate(text: str) -> str:
    """`text` (an engine sentence without its rule id) in the player's language."""
    if current() == "en":
        return text
    body = text.strip()
    stop = "." if body.endswith(".") else ""
    body = body[:-1] if stop else body
    for pattern, message, count in SHAPES:
        m = pattern.match(body)
        if not m:
            continue
        fields = m.groupdict()
        if isinstance(message, tuple):
            return ngettext(message[0], message[1], int(fields[count or "n"])).format(**fields) + stop
        return _(message).format(**fields) + stop
    return text
