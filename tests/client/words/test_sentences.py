"""What players read: no rule ids, no Python data, singular after 1 — the log lines of
seeded games and the planning panel's complaints about bad plans."""

from __future__ import annotations

import re

import pytest

from client.words.describe import describe
from client.words.sentences import for_players, plural, problem_text
from sim.commands import IllegalCommand, SubmitPlan
from sim.game import GameConfig
from sim.legal import plan_problems
from sim.local import LocalGame, play_bots

NOT_FOR_PLAYERS = re.compile(
    r"\bR-[A-Z]+-\d+|[\[\]{}]|\bNone\b|\bTrue\b|\bFalse\b|'[a-z_]+'|\w+\(|"
    r"(?<![\d.,])1 (chests|armies|provinces|peasants|points|buildings|markers)\b")


@pytest.mark.parametrize("config, seed", [(GameConfig(3, "moon", "draft"), 1),
                                          (GameConfig(4, "sun", "beginner"), 2),
                                          (GameConfig(5, "sun", "draft"), 3)])
def test_every_log_line_of_a_seeded_game_is_for_players(config, seed):
    _state, events = play_bots(config, seed, ["heuristic"] * config.players)
    lines = [describe(e) for e in events]
    bad = [line for line in lines if line and NOT_FOR_PLAYERS.search(line)]
    assert not bad, bad[:5]
    assert sum(1 for line in lines if line) > 100


def test_plan_complaints_are_sentences():
    game = LocalGame(GameConfig(4, "sun", "beginner"), 3, {s: "heuristic" for s in range(1, 4)})
    for _ in game.run():
        pass
    seat = 0
    cards = list(game.state.players[seat].cards) if hasattr(game.state.players[seat], "cards") else []
    tries = [((None,) * 10, None), ((None,) * 10, 4), ((None,) * 10, 9)]
    if cards:
        tries.append(((cards[0], cards[0]) + (None,) * 8, 0))
    seen = 0
    for actions, bid in tries:
        for p in plan_problems(game.state, SubmitPlan(seat, actions, bid)):
            text = for_players(p.text)
            seen += 1
            assert not NOT_FOR_PLAYERS.search(text), text
            assert text[0].isupper(), text
    assert seen >= 3


def test_an_illegal_command_is_shown_by_its_reason():
    exc = IllegalCommand("R-PLAN-4", "a bid of 4 exceeds the 3 chests you have")
    assert problem_text(exc) == "A bid of 4 exceeds the 3 chests you have."
    assert problem_text(ValueError("R-EXEC-3: cannot pay 1 chests")) == "Cannot pay 1 chest"


def test_plural():
    assert plural(1, "army", "armies") == "1 army"
    assert plural(0, "army", "armies") == "0 armies"
    assert plural(2, "chest") == "2 chests"
    assert for_players("11 chests, +1 armies, 21 provinces") == "11 chests, +1 army, 21 provinces"


def test_a_season_heading_is_its_own_capitalised_word_in_each_language():
    """Issue 49 (round three): the msgid "winter" served both inside sentences ("year
    1, winter") and, its first letter raised by code, as a heading ("Year 1 — Winter",
    "Winter of year 1"). A heading has its own word, capitalised by the translator, the
    same word as the sentence's in en/nl/ro."""
    from client.words.seasons import SEASON_HEADINGS, SEASON_WORDS
    from lang.i18n import _, use
    try:
        for lang in ("en", "nl", "ro"):
            use(lang)
            for season in ("spring", "summer", "autumn", "winter"):
                head, word = SEASON_HEADINGS[season], SEASON_WORDS[season]
                assert head[:1].isupper() and head.lower() == word.lower(), (lang, head, word)
                line = _("Year {year} — {season}").format(year=1, season=head)
                assert head in line, (lang, line)
    finally:
        use("en")
