"""The tower lesson's watch over its pour (client/tutorial/pour_lesson.py): watched only
when every frame of the pour played at normal speed in view, to its end."""

from __future__ import annotations

from client.tutorial.pour_lesson import PourWatch


def _watch(frames) -> PourWatch:
    w = PourWatch()
    for f in frames:
        w.frame(*f)
    return w


def test_a_pour_seen_whole_at_normal_speed_is_watched():
    w = _watch([("handful", 1.0, True)] + [("pour", 1.0, True)] * 50 + [("tally", 1.0, True)])
    assert w.watched and not w.needs_replay


def test_a_pour_still_falling_is_not_watched_yet():
    w = _watch([("pour", 1.0, True)] * 50)
    assert not w.watched and not w.needs_replay


def test_a_pour_too_fast_hidden_or_skipped_is_played_again():
    fast = _watch([("pour", 1.0, True)] * 10 + [("pour", 4.0, True)] * 5 + [("tally", 1.0, True)])
    hidden = _watch([("pour", 1.0, True)] * 10 + [("pour", 1.0, False)] + [("climax", 1.0, True)])
    skipped = _watch([("pour", 1.0, True)] * 10 + [("climax", 1.0, True, True)])
    at_once = _watch([("handful", 1.0, True), ("climax", 1.0, True, True)])
    for w in (fast, hidden, skipped, at_once):
        assert not w.watched and w.needs_replay, w


def test_slower_than_normal_counts():
    assert _watch([("pour", 0.5, True)] * 20 + [("", 1.0, True)]).watched
