"""Events and decision kinds are typed and write the same bytes as before: every event a
game emits has exactly the keys its record declares, in the declared order, and a
`DecisionKind` serialises (msgpack, the state hash) as the plain string it was."""

from __future__ import annotations

import json
import typing

import msgpack

from sim.events import EVENT_NAMES, Event
from sim.game import GameConfig, decode_state, encode_state
from sim.local import play_bots
from sim.state import Decision, DecisionKind

RECORDS = {typing.get_args(typing.get_type_hints(record)["event"])[0]: record
           for record in typing.get_args(Event)}


def _games() -> list[list[Event]]:
    return [play_bots(GameConfig(players, "sun", setup), seed, ["heuristic"] * players)[1]
            for players, setup, seed in ((3, "beginner", 5), (5, "draft", 9))]


def test_every_event_name_has_one_record() -> None:
    assert set(RECORDS) == set(EVENT_NAMES)
    assert len(typing.get_args(Event)) == len(EVENT_NAMES)


def test_events_have_the_declared_keys_in_order() -> None:
    seen: set[str] = set()
    for events in _games():
        for e in events:
            name = e["event"]
            assert type(name) is str, e
            record = RECORDS[name]
            declared = list(typing.get_type_hints(record))
            keys = list(e)
            assert record.__required_keys__ <= set(keys) <= set(declared), (name, keys)
            assert keys == [k for k in declared if k in e], (name, keys)
            seen.add(name)
    # a game emits most kinds; the ones a bot game may not reach are rare by design
    assert len(seen) >= len(EVENT_NAMES) - 3, set(EVENT_NAMES) - seen


def test_decision_kind_packs_as_its_string_and_comes_back_typed() -> None:
    assert msgpack.packb(DecisionKind.PLAN) == msgpack.packb("plan")
    assert json.dumps({DecisionKind.PLAN: DecisionKind.OVER}) == '{"plan": "over"}'
    state = play_bots(GameConfig(3, "sun", "beginner"), 5, ["heuristic"] * 3)[0]
    assert state.decision.kind == DecisionKind.OVER == "over"
    plain = state.copy()
    d = plain.decision
    untyped: typing.Any = str(d.kind)          # the plain string a kind was before
    plain.decision = Decision(untyped, d.seats, d.purpose, d.detail)
    assert encode_state(plain) == encode_state(state)
    back = decode_state(encode_state(state))
    assert type(back.decision.kind) is DecisionKind
