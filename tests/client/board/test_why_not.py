"""A click on a province the armies cannot reach gets a sentence saying why."""

from client.board.why_not import why_not_target
from sim.board import board


def _pub(**provs):
    return {"provinces": {n: dict(owner=o, armies=a, buildings=b) for n, (o, a, b) in provs.items()},
            "current_event": 9}


def test_not_a_neighbour_names_the_real_neighbours():
    b = board()
    line = why_not_target(b, "sun", 4, _pub(Omi=(0, 3, [])), 0, "Omi", "battle_a", "Owari")
    assert line.startswith("Owari does not border Omi.")
    assert "Mino" in line and "Yamato" in line and "Owari" not in line.split(".", 1)[1]


def test_deploy_one_into_someone_elses_province():
    line = why_not_target(board(), "sun", 4, _pub(Omi=(0, 3, []), Mino=(2, 1, [])), 0, "Omi",
                          "deploy1", "Mino")
    assert "only moves armies into your own provinces" in line and "Black" in line


def test_temple_under_event_and_out_of_play_and_last_army():
    b = board()
    pub = _pub(Omi=(0, 3, []), Mino=(2, 1, ["temple"]))
    assert "temple" in why_not_target(b, "sun", 4, pub, 0, "Omi", "battle_a", "Mino")
    assert "out of play" in why_not_target(b, "sun", 3, pub, 0, "Omi", "battle_a", "Mutsu")
    pub = _pub(Omi=(0, 1, []))
    assert "must stay" in why_not_target(b, "sun", 4, pub, 0, "Omi", "battle_a", "Mino")
