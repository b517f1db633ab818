"""Where a film's frames go: an MP4 or WebM by imageio-ffmpeg's ffmpeg, or an animated GIF
by Pillow (issue 36 item 5).

Why imageio-ffmpeg: it ships a static ffmpeg (a separate GPL program, run here as a
subprocess that the raw RGB frames are piped to), so a player needs no system ffmpeg and
the project keeps no encoder of its own. When it is missing, the film is written as a GIF
beside the asked name and the caller says so in a sentence (`FilmFormat.note`).

Tests: tests/client/film/test_battle_film.py, tests/client/film/test_film_encoder.py.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Protocol

from PIL import Image

from lang.i18n import _
from lang.i18n import current

VIDEO = (".mp4", ".webm")
SUFFIXES = (*VIDEO, ".gif")
GIF_STEP = 2            # a GIF keeps every second frame (15 fps): half the size, same motion

# H.264 at CRF 30 ("slow"): a 10 s 720p battle is well under 1.5 MB (BENCHMARKS.md);
# VP9 at CRF 40 for the same. yuv420p plays everywhere (browsers, phones, chat apps).
_CODECS = {
    ".mp4": ("libx264", ["-crf", "30", "-preset", "slow", "-movflags", "+faststart"]),
    ".webm": ("libvpx-vp9", ["-crf", "40", "-b:v", "0", "-deadline", "good", "-cpu-used", "4",
                             "-row-mt", "1"]),
}


def ffmpeg_module() -> ModuleType | None:
    """imageio_ffmpeg, or None when it is not installed (the GIF fallback)."""
    try:
        return importlib.import_module("imageio_ffmpeg")
    except ImportError:
        return None


@dataclass(frozen=True)
class FilmFormat:
    """What will really be written for an asked name: the path and, when it differs from
    what was asked (no encoder), the sentence saying why."""
    path: Path
    note: str = ""


def film_format(asked: Path) -> FilmFormat:
    """The path a film asked as `asked` is written to. ValueError with a sentence for a
    name that is not .mp4, .webm or .gif."""
    suffix = asked.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(_("A film is written as .mp4, .webm or .gif: give a file name "
                           "ending in one of them (got {name}).").format(name=asked.name))
    if suffix in VIDEO and ffmpeg_module() is None:
        gif = asked.with_suffix(".gif")
        return FilmFormat(gif, _("The video encoder (the imageio-ffmpeg package) is not "
                                 "installed, so the film was written as an animated GIF "
                                 "instead: {path}").format(path=gif))
    return FilmFormat(asked)


def default_suffix() -> str:
    """What the window's film buttons ask for: an MP4 when it can be made, else a GIF."""
    return VIDEO[0] if ffmpeg_module() is not None else SUFFIXES[-1]


def film_command(save_path: str | Path, number: int, out: Path) -> list[str]:
    """The arguments after the program for the window's film buttons: the command line's
    film, in the window's language (which a --lang or the settings may have chosen)."""
    return ["--lang", current(), "replay", str(save_path), "--film", str(number),
            "--out", str(out)]


def films_path(films_dir: Path, save_path: str | Path, number: int) -> Path:
    """Where the window's film buttons put battle `number` of a save: one name for both."""
    return films_dir / f"{Path(save_path).stem}-battle-{number}{default_suffix()}"


class FrameSink(Protocol):
    def add(self, frame: Image.Image) -> None: ...
    def close(self) -> int: ...


class VideoSink:
    """Raw RGB frames piped to ffmpeg as they are made (a film is never held in memory)."""

    def __init__(self, path: Path, size: tuple[int, int], fps: int) -> None:
        module = ffmpeg_module()
        assert module is not None
        codec, params = _CODECS[path.suffix.lower()]
        self.size = size
        self.frames = 0
        self._gen = module.write_frames(str(path), size, fps=fps, codec=codec, quality=None,
                                        pix_fmt_out="yuv420p", macro_block_size=2,
                                        output_params=params, ffmpeg_log_level="error")
        self._gen.send(None)

    def add(self, frame: Image.Image) -> None:
        self._gen.send(frame.convert("RGB").tobytes())
        self.frames += 1

    def close(self) -> int:
        self._gen.close()
        return self.frames


class GifSink:
    """Pillow's animated GIF: every GIF_STEP-th frame, quantized to 255 colours."""

    def __init__(self, path: Path, fps: int) -> None:
        self.path = path
        self.fps = fps
        self._frames: list[Image.Image] = []
        self._seen = 0

    def add(self, frame: Image.Image) -> None:
        if self._seen % GIF_STEP == 0:
            self._frames.append(frame.convert("RGB").quantize(
                colors=255, method=Image.Quantize.FASTOCTREE))
        self._seen += 1

    def close(self) -> int:
        first, rest = self._frames[0], self._frames[1:]
        first.save(self.path, save_all=True, append_images=rest,
                   duration=int(1000 * GIF_STEP / self.fps), loop=0, optimize=False)
        with Image.open(self.path) as written:        # identical neighbours are merged
            return int(written.n_frames)


def open_sink(path: Path, size: tuple[int, int], fps: int) -> FrameSink:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() in VIDEO:
        return VideoSink(path, size, fps)
    return GifSink(path, fps)
