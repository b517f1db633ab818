"""physics/portable_math.c: accurate to a few ulp, the C99 special values, the same bits
at any optimisation level, and constants that match their derivation (issue 25).

The functions are compiled on their own (a shared library loaded with ctypes); the
reference is this machine's C library through `math` (within 1 ulp of the truth), so a
bound of n ulp here means at most about n - 1 from the true value.
"""

from __future__ import annotations

import ctypes
import importlib.util
import math
import platform
import random
import struct
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PHYSICS = ROOT / "physics"

from tools import build_physics  # noqa: E402

_spec = importlib.util.spec_from_file_location("derive_constants", PHYSICS / "derive_constants.py")
assert _spec is not None and _spec.loader is not None
derive_constants = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(derive_constants)

ONE = ("pm_sin", "pm_cos", "pm_exp", "pm_acos", "pm_floor", "pm_ceil")
TWO = ("pm_pow", "pm_atan2", "pm_fmod")
X86 = platform.machine().lower() in ("x86_64", "amd64")


def compile_library(folder: Path, flags: list[str]) -> ctypes.CDLL:
    if build_physics.missing_tools():
        pytest.skip(f"cannot compile here: {build_physics.missing_tools()}")
    out = folder / f"pm{abs(hash(tuple(flags)))}.so"
    subprocess.run(build_physics.compiler() + flags + [
        "-std=c99", "-fPIC", "-shared", "-DPM_API=", "-ffp-contract=off", "-o", str(out),
        str(PHYSICS / "portable_math.c")], check=True, capture_output=True)
    lib = ctypes.CDLL(str(out))
    for name in ONE + TWO:
        function = getattr(lib, name)
        function.restype = ctypes.c_double
        function.argtypes = [ctypes.c_double] * (2 if name in TWO else 1)
    return lib


@pytest.fixture(scope="module")
def lib(tmp_path_factory) -> ctypes.CDLL:
    return compile_library(tmp_path_factory.mktemp("pm"), ["-O2"])


def ulps(got: float, want: float) -> float:
    if math.isnan(want):
        return 0.0 if math.isnan(got) else math.inf
    if got == want:
        return 0.0
    if math.isinf(want) or math.isinf(got) or math.isnan(got):
        return math.inf
    return abs(got - want) / math.ulp(want)


def worst(function, reference, arguments) -> float:
    return max(ulps(function(*a), reference(*a)) for a in arguments)


R = random.Random(25)
CASES = [
    ("pm_sin", math.sin, [(R.uniform(-4, 4),) for _ in range(4000)] +
     [(R.uniform(-1e5, 1e5),) for _ in range(4000)] +
     [(R.uniform(-1, 1) * 10 ** R.uniform(-300, 0),) for _ in range(2000)], 2),
    ("pm_cos", math.cos, [(R.uniform(-4, 4),) for _ in range(4000)] +
     [(R.uniform(-1e5, 1e5),) for _ in range(4000)], 2),
    ("pm_exp", math.exp, [(R.uniform(-745, 709),) for _ in range(4000)] +
     [(R.uniform(-1, 1),) for _ in range(4000)], 2),
    # the tower's calls: damping ** dt and (1 - bias) ** dt every step
    ("pm_pow", math.pow, [(R.uniform(0, 1), R.uniform(0, 0.1)) for _ in range(4000)] +
     [(R.uniform(0, 10), R.uniform(-50, 50)) for _ in range(4000)] +
     [(-R.uniform(0, 3), float(R.randint(-40, 40))) for _ in range(1000)], 2),
    ("pm_atan2", math.atan2, [(R.uniform(-10, 10), R.uniform(-10, 10)) for _ in range(4000)] +
     [(R.uniform(-1, 1) * 10 ** R.uniform(-30, 30), R.uniform(-1, 1) * 10 ** R.uniform(-30, 30))
      for _ in range(4000)], 3),
    ("pm_acos", math.acos, [(R.uniform(-1, 1),) for _ in range(4000)] +
     [(1 - 10 ** R.uniform(-16, -1),) for _ in range(2000)], 4),
    ("pm_floor", math.floor, [(R.uniform(-1e6, 1e6),) for _ in range(2000)], 0),
    ("pm_ceil", math.ceil, [(R.uniform(-1e6, 1e6),) for _ in range(2000)], 0),
    ("pm_fmod", math.fmod, [(R.uniform(-1, 1) * 10 ** R.uniform(-5, 100), R.uniform(-10, 10))
                            for _ in range(2000)], 0),
]


@pytest.mark.parametrize("name, reference, arguments, bound", CASES, ids=[c[0] for c in CASES])
def test_accurate_to_a_few_ulp(lib, name, reference, arguments, bound):
    assert worst(getattr(lib, name), reference, arguments) <= bound


