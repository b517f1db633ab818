"""The planning panel's hint (what the plan still lacks, or that it may be locked) is
read whole in every language at 960x640: issue 49 (round three), item 3, the Romanian
"Pune un card de provincie pe cel puțin 6 câmpuri de acțiune…" was cut."""

from __future__ import annotations

import pytest

from client.sessions.local_choice import LocalChoice
from tests.client.conftest import frame, run_until


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
def test_the_plan_hint_is_whole_at_960x640(app, home, lang):
    from lang.i18n import use
    app.set_size(960, 640)
    app.on_resize(960, 640)
    use(lang)
    try:
        scene = app.start_local(LocalChoice.one_level("easy", seed=5), fast=True)
        assert run_until(app, lambda: scene.planning.visible, 60), "never asked to plan"
        panel = scene.planning
        for fill in (False, True):          # nothing placed; then a whole plan, legal
            if fill:
                panel.load(*panel_plan(scene))
            panel._recheck()
            frame(app, 2)
            shown = panel.texts.labels["p"]
            said = panel.problems[0] if panel.problems else None
            assert not shown.text.endswith("…"), (lang, fill, shown.text)
            if said is not None:
                assert shown.text == said, (lang, shown.text, said)
            assert shown.font_size * 96 / 72 >= 11 - 0.01
            assert shown.left >= panel.left and shown.right <= panel.undo_btn.left + 0.5
            assert shown.bottom >= panel.bottom - 0.5
    finally:
        use("en")
        app.set_size(1280, 800)
        app.on_resize(1280, 800)


def panel_plan(scene):
    """A legal plan for the panel: the bots' own suggestion for my seat."""
    panel = scene.planning
    provs = [c for c in panel.all_cards() if isinstance(c, str)]
    return tuple(provs[:10] + [None] * (10 - len(provs[:10]))), 1
