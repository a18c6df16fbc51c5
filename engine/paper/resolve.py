"""Resolving die uses on one sheet (rules reference §3.4–§3.11, rulings 1–28 and §8).

A :class:`Work` is a mutable copy of a :class:`~engine.paper.sheet.Sheet` that one plan (or a
reward, or a setup power) is played on; :meth:`Work.freeze` gives the new sheet.  Every choice a
trigger needs (a free evolution, a free item step, the Death Scepter's minions) is asked of
``Work.ask(kind, options, k)``, which returns ``k`` of the ``options``: when a plan is checked it
reads the plan's answers in order (:class:`Script`), and the bots' plan generator branches
there instead.  Triggers resolve depth-first, the sheet's own benefit before the power's (Q3).

A plan is checked by playing it: nothing here enumerates plans.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Final, Protocol

from engine.core import IllegalActionError
from engine.paper.actions import (
    EVOLVE,
    ITEM,
    MOVE,
    POTIONS,
    SCEPTER,
    Answer,
    Plan,
    Use,
    format_answer,
    sort_rooms,
)
from engine.paper.data import (
    ALCHEMIST_POTIONS,
    ARMOUR,
    BOOTS,
    CAULDRON,
    CLOAK,
    CLOVER,
    COLUMNS,
    GEM_CIRCLE_EVOLUTION,
    GEM_CIRCLE_POTION,
    GRID,
    HEROES,
    ITEM_SYMBOL,
    ITEMS,
    LETTERS,
    MAX_LEVEL,
    MEDALLION,
    MINION_HERO,
    MINION_ROOMS,
    POTIONS_ACTION,
    POTIONS_MAX,
    POTIONS_PER_ROW,
    ROGUE,
    ROOM_NAMES,
    SKULL,
    TOME,
    WIZARD,
)
from engine.paper.data import (
    SCEPTER as SCEPTER_ITEM,
)
from engine.paper.sheet import WALL, WATER_EDGE, Board, Sheet

Ask = Callable[[str, tuple[int, ...], int], tuple[int, ...]]


class Policy(Protocol):
    """Answers triggers by itself, from the work being played (a bot's policy).  It is given
    the work on each call and keeps no reference to it, so a work and its policy form no
    reference cycle (which would leave every generated work to the cyclic collector)."""

    def answer(self, w: Work, kind: str, options: tuple[int, ...], k: int) -> tuple[int, ...]:
        ...

TRIGGER_NAMES: Final = {EVOLVE: "free evolution", ITEM: "free item step",
                        SCEPTER: "Death Scepter"}
_HINTS: Final = {EVOLVE: "evolve HERO", ITEM: "item ITEM", SCEPTER: "scepter ROOM ROOM"}
_HERO_FACES: Final = frozenset(HEROES)
_ROOM_MINION: Final = tuple((MINION_HERO[r.minion], r.level) if r.minion else (-1, 0)
                            for r in GRID)
_GEM_BIT: Final = tuple(1 << LETTERS.index(r.gem) if r.gem else 0 for r in GRID)
_ALL_MINIONS: Final = sum(1 << r for r in MINION_ROOMS)


def _never(kind: str, options: tuple[int, ...], k: int) -> tuple[int, ...]:
    raise AssertionError(f"no {TRIGGER_NAMES[kind]} can arise here")


class Script:
    """Answers a plan's triggers from its written answers, in order (ruling Q7)."""

    __slots__ = ("answers", "i")

    def __init__(self, answers: Sequence[Answer]) -> None:
        self.answers = answers
        self.i = 0

    def __call__(self, kind: str, options: tuple[int, ...], k: int) -> tuple[int, ...]:
        name = TRIGGER_NAMES[kind]
        if self.i >= len(self.answers):
            raise IllegalActionError(f"the {name} needs an answer ('{_HINTS[kind]}')")
        a = self.answers[self.i]
        self.i += 1
        if a.kind != kind:
            raise IllegalActionError(f"answer '{format_answer(a)}' is given where the {name} "
                                     f"needs '{_HINTS[kind]}' (answers go in trigger order)")
        values = a.values
        if kind == SCEPTER:
            if len(values) != k or len(set(values)) != k or sort_rooms(values) != values:
                raise IllegalActionError(f"the Death Scepter names {k} different minion "
                                         f"room{'s' if k > 1 else ''}, sorted")
            for r in values:
                if r not in options:
                    raise IllegalActionError(f"{ROOM_NAMES[r]} holds no undefeated minion")
            return values
        if len(values) != 1:
            raise IllegalActionError(f"the {name} names one {'hero' if kind == EVOLVE else 'item'}")
        if values[0] not in options:
            what = HEROES[values[0]] if kind == EVOLVE else ITEMS[values[0]]
            why = "is already at level 6" if kind == EVOLVE else "is already complete"
            raise IllegalActionError(f"the {name} cannot go to the {what}: it {why}")
        return values

    def finish(self) -> None:
        if self.i < len(self.answers):
            extra = format_answer(self.answers[self.i])
            raise IllegalActionError(f"answer '{extra}' has no trigger to answer")


def choices(kind: str, options: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
    """The possible answers of a trigger, in order: ``k`` of ``options`` (pairs of scepter
    rooms sorted by name)."""
    if k == 2:
        return [sort_rooms(p) for p in itertools.combinations(options, 2)]
    return [(o,) for o in options]


class Brancher:
    """An ``ask`` that follows ``prefix`` (an index per trigger, 0 past its end) and records
    what it took and how many answers each trigger had, so that every way of answering can be
    visited in turn (:meth:`next_prefix`)."""

    __slots__ = ("picks", "prefix", "sizes", "taken")

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.picks: list[int] = []
        self.sizes: list[int] = []
        self.taken: list[Answer] = []

    def __call__(self, kind: str, options: tuple[int, ...], k: int) -> tuple[int, ...]:
        found = choices(kind, options, k)
        j = len(self.picks)
        idx = self.prefix[j] if j < len(self.prefix) else 0
        self.picks.append(idx)
        self.sizes.append(len(found))
        self.taken.append(Answer(kind, found[idx]))
        return found[idx]

    def next_prefix(self) -> list[int] | None:
        """The prefix of the next way of answering, or None after the last."""
        picks, sizes = self.picks, self.sizes
        j = len(picks) - 1
        while j >= 0 and picks[j] + 1 >= sizes[j]:
            j -= 1
        if j < 0:
            return None
        return [*picks[:j], picks[j] + 1]


class Work:
    """A sheet being played on (see the module docstring)."""

    __slots__ = ("ask", "black", "board", "crossed", "crossings", "damage", "explored",
                 "hearts", "items", "letters", "levels", "minions", "policy", "potions", "power",
                 "psionic_used", "resurrected", "room", "sheet", "taken", "traps")

    levels: list[int]
    items: list[int]
    taken: list[Answer] | None
    policy: Policy | None  # when set, it answers instead of ``ask``

    def __init__(self, sheet: Sheet, board: Board, ask: Ask = _never) -> None:
        self.sheet = sheet
        self.board = board
        self.ask = ask
        self.levels = list(sheet.levels)
        self.black = tuple(c == "B" for c in sheet.styles) if sheet.styles else (False,) * 4
        self.power = sheet.power
        self.damage = sheet.damage
        self.resurrected = sheet.resurrected
        self.potions = sheet.potions
        self.hearts = sheet.hearts
        self.letters = sheet.letters
        self.crossed = sheet.crossed
        self.minions = sheet.minions
        self.items = list(sheet.items)
        self.room = sheet.room
        self.explored = sheet.explored
        self.traps = sheet.traps
        self.crossings = sheet.crossings
        self.psionic_used = False
        self.taken = None
        self.policy = None

    def copy(self) -> Work:
        w = Work.__new__(Work)
        w.sheet = self.sheet
        w.board = self.board
        w.ask = self.ask
        w.levels = self.levels[:]
        w.black = self.black
        w.power = self.power
        w.damage = self.damage
        w.resurrected = self.resurrected
        w.potions = self.potions
        w.hearts = self.hearts
        w.letters = self.letters
        w.crossed = self.crossed
        w.minions = self.minions
        w.items = self.items[:]
        w.room = self.room
        w.explored = self.explored
        w.traps = self.traps
        w.crossings = self.crossings
        w.psionic_used = self.psionic_used
        w.taken = None if self.taken is None else self.taken[:]
        w.policy = self.policy
        return w

    def freeze(self, rounds: tuple[str, ...] | None = None) -> Sheet:
        lv = self.levels
        s = self.sheet
        return Sheet((lv[0], lv[1], lv[2], lv[3]), s.styles, self.power, self.damage,
                     self.resurrected, self.potions, self.hearts, self.letters, self.crossed,
                     self.minions, tuple(self.items), self.room, self.explored, self.traps,
                     self.crossings, s.villains, s.missions,
                     s.rounds if rounds is None else rounds, s.resigned)

    # ------------------------------------------------------------------ derived

    def hp(self) -> int:
        lv = self.levels
        return lv[0] + lv[1] + lv[2] + lv[3]

    def gems(self) -> int:
        return (self.letters.bit_count() + (self.levels[ROGUE] >= 4)
                + (self.potions >= POTIONS_MAX))

    # ------------------------------------------------------------------ asking

    def _choose(self, kind: str, options: tuple[int, ...], k: int) -> tuple[int, ...]:
        policy = self.policy
        values = (self.ask(kind, options, k) if policy is None
                  else policy.answer(self, kind, options, k))
        if self.taken is not None:
            self.taken.append(Answer(kind, values))
        return values

    # ------------------------------------------------------------------ sheet events

    def hurt(self, n: int) -> None:
        """One damage event: hearts first, then the damage column; resurrection (ruling 9)."""
        if n <= 0:
            return
        free = 2 * self.potions - self.hearts
        absorbed = n if n < free else free
        self.hearts += absorbed
        self.damage += n - absorbed
        if not self.resurrected and self.damage > self.hp():
            self.resurrected = True

    def gain_potions(self, k: int) -> None:
        """Fill ``k`` potions one at a time; a completed row's bonus at once (§3.7)."""
        for _ in range(k):
            if self.potions >= POTIONS_MAX:
                continue  # ruling 8: lost
            self.potions += 1
            if self.potions % POTIONS_PER_ROW == 0:
                row = self.potions // POTIONS_PER_ROW
                if row == 1:
                    self.free_evolution()
                elif row == 2:
                    self.free_item()
                else:
                    self.gem_added()  # extra gem #2 (the 12th potion)

    def gem_added(self) -> None:
        """A circle of the gem track was just filled (the count already holds it)."""
        c = self.gems()
        if c == GEM_CIRCLE_POTION:
            self.gain_potions(1)
        elif c == GEM_CIRCLE_EVOLUTION:
            self.free_evolution()
        if self.power == "merchant":
            self.gain_potions(1)

    def evolve(self, h: int) -> None:
        self.levels[h] += 1
        level = self.levels[h]
        if level == 4 and h == ROGUE:
            self.gem_added()  # extra gem #1
        elif level == 5 and self.power == "noble":
            self.free_item()

    def free_evolution(self) -> None:
        lv = self.levels
        options = tuple(h for h in range(4) if lv[h] < MAX_LEVEL)
        if options:  # else lost (ruling 20), and takes no answer (Q7)
            self.evolve(self._choose(EVOLVE, options, 1)[0])

    def free_item(self) -> None:
        it = self.items
        options = tuple(i for i in range(8) if it[i] < 2)
        if options:
            self.item_step(self._choose(ITEM, options, 1)[0])

    def item_step(self, i: int) -> None:
        self.items[i] += 1
        if self.items[i] == 2:
            if i == SCEPTER_ITEM:
                self.scepter()
            elif i == CAULDRON:
                self.gain_potions(3)
            elif i == TOME:
                self.free_evolution()

    def scepter(self) -> None:
        left = _ALL_MINIONS & ~self.minions
        if not left:
            return
        options = tuple(r for r in MINION_ROOMS if left >> r & 1)
        for r in self._choose(SCEPTER, options, min(2, len(options))):
            self.defeat(r)

    def defeat(self, r: int) -> None:
        self.minions |= 1 << r
        if self.minions.bit_count() % 3 == 0:
            if self.power == "beastmaster":
                self.free_item()
            elif self.power == "shaman":
                self.gain_potions(1)

    def enter(self, r: int) -> None:
        """Step into room ``r`` and resolve its events (§3.9, ruling 18)."""
        bit = 1 << r
        first = not self.explored & bit
        self.explored |= bit
        self.room = r
        room = GRID[r]
        if room.minion and not self.minions & bit:
            hero, level = _ROOM_MINION[r]
            strength = self.levels[hero] + (self.items[ARMOUR] == 2)
            if level > strength:
                self.hurt(level - strength)
            self.defeat(r)
        if room.trap:
            self.traps += 1
            if self.power != "scout":
                self.hurt(1)
        if first:
            if room.potions:
                self.gain_potions(room.potions)
            if room.item:
                self.free_item()
            if room.evo:
                self.free_evolution()
            gem = _GEM_BIT[r]
            if gem and not (self.letters | self.crossed) & gem:
                self.letters |= gem
                self.gem_added()

    # ------------------------------------------------------------------ die uses

    def step(self, r: int, allowance: int) -> int:
        """One step of a move into room ``r``; returns the allowance after it (the Ranger
        adds one for a water crossing)."""
        cur = self.room
        kind = -1
        for j, k in self.board.steps[cur]:
            if j == r:
                kind = k
                break
        if kind < 0:
            raise IllegalActionError(f"{ROOM_NAMES[cur]} to {ROOM_NAMES[r]} is no step (rooms "
                                     "side by side, or a side passage)")
        if kind == WALL:
            if self.items[CLOAK] != 2:
                raise IllegalActionError(f"a wall stands between {ROOM_NAMES[cur]} and "
                                         f"{ROOM_NAMES[r]} (the Intangibility Cloak passes it)")
            self.crossings += 1
        elif kind == WATER_EDGE:
            if self.items[MEDALLION] != 2:
                raise IllegalActionError(f"water lies between {ROOM_NAMES[cur]} and "
                                         f"{ROOM_NAMES[r]} (the Khar Medallion crosses it)")
            self.crossings += 1
            if self.power == "ranger":
                allowance += 1
        self.enter(r)
        return allowance

    def move(self, die: int, face: str, entry: int, path: tuple[int, ...]) -> None:
        allowance = 3 if face == BOOTS else 2
        if not path:
            raise IllegalActionError("a move takes at least one step (ruling 4)")
        start = 0
        if self.room < 0:
            if entry < 0:
                raise IllegalActionError("your party is outside the dungeon: its first move "
                                         "starts at an entry ('move entryC C1')")
            if path[0] != entry:
                raise IllegalActionError(f"entry{COLUMNS[entry]} leads into "
                                         f"{COLUMNS[entry]}1, not {ROOM_NAMES[path[0]]}")
            self.enter(path[0])
            start = 1
        elif entry >= 0:
            raise IllegalActionError("your party is in the dungeon: only its first move names "
                                     "an entry (ruling 41)")
        for n, r in enumerate(path[start:], start):
            if n >= allowance:
                raise IllegalActionError(f"this die gives {allowance} steps here, and the move "
                                         f"takes {len(path)}")
            allowance = self.step(r, allowance)

    def evolve_with(self, die: int, face: str, psionic: bool, h: int) -> None:
        if face != CLOVER and face != HEROES[h]:
            raise IllegalActionError(f"it shows {face}, not the {HEROES[h]}'s symbol")
        if self.levels[h] >= MAX_LEVEL:
            raise IllegalActionError(f"your {HEROES[h]} is already at level 6 (ruling 21)")
        needed = (face != CLOVER and (die >= 4) != self.black[h]
                  and self.levels[WIZARD] < 4)
        if needed and not psionic:
            colour, style = ("black", "white") if die >= 4 else ("white", "black")
            raise IllegalActionError(f"it is a {colour} die and your {HEROES[h]} trains with "
                                     f"{style} dice")
        if psionic and not needed:
            raise IllegalActionError("psionic is written only when an evolution needs it (Q2)")
        if psionic:
            self.psionic_used = True
        self.evolve(h)

    def item_with(self, die: int, face: str, i: int) -> None:
        symbol = ITEM_SYMBOL[i]
        if face != CLOVER and symbol >= 0 and face != HEROES[symbol]:
            raise IllegalActionError(f"it shows {face}; the {ITEMS[i]} takes the "
                                     f"{HEROES[symbol]} symbol or a clover")
        if self.items[i] >= 2:
            raise IllegalActionError(f"the {ITEMS[i]} is already complete (ruling 21)")
        self.item_step(i)

    def use(self, u: Use, face: str) -> None:
        """Resolve one use of a die showing ``face`` (its answers come from ``ask``)."""
        die = u.die
        if face == SKULL:
            raise IllegalActionError("it shows a skull and cannot be used")
        kind = u.kind
        if u.psionic:
            if kind != EVOLVE:
                raise IllegalActionError("psionic only changes the colour of an evolution die")
            if self.power != "psionic":
                raise IllegalActionError("psionic needs the Psionic power")
            if self.psionic_used:
                raise IllegalActionError("psionic works on one die a round")
        if kind == MOVE:
            self.move(die, face, u.entry, u.path)
            return
        if face == BOOTS:
            raise IllegalActionError("it shows boots, which only ever move")
        if kind == EVOLVE:
            self.evolve_with(die, face, u.psionic, u.arg)
        elif kind == ITEM:
            self.item_with(die, face, u.arg)
        elif kind == POTIONS:
            self.gain_potions(ALCHEMIST_POTIONS if self.power == "alchemist"
                              else POTIONS_ACTION)
        else:
            raise IllegalActionError(f"unknown use {kind!r}")


def _face(roll: Sequence[str], die: object) -> str:
    if not isinstance(die, int) or not 1 <= die <= len(roll):
        raise IllegalActionError(f"there is no die {die!r}")
    return roll[die - 1]


def play_uses(sheet: Sheet, uses: Sequence[Use], board: Board, roll: Sequence[str]) -> Sheet:
    """Play ``uses`` in order on ``sheet`` (no count or round counter: fragments, as the
    rules' examples E2 and E3 are).  Raises :class:`IllegalActionError`."""
    w = Work(sheet, board)
    for u in uses:
        script = Script(u.answers)
        w.ask = script
        try:
            w.use(u, _face(roll, u.die))
            script.finish()
        except IllegalActionError as exc:
            raise IllegalActionError(f"die {u.die}: {exc}") from None
    return w.freeze()


def _shape(u: object) -> Use:
    """``u`` if it is a use its notation describes exactly (a value built by hand may not be:
    a hero index on a potions use, an unknown kind, an unsorted scepter answer)."""
    if not isinstance(u, Use) or not isinstance(u.path, tuple) or not isinstance(
            u.answers, tuple):
        raise IllegalActionError(f"{u!r:.60} is not a die use")
    kind, arg = u.kind, u.arg
    ok = (type(u.die) is int and type(u.psionic) is bool and type(arg) is int
          and type(u.entry) is int and all(type(r) is int and 0 <= r < 42 for r in u.path))
    if kind == MOVE:
        ok = ok and arg == -1 and -1 <= u.entry < 6 and bool(u.path)
    elif kind in (EVOLVE, ITEM):
        ok = ok and 0 <= arg < (4 if kind == EVOLVE else 8) and u.entry == -1 and not u.path
    else:
        ok = ok and kind == POTIONS and arg == -1 and u.entry == -1 and not u.path
    if not ok or not all(_answer_ok(a) for a in u.answers):
        raise IllegalActionError(f"{u!r:.80} is not a well-formed die use")
    return u


def _answer_ok(a: object) -> bool:
    values = a.values if isinstance(a, Answer) and isinstance(a.values, tuple) else ()
    return isinstance(a, Answer) and bool(values) and all(type(v) is int for v in values) and (
        (a.kind == EVOLVE and len(values) == 1 and 0 <= values[0] < 4)
        or (a.kind == ITEM and len(values) == 1 and 0 <= values[0] < 8)
        or (a.kind == SCEPTER and len(values) <= 2 and all(0 <= v < 42 for v in values)))


def play_plan(sheet: Sheet, plan: object, board: Board, roll: Sequence[str]) -> Sheet:
    """Check and play a whole plan (three distinct dice, ruling 3), recording the round
    counter (Q20).  Raises :class:`IllegalActionError` naming what is wrong."""
    if not isinstance(plan, Plan) or not isinstance(plan.uses, tuple):
        raise IllegalActionError(f"{plan!r:.40} is not a plan")
    uses = tuple(_shape(u) for u in plan.uses)
    if len(uses) != 3:
        raise IllegalActionError(f"a plan uses exactly three dice, not {len(uses)} (ruling 3)")
    dice = [u.die for u in uses]
    for d in dice:
        if dice.count(d) > 1:
            raise IllegalActionError(f"die {d} is used twice")
    new = play_uses(sheet, uses, board, roll)
    counter = "".join(str(d) for d in sorted(dice))
    return new._replace(rounds=(*sheet.rounds, counter))


def play_answers(sheet: Sheet, board: Board, answers: Sequence[Answer],
                 start: Callable[[Work], None]) -> Sheet:
    """Run ``start`` (a reward) on the sheet, its triggers answered by ``answers``."""
    if not isinstance(answers, tuple) or not all(_answer_ok(a) for a in answers):
        raise IllegalActionError(f"{answers!r:.80} are not well-formed answers")
    script = Script(answers)
    w = Work(sheet, board, script)
    start(w)
    script.finish()
    return w.freeze()


def hurt(sheet: Sheet, n: int) -> Sheet:
    """One damage event on a sheet (skulls, a villain)."""
    if n <= 0:
        return sheet
    free = 2 * sheet.potions - sheet.hearts
    absorbed = n if n < free else free
    damage = sheet.damage + n - absorbed
    lv = sheet.levels
    resurrected = sheet.resurrected or damage > lv[0] + lv[1] + lv[2] + lv[3]
    return sheet._replace(hearts=sheet.hearts + absorbed, damage=damage,
                          resurrected=resurrected)
