"""Tables on an in-memory network: handshake, lobby, lockstep, spectators, pause, rejoin."""


import pytest

from net.transport import messages
from net.transport import join_handshake
from net.table.session import SessionOptions, TableSession
from tests.net.fake_game import FakeEngine
from tests.net.fakenet import FakeNet
from tests.net.tables import CODE, autoplay, finished, hashes, open_table

ADDRESS = "127.0.0.1:7531"


def host_and_guest(code=CODE, host_versions=None):
    """A three-seat host (its versions changed by `host_versions` before anyone dials) and
    one guest knocking with `code`, before the network has moved (so a test may still change
    what the guest says in the handshake)."""
    net, engine = FakeNet(), FakeEngine()
    host = TableSession.host(SessionOptions(interface="127.0.0.1", code=CODE), port=7531, players=3, reactor=net,
                             engine=engine)
    host.versions = {**host.versions, **(host_versions or {})}
    guest = TableSession.join(SessionOptions(interface="127.0.0.1"), ADDRESS, code=code, reactor=net, engine=engine)
    return net, engine, host, guest


def refusals(net, session):
    """What `session` is refused once the network has moved."""
    reasons = []
    session.on_refused = reasons.append
    net.pump()
    return reasons


def watch(net, engine):
    return TableSession.watch(SessionOptions(interface="127.0.0.1"), ADDRESS, code=CODE, reactor=net, engine=engine)


def play_until(net, host, step):
    """The host starts the game and the table plays up to `step`."""
    host.start_game()
    net.pump_until(lambda: host.lockstep is not None and host.lockstep.step >= step)


def rejoined(net, engine, save_path, opts=None):
    """A peer resumed from `save_path`, played by a bot, once the network has moved."""
    back = TableSession.resume(opts or SessionOptions(interface="127.0.0.1"), save_path, reactor=net, engine=engine)
    autoplay(net, back, engine)
    net.pump()
    return back


# ---------------------------------------------------------------- handshake and lobby
def test_joiners_get_seats_and_the_lobby_is_shared():
    net, engine, sessions = open_table(players=4, bots=1, start=False)
    host = sessions[0]
    kinds = [s["kind"] for s in host.lobby["seats"]]
    assert kinds == ["human", "human", "human", "bot"]
    assert [s.my_seat for s in sessions] == [0, 1, 2]
    for s in sessions[1:]:
        assert s.lobby["seats"] == host.lobby["seats"]


def test_a_guest_can_move_to_a_free_seat():
    net, engine, sessions = open_table(players=5, bots=1, start=False, joiners=1)
    guest = sessions[1]
    guest.request_seat(3)
    net.pump()
    assert guest.my_seat == 3
    assert sessions[0].lobby["seats"][1]["kind"] == "open"


def test_start_needs_every_seat_filled():
    net, engine, sessions = open_table(players=4, bots=1, start=False, joiners=1)
    with pytest.raises(ValueError, match="open seats"):
        sessions[0].start_game()


def test_wrong_join_code_is_refused_with_the_reason():
    net, engine, host, guest = host_and_guest(code="WRONG")
    assert refusals(net, guest) == ["join refused: the join code is wrong"]


def test_version_mismatch_names_exactly_what_differs():
    net, engine, host, guest = host_and_guest(host_versions={"rules": "shogun 1", "tower": "abc"})
    reasons = refusals(net, guest)
    mine = guest.versions
    assert reasons == [f"cannot join: rules differs: table shogun 1, yours {mine['rules']}; "
                       f"tower differs: table abc, yours {mine['tower']}"]
    assert host.lobby["seats"][1]["kind"] == "open"


def test_friends_with_other_systems_cpus_and_pythons_are_welcome():
    """Issue 11: only what decides the game is compared. Issue 25: the handshake says each
    peer's physics build and selftest digest; another canary alone (the same verified
    build) needs no vote, a platform build makes the lobby say so in advance, naming the
    seat."""
    net, engine, host, guest = host_and_guest()
    assert host.lobby["tower_vote"] is False and host.lobby["platform_seats"] == []
    guest.versions = {**guest.versions, "python": "3.13.1", "system": "Darwin",
                      "machine": "arm64", "canary": "0" * 64}
    assert refusals(net, guest) == [] and host.lobby["seats"][1]["kind"] == "human"
    assert host.lobby["tower_vote"] is False


