"""The tower model's drop (`tower_model.model_drop`) draws one number per cube, colour by
colour, the cubes inside before the thrown ones: the very outcome of the per-cube loop it
had before issue 40 made it draw them in one call (the hard bot's decisions hang on it)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.bots.tower_model import model_drop
from sim.chance import ChanceStream
from sim.tower.odds import rates


def per_cube(before: dict[int, int], thrown: dict[int, int],
             rng: ChanceStream) -> tuple[dict[int, int], dict[int, int]]:
    """The model as it was written before issue 40: a draw per cube in a loop."""
    through, loose = rates(sum(before.values()))
    out: dict[int, int] = {}
    inside: dict[int, int] = {}
    for colour in sorted(set(before) | set(thrown)):
        stay = gone = 0
        for _ in range(before.get(colour, 0)):
            if rng.below(1024) < loose:
                gone += 1
            else:
                stay += 1
        for _ in range(thrown.get(colour, 0)):
            if rng.below(1024) < through:
                gone += 1
            else:
                stay += 1
        if gone:
            out[colour] = gone
        if stay:
            inside[colour] = stay
    return out, inside


counts = st.dictionaries(st.integers(0, 5), st.integers(0, 12), max_size=6)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a loaded machine
@given(seed=st.binary(min_size=32, max_size=32), before=counts, thrown=counts)
def test_a_drop_is_what_the_per_cube_model_gave(seed, before, thrown):
    mine, theirs = ChanceStream(seed), ChanceStream(seed)
    assert model_drop(before, thrown, mine) == per_cube(before, thrown, theirs)
    assert mine.below(1 << 40) == theirs.below(1 << 40)     # the stream left alike
