"""Which file a film asked for becomes (issue 36 item 5): an .mp4 or .webm when
imageio-ffmpeg is installed, else a GIF beside it with a sentence; other names refused."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from client.film.battle_film import parse_size
from client.core.film_encoder import default_suffix, film_format, films_path


def test_a_video_is_written_as_asked_when_the_encoder_is_there():
    assert film_format(Path("f/b.mp4")).path == Path("f/b.mp4")
    assert film_format(Path("b.WEBM")).note == ""
    assert default_suffix() == ".mp4"


def test_without_the_encoder_a_video_becomes_a_gif_with_a_sentence(monkeypatch):
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)     # its import fails
    fmt = film_format(Path("films/b.mp4"))
    assert fmt.path == Path("films/b.gif")
    assert "imageio-ffmpeg" in fmt.note and "animated GIF" in fmt.note and "b.gif" in fmt.note
    assert film_format(Path("b.gif")).note == ""
    # the window's buttons ask for what can be made, so their film is the command's
    assert default_suffix() == ".gif"
    assert films_path(Path("films"), "/x/game.save", 2) == Path("films/game-battle-2.gif")


def test_a_name_that_is_not_a_film_is_refused_with_a_sentence():
    with pytest.raises(ValueError, match=r"\.mp4, \.webm or \.gif.*b\.avi"):
        film_format(Path("b.avi"))


@pytest.mark.parametrize("text, size", [("1280x720", (1280, 720)), ("640X360", (640, 360))])
def test_a_size_is_width_by_height(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["wide", "1280", "1281x720", "0x0", "99999x720", "1280x720x3"])
def test_a_size_that_is_not_one_is_refused_with_a_sentence(text):
    with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
        parse_size(text)
