"""The lockstep core with in-memory players: ordering, commit-reveal, beacon, rejections."""

import pytest

from net.lockstep import commitment
from net.lockstep.core import Offence
from net.transport.messages import PLAN_FIELD_NAMES
from sim.commands import ACTIONS, ChooseMove, SubmitPlan, to_wire
from tests.net.mesh_harness import Mesh


@pytest.mark.parametrize("players,bots", [(3, ()), (4, (3,)), (5, (1, 4))])
@pytest.mark.parametrize("order", [None, 1, 2, 3])
def test_every_delivery_order_gives_identical_states(players, bots, order):
    m = Mesh(players, bots=bots, shuffle_seed=order)
    m.run()
    assert all(p.ended for p in m.peers.values())
    assert len(set(m.hashes().values())) == 1
    assert m.offences == [] and m.desyncs == []
    logs = {tuple(e["hash"] for e in p.log) for p in m.peers.values()}
    assert len(logs) == 1


def test_seeds_change_with_any_players_secret():
    a, b = Mesh(3), Mesh(3)
    b.chains[1] = type(b.chains[1])(b"z" * 32, 64)
    b.peers[1].chain = b.chains[1]
    for p in b.peers.values():
        p.verifiers[1] = type(p.verifiers[1])(b.chains[1].commitment, 64)
    a.run(), b.run()
    assert a.peers[0].state["seeds"][0] != b.peers[0].state["seeds"][0]


def started_mesh(players=3, **kw):
    m = Mesh(players, **kw)
    m.auto = False
    for p in m.peers.values():
        p.start()
    m.pump()
    return m


def test_command_from_a_seat_that_may_not_act_is_rejected():
    m = started_mesh()
    p0 = m.peers[0]
    # step 1 is the plan: a single command now is out of turn
    with pytest.raises(Offence, match="out of turn"):
        p0.receive(1, {"type": "CommandSent", "step": 1, "seat": 1,
                       "command": to_wire(ChooseMove(1, None, 1)), "hash": p0.hash})


def test_forged_seat_is_rejected():
    m = started_mesh()
    p0 = m.peers[0]
    with pytest.raises(Offence, match="forged seat"):
        p0.receive(1, {"type": "LinkRevealed", "step": 0, "seat": 2, "link": b"x" * 32,
                       "hash": p0.hash})


def test_wrong_beacon_link_is_rejected_and_the_right_one_still_counts():
    m = Mesh(3)
    m.auto = False
    # seat 1's frames are held back; we inject a wrong link first
    m.down.add(1)
    for p in m.peers.values():
        p.start()
    m.pump()
    p0 = m.peers[0]
    with pytest.raises(Offence, match="wrong beacon link"):
        p0.receive(1, {"type": "LinkRevealed", "step": 0, "seat": 1, "link": b"w" * 32,
                       "hash": p0.hash})
    with pytest.raises(Offence, match="wrong beacon link"):   # a later link of the chain
        p0.receive(1, {"type": "LinkRevealed", "step": 0, "seat": 1,
                       "link": m.chains[1].link(1), "hash": p0.hash})
    p0.receive(1, {"type": "LinkRevealed", "step": 0, "seat": 1,
                   "link": m.chains[1].link(0), "hash": p0.hash})
    assert p0.step == 1          # the step completed with the right link


def plan_step(m):
    """Run until the plan step (fake game: step 1)."""
    for p in m.peers.values():
        assert p.step == 1 and p.decision().kind == "plan"


def committed(p, seat, plan, nonce, lock=0, step=1, hash_=None):
    """A PlanCommitted as an honest peer makes it: one salted digest per field."""
    cards = {**plan.action_map(), "bid": plan.bid}
    return {"type": "PlanCommitted", "step": step, "seat": seat, "lock": lock,
            "fields": commitment.field_digests(nonce, seat, step, PLAN_FIELD_NAMES, cards),
            "hash": hash_ or p.hash}


def bid_opened(p, seat, nonce, card, link, lock=0, step=1):
    return {"type": "BidOpened", "step": step, "seat": seat, "lock": lock,
            "salt": commitment.field_salt(nonce, "bid"), "card": card, "link": link,
            "hash": p.hash}


