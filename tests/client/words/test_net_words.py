"""The network's sentences reach players in their language (client/words/net_words.py).

Every sentence net/ can hand to the window — a refusal (`Admission`, a `Refused` message,
`refused`/`on_refused`), a pause (`on_paused`), a ValueError of a method the window calls, the
start check's unreachable pairs and seat moves, the router's advice — is collected from the
source by an AST walk, and each must have a shape in `client.words.net_words` that says it again in
Dutch and Romanian. A new sentence in net/ without a shape fails here."""

from __future__ import annotations

from net.table.options import TableOptions
import ast
from pathlib import Path

import pytest

from client.words import net_words
from lang import i18n
from net.reach import portmap

ROOT = Path(__file__).resolve().parents[3]
NET = ROOT / "net"

# calls whose string arguments are sentences for a player
SENTENCE_CALLS = {"ValueError", "PakeError", "PortMapError", "AddressError", "SaveError", "Admission", "OwnSeat", "RendezvousError", "on_paused",
                  "on_refused", "refused", "_refuse", "_refuse_plain", "_try_again", "on_failed", "say",
                  "DoorError", "CodeError", "StartVerdict", "SeatingVerdict", "ClaimVerdict"}
# net modules whose ValueErrors never reach a window (wire checks, replay, the engine
# wrapper): file -> why
INTERNAL_FILES = {
    "beacon.py": "a programming error (secret length)",
    "engine.py": "checked by the window before a table is made",
    "start_mesh.py": "a malformed GameStarted from a peer: an offence, logged",
    "core.py": "(net/lockstep/core.py) submit/replay checks; the window submits only when asked, offences are logged",
    "recovery.py": "a resume file that does not match: logged by the resuming peer",
    "my_tables.py": "a damaged entry of this machine's own list: caught, said with its path",
    "replay_save.py": "a saved replay of this machine's own that does not read: caught by "
                      "FolderLink, kept in `passed_over` (the session replays from the folder)",
}
# functions whose sentences go to the headless runner's terminal, not a window
INTERNAL_FUNCTIONS = {("internet.py", "mapped"): "`map_port` prints the mapping for cli.runner",
                      ("secure_channel.py", "__init__"): "a programming error (key length): "
                      "the keys come from the key exchange"}
# values to put in an f-string's field when the field's source text says what it is
NUMBERS = ("seat", "len(", "port", "timeout", "wait", "MAX", "BYTES", "VERSION", "old", "new",
           "wrong", "pause", "WORDS")
SAMPLES = {"fixes": portmap.FIXES.format(port=7531)}


