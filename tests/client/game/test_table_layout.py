"""The table's panels keep their words inside their boxes from 960x640 to 2560x1440
(issue 13, item 4): player rows do not spill into each other, action labels stay on their
cards, the top bar's texts do not run together. Text is measured as drawn (needs a window)."""

from __future__ import annotations

import pytest

from client.game.table_view import ActionTrack, PlayersPanel, TopBar
from client.sessions.local_choice import LocalChoice

WINDOWS = [(960, 640), (1280, 800), (1920, 1080), (2560, 1440)]
CARDS = ["Awa-Shikoku", "Shimotsuke", "Mimasaka", "Hitachi", "Kazusa", "Shimosa", "Musashi",
         "Sagami", "Yamato", "Echizen", "Owari"]


def _texts(panel):
    return {k: t for k, t in panel.texts.labels.items() if t.visible and t.text}


def _inside(t, left, bottom, right, top, slack=1.5) -> bool:
    return (t.left >= left - slack and t.right <= right + slack
            and t.bottom >= bottom - slack and t.top <= top + slack)


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("W,H", WINDOWS)
def test_player_rows_keep_their_words(app, W, H, players):
    state = {"players": {str(i): {"money": 12, "rice": 3, "score": 17, "supply": 38,
                                  "position": i + 1, "special": "six_armies",
                                  "cards": CARDS[: 9 + i % 3]} for i in range(players)}}
    panel = PlayersPanel()
    rw = max(280, min(340, W * 0.25))                 # as GameScene.on_layout places it
    ph = min(players * 74 + 6, (H - 34) * 0.5)
    panel.set_rect(W - rw, H - 34 - ph, rw, ph)
    panel.set_state(state, {i: "bot heuristic" for i in range(players)}, me=(0,))
    panel.rebuild()
    rh = int(min(80.0, (panel.height - 4) / players))
    bad = []
    for key, t in _texts(panel).items():
        i = key[1]
        row_top = panel.top - 2 - rh * i
        if not _inside(t, panel.left, row_top - rh, panel.right, row_top):
            bad.append(f"{key}: {t.text[:30]!r} leaves row {i}")
    assert not bad, f"{W}x{H}, {players} players: " + "; ".join(bad)


@pytest.mark.parametrize("W,H", WINDOWS)
def test_action_labels_stay_on_their_cards(app, W, H):
    rw = max(280, min(340, W * 0.25))
    track = ActionTrack()
    track.set_rect(0, 180, W - rw, 48)
    track.set_track(["deploy5", "deploy3", "deploy1", "battle_a", "battle_b", "palace",
                     "temple", "theatre", "rice", "tax"])
    track.rebuild()
    bad = []
    for k in range(10):
        t = track.texts.labels[("a", k)]
        x, w = track.card_x(k)
        if not _inside(t, x, track.bottom, x + w - 4, track.top):
            bad.append(f"{t.text!r} leaves card {k + 1}")
    assert not bad, f"{W}x{H}: " + "; ".join(bad)


@pytest.mark.parametrize("W,H", WINDOWS)
def test_top_bar_texts_do_not_run_together(app, W, H):
    bar = TopBar()
    bar.set_rect(0, H - 34, W, 34)
    bar.set_info(title="Shogun — year 3, autumn", status="Waiting for Orange, Black",
                 speed="FAST-FORWARD [F]   pause [Space]   skip drop [S]   menu [Esc]")
    bar.rebuild()
    t = bar.texts.labels
    assert t["title"].right <= t["status"].left
    assert t["status"].right <= t["speed"].left, (t["status"].right, t["speed"].left)
    assert t["speed"].right <= W - 190                 # the pace buttons start there


# -- the whole planning scene, laid out by the App at several window sizes -----------------

SCENE_WINDOWS = [(960, 640), (1024, 700), (1280, 800), (1600, 900), (1920, 1080),
                 (2560, 1440)]
# drawn over the table on purpose (a note, a tooltip, a question, the rules, a result)
OVERLAYS = {"guide", "tooltip", "dialog", "help", "banner", "winter", "thinking", "pause"}


def _shown(node) -> bool:
    while node is not None:
        if not node.visible:
            return False
        node = node.parent
    return True


def _box(t):
    return (t.left, t.bottom, t.right, t.top)


