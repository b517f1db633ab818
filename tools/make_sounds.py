"""Generate the game's sound cues into assets/sounds/ (16-bit mono WAV, 11,025 Hz: small files).

    .venv/bin/python tools/make_sounds.py [OUTDIR]

Why generated: the project ships no downloaded or borrowed audio (issue 13). Every cue is
synthesised here from noise bursts and decaying sines with a fixed seed, so running the
script again writes byte-identical files (tests/tools/test_make_sounds.py checks it).

Cues: `rattle` (a battle's handful shaken before the pour), `clatter` (wooden cubes
rattling down the tower), `thud` (a cube landing on the tray), `tally` (the tray counted), `sting` (a battle's result), `score` (winter points), `locked` (a plan locked),
`refused` (the rules said no), `ended` (the final standings).

Tests: tests/tools/test_make_sounds.py.
"""

from __future__ import annotations

import sys
import wave
from typing import Sequence
from pathlib import Path

import numpy as np

RATE = 11025
OUT = Path(__file__).resolve().parent.parent / "assets" / "sounds"


def _t(seconds: float) -> np.ndarray:
    return np.arange(int(RATE * seconds)) / RATE


def _knock(rng: np.random.Generator, pitch: float, length: float, decay: float) -> np.ndarray:
    """One wooden knock: a short filtered noise burst plus two decaying partials."""
    t = _t(length)
    env = np.exp(-t * decay)
    noise = rng.standard_normal(t.size)
    noise = np.convolve(noise, np.ones(6) / 6, mode="same")       # dull the hiss
    tone = np.sin(2 * np.pi * pitch * t) + 0.5 * np.sin(2 * np.pi * pitch * 2.76 * t)
    return env * (0.6 * noise + 0.7 * tone)


def clatter(rng: np.random.Generator) -> np.ndarray:
    """Many small knocks over 0.45 s, thinning out: cubes hitting ribs and floors."""
    out = np.zeros(int(RATE * 0.5))
    for k in range(18):
        at = int(RATE * 0.42 * (k / 18) ** 1.4 + rng.integers(0, 400))
        hit = _knock(rng, 700 + 900 * rng.random(), 0.05, 90) * (0.9 - 0.035 * k)
        end = min(out.size, at + hit.size)
        out[at:end] += hit[:end - at]
    return out


def rattle(rng: np.random.Generator) -> np.ndarray:
    """A handful shaken in the hand before the pour: a few soft, close knocks, low."""
    out = np.zeros(int(RATE * 0.4))
    for k in range(9):
        at = int(RATE * 0.33 * k / 9 + rng.integers(0, 250))
        hit = _knock(rng, 380 + 260 * rng.random(), 0.04, 110) * (0.5 + 0.3 * rng.random())
        end = min(out.size, at + hit.size)
        out[at:end] += hit[:end - at]
    return out


def tally(rng: np.random.Generator) -> np.ndarray:
    """The tray counted: two dry wooden clicks, like an abacus bead pushed home."""
    a = _knock(rng, 1250, 0.05, 120)
    out = np.zeros(int(RATE * 0.18))
    out[:a.size] += a
    b = _knock(rng, 1500, 0.05, 120) * 0.8
    out[int(RATE * 0.09):int(RATE * 0.09) + b.size] += b
    return out


def thud(rng: np.random.Generator) -> np.ndarray:
    """A cube on the tray: one low, short knock."""
    t = _t(0.12)
    body = np.sin(2 * np.pi * 180 * t) * np.exp(-t * 45)
    sound: np.ndarray = 0.8 * body + 0.5 * _knock(rng, 420, 0.12, 70)
    return sound


def _notes(freqs: Sequence[float], each: float, decay: float, overlap: float = 0.0) -> np.ndarray:
    step = int(RATE * each * (1 - overlap))
    t = _t(each * 2)
    out = np.zeros(step * (len(freqs) - 1) + t.size)
    for k, f in enumerate(freqs):
        note = np.exp(-t * decay) * (np.sin(2 * np.pi * f * t) + 0.3 * np.sin(2 * np.pi * 2 * f * t)
                                     + 0.1 * np.sin(2 * np.pi * 3 * f * t))
        out[k * step:k * step + t.size] += note
    return out


def sting(rng: np.random.Generator) -> np.ndarray:
    """A battle's result: a drum hit and a rising fifth."""
    drum = _knock(rng, 110, 0.3, 14) * 1.2
    bell = _notes((440.0, 659.25), 0.22, 9)
    out = np.zeros(max(drum.size, bell.size + 1500))
    out[:drum.size] += drum
    out[1500:1500 + bell.size] += 0.7 * bell
    return out


def score(rng: np.random.Generator) -> np.ndarray:
    """Winter points: three quick rising bell notes."""
    return _notes((523.25, 659.25, 783.99), 0.12, 14)


def locked(rng: np.random.Generator) -> np.ndarray:
    """A plan locked: a short wooden click and a soft tone."""
    return 0.8 * _knock(rng, 900, 0.08, 60) + 0.4 * _notes((880.0,), 0.04, 30)[:int(RATE * 0.08)]


def refused(rng: np.random.Generator) -> np.ndarray:
    """The rules said no: two low buzzing notes, falling."""
    t = _t(0.14)
    buzz = [np.sign(np.sin(2 * np.pi * f * t)) * np.exp(-t * 12) * 0.35 for f in (196.0, 147.0)]
    return np.concatenate(buzz)


def ended(rng: np.random.Generator) -> np.ndarray:
    """The final standings: a slow rising arpeggio."""
    return _notes((392.0, 493.88, 587.33, 783.99), 0.22, 6, overlap=0.3)


CUES = {"rattle": rattle, "clatter": clatter, "thud": thud, "tally": tally, "sting": sting, "score": score,
        "locked": locked, "refused": refused, "ended": ended}


def to_pcm(signal: np.ndarray) -> bytes:
    """Normalise to 70% of full scale, fade the last 10 ms, little-endian int16."""
    peak = float(np.max(np.abs(signal))) or 1.0
    s = signal / peak * 0.7
    fade = min(s.size, int(RATE * 0.01))
    s[s.size - fade:] *= np.linspace(1.0, 0.0, fade)
    return np.round(s * 32767).astype("<i2").tobytes()


def write(name: str, outdir: Path) -> Path:
    rng = np.random.default_rng(list(name.encode()))   # each cue its own fixed seed
    path = outdir / f"{name}.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(to_pcm(CUES[name](rng)))
    return path


def main(argv: list[str]) -> int:
    outdir = Path(argv[0]) if argv else OUT
    outdir.mkdir(parents=True, exist_ok=True)
    for name in CUES:
        path = write(name, outdir)
        print(f"{path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
