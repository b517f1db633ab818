"""The banner over the table (issue 37, item 2): its while does not run while the table
is held (paused, or a tutorial step asking the player to read it: the winter scoring's
breakdown went away under a card that still asked to look at it)."""

from __future__ import annotations

from client.game.table_messages import Banner


def test_a_held_banner_stays_and_goes_after_its_while_once_let_go():
    held = [True]
    banner = Banner(held=lambda: held[0])
    banner.show(["Winter scoring — year 1", "Blue +27 (now 27)"], 4.0)
    for _ in range(600):                       # ten seconds held
        banner.on_update(1 / 60)
    assert banner.visible
    held[0] = False
    for _ in range(250):
        banner.on_update(1 / 60)
    assert not banner.visible


def test_the_years_sums_cover_the_info_panel_whole():
    """Issue 49 (the first-hour screenshots at 2560x1440): the winter's sums were shown
    over the info panel in a box fitted to their lines, centred in it, and the panel's
    first line ("Winter of year 1") peeked out above the box, its lower half cut. The
    sums' box is the panel's, whole."""
    from types import SimpleNamespace
    from client.core.node import Node
    from client.game.result_cards import show_scoring_card
    from client.game.table_messages import InfoPanel
    root = Node("table")
    banner, info = root.add(Banner()), root.add(InfoPanel())
    info.set_rect(0, 0, 1108, 260)               # the panel under the map at 2560x1440
    scored = [{"seat": k, "gained": 10 + k, "score": 10 + k, "provinces": 5, "buildings": 2,
               "majority_points": 1} for k in range(4)]
    show_scoring_card(SimpleNamespace(info=info, banner=banner), scored, 1, 1.0)
    assert banner.visible
    assert (banner.left, banner.bottom, banner.width, banner.height) == (0, 0, 1108, 260)


WINDOWS = [(960, 640), (1280, 800), (1920, 1080), (2560, 1440)]


def test_a_shortage_banner_covers_none_of_the_revolting_provinces(app, home):
    """Issue 49 (round three, the first-hour screenshots): at 960x640 the tutorial's
    rice-shortage banner ("2 revolts: Iyo, Ise") lay over Iyo, which step 9 then asks the
    player to click. Measured on the provinces' outlines at four sizes, for the
    tutorial's revolts and for pairs across the map's middle."""
    from tests.client.conftest import frame, to_my_plan
    scene = to_my_plan(app)
    try:
        for w, h in WINDOWS:
            app.set_size(w, h)
            app.on_resize(w, h)
            frame(app, 2)
            board, banner = scene.board_view, scene.banner
            for drawn, narrow in ((["Iyo", "Ise"], True), (["Iyo", "Ise"], False),
                                  (["Mino", "Omi"], False), (["Harima", "Shinano"], False)):
                if narrow:      # as a battle's card left it (the tutorial's, before its revolts)
                    bw = board.width * 0.6
                    banner.set_rect(board.left + (board.width - bw) / 2, board.bottom, bw, 150)
                else:
                    scene.on_layout()
                scene.player.show_shortage({"event": "Shortage", "seat": 0, "rice": 0,
                                            "provinces": 13, "shortage": 4, "revolts": 2,
                                            "extra_peasants": 0, "drawn": drawn})
                assert banner.visible                # placed as shown (a frame may end it)
                card = (banner.left, banner.bottom, banner.width, banner.height)
                hidden = [n for n in drawn if _overlap(card, board.province_box(n))]
                assert not hidden, (f"{w}x{h}", card, hidden)
                assert board.bottom <= banner.bottom and banner.top <= board.top, (w, h, card)
    finally:
        app.set_size(1280, 800)
        app.on_resize(1280, 800)


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]
