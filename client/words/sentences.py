"""Words for players: what the window shows is a sentence, never a rule id or raw data.

The engine's messages name the rule they apply (`R-EXEC-3: cannot pay …`) for logs and
tests; `for_players` takes the id out, says the engine's sentence in the player's language
(`client.words.engine_words`) and fixes "1 chests"-style plurals in English text built by code
that does not know its numbers in advance. `plural` is for text built here.

Tests: tests/client/words/test_sentences.py.
"""

from __future__ import annotations

import re

from client.words.engine_words import translate
from lang.i18n import N_, _, ngettext

_RULE_ID = re.compile(r"\bR-[A-Z]+-\d+[a-z]?\b")
_SINGULAR = {"chests": "chest", "armies": "army", "provinces": "province", "peasants": "peasant",
             "points": "point", "buildings": "building", "markers": "marker", "cubes": "cube",
             "steps": "step", "groups": "group", "revolts": "revolt"}
_ONE = re.compile(r"(?<![\d.,])([+−-]?1) (" + "|".join(_SINGULAR) + r")\b")


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural pair for the catalogue (translated by `plural`)."""
    return singular, plural


# the nouns `plural` counts, as catalogue entries so every language gets its own forms
_COUNTED = {forms[0].split()[-1]: forms for forms in (
    Nn_("{n} army", "{n} armies"), Nn_("{n} chest", "{n} chests"),
    Nn_("{n} province", "{n} provinces"), Nn_("{n} building", "{n} buildings"),
    Nn_("{n} revolt", "{n} revolts"), Nn_("{n} peasant", "{n} peasants"),
    Nn_("{n} point", "{n} points"), Nn_("{n} cube", "{n} cubes"),
    Nn_("{n} marker", "{n} markers"), Nn_("{n} group", "{n} groups"),
    Nn_("{n} step", "{n} steps"), Nn_("{n} round", "{n} rounds"),
    Nn_("{n} second", "{n} seconds"), Nn_("{n} player", "{n} players"))}


def plural(n: int, word: str, many: str | None = None) -> str:
    """`plural(1, "army", "armies")` -> "1 army"; `plural(3, "chest")` -> "3 chests", in the
    player's language for the nouns in `_COUNTED` (English forms otherwise)."""
    forms = _COUNTED.get(word)
    if forms is not None:
        return ngettext(forms[0], forms[1], n).format(n=n)
    return f"{n} {word if n == 1 else (many or word + 's')}"


def for_players(text: str) -> str:
    """The engine's sentence without rule ids, with singular nouns after a 1."""
    text = text.strip()
    text = re.sub(r"\(\s*" + _RULE_ID.pattern + r"\s*:\s*", "(", text)     # "(R-X-1: why)"
    text = re.sub(r"\s*\(\s*" + _RULE_ID.pattern + r"\s*\)", "", text)     # "… (R-X-1)"
    text = re.sub(r"^\s*" + _RULE_ID.pattern + r"\s*:\s*", "", text)       # "R-X-1: why"
    text = _RULE_ID.sub("", text)
    text = translate(re.sub(r"  +", " ", text).strip())       # the engine's English, said again
    text = _ONE.sub(lambda m: f"{m.group(1)} {_SINGULAR[m.group(2)]}", text)
    text = re.sub(r"^\[(\d+)\] ", lambda m: _("Action {n}: ").format(n=m.group(1)), text)
    text = re.sub(r"  +", " ", text).strip()
    return text[:1].upper() + text[1:] if text else text


def problem_text(exc: Exception) -> str:
    """What a refused command says to the player: its reason, in a sentence."""
    reason = getattr(exc, "reason", None) or str(exc)
    return for_players(str(reason))


# bot levels as the seat labels name them (sim.bots.LEVELS and the two baselines)
LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"),
               "heuristic": N_("heuristic"), "random": N_("random")}
