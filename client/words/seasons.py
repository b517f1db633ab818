"""The seasons in the player's language ("year 2, spring"), for every place that says
where a game stands: the top bar, the table view and the menu's unfinished games
(`client.sessions.autosave`), which must not reach up into `client.game` for them.
"""

from __future__ import annotations

from lang.i18n import N_, Translated

SEASON_WORDS = Translated({"spring": N_("spring"), "summer": N_("summer"),
                           "autumn": N_("autumn"), "winter": N_("winter")})
# a season at the head of a heading or a line ("Year 1 — Winter", "Winter of year 1"):
# its own word, capitalised by the translator, not the sentence's word with its first
# letter raised by code
SEASON_HEADINGS = Translated({"spring": N_("Spring"), "summer": N_("Summer"),
                              "autumn": N_("Autumn"), "winter": N_("Winter")})
