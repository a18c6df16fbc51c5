"""The rules around the plans: rolls and skulls, setup powers, the end of a round (gem
cross-outs, villain fights and rewards, missing gems, missions), rules reference §3.1–§3.3,
§3.11–§3.13 and rulings 13, 25, 29–35, 39."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from engine.core import IllegalActionError
from engine.paper.actions import (
    Answer,
    RewardChoice,
    SetupChoice,
    sort_rooms,
)
from engine.paper.data import (
    CLERIC,
    CLOVER,
    DICE,
    DUNGEONS,
    FACES,
    HEALER_POTIONS,
    LETTERS,
    MINION_ROOMS,
    MISSION_GLORY,
    MISSIONS,
    POWERS,
    REWARD_POTIONS,
    SKULL,
    SOLO_MISSION_GLORY,
    STYLE_PATTERNS,
    SWORD,
    VILLAINS,
    WARRIOR,
    Villain,
)
from engine.paper.resolve import Ask, Brancher, Work, hurt, play_answers
from engine.paper.score import METRICS
from engine.paper.sheet import Board, Sheet, hp, lairs_reached

# ---------------------------------------------------------------------- rolls (§3.3, ruling 39)

class Rolls(tuple[str, ...]):
    """The 6⁶ outcomes of a roll event (a tuple; its repr is short)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<the {len(self)} rolls of the six dice>"


_ROLLS: list[Rolls] = []


def all_rolls() -> Rolls:
    """The outcomes of a roll event, in order: every ordered combination of the six dice's
    faces, die 1 varying slowest, each face in its table order (§2.1), as six words."""
    if not _ROLLS:
        faces = [FACES[d] for d in range(1, DICE + 1)]
        _ROLLS.append(Rolls(" ".join(p) for p in itertools.product(*faces)))
    return _ROLLS[0]


def parse_roll(text: str) -> tuple[str, ...]:
    faces = tuple(text.split(" "))
    if len(faces) != DICE or any(f not in FACES[d + 1] for d, f in enumerate(faces)):
        raise ValueError(f"{text!r} is not a roll of the six dice")
    return faces


def rejected(faces: Sequence[str]) -> bool:
    """A roll with 3 or more skulls or 3 clovers is rolled again (§3.2 step 1)."""
    return faces.count(SKULL) >= 3 or faces.count(CLOVER) >= 3


def skull_damage(sheet: Sheet, skulls: int) -> Sheet:
    """Skull damage at the start of the round (§3.3, rulings 6 and 25)."""
    if sheet.levels[CLERIC] >= 4:
        return sheet
    n = max(0, skulls - 1) if sheet.power == "fortune_teller" else skulls
    return hurt(sheet, n)


# ---------------------------------------------------------------------- setup (§3.1 step 6)


def check_setup(choice: SetupChoice) -> None:
    """What a setup choice must be on its own, whatever was dealt."""
    if not (type(choice.deal) is int and type(choice.power) is str
            and type(choice.styles) is str and type(choice.objective) is int
            and isinstance(choice.args, tuple) and all(type(a) is int for a in choice.args)):
        raise IllegalActionError(f"{choice!r:.80} is not a well-formed setup choice")
    power = POWERS.get(choice.power)
    if power is None:
        raise IllegalActionError(f"there is no power {choice.power!r}")
    if choice.deal not in (0, 1):
        raise IllegalActionError("the kept power is deal 0 or deal 1")
    if choice.styles not in STYLE_PATTERNS:
        raise IllegalActionError(f"no objective marks the styles {'/'.join(choice.styles)}")
    if choice.objective not in (-1, 0, 1):
        raise IllegalActionError("the kept objective is 0 or 1")
    args = choice.args
    kind = power.choice
    if kind == "rooms":
        if len(args) != 2 or len(set(args)) != 2 or any(r not in MINION_ROOMS for r in args):
            raise IllegalActionError("the Assassin names two different minion rooms")
        if sort_rooms(args) != args:
            raise IllegalActionError("the Assassin's rooms are written sorted")
    elif kind == "items":
        if len(args) != 2 or not 0 <= args[0] < args[1] < 8:
            raise IllegalActionError("the Craftsman names two different items, in sheet order")
    elif kind == "heroes":
        if len(args) != 2 or not 0 <= args[0] < args[1] < 4:
            raise IllegalActionError("the Veteran names two different heroes, in sheet order")
    elif kind == "letter":
        if len(args) != 1 or not 0 <= args[0] < len(LETTERS):
            raise IllegalActionError("the Treasure Hunter names one gem letter, A to H")
    elif args:
        raise IllegalActionError(f"the {power.name} needs no setup answer")


def setup_answers(power: str) -> tuple[tuple[int, ...], ...]:
    """Every setup answer the power allows, in notation order."""
    kind = POWERS[power].choice
    if kind == "rooms":
        return tuple(sort_rooms(p) for p in itertools.combinations(MINION_ROOMS, 2))
    if kind == "items":
        return tuple(itertools.combinations(range(8), 2))
    if kind == "heroes":
        return tuple(itertools.combinations(range(4), 2))
    if kind == "letter":
        return tuple((i,) for i in range(len(LETTERS)))
    return ((),)


def apply_setup(sheet: Sheet, board: Board, choice: SetupChoice) -> Sheet:
    """The kept power and the styles go on the sheet; a setup power acts (no trigger can
    arise from one: each stays below every threshold)."""
    sheet = sheet._replace(power=choice.power, styles=choice.styles)
    w = Work(sheet, board)
    kind = POWERS[choice.power].choice
    if choice.power == "healer":
        w.gain_potions(HEALER_POTIONS)
    elif kind == "rooms":
        for r in choice.args:
            w.defeat(r)
    elif kind == "items":
        for i in choice.args:
            w.item_step(i)
    elif kind == "heroes":
        for h in choice.args:
            w.evolve(h)
    elif kind == "letter":
        w.letters |= 1 << choice.args[0]  # ruling 13: never declared, crosses nothing out
    return w.freeze()


