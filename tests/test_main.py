"""The thin entry point: what it does when there is no screen to open a window on, and
which window it opens (a game or the menu, in which language)."""

import sys

import main


def test_window_without_a_display_says_so_instead_of_crashing(monkeypatch, capsys):
    monkeypatch.setattr(main.sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main.main([]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "headless" in err


def _a_save(tmp_path, capsys, log: bool = False):
    path = tmp_path / ("g.log" if log else "g.save")
    assert main.main(["headless", "--players", "3", "--seed", "4", "--quiet",
                      "--log" if log else "--save", str(path)]) == 0
    capsys.readouterr()
    return path


def test_replay_without_a_display_says_so_and_names_the_text_flag(monkeypatch, tmp_path, capsys):
    """Issue 27, item 3: `replay FILE` is the window's viewer; with no display the
    plain message, and `--text` still prints the game."""
    monkeypatch.setattr(main.sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    save = _a_save(tmp_path, capsys)
    assert main.main(["replay", str(save)]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "--text" in err
    assert main.main(["replay", str(save), "--text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Shogun for 3 players") and "Winner:" in out


def test_replay_text_prints_a_json_game_log_too(tmp_path, capsys):
    log = _a_save(tmp_path, capsys, log=True)
    assert main.main(["replay", str(log), "--text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Shogun for 3 players") and "Winner:" in out
    bad = tmp_path / "bad.log"
    bad.write_text('{"event": "Moved"}\n')
    assert main.main(["replay", str(bad), "--text"]) == 2
    assert "line 1" in capsys.readouterr().err


def test_replay_of_a_missing_file_says_so_before_any_window(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(main, "_no_window_here", lambda explain=True: False)
    assert main.main(["replay", str(tmp_path / "nothing.save")]) == 2
    assert "no such file" in capsys.readouterr().err


class _FakeWindow:
    """Stands in for client.app.App: records whether the window went into a game or to
    the menu, and in which language."""

    def __init__(self) -> None:
        from client.core.settings import Settings
        self.settings = Settings()
        self.exit_code = 0
        self.went: list[tuple[str, str]] = []

    def start_local(self, choice) -> None:
        from lang.i18n import current
        self.went.append(("game", current()))

    def show_menu(self, defaults=None, message="") -> None:
        from lang.i18n import current
        self.went.append(("menu", current()))

    def replay_log(self, path: str, session: object = None) -> None:
        self.went.append(("replay " + path, ""))


def _window_run(monkeypatch, argv: list[str]) -> list[tuple[str, str]]:
    import arcade

    import client.app
    from lang.i18n import current, use
    window = _FakeWindow()
    monkeypatch.setattr(main, "_no_window_here", lambda explain=True: False)
    monkeypatch.setattr(sys, "argv", ["shogun", *argv])
    monkeypatch.setattr(client.app, "App", lambda *a, **k: window)
    monkeypatch.setattr(client.app, "open_window", lambda *a, **k: window, raising=False)
    monkeypatch.setattr(arcade, "run", lambda: None)
    before = current()
    try:
        assert main.main(argv) == 0
    finally:
        use(before)
    return window.went


def test_lang_before_the_sub_command_still_starts_the_game_in_that_language(monkeypatch):
    """Issue 27, item 7: `./shogun --lang nl play` opened the menu (in English)."""
    assert _window_run(monkeypatch, ["--lang", "nl", "play"]) == [("game", "nl")]
    assert _window_run(monkeypatch, ["play", "--lang", "nl"]) == [("game", "nl")]
    assert _window_run(monkeypatch, ["--lang", "ro"]) == [("menu", "ro")]
    assert [where for where, _ in _window_run(monkeypatch, [])] == ["menu"]


def test_replay_file_opens_the_window_viewer_for_a_save_and_a_log(monkeypatch, tmp_path, capsys):
    """Issue 27, item 3: `./shogun replay FILE` printed text and exited."""
    save = _a_save(tmp_path, capsys)
    log = _a_save(tmp_path, capsys, log=True)
    assert _window_run(monkeypatch, ["replay", str(save)]) == [("replay " + str(save), "")]
    assert _window_run(monkeypatch, ["replay", str(log)]) == [("replay " + str(log), "")]
    assert capsys.readouterr().out == ""


def test_a_turn_timer_without_a_folder_is_refused_not_ignored(capsys):
    """Issue 51: `--turn-timer` belongs to a correspondence table; on a live table it would
    be silently dropped (and it sits beside the live table's `--turn-time`)."""
    assert main.main(["host", "--headless", "--turn-timer", "2d"]) == 2
    err = capsys.readouterr().err
    assert "--turn-timer" in err and "--folder" in err and "--turn-time " in err
