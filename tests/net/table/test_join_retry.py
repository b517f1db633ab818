"""A guest the table turns away for now says so and tries again (issue 34: `join`
printed nothing for 18 s while strangers held the table's handshake slots)."""

from net.table.session import SessionOptions, TableSession
from tests.net.fake_game import FakeEngine
from tests.net.fakenet import FakeNet
from tests.net.tables import CODE

ADDRESS = "127.0.0.1:7531"


def test_a_guest_told_to_wait_says_so_and_gets_in_when_it_tries_again():
    net, engine = FakeNet(), FakeEngine()
    host = TableSession.host(SessionOptions(interface="127.0.0.1", code=CODE), port=7531, players=3, reactor=net,
                             engine=engine)
    for _ in range(3):                           # three wrong codes from this address
        wrong = TableSession.join(SessionOptions(interface="127.0.0.1"), ADDRESS, code="WRONGCOD", reactor=net,
                                  engine=engine)
        net.pump()
        assert wrong.refusal == "join refused: the join code is wrong"
    guest = TableSession.join(SessionOptions(interface="127.0.0.1"), ADDRESS, code=CODE, reactor=net, engine=engine)
    said, refused = [], []
    guest.on_error, guest.on_refused = said.append, refused.append
    net.pump()
    assert said == ["join refused: too many wrong join codes from your address; try again "
                    "in 1 s; trying again in 1 s"]
    assert refused == [] and guest.pending_dials == 1     # not given up on
    net.advance(1.5)
    assert guest.my_seat == 1 and host.lobby["seats"][1]["kind"] == "human"


def test_a_wrong_code_is_not_tried_again():
    net, engine = FakeNet(), FakeEngine()
    TableSession.host(SessionOptions(interface="127.0.0.1", code=CODE), port=7531, players=3, reactor=net,
                      engine=engine)
    guest = TableSession.join(SessionOptions(interface="127.0.0.1"), ADDRESS, code="WRONGCOD", reactor=net,
                              engine=engine)
    said, refused = [], []
    guest.on_error, guest.on_refused = said.append, refused.append
    net.advance(5)
    assert refused == ["join refused: the join code is wrong"] and said == []


# ------------------------------------------------- a resume turned away for now (issue 47)
import pytest  # noqa: E402

from net.table.connections import RETRY_AT_LEAST, rejoin_retry  # noqa: E402
from tests.net.tables import autoplay, finished, hashes, open_table  # noqa: E402


@pytest.mark.parametrize("retry, refused_for, countdown, again", [
    (None, 0.0, 120.0, None),          # a final refusal: not again
    (4.0, 0.0, 120.0, 4.0),            # a wait after wrong codes: after it
    (0.1, 10.0, 120.0, RETRY_AT_LEAST),
    (4.0, 119.0, 120.0, 4.0),
    (4.0, 120.0, 120.0, None),         # the countdown ran out: a bot has the seat
])
def test_when_a_refused_rejoin_dials_again(retry, refused_for, countdown, again):
    assert rejoin_retry(retry, refused_for, countdown) == again


def test_a_resume_turned_away_for_now_tries_again_while_another_link_is_open(tmp_path):
    """Issue 47 finding 1: wrong codes from the address a resuming player shares (every
    tunnelled friend is 127.0.0.1, as every peer of a FakeNet) make the host refuse its
    rejoin "for now"; its link to seat 2 is up. Before: it never dialled the host again,
    and the game never went on."""
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path, rejoin_timeout=300.0,
                                       start=False)
    host, victim = sessions[0], sessions[1]
    host.start_game()
    net.pump_until(lambda: host.lockstep is not None and host.lockstep.step >= 5)
    net.kill(victim)
    net.advance(6)
    for _ in range(5):                         # a wait of 4 s for 127.0.0.1
        wrong = TableSession.join(SessionOptions(interface="127.0.0.1"), ADDRESS.replace("7531", str(host.listen_port)),
                                  code="WRONGCOD", reactor=net, engine=engine)
        net.pump()
        wrong.close()                          # it tries no more (some were told to wait)
    back = TableSession.resume(SessionOptions(interface="127.0.0.1"), victim.save_path, reactor=net, engine=engine)
    said = []
    back.on_error = said.append
    autoplay(net, back, engine)
    net.pump()
    assert any("too many wrong join codes" in line and "trying again in" in line
               for line in said), said
    assert host.conn_for_seat(1) is None
    net.advance(10)
    assert host.conn_for_seat(1) is not None            # back in at the host
    others = [host, sessions[2], back]
    net.advance(30)
    assert finished(others) and len(hashes(others)) == 1