def test_a_reveal_before_my_commitment_is_held_unread_until_i_commit():
    """An honest peer may open its bid before I commit: its side agreed to give my seat to
    a bot (the bot's commitment is its own) before I took the seat over (issue 34). The
    bid is neither an offence nor read until my seat has committed."""
    m = started_mesh()
    plan_step(m)
    p0 = m.peers[0]
    plan = SubmitPlan(1, (None,) * len(ACTIONS), 1)
    nonce = commitment.new_nonce()
    p0.receive(1, committed(p0, 1, plan, nonce))
    p0.receive(1, bid_opened(p0, 1, nonce, 1, m.chains[1].link(1)))
    box = p0.box(1)
    assert 1 not in box.reveals and 1 in box.early_reveals
    m.choose(0)          # seat 0 commits: the held bid is read
    assert box.reveals.get(1) is not None and not box.early_reveals


def test_reveal_that_does_not_match_the_commitment_is_rejected():
    m = started_mesh()
    plan_step(m)
    p0 = m.peers[0]
    m.choose(0)          # seat 0 commits (frames queued, not delivered)
    plan = SubmitPlan(1, (None,) * len(ACTIONS), 1)
    nonce = commitment.new_nonce()
    p0.receive(1, committed(p0, 1, plan, nonce))
    with pytest.raises(Offence, match="does not match its commitment"):
        p0.receive(1, bid_opened(p0, 1, nonce, 2, m.chains[1].link(1)))
    other = SubmitPlan(1, (None,) * len(ACTIONS), 2)
    with pytest.raises(Offence, match="committed twice"):
        p0.receive(1, committed(p0, 1, other, nonce))


def test_an_illegal_opened_bid_counts_as_a_money_card_everywhere():
    m = Mesh(3, shuffle_seed=4)
    # seat 2 bids 4: legal on the wire, illegal in the fake rules (0-3)
    m.policy[2] = lambda state, d: SubmitPlan(2, (None,) * len(ACTIONS), 4) \
        if d.kind == "plan" else m.engine.choose(state, 2, "x", b"\x01" * 32)
    # the local check refuses it, so smuggle it past submit() as a hostile peer would
    p2 = m.peers[2]
    real_apply = m.engine.apply

    class Lenient:
        def __getattr__(self, name):
            return getattr(m.engine, name)

        def apply(self, s, c):
            if isinstance(c, SubmitPlan) and c.bid == 4:
                return s, []
            return real_apply(s, c)
    p2.game = Lenient()
    m.run()
    # the bid was bound by its commitment, so every peer saw the same refused card and
    # forfeits it alike: one game, and the offence is logged
    assert all(p.ended for p in m.peers.values())
    assert len(set(m.hashes().values())) == 1
    assert any("opened card refused" in o[2] and o[1] == 2 for o in m.offences)


def test_replayed_old_message_is_an_offence():
    m = Mesh(3)
    m.run()
    p0 = m.peers[0]
    old = {"type": "LinkRevealed", "step": 0, "seat": 1, "link": m.chains[1].link(0),
           "hash": "0" * 64}
    with pytest.raises(Offence, match="replayed"):
        p0.receive(1, old)


def test_hash_mismatch_is_detected_at_once():
    m = started_mesh()
    p0 = m.peers[0]
    m.choose(0)
    p0.receive(1, committed(p0, 1, SubmitPlan(1, (None,) * len(ACTIONS), 1),
                            commitment.new_nonce(), hash_="f" * 64))
    assert m.desyncs and m.desyncs[0][1:] == (1, 1, p0.hash, "f" * 64)


def test_a_submit_out_of_turn_or_illegal_raises_before_anything_is_sent():
    m = started_mesh()
    p0 = m.peers[0]
    sent = len(m.sent_bytes[0])
    with pytest.raises(ValueError):
        p0.submit(ChooseMove(0, None, 1))                         # it is a plan step
    with pytest.raises(ValueError):
        p0.submit(SubmitPlan(0, (None,) * len(ACTIONS), 9))       # illegal bid
    with pytest.raises(ValueError):
        p0.submit(SubmitPlan(1, (None,) * len(ACTIONS), 1))       # not my seat
    assert len(m.sent_bytes[0]) == sent


def test_a_divergence_in_the_last_step_is_still_detected():
    m = Mesh(3)
    engine = m.engine

    class OffAtTheEnd:
        def __getattr__(self, name):
            return getattr(engine, name)

        def apply(self, s, c):
            s2, events = engine.apply(s, c)
            if engine.pending(s2).kind == "over":
                s2 = {**s2, "total": s2["total"] + 1}
            return s2, events
    m.peers[2].game = OffAtTheEnd()
    m.run()
    assert all(p.ended for p in m.peers.values())
    last = m.peers[0].step
    assert {(d[0], d[1], d[2]) for d in m.desyncs} >= {(0, 2, last), (1, 2, last)}
