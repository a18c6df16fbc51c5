"""What a game plugs into: the glue every game's state shares, so that a game writes only its
rules, views and notation.

* :class:`PluginState` — a :class:`~engine.core.GameState` whose value is its ``FIELDS``
  (equality, hashing by digest), whose private knowledge is a tuple with one ``NO_KNOWLEDGE``
  entry per seat (:meth:`PluginState.public` blanks it), and whose views and positions come
  from the functions its package binds.
* :func:`bind` — a game's package (its ``__init__``) names its view and position functions,
  so that the state module, the bottom of the package, imports neither.
* :func:`make_bot` — a bot by name from a game's table of bot classes.
* The checks every game makes the same way: the pending chance event and its outcomes
  (:func:`pending_event`, :func:`check_outcome`), a joint decision by exactly the pending seats
  (:func:`joint_mismatch`), knowledge owed to a seat (:func:`owed_requests`,
  :func:`check_owed`), and an integer field of a JSON position (:func:`get_int`).

Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, NamedTuple, Self, TypeVar

from engine.core import (
    JSON,
    Chance,
    ChanceEvent,
    GameState,
    InvalidChanceError,
    InvalidKnowledgeError,
    InvalidPositionError,
    KnowledgeRequest,
    NotYourDecisionError,
    Outcome,
    Seat,
    Simultaneous,
    Turn,
    Waiting,
)

A = TypeVar("A")
B = TypeVar("B")


class Formats(NamedTuple):
    """A game's view and position functions (bound by its package, see :func:`bind`)."""

    view: Callable[[Any, Seat | None], Any]  # (state, seat); None: a spectator's (public state)
    to_position: Callable[..., JSON]  # (state, *, private)
    from_position: Callable[[JSON], Any]


_FORMATS: dict[str, Formats] = {}


def bind(game: str, *, view: Callable[[Any, Seat | None], Any],
         to_position: Callable[..., JSON], from_position: Callable[[JSON], Any]) -> None:
    """Name the view and position functions of the game called ``game`` (its package does,
    once it has imported them)."""
    _FORMATS[game] = Formats(view, to_position, from_position)


def formats(game: str) -> Formats:
    """The functions bound for ``game``; LookupError if its package bound none."""
    try:
        return _FORMATS[game]
    except KeyError:
        raise LookupError(f"no views or positions are bound for the game {game!r}") from None


class PluginState(GameState[A]):
    """The shared part of a game state (see the module docstring).  A subclass declares
    ``FIELDS`` (the attributes that make up its value, private knowledge included), a
    ``knowledge`` tuple with one entry per seat, ``NO_KNOWLEDGE`` (a seat's entry when it knows
    nothing), ``_copy`` (a fresh copy to build the next state in, its ``_waiting`` None),
    ``_compute_waiting`` (what it waits for, computed once per state), ``_no_decision`` and,
    with simultaneous steps, ``_apply_simultaneous``."""

    FIELDS: ClassVar[tuple[str, ...]]
    NO_KNOWLEDGE: ClassVar[Any]

    knowledge: tuple[Any, ...]
    outcome: Outcome | None
    _waiting: Waiting | None

    def _copy(self) -> Self:
        raise NotImplementedError

    def _compute_waiting(self) -> Waiting:
        raise NotImplementedError

    def _no_decision(self, seat: object) -> NotYourDecisionError:
        """The error for ``seat``, which has no decision now (the game says why)."""
        raise NotImplementedError

    def _apply_simultaneous(self, step: Simultaneous, actions: Mapping[Seat, A]) -> Self:
        """:meth:`apply_joint` for a simultaneous ``step``, ``actions`` by exactly its pending
        seats (checked): check each and apply them together."""
        raise self._no_decision(next(iter(actions), -1))

    def apply_joint(self, actions: Mapping[Seat, A]) -> Self:
        w = self.waiting
        if isinstance(w, Turn):
            if set(actions) != {w.seat}:
                raise NotYourDecisionError(f"it is seat {w.seat}'s decision alone")
            return self.apply(w.seat, actions[w.seat])
        if not isinstance(w, Simultaneous):
            raise self._no_decision(next(iter(actions), -1))
        if actions.keys() != w.pending:
            raise joint_mismatch(w.pending, actions)
        return self._apply_simultaneous(w, actions)

    @property
    def waiting(self) -> Waiting:
        # States are immutable, so what one waits for is computed once.  (Transitions build a
        # fresh copy, whose caches start empty, and never read them before they finish.)
        w = self._waiting
        if w is None:
            w = self._waiting = self._compute_waiting()
        return w

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.FIELDS)

    def __hash__(self) -> int:
        return hash(self.digest())

    def public(self) -> Self:
        blank = self.NO_KNOWLEDGE
        knowledge = self.knowledge
        if all(k == blank for k in knowledge):
            return self
        new = self._copy()
        object.__setattr__(new, "knowledge", (blank,) * len(knowledge))
        return new

    def view(self, seat: Seat) -> Any:
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise ValueError(f"there is no seat {seat!r}")
        return formats(self.game).view(self, seat)

    def spectator_view(self) -> Any:
        """The view of the public part alone (no seat's knowledge)."""
        return formats(self.game).view(self.public(), None)

    def to_position(self, *, private: bool = True) -> JSON:
        return formats(self.game).to_position(self, private=private)

    @classmethod
    def from_position(cls, data: JSON) -> Self:
        state = formats(cls.game).from_position(data)
        assert isinstance(state, cls)
        return state


