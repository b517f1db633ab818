"""Playing the session's event batches onto the table, one event at a time at a readable
pace: the log line, the board patched by `Moved`/`ActionDone`/`BattleResolved`, a tower
drop handed to the battle view, banners, winter scoring, the end. A mixin of `GameScene`;
it only shows what the engine did (the display state is a copy of the public state)."""

from __future__ import annotations

from client.core import theme
from client.words.describe import describe
from client.words.sentences import plural
from lang.i18n import _, ngettext

# seconds an event holds the stage at speed 1
PACE = {"ActionDone": 0.45, "ActionLapsed": 0.35, "Moved": 0.5, "BattleResolved": 2.2,
        "ActionStarted": 0.5, "ActionRevealed": 0.3, "TurnOrderSet": 0.9, "EventDrawn": 0.9, "RoundStarted": 0.8,
        "YearStarted": 1.2, "WinterStarted": 1.5, "Shortage": 1.2, "Scored": 0.9,
        "PlanRevealed": 0.25, "GameEnded": 1.0}


class EventPlaying:
    def _play_event(self, e: dict) -> None:
        from sim.snapshot import public_state  # noqa: F401  (import check only)
        k = e.get("event")
        self.playing_event = e
        if k == "TowerDropped":
            self.screenshot_hook.emit("tower_coming")   # tests may slow down for this drop
        if self.battle.active and k != "BattleResolved":
            self.battle.end()          # the result has been shown: back to the table
        line = describe(e)
        if line and k == "TowerDropped" and e.get("replay"):
            self.drop_line = line      # what came out: logged once the cubes have landed
            line = None
        if line:
            colour = theme.INK
            if k in ("BattleResolved", "Shortage"):
                colour = (150, 40, 30)
            elif k in ("YearStarted", "RoundStarted", "WinterStarted", "GameEnded"):
                colour = (30, 70, 140)
            self.log.add(line, colour)
        self.wait = PACE.get(k, 0.0)
        d = self.display
        if k == "Snapshot" and isinstance(e.get("state"), dict):
            self._set_display(e["state"])
        elif k == "ProvinceClaimed" and d:
            d["provinces"][e["province"]].update(owner=e["seat"], armies=e["armies"])
            self.board_view.set_state(d)
        elif k == "Moved" and d:
            d["provinces"][e["from"]]["armies"] -= e["count"]
            to = d["provinces"][e["to"]]
            if to.get("owner") == e["seat"]:
                to["armies"] += e["count"]
            self.board_view.set_state(d)
        elif k == "ActionDone" and d and e.get("armies_placed"):
            d["provinces"][e["province"]]["armies"] += e["armies_placed"]
            self.board_view.set_state(d)
        elif k in ("ActionStarted", "ActionRevealed"):
            if k == "ActionStarted":
                self.current_slot = e.get("slot")
            if d:
                acts = list(d.get("actions") or [None] * 10)
                acts[e["slot"] - 1] = e["action"]
                d["actions"] = acts
            self.track.set_track(d.get("actions") if d else None, self.current_slot, "")
        elif k == "RoundStarted":
            self.current_slot = None
        elif k == "TowerDropped":
            self._drop(e, self.battle.start(e, self.batch, self.display))
        elif k == "BattleResolved":
            self._battle_banner(e)
            if not self.fast:
                self.sounds.play("sting")
            if d:
                p = d["provinces"][e["province"]]
                p["owner"] = e.get("new_owner")
                p["armies"] = e.get("survivors", 0) if e.get("new_owner") is not None else 0
                if e.get("new_owner") is None:
                    p["buildings"], p["unrest"] = [], 0
                self.board_view.set_state(d)
            self.screenshot_hook.emit("battle")
        elif k == "WinterStarted":
            self.banner.show([_("Winter of year {year}").format(year=e["year"]),
                              _("Everyone loses {n} rice; shortages cause revolts.").format(n=e["rice_loss"])],
                             2.5 / max(1.0, self.speed), colour=(40, 60, 90))
        elif k == "Shortage":
            self.banner.show([_("{seat}: rice shortage {n}").format(seat=theme.seat_name(e["seat"]), n=e["shortage"]),
                              ngettext("{n} revolt: {provinces}", "{n} revolts: {provinces}", e["revolts"]).format(
                                  n=e["revolts"], provinces=", ".join(e.get("drawn", []) or []))],
                             2.0 / max(1.0, self.speed), colour=(90, 50, 30))
        elif k == "Scored":
            self.score_history.setdefault(e["seat"], [0]).append(e["score"])
            self.scoring.append(e)
            if not any(x.get("event") == "Scored" for x in self.batch):
                last = any(x.get("event") == "GameEnded" for x in self.batch)
                self.winter.show(self.scoring, last)
                self._scoring_banner()
        elif k == "GameEnded":
            self.over = True
            self.standings = e
            self.sounds.play("ended")
        if self.fast:
            self.wait = 0.0

    def _finish_batch(self) -> None:
        from sim.game import public_state
        self.battle.end()
        if self.replay_controls is not None:
            self.replay_controls.batch_done()
        state, self.batch_state = self.batch_state, None
        if state is None:          # a replayed log: no engine state, the Snapshots rule
            if self.over and self.standings is not None and not self.session.queue:
                self.ended.emit(self._summary())
            return
        self._set_display(public_state(state))
        if self.over and self.standings is not None and not self.session.queue:
            self.ended.emit(self._summary())

    def _set_display(self, pub: dict) -> None:
        import copy
        self.display = copy.deepcopy(pub)
        d = self.display
        self.board_view.set_state(d)
        if hasattr(self.session, "labels"):     # a network table: names and bot seats change
            self.labels = self.session.labels() or self.labels
        self.players.set_state(d, self.labels, notes=self.notes, active=self._active_seats(),
                               me=self.session.my_seats)
        self.track.set_track(d.get("actions"), self.current_slot, d.get("season") or "")
        self.track.set_marks(d.get("current_event"), d.get("players"))
        self.events_panel.set_events(d.get("year"), d.get("season"), d.get("events"),
                                     d.get("current_event"))
        tower = d.get("tower") or {}
        self.tower.set_tray(tower.get("tray"))
        self._topbar()
        self._info()

    def _drop(self, e: dict, caption: str) -> None:
        rep = e.get("replay")
        if not rep:
            return
        from sim.tower import drop as tower
        res = tower.drop(tower.TowerContents.from_wire(rep["before"]),
                         {int(c): int(n) for c, n in rep["thrown"]},
                         bytes.fromhex(rep["seed"]), record=True)
        self.last_drop = (rep, res)
        self.tower.set_tray({})
        self.tower.play(res.recording, caption)
        self.screenshot_hook.emit("tower_start")
        if self.fast:
            self.tower.skip()

    def _on_tower_finished(self) -> None:
        if self.drop_line:
            self.log.add(self.drop_line, theme.INK)
            self.drop_line = None
        self.screenshot_hook.emit("tower_end")

    def _scoring_banner(self) -> None:
        year = (self.display or {}).get("year", "")
        lines = [_("Winter scoring — year {year}").format(year=year)]
        for e in sorted(self.scoring, key=lambda x: -x.get("gained", 0)):
            # the majorities are marked on the map (client/game/winter_show.py); here the sums
            lines.append(_("{seat} +{gained} (now {score}): {provinces}, {buildings}, "
                           "{majority} for majorities").format(
                seat=theme.seat_name(e["seat"]), gained=e["gained"], score=e["score"],
                provinces=plural(e["provinces"], "province"), buildings=plural(e["buildings"], "building"),
                majority=e.get("majority_points", 0)))
        self.scoring = []
        i = self.info                   # below the map (the marks are on it), over the info panel
        self.banner.set_rect(i.left, i.bottom, i.width, i.height)
        self.banner.show(lines, 4.0 / max(1.0, self.speed if not self.fast else 1.0),
                         colour=(35, 55, 45))
        self.wait = max(self.wait, 3.0)

    def _battle_banner(self, e: dict) -> None:
        prov = e.get("province")
        kind = e.get("kind")
        head = (_("Revolt in {province}") if kind == "revolt" else
                _("Attack on a neutral province in {province}") if kind == "neutral" else
                _("Battle in {province}")).format(province=prov)
        att, dfn = e.get("attacker"), e.get("defender")
        res = e.get("result")
        winner = {"attacker": theme.seat_name(att), "defender": theme.seat_name(dfn)}.get(res, "")
        owner = e.get("new_owner")
        n = int(e.get("survivors", 0))
        lines = [head,
                 _("Out of the tower: {attacker} {a}  vs  {defender} {d}").format(
                     attacker=theme.seat_name(att), a=e.get("attacker_count"),
                     defender=theme.seat_name(dfn), d=e.get("defender_count")),
                 _("{seat} wins").format(seat=winner) if res != "draw" else _("A draw: the province falls empty"),
                 (ngettext("{n} army survives — {province} belongs to {seat}",
                           "{n} armies survive — {province} belongs to {seat}", n)
                  if owner is not None else
                  ngettext("{n} army survives — {province} is neutral",
                           "{n} armies survive — {province} is neutral", n)).format(
                     n=n, province=prov, seat=theme.seat_name(owner) if owner is not None else "")]
        self.banner.show(lines, 2.4 / max(1.0, self.speed if not self.fast else 1000),
                         colour=theme.mix((40, 30, 25), theme.seat_colour(att), 0.25))
