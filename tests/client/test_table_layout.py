"""The table's panels keep their words inside their boxes from 960x640 to 2560x1440
(issue 13, item 4): player rows do not spill into each other, action labels stay on their
cards, the top bar's texts do not run together. Text is measured as drawn (needs a window)."""

from __future__ import annotations

import pytest

from client.table_view import ActionTrack, PlayersPanel, TopBar

WINDOWS = [(960, 640), (1280, 800), (1920, 1080), (2560, 1440)]
CARDS = ["Awa-Shikoku", "Shimotsuke", "Mimasaka", "Hitachi", "Kazusa", "Shimosa", "Musashi",
         "Sagami", "Yamato", "Echizen", "Owari"]


def _texts(panel):
    return {k: t for k, t in panel._text._labels.items() if t.visible and t.text}


def _inside(t, left, bottom, right, top, slack=1.5) -> bool:
    return (t.left >= left - slack and t.right <= right + slack
            and t.bottom >= bottom - slack and t.top <= top + slack)


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("W,H", WINDOWS)
def test_player_rows_keep_their_words(app, W, H, players):
    state = {"players": {str(i): {"money": 12, "rice": 3, "score": 17, "supply": 38,
                                  "position": i + 1, "special": "six_armies",
                                  "cards": CARDS[: 9 + i % 3]} for i in range(players)}}
    panel = PlayersPanel()
    rw = max(280, min(340, W * 0.25))                 # as GameScene.on_layout places it
    ph = min(players * 74 + 6, (H - 34) * 0.5)
    panel.set_rect(W - rw, H - 34 - ph, rw, ph)
    panel.set_state(state, {i: "bot heuristic" for i in range(players)}, me=(0,))
    panel.rebuild()
    rh = int(min(80.0, (panel.height - 4) / players))
    bad = []
    for key, t in _texts(panel).items():
        i = key[1]
        row_top = panel.top - 2 - rh * i
        if not _inside(t, panel.left, row_top - rh, panel.right, row_top):
            bad.append(f"{key}: {t.text[:30]!r} leaves row {i}")
    assert not bad, f"{W}x{H}, {players} players: " + "; ".join(bad)


@pytest.mark.parametrize("W,H", WINDOWS)
def test_action_labels_stay_on_their_cards(app, W, H):
    rw = max(280, min(340, W * 0.25))
    track = ActionTrack()
    track.set_rect(0, 180, W - rw, 48)
    track.set_track(["deploy5", "deploy3", "deploy1", "battle_a", "battle_b", "palace",
                     "temple", "theatre", "rice", "tax"])
    track.rebuild()
    w = (track.width - 100) / 10
    bad = []
    for k in range(10):
        t = track._text._labels[("a", k)]
        x = track.left + 92 + k * w
        if not _inside(t, x, track.bottom, x + w - 4, track.top):
            bad.append(f"{t.text!r} leaves card {k + 1}")
    assert not bad, f"{W}x{H}: " + "; ".join(bad)


@pytest.mark.parametrize("W,H", WINDOWS)
def test_top_bar_texts_do_not_run_together(app, W, H):
    bar = TopBar()
    bar.set_rect(0, H - 34, W, 34)
    bar.set_info(title="Shogun — year 3, autumn", status="Waiting for Orange, Black",
                 speed="FAST-FORWARD [F]   pause [Space]   skip drop [S]   menu [Esc]")
    bar.rebuild()
    t = bar._text._labels
    assert t["title"].right <= t["status"].left
    assert t["status"].right <= t["speed"].left, (t["status"].right, t["speed"].left)
    assert t["speed"].right <= W - 190                 # the pace buttons start there
