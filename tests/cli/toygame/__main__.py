"""``cryptcrawl`` with Toy Grid registered (engine and client plug-in)."""

import sys

import tests.cli.toygame  # noqa: F401  (registers the game)
from cli.main import main

sys.exit(main())