def _value(node: ast.AST, scope: ast.AST, module: ast.Module) -> list[str] | None:
    """The texts a string expression can be (fields filled with samples), or None when it is
    not a string built here."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out = [""]
        for part in node.values:
            if isinstance(part, ast.Constant):
                out = [o + str(part.value) for o in out]
            elif isinstance(part, ast.FormattedValue):
                out = [o + f for o in out for f in _field(part.value, scope, module)]
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _value(node.left, scope, module), _value(node.right, scope, module)
        if left is None and right is None:
            return None
        return [a + b for a in (left or ["Aiko"]) for b in (right or ["Aiko"])]
    if isinstance(node, ast.IfExp):
        return (_value(node.body, scope, module) or []) + (_value(node.orelse, scope, module) or [])
    if isinstance(node, ast.List):
        return [t for e in node.elts for t in (_value(e, scope, module) or [])]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "join" and node.args and isinstance(node.args[0], ast.GeneratorExp):
        return _value(node.args[0].elt, scope, module)
    if isinstance(node, ast.Name):
        found = []
        for where in (scope, module):
            for a in ast.walk(where):
                if isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id
                                                     for t in a.targets):
                    found += _value(a.value, scope, module) or []
            if found:
                return found
    return None


def _field(expr: ast.AST, scope: ast.AST, module: ast.Module) -> list[str]:
    source = ast.unparse(expr)
    if source in SAMPLES:
        return [SAMPLES[source]]
    if isinstance(expr, ast.IfExp):
        return _value(expr, scope, module) or ["Aiko"]
    if any(word in source for word in NUMBERS):
        return ["3"]
    return ["Aiko"]


def _nodes_by_function(module: ast.Module):
    """(innermost enclosing function, node) for every node inside a function."""
    def visit(node: ast.AST, scope):
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else scope
            if inner is not None:
                yield inner, child
            yield from visit(child, inner)
    yield from visit(module, None)


def net_sentences() -> list[tuple[str, int, str]]:
    """(file, line, sentence) for every sentence net/ can hand to a player."""
    found = []
    for path in sorted(NET.rglob("*.py")):
        if path.name in INTERNAL_FILES:
            continue
        module = ast.parse(path.read_text())
        for scope, node in _nodes_by_function(module):
            if (path.name, scope.name) in INTERNAL_FUNCTIONS:
                continue
            args: list[ast.expr] = []
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name in SENTENCE_CALLS and node.args:
                    args = [node.args[-1]]
                if name == "append" and scope.name == "unreachable_pairs":
                    args = node.args
            elif isinstance(node, ast.Dict):   # {"type": "Refused", "reason": ...} on the wire
                keys = [k.value if isinstance(k, ast.Constant) else None for k in node.keys]
                if "reason" in keys and any(isinstance(v, ast.Constant) and v.value == "Refused"
                                            for v in node.values):
                    args = [node.values[keys.index("reason")]]
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr == "refusal" for t in node.targets):
                args = [node.value]
            for arg in args:
                for text in _value(arg, scope, module) or []:
                    found.append((path.name, node.lineno, text))
    return sorted(set(found))


def test_the_collector_finds_the_kinds_of_sentence_it_looks_for():
    """It must not pass by finding nothing: each kind of sentence is there."""
    texts = [t for _f, _l, t in net_sentences()]
    for wanted in ("join refused: the table is full", "only the host starts, once",
                   "lost the connection to the peer we were watching",
                   "Every player has locked their plan, so yours can no longer be changed.",
                   "the host left before the game started", "join refused: the join code is wrong"):
        assert wanted in texts
    assert any("cannot reach each other" in t for t in texts)
    assert any(t.startswith("No router answered") and "forward TCP port 7531" in t for t in texts)
    assert any(t.startswith("seats changed so that") and "takes seat 3" in t for t in texts)
    assert len(texts) > 60


@pytest.fixture(params=["nl", "ro"])
def language(request):
    assert i18n.use(request.param) == request.param
    yield request.param
    i18n.use("en")


def test_every_net_sentence_has_a_shape():
    missing = [(f, line, t) for f, line, t in net_sentences() if net_words.said(t) is None]
    assert not missing, "\n".join(f"{f}:{line}: {t}" for f, line, t in missing)


def test_every_net_sentence_is_said_again_in_each_language(language):
    same = [(f, line, t) for f, line, t in net_sentences() if net_words.for_players(t) == t]
    assert not same, "\n".join(f"{f}:{line}: {t}" for f, line, t in same)


def test_every_shape_is_translated(language):
    from lang.i18n import _, ngettext
    untranslated = []
    for shape in net_words.SHAPES:
        if isinstance(shape.message, tuple):
            said = [ngettext(*shape.message, n) for n in (1, 2, 20)]
            english = [shape.message[0], shape.message[1], shape.message[1]]
        else:
            said, english = [_(shape.message)], [shape.message]
        if said == english:
            untranslated.append(shape.message)
    assert not untranslated


def test_names_numbers_and_inner_reasons_are_kept(language):
    text = net_words.for_players("join refused: seat 2 is already connected")
    assert "2" in text and "seat 2 is already connected" not in text
    assert not text.startswith("join refused")
    moved = net_words.for_players("seats changed so that every pair can connect: "
                                  "Aiko takes seat 0, Bram takes seat 2")
    assert "Aiko" in moved and "Bram" in moved and "takes seat" not in moved
    differs = net_words.for_players("cannot join: rules differs: yours 1.2, table 1.3; "
                                    "protocol differs: yours 4, table 5")
    assert "1.2" in differs and "5" in differs and "differs" not in differs


def test_an_unknown_sentence_stays_as_it_came(language):
    for text in ("the moon fell on the table", "", "join refused", "seat x; y, z"):
        assert net_words.for_players(text) == text
    assert net_words.for_players(None) == "None"       # never raises
    unknown_inner = net_words.for_players("join refused: something new happened")
    assert unknown_inner.endswith("something new happened") and unknown_inner != \
        "join refused: something new happened"


def test_a_shapes_text_matches_only_as_written(language):
    """Patterns are made from the msgids: a dot, a bracket or a question mark in net's words
    is that character, not a regular expression's wildcard."""
    assert net_words.said("the address is empty; give HOST:PORT, e.g. 192.168.1.20:7531")
    assert net_words.said("the address is empty; give HOST:PORT, eXg. 192.168.1.20:7531") is None
    assert net_words.said("The router has no public address yet (not online!); x.") is None


def test_english_is_left_alone():
    i18n.use("en")
    assert net_words.for_players("join refused: the table is full") == "join refused: the table is full"


def test_sentences_net_builds_are_said_again(language):
    """Not only the AST's samples: sentences made by net's own functions, with real names,
    IPv6 addresses and version fields."""
    from net.transport.versions import version_differences
    from net.reach.reachability import Player, unreachable_pairs
    pairs = unreachable_pairs([Player(0, "Ann Lee", "2001:db8::1", 7531, False),
                               Player(1, "Bo", "203.0.113.9", 7600, False)])
    differs = version_differences({"protocol": "4", "rules": "2"}, {"protocol": "5", "rules": "3"})
    fixes = portmap.FIXES.format(port=7531)
    for text in [*pairs, f"cannot join: {differs}", f"join refused: {differs}",
                 f"The router has no public address yet (not online?); {fixes}."]:
        again = net_words.for_players(text)
        assert again != text
        assert not any(english in again for english in ("cannot reach", "differs", "forward TCP"))
    assert "[2001:db8::1]:7531" in net_words.for_players(pairs[0]) or \
        "2001:db8::1" in net_words.for_players(pairs[0])


