"""What the protocol asks of a game, through its :class:`~engine.core.GameSpec`: the engine state
a header describes, and the decision every peer computes for a replaced seat (its zombie)."""

from __future__ import annotations

import inspect
from typing import Any

from engine.core import EngineError, GameState
from engine.games import get_game
from engine.sim import bot_key
from engine.stream import sample_index
from protocol.crypto import SAMPLER, ZOMBIE_DOMAIN, H
from protocol.deck import DECK_ALGORITHM
from protocol.errors import BadMessage
from protocol.wire.header import Header, SignedHeader


def new_game_state(header: SignedHeader) -> GameState[Any]:
    """The engine state a header describes (its game and options); a header naming a game,
    engine or sampler version this program does not have is refused with the reason."""
    return game_state_for(header.header)


def game_state_for(h: Header) -> GameState[Any]:
    """:func:`new_game_state` for a header not signed yet (a lobby checks it before signing)."""
    try:
        spec = get_game(h.game)
    except EngineError as exc:
        raise BadMessage(f"this program cannot play the header's game: {exc}") from None
    if spec.engine_version != h.engine:
        raise BadMessage(f"the header asks for engine {h.engine!r}; this program has "
                         f"{spec.engine_version!r}")
    if h.sampler != SAMPLER:
        raise BadMessage(f"the header asks for sampler {h.sampler!r}; this program has "
                         f"{SAMPLER!r}")
    wanted = deck_algorithm(h.game)
    if h.deck != wanted:
        raise BadMessage(f"the header names deck algorithm {h.deck or 'none'!r}; "
                         f"{spec.title} over this program needs {wanted or 'none'!r}")
    options = dict(h.options)
    known = inspect.signature(spec.new).parameters
    if not any(p.kind is p.VAR_KEYWORD for p in known.values()):
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise BadMessage(f"the header's options do not suit {spec.title}: no option "
                             f"{unknown[0]!r} (it has {', '.join(sorted(known)) or 'none'})")
    if "players" in options and options["players"] != len(h.seats):
        raise BadMessage(f"the header's options say {options['players']!r} players, but it has "
                         f"{len(h.seats)} seats")
    try:
        return spec.new(**options)
    except (TypeError, ValueError) as exc:
        raise BadMessage(f"the header's options do not suit {spec.title}: {exc}") from None


def deck_algorithm(game: str) -> str:
    """The deck algorithm a header of ``game`` names: this program's, for a game that deals
    private cards (``GameSpec.decks``); "" for any other."""
    return DECK_ALGORITHM if get_game(game).decks else ""


def is_free(state: GameState[Any], seat: int, action: Any) -> bool:
    """A free action (the game's ``free_action``): taken on its own, it keeps the seat's
    decision open, and is never part of a joint decision."""
    return get_game(state.game).free_action(state, seat, action)


def forfeits_replaced(state: GameState[Any], seat: int) -> bool:
    """Does replaced ``seat`` forfeit at this decision instead of being played by a zombie?
    In a game whose replaced seats always do (``GameSpec.replaced == "forfeit"``: no zombie
    could open its sealed values), and where the engine says no zombie can play the decision
    (``GameState.zombie_plays``: it needs the seat's own dealt cards)."""
    return get_game(state.game).replaced == "forfeit" or not state.zombie_plays(seat)


def forfeit_plays_on(state: GameState[Any]) -> bool:
    """Does a seat that forfeited stay in play (``GameSpec.forfeit_plays_on``), so
    that it may still reclaim its seat?"""
    return get_game(state.game).forfeit_plays_on


def zombie_action(state: GameState[Any], seat: int, match_id: bytes, step: str) -> Any:
    """The decision every peer computes for a replaced seat: the game's zombie bot on the
    seat's public view, keyed by the match id and the step (public data only).  A zombie never
    takes a free action (it holds no private-knowledge key)."""
    public = state.public()
    spec = get_game(state.game)
    factory = spec.zombie or spec.bots.get("heuristic") or next(iter(spec.bots.values()))
    key = bot_key(H(ZOMBIE_DOMAIN, match_id), step, seat, 0)
    choice = factory().choose(public.view(seat), key)
    if not spec.free_action(public, seat, choice):
        return choice
    plain = [a for a in public.legal_actions(seat) if not spec.free_action(public, seat, a)]
    return plain[sample_index(key, len(plain))] if plain else choice