def test_a_platform_build_is_welcome_and_the_lobby_says_so_in_advance():
    net, engine, host, guest = host_and_guest()
    assert {"physics", "selftest"} <= set(guest.versions)
    guest.versions = {**guest.versions, "physics": "platform", "selftest": "1" * 64}
    assert refusals(net, guest) == [] and host.lobby["seats"][1]["kind"] == "human"
    assert host.lobby["tower_vote"] is True and guest.lobby["tower_vote"] is True
    assert guest.lobby["platform_seats"] == [1]


def test_a_deterministic_build_with_another_digest_counts_as_platform():
    net, engine, host, guest = host_and_guest()
    guest.versions = {**guest.versions, "physics": "deterministic", "selftest": "2" * 64}
    assert refusals(net, guest) == []
    assert host.lobby["platform_seats"] == [1]


def test_the_listener_checks_versions_too():
    net, engine, host, guest = host_and_guest()
    guest.versions = {**guest.versions, "pymunk": "0.0"}    # after its own check would pass
    original = join_handshake.version_differences
    join_handshake.version_differences = lambda a, b, **kw: None if kw else original(a, b)
    try:
        reasons = refusals(net, guest)
    finally:
        join_handshake.version_differences = original
    assert len(reasons) == 1 and reasons[0].startswith("join refused: pymunk differs: yours 0.0")


def test_a_full_table_refuses_more_players():
    net, engine, sessions = open_table(players=3, start=False)
    extra = TableSession.join(SessionOptions(interface="127.0.0.1"), ADDRESS, code=CODE, reactor=net, engine=engine)
    assert refusals(net, extra) == ["join refused: the table is full"]


# ---------------------------------------------------------------- playing
@pytest.mark.parametrize("players,bots", [(3, 0), (4, 1), (5, 2), (5, 0)])
def test_a_table_plays_to_the_end_in_lockstep(players, bots, tmp_path):
    net, engine, sessions = open_table(players=players, bots=bots, tmp_path=tmp_path)
    assert finished(sessions)
    assert len(hashes(sessions)) == 1
    assert all(s.offence_log == [] for s in sessions)
    # every peer holds the same command log
    assert len({repr(s.lockstep.log) for s in sessions}) == 1


def test_the_mesh_is_complete():
    net, engine, sessions = open_table(players=4, start=True)
    for s in sessions:
        assert sorted(c.seat for c in s.conns) == sorted(set(range(4)) - {s.my_seat})


# ---------------------------------------------------------------- spectators
def test_spectators_follow_from_the_start_and_when_late(tmp_path):
    net, engine, sessions = open_table(players=3, start=False)
    early = watch(net, engine)
    net.pump()
    host = sessions[0]
    play_until(net, host, 5)
    late = watch(net, engine)
    events = []
    late.on_events = lambda evs, state: events.extend(evs)
    net.pump()
    assert finished(sessions)
    assert early.lockstep.ended and late.lockstep.ended
    assert early.lockstep.hash == late.lockstep.hash == host.lockstep.hash
    assert events[0]["event"] == "GameStarted"       # the late one saw it from the start


def test_a_spectator_can_change_nothing():
    net, engine, sessions = open_table(players=3, start=False)
    spy = watch(net, engine)
    net.pump()
    host = sessions[0]
    play_until(net, host, 2)
    conn = spy.source
    for msg in ({"type": "LinkRevealed", "step": host.lockstep.step, "seat": 0,
                 "link": b"x" * 32, "hash": host.lockstep.hash, "sig": b"s" * 64},
                {"type": "TakeoverClaimed", "step": host.lockstep.step, "seat": 0,
                 "absent": 1, "hash": host.lockstep.hash, "sig": b"s" * 64},
                {"type": "CommandSent", "step": host.lockstep.step, "seat": 0,
                 "command": {"type": "ChooseMove", "seat": 0, "target": None, "count": 1},
                 "hash": host.lockstep.hash, "sig": b"s" * 64}):
        conn.send(msg)
    net.pump()
    reasons = [r for _, r in host.offence_log]
    assert len(reasons) == 3 and all("spectator" in r for r in reasons)
    assert host.spectators == []                       # dropped after three
    assert finished(sessions) and len(hashes(sessions)) == 1


