"""Text from a peer is data: the one function that makes it safe to show (issue 47, finding 5).

Why: a string that came from another program (a friend's reason, a host's address, a
name, a chat line, a version, a refusal) reached the terminal, the log and the window as
it came. A code holder's reason printed on the host's terminal cleared the screen, set the
window's title, wrote the clipboard (OSC 52) and printed a forged line of its own
("Friends anywhere join with: ./shogun join 66-..."), which the host could have passed on.
So every such string passes through `shown` before a terminal, a log line or the window
shows it:

- escape sequences go whole, not just their ESC (what follows an ESC would otherwise still
  reach the terminal as text, and an 8-bit C1 introducer needs no ESC at all): CSI
  (`ESC [` / 0x9B, parameters, intermediates, a final byte), OSC (`ESC ]` / 0x9D, to BEL
  or ST), DCS, SOS, PM and APC (`ESC P X ^ _` / 0x90 0x98 0x9E 0x9F, to ST), and the other
  `ESC` sequences (intermediates and one final byte, `ESC c`, `ESC ( B`); a string
  sequence never terminated takes the rest of the text with it;
- line breaks and other white space (CR, LF, TAB, VT, FF, NEL, U+2028, U+2029, the wide
  and narrow spaces) become one plain space each: the peer's words stay on the line the
  program began, so a peer cannot begin a line of its own;
- every other character that is not printable goes: C0 and C1 controls, DEL, format
  characters (the bidi overrides and isolates that reorder what follows, zero-width
  characters, tags), surrogates, private-use and unassigned code points;
- `limit` cuts a long text to that many characters with an ellipsis.

The program's own sentences never need it; the field that came from a peer does. Used by
the headless runner's and the window's sentences (`client.words.net_words.for_players`),
every log line (`OneLineFormatter`), the chat, names, and the join-by-code path.

Tests: tests/net/trust/test_peer_text.py (every C0/C1 control, every escape family, bidi,
line breaks), tests/net/reach/test_offer_attacks.py (real processes).
"""

from __future__ import annotations

import logging
import re
import sys
import unicodedata
from typing import TextIO

# one escape sequence (7-bit and 8-bit introducers), as ECMA-48 and xterm read them
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"          # CSI
    r"|(?:\x1b\]|\x9d)[^\x07\x9c\x1b]*(?:\x07|\x9c|\x1b\\|(?=\x1b)|$)"  # OSC, to BEL or ST
    r"|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x9c\x1b]*(?:\x9c|\x1b\\|(?=\x1b)|$)"  # DCS SOS PM APC
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?",                                # any other ESC
    re.DOTALL)
# white space that would break the line or look like it: one plain space each
_SPACES = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")
ELLIPSIS = "\u2026"


def _kept(ch: str) -> str:
    if ch in _SPACES or (ch != " " and unicodedata.category(ch) == "Zs"):
        return " "
    return ch if ch.isprintable() else ""


def shown(text: object, limit: int | None = None) -> str:
    """`text` from a peer as it may be shown: one line, no control character, no escape
    sequence, no bidi override; at most `limit` characters (an ellipsis marks a cut).
    Anything that is not a string is shown as its `str`; this never raises."""
    if not isinstance(text, str):
        try:
            text = str(text)
        except Exception:
            return ""
    if text.isprintable() and (limit is None or len(text) <= limit):
        return text          # the usual case: nothing to take out
    clean = "".join(_kept(ch) for ch in _SEQUENCE.sub("", text))
    if limit is not None and len(clean) > limit:
        clean = clean[:max(0, limit - 1)] + ELLIPSIS
    return clean


class OneLineFormatter(logging.Formatter):
    """A log formatter whose every message is one line of `shown` text: a peer's string
    in a log call (`log.warning("... %s", reason)`) cannot begin a log line of its own or
    reach the terminal as an escape sequence. A traceback is added after it as usual."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = shown(record.message)
        return super().formatMessage(record)


def log_in_one_line(level: int, form: str, stream: TextIO | None = None) -> None:
    """This program's logging to stderr (or `stream`), every line through
    `OneLineFormatter`: the headless runner's and the window's one set-up."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(OneLineFormatter(form))
    logging.basicConfig(level=level, handlers=[handler])


__all__ = ["OneLineFormatter", "log_in_one_line", "shown"]
