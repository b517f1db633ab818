"""Plans opened field by field on the network (issue 12 item 4, issue 14 item 4).

The attacker in each test is a peer that reads everything it receives (peeking) or sends
what an honest peer would not (a forged or early opening, a late unlock)."""

from __future__ import annotations

import msgpack
import pytest

from net.lockstep import signatures
from net.lockstep.engine import SimEngine
from net.lockstep.core import Offence
from net.lockstep.plan_steps import ALL_LOCKED
from sim.commands import ACTIONS, PLAN_FIELDS, ForfeitField, SubmitPlan, to_wire
from tests.net.fakenet import FakeNet
from tests.net.mesh_harness import TABLE, HostWith, Mesh
from tests.net.tables import finished, hashes, open_table


# ------------------------------------------------------------------ peeking
def _carried(obj, seat, field, card, outer_seat=None):
    """Does a decoded message hold `seat`'s `card` for `field`, in any form (a whole plan
    {field: card}, or an opening {field: ..., card: ...})?"""
    if isinstance(obj, dict):
        here = obj.get("seat", outer_seat)
        if here == seat and (obj.get(field) == card
                             or (obj.get("field") == field and obj.get("card") == card)):
            return True
        return any(_carried(v, seat, field, card, here) for v in obj.values())
    if isinstance(obj, list):
        return any(_carried(v, seat, field, card, outer_seat) for v in obj)
    return False


def test_no_peer_receives_another_seats_action_card_before_it_is_turned(tmp_path, monkeypatch):
    """The peeking attack: a peer reads every message it receives (a program can). Every
    action card another seat planned must reach it no earlier than in the message of
    the step where the rules turn that card. Before: the whole plan came in
    `PlanRevealed` right after the lock, ten cards a round early. Checked on the real
    rules, a whole 3-player game, every message every player received."""
    from net.transport.peer import PeerConnection
    from net.table.session import TableSession
    net = FakeNet()
    engine = SimEngine()
    net_, engine, sessions = open_table(players=3, engine=engine, net=net, tmp_path=tmp_path,
                                        start=False)
    received = []             # (receiver seat, message)
    plans = []                # (seat, plan step, SubmitPlan)
    original_send, original_submit = PeerConnection.send_body, TableSession.submit

    def recording(conn, body):
        if conn.seat is not None and conn.session in sessions:
            received.append((conn.seat, msgpack.unpackb(body, raw=False,
                                                        strict_map_key=False)))
        original_send(conn, body)

    def submitting(session, command):
        if isinstance(command, SubmitPlan):
            plans.append((session.my_seat, session.lockstep.step, command))
        original_submit(session, command)
    monkeypatch.setattr(PeerConnection, "send_body", recording)
    monkeypatch.setattr(TableSession, "submit", submitting)
    sessions[0].start_game()
    net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    log = sessions[0].lockstep.log
    checked = 0
    for seat, plan_step, plan in plans:
        later = [p for s, p, _ in plans if s == seat and p > plan_step]
        until = min(later, default=len(log) + 1)        # this seat's next plan step
        for field, card in plan.action_map().items():
            if card is None:
                continue
            # the step where the rules turned this card (its OpenField in the log)
            turned = next((e["step"] for e in log if e["step"] > plan_step and any(
                c.get("type") == "OpenField" and c.get("seat") == seat and c.get("field")
                == field for c in e["commands"])), None)
            for receiver, msg in received:
                step = msg.get("step", msg.get("entry", {}).get("step"))
                if receiver == seat or step is None or not plan_step <= step < until \
                        or not _carried(msg, seat, field, card):
                    continue
                assert turned is not None and step is not None and step >= turned, (
                    f"seat {receiver} received seat {seat}'s {field} card ({card}) in "
                    f"{msg.get('type')} for step {step}; the card is turned at step {turned}")
                checked += 1
    assert checked > 20, "too few openings seen to show anything"


