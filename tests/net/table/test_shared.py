"""The records the table's parts share (net/table/shared.py): the phase changes only as
`TRANSITIONS` allows, and the early-message buffer is play's, bounded.

A whole game's phases, role by role, are in test_session.py
(`test_the_phase_names_where_each_peer_is`).
"""

from __future__ import annotations

import pytest

from net.table.phase import Phase
from net.table.play import BUFFER_LIMIT, EarlyMessages
from net.table.shared import TRANSITIONS, PhaseError, TableState

# in one order in every process (TRANSITIONS holds sets): pytest-xdist's workers must
# collect the same list
ALLOWED = [(a, b) for a, nexts in TRANSITIONS.items() for b in sorted(nexts, key=lambda p: p.value)]
REFUSED = [(a, b) for a in Phase for b in Phase if a is not b and b not in TRANSITIONS[a]]


@pytest.mark.parametrize("before, after", ALLOWED)
def test_a_listed_phase_change_is_made(before, after):
    table = TableState(role="join", phase=before)
    table.enter(after)
    assert table.phase is after


@pytest.mark.parametrize("before, after", REFUSED)
def test_an_unlisted_phase_change_is_refused_and_names_both_phases(before, after):
    table = TableState(role="join", phase=before)
    with pytest.raises(PhaseError, match=f"from {before.value} to {after.value}"):
        table.enter(after)
    assert table.phase is before


def test_the_table_never_goes_back_to_the_lobby_nor_a_player_to_spectating():
    assert all(Phase.LOBBY not in nexts and Phase.SPECTATE not in nexts
               for nexts in TRANSITIONS.values())


@pytest.mark.parametrize("phase", list(Phase))
def test_staying_in_a_phase_is_no_change(phase):
    table = TableState(role="watch", phase=phase)
    table.enter(phase)
    assert table.phase is phase


def test_play_keeps_early_messages_in_order_up_to_its_limit():
    early = EarlyMessages()
    kept = [(object(), {"type": "LinkRevealed", "n": n}) for n in range(BUFFER_LIMIT)]
    assert all(early.keep(conn, msg) for conn, msg in kept)
    assert not early.keep(object(), {"type": "LinkRevealed", "n": -1})
    assert early.take() == kept and early.take() == []


def test_a_rejoin_forgets_what_was_kept_for_the_game_it_left():
    early = EarlyMessages()
    early.keep(object(), {"type": "CommandSent"})
    early.forget()
    assert early.take() == []
