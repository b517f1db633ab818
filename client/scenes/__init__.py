"""The scenes around a game: menu, settings, help, lobby, end screen."""