def _meets(a, b, slack: float = 1.0) -> bool:
    return not (a[2] <= b[0] + slack or b[2] <= a[0] + slack
                or a[3] <= b[1] + slack or b[3] <= a[1] + slack)


def _inside_box(a, b, slack: float = 1.5) -> bool:
    return a[0] >= b[0] - slack and a[2] <= b[2] + slack and a[1] >= b[1] - slack \
        and a[3] <= b[3] + slack


def scene_layout_problems(scene, W: float, H: float) -> list[str]:
    """What overlaps or leaves the window in a drawn scene: panels against panels, each
    text inside its own node and clear of every other text, each text inside or clear of
    the boxes its node draws (`drawn_boxes()`: cards, fields)."""
    problems = []
    nodes = [n for n in scene.walk() if n is not scene and _shown(n)]
    overlay = set()
    for n in nodes:
        if n.name in OVERLAYS or (n.parent is not None and id(n.parent) in overlay):
            overlay.add(id(n))
    nodes = [n for n in nodes if id(n) not in overlay]
    window = (0, 0, W, H)
    rects = {id(n): (n.left, n.bottom, n.right, n.top) for n in nodes}
    for n in nodes:
        if not _inside_box(rects[id(n)], window):
            problems.append(f"{n.name} leaves the window")
    top = [n for n in nodes if n.parent is scene]
    for i, a in enumerate(top):
        for b in top[i + 1:]:
            ra, rb = rects[id(a)], rects[id(b)]
            if _meets(ra, rb) and not (_inside_box(ra, rb) or _inside_box(rb, ra)):
                problems.append(f"{a.name} and {b.name} overlap")
    texts = []
    for n in nodes:
        boxes = list(n.drawn_boxes()) if hasattr(n, "drawn_boxes") else []
        parts = boxes + [(c.name, rects[id(c)]) for c in n.children if id(c) in rects]
        for i, (na, ra) in enumerate(parts):       # a panel's cards, fields and buttons
            for nb, rb in parts[i + 1:]:
                if _meets(ra, rb):
                    problems.append(f"{n.name}: {na} and {nb} overlap")
        cache = getattr(n, "texts", None)
        if cache is None or n.name == "board":
            continue
        for key, t in cache.labels.items():
            if not (t.visible and t.text.strip()):
                continue
            box = _box(t)
            what = f"{n.name} text {t.text[:24]!r}"
            if not _inside_box(box, rects[id(n)]):
                problems.append(f"{what} leaves its panel")
            for name, r in boxes:
                if _meets(box, r) and not _inside_box(box, r):
                    problems.append(f"{what} covers {name}")
            texts.append((what, box))
    for i, (wa, a) in enumerate(texts):
        for wb, b in texts[i + 1:]:
            if _meets(a, b):
                problems.append(f"{wa} runs into {wb}")
    return problems


@pytest.fixture(scope="module")
def planning_scene(app):
    from tests.client.conftest import run_until
    scene = app.start_local(LocalChoice.one_level("easy", seed=5), fast=True)
    assert run_until(app, lambda: scene.planning.visible, 60), "never asked to plan"
    yield scene
    app.set_size(1280, 800)
    app.on_resize(1280, 800)


@pytest.mark.parametrize("W,H", SCENE_WINDOWS)
def test_planning_scene_fits_the_window(app, planning_scene, W, H):
    from tests.client.conftest import frame
    scene = planning_scene
    app.set_size(W, H)
    app.on_resize(W, H)
    frame(app, 2)
    assert scene.planning.visible
    lw, lh = scene.width, scene.height
    assert lw >= 960 - 1 and lh >= 640 - 1
    assert abs(lw * app.ui_scale - W) < 2 and abs(lh * app.ui_scale - H) < 2
    problems = scene_layout_problems(scene, lw, lh)
    assert not problems, f"{W}x{H} (scale {app.ui_scale:g}): " + "; ".join(problems[:12])


def test_text_cards_and_tower_grow_with_the_window(app, planning_scene):
    from tests.client.conftest import frame
    sizes = {}
    for W, H in ((1280, 800), (2560, 1440)):
        app.set_size(W, H)
        app.on_resize(W, H)
        frame(app)
        s = app.ui_scale
        l, b, w, h = planning_scene.planning.card_rects()[0][1]
        sizes[W] = (s * h, s * planning_scene.tower.height, s)
    assert sizes[2560][2] >= 1.7                       # automatic: drawn larger
    assert sizes[2560][0] >= 1.6 * sizes[1280][0]      # cards (window pixels)
    assert sizes[2560][1] >= 1.6 * sizes[1280][1]      # the tower


