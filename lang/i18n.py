"""The language a player reads: gettext lookups that follow the language chosen now.

English is the source language. The Dutch and Romanian catalogues are kept as `.po` text
in `lang/locale/<code>/LC_MESSAGES/shogun.po` (the only copy in git: no `.mo` is committed);
the first lookup in a language compiles its `.po` in memory with Babel, so a fresh clone, an
installed package and a test all read the same source and no build step can be forgotten.
Only the download (`tools/bundle`) carries compiled `.mo` files instead, and no Babel.
`tools/i18n` extracts the marked strings again and checks the catalogues.

Strings are looked up when drawn (`_()` inside the function that draws or builds them), never
kept in module constants, so `use("nl")` from the settings screen changes the next frame.
Module-level tables mark their words with `N_()` and translate them where they are used.

Tests: tests/client/words/test_i18n.py (catalogues, plurals), test_i18n_window.py and
test_i18n_layout.py (the window in each language).
"""

from __future__ import annotations

import gettext
import io
import locale
import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, overload

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "shogun"
# code -> the language's own name (what the settings screen shows: a player who cannot read
# the current language still finds theirs)
LANGUAGES = {"en": "English", "nl": "Nederlands", "ro": "Română"}

@dataclass
class _Current:
    """The language in use, process-wide: the window and the printouts share one choice."""
    lang: str = "en"
    tr: gettext.NullTranslations = field(default_factory=gettext.NullTranslations)


_state = _Current()


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of `lang`, compiled from its `.po` (English: the source strings)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    if lang == "en":
        return gettext.NullTranslations()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists() and path.with_suffix(".mo").exists():
        # the download (tools/bundle) carries the catalogues compiled, and no Babel
        with path.with_suffix(".mo").open("rb") as f:
            return gettext.GNUTranslations(f)
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The supported language of the system locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, then
    the OS's own setting), English when none of ours is named."""
    env = os.environ if environ is None else environ
    names: list[str] = []
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(var):
            names.extend(env[var].split(":"))
    if environ is None:
        try:
            names.append(locale.getlocale()[0] or "")
        except ValueError:
            pass
    for name in names:
        code = name.split(".")[0].split("@")[0].split("_")[0].lower()
        if code in LANGUAGES:
            return code
        if code in ("c", "posix"):
            return "en"
    return "en"


def use(lang: str | None) -> str:
    """Read everything in `lang` from now on (None or "": the system's language). A
    catalogue that cannot be read leaves the game in English and says why on stderr."""
    code = lang or system_language()
    try:
        tr = translations(code)
    except (OSError, ValueError) as exc:     # a missing or damaged .po, an unknown code
        print(f"warning: the {code!r} words could not be loaded ({exc}); using English",
              file=sys.stderr)
        code, tr = "en", translations("en")
    _state.tr = tr
    _state.lang = code
    return code


def current() -> str:
    return _state.lang


def translator() -> gettext.NullTranslations:
    """The current catalogue, for code that takes one (`sim.narrate.describe(tr=...)`)."""
    return _state.tr


def _(message: str) -> str:
    # gettext("") is the catalogue's header: an empty label stays empty
    return _state.tr.gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _state.tr.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _state.tr.pgettext(context, message)


def N_(message: str) -> str:
    """Marks a string for the catalogue without translating it yet (module-level tables)."""
    return message


class Translated(Mapping[Any, str]):
    """A read-only table of marked (`N_`) English words that answers in the current language
    at each lookup, so a module-level table follows a language switch at once."""

    def __init__(self, table: Mapping[Any, str]) -> None:
        self._table = dict(table)

    def __getitem__(self, key: Any) -> str:
        return _(self._table[key])

    def __iter__(self) -> Iterator[Any]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)


class TranslatedList(Sequence[str]):
    """A list of marked English words answering in the current language (see `Translated`)."""

    def __init__(self, items: Iterable[str]) -> None:
        self._items = tuple(items)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [_(w) for w in self._items[index]]
        return _(self._items[index])

    def __len__(self) -> int:
        return len(self._items)
