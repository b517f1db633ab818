"""When a peer checks a seat's signature: at once for commitments, otherwise when it shows
the message to another peer (`net.table.play`, where messages on the seat's own
connection are checked unsigned).

Why this is safe: a seat's own connection is bound to the seat's key at the handshake,
so what comes on it is the seat's word whether or not its signature is good. The
signature matters only to a third peer: a relay, a forward, a proof of cheating. These
tests play a seat that signs only what it must, and check that it can neither frame an
honest peer that relays its messages nor slip in an unsigned commitment.
"""

import pytest

from net.table.play import CHECKED_AT_ONCE
from net.lockstep.signatures import SIGNED
from tests.net.tables import finished, hashes, open_table

SLOPPY = 3
BAD_SIGNATURE = bytes(64)


def sign_only_commitments(session):
    """The seat puts a worthless signature on every message it may (64 zero bytes)."""
    honest_sign = session.sign

    def sign(msg):
        if msg.get("type") in CHECKED_AT_ONCE:
            return honest_sign(msg)
        msg.setdefault("sig", BAD_SIGNATURE)
        return msg
    session.sign = sign              # the lockstep's host (`Play.sign`) asks for it each time


def offences(sessions):
    return [(s.my_seat, who, reason) for s in sessions for who, reason in s.offence_log]


def sloppy_table(tmp_path, timeout=120.0):
    net, engine, sessions = open_table(players=4, tmp_path=tmp_path, rejoin_timeout=timeout,
                                       start=False)
    sign_only_commitments(sessions[SLOPPY])
    sessions[0].start_game()
    return net, engine, sessions


def test_the_seats_own_connection_vouches_for_what_it_sends(tmp_path):
    assert CHECKED_AT_ONCE < SIGNED
    net, _, sessions = sloppy_table(tmp_path)
    net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    assert offences(sessions) == []


def test_its_unsigned_messages_are_not_relayed_in_its_name(tmp_path):
    """It drops mid-game; the others pass on what it said lately to each other, as they
    must (it may have reached some and not others). Passed on unsigned, its words would
    look forged, and the receiver would blame the honest relayer."""
    net, engine, sessions = sloppy_table(tmp_path, timeout=5.0)
    sloppy, honest = sessions[SLOPPY], sessions[:SLOPPY]
    net.pump_until(lambda: sloppy.lockstep is not None and sloppy.lockstep.step >= 12,
                   limit=100000)
    assert any(m.get("sig") == BAD_SIGNATURE for msgs in sloppy.lockstep.sent.values()
               for m in msgs)
    net.kill(sloppy)
    net.advance(8)
    net.pump()
    assert offences(honest) == [], "an honest relayer was blamed for the seat's words"
    assert finished(honest) and len(hashes(honest)) == 1
    assert all(SLOPPY in s.lockstep.bots for s in honest)


@pytest.mark.parametrize("kind", ["PlanCommitted", "CommitsEchoed"])
def test_a_commitment_must_carry_its_signature_on_arrival(tmp_path, kind):
    """An echo shows every commitment to every player, so a badly signed one would make
    the honest echoer look like a forger: commitments are checked when they come."""
    net, _, sessions = open_table(players=4, tmp_path=tmp_path, start=False)
    sloppy = sessions[SLOPPY]
    honest_sign = sloppy.sign
    sloppy.sign = lambda msg: ({**msg, "sig": BAD_SIGNATURE} if msg.get("type") == kind
                               else honest_sign(msg))
    sessions[0].start_game()
    net.pump()
    assert any(f"{kind} for step" in reason and "not signed" in reason
               for _, _, reason in offences(sessions[:SLOPPY]))
