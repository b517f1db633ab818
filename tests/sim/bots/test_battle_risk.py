"""No hopeless forced attacks (issue 29): a battle card must be carried out when it can
(R-EXEC-3), and from a province with no neighbour of one's own its only legal moves are
attacks (R-EXEC-10); if the defender reinforces first, the attack goes in outnumbered
(R-BATTLE-2, R-BATTLE-5) and is all but lost. The normal bot (and easy, which shares its
plan) must never place such a card, as a wanted action or as a filler."""

from __future__ import annotations

import pytest

from sim.bots import battle_risk, normal
from sim.chance import ChanceStream
from sim.game import GameConfig
from sim.local import LocalGame
from sim.state import State
from sim.view import view
from tests.sim.bots.bot_states import decision_states

HIDDEN_DEPLOYS = ["battle_a", "temple", "theatre", "palace", "tax"] + [None] * 5
DEPLOYS_LATER = ["battle_a", "deploy5", "deploy3", "deploy1", "battle_b"] + [None] * 5


def _island(row: list[str | None], armies: int = 4, own_neighbour: bool = False) -> State:
    """Seat 0 holds Noto with `armies`; seat 1 holds both its neighbours (Etchu, Kaga)
    with 2 armies each and 15 chests; every other province is neutral and empty."""
    state, _ = decision_states(3, ("plan",), 1, "draft")[0]
    s = state.copy()
    for p in s.provinces.values():
        p.owner, p.armies, p.buildings, p.unrest = None, 0, (), 0
    s.provinces["Noto"].owner, s.provinces["Noto"].armies = 0, armies
    for n in ("Etchu", "Kaga"):
        s.provinces[n].owner, s.provinces[n].armies = 1, 2
    if own_neighbour:
        s.provinces["Kaga"].owner = 0
    s.players[1].money = 15
    s.action_row = list(row)
    return s


def test_a_battle_card_with_only_enemy_neighbours_is_hopeless_when_they_can_deploy_first():
    """R-EXEC-10, R-EXEC-3: 3 movable armies against 2 that may become 8 before the
    battle (the deploy cards are face down: their slot may come first)."""
    s = _island(HIDDEN_DEPLOYS)
    assert battle_risk.forced_loss(s, 0, "Noto", "battle_a")


def test_face_up_deploys_after_the_battle_cannot_reinforce_first():
    """R-ACTCARD-2: slots 1-5 are face up; deploys in later slots come too late."""
    s = _island(DEPLOYS_LATER)
    assert not battle_risk.forced_loss(s, 0, "Noto", "battle_a")
    # battle_b is in slot 5: every deploy comes before it
    assert battle_risk.forced_loss(s, 0, "Noto", "battle_b")


def test_a_neighbour_of_ones_own_or_too_few_armies_is_no_forced_attack():
    """R-EXEC-10: a move to one's own province is a legal choice; with one army the card
    lapses (R-EXEC-3: no legal move)."""
    assert not battle_risk.forced_loss(_island(HIDDEN_DEPLOYS, own_neighbour=True), 0,
                                       "Noto", "battle_a")
    assert not battle_risk.forced_loss(_island(HIDDEN_DEPLOYS, armies=1), 0, "Noto", "battle_a")
    # enough armies to match the defender even after its largest reinforcement: 2 armies,
    # a deploy of 6 and the one army Kaga can move in
    assert not battle_risk.forced_loss(_island(HIDDEN_DEPLOYS, armies=10), 0, "Noto", "battle_a")
    assert battle_risk.forced_loss(_island(HIDDEN_DEPLOYS, armies=9), 0, "Noto", "battle_a")


def test_the_normal_plan_puts_no_battle_card_on_the_island():
    s = _island(HIDDEN_DEPLOYS)
    for careless in (False, True):
        cmd = normal.plan(s, 0, ChanceStream(b"i" * 32), careless=careless)
        assert cmd.seat == 0 and "Noto" in cmd.actions or cmd.bid == "Noto"
        assert not battle_risk.hopeless_fields(s, 0, cmd.action_map())