def test_pow_stays_accurate_up_to_the_overflow_limit(lib):
    """y ln x near +-700 magnifies any error of ln x 700 times: the table-driven
    double-double log keeps it within 2 ulp (a plain atanh series on |f| <= 0.17 gave 15)."""
    arguments = [(R.uniform(0.5, 2), R.uniform(-1000, 1000)) for _ in range(3000)]
    assert worst(lib.pm_pow, math.pow, arguments) <= 2


INF, NAN = math.inf, math.nan
# C99 Annex F values (Python's math raises where C returns inf, so they are written out)
SPECIAL = [
    ("pm_sin", (0.0,), 0.0), ("pm_sin", (-0.0,), -0.0), ("pm_sin", (INF,), NAN),
    ("pm_cos", (0.0,), 1.0), ("pm_cos", (-INF,), NAN), ("pm_cos", (NAN,), NAN),
    ("pm_exp", (-INF,), 0.0), ("pm_exp", (INF,), INF), ("pm_exp", (1000.0,), INF),
    ("pm_exp", (0.0,), 1.0), ("pm_exp", (-746.0,), 0.0),
    ("pm_pow", (NAN, 0.0), 1.0), ("pm_pow", (1.0, NAN), 1.0), ("pm_pow", (0.0, -1.0), INF),
    ("pm_pow", (-0.0, -3.0), -INF), ("pm_pow", (-0.0, 3.0), -0.0), ("pm_pow", (0.0, 0.5), 0.0),
    ("pm_pow", (-1.0, INF), 1.0), ("pm_pow", (0.5, INF), 0.0), ("pm_pow", (0.5, -INF), INF),
    ("pm_pow", (2.0, INF), INF), ("pm_pow", (-INF, 3.0), -INF), ("pm_pow", (-INF, -3.0), -0.0),
    ("pm_pow", (INF, -1.0), 0.0), ("pm_pow", (-2.0, 0.5), NAN), ("pm_pow", (-2.0, 3.0), -8.0),
    ("pm_pow", (-1.0, 1e308), 1.0), ("pm_pow", (10.0, 400.0), INF), ("pm_pow", (10.0, -400.0), 0.0),
    ("pm_pow", (2.0, -1074.0), 5e-324), ("pm_pow", (4.0, 0.5), 2.0),
    ("pm_atan2", (0.0, -0.0), math.pi), ("pm_atan2", (-0.0, 0.0), -0.0),
    ("pm_atan2", (-0.0, -1.0), -math.pi), ("pm_atan2", (1.0, 0.0), math.pi / 2),
    ("pm_atan2", (INF, INF), math.pi / 4), ("pm_atan2", (INF, -INF), 3 * math.pi / 4),
    ("pm_atan2", (-1.0, INF), -0.0), ("pm_atan2", (1.0, -INF), math.pi),
    ("pm_acos", (1.0,), 0.0), ("pm_acos", (-1.0,), math.pi), ("pm_acos", (2.0,), NAN),
    ("pm_floor", (-0.0,), -0.0), ("pm_floor", (-0.5,), -1.0), ("pm_floor", (-INF,), -INF),
    ("pm_ceil", (-0.5,), -0.0), ("pm_ceil", (0.5,), 1.0), ("pm_ceil", (2.0 ** 60,), 2.0 ** 60),
    ("pm_fmod", (1.0, 0.0), NAN), ("pm_fmod", (INF, 1.0), NAN), ("pm_fmod", (-7.5, 2.0), -1.5),
    ("pm_fmod", (1e300, 3.0), math.fmod(1e300, 3.0)), ("pm_fmod", (5.0, INF), 5.0),
]


@pytest.mark.parametrize("name, arguments, want", SPECIAL,
                         ids=[f"{n}{a}" for n, a, _ in SPECIAL])
def test_special_values_as_c99_says(lib, name, arguments, want):
    got = getattr(lib, name)(*arguments)
    if math.isnan(want):
        assert math.isnan(got)
    else:
        assert struct.pack("<d", got) == struct.pack("<d", want), (got, want)


def test_the_same_bits_at_any_optimisation_level(lib, tmp_path):
    """-O0 against -O3 for this CPU with FMA available: contraction off keeps every
    rounding where the source puts it."""
    fast = compile_library(tmp_path, ["-O3", "-march=native"] + (["-mfma"] if X86 else []))
    slow = compile_library(tmp_path, ["-O0"])
    for name, _, arguments, _ in CASES:
        for a in arguments[::7]:
            bits = {struct.pack("<d", getattr(f, name)(*a)) for f in (fast, slow, lib)}
            assert len(bits) == 1, (name, a)


def test_the_constants_are_their_derivation():
    """physics/portable_math_constants.h is what physics/derive_constants.py writes."""
    assert derive_constants.HEADER.read_text() == derive_constants.text()
