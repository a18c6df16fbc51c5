"""Paper Dungeons actions and their canonical notation (rules reference §8.1).

Three kinds of decision, each one action and one string:

* a **plan** (``Plan``): three uses, ``use; use; use``, each ``DIE [psionic] ACTION [{answers}]``::

      4 move C2 C3 D3 {evolve cleric}; 2 evolve rogue; 5 potions {evolve warrior}
      3 move entryC C1; 1 item crown; 6 psionic evolve wizard

* a **setup choice** (``SetupChoice``): which dealt power is kept (deal 0 or 1) with its setup
  answer, the training styles the kept objective marks, and, in the seat's own notation only,
  the index of the kept objective among its two dealt objectives (a sealed value)::

      power 1 assassin A5 F7; styles B/W/W/B; objective 0      (the seat's own notation)
      power 1 assassin A5 F7; styles B/W/W/B                   (the public action)

* a **reward choice** (``RewardChoice``): the answers a villain reward needs, in trigger order::

      evolve rogue, evolve warrior

One plan has one spelling: :func:`parse_action` reads a lenient form (any case, any spacing,
``entry C`` for ``entryC``, unsorted scepter rooms) only to name the canonical spelling in its
error; it accepts nothing but the canonical text, so ``format_action(parse_action(t)) == t``.
"""

from __future__ import annotations

from typing import Final, NamedTuple, Union

from engine.core import InvalidActionError
from engine.paper.data import (
    COLUMNS,
    DICE,
    HERO_INDEX,
    HEROES,
    ITEM_INDEX,
    ITEMS,
    LETTERS,
    POWERS,
    ROOM_INDEX,
    ROOM_NAMES,
)

MOVE: Final = "move"
EVOLVE: Final = "evolve"
ITEM: Final = "item"
POTIONS: Final = "potions"
SCEPTER: Final = "scepter"
USE_KINDS: Final = (MOVE, EVOLVE, ITEM, POTIONS)
ANSWER_KINDS: Final = (EVOLVE, ITEM, SCEPTER)


class Answer(NamedTuple):
    """The answer to one trigger: ``evolve`` a hero (index), an ``item`` step (item index), or
    the Death ``scepter``'s minion rooms (room indexes, sorted by room name)."""

    kind: str
    values: tuple[int, ...]


class Use(NamedTuple):
    """One die's use.  ``arg`` is the hero (evolve) or item (item step), else -1; a move has its
    ``entry`` column (0…5, or -1) and its ``path`` of rooms."""

    die: int
    psionic: bool
    kind: str
    arg: int
    entry: int
    path: tuple[int, ...]
    answers: tuple[Answer, ...]


class Plan(NamedTuple):
    """A round's plan: three uses, resolved in this order (ruling 1)."""

    uses: tuple[Use, ...]

    def __str__(self) -> str:
        return format_plan(self)


class SetupChoice(NamedTuple):
    """The setup decision.  ``deal`` (0 or 1) names which of the seat's two dealt powers it
    keeps; ``args`` are the kept power's setup answer (rooms, items, heroes or a gem letter,
    as indexes, sorted); ``styles`` the training styles ("BWWB": warrior, wizard, cleric,
    rogue); ``objective`` the index of the kept objective (0 or 1), or -1 in the public
    action (it is sealed until final scoring)."""

    deal: int
    power: str
    args: tuple[int, ...]
    styles: str
    objective: int

    def __str__(self) -> str:
        return format_setup(self)

    def public(self) -> SetupChoice:
        """The action without its sealed part."""
        return self._replace(objective=-1)


class RewardChoice(NamedTuple):
    """A villain reward's answers, in trigger order."""

    answers: tuple[Answer, ...]

    def __str__(self) -> str:
        return format_answers(self.answers)


PaperAction = Union[Plan, SetupChoice, RewardChoice]  # noqa: UP007  (used at run time)

# ---------------------------------------------------------------------- formatting


def room_name(i: int) -> str:
    return ROOM_NAMES[i]


