"""A guest the table turns away for now says so and tries again (issue 34: `join`
printed nothing for 18 s while strangers held the table's handshake slots)."""

from net.table.session import SessionOptions, TableSession
from tests.net.fake_game import FakeEngine
from tests.net.fakenet import FakeNet
from tests.net.tables import CODE

ADDRESS = "127.0.0.1:7531"


def test_a_guest_told_to_wait_says_so_and_gets_in_when_it_tries_again():
    net, engine = FakeNet(), FakeEngine()
    host = TableSession.host(SessionOptions(code=CODE), port=7531, players=3, reactor=net,
                             engine=engine)
    for _ in range(3):                           # three wrong codes from this address
        wrong = TableSession.join(SessionOptions(), ADDRESS, code="WRONGCOD", reactor=net,
                                  engine=engine)
        net.pump()
        assert wrong.refusal == "join refused: the join code is wrong"
    guest = TableSession.join(SessionOptions(), ADDRESS, code=CODE, reactor=net, engine=engine)
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
    TableSession.host(SessionOptions(code=CODE), port=7531, players=3, reactor=net,
                      engine=engine)
    guest = TableSession.join(SessionOptions(), ADDRESS, code="WRONGCOD", reactor=net,
                              engine=engine)
    said, refused = [], []
    guest.on_error, guest.on_refused = said.append, refused.append
    net.advance(5)
    assert refused == ["join refused: the join code is wrong"] and said == []
