"""The match: signed feeds in, one engine state out, the same on every honest peer (protocol.md
§6, §8).

:mod:`~protocol.match.core` (``MatchCore``, the composition root: feeds, the canonical loop,
dispatch), :mod:`~protocol.match.seat` (``LocalSeat``: what this peer's own seat sends),
:mod:`~protocol.match.table` and :mod:`~protocol.match.admission` (the transition table and what
each point accepts), :mod:`~protocol.match.completion` (after each message, whatever is now
complete), :mod:`~protocol.match.timing` (who the match waits for, and for how long),
:mod:`~protocol.match.events` (what a core reports), :mod:`~protocol.match.game` (what the
protocol asks of the engine).  The mechanisms it composes are in :mod:`protocol.mechanisms`.
"""
