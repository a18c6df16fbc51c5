"""The ``cryptcrawl`` console script: loads the command, answering a Ctrl-C that comes while it
loads with one line (``cli.main`` answers any later one)."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from cli.main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("\ncryptcrawl: interrupted\n")
        return 130
    return run()