@pytest.mark.parametrize("W,H", [(960, 640), (1280, 800), (2560, 1440)])
def test_info_panel_scene_fits_the_window(app, planning_scene, W, H):
    """The same table while the player waits (the info panel instead of planning), with
    long lines: a five-player turn order with their special cards."""
    from tests.client.conftest import frame
    scene = planning_scene
    app.set_size(W, H)
    app.on_resize(W, H)
    frame(app)
    scene.asker.hide_decision()
    scene.info.set_lines(["Spring of year 1 — this round's event: Collect rice gives at least 4",
                          "Turn order: Magenta (+1 defence) → White (+1 attack) → Orange "
                          "(+1 rice) → Black (6 armies) → Blue (+1 chest)",
                          "Now: Orange — choose where armies move (Battle/move A from Shinano)",
                          "Hover a province for its tax, rice, free slots and neighbours. "
                          "Space pauses; F fast-forwards."])
    app.on_draw()
    assert scene.info.visible
    problems = scene_layout_problems(scene, scene.width, scene.height)
    assert not problems, f"{W}x{H}: " + "; ".join(problems[:12])


# -- no cramping at 960 px (issue 27, item 12) ----------------------------------------------

NARROW = [(960, 640), (1024, 700), (1280, 800)]
HAND = ["Awa-Shikoku", "Kaga", "Kii", "Noto", "Omi", "Settsu", "Tamba", "Yamato"]


@pytest.mark.parametrize("W,H", NARROW)
def test_card_names_in_the_hand_are_whole(app, W, H):
    """A hand of eight at 960 px showed "Awa-Shi…": long names get the room short ones
    leave."""
    from client.game.plan_panel import PlanningPanel
    rw = max(280, min(340, W * 0.25))
    bottom_h = 220 if H >= 700 else 190
    panel = PlanningPanel()
    panel.set_rect(0, 0, W - rw, bottom_h - 58)
    panel.start(0, HAND, 4, lambda actions, bid: [])
    panel.rebuild()
    rects = dict(panel.card_rects())
    for c in HAND:
        t = panel.texts.labels[("c", c)]
        assert t.text == c, f"{W}x{H}: {t.text!r} for {c}"
        l, b, w, h = rects[c]
        assert _inside(t, l, b, l + w, b + h), f"{W}x{H}: {c} leaves its card"
    assert max(l + w for l, b, w, h in rects.values()) <= panel.right - 8


@pytest.mark.parametrize("W,H", WINDOWS)
@pytest.mark.parametrize("battle", [False, True])
def test_action_labels_keep_clear_of_the_tokens_and_badges(app, W, H, battle):
    """Each card's name clear of its number, the event's badge and the special cards'
    tokens (deploy 5 carries both a badge and a token), and inside its card, at every
    size; also in the battle view, where the tower's column leaves the track narrower
    (520 px at 960x640: "Deploy 1" ran over "Deploy 3")."""
    rw = max(280, min(340, W * 0.25))
    track = ActionTrack()
    width = (W - rw) * 0.765 if battle else W - rw
    track.set_rect(0, 180, width, 56)
    acts = ["deploy5", "deploy3", "deploy1", "battle_a", "battle_b", "palace", "temple",
            "theatre", "rice", "tax"]
    track.set_track(acts)
    players = {"0": {"special": "attack"}, "1": {"special": "chest"},
               "2": {"special": "six_armies"}, "3": {"special": "defence"},
               "4": {"special": "rice"}}
    track.set_marks(12, players)          # 12 changes deploy 5 and deploy 3
    track.rebuild()
    bad = []
    marked = 0
    for k in range(10):
        t = track.texts.labels[("a", k)]
        box = _box(t)
        marks = track.mark_boxes(k)
        marked += len(marks) > 1
        for what, r in marks:
            if _meets(box, r, slack=0.0):
                bad.append(f"{t.text!r} runs into the {what} mark")
        x, w = track.card_x(k)
        if not _inside(t, x, track.bottom, x + w - 4, track.top):
            bad.append(f"{t.text!r} leaves card {k + 1}")
    assert marked >= 4
    assert not bad, f"{W}x{H}: " + "; ".join(bad)


