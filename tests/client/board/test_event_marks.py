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
        label, size = v.name_label(n)
        tw = geo.text_width(label, size)
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
    from client.core import theme                     # never under 11 px (issue 37, item 11)
    assert all(t.font_size >= theme.SMALLEST_TYPE for k, t in _visible(v.texts).items()
               if k[0] == "m")
    names = _name_boxes(v)
    bad = [f"a chip covers {n}" for n, nb in names.items() for c in chips
           if c[0] < nb[2] and nb[0] < c[2] and c[1] < nb[3] and nb[1] < c[3]]
    assert not bad, f"{side} {w}x{h}: " + "; ".join(sorted(set(bad)))


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("w,h", [(960, 640), (1280, 800), (1920, 1080)])
def test_event_tags_on_neighbouring_temples_do_not_overlap(app, w, h, lang, shots):
    """Issue 37, item 12: "no attack" tags of neighbouring temple provinces ran into each
    other and over the names: each tag keeps clear of the others and of every province's
    name, also where no spot near its province is free (then it is shortened, or goes a
    little further)."""
    from lang.i18n import use
    use(lang)
    try:
        _tags_keep_apart(app, w, h, lang, shots)
    finally:
        use("en")


def _tags_keep_apart(app, w, h, lang, shots):
    view = BoardView(board(), "sun", 4)
    view.set_rect(0, 190, w - max(280, min(340, w * 0.25)) - max(150, min(210, w * 0.15)),
                  h - 34 - 190)
    temples = sorted(board().provinces)[:26]          # the game has 26 temples
    view.set_state(_board_state(9, {n: ["temple"] for n in temples}))
    view.rebuild()
    tags = [t for k, t in _visible(view.texts).items() if k[0] == "ev"]
    assert len(tags) == 26
    from client.core import theme                     # never under 11 px (issue 37, item 11)
    assert all(t.font_size >= theme.SMALLEST_TYPE for t in tags), {t.font_size for t in tags}
    boxes = [(t.left - 4, t.bottom - 3, t.right + 4, t.top + 3) for t in tags]
    clash = [(tags[i].text, tags[j].text) for i in range(len(boxes)) for j in range(i + 1, len(boxes))
             if not (boxes[i][2] <= boxes[j][0] or boxes[j][2] <= boxes[i][0]
                     or boxes[i][3] <= boxes[j][1] or boxes[j][3] <= boxes[i][1])]
    import arcade
    app.clear()
    view.draw()
    arcade.get_image(0, 0, app.width, app.height).save(shots / f"event-tags-{w}x{h}-{lang}.png")
    assert not clash, f"{w}x{h}: {len(clash)} tags run into each other"
    assert all(view.left <= t.left and t.right <= view.right for t in tags), "off the map"
    names = {k[1]: t for k, t in _visible(view.texts).items() if k[0] == "n"}
    on_names = sorted({f"{t.text!r} on {n}" for t in tags for n, nt in names.items()
                       if t.left < nt.right and nt.left < t.right and t.bottom < nt.top
                       and nt.bottom < t.top})
    assert not on_names, f"{w}x{h} {lang}: " + "; ".join(on_names)
