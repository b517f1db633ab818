"""This round's event and the special cards marked where they act (issue 13, item 2), and
winter scoring chips that never cover a province's name (issue 13, item 6)."""

from __future__ import annotations

import pytest

from client.board import map_geometry as geo
from client.board.board_view import BoardView
from client.game.table_view import ActionTrack
from sim.board import board

ACTIONS = ["deploy5", "tax", "deploy1", "battle_a", "battle_b", "palace", "temple",
           "theatre", "rice", "deploy3"]


def _visible(cache):
    return {k: t for k, t in cache.labels.items() if t.visible and t.text}


def test_the_event_and_specials_sit_on_the_actions_they_change(app):
    track = ActionTrack()
    track.set_rect(0, 180, 960, 56)
    track.set_track(ACTIONS)
    players = {"0": {"special": "attack"}, "1": {"special": "chest"}, "2": {"special": "defence"}}
    track.set_marks(8, players)                   # 8: collect tax gives at least 6
    track.rebuild()
    badges = {k[1]: t.text for k, t in _visible(track.texts).items() if k[0] == "ev"}
    assert badges == {ACTIONS.index("tax"): "8"}
    assert track.specials == {"tax": [1], "battle_a": [0], "battle_b": [0]}
    x, w = track.card_x(ACTIONS.index("tax"))
    tip = track.tooltip_at(x + w / 2, track.bottom + 20)
    assert "This round's event: Collect tax gives at least 6." in tip
    assert "Orange holds the +1 chest card: Collect tax gives 1 more chest." in tip
    x, w = track.card_x(ACTIONS.index("palace"))
    assert track.tooltip_at(x + w / 2, track.bottom + 20) is None
    track.set_marks(12, players)                  # 12: fewer armies from deploy 5 and 3
    track.rebuild()
    badges = {k[1] for k, t in _visible(track.texts).items() if k[0] == "ev"}
    assert badges == {ACTIONS.index("deploy5"), ACTIONS.index("deploy3")}


def _board_state(event, buildings):
    provs = {n: {"owner": k % 4, "armies": 2, "buildings": buildings.get(n, []), "unrest": 0}
             for k, n in enumerate(sorted(board().provinces))}
    return {"provinces": provs, "current_event": event,
            "players": {"2": {"special": "defence"}}}


def test_the_event_is_marked_on_the_provinces_it_changes(app):
    v = BoardView(board(), "sun", 4)
    v.set_rect(0, 200, 1000, 620)
    v.set_state(_board_state(6, {"Kaga": ["temple"], "Mino": ["palace"]}))   # temples shielded
    v.rebuild()
    tags = {k[1]: t.text for k, t in _visible(v.texts).items() if k[0] == "ev"}
    assert tags == {"Kaga": "no attack"}
    from client.board.map_marks import province_notes
    assert "This round's event: Temple provinces can't be attacked." in province_notes(v, "Kaga")
    v.set_state(_board_state(4, {"Kaga": ["temple"], "Mino": ["palace"]}))   # palaces +1
    v.rebuild()
    tags = {k[1]: t.text for k, t in _visible(v.texts).items() if k[0] == "ev"}
    assert tags == {"Mino": "+1"}
    owner2 = next(n for n, p in v.state["provinces"].items() if p["owner"] == 2)
    assert any("+1 defence card" in line for line in province_notes(v, owner2))


def _name_boxes(v):
    s = v.token_scale()
    boxes = {}
    for n in v.shapes["provinces"]:
        cx, cy = v.province_centre(n)
        size = v.name_size(n)
        tw = geo.text_width(n, size)
        boxes[n] = (cx - tw / 2, cy + 11 * s, cx + tw / 2, cy + 11 * s + size * 96 / 72 * 0.75)
    return boxes


@pytest.mark.parametrize("w,h", [(530, 416), (768, 546), (1370, 826)])
@pytest.mark.parametrize("side", ["sun", "moon"])
def test_winter_chips_never_cover_a_province_name(app, w, h, side):
    b = board()
    v = BoardView(b, side, 4)
    v.set_rect(0, 200, w, h)
    regions = sorted({p.region[side] for p in b.provinces.values()})
    v.set_marks({r: [(0, "palace 3, temple 2"), (1, "theatre 1"), (2, "palace 1, temple 1")]
                 for r in regions})
    v.set_state(_board_state(None, {}))
    v.rebuild()
    chips = [(t.left, t.bottom, t.right, t.top) for k, t in _visible(v.texts).items()
             if k[0] == "m"]
    assert len(chips) == 3 * len(regions)
    names = _name_boxes(v)
    bad = [f"a chip covers {n}" for n, nb in names.items() for c in chips
           if c[0] < nb[2] and nb[0] < c[2] and c[1] < nb[3] and nb[1] < c[3]]
    assert not bad, f"{side} {w}x{h}: " + "; ".join(sorted(set(bad)))
