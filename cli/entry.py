"""The ``cryptcrawl`` console script: loads the command, answering a Ctrl-C that comes while it
loads with one line (``cli.main`` answers any later one)."""

from __future__ import annotations

import sys


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C, or the RuntimeError one became: Python 3.11 wraps what a
    class's making raises ("Error calling __set_name__", caused by the original), so a Ctrl-C
    while a module that makes a dataclass loads can arrive as that RuntimeError."""
    e: BaseException | None = exc
    for _ in range(8):  # (a cause's chain is short; a cycle ends here too)
        if isinstance(e, KeyboardInterrupt):
            return True
        if not isinstance(e, RuntimeError):
            return False
        e = e.__cause__
    return False


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
