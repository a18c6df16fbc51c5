"""The Dungeons of Kards state (rules reference §3–§4 with the rulings of §7 and §10).

A state is immutable.  Its flow of play is a *stack of frames*: small tuples such as
``("main",)``, ``("strike", "mage", "skeleton", 0)`` or ``("fetch", 2, 24, ("war_axe",))``.
The top frame is what the state waits for: a chance frame poses a chance event, a decision
frame is a :class:`~engine.core.Turn` of one seat.  Automatic frames (a turn's start, the end
of a turn, a threshold check, resolving defeats) are run at once by :func:`settle` until the
top frame waits.  The frames are part of the public position (docs/rules/kards.md §3), so any
point of a turn can be written down and read back.

Transitions copy the state (``_copy``) and change only the fresh copy; the rule modules
(``flow``, ``combat``, ``legal``) receive that copy and never touch their input.
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
    Over,
    TimeClass,
    Turn,
    Visibility,
)
from engine.kards.actions import Action, format_action, parse_action
from engine.kards.cards import (
    ARENA_1,
    ARENA_2,
    CAMPAIGN_1,
    CAMPAIGN_2,
    EVENT_STEP,
    PACKS,
    Pack,
)
from engine.kards.combat import draw_result, last_standing, remove_seat
from engine.kards.decks import Orange
from engine.kards.flow import chance_event, decider, peek_target, resolve_chance, settle
from engine.kards.legal import decide, frame_legal, normalize, why_illegal
from engine.kards.records import NO_KNOWLEDGE, Char, Knowledge, Monster
from engine.plugin import (
    PluginState,
    check_outcome,
    check_owed,
    owed_requests,
    pending_event,
)

if TYPE_CHECKING:
    from engine.core import Seat, Waiting

MODES: Final = ("arena", "coop", "solo")
HELPS: Final = ("none", "random", "programmed")
Frame = tuple[Any, ...]

_FIELDS: Final = (
    "n", "mode", "copies", "team_size", "events", "abilities", "solo_help", "counter_budget",
    "round_cap", "first", "board", "chars", "monsters", "boss_appeared", "grey", "grey_tail",
    "orange", "yellow", "lair", "appeared", "treasured", "unused", "revealed", "events_done",
    "help_done", "rounds", "turn", "dice", "acts", "grey_draws", "orange_draws",
    "yellow_draws", "active", "turn_over", "resigned", "stack", "log", "outcome",
    "knowledge",
)
QUICK_FRAMES: Final = frozenset({"mist", "save", "keep", "choose", "recruit", "place", "cell",
                                 "attacks"})


class KardsState(PluginState[Action]):
    """An immutable Dungeons of Kards state.  Build one with :func:`new_game` or
    :func:`engine.kards.position.from_position`."""

    game: ClassVar[str] = "kards"
    FIELDS: ClassVar[tuple[str, ...]] = _FIELDS
    NO_KNOWLEDGE: ClassVar[Knowledge] = NO_KNOWLEDGE

    __slots__ = (*_FIELDS, "_waiting", "_legal", "auto")

    n: int  # seats
    mode: str  # "arena", "coop", "solo"
    copies: int
    team_size: int
    events: bool
    abilities: bool
    solo_help: str
    counter_budget: bool
    round_cap: int  # 0: off
    first: int  # the first player's seat (-1 before it is drawn)
    board: tuple[str, ...]  # size × size cells: a dungeon card id or ""
    chars: tuple[Char, ...]  # one per seat (index = seat); solo: the player's, then allies
    monsters: tuple[Monster, ...]  # on the map, in order of appearance
    boss_appeared: bool
    grey: tuple[str, ...]  # the grey hidden segment (pack order)
    grey_tail: tuple[str, ...]
    orange: Orange
    yellow: tuple[str, ...]  # treasures left (pack order)
    lair: tuple[str, ...]  # first in, first out
    appeared: tuple[str, ...]  # monster cards that have been on the map
    treasured: tuple[str, ...]  # monster cards whose first defeat is done
    unused: tuple[str, ...]  # solo programmed help: characters that may still join
    revealed: int  # the revealed-card count
    events_done: int  # event levels resolved (0..4)
    help_done: int  # programmed-help offers made
    rounds: int  # rounds completed
    turn: int  # turns started
    dice: int  # dice rolled this turn (for event ids)
    acts: int  # decisions taken this turn (for step names)
    grey_draws: int
    orange_draws: int
    yellow_draws: int
    active: int  # index into chars of the active character (-1 in set-up)
    turn_over: bool  # the active character fell or saved itself: its turn only winds down
    resigned: tuple[bool, ...]  # per seat
    stack: tuple[Frame, ...]
    log: tuple[str, ...]
    knowledge: tuple[Knowledge, ...]  # private, per seat
    _waiting: Waiting | None
    _legal: tuple[Action, ...] | None
    # The decisions the last transition made at once, each the only legal one: (seat, action
    # text).  Not part of the position, the digest or equality: what the narration says.
    auto: tuple[tuple[int, str], ...]

    # ------------------------------------------------------------------ value semantics

    def _copy(self) -> KardsState:
        """A fresh copy to build the next state in (caches empty).  Straight-line code, kept
        in step with _FIELDS (checked at import)."""
        new = KardsState.__new__(KardsState)
        new.n = self.n
        new.mode = self.mode
        new.copies = self.copies
        new.team_size = self.team_size
        new.events = self.events
        new.abilities = self.abilities
        new.solo_help = self.solo_help
        new.counter_budget = self.counter_budget
        new.round_cap = self.round_cap
        new.first = self.first
        new.board = self.board
        new.chars = self.chars
        new.monsters = self.monsters
        new.boss_appeared = self.boss_appeared
        new.grey = self.grey
        new.grey_tail = self.grey_tail
        new.orange = self.orange
        new.yellow = self.yellow
        new.lair = self.lair
        new.appeared = self.appeared
        new.treasured = self.treasured
        new.unused = self.unused
        new.revealed = self.revealed
        new.events_done = self.events_done
        new.help_done = self.help_done
        new.rounds = self.rounds
        new.turn = self.turn
        new.dice = self.dice
        new.acts = self.acts
        new.grey_draws = self.grey_draws
        new.orange_draws = self.orange_draws
        new.yellow_draws = self.yellow_draws
        new.active = self.active
        new.turn_over = self.turn_over
        new.resigned = self.resigned
        new.stack = self.stack
        new.log = self.log
        new.outcome = self.outcome
        new.knowledge = self.knowledge
        new._waiting = None
        new._legal = None
        new.auto = ()
        return new

    def __repr__(self) -> str:
        top = self.stack[-1][0] if self.stack else "over"
        return f"<KardsState {self.mode} {self.n}p turn {self.turn} {top}>"

    # ------------------------------------------------------------------ derived facts

    @property
    def seats(self) -> int:
        return self.n

    @property
    def pack(self) -> Pack:
        return PACKS[self.copies]

    @property
    def size(self) -> int:
        return self.pack.size

    @property
    def campaign(self) -> bool:
        return self.mode != "arena"

    @property
    def step_size(self) -> int:
        """The event threshold step: 5, or 10 with two copies (ruling 40)."""
        return EVENT_STEP * self.copies

    def char_index(self, card: str) -> int:
        for i, c in enumerate(self.chars):
            if c.card == card:
                return i
        return -1

    def monster_index(self, card: str) -> int:
        for i, m in enumerate(self.monsters):
            if m.card == card:
                return i
        return -1

    def figure(self, card: str) -> Char | Monster | None:
        i = self.char_index(card)
        if i >= 0:
            return self.chars[i]
        j = self.monster_index(card)
        return self.monsters[j] if j >= 0 else None

    def active_char(self) -> Char:
        return self.chars[self.active]

    def allied(self, a: Char, b: Char) -> bool:
        """Allies: everyone in a campaign, teammates in Arena (never oneself here)."""
        return a.card != b.card and (self.campaign or a.team == b.team)

    def enemies_of(self, c: Char) -> list[Char | Monster]:
        """Enemies on ``c``'s card: every monster, and Arena opponents (ruling 7)."""
        out: list[Char | Monster] = [m for m in self.monsters if m.cell == c.cell]
        if not self.campaign:
            out.extend(o for o in self.chars if o.cell == c.cell and o.team != c.team)
        return out

    def in_combat(self, c: Char) -> bool:
        if any(m.cell == c.cell for m in self.monsters):
            return True
        return not self.campaign and any(o.cell == c.cell and o.team != c.team
                                         for o in self.chars)

    def in_play(self) -> list[Char]:
        return [c for c in self.chars if c.cell >= 0]

    def teams(self) -> int:
        return self.n // self.team_size if self.mode == "arena" else 1

    def orange_event_id(self) -> str:
        return f"O{self.orange_draws + 1}"

    def start_cells(self) -> tuple[tuple[str, int], ...]:
        """The start cards of this game and their cells (§5.9)."""
        layout = {(1, True): ARENA_1, (1, False): CAMPAIGN_1, (2, True): ARENA_2,
                  (2, False): CAMPAIGN_2}[(self.copies, self.mode == "arena")]
        return tuple((card, y * self.size + x) for card, x, y in layout)

    def cell_of_card(self, card: str) -> int:
        try:
            return self.board.index(card)
        except ValueError:
            return -1

    # ------------------------------------------------------------------ waiting

    def _compute_waiting(self) -> Waiting:
        if self.outcome is not None:
            return Over(self.outcome)
        frame = self.stack[-1]
        event = chance_event(self, frame)
        if event is not None:
            return Chance(event)
        return Turn(self.step, decider(self, frame))

    @property
    def step(self) -> str:
        """The name of the pending decision: ``setup.pick.2``, ``T14.3.main`` (turn 14, its
        third decision)."""
        frame = self.stack[-1] if self.stack else ("over",)
        kind = frame[0]
        if self.turn == 0:
            return f"setup.{kind}.{decider(self, frame)}"
        return f"T{self.turn}.{self.acts + 1}.{kind}"

    def time_class(self, seat: Seat) -> TimeClass:
        w = self.waiting
        if isinstance(w, Turn) and w.seat == seat and self.stack[-1][0] in QUICK_FRAMES:
            return TimeClass.QUICK
        return TimeClass.NORMAL

    # ------------------------------------------------------------------ decisions

    def legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        w = self.waiting
        if not isinstance(w, Turn) or w.seat != seat:
            return ()
        legal = self._legal
        if legal is None:
            legal = self._legal = frame_legal(self, self.stack[-1])
        return legal

    def _no_decision(self, seat: object) -> NotYourDecisionError:
        w = self.waiting
        if isinstance(w, Over):
            return NotYourDecisionError("the game is over")
        if isinstance(w, Chance):
            return NotYourDecisionError(f"no decision now: waiting for chance event {w.event.id}")
        assert isinstance(w, Turn)
        return NotYourDecisionError(f"it is seat {w.seat}'s decision, not seat {seat}'s")

    def check(self, seat: object, action: object) -> None:
        if not isinstance(action, Action):
            raise IllegalActionError(f"{action!r:.40} is not a Dungeons of Kards action")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise NotYourDecisionError(f"{seat!r:.20} is not a seat")
        w = self.waiting
        if not isinstance(w, Turn) or w.seat != seat:
            raise self._no_decision(seat)
        if action not in self.legal_actions(seat):
            raise IllegalActionError(f"illegal '{format_action(action)}': "
                                     f"{why_illegal(self, self.stack[-1], action)}")

    def apply(self, seat: object, action: object) -> KardsState:
        self.check(seat, action)

        new = self._copy()
        decide(new, self.stack[-1], cast(Action, action))
        new.acts += 1
        settle(new)
        return new

    def parse_action(self, seat: object, text: object) -> Action:
        action = parse_action(text)
        if isinstance(seat, int) and not isinstance(seat, bool):
            w = self.waiting
            if isinstance(w, Turn) and w.seat == seat and action not in self.legal_actions(seat):
                action = normalize(self, action)
        self.check(seat, action)
        return action

    def format_action(self, action: Action) -> str:
        return format_action(action)

    # ------------------------------------------------------------------ chance

    def apply_chance(self, event_id: object, outcome: object) -> KardsState:
        outcome = check_outcome(pending_event(self.waiting, event_id), outcome)
        new = self._copy()
        resolve_chance(new, self.stack[-1], outcome)
        settle(new)
        return new

    def upcoming_events(self) -> tuple[str, ...]:
        """The pending event; with a level-2 event roll that may be the Friendly guardian, also
        the next orange draw, which the guardian would show its seat before it is drawn (its
        secrets must be committed before the roll: rules reference §8)."""
        w = self.waiting
        if not isinstance(w, Chance):
            return ()
        target = peek_target(self)
        return (w.event.id, target) if target else (w.event.id,)

    def preview_hidden(self, choose: Callable[[ChanceEvent], str]) -> dict[str, str]:
        """The peeked top orange card: the hidden draw posed exactly as it will be drawn."""
        top = self.orange.top_event
        if top is None:
            return {}
        event = ChanceEvent(top[0], top[1], Visibility.HIDDEN)
        return {event.id: check_outcome(event, choose(event))}

    # ------------------------------------------------------------------ private knowledge

    def knowledge_requests(self) -> tuple[KnowledgeRequest, ...]:
        return owed_requests(self.knowledge)

    def learn(self, seat: object, knowledge: Mapping[str, str]) -> KardsState:
        seat = check_owed(self.knowledge, seat, knowledge)
        k = self.knowledge[seat]
        top = self.orange.top_event
        for event, card in knowledge.items():
            if top is None or event != top[0] or card not in top[1]:
                raise InvalidKnowledgeError(f"{card!r:.40} cannot be the card of {event}")
        seen = dict(k.seen)
        seen.update(knowledge)
        new = self._copy()
        all_k = list(self.knowledge)
        all_k[seat] = Knowledge((), tuple(sorted(seen.items())))
        new.knowledge = tuple(all_k)
        return new

    # ------------------------------------------------------------------ endings

    def resign(self, seat: Seat) -> KardsState:
        """The seat leaves for good: its characters leave the map (their items are shuffled
        back, their gold leaves the game).  Solo: the game is lost.  Co-op: the others play
        on.  Arena: the seat is eliminated; a team or player left alone wins."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise IllegalActionError(f"there is no seat {seat!r:.20}")
        if self.outcome is not None:
            raise IllegalActionError("the game is over")
        if self.resigned[seat]:
            raise IllegalActionError(f"seat {seat} has already resigned")
        new = self._copy()
        remove_seat(new, seat)
        settle(new)
        return new

    def forfeit(self, seat: Seat) -> KardsState:
        """A forfeit (a seat replaced where the match cannot go on, or caught cheating): its
        resignation — and in Arena, once that leaves one team, the team wins at once, even in
        the set-up, where a resignation waits for the set-up's end (protocol.md §7.7: the match
        ends where the forfeit is made)."""
        new = self.resign(seat)
        if new.outcome is None and new.mode == "arena":
            teams = {c.team for c in new.chars if not new.resigned[c.seat]}
            if len(teams) == 1:
                last_standing(new, teams.pop())
        return new

    def agree_draw(self) -> KardsState:
        """Arena: a draw among the teams still in play (as at the round cap).  The campaign
        has no drawn result."""
        if self.outcome is not None:
            raise IllegalActionError("the game is over")
        if self.mode != "arena":
            raise IllegalActionError("the campaign has no draw: the party wins or loses")
        new = self._copy()
        draw_result(new, "drawn by agreement")
        return new


def make_state(**fields: Any) -> KardsState:
    missing = set(_FIELDS) - set(fields)
    if missing:
        raise TypeError(f"missing fields: {sorted(missing)}")
    state = KardsState.__new__(KardsState)
    for name in _FIELDS:
        object.__setattr__(state, name, fields[name])
    state._waiting = None
    state._legal = None
    state.auto = ()
    return state


FIELDS = _FIELDS


def _check_copier() -> None:
    """The copier is written out by hand: prove at import that it copies every field."""
    state = new_game(2)
    copied = state._copy()
    for name in _FIELDS:
        if getattr(copied, name) != getattr(state, name):
            raise AssertionError(f"_copy does not copy {name!r}")


# ---------------------------------------------------------------------- options


def _on_off(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("on", "off", "yes", "no", "true", "false"):
        return value.lower() in ("on", "yes", "true")
    raise ValueError(f"{name} is on or off, not {value!r}")


def resolve_options(players: int, mode: str, copies: object, team_size: object,
                    round_cap: object) -> tuple[str, int, int, int]:
    """Check a game's options; returns (mode, copies, team size, round cap)."""
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 8:
        raise ValueError(f"Dungeons of Kards is for 1 to 8 players, not {players!r}")
    if mode == "auto":
        mode = "solo" if players == 1 else "arena"
    if mode not in MODES:
        raise ValueError(f"mode is one of auto, {', '.join(MODES)}, not {mode!r}")
    if copies in ("auto", None):
        copies = 1 if players <= 4 else 2
    try:
        copies = int(cast(Any, copies))
    except (TypeError, ValueError):
        raise ValueError(f"copies is auto, 1 or 2, not {copies!r}") from None
    if copies not in (1, 2):
        raise ValueError(f"copies is auto, 1 or 2, not {copies!r}")
    try:
        size = int(cast(Any, team_size))
    except (TypeError, ValueError):
        raise ValueError(f"team_size is a whole number, not {team_size!r}") from None
    if isinstance(round_cap, str) and round_cap.lower() == "off":
        cap = 0
    elif round_cap is False or round_cap is None:
        cap = 0
    else:
        try:
            cap = int(cast(Any, round_cap))
        except (TypeError, ValueError):
            raise ValueError(f"round_cap is off or a number of rounds, not {round_cap!r}") \
                from None
        if not 0 <= cap <= 999:
            raise ValueError(f"round_cap is off or 1 to 999 rounds, not {cap}")
    if mode == "solo":
        if players != 1:
            raise ValueError(f"solo is for 1 player, not {players}")
    elif mode == "coop":
        if not 2 <= players <= 4:
            raise ValueError(f"the co-op campaign is for 2 to 4 players, not {players}")
    else:
        if players < 2:
            raise ValueError("Arena needs 2 to 8 players (one player: mode=solo)")
        if players > 4 * copies:
            raise ValueError(f"Arena with {players} players needs two copies (copies=2): "
                             f"one copy has 4 gates")
    if mode != "arena" and size != 1:
        raise ValueError("team_size is for Arena only")
    if mode == "arena":
        if size < 1 or players % size or players // size < 2:
            raise ValueError(f"{players} players cannot make teams of {size} (team_size 1 is "
                             f"every player for itself)")
        if size > 1 and copies == 1 and players != 4:
            raise ValueError("with one copy the only team game is 2v2")
    return mode, copies, size, cap


