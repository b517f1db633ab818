"""Wire forms: states and commands round-trip through msgpack; hostile input is refused."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, strategies as st

from sim.commands import (ACTIONS, Chance, ChooseMove, DraftPlace, DraftTake, MalformedCommand,
                          OrderRevolts, PickSpecial, SubmitPlan, from_wire, to_wire)
from sim.game import GameConfig, decode_state, encode_state, state_hash
from sim.local import LocalGame

COMMANDS = [Chance(bytes(range(32))), SubmitPlan(1, ("Kai",) + (None,) * 9, "Mino"),
            SubmitPlan(0, (None,) * 10, 3), DraftTake(2, "refresh"), DraftPlace(0, 5),
            PickSpecial(4, 2), ChooseMove(1, "Kai", 3), ChooseMove(1, None, 0),
            OrderRevolts(3, ("Kai", "Mino"))]


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: type(c).__name__)
def test_commands_round_trip_through_msgpack(cmd):
    wire = msgpack.unpackb(msgpack.packb(to_wire(cmd), use_bin_type=True), raw=False)
    assert from_wire(wire) == cmd


@pytest.mark.parametrize("wire, fault", [
    ([1, 2], "not a map"), ({"type": "Nope"}, "unknown command"),
    ({"type": "Chance", "seed": b"short"}, "32 bytes"),
    ({"type": "Chance", "seed": "x" * 32}, "wrong type"),
    ({"type": "PickSpecial", "seat": True, "position": 1}, "wrong type"),
    ({"type": "PickSpecial", "seat": 9, "position": 1}, "out of range"),
    ({"type": "SubmitPlan", "seat": 0, "actions": {"tax": "Kai"}, "bid": 0}, "10 actions"),
    ({"type": "SubmitPlan", "seat": 0, "actions": {a: None for a in ACTIONS}, "bid": 7}, "0-4"),
    ({"type": "ChooseMove", "seat": 0, "target": "K" * 500, "count": 1}, "province name"),
    ({"type": "DraftTake", "seat": 0, "choice": "all"}, "choice"),
])
def test_malformed_wire_commands_name_the_fault(wire, fault):
    with pytest.raises(MalformedCommand, match=fault):
        from_wire(wire)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text() | st.binary(),
                    lambda c: st.lists(c) | st.dictionaries(st.text(), c), max_leaves=20))
def test_arbitrary_wire_data_never_crashes_the_gate(obj):
    try:
        from_wire(obj)
    except MalformedCommand:
        pass


def test_state_round_trips_through_msgpack_at_every_step():
    """State encode/decode is exact at every decision point of a game (hash and content)."""
    game = LocalGame(GameConfig(4, "sun", "draft"), 3, dict.fromkeys(range(4), "random"))
    checked = 0
    while not game.over:
        data = encode_state(game.state)
        copy = decode_state(data)
        assert encode_state(copy) == data
        assert state_hash(copy) == state_hash(game.state)
        game.step()
        checked += 1
    assert checked > 100


def test_decoded_state_plays_on_identically():
    game = LocalGame(GameConfig(3, "sun", "beginner"), 5, dict.fromkeys(range(3), "heuristic"))
    for _ in range(150):
        game.step()
    twin = LocalGame(GameConfig(3, "sun", "beginner"), 5, dict.fromkeys(range(3), "heuristic"))
    twin.state = decode_state(encode_state(game.state))
    twin.commands = list(game.commands)
    for batch in game.run():
        pass
    for batch in twin.run():
        pass
    assert state_hash(twin.state) == state_hash(game.state)


def test_corrupt_state_bytes_give_a_clear_error():
    with pytest.raises(ValueError, match="not a valid encoded game state"):
        decode_state(b"\x93\x01\x02")


def _only_lists(value) -> bool:
    if isinstance(value, tuple):
        return False
    if isinstance(value, list):
        return all(_only_lists(v) for v in value)
    if isinstance(value, dict):
        return all(_only_lists(v) for v in value.values())
    return True


def test_encoding_packs_exactly_the_wire_form_at_every_step():
    """`encode_state` packs `State.packable` (tuples and records as they are) for speed; its
    bytes, and so every state hash, must be those of the plain wire form."""
    game = LocalGame(GameConfig(5, "sun", "draft"), 11, dict.fromkeys(range(5), "heuristic"))
    held = set()      # the progress records the game went through
    while not game.over:
        wire = game.state.to_wire()
        assert encode_state(game.state) == msgpack.packb(wire, use_bin_type=True)
        assert _only_lists(wire)
        held |= {name for name in ("round", "battle", "draft", "winter")
                 if getattr(game.state, name) is not None}
        held |= {"plan"} if any(p.plan for p in game.state.players) else set()
        game.step()
    assert held == {"round", "battle", "draft", "winter", "plan"}


def test_a_state_holding_a_foreign_object_is_refused_by_name():
    game = LocalGame(GameConfig(3, "sun", "beginner"), 5, dict.fromkeys(range(3), "heuristic"))
    state = game.state.copy()
    state.round = object()
    with pytest.raises(TypeError, match="cannot hold a object"):
        encode_state(state)


def _reference_canon(value):
    """What the canonical form of a decision's detail is, written plainly: every map as
    ["__map__", [[key, value]...]], int keys first in their order, then the rest by text."""
    if isinstance(value, dict):
        order = sorted(value, key=lambda k: (0, k, "") if isinstance(k, int) else (1, 0, str(k)))
        return ["__map__", [[k, _reference_canon(value[k])] for k in order]]
    if isinstance(value, (list, tuple)):
        return [_reference_canon(v) for v in value]
    return value


_detail_leaves = st.none() | st.booleans() | st.integers(-9, 99) | st.text(max_size=5)
_detail = st.recursive(
    _detail_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=4) | st.integers(-3, 40) | st.booleans(), inner,
                      max_size=5),
    max_leaves=25)


@given(_detail)
def test_a_decision_detail_is_hashed_in_its_canonical_form(detail):
    from sim.state import canonical
    assert canonical(detail) == _reference_canon(detail)
