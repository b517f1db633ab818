"""`sim.progress.evolve`, the rules' quicker `dataclasses.replace` (issue 40: faster
rollouts): for every progress record it builds the very record `replace` builds, equal,
with the same hash and wire form, the original untouched; a field the record lacks is an
error naming it."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.progress import Battle, DraftProgress, Plan, RoundProgress, WinterProgress, evolve
from sim.state import _record_packed

RECORDS = [
    Plan(("Kai",) + (None,) * 9, 1, (True,) * 11, (False,) * 11, ("Kai",), 3),
    DraftProgress(("Ise",), (), ("Kai", None), 2, (None,) * 4, None, "take"),
    RoundProgress(changed=("Kai",), slot=3, step="act"),
    Battle("attack", "Kai", 0, 1, "Ise", "battle_a", held=(1, 0, 0, 0, 0, 2)),
    WinterProgress(idx=1, revolts=("Kai",)),
]


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: type(r).__name__)
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a loaded machine
@given(data=st.data())
def test_evolve_builds_what_replace_builds(record, data):
    names = [f.name for f in fields(record)]
    chosen = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=3))
    changes = {n: data.draw(st.one_of(st.integers(-3, 9), st.text(max_size=3), st.none()))
               for n in chosen}
    before = _record_packed(record)
    new = evolve(record, **changes)
    expected = replace(record, **changes)
    assert type(new) is type(expected)
    assert new == expected and hash(new) == hash(expected)
    assert _record_packed(new) == _record_packed(expected)
    assert _record_packed(record) == before                 # the original is untouched


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: type(r).__name__)
def test_a_field_the_record_lacks_is_an_error_naming_it(record):
    with pytest.raises(TypeError, match="stage"):
        evolve(record, stage="act")