def sort_rooms(rooms: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Rooms in the notation's order: by room name."""
    return tuple(sorted(rooms, key=ROOM_NAMES.__getitem__))


def format_answer(a: Answer) -> str:
    if a.kind == EVOLVE:
        return f"evolve {HEROES[a.values[0]]}"
    if a.kind == ITEM:
        return f"item {ITEMS[a.values[0]]}"
    return "scepter " + " ".join(ROOM_NAMES[r] for r in a.values)


def format_answers(answers: tuple[Answer, ...]) -> str:
    return ", ".join(format_answer(a) for a in answers)


def format_use(u: Use) -> str:
    parts = [str(u.die)]
    if u.psionic:
        parts.append("psionic")
    if u.kind == MOVE:
        parts.append(MOVE)
        if u.entry >= 0:
            parts.append(f"entry{COLUMNS[u.entry]}")
        parts.extend(ROOM_NAMES[r] for r in u.path)
    elif u.kind == EVOLVE:
        parts.extend((EVOLVE, HEROES[u.arg]))
    elif u.kind == ITEM:
        parts.extend((ITEM, ITEMS[u.arg]))
    else:
        parts.append(POTIONS)
    text = " ".join(parts)
    if u.answers:
        text += " {" + format_answers(u.answers) + "}"
    return text


def format_plan(plan: Plan) -> str:
    return "; ".join(format_use(u) for u in plan.uses)


def format_styles(styles: str) -> str:
    return "/".join(styles)


def setup_answer_names(power: str, args: tuple[int, ...]) -> list[str]:
    choice = POWERS[power].choice
    if choice == "rooms":
        return [ROOM_NAMES[r] for r in args]
    if choice == "items":
        return [ITEMS[i] for i in args]
    if choice == "heroes":
        return [HEROES[h] for h in args]
    if choice == "letter":
        return [LETTERS[i] for i in args]
    return []


def format_setup(c: SetupChoice) -> str:
    text = " ".join(["power", str(c.deal), c.power, *setup_answer_names(c.power, c.args)])
    text += f"; styles {format_styles(c.styles)}"
    if c.objective >= 0:
        text += f"; objective {c.objective}"
    return text


def format_action(action: object) -> str:
    """The canonical text of any Paper Dungeons action."""
    if isinstance(action, Plan):
        return format_plan(action)
    if isinstance(action, SetupChoice):
        return format_setup(action)
    if isinstance(action, RewardChoice):
        return format_answers(action.answers)
    raise InvalidActionError(f"{action!r:.40} is not a Paper Dungeons action")


# ---------------------------------------------------------------------- parsing (lenient)

PLAN_HELP: Final = ("a plan is three uses 'DIE ACTION', separated by '; ', e.g. "
                    "'4 move C2 C3 {evolve cleric}; 2 evolve rogue; 5 potions'")
_SEPARATORS: Final = {"{": " { ", "}": " } ", ",": " , ", ";": " ; "}


def _tokens(text: str) -> list[str]:
    for sep, spaced in _SEPARATORS.items():
        text = text.replace(sep, spaced)
    return text.split()


def _hero(word: str) -> int:
    try:
        return HERO_INDEX[word.lower()]
    except KeyError:
        raise InvalidActionError(f"there is no hero {word!r} (heroes: {', '.join(HEROES)})"
                                 ) from None


def _item(word: str) -> int:
    try:
        return ITEM_INDEX[word.lower()]
    except KeyError:
        raise InvalidActionError(f"there is no item {word!r} (items: {', '.join(ITEMS)})"
                                 ) from None


def _room(word: str) -> int:
    try:
        return ROOM_INDEX[word.upper()]
    except KeyError:
        raise InvalidActionError(f"there is no room {word!r} (rooms are A1 to F7)") from None


def _split(tokens: list[str], sep: str) -> list[list[str]]:
    groups: list[list[str]] = [[]]
    for t in tokens:
        if t == sep:
            groups.append([])
        else:
            groups[-1].append(t)
    return groups


def _answer(words: list[str]) -> Answer:
    if not words:
        raise InvalidActionError("an empty answer (two commas in a row?)")
    kind = words[0].lower()
    rest = words[1:]
    if kind == EVOLVE and len(rest) == 1:
        return Answer(EVOLVE, (_hero(rest[0]),))
    if kind == ITEM and len(rest) == 1:
        return Answer(ITEM, (_item(rest[0]),))
    if kind == SCEPTER and 1 <= len(rest) <= 2:
        return Answer(SCEPTER, sort_rooms([_room(w) for w in rest]))
    raise InvalidActionError(f"unknown answer {' '.join(words)!r}: answers are 'evolve HERO', "
                             "'item ITEM' or 'scepter ROOM [ROOM]'")


def _answers(tokens: list[str]) -> tuple[Answer, ...]:
    return tuple(_answer(words) for words in _split(tokens, ","))


def _use(tokens: list[str]) -> Use:
    if not tokens:
        raise InvalidActionError(f"an empty use; {PLAN_HELP}")
    answers: tuple[Answer, ...] = ()
    if "{" in tokens:
        i = tokens.index("{")
        if tokens[-1] != "}" or tokens.count("{") != 1 or tokens.count("}") != 1:
            raise InvalidActionError("a use's answers are one group in braces at its end: "
                                     "'{evolve cleric, item crown}'")
        answers = _answers(tokens[i + 1:-1])
        tokens = tokens[:i]
    elif "}" in tokens:
        raise InvalidActionError("a '}' without its '{'")
    if not tokens[0].isdigit() or not 1 <= int(tokens[0]) <= DICE:
        raise InvalidActionError(f"a use starts with its die, 1 to 6, not {tokens[0]!r}")
    die = int(tokens[0])
    words = tokens[1:]
    psionic = bool(words) and words[0].lower() == "psionic"
    if psionic:
        words = words[1:]
    if not words:
        raise InvalidActionError(f"die {die} has no action (move, evolve, item or potions)")
    kind = words[0].lower()
    rest = words[1:]
    if kind == MOVE:
        entry = -1
        if rest and rest[0].lower().startswith("entry"):
            tail = rest[0][5:]
            if not tail and len(rest) > 1:
                tail, rest = rest[1], rest[1:]
            if len(tail) != 1 or tail.upper() not in COLUMNS:
                raise InvalidActionError("an entry is entryA to entryF")
            entry = COLUMNS.index(tail.upper())
            rest = rest[1:]
        if not rest:
            raise InvalidActionError(f"die {die}: a move names the rooms it steps into")
        return Use(die, psionic, MOVE, -1, entry, tuple(_room(w) for w in rest), answers)
    if kind == EVOLVE and len(rest) == 1:
        return Use(die, psionic, EVOLVE, _hero(rest[0]), -1, (), answers)
    if kind == ITEM and len(rest) == 1:
        return Use(die, psionic, ITEM, _item(rest[0]), -1, (), answers)
    if kind == POTIONS and not rest:
        return Use(die, psionic, POTIONS, -1, -1, (), answers)
    raise InvalidActionError(f"unknown use {' '.join(tokens)!r}: a die moves "
                             "('move C2 C3'), evolves a hero ('evolve rogue'), steps an item "
                             "('item crown') or makes potions ('potions')")


def lenient_uses(text: str) -> tuple[Use, ...]:
    """Any number of uses, read leniently: a fragment of a plan (the rules' examples E2 and
    E3 are fragments), or a plan being built."""
    return tuple(_use(g) for g in _split(_tokens(text), ";"))


def lenient_plan(text: str) -> Plan:
    """A plan read leniently (see the module docstring); no legality is checked."""
    tokens = _tokens(text)
    groups = _split(tokens, ";")
    if len(groups) != 3:
        raise InvalidActionError(f"a plan has exactly three uses, not {len(groups)}; {PLAN_HELP}")
    return Plan(tuple(_use(g) for g in groups))


def lenient_answers(text: str) -> RewardChoice:
    return RewardChoice(_answers(_tokens(text)) if text.strip() else ())


def lenient_setup(text: str) -> SetupChoice:
    parts = _split(_tokens(text), ";")
    head = parts[0]
    if len(head) < 3 or head[0].lower() != "power" or head[1] not in ("0", "1"):
        raise InvalidActionError("a setup choice starts 'power 0' or 'power 1' (which dealt "
                                 "power you keep), e.g. 'power 0 healer; styles B/W/W/B; "
                                 "objective 1'")
    deal = int(head[1])
    power = head[2].lower()
    if power not in POWERS:
        raise InvalidActionError(f"there is no power {head[2]!r}")
    args = _setup_args(power, head[3:])
    styles = ""
    objective = -1
    for part in parts[1:]:
        if len(part) == 2 and part[0].lower() == "styles":
            styles = part[1].upper().replace("/", "")
            if len(styles) != 4 or set(styles) - {"B", "W"}:
                raise InvalidActionError("styles are four letters B or W (warrior, wizard, "
                                         "cleric, rogue), e.g. 'styles B/W/W/B'")
        elif len(part) == 2 and part[0].lower() == "objective" and part[1] in ("0", "1"):
            objective = int(part[1])
        else:
            raise InvalidActionError(f"unknown part {' '.join(part)!r} of a setup choice")
    if not styles:
        raise InvalidActionError("a setup choice names the training styles: 'styles B/W/W/B'")
    return SetupChoice(deal, power, args, styles, objective)


_SETUP_COUNT: Final = {"rooms": 2, "items": 2, "heroes": 2, "letter": 1, "": 0}


def _setup_args(power: str, words: list[str]) -> tuple[int, ...]:
    choice = POWERS[power].choice
    want = _SETUP_COUNT[choice]
    if len(words) != want:
        what = {"rooms": "two minion rooms", "items": "two items", "heroes": "two heroes",
                "letter": "a gem letter", "": "nothing"}[choice]
        raise InvalidActionError(f"the {power} names {what}")
    if choice == "rooms":
        return sort_rooms([_room(w) for w in words])
    if choice == "items":
        return tuple(sorted(_item(w) for w in words))
    if choice == "heroes":
        return tuple(sorted(_hero(w) for w in words))
    if choice == "letter":
        if len(words[0]) != 1 or words[0].upper() not in LETTERS:
            raise InvalidActionError("a gem letter is A to H")
        return (LETTERS.index(words[0].upper()),)
    return ()


def _canonical(action: PaperAction, text: str) -> PaperAction:
    canonical = format_action(action)
    if canonical != text:
        raise InvalidActionError(f"not the canonical notation: write {canonical!r}")
    return action


def parse_plan(text: object) -> Plan:
    """A plan in canonical notation; :class:`InvalidActionError` otherwise."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is text, not {type(text).__name__}")
    plan = lenient_plan(text)
    _canonical(plan, text)
    return plan


def parse_setup(text: object) -> SetupChoice:
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is text, not {type(text).__name__}")
    choice = lenient_setup(text)
    _canonical(choice, text)
    return choice


def parse_answers(text: object) -> RewardChoice:
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is text, not {type(text).__name__}")
    choice = lenient_answers(text)
    if not choice.answers:
        raise InvalidActionError("a reward choice names its answers, e.g. 'evolve rogue'")
    _canonical(choice, text)
    return choice


def parse_action(text: object) -> PaperAction:
    """Any Paper Dungeons action in canonical notation, by its form (a plan starts with a die,
    a setup choice with ``power``, a reward choice with an answer)."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is text, not {type(text).__name__}")
    head = text.lstrip()[:1]
    if head.isdigit():
        return parse_plan(text)
    if text.lstrip().lower().startswith("power"):
        return parse_setup(text)
    return parse_answers(text)
