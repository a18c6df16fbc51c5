"""Any engine view as text a person (or a screen reader) can follow: the fallback renderer of a
game whose client plug-in does not draw its own table.

A view is read through its ``to_json()`` (every game's view has one) or, failing that, as a
dataclass; the data becomes an outline of ``name: value`` lines, nested parts indented, lists of
plain values joined on one wrapped line.  Nothing here knows a game: it shows what the view
holds, in the view's own words.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from cli.text import wrap_items

SKIPPED = ("legal", "log")  # listed apart: the moves before the prompt, the log as news
MOST_ITEMS = 60  # a longer list is cut, with the count of what is left out


def data_of(view: Any) -> Any:
    """The view as JSON-like data."""
    to_json = getattr(view, "to_json", None)
    if callable(to_json):
        return to_json()
    if dataclasses.is_dataclass(view) and not isinstance(view, type):
        return dataclasses.asdict(view)
    return view


def log_of(view: Any) -> Sequence[str] | None:
    """The view's log of what happened (a sequence of sentences), if it keeps one."""
    log = getattr(view, "log", None)
    if isinstance(log, tuple | list) and all(isinstance(line, str) for line in log):
        return log
    return None


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _word(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value == "":
        return '""'
    return str(value)


def _name(key: str) -> str:
    return key.replace("_", " ")


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str | list | tuple | dict) and not value)


def _flat(value: Any) -> bool:
    """A plain value, or a list of plain values."""
    return _scalar(value) or (isinstance(value, list | tuple) and all(map(_scalar, value)))


def _flat_word(value: Any) -> str:
    return _word(value) if _scalar(value) else " ".join(_word(v) for v in value)


def outline(data: Any, *, skip: Sequence[str] = (), indent: str = "",
            width: int = 80) -> list[str]:
    """``data`` as outline lines of at most ``width`` columns (a single long word aside);
    empty parts (none, "", no items) are left out."""
    lines: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in skip or _empty(value):
                continue
            lines += _entry(f"{indent}{_name(str(key))}:", value, indent, width)
        return lines
    return _entry(indent.rstrip() or "-", data, indent, width)


def _entry(head: str, value: Any, indent: str, width: int) -> list[str]:
    if _scalar(value):
        return wrap_items(_word(value).split(" "), first=head + " ", sep=" ",
                          indent=indent + "    ", width=width)
    items = list(value.items()) if isinstance(value, dict) else list(value)
    if not items:
        return [f"{head} none"]
    if isinstance(value, dict):
        if all(_scalar(v) for _, v in items):
            return wrap_items([f"{_name(str(k))} {_word(v)}" for k, v in items],
                              first=head + " ", sep=", ", indent=indent + "    ",
                              width=width)
        return [head, *outline(value, indent=indent + "  ", width=width)]
    shown, left = items[:MOST_ITEMS], len(items) - MOST_ITEMS
    more = [f"{indent}  ... and {left} more"] if left > 0 else []
    if all(_scalar(v) for v in shown):
        return [*wrap_items([_word(v) for v in shown], first=head + " ", sep=", ",
                            indent=indent + "    ", width=width), *more]
    lines = [head]
    for item in shown:
        if isinstance(item, dict) and all(_flat(v) for v in item.values()):
            words = [f"{_name(str(k))} {_flat_word(v)}" for k, v in item.items()
                     if not _empty(v)]
            lines += wrap_items(words, first=f"{indent}  - ", sep=", ",
                                indent=indent + "    ", width=width)
        elif isinstance(item, dict):
            inner = outline(item, indent=indent + "    ", width=width)
            first = inner[0].lstrip() if inner else "none"
            lines += [f"{indent}  - {first}", *inner[1:]]
        elif isinstance(item, list | tuple) and all(_scalar(v) for v in item):
            lines += wrap_items([_word(v) for v in item], first=f"{indent}  - ", sep=", ",
                                indent=indent + "      ", width=width)
        else:
            lines += [f"{indent}  -", *outline(item, indent=indent + "    ", width=width)]
    return [*lines, *more]
