"""The events panel's lines are read whole at 960x640 in every language: issue 49 (round
three), the Dutch "4. Paleis aangevallen: +1 leger verded…" ended in an ellipsis. Each
of the twelve event cards' lines, plain and as the current event (bold), measured in the
panel as the table lays it out."""

from __future__ import annotations

import pytest

from client.core import theme
from client.sessions.local_choice import LocalChoice
from tests.client.conftest import run_until


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
def test_every_event_line_fits_the_events_panel_at_960x640(app, home, lang):
    from lang.i18n import use
    app.set_size(960, 640)
    app.on_resize(960, 640)
    use(lang)
    try:
        scene = app.start_local(LocalChoice.one_level("easy", seed=5), fast=True)
        assert run_until(app, lambda: scene.planning.visible, 60), "never asked to plan"
        panel = scene.events_panel
        numbers = sorted(theme.EVENT_TEXT.keys())
        assert len(numbers) == 12
        cut = []
        for first in range(0, 12, 4):
            year = tuple(numbers[first:first + 4])
            for current in (None, *year):
                panel.set_events(1, "spring", year, current)
                panel.rebuild()
                for k, n in enumerate(year):
                    t = panel.texts.labels[("e", k)]
                    whole = f"{n}. {theme.EVENT_TEXT[n]}"
                    loss = panel.texts.labels[("r", k)]
                    if t.text != whole or t.right > loss.left - 2 or t.left < panel.left \
                            or t.bottom < panel.bottom + 1 or t.top > panel.top:
                        cut.append((n, current == n, t.text))
                    assert t.font_size * 96 / 72 >= 11 - 0.01, (n, t.font_size)
                    if k:                       # under the line before, not over it
                        assert t.top <= panel.texts.labels[("e", k - 1)].bottom + 4, (n, k)
        assert not cut, "\n".join(map(repr, [lang, panel.width, *sorted(set(cut))]))
    finally:
        use("en")
        app.set_size(1280, 800)
        app.on_resize(1280, 800)
