"""Offline play: a deterministic dealer for chance events and a loop that runs bots.

This is for tests, benchmarks and bot evaluation on one machine.  It is a *trusted* dealer (it
knows every hidden card); real matches get their chance outcomes from the protocol, where no
peer knows a hidden card before it is turned.  The dealer answers each chance event from a
SHA-256 stream keyed by its seed and the event id, so a hidden event gives the same outcome when
a seat is shown it privately as when it is turned.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from engine.core import (
    Acted,
    Chance,
    ChanceEvent,
    ChanceResolved,
    Dealt,
    Entry,
    GameState,
    JointActed,
    Learned,
    Opened,
    Openings,
    Over,
    Shown,
    Simultaneous,
    Turn,
    Visibility,
)
from engine.games import get_game
from engine.stream import derive_key, sample_index, stream_key


class Bot(Protocol):
    """A policy: from a seat's view (and a key for its hash stream) to a legal action."""

    name: str

    def choose(self, view: Any, key: bytes) -> Any: ...


class Dealer:
    """Answers chance events from a seed (see the module docstring).  ``known`` fixes the
    outcome of some events (event id -> outcome): a search that plays on from what one seat
    knows answers the hidden cards that seat has seen with the cards it saw."""

    __slots__ = ("_dealt", "_decks", "_known", "_prefix", "seed")

    def __init__(self, seed: bytes, known: dict[str, str] | None = None) -> None:
        self.seed = seed
        self._prefix = stream_key(b"cryptcrawl/dealer/v1", seed)
        self._dealt: dict[str, str] = {}  # private event id -> its card
        self._decks: dict[str, list[str]] = {}  # deck -> the cards dealt from it
        self._known: dict[str, str] = dict(known) if known else {}

    def choose(self, event: ChanceEvent) -> str:
        outcomes = event[1]  # (id, outcomes, visibility, seat, deck)
        if self._known:
            fixed = self._known.get(event[0])
            if fixed is not None and fixed in outcomes:
                return fixed
        key = self._prefix + stream_key(event[0])
        deck = event[4]
        if deck is None:
            return outcomes[sample_index(key, len(outcomes))]
        # A private deal: without replacement across every seat's deals from the deck.
        known = self._dealt.get(event[0])
        if known is not None:
            return known
        left = list(outcomes)
        for card in self._decks.setdefault(deck, []):
            if card in left:
                left.remove(card)
        card = left[sample_index(key, len(left))]
        self._dealt[event[0]] = card
        self._decks[deck].append(card)
        return card

    def dealt(self, event_id: str) -> str:
        """The card this dealer dealt by the private event ``event_id``."""
        return self._dealt[event_id]


@dataclass
class GameRun:
    state: GameState[Any]
    history: list[Entry] = field(default_factory=list)
    decisions: int = 0


def bot_key(seed: bytes, step: str, seat: int, attempt: int) -> bytes:
    """The key of a bot's stream for one decision (derivable by every peer from public data
    when the seed is public, as for an absent seat's stand-in).  The stream hashes it, so the
    key is the domain-separated concatenation itself."""
    return stream_key(b"cryptcrawl/bot/v1", seed) + stream_key(step) + bytes(
        (seat, attempt & 0xFF))


class LegalView(NamedTuple):
    """The part of a view a bot that reads nothing but its legal actions needs."""

    seat: int
    step: str
    legal: tuple[Any, ...]


def bot_input(bot: Bot, state: GameState[Any], seat: int, step: str) -> Any:
    """What ``bot.choose`` is given for ``seat`` in ``step``: the seat's view — or, for a bot
    that reads nothing but its legal actions (``reads_view = False``), a :class:`LegalView`,
    the same legal actions in the same order for a fraction of the cost (a view describes the
    whole table).  Every driver asks a bot this way, so a bot chooses alike in all of them."""
    if getattr(bot, "reads_view", True):
        return state.view(seat)
    return LegalView(seat, step, state.legal_actions(seat))


