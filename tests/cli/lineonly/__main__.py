"""``cryptcrawl`` with Toy Grid shown by the generic plug-in (see the package)."""

import sys

import tests.cli.toygame  # noqa: F401  (registers the game's engine)
from cli.games import register
from cli.main import main
from cli.plugin import GameUI
from tests.cli.toygame.engine import GAME

register(GAME, GameUI)
sys.exit(main())