# ---------------------------------------------------------------- pause, rejoin, take-over
def kill_guest_midgame(tmp_path, at_step=5, timeout=120.0, players=4, bots=1):
    net, engine, sessions = open_table(players=players, bots=bots, tmp_path=tmp_path,
                                       rejoin_timeout=timeout, start=False)
    host = sessions[0]
    paused = []
    for s in sessions:
        s.on_paused = paused.append
    play_until(net, host, at_step)
    victim = sessions[1]
    net.kill(victim)
    return net, engine, sessions, victim, paused


def test_a_dropped_peer_pauses_the_game_then_rejoins_from_its_save(tmp_path):
    net, engine, sessions, victim, paused = kill_guest_midgame(tmp_path)
    others = [s for s in sessions if s is not victim]
    net.pump()
    net.advance(30)
    assert paused and "seat 1" in paused[0]
    assert not any(s.lockstep.ended for s in others)
    stuck = {s.lockstep.step for s in others}
    net.advance(30)
    assert {s.lockstep.step for s in others} == stuck            # paused
    back = rejoined(net, engine, victim.save_path, SessionOptions(interface="127.0.0.1", name="again"))
    assert back.my_seat == 1
    assert finished(others + [back])
    assert len(hashes(others + [back])) == 1
    assert all(1 not in s.lockstep.bots for s in others)


@pytest.mark.parametrize("at_step", [1, 2, 3, 6, 9])
def test_rejoin_works_at_every_kind_of_step(tmp_path, at_step):
    net, engine, sessions, victim, paused = kill_guest_midgame(tmp_path, at_step=at_step)
    back = rejoined(net, engine, victim.save_path)
    others = [s for s in sessions if s is not victim]
    assert finished(others + [back]) and len(hashes(others + [back])) == 1


def test_after_the_timeout_a_bot_plays_the_seat(tmp_path):
    net, engine, sessions, victim, paused = kill_guest_midgame(tmp_path, timeout=120.0)
    others = [s for s in sessions if s is not victim]
    net.advance(119)
    assert not any(s.lockstep.ended for s in others)
    net.advance(5)
    assert finished(others) and len(hashes(others)) == 1
    assert all(1 in s.lockstep.bots for s in others)
    # too late to rejoin now
    back = TableSession.resume(SessionOptions(interface="127.0.0.1"), victim.save_path, reactor=net, engine=engine)
    reasons = refusals(net, back)
    assert reasons and "played by a bot" in reasons[0]


def test_the_rejoin_timeout_is_configurable(tmp_path):
    net, engine, sessions, victim, paused = kill_guest_midgame(tmp_path, timeout=5.0)
    others = [s for s in sessions if s is not victim]
    net.advance(7)
    assert finished(others) and len(hashes(others)) == 1


def test_rejoin_needs_the_seat_token(tmp_path):
    net, engine, sessions, victim, paused = kill_guest_midgame(tmp_path)
    from store.table_save import read_save, write_save
    save = read_save(victim.save_path)
    save["token"] = b"t" * 32
    forged = tmp_path / "forged.save"
    write_save(str(forged), save)
    back = TableSession.resume(SessionOptions(interface="127.0.0.1"), str(forged), reactor=net, engine=engine)
    reasons = refusals(net, back)
    assert reasons and "wrong rejoin token" in reasons[0]


# ---------------------------------------------------------------- desync
def test_a_desync_writes_a_report_and_drops_the_peer(tmp_path):
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path, start=False)
    host, odd = sessions[0], sessions[2]
    play_until(net, host, 2)
    # seat 2's state silently differs from now on
    odd.lockstep.state = {**odd.lockstep.state, "total": odd.lockstep.state["total"] + 1}
    reports = {s.my_seat: [] for s in sessions}
    for s in sessions:
        s.on_desync = reports[s.my_seat].append
    net.pump()
    # the odd peer sees everyone differ (it stops at once: it drops what they sent for
    # this step, links too, so it cannot play on in its own history); the honest ones,
    # if a message with its hash reached them first, see seat 2 differ
    assert reports[2] and {r["seat"] for r in reports[2]} <= {0, 1}
    honest = reports[0] + reports[1]
    assert all(r["seat"] == 2 for r in honest)
    rep = reports[2][0]
    assert rep["my_hash"] != rep["their_hash"]
    import json
    data = json.loads(open(rep["path"]).read())
    assert data["log"] and data["versions"]["protocol"] == str(messages.PROTOCOL)
    # dropped by the honest peers: it rejoins by itself and catches up from their log
    assert host.conn_for_seat(1) is not None
    net.advance(3)
    assert finished(sessions) and len(hashes(sessions)) == 1
    assert 2 not in host.lockstep.bots