def test_a_correspondence_proofs_sentences_are_said_again(language):
    """The sentences of expulsion by proof (net/correspondence/fork_proof.py), made by
    its own decision: an accepted proof, and each refusal with its reason inside."""
    from net.correspondence.fork_proof import ProofClaim, judge_proof
    from tests.net.correspondence.test_fork_proof import KEYS, PROOFS, R, TABLE, WRITER
    sentences = {judge_proof(TABLE, KEYS, ProofClaim(WRITER, accused, R[a], R[b])).sentence
                 for _case, accused, a, b, _e, _w in PROOFS}
    assert len(sentences) == 7
    english = ("signed two", "proves nothing", "twice", "not one number", "whole records",
               "another table", "did not sign", "no key", "expelled")
    for text in sentences:
        again = net_words.for_players(text)
        assert again != text
        assert not any(words in again for words in english), again


# -- the window says net's sentences again where it shows them ---------------------------

class _Table:
    """The callbacks a NetSession sets, and nothing else."""
    lobby: dict = {}


def test_a_refusal_and_a_pause_show_in_the_players_language(language):
    from client.sessions.network import NetSession
    table = _Table()
    session = NetSession(table, "join")
    session.on_refused("join refused: seat 2 is already connected")
    assert session.refused == "join refused: seat 2 is already connected"   # kept as it came
    assert session.status == _refused_line(net_words.for_players(session.refused))
    assert "already connected" not in session.status and "2" in session.status
    session.on_paused("seat 1 (Bo) dropped; waiting up to 120 s for it to rejoin")
    assert "Bo" in session.status and "120" in session.status and "dropped" not in session.status


def _refused_line(reason: str) -> str:
    from lang.i18n import _
    return _("Refused: {reason}").format(reason=reason)


@pytest.fixture
def dutch_lobby(app, monkeypatch):
    from tests.client.scenes.test_lobby_window import hosted_lobby
    i18n.use("nl")
    with hosted_lobby(app, monkeypatch, bots=1) as opened:
        yield opened
        i18n.use("en")


def test_the_lobby_shows_net_errors_and_the_start_check_in_dutch(dutch_lobby, shots):
    from tests.client.conftest import frame, screenshot
    app, session, scene = dutch_lobby
    scene.change_lobby(bots=5)                           # more bots than seats: net refuses
    assert scene.error == "niet genoeg plaatsen voor de spelers die er al zijn"
    scene.cycle_level(0)                           # seat 0 is the host's, not a bot's
    assert scene.error == "plaats 0 is geen botplaats"
    scene.send_chat("x" * 1000)
    assert "tekens lang" in scene.error and "characters" not in scene.error
    scene.pairs_unreachable(["Ann and Bo cannot reach each other: neither can be dialled from "
                        "outside their own network (Ann at 10.0.0.2:7531, Bo at 10.0.0.3:7531). "
                        "One of them can forward its TCP port on the router, or use IPv6, or "
                        "all can join one VPN (ZeroTier, Tailscale); see docs/net.md."])
    assert "kunnen elkaar niet bereiken" in scene.error and "10.0.0.3:7531" in scene.error
    scene.table_said("seats changed so that every pair can connect: Bo takes seat 0")
    assert scene.said[-1] == "Plaatsen gewisseld zodat elk paar verbinding kan maken: Bo neemt plaats 0"
    scene.router_note = net_words.for_players(
        "The router has no public address yet (not online?); " + portmap.FIXES.format(port=7531) + ".")
    scene.mark_dirty()
    frame(app, 2)
    screenshot(app, shots / "lobby-net-errors-nl.png")


def test_hand_over_and_unlock_refusals_go_to_the_log_in_romanian(app):
    from tests.client.game.test_net_comforts import (ComfyTable, _lock_a_suggested_plan, _log_text,
                                                _table_game)
    table = ComfyTable()
    session, scene = _table_game(app, table)
    _lock_a_suggested_plan(app, scene)
    assert scene.net.unlock_btn.visible
    i18n.use("ro")
    try:
        table.refuse = "seat 2 is already played by a bot"
        scene.net.hand_over(2)
        table.refuse = "Every player has locked their plan, so yours can no longer be changed."
        scene.net.unlock()
        log = _log_text(scene)
        assert "locul 2 este deja jucat de un bot" in log
        assert "Toți jucătorii și-au blocat planul, deci al tău nu mai poate fi schimbat." in log
        assert table.unlocked == 0 and not table.handed
    finally:
        i18n.use("en")


def test_a_bad_address_is_explained_in_the_menu_in_dutch(app):
    i18n.use("nl")
    try:
        app.start_net(TableOptions("join", address="[2001:db8::1", code="abcd"))
        message = app.scene.message
    finally:
        i18n.use("en")
    assert message.startswith("Kon niet aanschuiven: ") and "[2001:db8::1" in message
    assert "opent '[' voor een IPv6-adres" in message and "never closes" not in message
