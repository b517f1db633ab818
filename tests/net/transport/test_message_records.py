"""The message records say what the schemas check: the same kinds, the same fields.

Why: a part reads a message through its record (`msg["step"]` is an int); if a schema
gained a field the record lacks, or a record named a field the schema never checks, the
type checker would vouch for reads the wire does not guarantee.
"""

from __future__ import annotations

import types
import typing

import pytest

from net.transport import message_records, messages


def _records() -> dict[str, type]:
    return {name: obj for name, obj in vars(message_records).items()
            if typing.is_typeddict(obj) and "type" in obj.__annotations__}


def test_every_kind_has_a_record_and_every_record_a_kind():
    assert sorted(_records()) == sorted(messages.SCHEMAS)


def test_the_message_union_holds_every_record():
    assert set(typing.get_args(message_records.Message)) == set(_records().values())


@pytest.mark.parametrize("kind", sorted(messages.SCHEMAS))
def test_a_record_has_the_fields_its_schema_checks(kind):
    record = _records()[kind]
    hints = typing.get_type_hints(record)
    assert set(hints) == set(messages.SCHEMAS[kind]) | {"type"}
    assert record.__required_keys__ == frozenset(hints)     # check() wants every field
    assert typing.get_args(hints["type"]) == (kind,)


def _accepted_by(hint: object) -> set[type]:
    """The Python types a field annotation allows (a union's members, a generic's origin)."""
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return set().union(*(_accepted_by(a) for a in args))
    if origin is not None:
        return {origin}
    if typing.is_typeddict(hint):
        return {dict}
    return {hint} if isinstance(hint, type) else {object}


@pytest.mark.parametrize("kind", sorted(messages.SCHEMAS))
def test_a_value_the_schema_accepts_has_a_type_the_record_allows(kind):
    """For each field, every candidate value the schema takes is of a type the record
    names (a record saying `int` where the wire may carry None would lie to a reader)."""
    hints = typing.get_type_hints(_records()[kind])
    candidates: list[object] = [0, 4, 10.0, 20, "player", "palace", "deterministic",
                                b"\0" * 16, b"\0" * 32, b"\0" * 33, b"\0" * 64, None,
                                {}, [], [0], [b"\0" * 32] * len(messages.PLAN_FIELD_NAMES)]
    for field, rule in messages.SCHEMAS[kind].items():
        allowed = _accepted_by(hints[field])
        for value in candidates:
            if rule(value) is None and object not in allowed:
                assert isinstance(value, tuple(allowed)) or (
                    float in allowed and isinstance(value, int)), (kind, field, value)
