"""The board issue's layout checks again in Dutch and Romanian (issue 17, item 4): the
translated action names stay on their cards, player rows keep their words, and the map's
legend (longer words) still fits beside the provinces at every window size."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from lang import i18n
from tests.client.board import test_board_layout as board_layout
from tests.client.game import test_table_layout as table_layout
from client.sessions.local_choice import LocalChoice

LANGS = ["nl", "ro"]


@contextmanager
def speaking(lang: str):
    i18n.use(lang)
    try:
        yield
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("W,H", table_layout.WINDOWS)
def test_action_labels_stay_on_their_cards(app, lang, W, H):
    with speaking(lang):
        table_layout.test_action_labels_stay_on_their_cards(app, W, H)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("W,H", table_layout.WINDOWS)
@pytest.mark.parametrize("battle", [False, True])
def test_action_labels_keep_clear_of_the_tokens_and_badges(app, lang, W, H, battle):
    with speaking(lang):
        table_layout.test_action_labels_keep_clear_of_the_tokens_and_badges(app, W, H, battle)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("W,H", table_layout.WINDOWS)
def test_player_rows_keep_their_words(app, lang, W, H, players):
    with speaking(lang):
        table_layout.test_player_rows_keep_their_words(app, W, H, players)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("w,h", board_layout.MAP_RECTS)
def test_tokens_names_and_legend_do_not_collide(lang, w, h, players):
    with speaking(lang):
        board_layout.test_tokens_names_and_legend_do_not_collide(w, h, players)


# -- the whole table in Dutch and Romanian: planning, the info panel, the top bar ----------

@pytest.fixture(scope="module", params=LANGS)
def planning_scene_in(request, app):
    """A local game asking the human to plan, started in `lang` (its words were built in
    that language, as a player who chose it sees them)."""
    from tests.client.conftest import run_until
    i18n.use(request.param)
    try:
        scene = app.start_local(LocalChoice.one_level("easy", seed=5), fast=True)
        assert run_until(app, lambda: scene.planning.visible, 60), "never asked to plan"
        yield request.param, scene
    finally:
        i18n.use("en")
        app.set_size(1280, 800)
        app.on_resize(1280, 800)


def _relabel(scene) -> None:
    for node in scene.walk():
        node.mark_dirty()


@pytest.mark.parametrize("W,H", table_layout.SCENE_WINDOWS)
def test_planning_scene_fits_the_window(app, planning_scene_in, W, H):
    lang, scene = planning_scene_in
    with speaking(lang):
        _relabel(scene)
        table_layout.test_planning_scene_fits_the_window(app, scene, W, H)


@pytest.mark.parametrize("W,H", [(960, 640), (1280, 800), (2560, 1440)])
def test_info_panel_scene_fits_the_window(app, planning_scene_in, W, H):
    """The waiting table with the longest lines the info panel says, in the language."""
    from client.core import theme
    from client.game.status_lines import DECISION_WORDS, SEASON_WORDS
    from tests.client.conftest import frame
    lang, scene = planning_scene_in
    with speaking(lang):
        app.set_size(W, H)
        app.on_resize(W, H)
        frame(app)
        scene.asker.hide_decision()
        _ = i18n._
        order = " → ".join(f"{theme.SEAT_NAMES[s]} ({theme.SPECIAL_LABELS[c]})" for s, c in
                           ((4, "defence"), (3, "attack"), (1, "rice"), (2, "six_armies"), (0, "chest")))
        scene.info.set_lines([
            _("{season} of year {year} — this round's event: {event}").format(
                season=SEASON_WORDS["spring"].capitalize(), year=1, event=theme.EVENT_TEXT[3]),
            _("Turn order: {order}").format(order=order),
            _("Now: {who} — {what} ({action} from {province})").format(
                who=theme.SEAT_NAMES[1], what=i18n.ngettext(*DECISION_WORDS["move"], 1),
                action=theme.ACTION_SHORT["battle_a"], province="Awa-Shikoku"),
            _("Hover a province for its tax, rice, free slots and neighbours. "
              "Space pauses; F fast-forwards.")])
        app.on_draw()
        assert scene.info.visible
        problems = table_layout.scene_layout_problems(scene, scene.width, scene.height)
        assert not problems, f"{lang} {W}x{H}: " + "; ".join(problems[:12])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("W,H", table_layout.WINDOWS)
def test_top_bar_texts_do_not_run_together(app, lang, W, H):
    from client.game.table_view import TopBar
    with speaking(lang):
        _ = i18n._
        bar = TopBar()
        bar.set_rect(0, H - 34, W, 34)
        bar.set_info(title=_("Shogun — year {year}, {season}").format(year=3, season=_("autumn")),
                     status=_("Waiting for {who}").format(who=", ".join(i18n.TranslatedList(
                         ["Orange", "Black"]))),
                     speed="   ".join((_("FAST-FORWARD [F]"), _("pause [Space]"),
                                       _("skip drop [S]"), _("menu [Esc]"))))
        bar.rebuild()
        t = bar.texts.labels
        assert t["title"].right <= t["status"].left
        assert t["status"].right <= t["speed"].left, (t["status"].right, t["speed"].left)
        assert t["speed"].right <= W - 190


def test_the_table_speaks_the_language(app, planning_scene_in):
    """The words the split table builds (top bar, planning problem, battle and winter
    banners, the asking prompts) come out in the chosen language, with its plurals."""
    from client.core import theme
    lang, scene = planning_scene_in
    words = {"nl": ("jaar", "Leg een provinciekaart", "Gevecht in Shinano", "2 legers overleven",
                    "Opstand in Kii", "1 leger overleeft", "Winterwaardering — jaar 2"),
             "ro": ("anul", "Pune un card de provincie", "Luptă în Shinano", "2 armate supraviețuiesc",
                    "Revoltă în Kii", "1 armată supraviețuiește", "Punctajul de iarnă — anul 2")}[lang]
    with speaking(lang):
        scene.refresh_topbar()
        assert words[0] in scene.topbar.info["title"]
        assert scene.planning.problems and scene.planning.problems[0].startswith(words[1])
        scene.player.battle_banner({"kind": "battle", "province": "Shinano", "attacker": 0, "defender": 1,
                              "result": "attacker", "new_owner": 0, "survivors": 2,
                              "attacker_count": 3, "defender_count": 1})
        assert scene.banner.lines[0] == words[2] and words[3] in scene.banner.lines[3]
        assert theme.seat_name(0) in scene.banner.lines[3]
        scene.player.battle_banner({"kind": "revolt", "province": "Kii", "attacker": "peasant", "defender": 0,
                              "result": "defender", "new_owner": 0, "survivors": 1,
                              "attacker_count": 1, "defender_count": 2})
        assert scene.banner.lines[0] == words[4] and words[5] in scene.banner.lines[3]
        scene.display = dict(scene.display or {}, year=2)
        scene.player.scoring = [{"seat": 0, "gained": 5, "score": 9, "provinces": 1, "buildings": 2,
                          "majority_points": 3}]
        scene.player.scoring_banner()
        assert scene.banner.lines[0] == words[6]
        assert all(w not in " ".join(scene.banner.lines) for w in ("province", "building", "majorities"))
        scene.banner.hide()
