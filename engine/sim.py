"""Offline play: a deterministic dealer for chance events and a loop that runs bots.

This is for tests, benchmarks and bot evaluation on one machine.  It is a *trusted* dealer (it
knows every hidden card); real matches get their chance outcomes from the protocol, where no
peer knows a hidden card before it is turned.  The dealer answers each chance event from a
SHA-256 stream keyed by its seed and the event id, so a hidden event gives the same card when a
torch previews it as when it is turned.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core import (
    Acted,
    Chance,
    ChanceEvent,
    ChanceResolved,
    Entry,
    GameState,
    Learned,
    Over,
    Simultaneous,
    Turn,
)
from engine.stream import derive_key, sample_index


class Bot(Protocol):
    """A policy: from a seat's view (and a key for its hash stream) to a legal action."""

    name: str

    def choose(self, view: Any, key: bytes) -> Any: ...


@dataclass
class Dealer:
    """Answers chance events from a seed (see the module docstring)."""

    seed: bytes

    def choose(self, event: ChanceEvent) -> str:
        key = derive_key(b"cryptcrawl/dealer/v1", self.seed, event.id)
        return event.outcomes[sample_index(key, len(event.outcomes))]


@dataclass
class GameRun:
    state: GameState[Any]
    history: list[Entry] = field(default_factory=list)
    decisions: int = 0


def bot_key(seed: bytes, step: str, seat: int, attempt: int) -> bytes:
    """The key of a bot's stream for one decision (derivable by every peer from public data
    when the seed is public, as for an absent seat's stand-in)."""
    return derive_key(b"cryptcrawl/bot/v1", seed, step, str(seat), str(attempt))


def play_out(
    state: GameState[Any],
    bots: Sequence[Bot],
    dealer: Dealer,
    *,
    bot_seeds: Sequence[bytes] | None = None,
    record: bool = True,
    on_state: Callable[[GameState[Any]], None] | None = None,
) -> GameRun:
    """Play ``state`` to the end: the dealer answers chance, bots decide, torches are served.

    Decisions of a simultaneous step are asked one seat at a time; each bot sees only its own
    view, so the order does not matter.
    """
    seeds = list(bot_seeds) if bot_seeds is not None else [
        derive_key(b"cryptcrawl/bot-seed", dealer.seed, str(s)) for s in range(len(bots))]
    run = GameRun(state)
    history = run.history
    attempts: dict[tuple[str, int], int] = {}
    while True:
        if on_state is not None:
            on_state(state)
        w = state.waiting
        if isinstance(w, Over):
            break
        if isinstance(w, Chance):
            event = w.event
            outcome = dealer.choose(event)
            state = state.apply_chance(event.id, outcome)
            if record:
                history.append(ChanceResolved(event.id, outcome))
            continue
        assert isinstance(w, Simultaneous | Turn)
        seat = min(w.pending)
        tag = (w.step, seat)
        attempt = attempts.get(tag, 0)
        attempts[tag] = attempt + 1
        action = bots[seat].choose(state.view(seat), bot_key(seeds[seat], w.step, seat, attempt))
        state = state.apply(seat, action)
        run.decisions += 1
        if record:
            history.append(Acted(seat, state.format_action(action)))
        for request in state.knowledge_requests():
            preview = state.preview_hidden(dealer.choose)
            knowledge = {e: preview[e] for e in request.events}
            state = state.learn(request.seat, knowledge)
            if record:
                history.append(Learned(request.seat, tuple(knowledge.items())))
    run.state = state
    return run