# ------------------------------------------------------------------ forged and early openings
def _mesh_at_an_opening(seat=1):
    """A fake-game mesh paused where `seat` must open its tax card; its opening held back.
    The fake game turns the tax card of seat round % players in each round."""
    m = Mesh(3)
    held = []
    p = m.peers[seat]
    real = p.host.broadcast
    p.host = HostWith(p.host, broadcast=lambda msg: held.append(msg)
                      if msg["type"] == "FieldOpened" else real(msg))
    m.run()
    others = [q for s, q in m.peers.items() if s != seat]
    assert held and all(q.decision().kind == "open" and q.decision().seats == (seat,)
                        for q in others)
    return m, held[0], others


def _resigned(m, seat, msg, **changes):
    forged = {k: v for k, v in {**msg, **changes}.items() if k != "sig"}
    return signatures.sign(m.keys[seat], TABLE, forged)


def test_a_forged_opening_is_refused_and_proves_the_cheat():
    m, genuine, others = _mesh_at_an_opening(seat=1)
    cheated = []
    p0 = others[0]
    p0.host = HostWith(p0.host, cheated=lambda seat, first, second:
                       cheated.append((seat, first, second)))
    other_card = "Forged" if genuine["card"] != "Forged" else "Other"
    forged = _resigned(m, 1, genuine, card=other_card)
    with pytest.raises(Offence, match="opened tax field does not match its commitment"):
        p0.receive(1, forged)
    # the signed commitment and the signed opening: a proof anyone can check
    (seat, first, second), = cheated
    assert seat == 1 and first["type"] == "PlanCommitted" and second == forged
    assert "commitment does not hold" in signatures.conflict(first, second)
    assert signatures.conflict(first, genuine) is None      # the genuine one is no proof
    step = p0.step
    p0.receive(1, genuine)                                   # the genuine one still counts
    assert p0.step > step
    assert p0.log[step]["commands"] == [{"type": "OpenField", "seat": 1, "field": "tax",
                                         "card": genuine["card"]}]


def test_an_opening_of_a_card_not_being_turned_is_refused():
    m, genuine, others = _mesh_at_an_opening(seat=1)
    p0 = others[0]
    early = _resigned(m, 1, genuine, field="rice")          # a card the rules do not turn now
    with pytest.raises(Offence, match="the card to turn now is tax"):
        p0.receive(1, early)
    stale = _resigned(m, 1, genuine, lock=1)                # a plan it never committed
    with pytest.raises(Offence, match="did not commit"):
        p0.receive(1, stale)


def test_an_opening_sent_ahead_is_checked_when_its_step_comes():
    m, genuine, others = _mesh_at_an_opening(seat=1)
    p0 = others[0]
    ahead = _resigned(m, 1, genuine, step=genuine["step"] + 1, card="Forged",
                      hash=m.peers[1].log[genuine["step"] + 1]["hash"])
    p0.receive(1, ahead)                                    # kept for later, unchecked yet
    offences = []
    p0.host = HostWith(p0.host, offended=lambda seat, reason: offences.append((seat, reason)))
    p0.receive(1, genuine)
    assert offences and offences[0][0] == 1 and "card to turn now" in offences[0][1]


# ------------------------------------------------------------------ an owner gone
def test_a_seat_taken_over_cannot_open_the_humans_cards_they_count_as_money_cards():
    """Seat 2 locks its plan of the last round and drops; the others take the seat over.
    The bot never held the human's plan, so when seat 2's tax card must turn, every peer
    applies ForfeitField: a money card (R-FORFEIT-1). One game, one hash."""
    m, held, others = _mesh_at_an_opening(seat=2)
    assert held["field"] == "tax"
    # every peer waits for seat 2's tax card; seat 2 goes silent instead
    m.down.add(2)
    m.queue.clear()
    step = m.peers[0].step
    for s in (0, 1):
        assert m.peers[s].waiting_for() == [2]
        m.peers[s].take_over(2, step)
    m.pump()
    p0, p1 = m.peers[0], m.peers[1]
    assert p0.ended and p1.ended and p0.hash == p1.hash
    assert p0.log[step]["commands"] == [{"type": "ForfeitField", "seat": 2, "field": "tax"}]
    assert p0.log[step]["takeovers"] == [2]