def test_a_spectator_follows_another_player_when_its_player_drops(tmp_path):
    net, engine, sessions = open_table(players=4, bots=1, tmp_path=tmp_path, start=False)
    watcher = watch(net, engine)
    net.pump()
    host = sessions[0]
    play_until(net, host, 5)
    net.kill(host)                        # the player the spectator watched
    net.advance(121)                      # the host's seat goes to a bot
    others = sessions[1:]
    assert finished(others) and watcher.lockstep.ended
    assert len(hashes(others + [watcher])) == 1


@pytest.mark.parametrize("victim_index", [0, 2])
def test_the_host_or_any_guest_can_resume(tmp_path, victim_index):
    net, engine, sessions = open_table(players=4, bots=1, tmp_path=tmp_path, start=False)
    play_until(net, sessions[0], 7)
    victim = sessions[victim_index]
    net.kill(victim)
    net.advance(10)
    back = rejoined(net, engine, victim.save_path)
    others = [s for s in sessions if s is not victim] + [back]
    assert finished(others) and len(hashes(others)) == 1


def test_mesh_connections_that_beat_the_start_are_accepted(tmp_path):
    """A guest may be dialled by another guest before the host's GameStarted reaches it."""
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path, start=False)
    host, g1, g2 = sessions
    # hold back what the host sends to guest 1 until guest 2 has dialled it
    pump = next(p for p in net.pumps if g1.host_conn in (p.client, p.server))
    net.pumps.remove(pump)
    host.start_game()
    net.pump()
    assert g1.lockstep is None and any(getattr(c, "pending_mesh", False) for c in g1.conns)
    net.pumps.append(pump)
    net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1


def test_a_drop_that_reached_only_some_peers_does_not_fork_the_table(tmp_path):
    """X's beacon link reaches seat 0 but not seats 1 and 2, then X dies: seat 0 relays
    the link (it proves itself against X's chain), so nobody is left a step behind when
    a bot takes X's seat."""
    net, engine, sessions = open_table(players=4, tmp_path=tmp_path, rejoin_timeout=10.0,
                                       start=False)
    host, x = sessions[0], sessions[3]
    cut = []                  # the step from which X is not heard by seats 1 and 2

    def lossy_broadcast(msg):
        """From X's first link at a chance step on, its frames to seats 1 and 2 are lost."""
        if not cut and msg["type"] == "LinkRevealed" and msg["step"] > 0 \
                and x.lockstep.decision().kind == "chance":
            cut.append(msg["step"])
            for conn in x.conns:
                if conn.seat in (1, 2):
                    conn.transport.stream = []
                    conn.transport.write = lambda data: None
    x.on_broadcast = lossy_broadcast     # called before the message goes out
    host.start_game()
    net.pump_until(lambda: bool(cut))
    step = cut[0]
    net.pump()
    lagging = [s for s in sessions[1:3] if s.lockstep.step == step]
    assert host.lockstep.step == step + 1 and lagging, "the loss did not split the table"
    net.kill(x)
    net.pump()
    assert all(s.lockstep.step >= step + 1 for s in sessions[:3])     # caught up by the relay
    net.advance(12)
    honest = sessions[:3]
    assert finished(honest) and len(hashes(honest)) == 1
    assert all(3 in s.lockstep.bots for s in honest)


def test_a_damaged_save_is_refused_with_a_clear_error(tmp_path):
    from store.table_save import SaveError
    bad = tmp_path / "bad.save"
    bad.write_bytes(b"\x00garbage")
    with pytest.raises(SaveError, match="not a net save"):
        TableSession.resume(SessionOptions(interface="127.0.0.1"), str(bad), reactor=FakeNet(), engine=FakeEngine())
    with pytest.raises(SaveError, match="cannot read"):
        TableSession.resume(SessionOptions(interface="127.0.0.1"), str(tmp_path / "none.save"), reactor=FakeNet(),
                            engine=FakeEngine())