def new_game(players: int = 2, mode: str = "auto", copies: object = "auto",
             team_size: object = 1, events: object = True, abilities: object = True,
             solo_help: str = "none", counter_budget: object = False,
             round_cap: object = 40) -> KardsState:
    """A new game: it waits for the first-player draw (``setup.first``), or for the solo
    player's pick."""
    mode, ncopies, size, cap = resolve_options(players, mode, copies, team_size, round_cap)
    if solo_help not in HELPS:
        raise ValueError(f"solo_help is one of {', '.join(HELPS)}, not {solo_help!r}")
    if solo_help != "none" and mode != "solo":
        raise ValueError("solo_help is for the solo campaign")
    pack = PACKS[ncopies]
    board = [""] * (pack.size * pack.size)
    state = make_state(
        n=players, mode=mode, copies=ncopies, team_size=size,
        events=_on_off("events", events), abilities=_on_off("abilities", abilities),
        solo_help=solo_help, counter_budget=_on_off("counter_budget", counter_budget),
        round_cap=cap, first=-1, board=(), chars=(), monsters=(), boss_appeared=False,
        grey=(), grey_tail=(), orange=Orange((), 0, (), (), ()), yellow=pack.treasures,
        lair=(), appeared=(), treasured=(), unused=(), revealed=0, events_done=0,
        help_done=0, rounds=0, turn=0, dice=0, acts=0, grey_draws=0, orange_draws=0,
        yellow_draws=0, active=-1, turn_over=False, resigned=(False,) * players,
        stack=(("first",),) if players > 1 else (("pick", 0),), log=(), outcome=None,
        knowledge=(NO_KNOWLEDGE,) * players,
    )
    starts = state.start_cells()
    for card, cell in starts:
        board[cell] = card
    placed = {card for card, _ in starts}
    state.board = tuple(board)
    state.revealed = len(starts)
    state.grey = tuple(c for c in pack.dungeon if c not in placed)
    teams = state.teams()
    state.chars = tuple(Char("", s, s % teams, 0, -1, -1, 0, True, None, None, (), (), (),
                             False, 0, False) for s in range(players))
    if players == 1:
        state.first = 0
    settle(state)
    return state


_check_copier()
