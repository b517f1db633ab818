"""Bots' plans stay face down until their cards turn (issue 26 item 5).

Every peer computes a bot seat's plan (it must: the bots are part of the lockstep), but
before this the whole plan went into the plan step's log entry: every player's log and
save, and every spectator's `StepApplied`, held a bot's ten cards a round early. Now the
step applies only the bot's commitment and each card is opened when the rules turn it,
like a human's (R-PLAN-5, R-EXEC-2, R-BID-1 for the bids turned together)."""

from __future__ import annotations

import msgpack

from net.lockstep.engine import SimEngine
from net.table.session import SessionOptions, TableSession
from sim.commands import SubmitPlan
from tests.net.fakenet import FakeNet
from tests.net.lockstep.test_field_reveal import _carried
from tests.net.tables import CODE, finished, hashes, open_table


def _play_with_a_bot_and_a_spectator(tmp_path, monkeypatch):
    """A real-rules 3-seat table, seat 2 a bot, and a spectator; what each received."""
    from net.transport.peer import PeerConnection
    net = FakeNet()
    engine = SimEngine()
    net, engine, sessions = open_table(players=3, bots=1, engine=engine, net=net,
                                       tmp_path=tmp_path, start=False)
    spectator = TableSession.watch(SessionOptions(interface="127.0.0.1"), "127.0.0.1:7531", code=CODE,
                                   reactor=net, engine=engine)
    net.pump()
    bot_seats = {s for s in range(3) if s not in {p.my_seat for p in sessions}}
    received = []                       # (who, decoded message)
    bot_plans = {}                      # (seat, plan step) -> SubmitPlan
    original_send = PeerConnection.send_body

    def recording(conn, body):
        if conn.seat is not None or conn.role == "spectator":
            who = "spectator" if conn.role == "spectator" else conn.seat
            received.append((who, msgpack.unpackb(body, raw=False, strict_map_key=False)))
        original_send(conn, body)
    monkeypatch.setattr(PeerConnection, "send_body", recording)
    real_choose = engine.choose

    def choosing(state, seat, bot, seed):
        command = real_choose(state, seat, bot, seed)
        if seat in bot_seats and isinstance(command, SubmitPlan):
            # the peer computing it is at the plan step; none of the others is behind it
            step = min(s.lockstep.step for s in sessions)
            bot_plans[(seat, step)] = command
        return command
    monkeypatch.setattr(engine, "choose", choosing)
    sessions[0].start_game()
    net.pump()
    assert finished(sessions) and spectator.lockstep.ended
    assert len(hashes(sessions + [spectator])) == 1
    return sessions, spectator, received, bot_plans


def test_no_log_and_no_spectator_holds_a_bot_card_before_it_turns(tmp_path, monkeypatch):
    """R-PLAN-5: a bot's card reaches no log (every player's, the spectator's) and no
    message a spectator or a player receives before the step that turns it. On the old
    code the plan step's entry carried the bot's whole plan (`SubmitPlan`)."""
    sessions, spectator, received, bot_plans = _play_with_a_bot_and_a_spectator(
        tmp_path, monkeypatch)
    assert len(bot_plans) >= 3
    log = sessions[0].lockstep.log
    logs = [("player", e) for s in sessions for e in s.lockstep.log] \
        + [("spectator log", e) for e in spectator.lockstep.log]
    sent = [(who, m) for who, m in received]
    checked = opened = 0
    for (seat, plan_step), plan in bot_plans.items():
        later = [p for s, p in bot_plans if s == seat and p > plan_step]
        until = min(later, default=len(log) + 1)
        for field, card in {**plan.action_map(), "bid": plan.bid}.items():
            if card is None:
                continue
            turned = next((e["step"] for e in log if e["step"] >= plan_step and any(
                c.get("type") == "OpenField" and c.get("seat") == seat
                and c.get("field") == field for c in e["commands"])), None)
            if turned is not None:
                opening = next(c for e in log if e["step"] == turned for c in e["commands"]
                               if c.get("type") == "OpenField" and c.get("seat") == seat
                               and c.get("field") == field)
                assert opening["card"] == card      # the card the bot planned is the one turned
                opened += 1
            for who, msg in logs + sent:
                step = msg.get("step", msg.get("entry", {}).get("step"))
                if step is None or not plan_step <= step < until:
                    continue
                if msg.get("type") == "CaughtUp":
                    continue            # the start: no plan made yet (checked by its entries)
                if _carried(msg, seat, field, card):
                    assert turned is not None and step >= turned, (
                        f"{who} holds bot seat {seat}'s {field} card ({card}) at step "
                        f"{step}; the card is turned at step {turned}")
                    checked += 1
    assert opened > 10, "too few bot cards turned to show anything"
    assert checked > 10, "too few openings seen to show anything"


def test_a_spectator_is_not_sent_the_seed_of_the_bots_plans(tmp_path, monkeypatch):
    """The players' log keeps the seed of the bots' plans (a player catching up computes
    them again); a spectator's copy does not have it, so it cannot compute them."""
    sessions, spectator, received, _ = _play_with_a_bot_and_a_spectator(tmp_path,
                                                                         monkeypatch)
    assert any("bot_seed" in e for e in sessions[0].lockstep.log)
    to_spectator = [m for who, m in received if who == "spectator"]
    entries = [m["entry"] for m in to_spectator if m.get("type") == "StepApplied"] \
        + [e for m in to_spectator if m.get("type") == "CaughtUp" for e in m["log"]]
    assert entries and not any("bot_seed" in e for e in entries)
    assert not any("bot_seed" in e for e in spectator.lockstep.log)


def test_a_peer_catching_up_from_the_log_turns_the_bots_cards_as_planned(tmp_path,
                                                                       monkeypatch):
    """A player catching up from a log (a rejoin) replays plan steps whose entries hold
    no bot plan, only its seed; when a bot's card must turn, it computes the same plan as
    the players who were there (R-EXEC-2: the card turned is the one the bot planned)."""
    from net.lockstep.core import Lockstep
    sessions, _spectator, _received, _plans = _play_with_a_bot_and_a_spectator(tmp_path,
                                                                              monkeypatch)
    host = sessions[0].lockstep
    fresh = Lockstep(host.game, host.config, host.kinds, None, None,
                     sessions[0].start.chain_ends, bot=host.bot)
    fresh.following = True
    compared = 0
    for entry in host.log:
        for command in entry["commands"]:
            if command.get("type") == "OpenField" and command["seat"] in host.bots \
                    and command["field"] != "bid":
                plan = fresh.plans.bot_plan(command["seat"])
                assert plan is not None
                assert host.game.plan_cards(plan)[command["field"]] == command["card"]
                compared += 1
        fresh.replay(entry)
    assert compared > 5 and fresh.hash == host.hash
