"""tools/make_sounds.py: the committed cues are what the script makes (deterministic, so
nothing in assets/sounds/ came from elsewhere), and each is a valid, short 16-bit WAV."""

from __future__ import annotations

import subprocess
import sys
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOUNDS = ROOT / "assets" / "sounds"


def _samples(path: Path) -> tuple[tuple, list[int]]:
    with wave.open(str(path)) as w:
        params = (w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes())
        frames = w.readframes(w.getnframes())
    return params, [int.from_bytes(frames[i:i + 2], "little", signed=True)
                    for i in range(0, len(frames), 2)]


def test_the_script_regenerates_the_committed_files(tmp_path):
    """Sample for sample, give or take one step: numpy's sin may round the last bit
    differently on another CPU, which no ear hears; anything more means the committed
    files are not what the script makes."""
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_sounds.py"), str(tmp_path)],
                   check=True, capture_output=True)
    made = sorted(p.name for p in tmp_path.glob("*.wav"))
    assert made == sorted(p.name for p in SOUNDS.glob("*.wav"))
    for name in made:
        (params_a, a), (params_b, b) = _samples(tmp_path / name), _samples(SOUNDS / name)
        assert params_a == params_b, name
        assert max(abs(x - y) for x, y in zip(a, b)) <= 1, name


def test_every_cue_the_client_plays_is_a_small_valid_wav():
    from client.core.sound import CUES
    for name, path in CUES.items():
        assert path.exists(), f"{name}: {path} missing (run tools/make_sounds.py)"
        with wave.open(str(path)) as w:
            assert (w.getnchannels(), w.getsampwidth()) == (1, 2), name
            seconds = w.getnframes() / w.getframerate()
            assert 0.05 < seconds < 2.0, (name, seconds)
            frames = w.readframes(w.getnframes())
        peak = max(abs(int.from_bytes(frames[i:i + 2], "little", signed=True))
                   for i in range(0, len(frames), 2))
        assert peak > 10000, f"{name} is (nearly) silent"
        assert path.stat().st_size < 25_000, name
