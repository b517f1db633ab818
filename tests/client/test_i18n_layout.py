"""The board issue's layout checks again in Dutch and Romanian (issue 17, item 4): the
translated action names stay on their cards, player rows keep their words, and the map's
legend (longer words) still fits beside the provinces at every window size."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from lang import i18n
from tests.client import test_board_layout as board_layout
from tests.client import test_table_layout as table_layout

LANGS = ["nl", "ro"]


@contextmanager
def speaking(lang: str):
    i18n.use(lang)
    try:
        yield
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("W,H", table_layout.WINDOWS)
def test_action_labels_stay_on_their_cards(app, lang, W, H):
    with speaking(lang):
        table_layout.test_action_labels_stay_on_their_cards(app, W, H)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("W,H", table_layout.WINDOWS)
def test_player_rows_keep_their_words(app, lang, W, H, players):
    with speaking(lang):
        table_layout.test_player_rows_keep_their_words(app, W, H, players)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("w,h", board_layout.MAP_RECTS)
def test_tokens_names_and_legend_do_not_collide(lang, w, h, players):
    with speaking(lang):
        board_layout.test_tokens_names_and_legend_do_not_collide(w, h, players)
