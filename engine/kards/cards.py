"""Dungeons of Kards: the cryptcrawl original pack (rules reference §5), as tables.

Every name and number here is ORIGINAL to cryptcrawl ("cryptcrawl original pack"), authored for
the project; none is the publisher's.  The rules read these tables and never name a card.

Card ids.  With one copy of the pack a card is named by its kind (``skeleton``, ``D05``); the
two Resurrection Stones are ``resurrection#1`` and ``resurrection#2``.  With two copies every
card carries its copy: ``A-skeleton``, ``B-D05``, ``A-resurrection#2``.
"""

from __future__ import annotations

from typing import Final, NamedTuple

PACK: Final = "cryptcrawl original pack"

# ---------------------------------------------------------------------- geometry

SIDES: Final = ("N", "E", "S", "W")
OPPOSITE: Final = {0: 2, 1: 3, 2: 0, 3: 1}
STEP: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))  # (dx, dy) of N, E, S, W
OPEN: Final = "O"
DOOR: Final = "D"
WALL: Final = "#"


class Band(NamedTuple):
    """Rows ``low``..``high`` of a life table share these values."""

    low: int
    high: int
    defence: int
    damage: int
    attack: int


class Ability(NamedTuple):
    id: str
    name: str
    kind: str  # "stun", "heal", "weaken", "empower"
    x: int
    cost: int


class CharacterCard(NamedTuple):
    id: str
    name: str
    life: int
    ap: int
    bands: tuple[Band, ...]
    ability: Ability


class MonsterCard(NamedTuple):
    id: str
    name: str
    level: int  # 1, 2; 3 is the Boss
    life: int
    ap: int
    bands: tuple[Band, ...]


class ItemCard(NamedTuple):
    id: str
    name: str
    slot: str  # "weapon" (left) or "pet" (right)
    attack: int
    defence: int
    damage: int


class StoneCard(NamedTuple):
    id: str
    name: str
    kind: str  # "portal", "resurrection", "restoration"
    value: int  # life restored (restoration); 0 otherwise


class TrapCard(NamedTuple):
    id: str
    name: str
    loss: int


class TreasureCard(NamedTuple):
    id: str
    name: str
    gold: int


class DungeonCard(NamedTuple):
    id: str
    name: str
    sides: str  # N, E, S, W: "O" open exit, "D" door, "#" wall
    portal: str  # "Y" yellow, "B" black, "" none


def _bands(*rows: tuple[int, int, int, int, int]) -> tuple[Band, ...]:
    return tuple(Band(*row) for row in rows)


# ---------------------------------------------------------------------- §5.1 characters

CHARACTERS: Final = (
    CharacterCard("warrior", "Warrior", 13, 2,
                  _bands((9, 13, 16, 3, 11), (5, 8, 16, 3, 10), (1, 4, 15, 4, 10)),
                  Ability("battle_fury", "Battle Fury", "empower", 2, 2)),
    CharacterCard("knight", "Knight", 13, 2,
                  _bands((9, 13, 18, 2, 11), (5, 8, 17, 2, 11), (1, 4, 16, 2, 10)),
                  Ability("challenge", "Challenge", "weaken", 2, 1)),
    CharacterCard("rogue", "Rogue", 13, 3,
                  _bands((9, 13, 17, 2, 11), (5, 8, 16, 2, 11), (1, 4, 16, 1, 10)),
                  Ability("smoke_bomb", "Smoke Bomb", "stun", 1, 1)),
    CharacterCard("mage", "Mage", 12, 2,
                  _bands((9, 12, 16, 3, 12), (5, 8, 15, 2, 11), (1, 4, 15, 2, 10)),
                  Ability("frost_bind", "Frost Bind", "stun", 2, 3)),
    CharacterCard("cleric", "Cleric", 14, 2,
                  _bands((10, 14, 17, 2, 11), (5, 9, 16, 2, 11), (1, 4, 16, 2, 10)),
                  Ability("mending_light", "Mending Light", "heal", 5, 1)),
    CharacterCard("ranger", "Ranger", 13, 2,
                  _bands((9, 13, 17, 2, 12), (5, 8, 16, 2, 12), (1, 4, 15, 2, 11)),
                  Ability("hunters_mark", "Hunter's Mark", "empower", 1, 1)),
)

# ---------------------------------------------------------------------- §5.2 monsters

