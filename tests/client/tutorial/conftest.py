"""The tutorial's window tests (test_tutorial_*.py) run with settings of their own and
leave the window at 1280x800 on the menu."""

import pytest


@pytest.fixture
def home(app, tmp_path, monkeypatch):
    monkeypatch.setenv("SHOGUN_HOME", str(tmp_path))
    app.reload_settings()
    yield tmp_path
    app.set_size(1280, 800)
    app.on_resize(1280, 800)
    app.show_menu()
