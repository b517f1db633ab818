"""Which names in a correspondence folder a reader opens (net/correspondence/folder_names.py)."""

from __future__ import annotations

import pytest

from net.correspondence.folder_names import NameKind, classify, seat_file_name


@pytest.mark.parametrize("name, kind, seat, maker", [
    ("seat-0.shogun", NameKind.SEAT, 0, ""),
    ("seat-4.shogun", NameKind.SEAT, 4, ""),
    ("seat-2.sync-conflict-20261129-101500-ABCDEFG.shogun", NameKind.COPY, 2, "Syncthing"),
    ("seat-2 (Ann's conflicted copy 2026-11-29).shogun", NameKind.COPY, 2, "Dropbox"),
    ("seat-2 (Ann's conflicted copy).shogun", NameKind.COPY, 2, "Dropbox"),
    ("seat-2 (conflicted copy 2026-11-29 101500).shogun", NameKind.COPY, 2, "Nextcloud"),
    ("seat-3 (1).shogun", NameKind.COPY, 3, "a duplicate"),
    ("seat-3 - Copy.shogun", NameKind.COPY, 3, "a duplicate"),
    ("seat-1-LAPTOP.shogun", NameKind.COPY, 1, ""),
    ("seat-12.shogun", NameKind.OTHER, None, ""),               # no seat 1: 12 is no seat
    ("seat-1.shogun.tmp", NameKind.OTHER, None, ""),
    (".syncthing.seat-1.shogun.tmp", NameKind.OTHER, None, ""),
    ("~syncthing~seat-1.shogun.tmp", NameKind.OTHER, None, ""),
    (".seat-1.shogun.tmp-4242", NameKind.OTHER, None, ""),      # a writer's own temporary
    ("seat-1.shogun~", NameKind.OTHER, None, ""),
    ("../seat-1.shogun", NameKind.OTHER, None, ""),
    ("seat-a.shogun", NameKind.OTHER, None, ""),
    ("notes.txt", NameKind.OTHER, None, ""),
    ("seat-1\x1b]0;pwned\x07.shogun", NameKind.COPY, 1, ""),    # opened, its name shown safely
    ("seat-1" + "x" * 500 + ".shogun", NameKind.OTHER, None, ""),
])
def test_each_name_is_a_seat_file_a_copy_or_nothing_of_ours(name, kind, seat, maker):
    what = classify(name)
    assert (what.kind, what.seat, what.maker) == (kind, seat, maker)


def test_a_seat_file_name_classifies_back_to_its_seat():
    for seat in range(10):
        assert classify(seat_file_name(seat)).seat == seat
    with pytest.raises(IndexError):
        seat_file_name(10)
