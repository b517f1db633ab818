"""Codes strangers cannot find, guess or jam (issue 47): the records and the pause.

The real burner against a loopback mailbox is tests/net/reach/test_code_burner.py.
"""

from __future__ import annotations

import random

import pytest

from net.reach.invite_codes import (BITS, CODE_WORDS, LONGEST_PAUSE, WORDS, InviteCode,
                                    guesses_in, new_code, parse_code, reopen_pause)
from net.reach.rendezvous import APP_ID


def test_the_word_list_gives_nine_bits_a_word_and_fifty_four_a_code():
    assert len(WORDS) == 512 == len(set(WORDS))
    assert all(w.isalpha() and w == w.lower() for w in WORDS)
    assert BITS == 54 and CODE_WORDS == 6


def test_a_new_code_reads_back_as_itself_typed_any_way():
    code = new_code(random.Random(7))
    assert parse_code(code.text) == code
    assert parse_code("  " + code.text.upper() + " ") == code
    assert parse_code(code.text.replace("-", " ")) == code
    assert len({new_code().text for _ in range(50)}) == 50


def test_the_hidden_words_choose_the_namespace_and_never_reach_the_mailbox_in_clear():
    code = parse_code("absurd-pandora-tracker-guitarist-revenge-uncut")
    same_hidden = parse_code("absurd-pandora-tracker-adrift-almighty-amulet")
    other_hidden = parse_code("absurd-pandora-uncut-guitarist-revenge-tracker")
    app_id = code.app_id(APP_ID)
    assert app_id.startswith(APP_ID + "/") and app_id != APP_ID
    assert not any(w in app_id for w in code.words)
    assert same_hidden.app_id(APP_ID) == app_id         # the namespace: the first three
    assert other_hidden.app_id(APP_ID) != app_id
    wormhole_code = code.wormhole_code("482")
    assert wormhole_code == "482-guitarist-revenge-uncut"     # what magic-wormhole gets
    assert not any(w in wormhole_code for w in code.hidden)


@pytest.mark.parametrize("typed, said", [
    ("7-guitarist-revenge", "old form"),
    ("absurd-pandora-tracker", "6 words"),
    ("absurd-pandora-tracker-guitarist-revenge-uncut-adrift", "this one has 7"),
    ("absurd-pandora-tracker-guitarist-revenge-zzzz", "'zzzz' is not one of the code's words"),
    ("absurd-pandora-tracker-guitarist-revenge-" + "q" * 5000, "q" * 20 + "..."),
])
def test_a_mistyped_code_is_a_sentence(typed, said):
    with pytest.raises(ValueError) as error:
        parse_code(typed)
    assert said in str(error.value) and len(str(error.value)) < 200


@pytest.mark.parametrize("wrong, pause", [
    (0, 0.0), (1, 1.0), (2, 2.0), (3, 4.0), (11, 1024.0), (12, LONGEST_PAUSE),
    (500, LONGEST_PAUSE),
])
def test_the_pause_after_wrong_guesses_doubles_up_to_twenty_minutes(wrong, pause):
    assert reopen_pause(wrong) == pause


def test_an_evening_gives_one_code_at_most_46_guesses_and_odds_below_the_table_code():
    evening = 12 * 3600
    assert guesses_in(evening) == 46
    assert guesses_in(0) == 1 and guesses_in(1.0) == 2 and guesses_in(3.0) == 3
    # with the namespace known (the mailbox's operator): the secret words alone
    secret_bits = 9 * 3
    odds = guesses_in(evening) / 2 ** secret_bits
    table_code = 10 * evening / 2 ** 40      # 10 answered offers a second at a 40-bit code
    assert odds < table_code < 1e-6


def test_codes_are_records_not_strings():
    code = InviteCode(("a", "b", "c", "d", "e", "f"))
    assert code.hidden == ("a", "b", "c") and code.secret == ("d", "e", "f")


# ------------------------------------------------ the host's invitation under guesses
def _host(monkeypatch, kind=None):
    from twisted.internet.task import Clock

    from net.reach import invitations, rendezvous
    from tests.net.reach.test_rejoin_by_code import _Wormhole
    made: list[_Wormhole] = []
    namespaces: list[str] = []

    def wormhole_for(_reactor, _options, app_id=""):
        namespaces.append(app_id)
        made.append((kind or _Wormhole)())
        return made[-1]
    monkeypatch.setattr(invitations, "wormhole_for", wormhole_for)
    said: list[str] = []
    clock = Clock()
    friends = invitations.Invitations(clock, rendezvous.RendezvousOptions(), "CODE", 7531,
                                      lambda: [], lambda: True, said.append)
    friends.open()
    return friends, clock, made, namespaces, said


def test_a_wrong_guess_keeps_the_code_and_reopens_it_after_a_pause_that_doubles(monkeypatch):
    from twisted.python.failure import Failure
    from wormhole.errors import WrongPasswordError
    friends, clock, made, namespaces, said = _host(monkeypatch)
    made[0].code.callback(made[0].wormhole_code)
    code = friends.shown_code
    assert code is not None and said == [f"Friends anywhere join with: ./shogun join {code}"
                                         f" (by code, through the rendezvous server "
                                         f"relay.magic-wormhole.io)"]
    assert namespaces[0] == parse_code(code).app_id(APP_ID)
    for wrong, pause in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0)]:
        made[-1].message.errback(Failure(WrongPasswordError()))
        assert said[-1] == (f"someone tried the code {code} with wrong words at the "
                            f"rendezvous ({wrong} so far); the code still works, open "
                            f"again in {pause:g} s")
        opened = len(made)
        clock.advance(pause - 0.01)
        assert len(made) == opened and friends.shown_code == code   # shown while it waits
        clock.advance(0.01)
        assert len(made) == opened + 1                                # the same code again
        assert namespaces[-1] == namespaces[0]
        assert made[-1].wormhole_code.endswith("-" + "-".join(parse_code(code).secret))
    assert len({w.wormhole_code.split("-")[0] for w in made}) > 1      # new nameplates
    assert not any("next friend" in line for line in said)
    friends.close()


def test_a_key_agreed_but_never_confirmed_counts_as_a_guess(monkeypatch):
    """A guesser can check its guess offline against the host's confirmation and stay
    silent: after CONFIRM_WAIT the host counts it and opens the code again."""
    from twisted.internet.defer import succeed

    from tests.net.reach.test_rejoin_by_code import _Wormhole

    class Silent(_Wormhole):            # the key agreed; its confirmation never comes
        def get_unverified_key(self):
            return succeed(b"key")
    friends, clock, made, namespaces, said = _host(monkeypatch, Silent)
    assert len(made) == 1
    clock.advance(friends.CONFIRM_WAIT - 0.1)
    assert len(made) == 1 and friends.wrong == 0
    clock.advance(0.1)
    assert friends.wrong == 1 and made[0].closed
    assert "with wrong words at the rendezvous (1 so far)" in said[-1]
    clock.advance(1.0)
    assert len(made) == 2
    friends.close()


def test_a_used_code_gives_way_to_a_new_one(monkeypatch):
    from net.reach.rendezvous import Choice
    friends, clock, made, namespaces, said = _host(monkeypatch)
    made[0].code.callback(made[0].wormhole_code)
    first = friends.shown_code
    made[0].message.callback(Choice("direct").to_bytes())
    clock.advance(0)
    made[-1].code.callback(made[-1].wormhole_code)
    assert friends.shown_code != first and namespaces[-1] != namespaces[0]
    assert said[-1] == f"The next friend joins with: ./shogun join {friends.shown_code}"
    friends.close()
