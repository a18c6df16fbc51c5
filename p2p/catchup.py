"""A resumed seat learns where its match stands before it signs anything new (issue 48).

While it was away the others may have claimed the match, or finished it: a move, or a vote,
signed before this seat has heard from them would cross what they signed.  So a resumed peer
(:class:`p2p.peer.MatchPeer`, ``catching_up``) re-sends what it sent before but signs nothing new
until :func:`catch_up` returns: once a peer of the match has been linked a moment (its answers
to the WANTs sent on linking are in), or the match ended meanwhile.  If nobody links, the person
is told so, once, and the seat keeps waiting.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Final

TICK: Final = 0.1  # seconds between looks
LINKED: Final = 0.2  # caught up: a peer of the match linked this long (what we lacked is in)
NOBODY: Final = ("Nobody of this match answers yet: the others may have finished it and gone, "
                 "or be offline. Your seat waits and makes no move until one of them answers "
                 "(ask another player for their copy of the match to see how it ended; "
                 "leaving now keeps yours resumable).")


async def catch_up(*, linked: Callable[[], bool], ended: Callable[[], bool],
                   going: Callable[[], bool], notice_after: float,
                   notice: Callable[[str], None] | None) -> None:
    """Return once caught up (see the module), or once ``going`` says to stop looking."""
    started = time.monotonic()
    linked_at: float | None = None
    told = False
    while going():
        await asyncio.sleep(TICK)
        now = time.monotonic()
        if ended():
            return
        if linked():
            linked_at = now if linked_at is None else linked_at
            if now - linked_at >= LINKED:
                return
        elif not told and now - started >= notice_after:
            told = True
            if notice is not None:
                notice(NOBODY)
