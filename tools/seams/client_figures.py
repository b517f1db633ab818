"""The figures issue 35 sets for client/: string-keyed reads of events that mypy does not
check, imports inside functions, and the longest functions and modules.

Why a script: the targets ("at most 15 string-keyed event reads left in client/", "at
most 30 imports inside functions in client", "no product function over 120 lines") are
counted the same way before and after a change.

An *event read* is `x["key"]` or `x.get("key", ...)` whose receiver mypy types as an
event. `sim.events` declares a `TypedDict` per event, so a read on a narrowed record
(`e["slot"]` where `e: ev.ActionStarted`) names a key mypy checks: it is counted as
*checked*. A read on the client's untyped event aliases (`Event = Mapping[str, Any]` in
client/sessions/interface.py and client/scenes/end_record.py) is *unchecked*, and so is
a read of the name itself (`x["event"]`, `x.get("event")`) or of a key only events have
(declared by a `sim.events` record and by none of `sim.snapshot`'s public views) on
anything not typed as a record (`Any`, `Mapping[str, Any]`, `dict`): those are the
figure the target is about. The receiver's type comes from mypy's own type map, not
from guessing names. A read of a key events share with the public state (`seat`,
`province`, `year`) on an untyped receiver not named `Event` is not counted: the
script cannot tell it from a read of the board. The key rule is not applied in
`OTHER_RECORDS`, modules whose untyped reads are of other records that share key names
with events (the lobby and start info, a decision's details, settings, the end summary).

With --patches: how often the board would differ from the engine's public view after
each event (`sim.viewed.apply_viewed`), province by province, over whole seeded bot games,
(a) if it were patched by hand from the public state before the step
(client/sessions/display_patches.py: what the table did before issue 35 item 2, and still
does for a game log, which has no engine steps) and (b) as the table shows it now: the
views a `LocalSession` queues with each batch (`client.sessions.interface.Batch`), with
how many of the engine steps' batches carry them.

Run: .venv/bin/python tools/seams/client_figures.py [--list] [--patches]   (about 30 s: a mypy build)
"""

from __future__ import annotations

import ast
import os
import sys
import typing
from typing import Any
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CLIENT = ROOT / "client"
OTHER_RECORDS = {
    "client/scenes/lobby_scene.py", "client/scenes/menu.py", "client/sessions/network.py",
    "client/session_factory.py", "client/core/settings.py",     # lobby, start info, options
    "client/game/asking.py", "client/game/status_lines.py",     # a decision's details
    "client/scenes/end_scene.py",                                # the end screen's summary
    "client/words/table_names.py",                               # the lobby's seats
}
UNTYPED_EVENT_ALIASES = ("client.sessions.interface.Event", "client.scenes.end_record.Event")


def event_keys() -> set[str]:
    from sim import events
    keys: set[str] = set()
    for name in (*events.EVENT_NAMES, "TowerReplay"):
        keys |= set(typing.get_type_hints(getattr(events, name)))
    return keys


def public_keys() -> set[str]:
    from sim import snapshot
    keys: set[str] = set()
    for name in ("PublicState", "ProvinceView", "PlayerView", "TowerView"):
        keys |= set(typing.get_type_hints(getattr(snapshot, name)))
    return keys


def event_reads() -> tuple[list[str], list[str]]:
    """(unchecked, checked) event reads, each as 'path:line key'."""
    from mypy import build
    from mypy.find_sources import create_source_list
    from mypy.nodes import CallExpr, Expression, IndexExpr, MemberExpr, StrExpr
    from mypy.options import Options
    from mypy.server.subexpr import get_subexpressions
    from mypy.types import (AnyType, Instance, Type, TypeAliasType, TypedDictType, UnionType,
                            get_proper_type)

    options = Options()
    options.export_types = True
    options.preserve_asts = True
    options.incremental = False
    options.python_version = (3, 11)
    options.explicit_package_bases = True
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = build.build(create_source_list(["client"], options), options)
    finally:
        os.chdir(cwd)

    def is_record(t: Type) -> bool:
        p = get_proper_type(t)
        if isinstance(p, TypedDictType):
            return p.fallback.type.fullname.startswith("sim.events.")
        if isinstance(p, UnionType):
            return bool(p.items) and all(is_record(i) for i in p.items)
        return False

    def untyped_alias(t: Type | None) -> bool:
        return isinstance(t, TypeAliasType) and t.alias is not None \
            and t.alias.fullname in UNTYPED_EVENT_ALIASES

    def untyped(t: Type) -> bool:
        p = get_proper_type(t)
        if isinstance(p, AnyType):
            return True
        if isinstance(p, UnionType):
            return any(untyped(i) for i in p.items)
        return isinstance(p, Instance) and p.type.fullname in (
            "builtins.dict", "typing.Mapping", "collections.abc.Mapping") \
            and bool(p.args) and isinstance(get_proper_type(p.args[-1]), AnyType)

    only_events = event_keys() - public_keys()
    unchecked: list[str] = []
    checked: list[str] = []
    for module, state in sorted(result.graph.items()):
        if not (module == "client" or module.startswith("client.")) or state.tree is None:
            continue
        path = os.path.relpath(state.xpath, ROOT)
        for node in get_subexpressions(state.tree):
            base: Expression | None = None
            if isinstance(node, IndexExpr) and isinstance(node.index, StrExpr):
                base, key = node.base, node.index.value
            elif isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr) \
                    and node.callee.name == "get" and node.args \
                    and isinstance(node.args[0], StrExpr):
                base, key = node.callee.expr, node.args[0].value
            if base is None:
                continue
            t = result.types.get(base)
            where = f"{path}:{node.line} {key}"
            if t is not None and is_record(t):
                checked.append(where)
            elif untyped_alias(t) or key == "event" or (key in only_events and t is not None and untyped(t)
                                                          and path not in OTHER_RECORDS):
                unchecked.append(where)
    return unchecked, checked


