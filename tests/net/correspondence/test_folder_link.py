"""Three players take turns over a plain shared folder: each session starts from the
folder alone, plays what it can and ends (net/correspondence/folder_link.py)."""

from __future__ import annotations

from pathlib import Path

from net.correspondence.folder_link import FolderLink, FolderTable
from net.trust.seat_keys import SeatKey
from tests.net.fake_game import FakeEngine

SEATS = (0, 1, 2)


def keys() -> dict[int, SeatKey]:
    return {s: SeatKey(bytes([s + 40]) * 32) for s in SEATS}


def folder_table(folder: Path, engine: FakeEngine) -> FolderTable:
    return FolderTable(folder, b"F" * 16, b"S" * 32, {s: k.public for s, k in keys().items()},
                       {s: "human" for s in SEATS}, engine.config(3, "sun", "beginner"))


def scripted(engine: FakeEngine):
    def choose(state, decision, seat):
        return engine.choose(state, seat, "x", bytes([seat + 1]) * 32)
    return choose


def session(folder: Path, seat: int, rounds: int = 2) -> FolderLink:
    engine = FakeEngine(rounds)
    link = FolderLink(folder_table(folder, engine), seat, keys()[seat], engine, scripted(engine))
    link.session()
    return link


def test_three_players_taking_turns_over_a_folder_finish_with_one_hash(tmp_path):
    ended: dict[int, FolderLink] = {}
    turns = 0
    while len(ended) < 3 and turns < 400:
        seat = turns % 3
        turns += 1
        link = session(tmp_path, seat)
        assert not link.offences and not link.proofs, (link.offences, link.proofs)
        assert not [f for f in link.findings if f.names_someone]
        if link.lockstep is not None and link.lockstep.ended:
            ended[seat] = link
    assert len(ended) == 3, f"not over after {turns} sessions"
    assert len({link.lockstep.hash for link in ended.values()}) == 1
    assert len({len(link.lockstep.log) for link in ended.values()}) == 1


def test_watchers_on_one_clock_play_live_and_see_each_move_at_the_next_reading(tmp_path):
    """Three players with the table open at once: each reads the folder every 2 s of a
    fake clock. Nothing moves between readings; the game ends with one hash."""
    from twisted.internet.testing import Clock

    from net.correspondence.folder_watch import FolderWatch
    clock = Clock()
    engine = FakeEngine(2)
    moves: dict[int, list[tuple[float, int]]] = {s: [] for s in SEATS}
    watches = []
    for s in SEATS:
        link = FolderLink(folder_table(tmp_path, engine), s, keys()[s], engine, scripted(engine))
        watch = FolderWatch(link, clock, every=2.0,
                            moved=lambda step, s=s: moves[s].append((clock.seconds(), step)))
        watches.append(watch)
        watch.start()                        # one reading at once
    sizes = sorted(p.stat().st_size for p in tmp_path.iterdir())
    clock.advance(1.9)
    assert sorted(p.stat().st_size for p in tmp_path.iterdir()) == sizes   # no reading between
    clock.advance(0.1)
    for _ in range(200):
        if all(w.link.lockstep is not None and w.link.lockstep.ended for w in watches):
            break
        clock.advance(2.0)
    assert all(w.link.lockstep.ended for w in watches)
    assert len({w.link.lockstep.hash for w in watches}) == 1
    assert all(not w._loop.running for w in watches)
    assert all(abs(t - 2.0 * round(t / 2.0)) < 1e-9 for s in SEATS for t, _ in moves[s])
    assert all(len(moves[s]) > 3 for s in SEATS)
    assert all(not w.link.offences and not w.link.proofs for w in watches)


def test_a_session_killed_between_its_own_copy_and_the_folder_is_no_rolled_back_file(tmp_path):
    """A session appends to the player's own copy first, then to the shared folder; killed
    between the two, the folder's file of that seat lacks its last record. The seat's next
    session puts it back before reading: nobody is named, not even by the seat itself."""
    from net.correspondence.seat_record import parse_file
    shared, local = tmp_path / "shared", tmp_path / "local"
    shared.mkdir()
    engine = FakeEngine(2)

    def run(seat: int) -> FolderLink:
        link = FolderLink(folder_table(shared, engine), seat, keys()[seat], engine,
                          scripted(engine), local=local / f"player-{seat}")
        link.session()
        return link

    for turn in range(5):
        run(turn % 3)
    path = shared / "seat-2.shogun"
    whole = path.read_bytes()
    records = parse_file(whole).records
    assert len(records) >= 2
    path.write_bytes(whole[:len(whole) - len(records[-1].raw)])       # the kill's gap
    link = run(2)
    assert not [f.sentence for f in link.findings if f.names_someone]
    assert path.read_bytes()[:len(whole)] == whole


def test_a_session_killed_between_its_chain_and_the_chains_end_keeps_its_chain(tmp_path):
    """A seat's first session saves its chain's secret (its own record), then says the
    chain's end; killed between the two, its next session keeps the saved chain. Before,
    it made a new chain and said that one's end without saving it: its links then failed
    the end every other seat holds ("link for round 0 does not hash to the committed
    chain") and the game could not go on."""
    shared, local = tmp_path / "shared", tmp_path / "local"
    shared.mkdir()
    engine = FakeEngine(2)

    class Killed(Exception):
        pass

    def link_of(seat: int) -> FolderLink:
        return FolderLink(folder_table(shared, engine), seat, keys()[seat], engine,
                          scripted(engine), local=local / f"player-{seat}")

    first = link_of(0)

    def killed_flush() -> None:
        raise Killed()

    first.flush = killed_flush
    try:
        first.session()
    except Killed:
        pass
    ended: dict[int, FolderLink] = {}
    turns = 0
    while len(ended) < 3 and turns < 400:
        seat = turns % 3
        turns += 1
        link = link_of(seat)
        link.session()
        assert not link.offences and not link.proofs, (link.offences, link.proofs)
        if link.lockstep is not None and link.lockstep.ended:
            ended[seat] = link
    assert len(ended) == 3, f"not over after {turns} sessions"
    assert len({link.lockstep.hash for link in ended.values()}) == 1
