"""The ``cryptcrawl`` console script: loads the command, answering a Ctrl-C that comes while it
loads with one line (``cli.main`` answers any later one)."""

from __future__ import annotations

import sys

from cli.interrupts import interrupted


def main() -> int:
    try:
        from cli.main import main as run
    except BaseException as exc:
        if not interrupted(exc):
            raise
        sys.stderr.write("\ncryptcrawl: interrupted\n")
        exec("None")  # (clears CPython's note of the interrupt: the status is 130, cli.main)
        return 130
    return run()