def inner_imports() -> list[str]:
    """Imports inside a function (or method) in client/, as 'path:line'."""
    found = []
    for path in sorted(CLIENT.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return sorted(set(found))


def longest_functions(n: int = 8) -> list[tuple[int, str]]:
    sizes = []
    for path in sorted(CLIENT.rglob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text())):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (fn.end_lineno or fn.lineno) - fn.lineno + 1
                sizes.append((lines, f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name}"))
    return sorted(sizes, reverse=True)[:n]


def longest_modules(n: int = 8) -> list[tuple[int, str]]:
    sizes = [(len(p.read_text().splitlines()), str(p.relative_to(ROOT)))
             for p in CLIENT.rglob("*.py")]
    return sorted(sizes, reverse=True)[:n]


def patch_divergence(games: int = 3) -> tuple[int, int, int, int]:
    """(steps, province checks, checks that differ, steps with a difference) over `games`
    whole 4-player bot games: after each event, every province of the patched copy
    against the engine's view."""
    import copy

    from client.sessions import display_patches as patches
    from sim.game import GameConfig
    from sim.local import LocalGame
    from sim.snapshot import public_state
    from sim.viewed import apply_viewed

    steps = checks = wrong = wrong_steps = 0
    for seed in range(games):
        game = LocalGame(GameConfig(4, "sun", "beginner"), seed, dict.fromkeys(range(4), "normal"))
        while (cmd := game.automatic_command()) is not None:
            before = game.state
            _after, events, views = apply_viewed(before, cmd)
            game.submit(cmd)
            shown = copy.deepcopy(public_state(before))
            differs = False
            for e, view in zip(events, views):
                if e["event"] == "ProvinceClaimed" or e["event"] == "Moved" \
                        or e["event"] == "ActionDone":
                    patches.patch_board(shown, e)
                elif e["event"] == "BattleResolved":
                    patches.resolve_battle(shown, e)
                elif e["event"] == "ActionStarted" or e["event"] == "ActionRevealed":
                    patches.turn_action(shown, e)
                elif e["event"] == "YearStarted":
                    patches.start_year(shown, e)
                elif e["event"] == "Snapshot":
                    shown = copy.deepcopy(e["state"])
                for name, province in view["provinces"].items():
                    checks += 1
                    if shown["provinces"][name] != province:
                        wrong += 1
                        differs = True
            steps += 1
            wrong_steps += differs
    return steps, checks, wrong, wrong_steps


def session_divergence(games: int = 3) -> tuple[int, int, int, int]:
    """(batches of engine steps, those with views, province checks, checks that differ)
    over `games` whole 4-player bot games played by a `LocalSession`: the board its
    batches give the table after each event against the engine's view, computed apart."""
    from client.sessions.local import LocalSession
    from sim.game import new_game
    from sim.viewed import apply_viewed

    batches = viewed = checks = wrong = 0
    for seed in range(games):
        session = LocalSession(4, "sun", "beginner", (), "normal", seed)
        while session.pump():
            pass
        state, _first = new_game(session.config)
        session.queue.popleft()                   # the set-up: no engine step
        for command, batch in zip(session.commands, session.queue):
            state, events, views = apply_viewed(state, command)
            batches += 1
            if batch.views is None:
                continue
            viewed += 1
            for shown, view in zip(batch.views, views):
                for name, province in view["provinces"].items():
                    checks += 1
                    wrong += shown["provinces"][name] != province
    return batches, viewed, checks, wrong


def main() -> None:
    if "--patches" in sys.argv:
        steps, checks, wrong, wrong_steps = patch_divergence()
        print(f"a board patched by hand (display_patches.py) against the engine's view after "
              f"each event: {wrong} of {checks} province checks differ, in {wrong_steps} of "
              f"{steps} steps")
        batches, viewed, checks, wrong = session_divergence()
        print(f"the board a local session's batches give the table: {viewed} of {batches} "
              f"engine steps carry the engine's views; {wrong} of {checks} province checks differ")
        return
    listing = "--list" in sys.argv
    unchecked, checked = event_reads()
    print(f"string-keyed event reads in client/ that mypy does not check: {len(unchecked)}")
    by_module = Counter(w.split(":")[0] for w in unchecked)
    for path, count in by_module.most_common():
        print(f"  {count:3}  {path}")
    if listing:
        for where in unchecked:
            print(f"       {where}")
    print(f"reads of sim.events records (keys checked by mypy): {len(checked)}")
    imports = inner_imports()
    print(f"imports inside functions in client/: {len(imports)}")
    if listing:
        for where in imports:
            print(f"       {where}")
    print("longest functions in client/ (lines):")
    for lines, name in longest_functions():
        print(f"  {lines:4}  {name}")
    print("longest modules in client/ (lines):")
    for lines, name in longest_modules():
        print(f"  {lines:4}  {name}")


if __name__ == "__main__":
    main()