def test_a_human_cannot_forfeit_its_own_card():
    """Forfeiting is for a bot that took a seat over: a human that sends it (to dodge a
    card it regrets) is refused."""
    m, genuine, others = _mesh_at_an_opening(seat=1)
    p0 = others[0]

    dodge = signatures.sign(m.keys[1], TABLE, {
        "type": "CommandSent", "step": genuine["step"], "seat": 1,
        "command": to_wire(ForfeitField(1, "tax")), "hash": genuine["hash"]})
    with pytest.raises(Offence, match="out of turn"):
        p0.receive(1, dodge)


# ------------------------------------------------------------------ undo (issue 14 item 4)
def _plan(seat, bid, tax=None):
    actions = [None] * len(ACTIONS)
    actions[ACTIONS.index("tax")] = tax
    return SubmitPlan(seat, tuple(actions), bid)


def _pump_without(m, kind: bytes):
    """Deliver everything but frames of one message type (held back, as by a slow link)."""
    while True:
        m.queue = type(m.queue)(i for i in m.queue if i[0] != "frame" or kind not in i[3])
        if not m.queue:
            return
        m.pump(limit=1)


def _plan_step_mesh():
    m = Mesh(3)
    m.auto = False
    for p in m.peers.values():
        p.start()
    m.pump()
    assert all(p.decision().kind == "plan" for p in m.peers.values())
    return m


def test_a_locked_plan_is_unlocked_and_relocked_with_fresh_commitments():
    m = _plan_step_mesh()
    p0 = m.peers[0]
    step = p0.step
    p0.submit(_plan(0, 1, "Province1"))
    m.pump()
    first = p0.inbox[step].commits[0]
    assert all(q.inbox[step].commits[0] == first for q in m.peers.values())
    p0.unlock()
    m.pump()
    # the withdrawal is signed and every peer dropped the commitment
    unlock = [msg for msg in p0.sent[step] if msg["type"] == "PlanUnlocked"]
    assert unlock and signatures.signed_by(m.keys[0].public, TABLE, unlock[0])
    assert all(0 not in q.inbox[step].commits for q in m.peers.values())
    assert p0.waiting_for() == [0, 1, 2]
    p0.submit(_plan(0, 3, "Province1"))          # the same tax card: fresh salts anyway
    m.pump()
    second = p0.inbox[step].commits[0]
    assert second["lock"] == 1 and first["lock"] == 0
    tax = PLAN_FIELDS.index("tax")
    assert second["fields"][tax] != first["fields"][tax]
    m.auto = True
    m.choose(1)
    m.choose(2)
    m.pump()
    assert all(p.ended for p in m.peers.values()) and len(set(m.hashes().values())) == 1
    assert m.offences == [] and m.desyncs == []
    assert p0.state["bids"][0] >= 3               # the relocked bid counted, not the first


def test_an_unlock_once_every_plan_is_locked_is_refused_with_a_sentence():
    m = _plan_step_mesh()
    p0 = m.peers[0]
    sent = len(m.sent_bytes[0])
    with pytest.raises(ValueError, match="not locked"):
        p0.unlock()
    p0.submit(_plan(0, 1))
    # seats 1 and 2 lock and every commitment arrives; the bids are held back
    m.peers[1].submit(_plan(1, 2))
    m.peers[2].submit(_plan(2, 0))
    _pump_without(m, b"BidOpened")
    assert p0.decision().kind == "plan"
    sent = len(m.sent_bytes[0])
    with pytest.raises(ValueError) as exc:
        p0.unlock()
    assert str(exc.value) == ALL_LOCKED
    assert 0 in p0.inbox[p0.step].commits
    assert len(m.sent_bytes[0]) == sent                    # nothing withdrawn went out


