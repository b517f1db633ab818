"""Table chat (issue 14 item 6): a line reaches every player and spectator exactly once,
in the lobby and in the game, and changes nothing in the game."""

import logging

import pytest

from net.table.chat import MAX_CHARS, RECALLED, ChatLine
from net.transport.framing import encode_frame
from net.table.session import SessionOptions, TableSession
from tests.net.tables import CODE, autoplay, finished, hashes, open_table


def listen(sessions):
    """Every session's received lines, in order."""
    heard = {id(s): [] for s in sessions}
    for s in sessions:
        s.on_chat_received = heard[id(s)].append
    return lambda s: heard[id(s)]


def test_a_lobby_line_reaches_the_host_and_every_guest_once():
    net, engine, sessions = open_table(players=4, start=False)
    heard = listen(sessions)
    sessions[2].send_chat("  hello, table  ")
    net.pump()
    line = ChatLine(sessions[2].name, sessions[2].my_seat, "hello, table")
    assert all(heard(s) == [line] for s in sessions), [heard(s) for s in sessions]
    sessions[0].send_chat("welcome")
    net.pump()
    assert all(heard(s)[-1] == ChatLine("host", 0, "welcome") and len(heard(s)) == 2
               for s in sessions)


def stalled_table_with_spectator(tmp_path):
    """Seats 0-2 play, seat 3 holds its plan: the game waits at step 1 with a spectator."""
    net, engine, sessions = open_table(players=4, tmp_path=tmp_path, start=False)
    spy = TableSession.watch(SessionOptions(interface="127.0.0.1", name="spy"), "127.0.0.1:7531", code=CODE,
                             reactor=net, engine=engine)
    net.pump()
    sessions[3].on_decision = lambda d, state: None
    sessions[0].start_game()
    net.pump()
    assert {s.lockstep.step for s in sessions} == {1} and spy.lockstep is not None
    return net, engine, sessions, spy


def test_a_game_line_reaches_every_peer_and_spectator_and_changes_no_state_hash(tmp_path):
    net, engine, sessions, spy = stalled_table_with_spectator(tmp_path)
    everyone = sessions + [spy]
    heard = listen(everyone)
    before = [(s.lockstep.hash, list(s.lockstep.log)) for s in everyone]
    saves = [open(s.save_path, "rb").read() for s in sessions]
    sessions[1].send_chat("who has the rice?")
    spy.send_chat("nice move")
    net.pump()
    from_player = ChatLine("guest0", 1, "who has the rice?")
    from_spy = ChatLine("spy", None, "nice move")
    for s in everyone:
        assert sorted(heard(s), key=repr) == sorted([from_player, from_spy], key=repr), \
            (s.name, heard(s))
    assert [(s.lockstep.hash, list(s.lockstep.log)) for s in everyone] == before
    assert [open(s.save_path, "rb").read() for s in sessions] == saves
    # and the game goes on to one end, with chat in the middle of it
    autoplay(net, sessions[3], engine)
    sessions[3].on_decision(None, None)
    sessions[2].send_chat("good game")
    net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    assert spy.lockstep.hash == sessions[0].lockstep.hash
    assert all(heard(s)[-1] == ChatLine("guest1", 2, "good game") for s in everyone)


def test_a_line_is_checked_before_it_leaves():
    net, engine, sessions = open_table(players=3, start=False)
    with pytest.raises(ValueError, match="nothing to send"):
        sessions[1].send_chat("   ")
    with pytest.raises(ValueError, match=f"at most {MAX_CHARS} characters"):
        sessions[1].send_chat("x" * (MAX_CHARS + 1))


def test_a_malformed_or_flooding_chat_is_refused_with_a_logged_reason(tmp_path, caplog):
    net, engine, sessions, spy = stalled_table_with_spectator(tmp_path)
    heard = listen(sessions)
    liar = sessions[3]
    to_host = next(c for c in liar.conns if c.seat == 0)
    to_host.send_body(encode_frame({"type": "ChatSent", "sender": "x", "seat": 3,
                                    "text": "y" * 5000})[4:])
    to_host.send_body(encode_frame({"type": "ChatSent", "sender": 7, "seat": 3,
                                    "text": "hi"})[4:])
    net.pump()
    reasons = [r for _, r in sessions[0].offence_log]
    assert any("ChatSent: field 'text' is longer than 300" in r for r in reasons), reasons
    assert any("ChatSent: field 'sender'" in r for r in reasons), reasons
    assert heard(sessions[0]) == []
    with caplog.at_level(logging.WARNING, logger="net.table.chat"):
        for i in range(12):
            liar.send_chat(f"spam {i}")
        net.pump()
    assert len(heard(sessions[0])) == 5                      # the burst, then nothing
    # one log line per receiving player (3), not one per dropped line (7 each)
    assert caplog.text.count("chat from guest2") == 3
    assert not liar.closed and sessions[0].lockstep.step == 1