MONSTERS: Final = (
    MonsterCard("rat", "Giant Rat", 1, 4, 1, _bands((3, 4, 16, 1, 10), (1, 2, 15, 1, 9))),
    MonsterCard("skeleton", "Skeleton", 1, 4, 1, _bands((4, 4, 18, 2, 9), (1, 3, 16, 1, 9))),
    MonsterCard("goblin", "Goblin Cutthroat", 1, 5, 1,
                _bands((4, 5, 16, 2, 10), (1, 3, 15, 1, 9))),
    MonsterCard("spider", "Cave Spider", 1, 4, 1,
                _bands((3, 4, 16, 2, 11), (1, 2, 15, 1, 10))),
    MonsterCard("ooze", "Grey Ooze", 1, 6, 1, _bands((4, 6, 15, 1, 9), (1, 3, 14, 1, 8))),
    MonsterCard("orc", "Orc Brute", 2, 7, 2, _bands((5, 7, 17, 3, 9), (1, 4, 16, 2, 9))),
    MonsterCard("ghoul", "Ghoul", 2, 6, 2, _bands((4, 6, 18, 2, 10), (1, 3, 17, 2, 9))),
    MonsterCard("cultist", "Shadow Cultist", 2, 5, 2,
                _bands((4, 5, 17, 3, 10), (1, 3, 16, 2, 9))),
    MonsterCard("gargoyle", "Stone Gargoyle", 2, 6, 2,
                _bands((4, 6, 19, 2, 8), (1, 3, 17, 1, 8))),
)
BOSS: Final = MonsterCard("warden", "The Gate Warden", 3, 22, 3,
                          _bands((15, 22, 17, 3, 10), (8, 14, 17, 3, 11), (1, 7, 16, 4, 12)))

# ---------------------------------------------------------------------- §5.3–5.5 orange, yellow

ITEMS: Final = (
    ItemCard("longsword", "Longsword", "weapon", 2, 0, 0),
    ItemCard("runeblade", "Runeblade", "weapon", 3, 0, 0),
    ItemCard("war_axe", "War Axe", "weapon", 0, 0, 1),
    ItemCard("tower_shield", "Tower Shield", "weapon", 0, 2, 0),
    ItemCard("watch_owl", "Watch Owl", "pet", 0, 2, 0),
    ItemCard("war_hound", "War Hound", "pet", 0, 0, 1),
)
ITEM_USES: Final = 10

PORTAL_STONE: Final = "portal_stone"
STONES: Final = (
    StoneCard(PORTAL_STONE, "Portal Stone", "portal", 0),
    StoneCard("resurrection#1", "Resurrection Stone", "resurrection", 0),
    StoneCard("resurrection#2", "Resurrection Stone", "resurrection", 0),
    StoneCard("restoration_3", "Restoration Stone (3)", "restoration", 3),
    StoneCard("restoration_4", "Restoration Stone (4)", "restoration", 4),
    StoneCard("restoration_5", "Restoration Stone (5)", "restoration", 5),
)

TRAPS: Final = (
    TrapCard("spike_pit", "Spike Pit", 2),
    TrapCard("poison_darts", "Poison Darts", 3),
)

TREASURES: Final = tuple(
    TreasureCard(f"treasure_{i:02d}", ("Gold pouch", "Gold purse", "Gold chest")[g - 1], g)
    for i, g in enumerate((1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3), start=1))

# ---------------------------------------------------------------------- §5.8 dungeon cards

_DUNGEON_ROWS: Final = (
    ("D01", "North-west Gate", "#OO#", "Y"), ("D02", "North-east Gate", "##OO", "Y"),
    ("D03", "South-west Gate", "OO##", "Y"), ("D04", "South-east Gate", "O##O", "Y"),
    ("D05", "Black Gate", "OOOO", "B"), ("D06", "Great Crossing", "OOOO", ""),
    ("D07", "Pillared Hall", "ODOD", ""), ("D08", "Guard Room", "DODO", ""),
    ("D09", "Fountain Court", "OODO", ""), ("D10", "Shrine of Bones", "DDDD", ""),
    ("D11", "Long Gallery", "#OOO", ""), ("D12", "Barracks", "#DOO", ""),
    ("D13", "Chapel", "#ODO", ""), ("D14", "Library", "O#OO", ""),
    ("D15", "Armoury", "O#OD", ""), ("D16", "Cistern", "D#OO", ""),
    ("D17", "Throne Hall", "OO#O", ""), ("D18", "Kitchen", "OD#O", ""),
    ("D19", "Forge", "OO#D", ""), ("D20", "Hall of Masks", "OOO#", ""),
    ("D21", "Cell Block", "DOO#", ""), ("D22", "Torture Room", "OOD#", ""),
    ("D23", "North–South Corridor", "O#O#", ""), ("D24", "Stair Shaft", "D#O#", ""),
    ("D25", "Rope Bridge", "O#D#", ""), ("D26", "East–West Corridor", "#O#O", ""),
    ("D27", "Sewer Tunnel", "#D#O", ""), ("D28", "Collapsed Passage", "#O#D", ""),
    ("D29", "Crooked Hall", "OO##", ""), ("D30", "Mushroom Grotto", "DO##", ""),
    ("D31", "Dripping Bend", "#OO#", ""), ("D32", "Flooded Bend", "#OD#", ""),
    ("D33", "Root Tunnel", "##OO", ""), ("D34", "Ossuary", "##OD", ""),
    ("D35", "Smugglers' Turn", "O##O", ""), ("D36", "Spider Nest", "D##O", ""),
    ("D37", "Sealed Crypt", "O###", ""), ("D38", "Hermit's Cell", "#O##", ""),
    ("D39", "Old Well", "##O#", ""), ("D40", "Collapsed Stair", "###O", ""),
)
DUNGEON: Final = tuple(DungeonCard(*row) for row in _DUNGEON_ROWS)
GATES: Final = ("D01", "D02", "D03", "D04")
BLACK_GATE: Final = "D05"

