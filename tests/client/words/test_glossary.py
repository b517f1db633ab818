"""Every rulebook term in docs/glossary.md is used the same way in each catalogue (issue
49 item 3): a message whose English names a term says the language's word from the table
("palace" is "castel" in Romanian, never "palat"). One-word terms only: their forms share a
word's start that inflection keeps (a form less its last two letters, at least four:
"revol" for "revoltă" finds "provinciile revoltate")."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[3]


def _forms(cell: str) -> list[str]:
    """The forms a glossary cell lists, lower-case, first words ("boeren, boerenlegers")."""
    cell = re.sub(r"\(.*?\)", "", cell)
    return [f.strip().lower().split(" ")[0] for f in re.split(r",|/", cell) if f.strip()]


def _stem(form: str) -> str:
    """A form less an ending: its last two letters, keeping at least four."""
    return form[:max(4, len(form) - 2)]


def _longer_terms() -> list[str]:
    """The table's English terms of several words ("winter rice loss"): a message naming one
    is checked for it, not for the one word inside it ("winter")."""
    out = []
    for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("| ") and not line.startswith(("| English", "| ---")):
            cell = re.sub(r"\(.*?\)", "", line.strip().strip("|").split("|")[0])
            out += [f.strip() for f in cell.split(",") if " " in f.strip()]
    return out


def _terms() -> list[tuple[str, dict[str, list[str]]]]:
    """(English start, {lang: accepted words}) for each one-word term of the table."""
    out = []
    for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith(("| English", "| ---")):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        english = _forms(cells[0])
        if not english or " " in re.sub(r"\(.*?\)", "", cells[0]).split(",")[0].strip():
            continue
        if {cells[2], cells[4]} <= {"—", ""}:      # the window's own words, not the boxes'
            continue
        forms = {"nl": _forms(cells[1]), "ro": _forms(cells[3])}
        if len(english) >= 3 and all(len(f) == len(english) for f in forms.values()):
            # a list ("spring, summer, autumn, winter"): each word with its own
            for k, start in enumerate(english):
                out.append((start, {lang: [_stem(f[k])] for lang, f in forms.items()}))
            continue
        start = os.path.commonprefix(english)
        starts = [start] if len(start) >= 4 else english     # "palace, castle": each
        words = {lang: [_stem(f) for f in fs] for lang, fs in forms.items()}
        if all(words.values()):
            out.extend((start, words) for start in starts if len(start) >= 4)
    return out


TERMS = _terms()
LONGER = _longer_terms()


def _catalogue(lang: str):
    with open(ROOT / "lang" / "locale" / lang / "LC_MESSAGES" / "shogun.po", "rb") as f:
        return read_po(f, locale=lang)


def test_the_glossary_has_terms_to_check():
    starts = {start for start, _words in TERMS}
    assert {"peasants", "palace", "temple", "chest", "rice", "tray", "neutral"} <= starts, starts


@pytest.mark.parametrize("lang", ["nl", "ro"])
def test_every_glossary_term_is_said_with_the_glossarys_word(lang):
    bad = []
    for message in _catalogue(lang):
        if not message.id or not message.string:
            continue
        english = message.id[-1] if isinstance(message.id, (tuple, list)) else message.id
        english = re.sub(r"\{[^}]*\}", "", english)      # a field's name is not a word
        for longer in LONGER:
            english = re.sub(re.escape(longer), "", english, flags=re.I)
        said = " ".join(message.string) if isinstance(message.string, (tuple, list)) \
            else message.string
        said = re.sub(r"\{[^}]*\}", "", said).lower()
        for start, words in TERMS:
            if re.search(r"\b" + re.escape(start), english, re.I) and \
                    not any(w in said for w in words[lang]):
                bad.append(f"{start!r} not said as {words[lang][0]!r}: {english[:60]!r} -> "
                           f"{said[:60]!r}")
    assert not bad, "\n".join(bad)
