"""Settings file: written and read back; a damaged or odd file gives defaults and a
sentence naming what was wrong, never an exception."""

from __future__ import annotations

from dataclasses import replace

from client.core.settings import LastGame, Settings, load_settings, save_settings


def test_settings_round_trip(tmp_path):
    path = tmp_path / "settings.json"
    s = replace(Settings(), name="Aiko", colour=3, animation_speed=2.0, volume=30, mute=True,
                ui_scale=1.25, colour_blind=True, fullscreen=True, confirm_leave=False,
                guide_done=True, last_game=LastGame(5, "moon", "draft",
                                                    ("heuristic", "you", "random", "human", "heuristic")))
    save_settings(s, path)
    back, message = load_settings(path)
    assert message == ""
    assert back == s


def test_missing_file_is_the_defaults_without_a_message(tmp_path):
    assert load_settings(tmp_path / "none.json") == (Settings(), "")


def test_damaged_file_gives_defaults_and_says_so(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b'{"name": "Ai\xff\x00 ko", ')
    settings, message = load_settings(path)
    assert settings == Settings()
    assert "damaged" in message and str(path) in message and "defaults" in message


def test_a_wrong_value_is_named_and_the_rest_kept(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"name": "Kenji", "volume": 400, "mute": "yes", "animation_speed": 3,'
                    ' "last_game": {"players": 9}}')
    settings, message = load_settings(path)
    assert settings.name == "Kenji"
    assert settings.volume == Settings().volume and settings.mute is False
    assert settings.animation_speed == 1.0 and settings.last_game == LastGame()
    for field in ("volume", "mute", "animation speed", "last game"):
        assert field in message, message
    assert "{" not in message and "Error" not in message


def test_not_an_object_gives_defaults(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("[1, 2, 3]")
    settings, message = load_settings(path)
    assert settings == Settings() and "no settings" in message


def test_automatic_interface_scale_grows_with_the_window_and_the_override_wins():
    from client.core.settings import Settings
    from client.core.ui_scale import effective_scale
    assert Settings().ui_scale == 0.0                      # automatic by default
    auto = [effective_scale(0.0, w, h) for w, h in
            ((960, 640), (1280, 800), (1920, 1080), (2560, 1440), (3840, 2160))]
    assert auto == [1.0, 1.0, 1.35, 1.8, 2.0]
    assert effective_scale(1.25, 1920, 1080) == 1.25       # a chosen scale is kept
    assert effective_scale(1.5, 1024, 700) == min(1024 / 960, 700 / 640)   # fitted: ≥ 960x640


def test_an_automatic_scale_in_the_file_is_read_back(tmp_path):
    import json
    from client.core.settings import load_settings
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"ui_scale": 0.0}))
    settings, message = load_settings(path)
    assert settings.ui_scale == 0.0 and message == ""
    path.write_text(json.dumps({"ui_scale": 3}))
    settings, message = load_settings(path)
    assert settings.ui_scale == 0.0 and "ui scale should be one of" in message
