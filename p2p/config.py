"""A peer's own settings (:class:`PeerConfig`): how it lingers, dials, thinks for a bot, keeps
its links alive, relays to spectators and — for tests only — which timeouts it applies.  None of
them is agreed with the other seats: the match's timeouts are the header's."""

from __future__ import annotations

import math
from dataclasses import dataclass

from protocol.wire.header import DEFAULT_TIMEOUTS, Header

BOT_THINK = 0.02
"""Seconds a bot thinks before it decides (PeerConfig.bot_think; network.md §6)."""

Timeouts = tuple[float, float, float, float]
"""(quick, normal, long, silence) seconds, as a header's ``timeouts`` (protocol.md §6.6)."""


@dataclass
class PeerConfig:
    """A peer's own settings: none of them is agreed with the other seats.  The match's
    timeouts are not among them: they are the header's, signed by every seat (``timeouts``
    and ``time_scale`` override them for tests and development only)."""

    linger: float = 3.0  # after the result, keep answering catch-up requests this long
    catch_up_notice: float = 8.0  # resumed, and nobody linked this long: the person is told
    dial_retry: float = 0.2
    bot_think: float = BOT_THINK  # a bot decides this long after a step opens (0: at once)
    # A connection on which nothing arrives for this long is closed (and dialled again): each
    # side sends PING every third of it.  None: a sixth of the quick and silence timeouts
    # together, from 2 s to 15 s (see link_silence_for).
    link_silence: float | None = None
    # Tests and development only: the timeouts this peer applies instead of the header's
    # (quick, normal, long, silence), and a factor on them (header's or these).  A real peer
    # leaves both alone: a peer with shorter timeouts than the table agreed votes out people
    # who are still within their time.
    timeouts: Timeouts | None = None
    time_scale: float = 1.0
    spectators: int = 4  # how many spectators this seat relays the match to (0: none)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.bot_think) and self.bot_think >= 0):
            raise ValueError(f"a bot's think time is a number of seconds from 0, "
                             f"not {self.bot_think}")
        if self.link_silence is not None and not (
                math.isfinite(self.link_silence) and self.link_silence > 0):
            raise ValueError(f"a link silence is a number of seconds above 0, "
                             f"not {self.link_silence}")
        if not (math.isfinite(self.time_scale) and self.time_scale > 0):
            raise ValueError(f"a time scale is a number above 0, not {self.time_scale}")
        if self.timeouts is not None and (len(self.timeouts) != 4 or not all(
                math.isfinite(t) and t > 0 for t in self.timeouts)):
            raise ValueError(f"timeouts are four numbers of seconds above 0 (quick, normal, "
                             f"long, silence), not {self.timeouts}")

    def match_timeouts(self, header: Header) -> Timeouts:
        """The timeouts this peer applies in a match of ``header``: the header's (a version 1
        header has none: the defaults), unless overridden, times ``time_scale``."""
        base = self.timeouts or header.timeouts or DEFAULT_TIMEOUTS
        quick, normal, long, silence = (float(t) * self.time_scale for t in base)
        return (quick, normal, long, silence)

    def link_silence_for(self, timeouts: Timeouts) -> float:
        """The link silence in force under ``timeouts`` (see ``link_silence``): well inside
        the shortest time after which a seat is voted absent (quick + silence)."""
        if self.link_silence is not None:
            return self.link_silence
        quick, _normal, _long, silence = timeouts
        return min(15.0, max(2.0, (quick + silence) / 6))
