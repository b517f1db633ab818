"""The thin entry point: what it does when there is no screen to open a window on."""

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
