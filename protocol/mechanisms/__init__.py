"""The mechanisms a match is made of, one per section of protocol.md §7; each keeps its own state
and its handlers, and the match core (:mod:`protocol.match.core`) composes them.

Decisions: :mod:`~protocol.mechanisms.steps` (commit–reveal, turns).  Chance:
:mod:`~protocol.mechanisms.chance`, :mod:`~protocol.mechanisms.knowledge` (private-knowledge
rounds), :mod:`~protocol.mechanisms.sealed` (sealed values), :mod:`~protocol.mechanisms.deals`
(private deals from shared decks).  Seats: :mod:`~protocol.mechanisms.votes`,
:mod:`~protocol.mechanisms.absence`, :mod:`~protocol.mechanisms.settlements`,
:mod:`~protocol.mechanisms.departures`, :mod:`~protocol.mechanisms.agreements`,
:mod:`~protocol.mechanisms.floor`, :mod:`~protocol.mechanisms.withholding`.  Integrity:
:mod:`~protocol.mechanisms.forks`, :mod:`~protocol.mechanisms.vouching`.  The end:
:mod:`~protocol.mechanisms.ending`, :mod:`~protocol.mechanisms.late`.
"""
