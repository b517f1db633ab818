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
