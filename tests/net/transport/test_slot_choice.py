"""Who gets a handshake slot when they are all taken (issue 34): `choose_slot` as a table.

Before, a newcomer at a full table (or at its address's share) was refused, so 8
addresses that held the 64 slots and reconnected at once kept a friend out 57 of 57
tries. Now a newcomer always gets a slot, taken from the stranger that a flood is made
of, and never from one whose key offer was answered."""

import pytest

from net.transport.handshake_limits import SlotChoice, Stranger, choose_slot

LIMIT, SHARE = 6, 3


def s(address, at, keyed=False):
    return Stranger(address, float(at), keyed)


FLOOD = [s("a", 1), s("a", 2), s("a", 3), s("b", 4), s("b", 5), s("f", 0)]   # f: a friend


@pytest.mark.parametrize("held, newcomer, expected", [
    # room in all and for the address: a free slot
    ([], "x", SlotChoice(True)),
    ([s("a", 1), s("a", 2)], "a", SlotChoice(True)),
    # the address at its share: its own oldest silent one gives way
    ([s("a", 1), s("a", 2), s("a", 3)], "a", SlotChoice(True, 0)),
    ([s("a", 1, keyed=True), s("a", 2), s("a", 3)], "a", SlotChoice(True, 1)),
    # ... and if all of its are answered, the newcomer is refused
    ([s("a", 1, True), s("a", 2, True), s("a", 3, True)], "a", SlotChoice(False)),
    # the table full: the oldest silent one of the address holding the most ("a", 3),
    # never the friend's, though the friend's is the oldest of all
    (FLOOD, "x", SlotChoice(True, 0)),
    (FLOOD, "f", SlotChoice(True, 0)),
    # equal holders: the one whose oldest is older gives way
    ([s("a", 5), s("a", 6), s("b", 1), s("b", 7), s("c", 8), s("c", 9)], "x",
     SlotChoice(True, 2)),
    # answered ones are passed over; the biggest holder of silent ones gives way
    ([s("a", 1, True), s("a", 2, True), s("a", 3, True), s("b", 4), s("c", 5), s("c", 6)],
     "x", SlotChoice(True, 4)),
    # every slot answered: refused (few can be: the answers are rationed)
    ([s(c, i, True) for i, c in enumerate("abcdef")], "x", SlotChoice(False)),
])
def test_the_slot_choice(held, newcomer, expected):
    assert choose_slot(held, newcomer, limit=LIMIT, per_address=SHARE) == expected