@pytest.mark.parametrize("W,H", NARROW)
def test_a_long_turn_order_wraps_instead_of_being_cut(app, W, H):
    """"Black (6 armi…": at 960 px a five-player turn order with its cards takes two rows
    of the info panel rather than losing its end."""
    from client.game.table_messages import InfoPanel
    rw = max(280, min(340, W * 0.25))
    bottom_h = 220 if H >= 700 else 190
    info = InfoPanel()
    info.set_rect(0, 0, W - rw, bottom_h - 58)
    info.set_lines(["Spring of year 2 — this round's event: Collect rice gives at least 4",
                    "Turn order: Magenta (+1 defence) → White (+1 attack) → Orange "
                    "(+1 rice) → Black (6 armies) → Blue (+1 chest)",
                    "Now: Orange — choose where armies move (Battle/move A from Shinano)"])
    info.rebuild()
    shown = [t for t in info.texts.labels.values() if t.visible and t.text]
    assert not [t.text for t in shown if t.text.endswith("…")], f"{W}x{H}: a line was cut"
    for t in shown:
        assert _inside(t, info.left, info.bottom, info.right, info.top), t.text[:30]
    for i, a in enumerate(shown):
        for b in shown[i + 1:]:
            assert not _meets(_box(a), _box(b)), (a.text[:20], b.text[:20])


def test_action_labels_are_back_in_place_after_the_battle_view_at_960(app):
    """Issue 37, item 3: after a battle view at 960x640 (a narrow track: long names cut
    or wrapped) the next round's "Deploy 1", "Palace", "Temple" were drawn shifted right
    and down over their neighbours: a label kept the corner anchor of its cut form."""
    rw = max(280, min(340, 960 * 0.25))
    track = ActionTrack()
    track.set_rect(0, 180, (960 - rw) * 0.765, 56)       # the battle view
    track.set_track(["deploy5", "deploy3", "deploy1", "battle_a", "battle_b", "palace",
                     "temple", "theatre", "rice", "tax"])
    track.rebuild()
    track.set_rect(0, 180, 960 - rw, 56)                 # back to the table, a new round
    track.set_track(["deploy1", "palace", "temple", "battle_b", "deploy5", "battle_a",
                     "rice", "deploy3", "tax", "theatre"])
    track.rebuild()
    fresh = ActionTrack()
    fresh.set_rect(0, 180, 960 - rw, 56)
    fresh.set_track(track.actions)
    fresh.rebuild()
    bad = []
    for k in range(10):
        t, f = track.texts.labels[("a", k)], fresh.texts.labels[("a", k)]
        x, w = track.card_x(k)
        if not _inside(t, x, track.bottom, x + w - 4, track.top):
            bad.append(f"{t.text!r} leaves card {k + 1}")
        if abs(t.left - f.left) > 0.5 or abs(t.bottom - f.bottom) > 0.5:
            bad.append(f"{t.text!r} at {t.left:.0f},{t.bottom:.0f}, not {f.left:.0f},{f.bottom:.0f}")
    assert not bad, "; ".join(bad)


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("W,H", WINDOWS)
def test_the_replay_header_does_not_overlap_itself(app, W, H, lang):
    """Issue 37, item 7: at 960 "Replay: step 41 of 240 — ← → step, Page Up/Down round,
    Home start" ran into "speed ×1 [−/+]   PAUSED [Space] ..."; none of it under 11 px."""
    from lang.i18n import _, use
    use(lang)
    try:
        bar = TopBar()
        bar.set_rect(0, H - 34, W, 34)
        status = _("Replay: step {step} of {steps} — ← → step, Page Up/Down round, Home "
                   "start").format(step=41, steps=240)
        speed = "   ".join((_("speed ×{speed} [−/+]").format(speed="1"), _("PAUSED [Space]"),
                            _("skip drop [S]"), _("menu [Esc]")))
        bar.set_info(title=_("Shogun — year {year}, {season}").format(year=1, season=_("autumn")),
                     status=status, speed=speed)
        bar.rebuild()
        t = bar.texts.labels
        assert t["title"].right <= t["status"].left
        assert t["status"].right <= t["speed"].left, (t["status"].text, t["speed"].text)
        assert t["speed"].right <= W - 190
        assert t["status"].text.startswith(status.split(" — ")[0])
        for key in ("title", "status", "speed"):
            assert t[key].font_size * 96 / 72 >= 11, (key, t[key].font_size)
    finally:
        use("en")


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("W,H", [(960, 640), (1280, 800)])
def test_the_turn_order_choices_share_one_type_size_of_11_px_or_more(app, W, H, lang):
    """Issue 37, item 11: the special-card buttons came in mixed sizes, down to 7 points,
    and "#1 +1 leger bij verdediging [1]" ran off its button at 960 (nl)."""
    from client.core import theme
    from client.game.decisions import DecisionPanel
    from lang.i18n import _, use
    use(lang)
    try:
        rw = max(280, min(340, W * 0.25))
        panel = DecisionPanel()
        panel.set_rect(0, 0, W - rw, (220 if H >= 700 else 190) - 58)
        cards = ("defence", "six_armies", "rice", "attack", "chest")
        panel.ask(_("Choose your turn-order position and its special card."),
                  [(f"#{p} {theme.SPECIAL_LABELS[c]}", p, True) for p, c in enumerate(cards, 1)])
        sizes = set()
        for b in panel._buttons:
            b.rebuild()
            t = b.texts.labels["l"]
            sizes.add(t.font_size)
            assert t.font_size * 96 / 72 >= 11, (t.text, t.font_size)
            assert b.left <= t.left and t.right <= b.right, (t.text, t.left, t.right, b.left, b.right)
            assert b.bottom >= panel.bottom and b.right <= panel.right
        assert len(sizes) == 1, sizes
    finally:
        use("en")


