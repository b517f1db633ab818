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
