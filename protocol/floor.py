"""The floor (protocol.md §7.7): a match plays on only while two seats are live.

A replaced seat contributes no chance secret, so a lone live seat would know every chance
outcome the moment it commits.  In version 2 the replacement that leaves fewer than two live
seats ends the match at that point of the canonical order: the seats not live forfeit, the one
just replaced first, until the game is over (:func:`forfeit_result`); where the game has no
forfeit result, the match is abandoned in the state it is in.  The core (:mod:`protocol.match.core`)
applies it; this module holds what it decides from."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core import EngineError, GameState, Openings, Over
from protocol.match.events import FloorReached
from protocol.mechanisms.absence import Absence


def below_floor(version: int, live: tuple[int, ...]) -> bool:
    """Does a match of protocol ``version`` with these live seats end at the floor?"""
    return version >= 2 and len(live) < 2


def floor_reached(seat: int, count: int, reason: str, absent: dict[int, Absence],
                  live: tuple[int, ...]) -> FloorReached:
    """The event: ``seat`` replaced at ``count`` for ``reason`` left ``live``; the seats blamed
    are those replaced for misbehaviour or a fork (for good: not those that left)."""
    blamed = tuple(sorted(s for s, a in absent.items() if a.final and not a.left))
    return FloorReached(seat, count, reason, blamed, live)


def forfeit_result(state: GameState[Any], first: int,
                   replaced: Iterable[int]) -> GameState[Any] | None:
    """The state over by the game's forfeit result: ``first`` forfeits, then each other seat of
    ``replaced`` in seat order, until the state is over.  None where the game has no forfeit
    result (``forfeit`` raises, as the default ``resign`` does) or the forfeits do not end it:
    the match is then abandoned."""
    for seat in (first, *sorted(s for s in replaced if s != first)):
        try:
            state = state.forfeit(seat)
        except EngineError:
            return None
        if isinstance(state.waiting, Over):
            return state
    return None


def openings_first(state: GameState[Any], first: int, replaced: Iterable[int],
                   live: tuple[int, ...]) -> GameState[Any] | None:
    """Where the forfeits leave the state waiting on openings of live seats only (a game
    whose result, a forfeit included, is computed after the openings due at the end —
    protocol.md §7.11): that state, with the replaced seats' values void; the match ends once
    they are in.  None otherwise."""
    replaced = tuple(replaced)
    for seat in (first, *sorted(s for s in replaced if s != first)):
        try:
            state = state.forfeit(seat)
        except EngineError:
            return None
        w = state.waiting
        if isinstance(w, Over):
            return None
        if isinstance(w, Openings) and w.seats <= set(live):
            return state
    return None