def test_a_peer_refuses_an_unlock_after_the_seat_echoed():
    """A cheater that echoed (it held every commitment, perhaps saw a bid opened) and
    then tries to take its plan back is refused."""
    m = _plan_step_mesh()
    p0, p1 = m.peers[0], m.peers[1]
    for s in (0, 1, 2):
        m.peers[s].submit(_plan(s, 1))
    # deliver everything but seat 0's bid and beyond: let p1 see seat 0's echo
    m.pump()
    step = 1
    late = signatures.sign(m.keys[0], TABLE, {"type": "PlanUnlocked", "step": step,
                                              "seat": 0, "lock": 0, "hash": p1.log[step]["hash"]})
    assert p1.step > step                 # already applied: a replayed old step
    with pytest.raises(Offence):
        p1.receive(0, late)
    # at the step itself, after the echo
    m2 = _plan_step_mesh()
    for s in (0, 1, 2):
        m2.peers[s].submit(_plan(s, 1))
    _pump_without(m2, b"BidOpened")
    q1 = m2.peers[1]
    assert 0 in q1.inbox[q1.step].echo_locks
    late = signatures.sign(m2.keys[0], TABLE, {"type": "PlanUnlocked", "step": q1.step,
                                               "seat": 0, "lock": 0, "hash": q1.hash})
    with pytest.raises(Offence, match="unlocked its plan after every plan was locked"):
        q1.receive(0, late)


def test_an_unlock_after_the_seats_own_echo_is_a_proof_of_cheating():
    """The late unlock above is more than refused: with the seat's signed echo it is a
    proof any peer can check, so every peer expels the seat (an honest peer never
    unlocks once it has echoed)."""
    m = _plan_step_mesh()
    for s in (0, 1, 2):
        m.peers[s].submit(_plan(s, 1))
    _pump_without(m, b"BidOpened")
    q1 = m.peers[1]
    proofs = []
    q1.host = HostWith(q1.host, cheated=lambda seat, first, second:
                       proofs.append((seat, first, second)))
    late = signatures.sign(m.keys[0], TABLE, {"type": "PlanUnlocked", "step": q1.step,
                                              "seat": 0, "lock": 0, "hash": q1.hash})
    with pytest.raises(Offence):
        q1.receive(0, late)
    assert len(proofs) == 1
    seat, first, second = proofs[0]
    assert seat == 0 and first["type"] == "CommitsEchoed" and second is late
    assert signatures.conflict(first, second) == (
        f"seat 0 took back its plan of step {q1.step} after it had echoed every player's "
        "commitment")
    assert signatures.conflict(second, first) is not None
    assert all(signatures.signed_by(m.keys[0].public, TABLE, msg) for msg in (first, second))
    # an unlock of an older lock (taken back before a relock, then echoed) proves nothing
    older = {**late, "lock": -1}
    assert signatures.conflict(first, older) is None


def test_the_session_exposes_unlock_plan(tmp_path):
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path, start=False)
    for s in sessions:
        s.on_decision = lambda d, state: None
    host = sessions[0]
    with pytest.raises(ValueError, match="not started"):
        host.unlock_plan()
    host.start_game()
    net.pump()
    host.submit(_plan(0, 1))
    net.pump()
    host.unlock_plan()
    net.pump()
    assert all(0 not in s.lockstep.inbox[s.lockstep.step].commits for s in sessions)
    host.submit(_plan(0, 2))
    for s in sessions[1:]:
        s.submit(_plan(s.my_seat, 0))
    net.pump()
    with pytest.raises(ValueError, match="can no longer be changed|no plan of yours"):
        host.unlock_plan()


def test_players_that_echoed_echo_again_after_a_seat_relocks():
    """Seats 1 and 2 hold every commitment and echo; seat 0 has not yet received seat 2's
    (a slow link), so it may still unlock. The others drop its commitment, and when it
    relocks they echo again; nothing is opened on the stale echoes, and one game is
    played with seat 0's second plan."""
    m = _plan_step_mesh()
    p0 = m.peers[0]
    step = p0.step
    for s, bid in ((0, 1), (1, 2), (2, 0)):
        m.peers[s].submit(_plan(s, bid))
    # seat 0's links are slow: only seat 1's commitment reaches it for now
    slow = []
    while m.queue:
        item = m.queue.popleft()
        if item[0] == "frame" and item[2] == 0 and not (item[1] == 1
                                                        and b"PlanCommitted" in item[3]):
            slow.append(item)
        else:
            m.deliver(*item[1:]) if item[0] == "frame" else None
    assert 2 not in p0.inbox[step].commits
    assert {1, 2} <= set(m.peers[1].inbox[step].echo_locks)
    assert all(b"BidOpened" not in bytes(m.sent_bytes[s]) for s in (0, 1, 2))
    p0.unlock()
    p0.submit(_plan(0, 3))
    m.queue.extend(slow)
    m.auto = True
    m.pump()
    assert all(p.ended for p in m.peers.values()) and len(set(m.hashes().values())) == 1
    assert m.offences == [] and m.desyncs == []
    echoes = [msg["lock"] for msg in m.peers[1].sent[step] if msg["type"] == "CommitsEchoed"]
    assert echoes == [0, 1]                 # echoed, then again after the relock
    assert p0.log[step]["commands"][0] == {"type": "CommitPlan", "seat": 0}
    assert p0.state["bids"][0] >= 3


