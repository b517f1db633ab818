"""Invitation codes that strangers on the mailbox cannot find, guess or jam (issue 47).

Why: magic-wormhole's own codes ("7-guitarist-revenge") put the nameplate in the clear
under the game's application id, where anyone may list it. A burner that lists the open
nameplates and claims each new one with a wrong guess spoiled every code within a second
(62 claims a minute; 0 of 3 friends got in) and had 1 chance in 65,536 per claim to win
the table's own code and addresses. magic-wormhole's threat model assumes a human sees a
failure and tries once more; a host that shows the next code by itself hands an automated
guesser as many tries as it likes.

What a code is now: six words of magic-wormhole's PGP word list (512 words, any word at
any place: 9 bits a word, 54 bits), typed with dashes, `absurd-pandora-tracker-...`.

- The first three words (27 bits) are never sent: they choose the wormhole's application
  id, `APP_ID/` + a hash of the words (`InviteCode.app_id`). Under the game's public
  application id nothing is listed; a stranger finds a table only by guessing the three
  words (one bind and list at the mailbox per guess), and a blind claim meets nobody.
- The last three words (27 bits) are the wormhole code's words, behind magic-wormhole's
  SPAKE2 (whose identity is the application id: all six words count for one who lacks
  the first three). The nameplate (a random number in the hidden namespace) is found by
  listing it there: the friend needs only the six words.
- A wrong guess fails that wormhole on both sides, as before, but no longer spends the
  code: the host opens the same code again on a new nameplate after a pause that doubles
  with every wrong guess at it, 1 s up to 20 minutes (`reopen_pause`). A friend holding
  the code still gets in, and whoever knows the hidden namespace (the mailbox's operator,
  who may hash word triples offline) gets at most about 46 guesses an evening at the
  last three words: 46 / 2^27, 3.4 in 10 million, no more than the table's own 40-bit code
  (docs/net.md, "Codes strangers cannot find").

Tests: tests/net/reach/test_invite_codes.py (the records and the pause),
tests/net/reach/test_code_burner.py (a real burner process on a loopback mailbox).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from net.transport.reactor_types import Clock, twisted_clock

CODE_WORDS = 6            # words a player types
HIDDEN_WORDS = 3          # the first ones: the namespace, never sent
FIRST_PAUSE = 1.0         # seconds before the code opens again after one wrong guess
LONGEST_PAUSE = 1200.0    # ... doubling with each wrong guess, never longer than this


def _words() -> tuple[str, ...]:
    from wormhole._wordlist import byte_to_even_word, byte_to_odd_word
    return tuple(sorted({w.lower() for w in [*byte_to_even_word.values(),
                                             *byte_to_odd_word.values()]}))


WORDS = _words()          # 512 words
WORD_SET = frozenset(WORDS)
BITS = CODE_WORDS * 9     # 54


@dataclass(frozen=True)
class InviteCode:
    """A code as typed: the hidden words choose where to meet, the others are the secret
    of the wormhole's SPAKE2 there."""
    words: tuple[str, ...]

    @property
    def text(self) -> str:
        return "-".join(self.words)

    @property
    def hidden(self) -> tuple[str, ...]:
        return self.words[:HIDDEN_WORDS]

    @property
    def secret(self) -> tuple[str, ...]:
        return self.words[HIDDEN_WORDS:]

    def app_id(self, base: str) -> str:
        """The application id only holders of the code can name (the mailbox sees it)."""
        digest = hashlib.sha256(f"{base}|{'-'.join(self.hidden)}".encode()).hexdigest()
        return f"{base}/{digest[:32]}"

    def wormhole_code(self, nameplate: str) -> str:
        """What magic-wormhole is given: the nameplate found in the namespace, then the
        secret words."""
        return f"{nameplate}-{'-'.join(self.secret)}"


def new_code(rng: random.Random | None = None) -> InviteCode:
    """A fresh code from a cryptographic source (tests may pass their own generator)."""
    choose: Callable[[Sequence[str]], str] = rng.choice if rng is not None else secrets.choice
    return InviteCode(tuple(choose(WORDS) for _ in range(CODE_WORDS)))


def parse_code(text: str) -> InviteCode:
    """A typed code; ValueError says what is wrong with it (a sentence for the player)."""
    words = [w for w in text.strip().lower().replace(" ", "-").split("-") if w]
    if len(words) == 3 and words[0].isdigit():
        raise ValueError("that code has the old form (a number and two words); this "
                         f"version's codes are {CODE_WORDS} words: ask the host for the "
                         "code it shows now")
    if len(words) != CODE_WORDS:
        raise ValueError(f"a code is {CODE_WORDS} words joined by dashes; this one has "
                         f"{len(words)}")
    unknown = [w for w in words if w not in WORD_SET]
    if unknown:
        shown = unknown[0] if len(unknown[0]) <= 20 else unknown[0][:20] + "..."
        raise ValueError(f"'{shown}' is not one of the code's words: check the spelling")
    return InviteCode(tuple(words))


def looks_like_code(text: str | None) -> bool:
    """`join absurd-pandora-...`: words and dashes (not HOST:PORT), old form included
    (so that it gets its own sentence)."""
    if text is None:
        return False
    parts = text.strip().split("-")
    return len(parts) >= 3 and all(p.isalpha() for p in parts[1:]) and \
        (parts[0].isalpha() or parts[0].isdigit())


def reopen_pause(wrong: int) -> float:
    """Seconds the host waits before opening its code again after `wrong` wrong guesses
    at it (pure): 0 with none, then 1, 2, 4, ... up to LONGEST_PAUSE."""
    if wrong <= 0:
        return 0.0
    return min(LONGEST_PAUSE, FIRST_PAUSE * 2.0 ** min(wrong - 1, 40))


def guesses_in(seconds: float) -> int:
    """The most wrong guesses one code can take in `seconds` (each guess reopens the code
    after its pause): the figure behind the odds in docs/net.md."""
    spent, guesses = 0.0, 0
    while True:
        pause = reopen_pause(guesses + 1)
        if spent + pause > seconds:
            return guesses + 1       # the guess that starts the pause that does not end
        spent += pause
        guesses += 1


def new_nameplate() -> str:
    """Where the host opens its code in its own namespace (a friend finds it by listing)."""
    return str(secrets.randbelow(999_999) + 1)


# ------------------------------------------------------------------ the friend's listing
def list_nameplates(wormhole: Any, timeout: float, reactor: Clock) -> Any:
    """A Deferred with the set of nameplates open in `wormhole`'s application id, asked
    once (magic-wormhole's code-input helper; the answer, not a guess from a completion
    cache). The wormhole is for listing only: close it after."""
    from twisted.internet import defer
    helper = wormhole.input_code()
    answered: defer.Deferred[set[str]] = defer.Deferred()
    inp = helper._input
    got = inp.got_nameplates

    def received(nameplates: set[str]) -> None:
        got(nameplates)
        if not answered.called:
            answered.callback(set(nameplates))
    inp.got_nameplates = received        # the Lister hands each answer to the Input
    helper.refresh_nameplates()
    return answered.addTimeout(timeout, twisted_clock(reactor))


__all__ = ["InviteCode", "new_code", "parse_code", "reopen_pause", "guesses_in",
           "list_nameplates", "looks_like_code"]
