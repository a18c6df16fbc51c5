"""ASCII-only terminals: what the client writes there, for every game.

A terminal whose encoding cannot show the box-drawing rule and the dashes of the full screen (a
``LANG=C`` console, ``PYTHONIOENCODING=ascii``, an old serial line) — or any terminal with
``CRYPTCRAWL_ASCII=1`` — gets every line in ASCII: each other character becomes one ASCII
character (``─`` and ``—`` a ``-``, ``é`` an ``e``, anything without a likeness a ``?``), so
the full screen keeps its columns.  ``CRYPTCRAWL_ASCII=0`` keeps Unicode whatever the encoding
says.
"""

from __future__ import annotations

import os
import unicodedata
from typing import Any

_LIKE = {
    "─": "-", "—": "-", "–": "-", "‐": "-", "−": "-", "│": "|", "┃": "|", "═": "=",
    "“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "‚": "'",
    "…": ".", "·": ".", "•": "*", "×": "x", "→": ">", "←": "<", "↑": "^", "↓": "v",
    "≤": "<", "≥": ">", "≠": "#",
    "\u00a0": " ",
}
_PROBE = "─—é"


def ascii_only(stream: Any) -> bool:
    """Should lines written to ``stream`` be ASCII (see the module)?"""
    forced = os.environ.get("CRYPTCRAWL_ASCII")
    if forced is not None and forced.strip():
        return forced.strip() != "0"
    encoding = getattr(stream, "encoding", None)
    if not encoding:  # (a text buffer, not a terminal: it holds any text)
        return False
    try:
        _PROBE.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return True
    return False


def to_ascii(text: str) -> str:
    """``text`` with every character outside ASCII replaced by one ASCII character."""
    if text.isascii():
        return text
    out = []
    for ch in text:
        if ch.isascii():
            out.append(ch)
            continue
        like = _LIKE.get(ch)
        if like is None:
            base = unicodedata.normalize("NFKD", ch)[:1]
            like = base if base.isascii() and base.isprintable() else "?"
        out.append(like)
    return "".join(out)