def play_out(
    state: GameState[Any],
    bots: Sequence[Bot],
    dealer: Dealer,
    *,
    bot_seeds: Sequence[bytes] | None = None,
    record: bool = True,
    on_state: Callable[[GameState[Any]], None] | None = None,
    sealed: dict[int, dict[str, str]] | None = None,
    until: Callable[[GameState[Any]], bool] | None = None,
) -> GameRun:
    """Play ``state`` to the end: the dealer answers chance, bots decide, private knowledge is
    served.

    In a simultaneous step every pending seat is asked on the same state (each bot sees only
    its own view) and the decisions are applied together with ``apply_joint``; a free action
    (``GameSpec.free_action``) is applied at once, its knowledge served, and that seat is asked
    again.  With ``on_state`` every state is
    reported, and decisions are applied one seat at a time so that committed states show too.
    ``sealed`` holds values the seats sealed before ``state`` (seat -> slot -> value), opened
    when the rules ask; with ``until`` the run stops at the first state, other than the first,
    for which it is true (a search's horizon).
    """
    seeds = list(bot_seeds) if bot_seeds is not None else [
        derive_key(b"cryptcrawl/bot-seed", dealer.seed, str(s)) for s in range(len(bots))]
    prefixes = [stream_key(b"cryptcrawl/bot/v1", seed) for seed in seeds]
    reads_view = [getattr(bot, "reads_view", True) for bot in bots]
    choosers = [bot.choose for bot in bots]  # bound once: a method lookup per call is costly
    run = GameRun(state)
    history = run.history if record else None
    choose_outcome = dealer.choose
    decisions = 0
    free = get_game(state.game).free_action
    # Sealed values: the deciding seat's own values, kept here until the rules open them.
    splits = type(state).split_private is not GameState.split_private
    held_values: dict[int, dict[str, str]] = {
        seat: dict(values) for seat, values in (sealed or {}).items()}
    # Private deals an action or an opening shows (a kept card): opened with the dealt card.
    claims = type(state).private_claims is not GameState.private_claims
    opening_claims = type(state).opening_claims is not GameState.opening_claims

    reported: GameState[Any] | None = None
    first = state
    while True:
        if on_state is not None and state is not reported:
            on_state(state)
        if until is not None and state is not first and until(state):
            break
        w = state.waiting
        if type(w) is Chance:
            event = w.event
            outcome = choose_outcome(event)
            if event.visibility is Visibility.PRIVATE:
                assert event.seat is not None
                state = state.apply_private(event.id).learn(event.seat, {event.id: outcome})
                if history is not None:
                    history.extend((Dealt(event.id), Learned(event.seat, ((event.id, outcome),))))
                continue
            state = state.apply_chance(event.id, outcome)
            if history is not None:
                history.append(ChanceResolved(event.id, outcome))
            continue
        if isinstance(w, Over):
            break
        if isinstance(w, Openings):
            for request in w.requests:
                held = held_values.get(request.seat, {})
                opened = tuple((slot, held[slot]) for slot in request.slots)
                if opening_claims:
                    for event_id in state.opening_claims(request.seat, dict(opened)):
                        state = _show(state, request.seat, event_id, dealer, history)
                state = state.open_sealed(request.seat, dict(opened))
                if history is not None:
                    history.append(Opened(request.seat, opened))
            continue
        assert isinstance(w, Simultaneous | Turn)
        step = w[0]  # Simultaneous and Turn: (step, ...)
        step_key = stream_key(step)
        joint = on_state is None and type(w) is Simultaneous
        chosen: dict[int, Any] = {}
        learned: list[tuple[int, tuple[tuple[str, str], ...]]] = []
        shows: list[tuple[int, str]] = []
        for seat in sorted(w.pending):
            attempt = 0
            choose = choosers[seat]
            while True:
                key = prefixes[seat] + step_key + bytes((seat, attempt & 0xFF))
                if reads_view[seat]:
                    view: Any = state.view(seat)
                else:
                    view = LegalView(seat, step, state.legal_actions(seat))
                action = choose(view, key)
                decisions += 1
                values: tuple[tuple[str, str], ...] = ()
                if splits:
                    text, values = state.split_private(seat, state.format_action(action))
                    if values:
                        action = state.parse_action(seat, text)
                        held_values.setdefault(seat, {}).update(values)
                is_free = free(state, seat, action)
                if claims and not is_free:
                    shows.extend((seat, e) for e in state.private_claims(seat, action))
                if joint and not is_free:
                    chosen[seat] = action  # apply_joint checks every card
                    if values:
                        learned.append((seat, values))
                    break
                state = state.apply(seat, action)
                if history is not None:
                    history.append(Acted(seat, state.format_action(action)))
                if values:
                    state = state.learn(seat, dict(values))
                    if history is not None:
                        history.append(Learned(seat, values))
                if state.knowledge_requests():
                    state = _serve_knowledge(state, dealer, history)
                if on_state is not None:
                    on_state(state)
                    reported = state
                if not is_free:
                    break
                attempt += 1
        if chosen:
            state = state.apply_joint(chosen)
            if history is not None:
                fmt = state.format_action
                history.append(JointActed(tuple((s, fmt(a)) for s, a in sorted(chosen.items()))))
            for seat, values in learned:
                state = state.learn(seat, dict(values))
                if history is not None:
                    history.append(Learned(seat, values))
            if state.knowledge_requests():
                state = _serve_knowledge(state, dealer, history)
        for seat, event_id in shows:  # once the step is revealed
            state = _show(state, seat, event_id, dealer, history)
    run.state = state
    run.decisions = decisions
    return run


def _show(state: GameState[Any], seat: int, event_id: str, dealer: Dealer,
          history: list[Entry] | None) -> GameState[Any]:
    card = dealer.dealt(event_id)
    state = state.open_private(seat, event_id, card)
    if history is not None:
        history.append(Shown(seat, event_id, card))
    return state


def _serve_knowledge(state: GameState[Any], dealer: Dealer,
                     history: list[Entry] | None) -> GameState[Any]:
    for request in state.knowledge_requests():
        preview = state.preview_hidden(dealer.choose)
        knowledge = {e: preview[e] for e in request.events}
        state = state.learn(request.seat, knowledge)
        if history is not None:
            history.append(Learned(request.seat, tuple(knowledge.items())))
    return state
