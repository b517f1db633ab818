"""The rules as the help screen tells them: in players' words, without rule ids.

Written from the project's rules (shared/spec/shogun-rules.md). Numbers that are card or
board facts (costs, events, the revolt table) come from `client.core.card_facts` and
`sim.board`, so the help screen cannot drift from what the engine does.

Tests: tests/client/words/test_i18n.py, tests/client/words/test_i18n_window.py,
tests/client/scenes/test_three_player_board.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.core.card_facts import action_costs, chests, event_rice_loss, event_texts
from lang.i18n import N_, Translated, _, ngettext
from sim.board import board


@dataclass(frozen=True)
class Section:
    title: str
    paragraphs: tuple[str, ...]


def action_tips() -> dict[str, str]:
    """One sentence per action field (the planning panel's tooltips)."""
    cost = action_costs()
    return {
        "palace": _("Build a castle here: costs {cost}; needs a free slot and no castle yet.").format(
            cost=chests(cost["palace"])),
        "temple": _("Build a temple here: costs {cost}; needs a free slot and no temple yet.").format(
            cost=chests(cost["temple"])),
        "theatre": _("Build a Nō theatre here: costs {cost}; needs a free slot and no theatre "
                     "yet.").format(cost=chests(cost["theatre"])),
        "rice": _("Collect this province's rice (free). Adds an unrest marker; with unrest "
                  "already, its peasants revolt first."),
        "tax": _("Collect this province's tax in chests (free). Adds an unrest marker; with "
                 "unrest already, its peasants revolt first."),
        "deploy5": _("Put 5 armies from your supply here: costs {cost}.").format(cost=chests(cost["deploy5"])),
        "deploy3": _("Put 3 armies from your supply here: costs {cost}.").format(cost=chests(cost["deploy3"])),
        "deploy1": _("Put 1 army here ({cost}), then you may move armies on to one neighbouring "
                     "province of yours.").format(cost=chests(cost["deploy1"])),
        "battle_a": _("Move armies from here to one neighbour (free): your own — a move; anyone "
                      "else's or neutral — a battle through the tower."),
        "battle_b": _("Move armies from here to one neighbour (free): your own — a move; anyone "
                      "else's or neutral — a battle through the tower."),
        "bid": _("Your bid for turn order: a money card pays its value; a province card bids "
                 "nothing and ranks between 1 and 0. The highest bid chooses a special card "
                 "first."),
    }


SPECIAL_TIPS = Translated({   # each lookup answers in the player's language
    "chest": N_("+1 chest: collect tax gives you 1 chest more this round."),
    "rice": N_("+1 rice: collect rice gives you 1 rice more this round."),
    "six_armies": N_("6 armies: your deploy 5 puts 6 armies in (same cost), whatever the event says."),
    "attack": N_("+1 attack: when you attack with battle A or B, 1 extra army of yours joins."),
    "defence": N_("+1 defence: when another player attacks you, 1 extra army of yours joins."),
})


def _revolt_lines() -> list[str]:
    out = []
    for lo, hi, revolts, extra in board().revolt_table:
        short = f"{lo}" if hi == lo else (f"{lo}–{hi}" if hi is not None else
                                          _("{n} or more").format(n=lo))
        out.append("    " + _("short by {short}: {revolts}, each with {extra}").format(
            short=short,
            revolts=ngettext("{n} province revolts", "{n} provinces revolt", revolts).format(n=revolts),
            extra=ngettext("{n} extra peasant", "{n} extra peasants", extra).format(n=extra)))
    return out


def three_player_lines() -> list[str]:
    """Which provinces are out of play with 3 players, per side, and where the list comes
    from: the sun side's from the rulebook; the moon side's is this edition's choice,
    since the rulebooks give that list only as a picture (`assets/board.json`)."""
    b = board()
    out = []
    for side in ("sun", "moon"):
        names = ", ".join(b.excluded_3p[side])
        if side in b.excluded_3p_chosen:
            out.append(three_player_choice(side))
        else:
            out.append((_("Sun side: {provinces}.") if side == "sun" else
                        _("Moon side: {provinces}.")).format(provinces=names))
    return out


def three_player_choice(side: str) -> str:
    """The sentence for a side whose 3-player list is this edition's choice."""
    names = ", ".join(board().excluded_3p[side])
    return (_("Sun side: the rulebooks show the provinces out of play only in a picture, so "
              "this edition chose them: {provinces}.") if side == "sun" else
            _("Moon side: the rulebooks show the provinces out of play only in a picture, so "
              "this edition chose them: {provinces}.")).format(provinces=names)


def sections() -> list[Section]:
    cost = action_costs()
    events = event_texts()
    loss = event_rice_loss()
    event_lines = ["    " + _("{n}. {text} (winter: −{rice} rice)").format(
        n=n, text=events[n], rice=loss[n]) for n in sorted(events)]
    return [
        Section(_("Goal"), (
            _("You are a daimyo in feudal Japan. Over two years you take provinces, build "
            "castles, temples and Nō theatres, and keep your people fed. Points come in each "
            "winter; after the second winter the most points wins (ties: the most chests)."),)),
        Section(_("Three players"), tuple(
            [_("With 3 players eight provinces are out of play (hatched grey on the map): "
               "nobody may enter them.")] + three_player_lines())),
        Section(_("A year"), (
            _("Each year has three action rounds — spring, summer, autumn — and then winter."),)),
        Section(_("A round, step by step"), (
            _("1. Ten action cards are shuffled. The first five are shown; the other five are "
            "turned one by one as play goes on."),
            _("2. Five special cards lie on turn-order places 1 to 5."),
            _("3. Everyone plans at the same time, in secret: put one of your province cards on "
            "each action field to do that action in that province. A money card on a field "
            "means 'no action there'. Every field must hold a card while you still have one. "
            "One card goes on the bid field."),
            _("4. This round's event is drawn from the year's face-up events."),
            _("5. Bids are shown and money bids paid. The highest bid picks a special card "
            "first; its place is your place in the turn order, and its bonus is yours this "
            "round. A province card as a bid ranks between 1 and 0 and costs nothing."),
            _("6. The ten actions are carried out one after another; each player does the "
            "action in turn order. A planned card is shown only when it is used."),
            _("7. Cards go back to your hand; the event card is gone."))),
        Section(_("The actions"), (
            _("Build castle ({palace}), build temple ({temple}), build Nō theatre ({theatre}): "
              "put that building in the province. A province has one to three building slots "
              "and at most one building of each kind.").format(
                palace=chests(cost["palace"]), temple=chests(cost["temple"]),
                theatre=chests(cost["theatre"])),
            _("Collect rice / collect tax (free): gain the province's rice or tax, then an unrest "
            "marker is placed there. If the province already has unrest, its peasants revolt "
            "first, and you collect only if you win."),
            _("Deploy 5 ({five}) and deploy 3 ({three}): put that many armies from your supply "
              "into the province.").format(five=chests(cost["deploy5"]), three=chests(cost["deploy3"])),
            _("Deploy/move 1 ({cost}): put 1 army there, then you may move armies from it to one "
              "neighbouring province you own (leave at least 1). No battle.").format(
                cost=chests(cost["deploy1"])),
            _("Battle/move A and B (free): move armies from the province to one neighbour, "
            "leaving at least 1. Into your own province it is a move; into a neutral or "
            "another player's province it is a battle."),
            _("If you cannot do an action fully (no money, no free slot, too few armies, no "
            "legal move), it simply does not happen and costs nothing. If you lose a province "
            "during the round, your action there is lost too."))),
        Section(_("Special cards"), (
            _("+1 chest: collect tax gives 1 chest more.   +1 rice: collect rice gives 1 more."),
            _("6 armies: deploy 5 puts 6 armies in (same cost), whatever the event says."),
            _("+1 attack: when you attack with battle A or B, 1 extra army of yours joins."),
            _("+1 defence: when another player attacks you, 1 extra army of yours joins."),
            _("With 3 or 4 players the special cards nobody takes do nothing that round."))),
        Section(_("Events (one per round, for everyone)"), tuple(
            [_("The year shows four events; each round one of them is drawn. The one left after "
             "autumn never acts, but its winter rice loss counts.")] + event_lines)),
        Section(_("Battles and the tower"), (
            _("Every battle goes through the tower. The attacker throws the armies that move in; "
            "the defender throws all their armies in the province; a neutral province adds a "
            "peasant. Everything lying in the tray goes in too."),
            _("Some cubes stay in the tower, some that were stuck come out. Count the attacker's "
            "and the defender's cubes in the tray; peasants count for the defender if the "
            "province has no unrest. More wins; equal is a draw."),
            _("The winner loses as many armies as the loser had; the rest stand in the province. "
            "A winning attacker takes the province and its card. In a draw the province is "
            "left empty, without buildings, and becomes neutral."),
            _("Revolts: your armies there fight the peasants (one per unrest marker, more in "
            "winter). Lose or draw, and the province becomes neutral."))),
        Section(_("Winter"), tuple([
            _("Everyone loses the rice shown by the event left over. Then, if you own more "
            "provinces than you have rice, you are short, and provinces revolt:")]
            + _revolt_lines()
            + [_("The revolting provinces are drawn at random; you choose the order they are fought."),
               _("Scoring: 1 point per province and 1 per building. In each region, the most "
               "castles score 3, the most temples 2, the most Nō theatres 1; players tied for "
               "the most score one less."),
               _("After the first winter, four new events are shown, everyone's rice goes back "
               "to 0 and all unrest markers are removed.")])),
        Section(_("Keys"), (
            _("F1: this help.   Esc: back to the menu (your game is saved).   Ctrl+S: save under a name."),
            _("Space: pause.   F: fast-forward.   + and −: pace.   S: skip a tower drop."),
            _("Planning: click a card, then a field (or drag it). B suggests a plan, C clears, "
            "Enter locks it; U unlocks it again against bots before the plans are opened."))),
    ]
