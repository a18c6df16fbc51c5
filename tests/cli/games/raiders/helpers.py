"""Views and resolutions built through the public engine API, for the rendering tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.core import Chance, ChanceEvent
from engine.raiders import PEEK, RaidersState, RaidersView, new_game
from engine.raiders.resolve import Resolution

# A scripted deal: seat characters, the level card and the rooms, by chance event id.
DEAL: dict[str, str] = {
    "setup.character.0": "explorer",
    "setup.character.1": "wizard",
    "setup.character.2": "thief",
    "setup.character.3": "knight",
    "L1.level": "L1",  # face up, down, up, down, down
    "L1.R1": "dragon#1",
    "L1.R3": "treasure-4-2#1",
    "L1.R2": "troll#1",
    "L1.R4": "vault-items#1",
    "L1.R5": "lava",
}


def scripted(deal: Mapping[str, str]) -> Callable[[ChanceEvent], str]:
    def choose(event: ChanceEvent) -> str:
        wanted = deal.get(event.id)
        if wanted is None or wanted not in event.outcomes:
            raise AssertionError(f"the script cannot answer {event.id} with {wanted!r}")
        return wanted

    return choose


def dealt(players: int = 4, deal: Mapping[str, str] = DEAL) -> RaidersState:
    """A new game with every chance event up to the first decision answered from ``deal``."""
    choose = scripted(deal)
    state = new_game(players, "basic")
    while isinstance(state.waiting, Chance):
        event = state.waiting.event
        state = state.apply_chance(event.id, choose(event))
    return state


def peeked(state: RaidersState, seat: int, deal: Mapping[str, str] = DEAL) -> RaidersState:
    """``seat`` uses a torch; its knowledge is served from ``deal``."""
    state = state.apply(seat, PEEK)
    choose = scripted(deal)
    for request in state.knowledge_requests():
        preview = state.preview_hidden(choose)
        state = state.learn(request.seat, {e: preview[e] for e in request.events})
    return state


def view_of(state: RaidersState, seat: int) -> RaidersView:
    view = state.view(seat)
    assert isinstance(view, RaidersView)
    return view


def resolution(card: str, plays: tuple[str, ...], values: tuple[int, ...], *,
               followups: tuple[str, ...] | None = None, total: int = 0, strength: int = 0,
               defeated: bool = False, coin_delta: tuple[int, ...] | None = None,
               wound_delta: tuple[int, ...] | None = None,
               gained: tuple[str, ...] | None = None,
               eliminated: tuple[bool, ...] | None = None,
               notes: tuple[str, ...] = (), position: int = 3) -> Resolution:
    """A Resolution with the fields the renderer reads; the rest zero."""
    n = len(plays)
    zeros = (0,) * n
    return Resolution(
        level=2, position=position, card=card, plays=plays,
        followups=followups if followups is not None else ("",) * n,
        values=values, total=total, strength=strength, defeated=defeated,
        attacked=(False,) * n, coins=zeros, wounds=zeros,
        coin_delta=coin_delta if coin_delta is not None else zeros,
        wound_delta=wound_delta if wound_delta is not None else zeros,
        gained=gained if gained is not None else ("",) * n,
        eliminated=eliminated if eliminated is not None else (False,) * n,
        notes=notes,
    )