# ---------------------------------------------------------------------- rewards (§3.12.4)


def _reward_start(villain: Villain) -> Callable[[Work], None]:
    if villain.reward == "evolve":
        return Work.free_evolution
    if villain.reward == "item":
        return Work.free_item
    return lambda w: w.gain_potions(REWARD_POTIONS)


def play_reward(sheet: Sheet, board: Board, villain: Villain, choice: object) -> Sheet:
    if not isinstance(choice, RewardChoice):
        raise IllegalActionError(f"{choice!r:.40} is not a reward choice")
    return play_answers(sheet, board, choice.answers, _reward_start(villain))


def branches(run: Callable[[Ask], object]) -> list[tuple[tuple[Answer, ...], object]]:
    """Run ``run(ask)`` once per way of answering the triggers it raises (depth first, in
    option order): every answer sequence with what ``run`` returned for it."""
    out: list[tuple[tuple[Answer, ...], object]] = []
    prefix: list[int] | None = []
    while prefix is not None:
        brancher = Brancher(prefix)
        result = run(brancher)
        out.append((tuple(brancher.taken), result))
        prefix = brancher.next_prefix()
    return out


def reward_choices(sheet: Sheet, board: Board, villain: Villain) -> tuple[RewardChoice, ...]:
    """Every answer sequence the reward takes; ``()`` when it takes none (then it is
    applied at once, with no decision)."""
    start = _reward_start(villain)

    def run(ask: Ask) -> object:
        w = Work(sheet, board, ask)
        start(w)
        return None

    found = [RewardChoice(answers) for answers, _ in branches(run)]
    if found == [RewardChoice(())]:
        return ()
    return tuple(found)


# ---------------------------------------------------------------------- villains (§3.12)


def combat_level(sheet: Sheet, villain: Villain) -> int:
    lv = sheet.levels
    return (hp(sheet) + lv[villain.weakness] + (lv[WARRIOR] >= 4)
            + 3 * (sheet.items[SWORD] == 2) + 2 * (sheet.power == "berserker"))


def fight(sheets: Sequence[Sheet], board: Board, villain: Villain, season: int,
          multiplayer: bool) -> tuple[tuple[Sheet, ...], tuple[int, ...], int]:
    """Every live sheet fights the season's villain.  Returns the sheets, each seat's combat
    level (-1: it fled, or it is out), and the seat that gets the reward (-1: nobody)."""
    out = list(sheets)
    levels = []
    for i, s in enumerate(sheets):
        if s.resigned:
            levels.append(-1)
            continue
        level = combat_level(s, villain) if lairs_reached(s, board)[season - 1] else -1
        tier = -1
        for t, threshold in enumerate(villain.thresholds):
            if level >= threshold:
                tier = t
        glory = villain.flee if tier < 0 else villain.glory[tier]
        villains = list(s.villains)
        villains[season - 1] = glory
        s = s._replace(villains=(villains[0], villains[1], villains[2]))
        if tier >= 0 and s.power != "barbarian":
            s = hurt(s, villain.damage[tier])
        out[i] = s
        levels.append(level if tier >= 0 else -1)
    winner = -1
    if multiplayer:
        best = max(levels)
        if best >= 0 and levels.count(best) == 1:
            winner = levels.index(best)
    return tuple(out), tuple(levels), winner


# ---------------------------------------------------------------------- gems and missions


def cross_out(before: Sequence[Sheet], after: Sequence[Sheet]) -> tuple[Sheet, ...]:
    """Step 5: the letters collected this round are crossed out on every live sheet that has
    not collected them (ruling 12)."""
    taken = 0
    for b, a in zip(before, after, strict=True):
        taken |= a.letters & ~b.letters
    if not taken:
        return tuple(after)
    return tuple(s if s.resigned else s._replace(crossed=s.crossed | (taken & ~s.letters))
                 for s in after)


def missing_gems(sheets: Sequence[Sheet], villain: Villain) -> tuple[Sheet, ...]:
    """Step 7 (variant, solo): the villain card's two gems leave every live sheet lacking
    them (Q12)."""
    mask = sum(1 << LETTERS.index(g) for g in villain.missing)
    return tuple(s if s.resigned else s._replace(crossed=s.crossed | (mask & ~s.letters))
                 for s in sheets)


def score_missions(sheets: Sequence[Sheet], board: Board, open_missions: Sequence[str],
                   round_no: int, solo: bool) -> tuple[tuple[Sheet, ...], tuple[str, ...]]:
    """Step 8: every mission still in play that some live sheet meets is scored by each
    sheet that meets it, and leaves the game (§3.13)."""
    out = list(sheets)
    left = []
    glory = SOLO_MISSION_GLORY[round_no] if solo else MISSION_GLORY
    for mid in open_missions:
        m = MISSIONS[mid]
        metric = METRICS[m.metric]
        met = [i for i, s in enumerate(sheets)
               if not s.resigned and metric(s, board) >= m.at_least]
        if not met:
            left.append(mid)
            continue
        for i in met:
            out[i] = out[i]._replace(missions=(*out[i].missions, (mid, glory)))
    return tuple(out), tuple(left)


def villain_of(dungeon: str, season: int) -> Villain:
    """The villain of ``season`` (1, 2, 3) on dungeon card ``dungeon``."""
    return VILLAINS[DUNGEONS[dungeon].villains[season - 1]]
