"""The Dungeon Raiders state machine (rules reference §3, §4 and the rulings of §5).

Phases, in order::

    SETUP     chance: one character per seat, then (tactical) the starting map holder
    LEVEL     chance: the level card (its layout of face-up / face-down positions)
    DEAL      chance: each face-up position, left to right (public draws)
    ENTER     chance: turning a face-down room (a hidden event, fixed since level setup)
    PLAY      decision: every seat at once (basic) or one seat at a time (tactical)
    FOLLOWUP  decision: the crystal-ball users' follow-ups
    OVER

The engine never shuffles.  Each room draw is a chance event among the room cards not yet
drawn; six are never drawn, which removes them unseen.  The boss is the last room drawn
(level 5, position 5).  A face-down position is a hidden event: it is set up with the level but
resolved only when the room is entered, among the cards still undrawn then — which gives the same
distribution as a shuffled deck, because nothing else is drawn in between.

This module holds the state class: what it waits for, which actions are legal, the checked entry
points, the chance events it poses and the knowledge it owes.  The pieces a state is made of are
in ``records.py``; what the entry points do to a fresh copy (cards put down, a room resolved,
the next room or level) is in ``flow.py``; a room's resolution in ``resolve.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

from engine.core import (
    Chance,
    ChanceEvent,
    IllegalActionError,
    InvalidKnowledgeError,
    KnowledgeRequest,
    NotYourDecisionError,
    Outcome,
    Over,
    Simultaneous,
    Turn,
)
from engine.plugin import (
    PluginState,
    check_outcome,
    check_owed,
    owed_requests,
    pending_event,
)
from engine.raiders import flow
from engine.raiders.actions import PEEK, PLAY, Action, format_action, parse_action
from engine.raiders.cards import (
    BOSS_IDS,
    CARDS,
    CHARACTERS,
    CRYSTAL,
    ITEM_COPIES,
    ITEM_INDEX,
    KEY,
    LEVEL_CARDS,
    LEVELS,
    PLAYER_COUNTS,
    ROOM_IDS,
    ROOMS_PER_LEVEL,
    SWORD,
    TORCH,
    Boss,
    Category,
)
from engine.raiders.records import (
    _DEAL,
    _ENTER,
    _FIELDS,
    _FOLLOWUP,
    _HIDDEN,
    _ITEMS,
    _LEVEL,
    _OVER,
    _PENDING,
    _PLAY,
    _PUBLIC,
    _SETUP,
    _USED,
    NO_KNOWLEDGE,
    VARIANTS,
    Knowledge,
    Phase,
    Player,
    _event,
    _new_chance,
    _new_simultaneous,
)
from engine.raiders.resolve import NO_CARD, Resolution

if TYPE_CHECKING:
    from engine.core import Seat, Waiting

_ALL_SEATS: Final = {n: frozenset(range(n)) for n in PLAYER_COUNTS}


def _legal_for(key: int) -> tuple[Action, ...]:
    """The legal actions for a legal_actions() key (see there)."""
    used = key & 0b11111
    out = list(_POWER_ACTIONS[used])
    torch, crystal, key_held, sword = (bool(key >> b & 1) for b in (5, 6, 7, 8))
    key_ok, sword_ok, play, hidden = (bool(key >> b & 1) for b in (9, 10, 11, 12))
    if torch:
        out.append(PLAY["torch"])
    if crystal and play and (used != 0b11111 or torch or (key_held and key_ok)
                             or (sword and sword_ok)):
        out.append(PLAY["crystal"])
    if key_held and key_ok:
        out.append(PLAY["key"])
    if sword and sword_ok:
        out.append(PLAY["sword"])
    if torch and hidden:
        out.append(PEEK)
    return tuple(out)


def _key_ok(card: str) -> bool:
    data = CARDS[card].data
    return CARDS[card].category is Category.TREASURE or (
        isinstance(data, Boss) and data.escape == "key")


_LEGAL: Final[dict[int, tuple[Action, ...]]] = {}
_STEP_NAMES: Final = [[{phase: f"L{level}.R{room + 1}.{phase.value}" for phase in Phase}
                for room in range(ROOMS_PER_LEVEL)] for level in range(LEVELS + 1)]
_NOBODY: Final[frozenset[int]] = frozenset()
_KEY_OK: Final = {card: int(_key_ok(card)) for card in CARDS}
_SWORD_OK: Final = {card: int(CARDS[card].category in (Category.MONSTER, Category.BOSS))
             for card in CARDS}
_POWER_ACTIONS: Final = tuple(tuple(PLAY[str(v)] for v in range(1, 6) if not used >> (v - 1) & 1)
                       for used in range(32))




class RaidersState(PluginState[Action]):
    """An immutable Dungeon Raiders state.  Build one with :func:`new_game` or
    :meth:`from_position`; every transition returns a new state.

    Immutability is a contract, not a guard: this module writes only to fresh copies (see
    ``_copy_state``), and tests check that no transition changes its input.  (A
    ``__setattr__`` guard would rule out compiling this module with mypyc; see
    docs/engine.md, "Speed".)"""

    game: ClassVar[str] = "raiders"
    FIELDS: ClassVar[tuple[str, ...]] = _FIELDS
    NO_KNOWLEDGE: ClassVar[Knowledge] = NO_KNOWLEDGE

    __slots__ = (*_FIELDS, "_waiting", "_legal")

    n: int
    tactical: bool
    phase: Phase
    players: tuple[Player, ...]
    supply: tuple[int, int, int, int]
    level: int  # 0 before the first level, then 1..5
    level_cards: tuple[str, ...]  # level cards not yet drawn
    layout: str  # the current level card ("" before the first)
    row: tuple[str, ...]  # room card per position; "" = not dealt or still face down
    room: int  # index (0..4) of the current room
    rooms: tuple[str, ...]  # room cards not yet drawn
    plays: tuple[str, ...]  # revealed room cards this room, per seat ("" none yet)
    followups: tuple[str, ...]  # revealed follow-ups this room
    map: int  # tactical map holder (-1: none)
    turn: int  # tactical: index into the current turn order
    peeks: tuple[int, ...]  # torch peeks per seat this level (public)
    last: Resolution | None  # the latest room resolution
    outcome: Outcome | None
    knowledge: tuple[Knowledge, ...]  # private, per seat
    forfeited: int  # bit s: seat s forfeited (its zombie plays on; it cannot win)
    _waiting: Waiting | None  # caches (not part of the value)
    _legal: dict[int, tuple[Action, ...]] | None


    def _copy(self) -> RaidersState:
        return _copy_state(self)

    def __repr__(self) -> str:
        return (f"<RaidersState {self.n}p {'tactical ' if self.tactical else ''}"
                f"{self.phase.value} level {self.level} room {self.room + 1}>")

    # ------------------------------------------------------------------ derived facts

    @property
    def seats(self) -> int:
        return self.n

    @property
    def variant(self) -> str:
        return "tactical" if self.tactical else "basic"

    def face_down(self, position: int) -> bool:
        """Whether ``position`` (0..4) of the current row holds a card not yet turned."""
        return bool(self.layout) and LEVEL_CARDS[self.layout][position] and not self.row[position]

    def hidden_positions(self) -> tuple[int, ...]:
        """Positions of the current row whose card is still face down (dealt, not turned)."""
        if not self.layout or self.phase in (_LEVEL, _SETUP, _OVER):
            return ()
        layout = LEVEL_CARDS[self.layout]
        return tuple(p for p in range(ROOMS_PER_LEVEL) if layout[p] and not self.row[p])

    def event_id(self, position: int) -> str:
        return f"L{self.level}.R{position + 1}"

    @property
    def step(self) -> str:
        """A stable name for the current decision step (the protocol commits against it)."""
        base = _STEP_NAMES[self.level][self.room][self.phase]
        if self.tactical and self.phase in (_PLAY, _FOLLOWUP):
            return f"{base}.{self._turn_seat()}"
        return base

    def _is_boss_slot(self, position: int) -> bool:
        return self.level == LEVELS and position == ROOMS_PER_LEVEL - 1

    def _pool(self, position: int) -> tuple[str, ...]:
        return BOSS_IDS if self._is_boss_slot(position) else self.rooms

    def _decision_seats(self) -> frozenset[int]:
        if self.phase is _PLAY:
            return _ALL_SEATS[self.n]
        return frozenset(s for s in range(self.n) if self.plays[s] == "crystal"
                         and self.followups[s] == NO_CARD and not self._escapes_with_ball())

    def _escapes_with_ball(self) -> bool:
        data = CARDS[self.row[self.room]].data
        return isinstance(data, Boss) and data.escape == "crystal"

    def _turn_order(self) -> tuple[int, ...]:
        order = tuple((self.map + i) % self.n for i in range(self.n))
        if self.phase is _FOLLOWUP:
            return tuple(s for s in order if self.plays[s] == "crystal")
        return order

    def _turn_seat(self) -> int:
        return self._turn_order()[self.turn]

    # ------------------------------------------------------------------ waiting

    def _compute_waiting(self) -> Waiting:
        phase = self.phase
        if phase is _PLAY or phase is _FOLLOWUP:
            if self.tactical:
                return Turn(self.step, self._turn_seat())
            seats = self._decision_seats()
            knowledge = self.knowledge
            committed = frozenset([s for s in seats if knowledge[s][_PENDING]]) if any(
                [k[_PENDING] for k in knowledge]) else _NOBODY
            return _new_simultaneous((self.step, seats, committed))
        if phase is _OVER:
            assert self.outcome is not None
            return Over(self.outcome)
        return _new_chance((self._chance_event(),))

    def _chance_event(self) -> ChanceEvent:
        phase = self.phase
        if phase is _SETUP:
            for s, player in enumerate(self.players):
                if not player.character:
                    taken = {q.character for q in self.players}
                    left = tuple(c.kind for c in CHARACTERS if c.kind not in taken)
                    return ChanceEvent(f"setup.character.{s}", left, _PUBLIC)
            return ChanceEvent("setup.map", tuple(str(s) for s in range(self.n)),
                               _PUBLIC)
        if phase is _LEVEL:
            return _event(f"L{self.level + 1}.level", self.level_cards, _PUBLIC)
        if phase is _DEAL:
            p = self._next_deal()
            return _event(self.event_id(p), self._pool(p), _PUBLIC)
        assert phase is _ENTER
        return _event(self.event_id(self.room), self._pool(self.room), _HIDDEN)

    def _next_deal(self) -> int:
        layout = LEVEL_CARDS[self.layout]
        for p in range(ROOMS_PER_LEVEL):
            if not layout[p] and not self.row[p]:
                return p
        raise AssertionError("nothing left to deal")

    # ------------------------------------------------------------------ legality

    def _no_decision(self, seat: object) -> NotYourDecisionError:
        w = self.waiting
        if isinstance(w, Over):
            return NotYourDecisionError("the game is over")
        if isinstance(w, Chance):
            return NotYourDecisionError(f"no decision now: waiting for chance event {w.event.id}")
        if isinstance(w, Turn):
            return NotYourDecisionError(f"it is seat {w.seat}'s turn, not seat {seat}'s")
        if isinstance(w, Simultaneous) and seat in w.committed:
            return NotYourDecisionError(f"seat {seat} has already committed its card")
        return NotYourDecisionError(f"seat {seat} has no decision in this step")

    def _can_decide(self, seat: Seat) -> bool:
        phase = self.phase
        if phase is not _PLAY and phase is not _FOLLOWUP:
            return False
        if not 0 <= seat < self.n:
            return False
        if self.tactical:
            return self._turn_seat() == seat
        if self.knowledge[seat][_PENDING]:
            return False
        return phase is _PLAY or seat in self._decision_seats()

    def _illegal_reason(self, seat: Seat, action: Action) -> str:
        """Why ``action`` is illegal for ``seat`` now ("" if it is legal).  Assumes the seat
        has a decision."""
        player = self.players[seat]
        items = player.items
        if action.kind == "peek":
            if not items[TORCH]:
                return "you have no torch"
            if not self.hidden_positions():
                return "no face-down room is left in this row to look at"
            return ""
        card = action.card
        if card in ("1", "2", "3", "4", "5"):
            if player.used >> (int(card) - 1) & 1:
                return f"you already played your {card} in this level"
            return ""
        if not items[ITEM_INDEX[card]]:
            return f"you have no {'crystal ball' if card == 'crystal' else card}"
        category = CARDS[self.row[self.room]].category
        if card == "crystal":
            if self.phase is _FOLLOWUP:
                return "a follow-up cannot be another crystal ball (ruling 3)"
            if player.used == 0b11111 and not items[TORCH] and not (
                    items[KEY] and _KEY_OK[self.row[self.room]]) and not (
                    items[SWORD] and _SWORD_OK[self.row[self.room]]):
                return "a crystal ball needs a card left to follow it up (ruling 9)"
            return ""
        if card == "key":
            data = CARDS[self.row[self.room]].data
            if category is Category.TREASURE or (isinstance(data, Boss) and data.escape == "key"):
                return ""
            return "a key is only for treasure rooms and the Mega-Dragon"
        if card == "sword":
            if category is Category.MONSTER or category is Category.BOSS:
                return ""
            return "a sword is only for monster rooms and bosses"
        return ""  # torch: legal everywhere (ruling 2)

    def legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        memo = self._legal  # per state: a driver asks once per seat and apply_joint again
        if memo is None:
            memo = {}
            self._legal = memo
        legal = memo.get(seat)
        if legal is None:
            legal = memo[seat] = self._legal_actions(seat)
        return legal

    def _legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        if not self._can_decide(seat):
            return ()
        player = self.players[seat]
        items = player[_ITEMS]
        card = self.row[self.room]
        # The legal set depends on a handful of bits only; it is built once per combination.
        key = (player[_USED] | (items[TORCH] > 0) << 5 | (items[CRYSTAL] > 0) << 6
               | (items[KEY] > 0) << 7 | (items[SWORD] > 0) << 8 | _KEY_OK[card] << 9
               | _SWORD_OK[card] << 10 | (self.phase is _PLAY) << 11)
        if items[TORCH] and self._any_face_down():
            key |= 1 << 12
        try:
            return _LEGAL[key]
        except KeyError:
            legal = _LEGAL[key] = _legal_for(key)
            return legal

    def _any_face_down(self) -> bool:
        layout = LEVEL_CARDS[self.layout]
        row = self.row
        return any(layout[p] and not row[p] for p in range(self.room, ROOMS_PER_LEVEL))

    # The entry points take ``object`` and check types themselves, so that bad input gets the
    # engine's own errors whether this module runs interpreted or compiled (mypyc checks
    # annotated argument types at the call and would raise TypeError instead).

    def check(self, seat: object, action: object) -> None:
        """Raise the error that :meth:`apply` would raise, or return if the action is legal."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"{action!r:.40} is not a Dungeon Raiders action")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise NotYourDecisionError(f"{seat!r:.20} is not a seat")
        if not self._can_decide(seat):
            raise self._no_decision(seat)
        reason = self._illegal_reason(seat, action)
        if reason:
            raise IllegalActionError(f"illegal '{format_action(action)}': {reason}")

    def check_joint(self, seat: object, action: object) -> None:
        """For an action :meth:`check` accepts: only a card played is a part of a joint
        decision (a peek is taken beforehand, on its own)."""
        if not isinstance(action, Action) or action[0] != "play":
            raise IllegalActionError(
                f"seat {seat}: a joint decision holds cards only; peek beforehand")

    def parse_action(self, seat: object, text: object) -> Action:
        action = parse_action(text)
        self.check(seat, action)
        return action

    def format_action(self, action: Action) -> str:
        return format_action(action)

    # ------------------------------------------------------------------ decisions

    def apply(self, seat: object, action: object) -> RaidersState:
        self.check(seat, action)
        return self._apply_unchecked(cast(int, seat), cast(Action, action))

    def _apply_unchecked(self, seat: Seat, action: Action) -> RaidersState:
        if action.kind == "peek":
            return flow.peek(self, seat)
        card = action.card
        if self.tactical:
            return flow.play_in_turn(self, seat, card)
        seats = self._decision_seats()
        knowledge = list(self.knowledge)
        knowledge[seat] = Knowledge(card, knowledge[seat].owed, knowledge[seat].seen)
        if all(knowledge[s].pending for s in seats):
            return flow.reveal(self, {s: knowledge[s].pending for s in sorted(seats)},
                                held=len(seats) > 1)
        new = self._copy()
        new.knowledge = tuple(knowledge)
        return new

    def _apply_simultaneous(self, w: Simultaneous,
                            actions: Mapping[Seat, Action]) -> RaidersState:
        cards = {s: self.knowledge[s][_PENDING] for s in w[2]} if w[2] else {}
        for seat in sorted(actions):
            action = actions[seat]
            if not isinstance(action, Action) or action[0] != "play":
                raise IllegalActionError(
                    f"seat {seat}: a joint decision holds cards only; peek beforehand")
            if action not in self.legal_actions(seat):
                reason = self._illegal_reason(seat, action) or "not allowed now"
                raise IllegalActionError(f"seat {seat}: illegal '{format_action(action)}': "
                                         f"{reason}")
            cards[seat] = action[1]
        return flow.reveal(self, cards, held=bool(w[2]))

    # ------------------------------------------------------------------ chance

    def apply_chance(self, event_id: object, outcome: object) -> RaidersState:
        return flow.apply_chance(self, check_outcome(pending_event(self.waiting, event_id),
                                                     outcome))

    def upcoming_events(self) -> tuple[str, ...]:
        """At setup, every setup draw; before a level, its level card and all five room events
        (face-up ones are drawn at once, face-down ones and the boss when turned, but all are
        committed together before the level's first decision); else the pending event."""
        phase = self.phase
        if phase is _SETUP:
            events = [f"setup.character.{s}" for s, p in enumerate(self.players)
                      if not p.character]
            if self.tactical:
                events.append("setup.map")
            return tuple(events)
        if phase is _LEVEL:
            level = self.level + 1
            return (f"L{level}.level",
                    *(f"L{level}.R{p + 1}" for p in range(ROOMS_PER_LEVEL)))
        if phase is _DEAL or phase is _ENTER:
            return (self._chance_event().id,)
        return ()

    def turned_next(self) -> tuple[str, frozenset[int]] | None:
        """The next room, when it is face down: after the room cards, with every seat that
        holds a crystal ball (its follow-up is decided after the cards are seen); after the
        follow-ups, with nobody.  Not in the tactical variant (seats decide in turn), nor
        after a level's last room."""
        if self.tactical or (self.phase is not _PLAY and self.phase is not _FOLLOWUP):
            return None
        following = self.room + 1
        if following >= ROOMS_PER_LEVEL or not self.face_down(following):
            return None
        deciding = _NOBODY
        if self.phase is _PLAY:
            deciding = frozenset([s for s, p in enumerate(self.players) if p.items[CRYSTAL]])
        return self.event_id(following), deciding

    def preview_hidden(self, choose: Callable[[ChanceEvent], str]) -> dict[str, str]:
        """What the row's face-down rooms are, asking ``choose`` for each hidden event exactly as
        it will be posed when turned (in position order; nothing else is drawn in between)."""
        pool = self.rooms
        out: dict[str, str] = {}
        for p in self.hidden_positions():
            outcomes = self._pool(p) if self._is_boss_slot(p) else pool
            event = ChanceEvent(self.event_id(p), outcomes, _HIDDEN)
            card = check_outcome(event, choose(event))
            if not self._is_boss_slot(p):
                i = pool.index(card)
                pool = pool[:i] + pool[i + 1:]
            out[event.id] = card
        return out

    # ------------------------------------------------------------------ private knowledge

    def knowledge_requests(self) -> tuple[KnowledgeRequest, ...]:
        return owed_requests(self.knowledge)

    def learn(self, seat: object, knowledge: Mapping[str, str]) -> RaidersState:
        seat = check_owed(self.knowledge, seat, knowledge)
        k = self.knowledge[seat]
        # The cards must be distinct and possible: undrawn rooms, or a boss for the boss slot.
        rooms = set(self.rooms)
        seen_cards: set[str] = set()
        for event, card in knowledge.items():
            pool = BOSS_IDS if event == f"L{LEVELS}.R{ROOMS_PER_LEVEL}" else rooms
            if card not in pool or card in seen_cards:
                raise InvalidKnowledgeError(f"{card!r} cannot be the room of {event}")
            seen_cards.add(card)
        seen = dict(k.seen)
        seen.update(knowledge)
        ordered = tuple(sorted(seen.items()))
        new = self._copy()
        all_k = list(self.knowledge)
        all_k[seat] = Knowledge(k.pending, (), ordered)
        new.knowledge = tuple(all_k)
        return new

    # ------------------------------------------------------------------ endings

    def forfeit(self, seat: Seat) -> RaidersState:
        """The seat forfeits (protocol.md §7.7: it withheld an opening, or the match fell below
        two live seats).  Raiders has no resignation, and a seat cannot leave the table without
        changing every later room for the others, so the seat stays in play — its zombie plays
        its cards — but it cannot win: final scoring ranks it out (docs/rules/raiders.md)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise IllegalActionError(f"there is no seat {seat!r:.20}")
        if self.outcome is not None:
            raise IllegalActionError("the game is over")
        if self.forfeited >> seat & 1:
            raise IllegalActionError(f"seat {seat} has already forfeited")
        new = self._copy()
        new.forfeited = self.forfeited | 1 << seat
        return new


# ---------------------------------------------------------------------- construction


def new_game(players: int = 4, variant: str = "basic") -> RaidersState:
    """A new game before setup: the first state waits for the first character draw."""
    if players not in PLAYER_COUNTS:
        raise ValueError(f"Dungeon Raiders is for 3 to 5 players, not {players}")
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    return make_state(
        n=players,
        tactical=variant == "tactical",
        phase=_SETUP,
        players=tuple(Player("", 0, 0, (0, 0, 0, 0)) for _ in range(players)),
        supply=(ITEM_COPIES,) * 4,
        level=0,
        level_cards=tuple(LEVEL_CARDS),
        layout="",
        row=(NO_CARD,) * ROOMS_PER_LEVEL,
        room=0,
        rooms=ROOM_IDS,
        plays=(NO_CARD,) * players,
        followups=(NO_CARD,) * players,
        map=-1,
        turn=0,
        peeks=(0,) * players,
        last=None,
        outcome=None,
        knowledge=(NO_KNOWLEDGE,) * players,
        forfeited=0,
    )


def make_state(**fields: Any) -> RaidersState:
    """Build a state from every field (used by the position reader)."""
    missing = set(_FIELDS) - set(fields)
    if missing:
        raise TypeError(f"missing fields: {sorted(missing)}")
    state = RaidersState.__new__(RaidersState)
    for name in _FIELDS:
        setattr(state, name, fields[name])
    state._waiting = None
    state._legal = None
    return state


FIELDS = _FIELDS


def _copy_state(old: RaidersState) -> RaidersState:
    """A fresh copy to build the next state in (caches empty).  Straight-line code: the
    fastest copy of a slot object, interpreted or compiled.  Keep it in step with _FIELDS."""
    new = RaidersState.__new__(RaidersState)
    new.n = old.n
    new.tactical = old.tactical
    new.phase = old.phase
    new.players = old.players
    new.supply = old.supply
    new.level = old.level
    new.level_cards = old.level_cards
    new.layout = old.layout
    new.row = old.row
    new.room = old.room
    new.rooms = old.rooms
    new.plays = old.plays
    new.followups = old.followups
    new.map = old.map
    new.turn = old.turn
    new.peeks = old.peeks
    new.last = old.last
    new.outcome = old.outcome
    new.knowledge = old.knowledge
    new.forfeited = old.forfeited
    new._waiting = None
    new._legal = None
    return new


def _check_copier() -> None:
    # The copier is written out by hand (it must compile); prove at import that it copies
    # every field — a field it misses would be unset in the copy — so one added to the state
    # cannot be silently dropped.
    original = new_game(4)
    copied = _copy_state(original)
    for name in _FIELDS:
        if not hasattr(copied, name) or getattr(copied, name) != getattr(original, name):
            raise AssertionError(f"_copy_state does not copy {name!r}")


_check_copier()
