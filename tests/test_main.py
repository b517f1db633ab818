"""The thin entry point: what it does when there is no screen to open a window on, and
which window it opens (a game or the menu, in which language)."""

import main


def test_window_without_a_display_says_so_instead_of_crashing(monkeypatch, capsys):
    monkeypatch.setattr(main.sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main.main([]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "headless" in err


def test_replay_without_a_display_prints_the_game(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(main.sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    save = tmp_path / "g.save"
    assert main.main(["headless", "--players", "3", "--seed", "4", "--quiet",
                      "--save", str(save)]) == 0
    capsys.readouterr()
    assert main.main(["replay", str(save)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Shogun for 3 players") and "Winner:" in out


class _FakeWindow:
    """Stands in for client.app.App: records whether the window went into a game or to
    the menu, and in which language."""

    def __init__(self) -> None:
        from client.core.settings import Settings
        self.settings = Settings()
        self.exit_code = 0
        self.went: list[tuple[str, str]] = []

    def start_local(self, opts, seed=None) -> None:
        from lang.i18n import current
        self.went.append(("game", current()))

    def show_menu(self, defaults=None, message="") -> None:
        from lang.i18n import current
        self.went.append(("menu", current()))


def _window_run(monkeypatch, argv: list[str]) -> list[tuple[str, str]]:
    import arcade

    import client.app
    from lang.i18n import current, use
    window = _FakeWindow()
    monkeypatch.setattr(main, "_no_window_here", lambda explain=True: False)
    monkeypatch.setattr(main.sys, "argv", ["shogun", *argv])
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