def test_real_rules_a_player_gone_mid_round_its_cards_are_money_cards(tmp_path):
    """The real rules: seat 2 locks its first plan and is killed once the bids are open.
    The table pauses on its first card (the rejoin timeout runs), a bot takes the seat
    over, and each of its cards still face down in that round is forfeited — a money
    card — by every peer alike: one game, one final hash."""
    net = FakeNet()
    net_, engine, sessions = open_table(players=3, engine=SimEngine(), net=net,
                                        tmp_path=tmp_path, rejoin_timeout=5.0, start=False)
    host, gone = sessions[0], sessions[2]
    host.start_game()
    assert net.pump_until(lambda: host.lockstep is not None and any(
        "commits" in e for e in host.lockstep.log))
    plan_step = next(e["step"] for e in host.lockstep.log if "commits" in e)
    net.kill(gone)
    net.pump()
    survivors = sessions[:2]
    assert all(2 not in s.lockstep.bots for s in survivors)
    net.advance(7)
    net.pump()
    assert finished(survivors) and len(hashes(survivors)) == 1
    log = host.lockstep.log
    next_plan = next(e["step"] for e in log if "commits" in e and e["step"] > plan_step)

    def of_seat_2(kind, entries):
        return [c["field"] for e in entries for c in e["commands"]
                if c.get("type") == kind and c.get("seat") == 2 and c["field"] != "bid"]
    in_round = log[plan_step + 1:next_plan]
    opened, forfeited = of_seat_2("OpenField", in_round), of_seat_2("ForfeitField", in_round)
    # the round's ten action cards: those turned before the kill were opened, the rest
    # forfeited; later rounds the bot plans whole, so nothing else is forfeited
    assert forfeited and sorted(opened + forfeited) == sorted(ACTIONS)
    assert of_seat_2("ForfeitField", log) == forfeited
    assert any(e.get("takeovers") == [2] for e in in_round)


def test_the_wire_names_the_plan_fields_as_the_rules_do():
    from net.transport.messages import PLAN_FIELD_NAMES
    assert PLAN_FIELD_NAMES == PLAN_FIELDS


def test_a_relock_sent_to_one_peer_only_reaches_all_through_the_echoes():
    """Seat 0 unlocks and relocks, but its withdrawal and new commitment reach seat 1
    only (a cheater's decoy, or a lost frame). Seat 1's echo carries the new signed
    commitment to seat 2, which takes it; nothing is opened until every echo agrees, and
    one game is played with the second plan."""
    m = _plan_step_mesh()
    p0, p2 = m.peers[0], m.peers[2]
    step = p0.step
    p0.submit(_plan(0, 1))
    m.pump()
    p0.unlock()
    p0.submit(_plan(0, 3))
    m.queue = type(m.queue)(i for i in m.queue if not (i[0] == "frame" and i[2] == 2))
    m.auto = True
    m.choose(1)
    m.choose(2)
    opened_early = []
    real = p2.receive

    def watching(seat, msg, resent=False):
        if msg["type"] == "BidOpened" and p2.step == step:
            held = p2.inbox[step].commits.get(0)
            opened_early.append(held is None or held["lock"] != 1)
        return real(seat, msg, resent)
    p2.receive = watching
    m.pump()
    assert all(p.ended for p in m.peers.values()) and len(set(m.hashes().values())) == 1
    assert m.offences == [] and m.desyncs == []
    assert opened_early and not any(opened_early)
    assert p0.state["bids"][0] >= 3


