"""The seasons in the player's language ("year 2, spring"), for every place that says
where a game stands: the top bar, the table view and the menu's unfinished games
(`client.sessions.autosave`), which must not reach up into `client.game` for them.
"""

from __future__ import annotations

from lang.i18n import N_, Translated

SEASON_WORDS = Translated({"spring": N_("spring"), "summer": N_("summer"),
                           "autumn": N_("autumn"), "winter": N_("winter")})
