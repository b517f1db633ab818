"""Node tree and signals: call down, signal up (no window needed)."""

import os

from client.core.node import Node
from client.core.signal import Signal


def test_signal_calls_slots_in_order_and_disconnects():
    s = Signal("x")
    got = []
    a = s.connect(lambda v: got.append(("a", v)))
    s.connect(lambda v: got.append(("b", v)))
    s.emit(1)
    s.disconnect(a)
    s.emit(2)
    assert got == [("a", 1), ("b", 1), ("b", 2)]


class Clicky(Node):
    def __init__(self, name):
        super().__init__(name)
        self.clicked = Signal("clicked")
        self.updates = 0

    def on_update(self, dt):
        self.updates += 1

    def on_mouse_press(self, x, y, button, modifiers):
        if self.contains(x, y):
            self.clicked.emit(self.name)
            return True
        return False


def test_input_goes_down_topmost_first_and_signals_go_up():
    root = Node("root")
    low = root.add(Clicky("low"))
    high = root.add(Clicky("high"))
    low.set_rect(0, 0, 100, 100)
    high.set_rect(50, 50, 100, 100)
    heard = []
    low.clicked.connect(heard.append)
    high.clicked.connect(heard.append)
    assert root.mouse_press(60, 60, 1, 0)        # overlap: the later (top) child wins
    assert root.mouse_press(10, 10, 1, 0)
    assert not root.mouse_press(500, 500, 1, 0)
    assert heard == ["high", "low"]


def test_hidden_nodes_get_no_input_and_update_reaches_all():
    root = Node("root")
    a = root.add(Clicky("a"))
    a.set_rect(0, 0, 10, 10)
    a.visible = False
    assert not root.mouse_press(5, 5, 1, 0)
    root.update(0.1)
    assert a.updates == 1
    assert root.find("a") is a
    root.remove(a)
    assert a.parent is None and root.find("a") is None


def test_set_rect_marks_dirty_only_on_change():
    n = Node("n")
    n.set_rect(0, 0, 10, 10)
    n.draw()                     # rebuilt: clean
    n.set_rect(0, 0, 10, 10)
    assert not n.dirty
    n.set_rect(0, 0, 20, 10)
    assert n.dirty and n.right == 20 and n.top == 10


def test_pillow_finds_bold_dejavu_in_the_games_own_files_first(monkeypatch):
    """Windows and macOS (and the download on them) have no system DejaVu: the map's label
    widths and the cubes' letters are measured and drawn with matplotlib's copy."""
    from PIL import ImageFont

    from client.board import map_geometry
    from client.core.text_cache import bold_font_files
    from client.tower import cube_textures
    first = bold_font_files()[0]
    assert first.endswith("DejaVuSans-Bold.ttf") and os.path.isabs(first) and os.path.isfile(first)
    real = ImageFont.truetype

    def no_system_fonts(name, size):          # a machine with no DejaVu installed
        if name != first:
            raise OSError(f"cannot open resource {name}")
        return real(name, size)
    monkeypatch.setattr(ImageFont, "truetype", no_system_fonts)
    map_geometry._bold_font.cache_clear()
    try:
        assert map_geometry._bold_font() is not None
        assert isinstance(cube_textures.font(20), ImageFont.FreeTypeFont)
    finally:
        map_geometry._bold_font.cache_clear()
