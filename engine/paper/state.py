"""The Paper Dungeons state machine (rules reference §3, §4; issue 32's rulings).

Phases, in order::

    SETUP   chance: the dungeon card and 3 missions (public), then 2 powers and 2 objectives
            dealt to every seat (private: ``apply_private``, the owner ``learn`` s its cards)
    CHOOSE  simultaneous "setup": each seat keeps a power (with its setup answer), shows the
            training styles, and seals the index of its kept objective
    ROLL    chance "R{r}.roll.{k}": the six dice; a rejected roll is rolled again (k + 1)
    PLAN    simultaneous "R{r}.plan": every live seat's plan; then the end of the round
    REWARD  turn "R{r}.reward": the villain's unique top chooses its reward's answers
    OPEN    openings: each live seat opens its sealed objective
    OVER

A plan touches only its own sheet (§4), so every peer checks every revealed plan by playing it
on that seat's public sheet: :meth:`PaperState.check` never enumerates plans, and
:meth:`PaperState.legal_actions` offers none in a plan step (there are up to millions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from engine.core import (
    Chance,
    ChanceEvent,
    IllegalActionError,
    InvalidActionError,
    InvalidChanceError,
    NotYourDecisionError,
    Openings,
    Over,
    Simultaneous,
    TimeClass,
    Turn,
    Visibility,
)
from engine.paper import private
from engine.paper.actions import (
    PaperAction,
    Plan,
    RewardChoice,
    SetupChoice,
    format_action,
    parse_answers,
    parse_plan,
    parse_setup,
)
from engine.paper.data import (
    DUNGEON_LETTERS,
    MISSION_IDS,
    MISSIONS_IN_PLAY,
    ROUNDS,
    SEASON_END,
    STORIES,
)
from engine.paper.records import (
    NO_KNOWLEDGE,
    POWERS_DECK,
    SETUP_STEP,
    Knowledge,
    Options,
    Phase,
    deal_event,
    objective_slot,
)
from engine.paper.resolve import play_plan
from engine.paper.rounds import (
    all_rolls,
    apply_setup,
    check_setup,
    cross_out,
    fight,
    missing_gems,
    parse_roll,
    play_reward,
    rejected,
    reward_choices,
    score_missions,
    skull_damage,
    villain_of,
)
from engine.paper.score import outcome
from engine.paper.sheet import BOARDS, NEW_SHEET, Board, Sheet
from engine.plugin import PluginState, check_outcome, pending_event

if TYPE_CHECKING:
    from engine.core import Seat, Waiting

_PUBLIC: Final = Visibility.PUBLIC

FIELDS: Final = (
    "n", "options", "phase", "dungeon", "missions", "open_missions", "dealt", "setup",
    "round", "attempt", "roll", "sheets", "plans", "fight", "reward", "shown", "kept", "void",
    "outcome", "knowledge",
)


class PaperState(PluginState[PaperAction]):
    """An immutable Paper Dungeons state.  Build one with :func:`new_game` or
    :func:`engine.paper.position.from_position`; every transition returns a new state (this
    module writes only to fresh copies)."""

    game: ClassVar[str] = "paper"
    FIELDS: ClassVar[tuple[str, ...]] = FIELDS
    NO_KNOWLEDGE: ClassVar[Knowledge] = NO_KNOWLEDGE

    __slots__ = (*FIELDS, "_memo", "_waiting")

    n: int
    options: Options
    phase: Phase
    dungeon: str
    missions: tuple[str, ...]  # the missions drawn, in order
    open_missions: tuple[str, ...]  # those still in play
    dealt: int  # private deals done
    setup: tuple[SetupChoice | None, ...]  # revealed setup choices (public form)
    round: int  # 0 during setup, then 1..8
    attempt: int  # the roll attempt of this round (1, 2, ...)
    roll: tuple[str, ...]  # the accepted roll of this round (six faces), or ()
    sheets: tuple[Sheet, ...]
    plans: tuple[str, ...]  # the plans revealed last, per seat ("" none)
    fight: tuple[int, ...]  # the latest fight's combat levels (-1: fled or out); () none yet
    reward: int  # the seat choosing a reward, else -1
    shown: tuple[tuple[int, str], ...]  # per seat: its objective deal shown (index, card)
    kept: tuple[int, ...]  # per seat: its opened objective index (-1: not opened)
    void: tuple[bool, ...]  # per seat: its sealed objective can never be opened
    knowledge: tuple[Knowledge, ...]
    _waiting: Waiting | None
    _memo: dict[tuple[int, Plan], Sheet] | None

    # ------------------------------------------------------------------ copying and equality

    def _copy(self) -> PaperState:
        new = PaperState.__new__(PaperState)
        for name in FIELDS:
            setattr(new, name, getattr(self, name))
        new._waiting = None
        new._memo = None
        return new

    def __repr__(self) -> str:
        return f"<PaperState {self.n}p {self.phase.value} round {self.round}>"

    # ------------------------------------------------------------------ derived facts

    @property
    def seats(self) -> int:
        return self.n

    @property
    def board(self) -> Board:
        return BOARDS[self.dungeon]

    @property
    def solo(self) -> bool:
        return self.n == 1

    @property
    def live(self) -> frozenset[int]:
        """Seats that have not resigned."""
        return frozenset(i for i, s in enumerate(self.sheets) if not s.resigned)

    @property
    def step(self) -> str:
        if self.phase is Phase.CHOOSE:
            return SETUP_STEP
        if self.phase is Phase.PLAN:
            return f"R{self.round}.plan"
        if self.phase is Phase.REWARD:
            return f"R{self.round}.reward"
        return ""

    def season(self) -> int:
        """The current season (1, 2, 3; 0 during setup)."""
        r = self.round
        return 0 if r == 0 else 1 if r <= 3 else 2 if r <= 6 else 3

    def card(self, seat: int, deck: str, k: int) -> str:
        """The card of ``seat``'s deal ``k`` from ``deck`` if this state knows it, else ""."""
        event = f"setup.{'power' if deck == POWERS_DECK else 'objective'}.{seat}.{k}"
        for e, c in self.knowledge[seat].cards:
            if e == event:
                return c
        return ""

    # ------------------------------------------------------------------ waiting

    def _compute_waiting(self) -> Waiting:
        phase = self.phase
        if phase is Phase.CHOOSE or phase is Phase.PLAN:
            seats = self.live
            committed = frozenset(s for s in seats if self.knowledge[s].pending is not None)
            return Simultaneous(self.step, seats, committed)
        if phase is Phase.REWARD:
            return Turn(self.step, self.reward)
        if phase is Phase.OPEN:
            return private.openings(self)
        if phase is Phase.OVER:
            assert self.outcome is not None
            return Over(self.outcome)
        return Chance(self._chance_event())

    def _to_open(self) -> list[int]:
        return [s for s in range(self.n)
                if not self.sheets[s].resigned and not self.void[s] and self.kept[s] < 0]

    def _chance_event(self) -> ChanceEvent:
        if self.phase is Phase.ROLL:
            return ChanceEvent(f"R{self.round}.roll.{self.attempt}", all_rolls(), _PUBLIC)
        if not self.dungeon:
            return ChanceEvent("setup.dungeon", DUNGEON_LETTERS, _PUBLIC)
        if self.options.missions and len(self.missions) < MISSIONS_IN_PLAY:
            left = tuple(m for m in MISSION_IDS if m not in self.missions)
            return ChanceEvent(f"setup.mission.{len(self.missions) + 1}", left, _PUBLIC)
        return deal_event(self.n, self.dealt)

    def upcoming_events(self) -> tuple[str, ...]:
        """At setup, every public setup draw together; else the pending event."""
        if self.phase is Phase.SETUP:
            event = self._chance_event()
            if event.visibility is _PUBLIC:
                ids = [] if self.dungeon else ["setup.dungeon"]
                if self.options.missions:
                    ids += [f"setup.mission.{k}"
                            for k in range(len(self.missions) + 1, MISSIONS_IN_PLAY + 1)]
                return tuple(ids)
            return (event.id,)
        w = self.waiting
        return (w.event.id,) if isinstance(w, Chance) else ()

    def time_class(self, seat: Seat) -> TimeClass:
        """A plan is long, the reward quick, the setup choice normal."""
        if self.phase is Phase.PLAN:
            return TimeClass.LONG
        if self.phase is Phase.REWARD:
            return TimeClass.QUICK
        return TimeClass.NORMAL

    # ------------------------------------------------------------------ chance

    def apply_chance(self, event_id: object, outcome: object) -> PaperState:
        event = pending_event(self.waiting, event_id)
        if event.visibility is Visibility.PRIVATE:
            raise InvalidChanceError(f"{event.id} is a private deal: apply_private, then the "
                                     "owner learns its card")
        if not isinstance(outcome, str):
            raise InvalidChanceError(f"{outcome!r:.40} is not an outcome of {event.id}")
        new = self._copy()
        if self.phase is Phase.ROLL:
            try:
                faces = parse_roll(outcome)
            except ValueError:
                raise InvalidChanceError(f"{outcome!r:.60} is not a roll of the six dice "
                                         "(six faces, die 1 first)") from None
            if rejected(faces):
                new.attempt = self.attempt + 1  # ruling 39: rolled again, a new event
                return new
            new.roll = faces
            skulls = faces.count("skull")
            new.sheets = tuple(s if s.resigned else skull_damage(s, skulls)
                               for s in self.sheets)
            new.phase = Phase.PLAN
            return new
        outcome = check_outcome(event, outcome)
        if event.id == "setup.dungeon":
            new.dungeon = outcome
        else:
            new.missions = (*self.missions, outcome)
            new.open_missions = (*self.open_missions, outcome)
        return new

    def apply_private(self, event_id: str) -> PaperState:
        w = self.waiting
        if not isinstance(w, Chance) or w.event.visibility is not Visibility.PRIVATE:
            raise InvalidChanceError(f"no private deal is pending (got {event_id!r})")
        if event_id != w.event.id:
            raise InvalidChanceError(f"the pending deal is {w.event.id}, not {event_id!r}")
        new = self._copy()
        new.dealt = self.dealt + 1
        if new.dealt == 4 * self.n:
            new.phase = Phase.CHOOSE
        return new

    # ------------------------------------------------------------------ private knowledge

    def learn(self, seat: object, knowledge: Mapping[str, str]) -> PaperState:
        """A seat learns the cards dealt to it (``{"setup.power.2.0": "healer"}``) or its
        own sealed value (``{"objective.2": "1"}``)."""
        return private.learn(self, seat, knowledge)

    def split_private(self, seat: Seat, text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
        """A setup choice with its objective index: the public choice, and the sealed value
        ``objective.{seat}``.  Any other decision has no sealed part."""
        if self.phase is not Phase.CHOOSE or not text.lstrip().startswith("power"):
            return text, ()
        choice = parse_setup(text)
        if choice.objective < 0:
            raise InvalidActionError("a setup choice names the objective you keep too (it "
                                     "stays secret until the end), e.g. 'power 0 healer; "
                                     "styles B/W/W/B; objective 1'")
        return format_action(choice.public()), ((objective_slot(seat), str(choice.objective)),)

    def sealed_by(self, seat: Seat, action: object) -> tuple[str, ...]:
        """A setup choice seals the kept objective's index."""
        if self.phase is Phase.CHOOSE and isinstance(action, SetupChoice):
            return (objective_slot(seat),)
        return ()

    def private_claims(self, seat: Seat, action: object) -> tuple[str, ...]:
        """Keeping a power shows the card of that deal (its deck open proves it was dealt)."""
        if isinstance(action, SetupChoice):
            return (f"setup.power.{seat}.{action.deal}",)
        return ()

    def opening_claims(self, seat: Seat, values: Mapping[str, str]) -> tuple[str, ...]:
        """Opening the kept objective's index shows the card of that deal."""
        value = values.get(objective_slot(seat))
        if value in ("0", "1"):
            return (f"setup.objective.{seat}.{value}",)
        return ()

    def open_private(self, seat: Seat, event_id: str, outcome: str) -> PaperState:
        """``seat`` shows the card of one of its deals (with the deck's proof): its kept power
        once the setup is revealed (no change: the card is public already, and must agree),
        its kept objective at final scoring, and any deal at the end (the audit)."""
        return private.open_private(self, seat, event_id, outcome)

    def open_sealed(self, seat: Seat, values: Mapping[str, str]) -> PaperState:
        return private.open_sealed(self, seat, values)

    def void_sealed(self, seat: Seat) -> PaperState:
        """A replaced seat can never open its objective: it scores 0 (issue 32)."""
        if not 0 <= seat < self.n or self.phase is Phase.OVER or self.void[seat] or (
                self.kept[seat] >= 0):
            return self
        new = self._copy()
        void = list(self.void)
        void[seat] = True
        new.void = tuple(void)
        if self.phase is Phase.OPEN and not new._to_open():
            return new._finish()
        return new

    # ------------------------------------------------------------------ decisions

    def _no_decision(self, seat: object) -> NotYourDecisionError:
        w = self.waiting
        if isinstance(w, Over):
            return NotYourDecisionError("the game is over")
        if isinstance(w, Chance):
            return NotYourDecisionError(f"no decision now: waiting for chance event {w.event.id}")
        if isinstance(w, Openings):
            return NotYourDecisionError("no decision now: the objectives are being opened")
        if isinstance(w, Turn):
            return NotYourDecisionError(f"it is seat {w.seat}'s turn, not seat {seat}'s")
        if isinstance(seat, int) and seat in w.committed:
            return NotYourDecisionError(f"seat {seat} has already committed its decision")
        return NotYourDecisionError(f"seat {seat!r} has no decision in this step")

    def _deciding(self, seat: object) -> bool:
        w = self.waiting
        if not isinstance(seat, int) or isinstance(seat, bool):
            return False
        if isinstance(w, Turn):
            return w.seat == seat
        return isinstance(w, Simultaneous) and seat in w.pending

    def legal_actions(self, seat: Seat) -> tuple[PaperAction, ...]:
        """Setup: every choice, when this state knows the seat's four cards (its own state).
        Reward: every answer sequence.  A plan step offers none: check a plan instead."""
        if not self._deciding(seat):
            return ()
        if self.phase is Phase.REWARD:
            villain = villain_of(self.dungeon, SEASON_END[self.round])
            return tuple(reward_choices(self.sheets[seat], self.board, villain))
        if self.phase is Phase.CHOOSE:
            return private.setup_choices(self, seat)
        return ()

    def lists_actions(self, seat: Seat) -> bool:
        """A plan step lists no plans (there are 10^5 or more): they are checked."""
        return self.phase is not Phase.PLAN or not self._deciding(seat)

    def check(self, seat: object, action: object) -> None:
        if not self._deciding(seat):
            raise self._no_decision(seat)
        assert isinstance(seat, int)
        phase = self.phase
        if phase is Phase.PLAN:
            self._played(seat, action)
        elif phase is Phase.CHOOSE:
            if not isinstance(action, SetupChoice):
                raise IllegalActionError(f"{action!r:.40} is not a setup choice")
            try:
                check_setup(action)
                private.check_dealt(self, seat, action)
            except IllegalActionError as exc:
                try:
                    text = f"'{format_action(action)}'"
                except (IndexError, TypeError, ValueError, KeyError):
                    text = "setup choice"
                raise IllegalActionError(f"illegal {text}: {exc}") from None
        else:
            villain = villain_of(self.dungeon, SEASON_END[self.round])
            try:
                play_reward(self.sheets[seat], self.board, villain, action)
            except IllegalActionError as exc:
                raise IllegalActionError(f"illegal reward choice: {exc}") from None

    def _played(self, seat: int, action: object) -> Sheet:
        """The seat's sheet after its plan (checked by playing it; memoised per state)."""
        memo = self._memo
        if memo is None:
            memo = self._memo = {}
        if not isinstance(action, Plan):
            raise IllegalActionError(f"{action!r:.40} is not a plan")
        try:
            hash(action)
        except TypeError:
            raise IllegalActionError(f"{action!r:.80} is not a well-formed plan") from None
        key = (seat, action)
        sheet = memo.get(key)
        if sheet is None:
            try:
                sheet = play_plan(self.sheets[seat], action, self.board, self.roll)
            except IllegalActionError as exc:
                try:
                    text = f"'{format_action(action)}'"
                except (IndexError, TypeError, ValueError, AttributeError):
                    text = "(a malformed plan)"
                raise IllegalActionError(f"illegal plan {text}: {exc}") from None
            memo[key] = sheet
        return sheet

    def parse_action(self, seat: object, text: object) -> PaperAction:
        if self.phase is Phase.CHOOSE:
            action: PaperAction = parse_setup(text)
        elif self.phase is Phase.REWARD:
            action = parse_answers(text)
        else:
            action = parse_plan(text)
        self.check(seat, action)
        return action

    def format_action(self, action: PaperAction) -> str:
        return format_action(action)

    def apply(self, seat: object, action: object) -> PaperState:
        self.check(seat, action)
        assert isinstance(seat, int)
        if self.phase is Phase.REWARD:
            return self._rewarded(seat, action)
        assert isinstance(action, Plan | SetupChoice)
        knowledge = list(self.knowledge)
        k = knowledge[seat]
        objective = k.objective
        if isinstance(action, SetupChoice) and action.objective >= 0:
            objective = action.objective
            action = action.public()
        knowledge[seat] = Knowledge(k.cards, objective, action)
        if all(knowledge[s].pending is not None for s in self.live):
            return self._reveal(knowledge)
        new = self._copy()
        new.knowledge = tuple(knowledge)
        new._memo = self._memo
        return new

    def _apply_simultaneous(self, w: Simultaneous,
                            actions: Mapping[Seat, PaperAction]) -> PaperState:
        knowledge = list(self.knowledge)
        for seat in sorted(actions):
            action = actions[seat]
            try:
                self.check(seat, action)
            except IllegalActionError as exc:
                raise type(exc)(f"seat {seat}: {exc}") from None
            k = knowledge[seat]
            objective = k.objective
            if isinstance(action, SetupChoice) and action.objective >= 0:
                objective = action.objective
                action = action.public()
            assert isinstance(action, Plan | SetupChoice)
            knowledge[seat] = Knowledge(k.cards, objective, action)
        return self._reveal(knowledge)

    # ------------------------------------------------------------------ resolution

    def _reveal(self, knowledge: list[Knowledge]) -> PaperState:
        """Every live seat's decision is in: reveal them together and go on."""
        new = self._copy()
        live = self.live
        decisions = {s: knowledge[s].pending for s in sorted(live)}
        new.knowledge = tuple(Knowledge(k.cards, k.objective, None) for k in knowledge)
        sheets = list(self.sheets)
        if self.phase is Phase.CHOOSE:
            setup = list(self.setup)
            for s, c in decisions.items():
                assert isinstance(c, SetupChoice)
                setup[s] = c
                sheets[s] = apply_setup(sheets[s], self.board, c)
            new.setup = tuple(setup)
            new.sheets = tuple(sheets)
            new.round = 1
            new.attempt = 1
            new.phase = Phase.ROLL
            return new
        plans = [""] * self.n
        for s, p in decisions.items():
            assert isinstance(p, Plan)
            sheets[s] = self._played(s, p)
            plans[s] = format_action(p)
        new.plans = tuple(plans)
        new.sheets = cross_out(self.sheets, sheets)
        return new._fight()

    def _fight(self) -> PaperState:
        """Step 6 (self is fresh): the season's villain, then the reward."""
        season = SEASON_END.get(self.round, 0)
        if not season:
            return self._end_round()
        villain = villain_of(self.dungeon, season)
        sheets, levels, winner = fight(self.sheets, self.board, villain, season, self.n > 1)
        self.sheets = sheets
        self.fight = levels
        if winner >= 0:
            if reward_choices(sheets[winner], self.board, villain):
                self.phase = Phase.REWARD
                self.reward = winner
                return self
            given = list(sheets)
            given[winner] = play_reward(sheets[winner], self.board, villain, RewardChoice(()))
            self.sheets = tuple(given)
        return self._end_round()

    def _rewarded(self, seat: int, action: object) -> PaperState:
        new = self._copy()
        villain = villain_of(self.dungeon, SEASON_END[self.round])
        sheets = list(self.sheets)
        sheets[seat] = play_reward(sheets[seat], self.board, villain, action)
        new.sheets = tuple(sheets)
        new.reward = -1
        return new._end_round()

    def _end_round(self) -> PaperState:
        """Steps 7-9 (self is fresh): missing gems, missions, the next round or the end."""
        season = SEASON_END.get(self.round, 0)
        if season and (self.options.missing_gems or self.solo):
            self.sheets = missing_gems(self.sheets, villain_of(self.dungeon, season))
        if self.open_missions:
            self.sheets, self.open_missions = score_missions(
                self.sheets, self.board, self.open_missions, self.round, self.solo)
        self.roll = ()
        if self.round == ROUNDS:
            return self._to_openings()
        self.round += 1
        self.attempt = 1
        self.phase = Phase.ROLL
        return self

    def _to_openings(self) -> PaperState:
        self.phase = Phase.OPEN
        self.reward = -1
        if not self._to_open():
            return self._finish()
        return self

    def _finish(self) -> PaperState:
        objectives = [card if self.kept[s] == index >= 0 else ""
                      for s, (index, card) in enumerate(self.shown)]
        notes = []
        for s in range(self.n):
            if self.void[s]:
                notes.append("objective never opened (replaced seat): 0")
            elif self.sheets[s].resigned:
                notes.append("resigned")
            else:
                notes.append(f"objective {objectives[s]}" if objectives[s] else "")
        self.phase = Phase.OVER
        self.reward = -1
        self.outcome = outcome(self.sheets, self.board if self.dungeon else BOARDS["A"],
                               objectives, notes)
        return self

    # ------------------------------------------------------------------ endings

    def zombie_plays(self, seat: Seat) -> bool:
        """Not at the setup choice: it is made against the seat's own dealt cards, which no
        zombie can see — a seat replaced before it has chosen leaves the match (it forfeits:
        its sheet stops, the others play on)."""
        return self.phase is not Phase.CHOOSE

    def resign(self, seat: Seat) -> PaperState:
        """The seat's sheet stops: it plans, fights, scores missions and opens nothing more,
        and is ranked nowhere; the others play on."""
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalActionError(f"there is no seat {seat!r}")
        if self.phase is Phase.OVER:
            raise IllegalActionError("the game is over")
        if self.sheets[seat].resigned:
            raise IllegalActionError(f"seat {seat} has already resigned")
        new = self._copy()
        sheets = list(self.sheets)
        sheets[seat] = sheets[seat]._replace(resigned=True)
        new.sheets = tuple(sheets)
        k = self.knowledge[seat]
        if k.pending is not None:
            knowledge = list(self.knowledge)
            knowledge[seat] = Knowledge(k.cards, k.objective, None)
            new.knowledge = tuple(knowledge)
        if not new.live:
            return new._finish()
        if self.phase is Phase.CHOOSE or self.phase is Phase.PLAN:
            if all(new.knowledge[s].pending is not None for s in new.live):
                return new._reveal(list(new.knowledge))
        elif self.phase is Phase.REWARD and self.reward == seat:
            new.reward = -1
            return new._end_round()
        elif self.phase is Phase.OPEN and not new._to_open():
            return new._finish()
        return new


def make_state(**fields: Any) -> PaperState:
    """A state from every field (the position reader's constructor)."""
    missing = set(FIELDS) - set(fields)
    if missing:
        raise TypeError(f"missing fields: {sorted(missing)}")
    state = PaperState.__new__(PaperState)
    for name in FIELDS:
        setattr(state, name, fields[name])
    state._waiting = None
    state._memo = None
    return state


VARIANTS: Final = ("standard",)


def new_game(players: int = 1, variant: str = "standard", *, missions: bool = True,
             missing_gems: bool = False, story: str = "off", chapter: int = 1) -> PaperState:
    """A new game: the first state waits for the dungeon card (or, in story mode, the first
    mission, or the first deal)."""
    if not isinstance(players, int) or not 1 <= players <= 8:
        raise ValueError(f"Paper Dungeons is for 1 to 8 players, not {players!r}")
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)}; the "
                         "variants of the rules are the options missions and missing_gems)")
    if story != "off" and story not in STORIES:
        raise ValueError(f"unknown story {story!r} (known: off, {', '.join(STORIES)})")
    if not isinstance(chapter, int) or not 1 <= chapter <= 3:
        raise ValueError(f"a story has chapters 1 to 3, not {chapter!r}")
    options = Options(bool(missions), bool(missing_gems), story, chapter)
    return make_state(
        n=players, options=options, phase=Phase.SETUP, dungeon=options.dungeon, missions=(),
        open_missions=(), dealt=0, setup=(None,) * players, round=0, attempt=1, roll=(),
        sheets=(NEW_SHEET,) * players, plans=("",) * players, fight=(), reward=-1,
        shown=((-1, ""),) * players, kept=(-1,) * players, void=(False,) * players,
        outcome=None, knowledge=(NO_KNOWLEDGE,) * players)
