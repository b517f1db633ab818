"""The province shapes asset: 45 outlines in the board's space, each around its label."""

import json

from client.words.describe import describe
from client.board.shapes import ASSET, MapTransform, point_in_poly
from sim.board import board


def test_every_province_has_a_shape_around_its_label():
    """The label point (where name, armies and buildings are drawn) lies in its own shape.
    (board.json positions are only anchors: two are nudged so borders do not cross.)"""
    data = json.loads(ASSET.read_text())
    b = board()
    assert sorted(data["provinces"]) == sorted(b.names)
    for name, poly in data["provinces"].items():
        assert len(poly) >= 5, name
        x, y = data["label_pos"][name]
        assert point_in_poly(x, y, poly), f"{name}'s label lies outside its shape"
        others = [n for n in data["provinces"] if n != name]
        assert not any(point_in_poly(x, y, data["provinces"][o]) for o in others), name


def test_transform_round_trips():
    xf = MapTransform((-0.1, -0.1, 1.1, 0.4), 0, 200, 800, 500)
    for p in ((0.0, 0.0), (1.0, 0.3), (0.5, 0.1)):
        sx, sy = xf(*p)
        q = xf.inverse(sx, sy)
        assert abs(q[0] - p[0]) < 1e-9 and abs(q[1] - p[1]) < 1e-9


def test_every_event_of_a_bot_game_reads_as_words():
    from sim.game import GameConfig
    from sim.local import play_bots
    _, events = play_bots(GameConfig(players=3), 5, ["random"] * 3)
    kinds = set()
    for e in events:
        line = describe(e)
        assert line is None or isinstance(line, str)
        kinds.add(e["event"])
    assert {"BattleResolved", "TowerDropped", "Scored", "GameEnded"} <= kinds