# §5.9 start layouts: (card id, x, y); two copies name the copy.
ARENA_1: Final = (("D01", 0, 0), ("D02", 6, 0), ("D03", 0, 6), ("D04", 6, 6))
CAMPAIGN_1: Final = (("D05", 3, 3),)
ARENA_2: Final = (("A-D01", 0, 0), ("A-D02", 8, 0), ("A-D03", 0, 8), ("A-D04", 8, 8),
                  ("B-D01", 4, 0), ("B-D02", 8, 4), ("B-D04", 4, 8), ("B-D03", 0, 4))
CAMPAIGN_2: Final = (("A-D05", 4, 4),)

# ---------------------------------------------------------------------- §6 events

class EventRow(NamedTuple):
    """One cell of the events table.  ``kind``: ``you`` (active ±amount), ``roll`` (a sub-roll:
    on ``at_least``..6 the active loses ``amount``), ``every`` (every character ±amount),
    ``thief`` (every character −1 gold), ``peek`` (the active seat sees the top orange card),
    ``mist`` (every character a mist token), ``open`` (open ``amount`` dungeon cards),
    ``choose`` (the active character chooses +amount life or its ability), ``choose_every``
    (every character chooses).  ``reconstructed``: an R* row (§6: the die face is rebuilt
    from scrambled OCR, kept as printed)."""

    name: str
    kind: str
    amount: int
    at_least: int
    reconstructed: bool


def _e(name: str, kind: str, amount: int = 0, at_least: int = 0, r: bool = False) -> EventRow:
    return EventRow(name, kind, amount, at_least, r)


# EVENTS[level - 1][face - 1]
EVENTS: Final = (
    (_e("Magic potion", "you", 2), _e("Passing thief", "thief"),
     _e("Crack in the floor", "roll", 2, 4), _e("Forgotten relic", "you", 2, r=True),
     _e("Lucky turn", "you", 2, r=True), _e("Passing corridor", "open", 1, r=True)),
    (_e("Disorienting portal", "roll", 3, 4), _e("Friendly guardian", "peek"),
     _e("Landslide", "roll", 3, 4), _e("Hideout uncovered", "every", -3, r=True),
     _e("Tide of luck", "every", 3, r=True), _e("Strange mist", "mist", r=True)),
    (_e("Baffling illusion", "roll", 4, 4), _e("Ancient ruin", "you", 4),
     _e("Prayer", "every", 4), _e("Treacherous path", "open", 1, r=True),
     _e("Friendly apparition", "choose", 4, r=True),
     _e("Shimmering light", "open", 2, r=True)),
    (_e("Cosmic trick", "roll", 5, 3), _e("Unstable dimensional bridge", "roll", 5, 4),
     _e("Mighty artifact", "choose_every", 5), _e("Brief peace", "every", 8, r=True),
     _e("Looming collapse", "roll", 5, 4, r=True), _e("Harmony", "you", 3, r=True)),
)
EVENT_STEP: Final = 5  # thresholds 5, 10, 15, 20 (doubled with two copies, ruling 40)
EVENT_LEVELS: Final = 4

# ---------------------------------------------------------------------- lookups by kind