@pytest.mark.parametrize("W,H", [(960, 640), (1280, 800)])
def test_a_players_name_is_never_drawn_under_11_px(app, W, H):
    """Issue 37, item 11: "Bot (Oranje)" shrank to about 7 px at 960 (nl) beside a long
    special card; the name keeps 11 px (cut if it must) and the bot's level goes first."""
    from lang.i18n import use
    use("nl")
    try:
        players = 5
        state = {"players": {str(i): {"money": 12, "rice": 3, "score": 17, "supply": 38,
                                      "position": i + 1, "special": "defence",
                                      "cards": CARDS[:9]} for i in range(players)}}
        panel = PlayersPanel()
        rw = max(280, min(340, W * 0.25))
        ph = min(players * 74 + 6, (H - 34) * 0.5)
        panel.set_rect(W - rw, H - 34 - ph, rw, ph)
        panel.set_state(state, {i: f"Bot ({n})" for i, n in enumerate(
            ("Blauw", "Oranje", "Zwart", "Wit", "Magenta"))}, me=(0,),
            notes={i: "heuristic" for i in range(1, players)})
        panel.rebuild()
        for key, t in _texts(panel).items():
            if key[0] in ("n", "w"):
                assert t.font_size * 96 / 72 >= 11, (t.text, t.font_size)
    finally:
        use("en")


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("W,H", WINDOWS)
def test_every_name_is_whole_and_all_names_one_size(app, lang, W, H, players):
    """Issue 49 item 2: with the special cards taken, Dutch "Bot (Oranje)" was cut to
    "Bo…" beside "#2  +1 leger bij verdediging", and "Jij (Blauw)" was drawn smaller than
    the others. Measured as drawn: each name whole, clear of its tag, all at one size."""
    from client.words.table_names import seat_title
    from lang import i18n
    specials = ["defence", "attack", "six_armies", "chest", "rice"]
    i18n.use(lang)
    try:
        state = {"players": {str(i): {"money": 12, "rice": 3, "score": 17, "supply": 38,
                                      "position": i + 1, "special": specials[i],
                                      "cards": CARDS[: 9 + i % 3]} for i in range(players)}}
        for me, first in ((0, ""), (0, "Daichi")):
            labels = {i: seat_title(i, "bot") for i in range(players)}
            labels[me] = seat_title(me, "human", first, me=True)
            panel = PlayersPanel()
            rw = max(280, min(340, W * 0.25))                 # as GameScene.on_layout places it
            ph = min(players * 74 + 6, (H - 34) * 0.5)
            panel.set_rect(W - rw, H - 34 - ph, rw, ph)
            panel.set_state(state, labels, me=(me,))
            panel.rebuild()
            names = [panel.texts.labels[("n", i)] for i in range(players)]
            sizes = {round(t.font_size, 2) for t in names}
            assert len(sizes) == 1, f"{W}x{H} {lang}: names at sizes {sizes}"
            for i, t in enumerate(names):
                assert "…" not in t.text and labels[i] in t.text, f"{W}x{H} {lang}: {t.text!r}"
                tag = panel.texts.labels[("t", i)]
                assert t.right <= tag.left - 4 + 0.5, \
                    f"{W}x{H} {lang}: {t.text!r} runs into {tag.text!r}"
                assert t.right <= panel.right, t.text
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("W,H", WINDOWS)
@pytest.mark.parametrize("status", ["Your move", "Replaying a game log (it plays forward only)",
                                    "Waiting for {who} to plan their actions"])