def make_bot(bots: Mapping[str, Callable[[], B]], name: str) -> B:
    """A new bot of the kind called ``name`` in ``bots``; ValueError naming the known ones."""
    try:
        factory = bots[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(bots)})") from None
    return factory()


def pending_event(waiting: Waiting, event_id: object) -> ChanceEvent:
    """The chance event ``waiting`` (a state's) names, checked to be ``event_id``;
    InvalidChanceError otherwise."""
    if not isinstance(waiting, Chance):
        raise InvalidChanceError(f"no chance event is pending (got {event_id!r:.40})")
    event = waiting.event
    if event_id != event.id:
        raise InvalidChanceError(f"the pending chance event is {event.id}, not {event_id!r:.40}")
    return event


def check_outcome(event: ChanceEvent, outcome: object) -> str:
    """``outcome``, checked to be one of ``event``'s; InvalidChanceError otherwise."""
    if outcome not in event.outcomes:
        raise InvalidChanceError(f"{outcome!r:.40} is not a possible outcome of {event.id}")
    assert isinstance(outcome, str)
    return outcome


def joint_mismatch(pending: frozenset[Seat], actions: Mapping[Seat, Any]) -> NotYourDecisionError:
    """The error for a joint decision whose seats are not exactly the ``pending`` ones."""
    missing = sorted(pending - set(actions))
    extra = sorted(set(actions) - pending)
    return NotYourDecisionError(
        "a joint decision needs exactly the pending seats"
        + (f"; missing {missing}" if missing else "")
        + (f"; not deciding {extra}" if extra else ""))


def owed_requests(knowledge: tuple[Any, ...]) -> tuple[KnowledgeRequest, ...]:
    """The knowledge requests of seats whose knowledge entry has events ``owed``."""
    return tuple(KnowledgeRequest(s, k.owed) for s, k in enumerate(knowledge) if k.owed)


def check_owed(knowledge: tuple[Any, ...], seat: object, given: Mapping[str, str]) -> int:
    """``seat``, checked to be a seat (one ``knowledge`` entry each) owed exactly the events
    ``given`` names (its entry's ``owed``); InvalidKnowledgeError otherwise."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(knowledge):
        raise InvalidKnowledgeError(f"there is no seat {seat!r:.20}")
    owed = knowledge[seat].owed
    if not owed:
        raise InvalidKnowledgeError(f"seat {seat} is owed no private knowledge")
    if set(given) != set(owed):
        raise InvalidKnowledgeError(
            f"seat {seat} is owed {', '.join(owed)}, not "
            f"{', '.join(sorted(map(str, given))) or 'nothing'}")
    return seat


def invalid(msg: str) -> InvalidPositionError:
    """The error for a position that ``msg`` says is invalid."""
    return InvalidPositionError(f"invalid position: {msg}")


def get_int(d: Mapping[str, Any], key: str, default: int | None = None, *, lo: int = 0,
            hi: int | None = None) -> int:
    """The integer ``d[key]`` in ``lo..hi`` (``default`` if absent or null; required if the
    default is None); InvalidPositionError otherwise."""
    if key not in d or d[key] is None:
        if default is None:
            raise invalid(f"missing '{key}'")
        return default
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise invalid(f"'{key}' must be an integer, not {v!r:.40}")
    if v < lo or (hi is not None and v > hi):
        raise invalid(f"'{key}' = {v} is out of range {lo}..{hi if hi is not None else ''}")
    return v


__all__ = [
    "Formats", "PluginState", "bind", "check_outcome", "check_owed", "formats", "get_int",
    "invalid", "joint_mismatch", "make_bot", "owed_requests", "pending_event",
]