def _plan_views(games: int) -> list[tuple[State, int]]:
    """Every seat's plan decision views over seeded games played by the frozen heuristic
    bots (so the states do not depend on the bot under test)."""
    out: list[tuple[State, int]] = []
    for seed in range(games):
        game = LocalGame(GameConfig(4, "sun", "draft"), 4000 + seed,
                         dict.fromkeys(range(4), "heuristic"))
        while not game.over:
            d = game.state.decision
            if d.kind == "plan":
                out.extend((view(game.state, seat), seat) for seat in d.seats)
            game.step()
    return out


@pytest.fixture(scope="module")
def plan_views():
    return _plan_views(3)


@pytest.mark.parametrize("careless", [False, True])
def test_normal_and_easy_never_plan_a_hopeless_battle(plan_views, careless):
    """R-EXEC-3, R-EXEC-10 over seeded games; the normal bot before issue 29 (its new
    habits off) placed such cards in a good share of these plans."""
    hopeless_new = hopeless_old = 0
    for seen, seat in plan_views:
        new = normal.plan(seen, seat, ChanceStream(b"p" * 32), careless=careless)
        old = normal.plan(seen, seat, ChanceStream(b"p" * 32), careless=careless,
                          off=normal.NEW_HABITS)
        hopeless_new += bool(battle_risk.hopeless_fields(seen, seat, new.action_map()))
        hopeless_old += bool(battle_risk.hopeless_fields(seen, seat, old.action_map()))
    assert len(plan_views) > 100
    assert hopeless_old > 10
    assert hopeless_new == 0


def test_cubes_thrown_count_the_cards_the_event_and_the_tray():
    """R-BATTLE-2, R-BATTLE-3: the attacker's armies (+1 with `+1 attack`) and its tray
    cubes against the defender's armies (+1 with `+1 defence`) and tray cubes, the tray's
    peasants counting for a defender without unrest."""
    s = _island(HIDDEN_DEPLOYS)
    assert battle_risk.cubes_thrown(s, 0, "Etchu", 3) == (3, 2)
    s.players[1].special = "defence"
    s.players[0].special = "attack"
    s.tray = [0] * len(s.tray)
    s.tray[1] = 2
    s.tray[-1] = 1         # a peasant (the last colour)
    assert battle_risk.cubes_thrown(s, 0, "Etchu", 3) == (4, 2 + 1 + 2 + 1)
    assert battle_risk.outnumbered(s, 0, "Etchu", 3)
    assert not battle_risk.outnumbered(s, 0, "Etchu", 6)
    s.provinces["Etchu"].unrest = 1    # the peasants no longer count
    assert battle_risk.cubes_thrown(s, 0, "Etchu", 3) == (4, 5)


def test_the_hard_bot_leaves_outnumbered_attacks_out_when_it_may_do_otherwise():
    """R-EXEC-10: a battle card may move into one's own province instead (or a deploy/move
    may stay); with the tray full of the others' cubes every attack is outnumbered, and
    the new hard's move candidates hold none — the frozen hard_2025's do."""
    from sim.bots import candidates, hard_2025, search
    checked = old_attacks = 0
    for state, seat in decision_states(5, ("move",), 12, "draft"):
        s = state.copy()
        s.tray = [9 if colour != seat else 0 for colour in range(len(s.tray))]
        d = s.decision.detail
        others = d["optional"] or any(s.provinces[t].owner == seat for t in d["targets"])
        if not others:
            continue
        checked += 1
        seen = view(s, seat)
        for cmd in candidates.move_candidates(seen, seat, ChanceStream(b"m" * 32), search.HARD):
            assert cmd.target is None or s.provinces[cmd.target].owner == seat
        old = candidates.move_candidates(seen, seat, ChanceStream(b"m" * 32),
                                         hard_2025.SETTINGS)
        old_attacks += sum(1 for c in old
                           if c.target is not None and s.provinces[c.target].owner != seat)
    assert checked >= 3
    assert old_attacks > 0
