"""Dungeon Raiders' client plug-in (:class:`cli.games.raiders.ui.RaidersUI`)."""

from cli.games.raiders.ui import RaidersUI as UI

__all__ = ["UI"]