CHARACTER_BY_KIND: Final = {c.id: c for c in CHARACTERS}
MONSTER_BY_KIND: Final = {m.id: m for m in (*MONSTERS, BOSS)}
ITEM_BY_KIND: Final = {i.id: i for i in ITEMS}
STONE_BY_KIND: Final = {s.id: s for s in STONES}
TRAP_BY_KIND: Final = {t.id: t for t in TRAPS}
TREASURE_BY_KIND: Final = {t.id: t for t in TREASURES}
DUNGEON_BY_KIND: Final = {d.id: d for d in DUNGEON}
ABILITY_BY_ID: Final = {c.ability.id: c.ability for c in CHARACTERS}

# The orange deck of one copy, in the pack's order (which is the order of draw outcomes):
# weapons and pets, monsters, stones (the Portal Stone apart), traps.  The Boss is set aside.
ORANGE: Final = (*(i.id for i in ITEMS), *(m.id for m in MONSTERS),
                 *(s.id for s in STONES if s.id != PORTAL_STONE), *(t.id for t in TRAPS))


def kind_of(card: str) -> str:
    """The kind of a card id: ``A-skeleton`` → ``skeleton``; ``resurrection#2`` stays (the
    stones' own ids keep their number)."""
    return card[2:] if card[:2] in ("A-", "B-") else card


def copy_of(card: str) -> str:
    """``"A"``, ``"B"`` or ``""`` (one copy)."""
    return card[0] if card[:2] in ("A-", "B-") else ""


def category(card: str) -> str:
    """``character``, ``monster``, ``boss``, ``item``, ``stone``, ``trap``, ``treasure``,
    ``dungeon``, or ``""`` for an unknown id."""
    kind = kind_of(card)
    if kind in CHARACTER_BY_KIND:
        return "character"
    if kind == BOSS.id:
        return "boss"
    if kind in MONSTER_BY_KIND:
        return "monster"
    if kind in ITEM_BY_KIND:
        return "item"
    if kind in STONE_BY_KIND:
        return "stone"
    if kind in TRAP_BY_KIND:
        return "trap"
    if kind in TREASURE_BY_KIND:
        return "treasure"
    if kind in DUNGEON_BY_KIND:
        return "dungeon"
    return ""


_DISPLAY: dict[str, str] = {}


def display(card: str) -> str:
    """A card's printed name, with its copy (``Skeleton``, ``Skeleton (B)``)."""
    got = _DISPLAY.get(card)
    if got is None:
        got = _DISPLAY[card] = _display(card)
    return got


def _display(card: str) -> str:
    kind = kind_of(card)
    for table in (CHARACTER_BY_KIND, MONSTER_BY_KIND, ITEM_BY_KIND, STONE_BY_KIND,
                  TRAP_BY_KIND, TREASURE_BY_KIND, DUNGEON_BY_KIND):
        entry = table.get(kind)
        if entry is not None:
            name: str = entry.name
            copy = copy_of(card)
            return f"{name} ({copy})" if copy else name
    return card


class Pack(NamedTuple):
    """The cards of a game with ``copies`` copies of the pack (every id tagged with its copy
    when there are two)."""

    copies: int
    characters: tuple[str, ...]
    dungeon: tuple[str, ...]
    orange: tuple[str, ...]  # the shuffled orange cards (no Portal Stone, no Boss)
    portal_stone: str
    boss: str
    removed: tuple[str, ...]  # copy B's Portal Stone and Boss (ruling 40)
    treasures: tuple[str, ...]
    size: int  # the map is size × size


def _tag(prefix: str, ids: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(prefix + i for i in ids)


def make_pack(copies: int) -> Pack:
    chars = tuple(c.id for c in CHARACTERS)
    dungeon = tuple(d.id for d in DUNGEON)
    treasures = tuple(t.id for t in TREASURES)
    if copies == 1:
        return Pack(1, chars, dungeon, ORANGE, PORTAL_STONE, BOSS.id, (), treasures, 7)
    both = ("A-", "B-")
    return Pack(
        2,
        tuple(c for p in both for c in _tag(p, chars)),
        tuple(c for p in both for c in _tag(p, dungeon)),
        tuple(c for p in both for c in _tag(p, ORANGE)),
        "A-" + PORTAL_STONE, "A-" + BOSS.id, ("B-" + PORTAL_STONE, "B-" + BOSS.id),
        tuple(c for p in both for c in _tag(p, treasures)),
        9,
    )


PACKS: Final = {1: make_pack(1), 2: make_pack(2)}


def band(bands: tuple[Band, ...], life: int) -> Band:
    """The band of the row for ``life`` (life 0 reads the lowest row)."""
    for b in bands:
        if b.low <= life <= b.high:
            return b
    return bands[-1]