def test_my_plan_is_the_plan_locked_this_round_and_none_before_the_lock():
    """The window shows my own locked plan from `Lockstep.my_plan()` (the state holds only
    turned cards): the plan I locked, from the lock until the next round's planning, and
    nothing while I plan again (not last round's plan), nor after an unlock."""
    m = Mesh(3)
    p0 = m.peers[0]
    before_lock, locked, wrong = [], [], []

    def plan_of_0(state, d):
        cmd = m.engine.choose(state, 0, "x", bytes([p0.step % 200 + 1]) * 32)
        if d.kind == "plan":
            before_lock.append(p0.my_plan())
            locked.append(cmd)
        return cmd

    def stepped(entry):
        if locked and p0.decision().kind != "plan" and p0.my_plan() != locked[-1]:
            wrong.append((entry["step"], p0.my_plan(), locked[-1]))

    m.policy[0] = plan_of_0
    p0.host = HostWith(p0.host, step_applied=stepped)
    m.run()
    assert all(p.ended for p in m.peers.values()) and len(set(m.hashes().values())) == 1
    assert len(locked) == 3 and before_lock == [None, None, None]
    assert wrong == []
    assert p0.my_plan() == locked[-1]           # the last round's plan, after the end too


def test_my_plan_is_none_after_an_unlock_and_the_new_plan_after_a_relock():
    m = _plan_step_mesh()
    p0 = m.peers[0]
    assert p0.my_plan() is None
    p0.submit(_plan(0, 1, "Province1"))
    m.pump()
    assert p0.my_plan() == _plan(0, 1, "Province1")
    p0.unlock()
    m.pump()
    assert p0.my_plan() is None
    p0.submit(_plan(0, 2))
    m.pump()
    assert p0.my_plan() == _plan(0, 2)


def test_an_echo_is_saved_before_it_goes_out():
    """A peer restarted after its echo must still refuse to unlock (or its honest unlock
    would read as the proof above): the save taken before the echo holds it."""
    m = _plan_step_mesh()
    p0 = m.peers[0]
    saved_with = []
    p0.host = HostWith(p0.host, save_due=lambda: saved_with.append(
        [msg["type"] for msg in p0.sent.get(p0.step, [])]))
    for s in (0, 1, 2):
        m.peers[s].submit(_plan(s, 1))
    _pump_without(m, b"BidOpened")
    assert 0 in p0.inbox[p0.step].echo_locks
    assert any(kinds and kinds[-1] == "CommitsEchoed" for kinds in saved_with)


def test_a_peer_recovered_from_a_desync_still_opens_its_own_cards(tmp_path):
    """A peer whose state went wrong mid-round is dropped, rejoins and replays the
    table's log. Its plan of the round is still its own (the table holds its signed
    commitment of it), so it opens its remaining cards itself. Before: it voided every
    plan it had made in its diverged history, its next card could not be opened, and
    after the timeout a bot took the seat and its cards counted as money (R-FORFEIT-1)."""
    net, engine, sessions = open_table(players=3, engine=SimEngine(), tmp_path=tmp_path,
                                       rejoin_timeout=20.0, start=False)
    host, odd = sessions[0], sessions[2]
    host.start_game()

    def turning_with_cards_left():
        ls = odd.lockstep
        if ls is None or ls.decision().kind != "open":
            return False
        plan = ls.state.players[2].plan
        return plan is not None and sum(not t for t in plan.turned) >= 4
    assert net.pump_until(turning_with_cards_left)
    wrong = odd.lockstep.state.copy()
    wrong.peasant_supply += 1           # its state silently differs from here on
    odd.lockstep.state = wrong
    net.pump()
    net.advance(5)
    net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    assert 2 not in host.lockstep.bots, "a bot took the recovered peer's seat"
    forfeits = [c for entry in host.lockstep.log for c in entry["commands"]
                if c.get("type") == ForfeitField.__name__]
    assert forfeits == []