def test_the_command_log_beside_the_save_holds_every_step(tmp_path):
    from store.table_save import read_command_log
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path)
    for s in sessions:
        s.close()
    for s in sessions:
        assert read_command_log(s.save_path + ".log") == s.lockstep.log


# ---------------------------------------------------------------- bot levels per seat
class RecordingEngine(FakeEngine):
    """Records which bot played which seat (every peer computes bot seats itself)."""

    def __init__(self):
        super().__init__(3)
        self.calls = []

    def choose(self, s, seat, bot, seed):
        self.calls.append((seat, bot))
        return super().choose(s, seat, bot, seed)


def test_each_bot_seat_plays_at_the_level_the_host_chose(tmp_path):
    engine = RecordingEngine()
    net, engine, sessions = open_table(players=5, bots=2, engine=engine, tmp_path=tmp_path,
                                       start=False)
    host, guest = sessions[0], sessions[1]
    host.set_bot_level(4, "hard")
    host.set_lobby(bot_levels={3: "easy"})
    net.pump()
    assert [(s["seat"], s.get("level")) for s in guest.lobby["seats"] if s["kind"] == "bot"] \
        == [(3, "easy"), (4, "hard")]
    with pytest.raises(ValueError, match="seat 1 is not a bot seat"):
        host.set_bot_level(1, "hard")
    with pytest.raises(ValueError, match="no bot level called 'godlike'; choose easy, normal "
                                         "or hard"):
        host.set_bot_level(4, "godlike")
    with pytest.raises(ValueError, match="only the host"):
        guest.set_bot_level(4, "easy")
    host.start_game()
    net.pump()
    assert finished(sessions) and len(hashes(sessions)) == 1
    played = {(seat, bot) for seat, bot in engine.calls if seat in (3, 4)}
    assert played == {(3, "easy"), (4, "hard")}
    # each peer computed them: 3 peers × every bot decision
    assert sum(1 for c in engine.calls if c == (4, "hard")) % len(sessions) == 0


def test_a_seat_taken_over_after_a_drop_plays_at_the_table_default(tmp_path):
    engine = RecordingEngine()
    net, engine, sessions = open_table(players=4, bots=1, engine=engine, tmp_path=tmp_path,
                                       rejoin_timeout=5.0, start=False)
    host = sessions[0]
    host.opts.bot = "random"                   # the table's bot (--bot)
    host.set_bot_level(3, "hard")
    play_until(net, host, 4)
    net.kill(sessions[1])
    engine.calls.clear()
    net.advance(10)
    others = [sessions[0], sessions[2]]
    assert finished(others) and all(1 in s.lockstep.bots for s in others)
    assert {bot for seat, bot in engine.calls if seat == 1} == {"random"}
    assert {bot for seat, bot in engine.calls if seat == 3} <= {"hard"}
    assert all(s.lobby["seats"][1]["kind"] == "bot" for s in others)


# ---------------------------------------------------------------- phases
def test_the_phase_names_where_each_peer_is(tmp_path):
    from net.table.phase import Phase
    net, engine, sessions = open_table(players=3, tmp_path=tmp_path, start=False)
    spy = watch(net, engine)
    host = sessions[0]
    seen = []
    host.on_started = lambda *a: seen.append(host.phase)
    assert {s.phase for s in sessions} == {Phase.LOBBY} and spy.phase is Phase.SPECTATE
    host.start_game()
    assert host.phase is Phase.MESH                   # chains not yet all committed
    net.pump_until(lambda: all(s.lockstep is not None and s.lockstep.step >= 3
                               for s in sessions))
    assert seen == [Phase.PLAY] and {s.phase for s in sessions} == {Phase.PLAY}
    victim = sessions[1]
    net.kill(victim)
    back = TableSession.resume(SessionOptions(interface="127.0.0.1"), victim.save_path, reactor=net, engine=engine)
    assert back.phase is Phase.RECOVERY
    autoplay(net, back, engine)
    net.pump()
    assert finished([host, back]) and {host.phase, back.phase, spy.phase} == {Phase.ENDED}
