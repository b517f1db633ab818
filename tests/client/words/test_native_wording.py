"""Words a native speaker would change (issue 37, item 13; item 12's "your actions"):
known answers from the Dutch and Romanian catalogues, as the window says them."""

from __future__ import annotations

import pytest

from lang.i18n import translations

# (language, English, what the translation says, what it must no longer say)
SAID = [
    ("nl", "Deploy 5", "5 legers", "5 plaatsen"),
    ("nl", "Deploy 3", "3 legers", "3 plaatsen"),
    ("nl", "Deploy 1", "1 leger", "1 plaatsen"),
    ("nl", "Deploy 5 gives 3, deploy 3 gives 2", "‘5 legers plaatsen’ levert er 3 op", "geeft"),
    ("nl", "Saves and logs", "Opgeslagen spellen en verslagen", "Opslagen"),
    ("nl", "Load save", "Spel laden", "Opslag"),
    ("nl", "Ask before leaving a game", "voordat je een spel verlaat", "het verlaten"),
    ("nl", "Dirk Henn's game of feudal Japan — with a battle tower that really tumbles",
     "waarin de blokjes echt tuimelen", "die echt tuimelt"),
    ("nl", "Replay: at step {step} of {steps}.", "bij stap", "terug"),
    ("nl", "plan your actions", "plan je acties", ""),
    ("nl", "red region", "rode regio", "red"),           # item 9/13: the region's colour
    ("ro", "green region", "regiunea verde", "green"),
    ("ro", "purple region", "regiunea mov", "purple"),
    ("ro", "Attacking a neutral: 2 peasants", "unei provincii neutre", "neutrei"),
    ("ro", "skip drop [S]", "sari peste aruncare [S]", "turnul"),
    ("ro", "Deploy 5 gives 3, deploy 3 gives 2", "„Desfășoară 5” aduce doar 3 armate", " dă "),
    ("ro", "Chests {chests}   Rice {rice}   Score {score}   Supply {supply}", "Rezervă",
     "Aprovizionare"),
    ("ro", "Replay: at step {step} of {steps}.", "la pasul", "înapoi"),
]


@pytest.mark.parametrize("lang,english,said,gone", SAID)
def test_the_catalogue_says_it_as_a_native_speaker_would(lang, english, said, gone):
    text = translations(lang).gettext(english)
    assert said in text, (lang, english, text)
    assert not gone or gone not in text, (lang, english, text)


@pytest.mark.parametrize("lang,english,said,gone", [
    ("nl", "The battle tower: armies thrown in tumble down; some stay stuck inside, some come "
           "out with cubes that were stuck before. What lands in the tray counts.",
     "in de toren steken", "binnen steken"),
    ("nl", "The highest bid chooses first. Each place 1–5 comes with a special card; its bonus "
           "is yours this round.", "Wie het hoogst biedt, kiest als eerste", "Het hoogste bod"),
])
def test_longer_sentences_too(lang, english, said, gone):
    text = translations(lang).gettext(english)
    assert said in text and gone not in text, text


def test_one_player_chooses_in_romanian_and_several_choose():
    ro = translations("ro")
    one = ro.ngettext("choose a turn-order position", "choose a turn-order position", 1)
    two = ro.ngettext("choose a turn-order position", "choose a turn-order position", 2)
    assert one.startswith("alege ") and two.startswith("aleg ")


def test_the_tower_line_says_how_many_are_in_the_tower_in_dutch():
    nl = translations("nl")
    text = nl.ngettext("tower ({reason}): in {thrown}; out {out}; inside now {inside}",
                       "tower ({reason}): in {thrown}; out {out}; inside now {inside}", 2)
    assert "nu {inside} in de toren" in text, text


def test_the_tutorials_task_starts_in_lower_case_after_the_colon(app):
    from client.tutorial.card import TutorialCard
    from lang.i18n import _, use
    use("nl")
    try:
        card = TutorialCard()
        card.show_step("Welkom", "1/11", "…", _("Look at your provinces on the map, then press "
                                                 "Next."))
        assert card.task_line().startswith("Nu: bekijk"), card.task_line()
    finally:
        use("en")


def test_the_english_words_call_the_three_point_building_a_castle_as_the_english_edition():
    """Issue 37, item 13: Queen Games' English edition builds castles, temples and Nō
    theatres (the Romanian box says "castel" too); no English sentence says palace."""
    from client.core import theme
    from client.board.board_view import BUILDING_NAMES
    from client.words.rules_text import action_tips
    from sim.narrate import describe
    assert theme.ACTION_SHORT["palace"] == "Castle"
    assert BUILDING_NAMES["palace"] == "castle"
    assert "castle" in action_tips()["palace"] and "palace" not in action_tips()["palace"]
    said = describe({"event": "ActionDone", "seat": 0, "action": "palace", "province": "Kii",
                     "paid": 3, "money_gained": 0, "rice_gained": 0, "armies_placed": 0})
    assert said and "castle" in said and "palace" not in said.lower(), said


def test_the_info_panel_says_your_actions_when_it_waits_for_me(app):
    """Issue 37, item 12: "Now: Blue (you) — plan their actions" was said when the game
    waited for my seat alone (the others had planned); it says "your" ("je" in Dutch),
    and "their" only while others plan too."""
    from types import SimpleNamespace

    from client.game.status_lines import StatusLines
    from lang.i18n import use
    from sim.state import Decision, DecisionKind
    from tests.client.conftest import to_my_plan
    scene = to_my_plan(app)
    try:
        for seats, lang, said in (((0,), "en", "Now: Blue (you) — plan your actions"),
                                  ((0,), "nl", "Nu: Blauw (jij) — plan je acties"),
                                  ((0, 2), "en", "Now: Blue (you), Black — plan their actions")):
            use(lang)
            session = SimpleNamespace(decision=Decision(DecisionKind.PLAN, seats), my_seats=(0,),
                                      waiting_text="", status="")
            StatusLines(session, scene.shared, scene.topbar, scene.info).show_info(
                panel_up=False, behind=False, held_seconds=None)
            assert any(said in line for line in scene.info.lines), (said, scene.info.lines)
    finally:
        use("en")
        app.show_menu()


def test_a_field_is_pointed_at_to_see_what_it_does_in_dutch():
    """Issue 37, item 13: "Wijs een veld aan voor wat het doet" -> "... om te zien wat het
    doet"."""
    text = translations("nl").gettext(
        "Your plan — click a card, then a field (or drag). Empty fields: no action. Gold "
        "coins: cost in chests. Hover for what a field does.")
    assert "Wijs een veld aan om te zien wat het doet" in text, text
