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


def test_a_rule_breaking_vote_seen_by_one_peer_is_proved_to_all(tmp_path, caplog):
    net = FakeNet()
    _, _, sessions = open_table(players=4, engine=SimEngine(), net=net, tmp_path=tmp_path,
                                start=False)
    cheat = sessions[CHEAT]
    cheat.engine = VotesNothingOut()
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
    assert caplog.text.count(f"CHEATING PROVED: seat {CHEAT} signed a tower outcome that "
                             "breaks the rules") == 3
