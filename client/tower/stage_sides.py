"""The two side panels of the battle stage (issue 36 item 1): beside the large tower, the
attacker on the left and the defender on the right, each with its name and colour, the
province, the armies it committed, the cubes it threw and what the cards, the tray and the
peasants add; in the middle the thrown cubes themselves (`handful_places`: its own, then
the added ones); under them, while the cubes land, the side's count so far in large type.

Why facts apart from drawing: `stage_sides` is pure (tests read it without a window),
`draw_side` draws one panel into the tower view's cached layer (it changes once per
battle); the live count is drawn by the tower view each frame it changes.

Tests: tests/client/tower/test_stage.py, tests/client/tower/test_stage_frames.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import arcade

from client.core import theme
from client.core.text_cache import TextCache
from client.tower.cube_textures import cube_face, cube_mark
from client.tower.tower_art import soft_shadow
from lang.i18n import _, ngettext
from sim import events as ev

PEASANT = 5


@dataclass(frozen=True)
class SideFacts:
    """One side of a battle as its panel says it."""
    code: int                        # the side's cube colour (5 = peasants)
    name: str                        # "Anna (Blue)", "Peasants"
    role: str                        # "Attacker" / "Defender"
    where: str                       # "from Kai", "holds Suruga", "in Shima"
    committed: int                   # own cubes thrown (armies, or the revolt's peasants)
    thrown: int                      # every cube of the side's colour thrown, tray included
    adds: tuple[str, ...] = field(default_factory=tuple)   # "+1 from the attack card", ...


def _n(d: Mapping[str, int] | None, k: object) -> int:
    return int((d or {}).get(str(k), 0) or 0)


def _code(v: int | str | None) -> int:
    return PEASANT if v is None or v in ("peasant", PEASANT) else int(v)


def _name(code: int, labels: Mapping[int, str]) -> str:
    if code == PEASANT:
        return _("Peasants")
    label = labels.get(code)
    return label or theme.seat_name(code)


def stage_sides(dropped: ev.TowerDropped, battle: ev.BattleResolved | None, origin: str | None,
                tray_before: Mapping[str, int] | None, labels: Mapping[int, str] | None = None
                ) -> tuple[SideFacts, SideFacts] | None:
    """The attacker's and the defender's panels for a battle's drop (None: not a battle,
    e.g. the tower's fill). Their numbers add up to the handful the log names: a side's
    `thrown` = `committed` + its card cubes + its colour's cubes from the tray."""
    if battle is None:
        return None
    labels = labels or {}
    thrown = {str(k): v for k, v in (dropped.get("thrown") or {}).items()}
    tray = {str(k): min(_n(tray_before, k), _n(thrown, k)) for k in (tray_before or {})}
    kind, where = battle.get("kind"), str(battle.get("province"))
    att, dfn = _code(battle.get("attacker")), _code(battle.get("defender"))
    if kind == "neutral":
        dfn = PEASANT
    peasants_in_tray = _n(tray, "peasant")
    no_unrest = not int(battle.get("unrest", 0) or 0)

    def side(code: int, role: str, place: str, cards: list[tuple[int, str]]) -> SideFacts:
        key = "peasant" if code == PEASANT else str(code)
        total = _n(thrown, key)
        from_tray = _n(tray, key)
        extra = sum(n for n, _w in cards)
        adds = [text.format(n=n) for n, text in cards if n > 0]
        if from_tray:
            adds.append(ngettext("+{n} cube from the tray", "+{n} cubes from the tray",
                                 from_tray).format(n=from_tray))
        return SideFacts(code, _name(code, labels), role, place, max(0, total - from_tray - extra),
                         total, tuple(adds))

    if kind == "revolt":
        a = side(att, _("Attacker"), _("revolts in {province}").format(province=where), [])
        d = side(dfn, _("Defender"), _("holds {province}").format(province=where), [])
        return a, d
    a = side(att, _("Attacker"),
             _("from {province}").format(province=origin) if origin else _("attacks {province}").format(province=where),
             [(int(battle.get("attack_card", 0) or 0), _("+{n} from the attack card"))])
    cards = [(int(battle.get("defence_card", 0) or 0), _("+{n} from the defence card")),
             (int(battle.get("palace_event", 0) or 0), _("+{n} for the castle (event)"))]
    d = side(dfn, _("Defender"), _("holds {province}").format(province=where), cards)
    if dfn != PEASANT and peasants_in_tray:          # the tray's peasants: whose are they?
        note = (ngettext("{n} peasant from the tray counts for the defender",
                         "{n} peasants from the tray count for the defender", peasants_in_tray)
                if no_unrest else
                ngettext("{n} peasant from the tray counts for no one (unrest)",
                         "{n} peasants from the tray count for no one (unrest)", peasants_in_tray))
        d = SideFacts(d.code, d.name, d.role, d.where, d.committed, d.thrown,
                      d.adds + (note.format(n=peasants_in_tray),))
    return a, d


def committed_line(f: SideFacts) -> str:
    if f.code == PEASANT:
        return ngettext("{n} peasant thrown in", "{n} peasants thrown in", f.committed).format(n=f.committed)
    return ngettext("{n} army committed", "{n} armies committed", f.committed).format(n=f.committed)