def test_the_top_bar_cuts_no_word(app, lang, W, H, status):
    """Issue 49 item 2: the Dutch game header read "menu [E…" in round 1 and the replay's
    "Replaying a game log (it pl…": a hint or the status's head is whole or not shown."""
    from client.core.settings import SPEEDS
    from lang import i18n
    i18n.use(lang)
    try:
        _ = i18n._
        said = _(status)
        if "{who}" in said:
            said = said.format(who=", ".join(i18n.TranslatedList(["Orange", "Black", "White"])))
        hints = (_("speed ×{speed} [−/+]").format(speed=f"{SPEEDS[2]:g}"), _("pause [Space]"),
                 _("skip drop [S]"), _("menu [Esc]"))
        bar = TopBar()
        bar.set_rect(0, H - 34, W, 34)
        bar.set_info(title=_("Shogun — year {year}, {season}").format(year=1, season=_("spring")),
                     status=said, speed="   ".join(hints))
        bar.rebuild()
        t = bar.texts.labels
        assert "…" not in t["status"].text, f"{W}x{H} {lang}: {t['status'].text!r}"
        assert said.startswith(t["status"].text)
        assert t["speed"].visible and t["speed"].text.endswith(_("menu [Esc]")), t["speed"].text
        assert all(h in hints for h in t["speed"].text.split("   ")), t["speed"].text
        assert t["title"].right <= t["status"].left
        assert t["status"].right <= t["speed"].left, (t["status"].right, t["speed"].left)
        assert t["speed"].right <= W - 190
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("W,H", WINDOWS)
def test_the_replay_header_says_its_keys_whole(app, lang, W, H):
    """Issue 49 items 2 and 7: the replay's header says the step and the keys that step
    back and on, by a step and by a round; at 960x640 it was cut ("Replaying a game log
    (it pl…"), then said only "Replay: step 0 of 241" (the keys went first). Measured by
    the drawn texts' extents: the whole status, between the title and the hints (the
    pace hints, whose buttons are beside them, give way first)."""
    from client.core.settings import SPEEDS
    from client.game.replay_controls import replay_status
    from lang import i18n
    i18n.use(lang)
    try:
        _ = i18n._
        said = replay_status(118, 241)
        hints = (_("speed ×{speed} [−/+]").format(speed=f"{SPEEDS[2]:g}"), _("pause [Space]"),
                 _("skip drop [S]"), _("menu [Esc]"))
        bar = TopBar()
        bar.set_rect(0, H - 34, W, 34)
        bar.set_info(title=_("Shogun — year {year}, {season}").format(year=3, season=_("autumn")),
                     status=said, speed="   ".join(hints))
        bar.rebuild()
        t = bar.texts.labels
        shown = t["status"].text
        two = t.get("status2")
        if two is not None and two.visible:          # a narrow bar: the keys on a line below
            shown += " — " + two.text
            assert two.left == t["status"].left and two.top <= t["status"].bottom + 0.5
            assert bar.bottom <= two.bottom and t["status"].top <= bar.top
            assert two.right <= t["speed"].left, (two.right, t["speed"].left)
        assert shown == said, f"{W}x{H} {lang}: {shown!r}"
        assert "←" in said and "PgUp" in said and "118" in said
        assert t["speed"].visible and t["speed"].text.endswith(_("menu [Esc]")), t["speed"].text
        assert t["title"].right <= t["status"].left
        assert t["status"].right <= t["speed"].left, (t["status"].right, t["speed"].left)
        assert t["speed"].right <= W - 190
        from client.core import theme
        assert t["status"].font_size >= theme.SMALLEST_TYPE - 0.01
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("W,H", WINDOWS)
def test_action_names_are_whole_and_one_size(app, lang, W, H):
    """Issue 49 item 3: at 960x640 the Dutch track read "5 lege.", "3 lege.", "Gev. A",
    "Belast." beside "Paleis" drawn larger. Measured as drawn: every name whole (no
    shortening dot), all ten at one size and weight, each inside its card."""
    from client.core import theme
    from lang import i18n
    i18n.use(lang)
    try:
        rw = max(280, min(340, W * 0.25))
        track = ActionTrack()
        track.set_rect(0, 180, W - rw, 56)                # as GameScene.on_layout places it
        actions = ["deploy5", "deploy3", "deploy1", "battle_a", "battle_b", "palace",
                   "temple", "theatre", "rice", "tax"]
        track.set_track(actions)
        track.rebuild()
        names = [track.texts.labels[("a", k)] for k in range(10)]
        assert [t.text for t in names] == [theme.ACTION_SHORT[a] for a in actions], \
            f"{W}x{H} {lang}: {[t.text for t in names]}"
        assert len({(round(t.font_size, 2), t.bold) for t in names}) == 1, \
            f"{W}x{H} {lang}: {[(t.text, t.font_size, t.bold) for t in names]}"
        for k, t in enumerate(names):
            x, w = track.card_x(k)
            assert x - 0.5 <= t.left and t.right <= x + w - 4 + 0.5, (t.text, W, lang)
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("W,H", WINDOWS)
def test_the_events_heading_is_whole(app, lang, W, H):
    """Issue 49 item 2: at 960x640 the Romanian events heading was cut, "Evenimentele
    anului (dreapta: pierderea de…": it says its head whole instead."""
    from client.game.table_view import EventsPanel
    from lang import i18n
    i18n.use(lang)
    try:
        rw = max(280, min(340, W * 0.25))
        panel = EventsPanel()
        panel.set_rect(W - rw, 200, rw, 120)
        panel.set_events(1, "spring", [3, 8, 12, 5], 3)
        panel.rebuild()
        t = panel.texts.labels.get("h2")
        if t is None:
            # the head gives its room to an event line that needs two (issue 49 item 3,
            # tests/client/game/test_events_fit.py): then that is why it is absent
            assert any(getattr(label, "multiline", False)
                       for key, label in panel.texts.labels.items()
                       if isinstance(key, tuple) and key[0] == "e"), (W, lang)
        else:
            assert "…" not in t.text and t.right <= panel.right - 8 + 0.5, (W, lang, t.text)
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", ["en", "nl", "ro"])
@pytest.mark.parametrize("W,H", WINDOWS)
def test_the_bid_fields_chests_are_whole(app, W, H, lang):
    """Issue 49 (round three, the first-hour screenshots): at 1280x800 in Dutch the bid
    field read "0 geldkist…" (the eleven fields in one row leave it 80 px). Every money
    card on the bid field: its words whole, inside the field, under its label, not
    under 11 px."""
    from client.core import theme
    from client.core.card_facts import chests
    from client.game.plan_panel import FIELDS, PlanningPanel
    from lang.i18n import use
    use(lang)
    try:
        rw = max(280, min(340, W * 0.25))
        bottom_h = 220 if H >= 700 else 190
        panel = PlanningPanel()
        panel.set_rect(0, 0, W - rw, bottom_h - 58)
        panel.start(0, HAND, 4, lambda actions, bid: [])
        k = FIELDS.index("bid")
        for money in range(5):
            panel.fields["bid"] = money
            panel.rebuild()
            t, label = panel.texts.labels[("fc", k)], panel.texts.labels[("fl", k)]
            l, b, w, h = panel.field_rect(k)
            where = f"{W}x{H} {lang} {money}"
            assert t.text.replace("\n", " ") == chests(money), (where, t.text)
            assert _inside(t, l, b, l + w, b + h, slack=0.5), (where, t.text)
            assert t.top <= label.bottom + 1, (where, "runs into the field's name")
            assert t.font_size >= theme.SMALLEST_TYPE, (where, t.font_size)
    finally:
        use("en")
