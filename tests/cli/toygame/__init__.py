"""Toy Grid, a second, minimal game for the client's tests: its engine and its client plug-in,
both registered at run time (``engine.games.register``, ``cli.games.register``).  Importing
this package registers them; ``python -m tests.cli.toygame ARGS`` is ``cryptcrawl ARGS`` with
the game registered."""

from tests.cli.toygame import client, engine

__all__ = ["client", "engine"]
