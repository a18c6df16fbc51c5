"""The Dungeon Twister state machine (rules §3, §4, §9; docs/rules/twister.md).

Phases, in order::

    team       simultaneous: each seat seals its starting team (public action: ``team``)
    placer     chance (public): who places the first token
    place      turns, alternating: a face-down token onto a slot (public: ``place S``)
    team_open  openings: both teams are opened, after all 20 placements
    first      chance (public): who plays the first turn
    card       turn: the active seat plays an action card
    action     turn: an action, or ``end``
    reveal     chance (hidden): the room and orientation in the slot being revealed
    open       openings: the seats open their face-down tokens of that slot
    put        turns: the lifted tokens are placed (active seat, then the other, R1)
    combat     simultaneous: both seats' secret combat cards
    end_open   openings: every token still sealed, before the result
    over

The engine never samples.  Each face-down slot is the hidden event ``slot.S``, posed when the
slot is revealed, uniform among the rooms not yet revealed times the four orientations.  A
token's identity is a sealed value (``start.S.Y``, ``tok.S.N``), known to its owner alone until
the rules open it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from engine.core import (
    Chance,
    ChanceEvent,
    IllegalActionError,
    InvalidActionError,
    InvalidKnowledgeError,
    NotYourDecisionError,
    OpeningRequest,
    Openings,
    Over,
    Simultaneous,
    TimeClass,
    Turn,
    Visibility,
)
from engine.plugin import PluginState, check_outcome, pending_event
from engine.twister import checks, flow, movegen
from engine.twister.actions import (
    KINDS_OF_ACTION,
    Action,
    format_action,
    is_private,
    parse_action,
    public_part,
)
from engine.twister.board import Board, board_for
from engine.twister.data import (
    CAPACITY,
    CHARACTERS,
    KINDS,
    PER_SEAT,
    SEATS,
    SLOTS,
    START_YS,
    start_slot,
    token_slot,
)
from engine.twister.phases import (
    ACTION,
    CARD,
    COMBAT,
    END_OPEN,
    FIRST,
    OPEN,
    OPENING_PHASES,
    OVER,
    PHASES,
    PLACE,
    PLACER,
    PUT,
    REVEAL,
    TEAM,
    TEAM_OPEN,
)
from engine.twister.records import (
    NO_ENDING,
    NO_KNOWLEDGE,
    Ending,
    Fight,
    Know,
    Player,
    Reveal,
    Tok,
    _with,
)
from engine.twister.rooms import ROOM_IDS
from engine.twister.table import occupancy

if TYPE_CHECKING:
    from engine.core import Seat, Waiting

_BOTH: Final = frozenset((0, 1))
_NOBODY: Final[frozenset[int]] = frozenset()
_SEAT_EVENTS: Final = ("0", "1")
TURN_CAP: Final = 60

_FIELDS: Final = (
    "turn_cap", "phase", "teamed", "rooms", "gates", "facedown", "tokens", "players", "placer",
    "turn", "active", "ap", "acts", "highest", "reveal", "fight", "ending", "outcome", "last",
    "knowledge",
)

Rooms = tuple[tuple[str, int] | None, ...]
Facedown = tuple[tuple[tuple[int, int], ...], ...]


def ceiling(highest: int) -> int:
    """The highest action card playable: max(2, 1 + the highest played so far, A27)."""
    return max(2, highest + 1)


class TwisterState(PluginState[Action]):
    """An immutable Dungeon Twister state.  Build one with :func:`new_game` or
    :func:`engine.twister.position.from_position`; every transition returns a new state (this
    module writes only to fresh copies)."""

    game: ClassVar[str] = "twister"
    FIELDS: ClassVar[tuple[str, ...]] = _FIELDS
    NO_KNOWLEDGE: ClassVar[Know] = NO_KNOWLEDGE

    __slots__ = (*_FIELDS, "_board", "_legal", "_occ", "_waiting")

    turn_cap: int  # 0: no cap
    phase: str
    teamed: bool  # the starting teams are sealed (the team step resolved)
    rooms: Rooms  # per slot: (room id, orientation) once revealed
    gates: tuple[tuple[int, ...], ...]  # per slot: its room's portcullis states
    facedown: Facedown  # per slot: the face-down tokens on it, as (seat, n)
    tokens: tuple[Tok, ...]  # the 28 tokens, seat * 14 + kind
    players: tuple[Player, ...]
    placer: int  # the first placer (-1 not drawn yet)
    turn: int  # 1, 2, ... (0 before play)
    active: int  # the seat whose turn it is (-1 before play)
    ap: int  # the action card's AP left this turn
    acts: int  # the actions begun this turn (step names)
    highest: int  # the highest action card played so far (A27)
    reveal: Reveal | None
    fight: Fight | None
    ending: Ending
    last: tuple[str, ...]  # what the latest action did, in words
    knowledge: tuple[Know, ...]  # private, per seat
    _board: Board | None
    _legal: dict[int, tuple[Action, ...]] | None
    _occ: dict[int, list[int]] | None
    _waiting: Waiting | None

    def _copy(self) -> TwisterState:
        new = object.__new__(TwisterState)
        for f in _FIELDS:
            object.__setattr__(new, f, getattr(self, f))
        new._board = self._board
        new._legal = None
        new._occ = None
        new._waiting = None
        return new

    def _set(self, **changes: Any) -> None:
        """Change fields of a fresh copy (never of a state anyone else holds)."""
        for name, value in changes.items():
            object.__setattr__(self, name, value)
        if "rooms" in changes or "gates" in changes:
            self._board = None
        if "tokens" in changes:
            self._occ = None
        self._legal = None
        self._waiting = None

    def __repr__(self) -> str:
        return f"<TwisterState {self.phase} turn {self.turn} seat {self.active}>"

    # ------------------------------------------------------------------ derived facts

    @property
    def seats(self) -> int:
        return SEATS

    @property
    def board(self) -> Board:
        board = self._board
        if board is None:
            board = self._board = board_for(self.rooms, self.gates)
        return board

    def occupancy(self) -> dict[int, list[int]]:
        """Square -> the tokens on it (carried ones included).  Shared: do not change it."""
        occ = self._occ
        if occ is None:
            occ = self._occ = occupancy(self.tokens)
        return occ

    @property
    def ceiling(self) -> int:
        return ceiling(self.highest)

    def opened(self, seat: int) -> dict[str, str]:
        """The seat's sealed values opened so far (public), slot -> kind."""
        return dict(self.players[seat].opened)

    def sealed_slots(self, seat: int) -> tuple[str, ...]:
        """Every sealed-value slot of the seat so far, opened or not."""
        team = tuple(start_slot(seat, y) for y in START_YS) if self.teamed else ()
        return team + tuple(token_slot(seat, n) for n in range(1, self.players[seat].placed + 1))

    def unopened(self, seat: int) -> tuple[str, ...]:
        opened = self.opened(seat)
        return tuple(s for s in self.sealed_slots(seat) if s not in opened)

    def knows(self, seat: int) -> bool:
        """Whether this state holds the seat's own values for all its unopened slots."""
        known = dict(self.knowledge[seat].sealed)
        return all(s in known for s in self.unopened(seat))

    def reserve(self, seat: int) -> tuple[int, ...]:
        """The kinds this seat has not sealed or opened yet (as far as this state knows)."""
        used = {k for _, k in self.knowledge[seat].sealed} | {k for _, k in
                                                             self.players[seat].opened}
        return tuple(i for i, k in enumerate(KINDS) if k not in used)

    def placing_seat(self) -> int:
        total = self.players[0].placed + self.players[1].placed
        return self.placer if total % 2 == 0 else self.placer ^ 1

    def put_seat(self) -> int:
        reveal = self.reveal
        assert reveal is not None
        return self.active if reveal.mine else self.active ^ 1

    @property
    def step(self) -> str:
        """The stable name of the pending decision ("" when none)."""
        w = self.waiting
        return w.step if isinstance(w, Simultaneous | Turn) else ""

    # ------------------------------------------------------------------ waiting

    def _compute_waiting(self) -> Waiting:
        phase = self.phase
        if phase == ACTION:
            return Turn(f"T{self.turn}.{self.acts}", self.active)
        if phase == CARD:
            return Turn(f"T{self.turn}.card", self.active)
        if phase == PUT:
            reveal = self.reveal
            assert reveal is not None
            k = len(reveal.lifted) - len(reveal.mine) - len(reveal.theirs) + 1
            return Turn(f"T{self.turn}.{self.acts}.put{k}", self.put_seat())
        if phase == COMBAT:
            committed = frozenset(s for s in (0, 1) if self.knowledge[s].card >= 0)
            return Simultaneous(f"T{self.turn}.{self.acts}.combat", _BOTH, committed)
        if phase == PLACE:
            total = self.players[0].placed + self.players[1].placed
            return Turn(f"setup.place.{total + 1}", self.placing_seat())
        if phase == TEAM:
            committed = frozenset(s for s in (0, 1) if self.knowledge[s].team)
            return Simultaneous("setup.team", _BOTH, committed)
        if phase in OPENING_PHASES:
            return Openings(self._requests())
        if phase == OVER:
            assert self.outcome is not None
            return Over(self.outcome)
        return Chance(self._chance_event())

    def _chance_event(self) -> ChanceEvent:
        if self.phase == PLACER:
            return ChanceEvent("setup.placer", _SEAT_EVENTS, Visibility.PUBLIC)
        if self.phase == FIRST:
            return ChanceEvent("setup.first", _SEAT_EVENTS, Visibility.PUBLIC)
        assert self.phase == REVEAL and self.reveal is not None
        return ChanceEvent(f"slot.{self.reveal.slot}", self.room_outcomes(), Visibility.HIDDEN)

    def room_outcomes(self) -> tuple[str, ...]:
        """The outcomes of a reveal: each room not revealed yet (pack order) at each of the
        four orientations, as ``room/orientation``."""
        shown = {r[0] for r in self.rooms if r is not None}
        return tuple(f"{room}/{o}" for room in ROOM_IDS if room not in shown for o in range(4))

    def _requests(self) -> tuple[OpeningRequest, ...]:
        out = []
        for seat in (0, 1):
            opened = self.opened(seat)
            if self.phase == TEAM_OPEN:
                slots = [start_slot(seat, y) for y in START_YS]
            elif self.phase == OPEN:
                assert self.reveal is not None
                slots = [token_slot(s, n) for s, n in self.facedown[self.reveal.slot]
                         if s == seat]
            elif seat in self.ending.forfeited:
                slots = []
            else:
                slots = list(self.sealed_slots(seat))
            slots = [s for s in slots if s not in opened]
            if slots:
                out.append(OpeningRequest(seat, tuple(slots)))
        return tuple(out)

    def upcoming_events(self) -> tuple[str, ...]:
        """With the first placer, every face-down slot: all hidden events are committed before
        the first placement; else the pending event."""
        if self.phase == PLACER:
            return ("setup.placer", *(f"slot.{s}" for s in range(SLOTS)
                                      if self.rooms[s] is None))
        w = self.waiting
        return (w.event.id,) if isinstance(w, Chance) else ()

    def time_class(self, seat: Seat) -> TimeClass:
        """Openings are quick (an owed answer, often outside one's turn); the rest normal."""
        w = self.waiting
        if isinstance(w, Openings) and seat in w.seats:
            return TimeClass.QUICK
        return TimeClass.NORMAL

    # ------------------------------------------------------------------ decisions

    def _no_decision(self, seat: object) -> NotYourDecisionError:
        w = self.waiting
        if isinstance(w, Over):
            return NotYourDecisionError("the game is over")
        if isinstance(w, Chance):
            return NotYourDecisionError(f"no decision now: waiting for chance event {w.event.id}")
        if isinstance(w, Openings):
            names = " and ".join(f"seat {s}" for s in sorted(w.seats))
            return NotYourDecisionError(f"no decision now: waiting for {names} to open tokens")
        if isinstance(w, Turn):
            return NotYourDecisionError(f"it is seat {w.seat}'s decision, not seat {seat}'s")
        if seat in w.committed:
            return NotYourDecisionError(f"seat {seat} has already decided in this step")
        return NotYourDecisionError(f"seat {seat} has no decision in this step")

    def _deciding(self, seat: object) -> bool:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
            return False
        w = self.waiting
        return isinstance(w, Simultaneous | Turn) and seat in w.pending

    def legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        memo = self._legal
        if memo is None:
            memo = self._legal = {}
        legal = memo.get(seat)
        if legal is None:
            legal = memo[seat] = self._legal_actions(seat) if self._deciding(seat) else ()
        return legal

    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        phase = self.phase
        if phase == ACTION:
            return movegen.turn_actions(self, seat)
        if phase == CARD:
            top = self.ceiling
            return tuple(Action("card", n=c) for c in self.players[seat].hand if c <= top)
        if phase == PUT:
            return movegen.put_actions(self, seat)
        if phase == COMBAT:
            return tuple(Action("combat", n=c) for c in sorted(set(self.players[seat].combat)))
        if phase == PLACE:
            open_slots = [s for s in range(SLOTS) if len(self.facedown[s]) < CAPACITY[s]]
            if not self.knows(seat):
                return tuple(Action("place", n=s) for s in open_slots)
            kinds = [k for k in self.reserve(seat)]
            return tuple(Action("place", n=s, m=k) for s in open_slots for k in kinds)
        assert phase == TEAM
        return movegen.TEAMS

    def check(self, seat: object, action: object) -> None:
        """Raise the error :meth:`apply` would raise, or return if the action is legal."""
        if not isinstance(action, Action) or not _well_formed(action):
            raise IllegalActionError(f"{action!r:.60} is not a Dungeon Twister action")
        if not self._deciding(seat):
            raise self._no_decision(seat)
        assert isinstance(seat, int)
        reason = self._illegal_reason(seat, action)
        if reason:
            raise IllegalActionError(f"illegal '{_shown(action)}': {reason}")

    def _illegal_reason(self, seat: int, action: Action) -> str:
        return checks.illegal_reason(self, seat, action)

    def parse_action(self, seat: object, text: object) -> Action:
        action = parse_action(text)
        self.check(seat, action)
        return action

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def split_private(self, seat: Seat, text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
        """A team (``team cleric goblin thief troll``) or a placement (``place 3 rope``) in the
        seat's own notation -> its public action and the values it seals: the team's starting
        squares ``start.S.Y``, or the placed token ``tok.S.N`` (N: the seat's next placement).
        Any other action has nothing to seal."""
        action = parse_action(text)
        if not is_private(action):
            if action.kind == "place" and self.phase == PLACE:
                raise InvalidActionError("place needs a slot and a token, e.g. place 2 rope")
            if action.kind == "team" and self.phase == TEAM:
                raise InvalidActionError("team needs your four characters, for y = 1, 3, 6 "
                                         "and 8, e.g. team cleric goblin thief troll")
            return format_action(action), ()
        if action.kind == "team":
            values = tuple((start_slot(seat, y), KINDS[k])
                           for y, k in zip(START_YS, action.path, strict=True))
        else:
            values = ((token_slot(seat, self.players[seat].placed + 1), KINDS[action.m]),)
        return format_action(public_part(action)), values

    def sealed_by(self, seat: Seat, action: Action) -> tuple[str, ...]:
        """A team seals the four starting squares; a placement its token ``tok.S.N``."""
        if action.kind == "team" and self.phase == TEAM:
            return tuple(start_slot(seat, y) for y in START_YS)
        if action.kind == "place" and self.phase == PLACE:
            return (token_slot(seat, self.players[seat].placed + 1),)
        return ()

    def apply(self, seat: object, action: object) -> TwisterState:
        self.check(seat, action)
        assert isinstance(seat, int) and isinstance(action, Action)
        return self._apply_unchecked(seat, action)

    def _apply_simultaneous(self, w: Simultaneous,
                            actions: Mapping[Seat, Action]) -> TwisterState:
        for seat in sorted(actions):
            self.check(seat, actions[seat])
        state = self
        for seat in sorted(actions):
            state = state._apply_unchecked(seat, actions[seat])
        return state

    def _apply_unchecked(self, seat: int, action: Action) -> TwisterState:
        new = self._copy()
        if is_private(action):
            flow.apply_public(new, seat, public_part(action))
            _, values = self.split_private(seat, format_action(action))
            new._learn(seat, values)
        else:
            flow.apply_public(new, seat, action)
        return new

    # ------------------------------------------------------------------ chance

    def apply_chance(self, event_id: str, outcome: str) -> TwisterState:
        outcome = check_outcome(pending_event(self.waiting, event_id), outcome)
        new = self._copy()
        flow.resolve_chance(new, outcome)
        return new

    # ------------------------------------------------------------------ sealed values

    def learn(self, seat: Seat, knowledge: Mapping[str, str]) -> TwisterState:
        """The seat learns its own sealed values (slot -> kind): slots it has sealed and not
        opened, each a token it has not sealed or opened elsewhere."""
        if not isinstance(seat, int) or not 0 <= seat < SEATS:
            raise InvalidKnowledgeError(f"there is no seat {seat!r}")
        new = self._copy()
        new._learn(seat, tuple(knowledge.items()))
        return new

    def _learn(self, seat: int, values: tuple[tuple[str, str], ...]) -> None:
        own = set(self.sealed_slots(seat))
        if self.phase == TEAM and self.knowledge[seat].team:
            own |= {start_slot(seat, y) for y in START_YS}
        opened = self.opened(seat)
        known = dict(self.knowledge[seat].sealed)
        for slot, kind in values:
            if not isinstance(slot, str) or not isinstance(kind, str):
                raise InvalidKnowledgeError("sealed values are text: slot -> kind")
            if slot not in own or slot in opened:
                raise InvalidKnowledgeError(f"seat {seat} has no unopened sealed value {slot}")
            if kind not in KINDS or (slot.startswith("start.") and kind not in CHARACTERS):
                raise InvalidKnowledgeError(f"{kind!r} cannot be sealed in {slot}")
            if known.get(slot, kind) != kind:
                raise InvalidKnowledgeError(f"seat {seat} already holds {slot} = {known[slot]}")
            known[slot] = kind
        kinds = list(known.values()) + list(opened.values())
        if len(kinds) != len(set(kinds)):
            raise InvalidKnowledgeError(f"seat {seat} would hold the same token twice (R32)")
        order = {s: i for i, s in enumerate(self.sealed_slots(seat))}
        order.update({start_slot(seat, y): i - 4 for i, y in enumerate(START_YS)})
        k = self.knowledge[seat]
        sealed = tuple(sorted(known.items(), key=lambda kv: order.get(kv[0], 99)))
        self._set(knowledge=_with(self.knowledge, seat, k._replace(sealed=sealed)))

    def _with_knowledge(self, seat: int, know: Know) -> TwisterState:
        """This state with ``seat``'s private knowledge set (checked as :meth:`learn`)."""
        new = self._copy()
        new._set(knowledge=_with(new.knowledge, seat, know._replace(sealed=())))
        if know.sealed:
            new._learn(seat, know.sealed)
        return new

    def open_sealed(self, seat: Seat, values: Mapping[str, str]) -> TwisterState:
        """``seat`` opens the sealed values the state waits for.  IllegalActionError (that
        seat's misbehaviour) for other slots, a value that is no token of the seat, a non-
        character on a starting square, or a token opened twice (R32)."""
        w = self.waiting
        if not isinstance(w, Openings):
            raise NotYourDecisionError("no sealed values are due now")
        request = next((r for r in w.requests if r.seat == seat), None)
        if request is None:
            raise NotYourDecisionError(f"seat {seat} owes no opening now")
        if not isinstance(values, Mapping) or set(values) != set(request.slots):
            raise IllegalActionError(
                f"seat {seat} must open exactly {', '.join(request.slots)}")
        seen = set(self.opened(seat).values())
        for slot in request.slots:
            kind = values[slot]
            if not isinstance(kind, str) or kind not in KINDS:
                raise IllegalActionError(f"seat {seat} opened {slot} as {kind!r}, which is no "
                                         "token (R32)")
            if slot.startswith("start.") and kind not in CHARACTERS:
                raise IllegalActionError(f"seat {seat} opened {slot} as {kind}, but a starting "
                                         "square holds a character")
            if kind in seen:
                raise IllegalActionError(f"seat {seat} opened its {kind} twice (R32: each of its "
                                         "14 tokens exactly once)")
            seen.add(kind)
        new = self._copy()
        flow.record_openings(new, seat, tuple((slot, values[slot]) for slot in request.slots))
        return new

    def void_sealed(self, seat: Seat) -> TwisterState:
        """A replaced seat can open nothing: it forfeits (GameSpec.replaced is "forfeit")."""
        if self.phase == OVER or seat in self.ending.forfeited:
            return self
        return self.forfeit(seat)

    # ------------------------------------------------------------------ endings

    def resign(self, seat: Seat) -> TwisterState:
        """The seat loses.  Every token still sealed is opened before the result."""
        self._may_end(seat)
        if seat in self.ending.resigned:
            raise IllegalActionError(f"seat {seat} has resigned already")
        e = self.ending
        return self._ending(e._replace(reason=e.reason or "resign",
                                       resigned=(*e.resigned, seat)))

    def forfeit(self, seat: Seat) -> TwisterState:
        """The seat forfeits (it broke R32, or was replaced): it loses; it opens nothing more."""
        self._may_end(seat)
        if seat in self.ending.forfeited:
            raise IllegalActionError(f"seat {seat} has forfeited already")
        e = self.ending
        return self._ending(e._replace(reason=e.reason or "forfeit",
                                       forfeited=(*e.forfeited, seat)))

    def agree_draw(self) -> TwisterState:
        """Both seats agreed to a draw (R29)."""
        if self.phase == OVER:
            raise IllegalActionError("the game is over")
        if self.phase == END_OPEN:
            raise IllegalActionError("the game is already ending")
        return self._ending(Ending("draw"))

    def _may_end(self, seat: object) -> None:
        if not isinstance(seat, int) or not 0 <= seat < SEATS:
            raise IllegalActionError(f"there is no seat {seat!r}")
        if self.phase == OVER:
            raise IllegalActionError("the game is over")

    def _ending(self, ending: Ending) -> TwisterState:
        new = self._copy()
        flow.begin_end(new, ending)
        return new


def _well_formed(action: Action) -> bool:
    """Every field of the type the notation gives it (a value built by hand may not be)."""
    return (action.kind in KINDS_OF_ACTION and isinstance(action.path, tuple)
            and all(type(v) is int for v in (action.who, action.n, action.m, *action.path)))


def _shown(action: Action) -> str:
    try:
        return format_action(action)
    except (IndexError, KeyError, ValueError):
        return repr(action)


def make_state(**fields: Any) -> TwisterState:
    """A state from every field (the position reader and :func:`new_game` use it)."""
    state = object.__new__(TwisterState)
    for f in _FIELDS:
        object.__setattr__(state, f, fields[f])
    state._board = None
    state._legal = None
    state._occ = None
    state._waiting = None
    return state


def new_game(players: int = 2, turn_cap: int = TURN_CAP) -> TwisterState:
    """A new match: both seats choose their starting teams.  ``turn_cap``: the game ends when
    turn number ``turn_cap`` ends (0: never; otherwise an even number, A28)."""
    if players != 2:
        raise ValueError("Dungeon Twister is for 2 players")
    if isinstance(turn_cap, bool) or not isinstance(turn_cap, int) or not (
            turn_cap == 0 or (2 <= turn_cap <= 1000 and turn_cap % 2 == 0)):
        raise ValueError(f"turn_cap is an even number of turns from 2 to 1000, or off (0), not "
                         f"{turn_cap!r}")
    return make_state(
        turn_cap=turn_cap, phase=TEAM, teamed=False, rooms=(None,) * SLOTS,
        gates=((),) * SLOTS, facedown=((),) * SLOTS, tokens=(Tok(),) * (SEATS * PER_SEAT),
        players=(Player(), Player()), placer=-1, turn=0, active=-1, ap=0, acts=0, highest=0,
        reveal=None, fight=None, ending=NO_ENDING, outcome=None, last=(),
        knowledge=(NO_KNOWLEDGE, NO_KNOWLEDGE))


__all__ = ["OPENING_PHASES", "PHASES", "TURN_CAP", "TwisterState", "ceiling", "make_state",
           "new_game"]
