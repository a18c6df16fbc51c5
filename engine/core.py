"""The game API shared by every cryptcrawl game.

A game state is an immutable value.  It says what it waits for (:attr:`GameState.waiting`):

* :class:`Simultaneous` — a decision by a set of seats, revealed together;
* :class:`Turn` — a decision by one seat;
* :class:`Chance` — a chance event (a draw, a roll) whose outcome the caller supplies;
* :class:`Over` — the match has ended, with its :class:`Outcome`.

The engine never samples: a chance event names its id, its equally likely outcomes and its
visibility, and the driver (the protocol, or the offline :mod:`engine.sim` dealer) feeds the
outcome back with :meth:`GameState.apply_chance`.

A state has a **public part** — identical on every peer; :meth:`GameState.public_bytes` and
:meth:`GameState.digest` cover only it — and **per-seat private knowledge** (a seat's own
uncommitted play, what its torch showed).  :meth:`GameState.view` returns exactly what one seat
may know.

The record of a match is its history (:class:`Entry` values); :func:`engine.games.replay`
rebuilds any state from it, bit for bit.
"""

from __future__ import annotations

import enum
import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, NamedTuple, Self, TypeVar, Union

Seat = int
JSON = Any  # the JSON data model: dict / list / str / int / bool / None


# --------------------------------------------------------------------------- errors


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""


class InvalidActionError(EngineError, ValueError):
    """The text or value is not an action of this game at all (cannot be parsed)."""


class IllegalActionError(EngineError, ValueError):
    """A well-formed action that the rules do not allow now, for this seat."""


class NotYourDecisionError(IllegalActionError):
    """The seat is not among those the state waits for."""


class InvalidChanceError(EngineError, ValueError):
    """A chance outcome for the wrong event, or not among the event's outcomes."""


class InvalidKnowledgeError(EngineError, ValueError):
    """Private knowledge that the seat is not owed, or that cannot be true."""


class InvalidPositionError(EngineError, ValueError):
    """A position (see the game's position format) that is malformed or impossible."""


class UnknownGameError(EngineError, KeyError):
    """No game is registered under that name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"


# --------------------------------------------------------------------------- chance


class Visibility(enum.Enum):
    """Who learns a chance outcome, and when."""

    PUBLIC = "public"  # everyone, at once
    HIDDEN = "hidden"  # fixed when the event is set up, unknown to all until it is turned
    PRIVATE = "private"  # one seat only


class _ChanceEventFields(NamedTuple):
    id: str
    outcomes: tuple[str, ...]
    visibility: Visibility
    seat: Seat | None
    deck: str | None


class ChanceEvent(_ChanceEventFields):
    """A chance event: a stable id, its equally likely outcomes, and who may see the result.

    A PRIVATE event names the seat that alone learns its outcome and the ``deck`` it is drawn
    from: a card dealt from a shared deck, without replacement across every seat's draws (the
    outcomes are the deck's cards; which are left is known to nobody but the deck).  Validated
    on construction: an id, at least one outcome, a seat and a deck exactly for PRIVATE events.
    (A named tuple: immutable, cheap, compared by value.)"""

    __slots__ = ()

    def __new__(cls, id: str, outcomes: tuple[str, ...], visibility: Visibility,
                seat: Seat | None = None, deck: str | None = None) -> ChanceEvent:
        if not id:
            raise ValueError("a chance event needs an id")
        if not outcomes:
            raise ValueError(f"chance event {id} has no outcomes")
        private = visibility is Visibility.PRIVATE
        if private != (seat is not None) or private != (deck is not None):
            raise ValueError("a seat and a deck are named exactly for private chance events")
        return super().__new__(cls, id, outcomes, visibility, seat, deck)

    @property
    def probability(self) -> float:
        """The probability of each outcome (all are equally likely)."""
        return 1.0 / len(self.outcomes)


# --------------------------------------------------------------------------- what a state waits for


class Simultaneous(NamedTuple):
    """Every seat in ``seats`` decides; the decisions are revealed together.

    ``committed`` are the seats whose decision this state already holds (privately).
    """

    step: str
    seats: frozenset[Seat]
    committed: frozenset[Seat] = frozenset()

    @property
    def pending(self) -> frozenset[Seat]:
        return self.seats - self.committed


class Turn(NamedTuple):
    """One seat decides, in the open."""

    step: str
    seat: Seat

    @property
    def seats(self) -> frozenset[Seat]:
        return frozenset((self.seat,))

    @property
    def pending(self) -> frozenset[Seat]:
        return self.seats

    @property
    def committed(self) -> frozenset[Seat]:
        return frozenset()


class Chance(NamedTuple):
    """The state waits for the outcome of ``event``."""

    event: ChanceEvent


class TimeClass(enum.Enum):
    """How long a decision may take: the header's timeouts for each class (a quick answer, a
    normal turn, a long plan), scaled by the table's speed."""

    QUICK = "quick"
    NORMAL = "normal"
    LONG = "long"


