"""The headless peer and `netcheck` speak the player's language: their console lines are
sentences from the catalogues, as the window's are (only the final state hash, which
scripts read, stays as it is)."""

import pytest

from cli import netcheck
from cli.runner import _set_bot_levels
from lang import i18n
from main import build_parser
from tests.net.tables import open_table


@pytest.fixture
def dutch():
    i18n.use("nl")
    yield
    i18n.use("en")


def test_a_wrong_bot_level_count_is_explained_in_dutch(tmp_path, dutch):
    net, engine, sessions = open_table(players=4, bots=2, tmp_path=tmp_path, start=False)
    problem = _set_bot_levels(sessions[0], ["easy", "hard", "normal"])
    assert problem == ("3 botniveaus opgegeven voor 2 botplaatsen; geef er één voor allemaal "
                       "of één per botplaats")


def test_netcheck_names_a_bad_address_in_dutch(dutch, capsys):
    args = build_parser().parse_args(["netcheck", "--no-router", "example.org:99999"])
    assert netcheck.run(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("fout: "), err


def test_netcheck_says_no_table_answered_in_romanian(capsys, monkeypatch):
    monkeypatch.setenv("SHOGUN_NET_DISCOVERY", "off")
    monkeypatch.setattr(netcheck, "reachable_addresses", lambda port: [])
    i18n.use("ro")
    try:
        args = build_parser().parse_args(["netcheck", "--no-router", "--port", "7531"])
        assert netcheck.run(args) == 0
    finally:
        i18n.use("en")
    out = capsys.readouterr().out
    assert out.startswith("Acest calculator poate fi atins la (pentru o masă pe portul 7531):"), out


def test_netcheck_says_each_address_answer_in_dutch(dutch, capsys, monkeypatch):
    """What one address answered is a net sentence said again in the player's words."""
    from net.reach.reachability import Probe
    from client.words.net_words import for_players
    probe = Probe(host="192.168.1.20", port=7531, reached=True, round_trip=0.0123,
                  greeted=True, error="")
    assert for_players(probe.sentence()) == (
        "192.168.1.20:7531: bereikt via IPv4, heen en terug 12.3 ms, een Shogun-tafel antwoordde")
    lost = Probe(host="fd00::2", port=7531, reached=False, round_trip=None,
                 greeted=False, error="timed out")
    assert for_players(lost.sentence()).endswith(": niet bereikt (timed out)")
