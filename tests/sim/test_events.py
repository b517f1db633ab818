"""Events and decision kinds are typed records that write the same bytes as plain strings:
every event a game emits has exactly the keys its record declares, in the declared order,
and an `EventName` or `DecisionKind` serialises (JSON, msgpack, the state hash) as its
string did."""

from __future__ import annotations

import json
import typing

import msgpack

from sim.events import Event, EventName
from sim.game import GameConfig, decode_state, encode_state
from sim.local import play_bots
from sim.state import Decision, DecisionKind

RECORDS = {typing.get_args(typing.get_type_hints(record)["event"])[0]: record
           for record in typing.get_args(Event)}


def _games() -> list[list[Event]]:
    return [play_bots(GameConfig(players, "sun", setup), seed, ["heuristic"] * players)[1]
            for players, setup, seed in ((3, "beginner", 5), (5, "draft", 9))]


def test_every_event_name_has_one_record() -> None:
    assert set(RECORDS) == set(EventName)
    assert len(typing.get_args(Event)) == len(EventName)


def test_events_have_the_declared_keys_in_order() -> None:
    seen = set()
    for events in _games():
        for e in events:
            name = e["event"]
            assert isinstance(name, EventName), e
            record = RECORDS[name]
            declared = list(typing.get_type_hints(record))
            keys = list(e)
            assert record.__required_keys__ <= set(keys) <= set(declared), (name, keys)
            assert keys == [k for k in declared if k in e], (name, keys)
            seen.add(name)
    # a game emits most kinds; the ones a bot game may not reach are rare by design
    assert len(seen) >= len(EventName) - 3, set(EventName) - seen


def test_names_serialise_as_their_strings() -> None:
    events = _games()[0]
    plain = [{**e, "event": str(e["event"])} for e in events]
    assert all(type(p["event"]) is str for p in plain)
    assert json.dumps(events) == json.dumps(plain)
    assert msgpack.packb(events) == msgpack.packb(plain)


def test_decision_kind_packs_as_its_string_and_comes_back_typed() -> None:
    state = play_bots(GameConfig(3, "sun", "beginner"), 5, ["heuristic"] * 3)[0]
    assert state.decision.kind == DecisionKind.OVER == "over"
    plain = state.copy()
    d = plain.decision
    untyped: typing.Any = str(d.kind)          # the plain string a kind was before
    plain.decision = Decision(untyped, d.seats, d.purpose, d.detail)
    assert encode_state(plain) == encode_state(state)
    back = decode_state(encode_state(state))
    assert type(back.decision.kind) is DecisionKind