@dataclass(frozen=True, slots=True)
class OpeningRequest:
    """``seat`` must open its sealed values ``slots`` now (each was committed when an action of
    its sealed it, see :meth:`GameState.split_private`)."""

    seat: Seat
    slots: tuple[str, ...]


class Openings(NamedTuple):
    """The state waits for sealed values to be opened (their owners' openings, in any order)."""

    requests: tuple[OpeningRequest, ...]

    @property
    def seats(self) -> frozenset[Seat]:
        return frozenset(r.seat for r in self.requests)


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's final result."""

    seat: Seat
    status: str  # "winner", "lost", "fainted", "eliminated" (game-defined words)
    score: int
    tiebreak: int
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended.  ``winners`` may be empty (nobody wins) or hold a shared win."""

    winners: frozenset[Seat]
    standings: tuple[Standing, ...]
    reason: str

    def share(self, seat: Seat) -> float:
        """The seat's share of the win: 1/k for a k-way shared win, else 0."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0

    @property
    def drawn(self) -> bool:
        """The match ended drawn: a game marks a draw by the status ``drawn`` of the seats
        that drew (Dungeon Twister's ``draw`` is read the same).  A draw is no win, whatever
        ``winners`` holds (Dungeons of Kards lists the seats that drew there); a shared win
        (Dungeon Raiders' tie) is not a draw."""
        return any(st.status in DRAWN for st in self.standings)


DRAWN: Final = ("drawn", "draw")
"""The statuses of a :class:`Standing` that mean a draw (:attr:`Outcome.drawn`)."""


class Over(NamedTuple):
    """The match has ended."""

    outcome: Outcome


Waiting = Union[Simultaneous, Turn, Chance, Openings, Over]  # noqa: UP007  (used at run time)


@dataclass(frozen=True, slots=True)
class KnowledgeRequest:
    """A seat is owed private knowledge of hidden events (a torch peek, for example)."""

    seat: Seat
    events: tuple[str, ...]


# --------------------------------------------------------------------------- state API

A = TypeVar("A")