def test_a_line_straight_from_a_player_is_credited_to_its_own_seat(tmp_path):
    net, engine, sessions, spy = stalled_table_with_spectator(tmp_path)
    heard = listen(sessions)
    to_host = next(c for c in sessions[3].conns if c.seat == 0)
    to_host.send({"type": "ChatSent", "sender": "host", "seat": 0, "text": "I resign"})
    net.pump()
    assert heard(sessions[0]) == [ChatLine("guest2", 3, "I resign")]


def test_a_spectator_who_joins_late_reads_what_was_said_before_it_came(tmp_path):
    """Issue 37, item 12: the table keeps its recent lines (at most RECALLED) and the
    player a spectator follows sends them when it is admitted, in the game and in the
    lobby; the spectator shows each once and passes none of them back."""
    net, engine, sessions = open_table(players=4, tmp_path=tmp_path, start=False)
    sessions[1].send_chat("anyone for a game?")
    net.pump()
    early = TableSession.watch(SessionOptions(interface="127.0.0.1", name="early"), "127.0.0.1:7531", code=CODE,
                               reactor=net, engine=engine)
    heard_early = listen([early])
    net.pump()
    assert heard_early(early) == [ChatLine("guest0", 1, "anyone for a game?")]
    sessions[3].on_decision = lambda d, state: None
    sessions[0].start_game()
    net.pump()
    for i in range(RECALLED + 3):      # the host's own lines: no receiver's limit counts
        sessions[0].send_chat(f"line {i}")
    net.pump()
    late = TableSession.watch(SessionOptions(interface="127.0.0.1", name="late"), "127.0.0.1:7531", code=CODE,
                              reactor=net, engine=engine)
    heard = listen(sessions + [late])
    net.pump()
    assert late.lockstep is not None
    expected = [ChatLine("host", 0, f"line {i}") for i in range(RECALLED + 3)]
    assert heard(late) == expected[-RECALLED:]                 # the last 50, in order
    assert all(heard(s) == [] for s in sessions)               # nothing echoed back
    assert heard_early(early)[-1] == ChatLine("host", 0, "line 4")   # 5 a burst
    late.send_chat("hello, I just came")
    net.pump()
    assert heard(late)[-1] == ChatLine("late", None, "hello, I just came")
    assert heard(sessions[0])[-1] == ChatLine("late", None, "hello, I just came")


def test_recalled_chat_from_a_peer_it_does_not_follow_is_an_offence(tmp_path):
    net, engine, sessions, spy = stalled_table_with_spectator(tmp_path)
    heard = listen(sessions)
    to_host = next(c for c in sessions[2].conns if c.seat == 0)
    to_host.send({"type": "ChatRecalled", "lines": [{"sender": "host", "seat": 0,
                                                     "text": "I resign"}]})
    net.pump()
    reasons = [r for _, r in sessions[0].offence_log]
    assert any("ChatRecalled" in r for r in reasons), reasons
    assert heard(sessions[0]) == []


def test_a_hostile_name_and_line_arrive_as_one_line_of_text(tmp_path):
    """Issue 47 (finding 5): a line sent raw, past `send_chat`'s check, with escape
    sequences and a line break in its text, and a spectator whose name carries them, reach
    every peer's `on_chat_received` (the window, the terminal) as one line of text."""
    net, engine, sessions = open_table(players=3, start=False)
    evil = "\x1b]0;pwned\x07\nFriends anywhere join with: ./shogun join 66-x\x1b[2J\u202e"
    evil_name = "\x1b]0;pwned\x07\njoin 66-x\x1b[2J\u202e"
    spy = TableSession.watch(SessionOptions(interface="127.0.0.1", name=evil_name), "127.0.0.1:7531", code=CODE,
                             reactor=net, engine=engine)
    net.pump()
    heard = listen(sessions + [spy])
    sessions[2].conns[0].send({"type": "ChatSent", "sender": evil_name, "seat": 2,
                               "text": "hi " + evil})
    spy.send_chat("watching")
    net.pump()
    for s in sessions + [spy]:
        lines = heard(s)
        if s is sessions[2]:       # its own raw line never went through its own chat
            continue
        assert len(lines) == 2, (s.name, lines)
        for line in lines:
            said = line.sender + line.text
            assert said.isprintable() and "pwned" not in said and "\u202e" not in said, said
        assert any(ln.text == "hi  Friends anywhere join with: ./shogun join 66-x"
                   for ln in lines), lines
        assert any(ln.sender == " join 66-x" for ln in lines), lines