def draw_side(texts: TextCache, key: str, f: SideFacts, rect: tuple[float, float, float, float],
              k: float) -> list[tuple[int, float, float, float]]:
    """One side's panel in `rect` (left, bottom, width, height) at type scale k; returns
    where it drew the side's thrown cubes (the handful is gathered from there)."""
    left, bottom, width, height = rect
    colour = theme.seat_colour("peasant" if f.code == PEASANT else f.code)
    top = bottom + height
    draw_bevelled(rect, k, colour)
    ink, pale = (255, 244, 222), (226, 210, 186)
    pad = 12 * k
    mark = 40 * k                       # the side's mark: its cube, large, top right
    for tex in (cube_face(f.code), cube_mark(f.code)):
        arcade.draw_texture_rect(tex, arcade.XYWH(left + width - pad - mark / 2, top - 14 * k - mark / 2,
                                                  mark, mark))
    text_w = int(width - 3 * pad - mark)
    y = top - 18 * k
    texts.put((key, "role"), f.role.upper(), left + pad, y, size=11 * k, bold=True, color=pale,
              anchor_y="top")
    y -= 20 * k
    t = texts.put((key, "name"), f.name, left + pad, y, size=17 * k, bold=True, color=ink,
                  anchor_y="top", width=text_w, multiline=True)
    y -= t.content_height + 4 * k
    t = texts.put((key, "where"), f.where, left + pad, y, size=17 * k, color=(255, 226, 170),
                  bold=True, anchor_y="top", width=int(width - 2 * pad), multiline=True)
    y -= t.content_height + 10 * k
    for j, line in enumerate((committed_line(f), *f.adds)):
        t = texts.put((key, "l", j), line, left + pad, y, size=12 * k, color=pale if j else ink,
                      bold=j == 0, anchor_y="top", width=int(width - 2 * pad), multiline=True)
        y -= t.content_height + 5 * k
    t = texts.put((key, "thrown"), ngettext("{n} cube into the tower", "{n} cubes into the tower",
                                            f.thrown).format(n=f.thrown),
                  left + pad, y - 2 * k, size=12 * k, color=ink, anchor_y="top",
                  width=int(width - 2 * pad), multiline=True)
    y -= t.content_height + 10 * k
    count_b, count_h = bottom + 4 * k, 0.0
    places = handful_places(f, (left + pad, count_b + count_h + 6 * k, width - 2 * pad,
                                y - (count_b + count_h + 6 * k)), k)
    for code, x, yy, size in places:       # the thrown cubes: drawn by the tower view
        arcade.draw_texture_rect(soft_shadow(), arcade.XYWH(x + size * 0.12, yy - size * 0.2,
                                                            size * 1.3, size * 0.9))
        arcade.draw_lbwh_rectangle_outline(x - size / 2, yy - size / 2, size, size, (90, 74, 60), 1)
    if 0 < f.committed < len(places):        # the "+" between its own cubes and the added ones
        _c, ax, ay, size = places[f.committed - 1]
        _c, bx, by, _s = places[f.committed]
        x, yy = ((ax + bx) / 2, by) if ay == by else (ax + size * 1.25, ay)
        texts.put((key, "plus"), "+", x, yy, size=max(9.0, size * 0.6), bold=True, color=pale,
                  anchor_x="center", anchor_y="center")
    return places


def handful_places(f: SideFacts, box: tuple[float, float, float, float], k: float
                   ) -> list[tuple[int, float, float, float]]:
    """The side's thrown cubes drawn in the panel's middle (issue 36 item 4: it was empty
    at large sizes): its own cubes, a gap, then what the cards and the tray added; as
    large as the box lets them be (at most 34 px at type scale 1), in rows, centred in
    the box (left, bottom, width, height). Empty when they would be smaller than 9 px.
    Each is (colour code, x, y, size)."""
    left, bottom, width, height = box
    n = f.thrown
    if n <= 0 or width <= 0 or height <= 0:
        return []
    gapped = f.committed and n > f.committed        # one slot's gap before the extra cubes
    slots = n + (1 if gapped else 0)
    size = 34.0 * k
    while size >= 9:
        per = max(1, int(width // (size * 1.25)))
        rows = -(-slots // per)
        if rows * size * 1.25 <= height:
            break
        size -= 1
    else:
        return []
    step = size * 1.25
    per = max(1, int(width // step))
    rows = -(-slots // per)
    top = bottom + height / 2 + rows * step / 2 - step / 2
    out = []
    slot = 0
    for j in range(n):
        if gapped and j == f.committed:
            slot += 1
        row, col = divmod(slot, per)
        in_row = min(per, slots - row * per)
        x0 = left + width / 2 - in_row * step / 2 + step / 2
        out.append((f.code, x0 + col * step, top - row * step, size))
        slot += 1
    return out


def draw_bevelled(rect: tuple[float, float, float, float], k: float,
                  colour: tuple[int, int, int] | tuple[int, int, int, int]) -> None:
    """A panel of lacquered wood: its shadow on the table, a lit top-left edge and a
    shaded bottom-right one, the side's colour as a band along its top."""
    left, bottom, width, height = rect
    top, right = bottom + height, left + width
    arcade.draw_lrbt_rectangle_filled(left + 6 * k, right + 6 * k, bottom - 6 * k, top - 6 * k, (0, 0, 0, 90))
    arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, (44, 34, 29, 240))
    arcade.draw_lrbt_rectangle_filled(left, right, bottom + height * 0.5, top, (255, 230, 190, 10))
    bev = max(2.0, 3 * k)
    arcade.draw_lrbt_rectangle_filled(left, right, top - bev, top, (150, 120, 90))
    arcade.draw_lrbt_rectangle_filled(left, left + bev, bottom, top, (120, 96, 72))
    arcade.draw_lrbt_rectangle_filled(left, right, bottom, bottom + bev, (22, 16, 14))
    arcade.draw_lrbt_rectangle_filled(right - bev, right, bottom, top, (26, 20, 16))
    arcade.draw_lrbt_rectangle_filled(left + bev, right - bev, top - bev - 8 * k, top - bev, colour)


LabelsFn = Callable[[], Mapping[int, str]]
