"""Tower-vote proofs that reach a peer second-hand (issue 25): a rule-breaking vote that
only one peer received is proved to the others by the `CheatingProved` it sends, which
each checks against its own state; none of them waits for the void vote."""

from __future__ import annotations

from net.lockstep.engine import SimEngine
from sim.commands import TowerSettled
from sim.tower.contents import TowerContents
from tests.net.fakenet import FakeNet
from tests.net.mesh_harness import HostWith
from tests.net.tables import finished, hashes, open_table

CHEAT = 3


class VotesNothingOut(SimEngine):
    """A modified client whose every drop accounts for no cube (R-COMP-6)."""

    def settle(self, decision):
        return TowerSettled((), TowerContents(()))


def _play_with_votes_heard_by_seat_0(tmp_path, engine, prepare=lambda cheat: None) -> None:
    """A 4-player table where seat `CHEAT` plays `engine` and sends its tower votes to
    seat 0 only; the honest seats must finish with one hash and the cheater expelled."""
    net = FakeNet()
    _, _, sessions = open_table(players=4, engine=SimEngine(), net=net, tmp_path=tmp_path,
                                start=False)
    cheat = sessions[CHEAT]
    cheat.engine = engine
    prepare(cheat)
    started = cheat.on_started

    def only_seat_0_hears_my_votes(*args):
        started(*args)
        ls = cheat.lockstep
        broadcast = ls.host.broadcast

        def send(msg):
            if msg.get("type") != "TowerVoted":
                return broadcast(msg)
            conn = cheat.roster.conn_for_seat(0)
            if conn is not None:
                conn.send(msg)
        ls.host = HostWith(ls.host, broadcast=send)
    cheat.on_started = only_seat_0_hears_my_votes
    sessions[0].start_game()
    net.pump()
    honest = sessions[:CHEAT]
    assert finished(honest) and len(hashes(honest)) == 1
    for s in honest:
        assert CHEAT in s.expelled and CHEAT in s.lockstep.bots


def test_a_rule_breaking_vote_seen_by_one_peer_is_proved_to_all(tmp_path, caplog):
    _play_with_votes_heard_by_seat_0(tmp_path, VotesNothingOut())
    assert caplog.text.count(f"CHEATING PROVED: seat {CHEAT} signed a tower outcome that "
                             "breaks the rules") == 3


class VotesTwice(SimEngine):
    """A modified client that follows its honest vote with a second, different one."""

    session = None

    def settle(self, decision):
        honest = super().settle(decision)
        session = self.session
        ls = session.lockstep
        steered = TowerSettled((), TowerContents(()))
        vote = {"type": "TowerVoted", "step": ls.step, "seat": ls.my_seat,
                "outcome": self.to_wire(steered), "hash": ls.hash, "build": "deterministic"}
        session.reactor.callLater(0, ls.host.broadcast, session.sign(vote))
        return honest


def test_two_votes_proved_second_hand_void_the_cheaters_vote_on_every_peer(tmp_path, caplog):
    """Only seat 0 hears the cheater's two different signed votes; seats 1 and 2 learn of
    them from seat 0's `CheatingProved` and never receive either vote. The proof voids the
    seat's vote at that drop on every peer, so no one waits for it. Before: seats 1 and 2
    waited at the drop for the expelled seat's vote until its rejoin timeout (the CI hang
    of test_tower_attacks.py's two-votes attack, when the proof outran the votes)."""
    engine = VotesTwice()
    _play_with_votes_heard_by_seat_0(tmp_path, engine,
                                     lambda cheat: setattr(engine, "session", cheat))
    assert caplog.text.count(f"CHEATING PROVED: seat {CHEAT} signed two different") == 3
