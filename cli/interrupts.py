"""What counts as a Ctrl-C (read by ``cli.entry`` before anything else loads, and by
``cli.main``): a module of its own, importing nothing, so both can."""

from __future__ import annotations


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


__all__ = ["interrupted"]