class GameState(ABC, Generic[A]):
    """An immutable game state.  Every transition returns a new state."""

    game: ClassVar[str]

    # What the state waits for -------------------------------------------------------------
    @property
    @abstractmethod
    def waiting(self) -> Waiting: ...

    @property
    def is_over(self) -> bool:
        return isinstance(self.waiting, Over)

    @property
    def seats(self) -> int:
        """The number of seats."""
        raise NotImplementedError

    # Decisions ----------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, seat: Seat) -> tuple[A, ...]:
        """The actions ``seat`` may take now (empty if it has no decision, or if
        :meth:`lists_actions` says its step has too many to list)."""

    def lists_actions(self, seat: Seat) -> bool:
        """Does :meth:`legal_actions` list every action ``seat`` may take now?  False for a
        step whose actions are too many to list (a plan among 10^5 or more): there an action
        is checked (:meth:`check`) without enumeration, and bots pick one through their own
        hook.  Default True."""
        return True

    @abstractmethod
    def check(self, seat: Seat, action: A) -> None:
        """Raise the error :meth:`apply` would raise for this action, or return if legal."""

    @abstractmethod
    def apply(self, seat: Seat, action: A) -> Self:
        """Checked: apply one seat's action or raise an :class:`IllegalActionError`."""

    @abstractmethod
    def apply_joint(self, actions: Mapping[Seat, A]) -> Self:
        """Checked: apply the decisions of every pending seat of a simultaneous step at once."""

    def check_joint(self, seat: Seat, action: A) -> None:
        """For an action :meth:`check` accepts: raise the error :meth:`apply_joint` would
        raise for it as ``seat``'s part of a joint decision, or return if it can be one (a
        free action, such as a peek, cannot: it is taken on its own, with :meth:`apply`)."""

    # Chance -------------------------------------------------------------------------------
    @abstractmethod
    def apply_chance(self, event_id: str, outcome: str) -> Self:
        """Checked: resolve the chance event the state waits for."""

    def upcoming_events(self) -> tuple[str, ...]:
        """Ids of the chance events to commit to now, together: the pending event and those the
        game will pose (or keep hidden) before its next decision.  The protocol batches the
        seats' commitments to them, so hidden events are committed before anyone decides."""
        w = self.waiting
        return (w.event.id,) if isinstance(w, Chance) else ()

    def turned_next(self) -> tuple[str, frozenset[Seat]] | None:
        """In a simultaneous step: the id of the hidden chance event the game poses next once
        the step is resolved, whatever the seats decide, with the seats that may still have a
        decision to make before it (a follow-up the step's cards may call for); None when
        there is no such event.  Once every decision of the step is committed, the secrets of
        that event may be revealed — except that each seat named here must still lack one of
        them until it has decided."""
        return None

    def preview_hidden(self, choose: Callable[[ChanceEvent], str]) -> dict[str, str]:
        """The outcomes of the still-hidden events a peek would show, in the order they will be
        turned, each posed exactly as it will be when turned and answered by ``choose``."""
        return {}

    # Private knowledge --------------------------------------------------------------------
    def knowledge_requests(self) -> tuple[KnowledgeRequest, ...]:
        """Private knowledge owed to seats (for example, after a torch peek)."""
        return ()

    def learn(self, seat: Seat, knowledge: Mapping[str, str]) -> Self:
        """Give ``seat`` the private knowledge it is owed."""
        raise InvalidKnowledgeError(f"seat {seat} is owed no private knowledge")

    def public(self) -> Self:
        """This state with every seat's private knowledge removed."""
        return self

    # Private chance: a card dealt from a shared deck --------------------------------------
    def apply_private(self, event_id: str) -> Self:
        """The public transition of the PRIVATE chance event the state waits for: the card is
        dealt, its identity unknown (a placeholder: "seat 2 holds 2 unknown powers").  The
        owner then :meth:`learn` s ``{event_id: card}``; nobody else ever does, unless the owner
        opens the card (:meth:`open_private`)."""
        raise InvalidChanceError(f"{self.game} deals no private cards")

    def open_private(self, seat: Seat, event_id: str, outcome: str) -> Self:
        """``seat`` shows, in public, the card it was dealt by ``event_id`` (the protocol
        proves it was; the engine checks it may be shown now)."""
        raise InvalidKnowledgeError(f"{self.game} deals no private cards")

    def private_claims(self, seat: Seat, action: A) -> tuple[str, ...]:
        """The private events whose cards ``seat``'s ``action`` shows (keeping a dealt power,
        say): each must be opened in public with it."""
        return ()

    def opening_claims(self, seat: Seat, values: Mapping[str, str]) -> tuple[str, ...]:
        """The private events whose cards opening these sealed values shows (the kept
        objective, say): each must be opened in public (:meth:`open_private`) before
        :meth:`open_sealed`, unless the state holds the seat's own knowledge of them."""
        return ()

    # Sealed values: committed by one action, opened at a later one ----------------------
    def split_private(self, seat: Seat, text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
        """A decision in the deciding seat's own notation, split into the public action every
        peer applies and the sealed values it commits to, as ``(slot, value)`` pairs (the
        identity of a token placed face down, a kept objective).  Slot ids are a function of
        the public state.  The seat itself :meth:`learn` s its values."""
        return text, ()

    def sealed_by(self, seat: Seat, action: A) -> tuple[str, ...]:
        """The slots the public action ``action`` of ``seat`` seals, in the order
        :meth:`split_private` gives its values (a function of the public state: every peer
        asks it of the action on the wire, whose sealed commitments must name exactly these)."""
        return ()

    def open_sealed(self, seat: Seat, values: Mapping[str, str]) -> Self:
        """The state waits on :class:`Openings`: ``seat`` opens ``values`` (slot -> value).
        Raises :class:`IllegalActionError` for values the rules refuse (a token placed twice):
        misbehaviour by that seat, proved by its signed openings."""
        raise IllegalActionError(f"{self.game} has no sealed values")

    def void_sealed(self, seat: Seat) -> Self:
        """``seat`` can open none of its sealed values any more (it was replaced): the game's
        ruling for them applies (a forfeit, a score of 0)."""
        return self

    # Endings and time -----------------------------------------------------------------------
    def time_class(self, seat: Seat) -> TimeClass:
        """How long ``seat``'s pending decision may take."""
        return TimeClass.NORMAL

    def resign(self, seat: Seat) -> Self:
        """``seat`` resigns: the game's rule (in a two-sided game it loses; in a free-for-all it
        is eliminated and the others play on).  :class:`IllegalActionError` if it cannot."""
        raise IllegalActionError(f"resigning is not part of {self.game}")

    def zombie_plays(self, seat: Seat) -> bool:
        """Can a zombie play ``seat``'s decision now, from its public view?  Not where the
        decision needs what only the seat knew (the private cards it was dealt): a seat replaced
        there forfeits instead (:meth:`forfeit`), as in a game whose replaced seats always do
        (``GameSpec.replaced``)."""
        return True

    def forfeit(self, seat: Seat) -> Self:
        """``seat`` forfeits (replaced where the game has no zombie, or caught cheating): the
        game's forfeit result.  By default, as if it resigned."""
        return self.resign(seat)

    def agree_draw(self) -> Self:
        """Every live seat agreed to a draw: the game's drawn result."""
        raise IllegalActionError(f"{self.game} has no draw by agreement")

    def spectator_view(self) -> Any:
        """What anyone watching may know: the public part only."""
        raise NotImplementedError(f"{self.game} has no spectator view")

    # Notation -----------------------------------------------------------------------------
    @abstractmethod
    def parse_action(self, seat: Seat, text: str) -> A:
        """Parse ``text``; raise :class:`InvalidActionError` or :class:`IllegalActionError`."""

    @abstractmethod
    def format_action(self, action: A) -> str: ...

    # Views and positions ------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: Seat) -> Any:
        """Exactly what ``seat`` may know."""

    @abstractmethod
    def to_position(self, *, private: bool = True) -> JSON:
        """The documented JSON position of this state (without private knowledge if asked)."""

    @classmethod
    @abstractmethod
    def from_position(cls, data: JSON) -> Self: ...

    def public_bytes(self) -> bytes:
        """Canonical bytes of the public part: the same on every peer."""
        return canonical_json(self.to_position(private=False))

    def digest(self) -> bytes:
        """SHA-256 of :meth:`public_bytes`."""
        return hashlib.sha256(self.public_bytes()).digest()


_CANONICAL: Final = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""Made once: ``json.dumps`` with these options builds an encoder per call, which costs as
much as the encoding itself (a peer digests every state it reaches)."""


def canonical_json(data: JSON) -> bytes:
    """Canonical JSON: sorted keys, no spaces, UTF-8, no floats allowed by convention."""
    return _CANONICAL.encode(data).encode()


# --------------------------------------------------------------------------- history and replay


@dataclass(frozen=True, slots=True)
class ChanceResolved:
    event: str
    outcome: str


@dataclass(frozen=True, slots=True)
class Acted:
    seat: Seat
    action: str


@dataclass(frozen=True, slots=True)
class JointActed:
    actions: tuple[tuple[Seat, str], ...]


@dataclass(frozen=True, slots=True)
class Learned:
    seat: Seat
    knowledge: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Dealt:
    """A private chance event was dealt (its outcome is the owner's :class:`Learned`)."""

    event: str


@dataclass(frozen=True, slots=True)
class Opened:
    """``seat`` opened sealed values (slot, value)."""

    seat: Seat
    values: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Shown:
    """``seat`` showed in public the card a private event dealt it (``open_private``)."""

    seat: Seat
    event: str
    card: str


Entry = Union[ChanceResolved, Acted, JointActed, Learned, Dealt, Opened, Shown]  # noqa: UP007


def entry_to_json(entry: Entry) -> JSON:
    if isinstance(entry, ChanceResolved):
        return ["chance", entry.event, entry.outcome]
    if isinstance(entry, Acted):
        return ["act", entry.seat, entry.action]
    if isinstance(entry, JointActed):
        return ["joint", [[s, a] for s, a in entry.actions]]
    if isinstance(entry, Dealt):
        return ["dealt", entry.event]
    if isinstance(entry, Opened):
        return ["opened", entry.seat, [[k, v] for k, v in entry.values]]
    if isinstance(entry, Shown):
        return ["shown", entry.seat, entry.event, entry.card]
    return ["learn", entry.seat, [[e, o] for e, o in entry.knowledge]]


def entry_from_json(data: JSON) -> Entry:
    try:
        kind = data[0]
        if kind == "chance":
            return ChanceResolved(str(data[1]), str(data[2]))
        if kind == "act":
            return Acted(int(data[1]), str(data[2]))
        if kind == "joint":
            return JointActed(tuple((int(s), str(a)) for s, a in data[1]))
        if kind == "learn":
            return Learned(int(data[1]), tuple((str(e), str(o)) for e, o in data[2]))
        if kind == "dealt":
            return Dealt(str(data[1]))
        if kind == "opened":
            return Opened(int(data[1]), tuple((str(k), str(v)) for k, v in data[2]))
        if kind == "shown":
            return Shown(int(data[1]), str(data[2]), str(data[3]))
    except (TypeError, ValueError, IndexError, KeyError) as exc:
        raise InvalidPositionError(f"malformed history entry {data!r}") from exc
    raise InvalidPositionError(f"unknown history entry kind {data!r}")


def apply_entry(state: GameState[Any], entry: Entry) -> GameState[Any]:
    """Apply one history entry to ``state`` through the checked API."""
    if isinstance(entry, ChanceResolved):
        return state.apply_chance(entry.event, entry.outcome)
    if isinstance(entry, Acted):
        return state.apply(entry.seat, state.parse_action(entry.seat, entry.action))
    if isinstance(entry, JointActed):
        return state.apply_joint({s: state.parse_action(s, a) for s, a in entry.actions})
    if isinstance(entry, Dealt):
        return state.apply_private(entry.event)
    if isinstance(entry, Opened):
        return state.open_sealed(entry.seat, dict(entry.values))
    if isinstance(entry, Shown):
        return state.open_private(entry.seat, entry.event, entry.card)
    return state.learn(entry.seat, dict(entry.knowledge))


@dataclass
class Record(Generic[A]):
    """A state plus the history that produced it (the game record)."""

    state: GameState[A]
    history: list[Entry] = field(default_factory=list)

    def act(self, seat: Seat, action: A) -> None:
        self.state = self.state.apply(seat, action)
        self.history.append(Acted(seat, self.state.format_action(action)))

    def act_joint(self, actions: Mapping[Seat, A]) -> None:
        fmt = self.state.format_action
        self.state = self.state.apply_joint(actions)
        self.history.append(JointActed(tuple(sorted((s, fmt(a)) for s, a in actions.items()))))

    def resolve(self, event_id: str, outcome: str) -> None:
        self.state = self.state.apply_chance(event_id, outcome)
        self.history.append(ChanceResolved(event_id, outcome))

    def learn(self, seat: Seat, knowledge: Mapping[str, str]) -> None:
        self.state = self.state.learn(seat, knowledge)
        self.history.append(Learned(seat, tuple(knowledge.items())))


# --------------------------------------------------------------------------- game specs


def _never_free(state: GameState[Any], seat: Seat, action: Any) -> bool:
    return False


LEVELS: Final = ("easy", "normal", "strong")
"""The levels people choose bots by, weakest first (``GameSpec.levels`` maps them to bots)."""
DEFAULT_LEVEL: Final = "normal"


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game (``players`` aside): its name, default, the values it takes (a
    choice among ``choices``, or an integer in ``bounds`` — or ``off``, held as 0, if ``off`` is
    set — or on/off for a bool default), and a line of help.  :meth:`parse` reads a command
    line's ``KEY=VALUE`` value."""

    name: str
    default: str | int | bool
    help: str = ""
    choices: tuple[str, ...] = ()
    bounds: tuple[int, int] | None = None
    off: bool = False  # an integer option that may also be switched off: "off" parses to 0

    def parse(self, text: str) -> str | int | bool:
        """The value ``text`` names; ValueError (a sentence naming what is allowed) if none."""
        if self.off and isinstance(self.default, int) and not isinstance(self.default, bool) \
                and text.strip().lower() == "off":
            return 0
        if isinstance(self.default, bool):
            value = {"on": True, "yes": True, "true": True, "1": True, "off": False,
                     "no": False, "false": False, "0": False}.get(text.strip().lower())
            if value is None:
                raise ValueError(f"{self.name} is on or off, not {text!r}")
            return value
        if isinstance(self.default, int):
            try:
                number = int(text)
            except ValueError:
                raise ValueError(f"{self.name} is a whole number, not {text!r}") from None
            low, high = self.bounds or (number, number)
            if not low <= number <= high:
                also = " or off" if self.off else ""
                raise ValueError(f"{self.name} is {low} to {high}{also}, not {number}")
            return number
        if self.choices and text not in self.choices:
            raise ValueError(f"{self.name} is one of {', '.join(self.choices)}, not {text!r}")
        return text


@dataclass(frozen=True)
class GameSpec:
    """Everything the protocol and the drivers need to know about a game, declared as data.

    ``engine_version`` names the rules (a header carries it; a file names the version it was
    played under, and a new rule means a new version).  ``free_action(state, seat, action)``
    says whether an action is *free*: taken on its own, in the open, while the seat's decision
    stays pending (a look at hidden cards, say) — never part of a joint decision.  ``zombie``
    is the bot every peer computes for a replaced seat (part of the engine version), unless the
    game makes a replaced seat forfeit (``replaced = "forfeit"``: no zombie could open its
    sealed values).  ``options`` are the game's options beyond ``players``, which ``new`` takes
    as keywords.  A game's private-knowledge requests come from its states
    (:meth:`GameState.knowledge_requests`).  The registry is :mod:`engine.games`."""

    name: str
    title: str
    players: tuple[int, ...]
    variants: tuple[str, ...]
    new: Callable[..., GameState[Any]]
    from_position: Callable[[JSON], GameState[Any]]
    engine_version: str
    bots: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    # The bot every peer computes for a replaced seat (the protocol's "zombie"): part of the
    # engine version, so it never changes under a version (None: the "heuristic" bot).
    zombie: Callable[[], Any] | None = None
    free_action: Callable[[GameState[Any], Seat, Any], bool] = _never_free
    options: tuple[OptionSpec, ...] = ()
    replaced: str = "zombie"  # what a replaced seat becomes: "zombie" or "forfeit"
    # Over the protocol, draw the public chance events from dice pools committed ahead
    # (protocol.md §7.12): a game that rolls many dice.  Its ``upcoming_events`` then lists
    # only the events that need commitments of their own (hidden ones, a peek's target).
    dice_pools: bool = False
    # Does a seat that forfeited stay in play (its zombie, or its player back, plays its
    # cards; it cannot win)?  Otherwise the forfeit takes it out of the game for good.
    forfeit_plays_on: bool = False
    # The bot that plays for people unless they choose one ("": the first bot not "random").
    default_bot: str = ""
    # Does the game deal PRIVATE chance events (cards from shared decks)?  Over the protocol
    # they are dealt from a deck the seats shuffle together (docs/deck.md), which the header
    # names.
    decks: bool = False
    # The bot behind each level people choose (LEVELS: easy, normal, strong).  A level left out
    # is played by the default bot; "strong" names a bot that searches.
    levels: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.default_bot:
            chosen = next((n for n in self.bots if n != "random"), next(iter(self.bots), ""))
            object.__setattr__(self, "default_bot", chosen)
        elif self.default_bot not in self.bots:
            raise ValueError(f"{self.title}'s default bot {self.default_bot!r} is not one of its "
                             f"bots ({', '.join(self.bots) or 'none'})")
        for level, bot in self.levels.items():
            if level not in LEVELS:
                raise ValueError(f"{self.title}'s level {level!r} is not one of "
                                 f"{', '.join(LEVELS)}")
            if bot not in self.bots:
                raise ValueError(f"{self.title}'s {level} level names {bot!r}, which is not one "
                                 f"of its bots ({', '.join(self.bots) or 'none'})")

    def bot_for(self, kind: str) -> str:
        """The bot called ``kind``, or the bot behind the level ``kind`` ("": the default bot);
        ValueError naming the levels and the bots for anything else."""
        if not kind:
            return self.default_bot
        if kind in self.bots:
            return kind
        if kind in LEVELS:
            return self.level_bot(kind)
        raise ValueError(f"{self.title} has no bot or level {kind!r} (levels: "
                         f"{', '.join(LEVELS)}; bots: {', '.join(self.bots)})")

    def level_bot(self, level: str) -> str:
        """The name of the bot that plays ``level`` (one of LEVELS); ValueError naming the
        levels for anything else."""
        if level not in LEVELS:
            raise ValueError(f"the bot levels are {', '.join(LEVELS)}, not {level!r}")
        return self.levels.get(level, self.default_bot)

    def option(self, name: str) -> OptionSpec:
        """The option called ``name``; KeyError naming the options there are."""
        for spec in self.options:
            if spec.name == name:
                return spec
        known = ", ".join(o.name for o in self.options) or "none"
        raise KeyError(f"{self.title} has no option {name!r} (its options: {known})")


def parse_options(spec: GameSpec, texts: Sequence[str], *,
                  variant: str | None = None) -> dict[str, str | int | bool]:
    """The ``new`` keywords that command-line ``KEY=VALUE`` texts name, each value read by the
    game's own :class:`OptionSpec`; ``variant`` (or ``variant=...`` among the texts) for a game
    with variants.  ValueError, one sentence naming what is allowed, for anything else."""
    out: dict[str, str | int | bool] = {}
    names = ["variant"] * bool(spec.variants) + [o.name for o in spec.options]
    for text in texts:
        key, sep, value = text.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"an option is KEY=VALUE, not {text!r}")
        if key == "variant" and spec.variants:
            variant = value.strip()
            continue
        if key not in names:
            raise ValueError(f"{spec.title} has no option {key!r} (its options: "
                             f"{', '.join(names) or 'none'})")
        out[key] = spec.option(key).parse(value.strip())
    if variant is not None:
        if not spec.variants:
            raise ValueError(f"{spec.title} has no variants")
        if variant not in spec.variants:
            raise ValueError(f"variant is one of {', '.join(spec.variants)}, not {variant!r}")
    if spec.variants:
        out = {"variant": variant or spec.variants[0], **out}
    return out


def draw_without_replacement(pool: Sequence[str], chosen: str) -> tuple[str, ...]:
    """``pool`` with one occurrence of ``chosen`` removed."""
    i = pool.index(chosen)
    return (*pool[:i], *pool[i + 1 :])


def read_move(state: GameState[Any], seat: Seat, text: str) -> str:
    """A move a player typed (or built with keys) for ``seat``, checked the way its match will
    take it: parsed and checked on ``state`` (the seat's own, with its private knowledge), then
    split into the public action every peer applies and the values it seals, which must be
    exactly the slots that public action seals (:meth:`GameState.sealed_by`: a placement that
    leaves out its token seals nothing the match can open later).  Returns the canonical text,
    private parts included; raises :class:`InvalidActionError` or :class:`IllegalActionError`
    with one line a player can read, and nothing else for any text."""
    if not isinstance(text, str):
        raise InvalidActionError(f"a move is text, not {type(text).__name__}")
    action = state.parse_action(seat, text)
    state.check(seat, action)
    canonical = state.format_action(action)
    public, values = state.split_private(seat, canonical)
    parsed = state.parse_action(seat, public)
    slots = tuple(slot for slot, _ in values)
    if slots != tuple(state.sealed_by(seat, parsed)):
        raise InvalidActionError(f"'{canonical}' leaves out what only you know: write the "
                                 "whole move")
    return canonical
