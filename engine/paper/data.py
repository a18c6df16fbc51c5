"""Paper Dungeons content, as data (rules reference ``rules/paper-dungeons.md`` §2).

Rooms are numbered 0…41: ``index = column + 6 * (row - 1)`` with columns A…F = 0…5 and rows
1…7 bottom to top, so A1 = 0, F1 = 5, A2 = 6 and F7 = 41.  Heroes are 0…3 (warrior, wizard,
cleric, rogue) and items 0…7 in sheet order.  Every table here is read by the rules; nothing
in the rules names a card.
"""

from __future__ import annotations

from typing import Final, NamedTuple

# ---------------------------------------------------------------------- grid and names

COLUMNS: Final = "ABCDEF"
ROWS: Final = 7
ROOM_COUNT: Final = 42
ROOM_NAMES: Final = tuple(f"{COLUMNS[i % 6]}{i // 6 + 1}" for i in range(ROOM_COUNT))
ROOM_INDEX: Final = {name: i for i, name in enumerate(ROOM_NAMES)}


def room(name: str) -> int:
    """The index of the room called ``name`` (``"C4"``); KeyError if there is none."""
    return ROOM_INDEX[name]


HEROES: Final = ("warrior", "wizard", "cleric", "rogue")
HERO_INDEX: Final = {h: i for i, h in enumerate(HEROES)}
WARRIOR, WIZARD, CLERIC, ROGUE = 0, 1, 2, 3

ITEMS: Final = ("flaming_sword", "death_scepter", "khar_medallion", "cloak", "crown",
                "cauldron", "armour", "tome")
ITEM_INDEX: Final = {name: i for i, name in enumerate(ITEMS)}
SWORD, SCEPTER, MEDALLION, CLOAK, CROWN, CAULDRON, ARMOUR, TOME = range(8)
# The hero symbol a die step on items 1-4 needs (a clover always does); items 5-8 take any
# hero symbol (§2.10, symbols O; ruling Q11).
ITEM_SYMBOL: Final = (WARRIOR, WIZARD, CLERIC, ROGUE, -1, -1, -1, -1)
ITEM_BONUS: Final = (0, -1, 1, 0, 4, 0, 2, 3)  # glory of a completed item, besides its boxes
ITEM_NAMES_EN: Final = ("Flaming Sword", "Death Scepter", "Khar Medallion",
                        "Intangibility Cloak", "Crown of the Righteous King",
                        "Alchemist's Cauldron", "Armour of Heroes", "Tome of Wisdom")

# ---------------------------------------------------------------------- dice (§2.1)

SKULL: Final = "skull"
CLOVER: Final = "clover"
BOOTS: Final = "boots"
DICE: Final = 6
WHITE_DICE: Final = (1, 2, 3)
BLACK_DICE: Final = (4, 5, 6)
WHITE_FACES: Final = (SKULL, "warrior", "wizard", "cleric", "rogue", CLOVER)
BLACK_FACES: Final = (SKULL, "warrior", "wizard", "cleric", "rogue", BOOTS)
FACES: Final = {d: WHITE_FACES if d <= 3 else BLACK_FACES for d in range(1, DICE + 1)}


def is_black(die: int) -> bool:
    return die >= 4


# ---------------------------------------------------------------------- heroes and tracks (§2.3)

MAX_LEVEL: Final = 6
LOWEST_LEVEL_GLORY: Final = (0, 0, 3, 6, 8, 11, 14)  # by the lowest hero level (index 1..6)
POTIONS_MAX: Final = 12
POTIONS_PER_ROW: Final = 4
GEM_GLORY: Final = (0, 2, 5, 8, 12, 17, 23, 30, 36, 42, 48)
GEMS_MAX: Final = 10
GEM_CIRCLE_POTION: Final = 3  # filling circle 3 gives 1 potion (O)
GEM_CIRCLE_EVOLUTION: Final = 6  # filling circle 6 gives 1 free evolution (O)
MINION_GLORY: Final = (0, 1, 2, 3, 4, 6, 8, 10, 12, 14, 17, 20, 23)
RESURRECTION_GLORY: Final = -9
LETTERS: Final = "ABCDEFGH"


def damage_glory(direct: int) -> int:
    """Category H: glory lost to direct damage (§2.3; ruling 37: no upper limit)."""
    if direct <= 12:
        return -((direct + 1) // 2)
    return -(6 + 2 * ((direct - 12 + 1) // 2))


# ---------------------------------------------------------------------- minions and rooms (§2.4)

MINION_TYPES: Final = ("ghost", "goblin", "orc", "zombie")
MINION_HERO: Final = {"orc": WARRIOR, "ghost": WIZARD, "zombie": CLERIC, "goblin": ROGUE}


class Room(NamedTuple):
    """What the printed grid shows in one room."""

    minion: str  # "" or a minion type
    level: int  # the minion's level (0: none)
    trap: bool
    potions: int
    item: bool  # an item icon: one free item step
    evo: bool  # an evolution icon: one free evolution
    gem: str  # "" or a gem letter


def _r(minion: str = "", level: int = 0, *, trap: bool = False, potions: int = 0,
       item: bool = False, evo: bool = False, gem: str = "") -> Room:
    return Room(minion, level, trap, potions, item, evo, gem)


_GRID: Final = {
    "A7": _r(potions=1), "B7": _r(gem="G", trap=True), "C7": _r(),
    "D7": _r(evo=True, trap=True), "E7": _r(), "F7": _r("zombie", 5, gem="H"),
    "A6": _r(), "B6": _r(item=True, trap=True), "C6": _r(trap=True),
    "D6": _r("orc", 5, gem="F"), "E6": _r(item=True, trap=True), "F6": _r(trap=True),
    "A5": _r("ghost", 5, gem="D"), "B5": _r(trap=True), "C5": _r(trap=True),
    "D5": _r(evo=True, trap=True), "E5": _r(), "F5": _r("goblin", 5, gem="E"),
    "A4": _r(), "B4": _r(item=True), "C4": _r("goblin", 4, gem="C"), "D4": _r(),
    "E4": _r("ghost", 4, potions=1), "F4": _r(evo=True, trap=True),
    "A3": _r(evo=True, trap=True), "B3": _r(trap=True), "C3": _r(potions=1),
    "D3": _r(evo=True, trap=True), "E3": _r(), "F3": _r("orc", 4, gem="B"),
    "A2": _r("zombie", 4, gem="A"), "B2": _r(), "C2": _r(trap=True), "D2": _r(),
    "E2": _r("zombie", 3, evo=True), "F2": _r(item=True, trap=True),
    "A1": _r("ghost", 3, potions=2), "B1": _r("orc", 3, item=True), "C1": _r(potions=1),
    "D1": _r("goblin", 3, potions=1), "E1": _r(trap=True, item=True), "F1": _r(potions=1),
}
GRID: Final = tuple(_GRID[name] for name in ROOM_NAMES)
MINION_ROOMS: Final = tuple(i for i, r in enumerate(GRID) if r.minion)
GEM_ROOM: Final = {r.gem: i for i, r in enumerate(GRID) if r.gem}
CORNERS: Final = tuple(room(n) for n in ("A1", "F1", "A7", "F7"))
EDGE_ROOMS: Final = tuple(i for i in range(ROOM_COUNT)
                          if i % 6 in (0, 5) or i // 6 in (0, ROWS - 1))


def _edges(text: str) -> frozenset[tuple[int, int]]:
    out = set()
    for pair in text.split(","):
        a, b = (room(x.strip()) for x in pair.split("|"))
        out.add((min(a, b), max(a, b)))
    return frozenset(out)


PRINTED_WALLS: Final = _edges("A7|B7, B7|C7, B5|B6, C3|C4, D1|D2, F6|F7")
WATER: Final = _edges("A1|A2, A3|A4, A5|A6, D6|E6, E5|F5, F2|F3, F4|F5")
PASSAGES: Final = _edges("A2|F2, A4|F4")
# §2.5 and ruling Q24: edges that must never be walled (they would cut rooms off).
BRIDGES: Final = _edges("A6|B6, B6|B7, B6|C6, E6|F6, E7|F7, A6|A7, F5|F6")


def neighbours(i: int) -> tuple[int, ...]:
    """The rooms one step from room ``i``: orthogonal neighbours and side passages."""
    col, row = i % 6, i // 6
    out = []
    if col > 0:
        out.append(i - 1)
    if col < 5:
        out.append(i + 1)
    if row > 0:
        out.append(i - 6)
    if row < ROWS - 1:
        out.append(i + 6)
    for a, b in PASSAGES:
        if i == a:
            out.append(b)
        elif i == b:
            out.append(a)
    return tuple(sorted(out))


# ---------------------------------------------------------------------- villains (§2.6)


class Villain(NamedTuple):
    letter: str
    season: int  # 1, 2 or 3 (levels I, II, III)
    name: str
    weakness: int  # a hero index
    thresholds: tuple[int, int, int]
    glory: tuple[int, int, int]
    damage: tuple[int, int, int]
    flee: int  # glory when fleeing (negative)
    reward: str  # "evolve", "potions" (2 potions) or "item"
    missing: str  # the two gem letters crossed off after the fight (missing-gems variant)


VILLAINS: Final = {v.letter: v for v in (
    Villain("A", 1, "Minotaur", WARRIOR, (9, 12, 15), (2, 4, 6), (3, 2, 1), -2, "evolve", "AB"),
    Villain("B", 1, "Giant Spider", WIZARD, (8, 11, 14), (2, 3, 5), (3, 2, 1), -2, "potions",
            "CD"),
    Villain("C", 1, "Ogre", CLERIC, (10, 13, 16), (3, 5, 6), (4, 2, 1), -3, "item", "AC"),
    Villain("D", 1, "Harpy Queen", ROGUE, (9, 12, 15), (2, 4, 6), (2, 2, 1), -3, "evolve", "BD"),
    Villain("E", 2, "Basilisk", WARRIOR, (14, 18, 22), (3, 5, 7), (4, 3, 2), -4, "evolve", "EF"),
    Villain("F", 2, "Wraith Lord", WIZARD, (13, 17, 21), (3, 5, 6), (4, 3, 2), -4, "potions",
            "GH"),
    Villain("G", 2, "Chimera", ROGUE, (14, 18, 22), (3, 5, 7), (4, 3, 2), -4, "item", "EG"),
    Villain("H", 2, "Troll Shaman", CLERIC, (15, 19, 23), (4, 6, 8), (5, 3, 2), -5, "item", "FH"),
    Villain("I", 3, "Red Dragon", WARRIOR, (19, 24, 29), (5, 8, 11), (6, 4, 2), -6, "evolve", ""),
    Villain("J", 3, "Lich King", WIZARD, (18, 23, 28), (4, 7, 10), (5, 4, 2), -5, "item", ""),
    Villain("K", 3, "Vampire Lord", CLERIC, (18, 22, 27), (4, 7, 9), (6, 4, 3), -5, "potions", ""),
    Villain("L", 3, "Stone Golem", ROGUE, (18, 23, 28), (4, 7, 10), (5, 4, 3), -5, "evolve", ""),
)}
REWARD_POTIONS: Final = 2

# ---------------------------------------------------------------------- dungeon cards (§2.5)


class DungeonCard(NamedTuple):
    letter: str
    walls: frozenset[tuple[int, int]]  # extra walls, besides the printed ones
    lairs: tuple[int, int, int]  # the rooms of lairs 1, 2, 3
    villains: tuple[str, str, str]  # villain letters for seasons I, II, III
    distances: tuple[int, int, int]  # the table's "Dist" of each lair (a test vector)


def _card(letter: str, walls: str, lairs: str, dist: tuple[int, int, int],
          villains: str) -> DungeonCard:
    a, b, c = (room(x) for x in lairs.split())
    return DungeonCard(letter, _edges(walls), (a, b, c), (villains[0], villains[1], villains[2]),
                       dist)


DUNGEONS: Final = {d.letter: d for d in (
    _card("A", "A2|B2, B1|B2, B4|C4, B5|C5, E4|E5, E4|F4", "D2 E5 A6", (3, 7, 10), "AFK"),
    _card("B", "C2|D2, D3|D4, E3|E4, C5|C6, E6|E7, A4|B4", "B3 F4 C7", (3, 5, 10), "BEL"),
    _card("C", "A3|B3, B2|B3, D4|E4, D5|E5, C6|C7, E2|E3", "E3 B5 E7", (5, 6, 9), "CEJ"),
    _card("D", "B3|B4, C3|D3, D2|E2, E5|E6, A4|A5, C6|D6", "A3 D5 C7", (4, 6, 9), "DEK"),
    _card("E", "B2|C2, C4|C5, D4|D5, E3|F3, D7|E7, A4|B4", "D3 B5 D7", (4, 5, 8), "AGJ"),
    _card("F", "A3|B3, C1|C2, D3|E3, E4|E5, C5|D5, C7|D7", "F4 C5 D7", (5, 6, 8), "BGK"),
    _card("G", "B2|B3, C2|C3, E1|E2, D5|D6, C6|C7, E5|E6", "D3 E5 A7", (4, 6, 11), "CFL"),
    _card("H", "B3|C3, D2|D3, E3|E4, C5|C6, D6|D7, B4|B5", "C3 A4 F6", (3, 5, 9), "DFI"),
    _card("I", "A4|B4, B3|C3, D4|E4, E2|F2, C6|C7, D5|E5", "E3 F4 B6", (3, 5, 8), "AHL"),
    _card("J", "C2|C3, D3|E3, B4|B5, E5|E6, B3|C3, C7|D7", "B3 E5 C7", (3, 5, 8), "BHI"),
    _card("K", "B2|B3, D2|E2, C4|D4, E4|F4, C6|D6, D5|D6", "E3 A4 C6", (3, 6, 8), "CGI"),
    _card("L", "C1|C2, A3|B3, D3|D4, C5|D5, D6|D7, B4|C4", "C2 D4 A6", (3, 5, 9), "DHJ"),
)}
DUNGEON_LETTERS: Final = tuple(DUNGEONS)

# Story mode (§3.16): each story's chapters, in order, are played on these dungeon cards.
STORIES: Final = {
    "urban-heroes": "ABC",
    "mummy-of-hamnapta": "DEF",
    "terrors-of-the-tower": "GHI",
    "around-the-kingdom": "JKL",
}

# ---------------------------------------------------------------------- missions (§2.7)

MISSION_GLORY: Final = 4
SOLO_MISSION_GLORY: Final = (0, 6, 5, 4, 4, 3, 3, 2, 1)  # by the round completed (1..8)


class Mission(NamedTuple):
    id: str
    metric: str  # a name in engine.paper.score.METRICS
    at_least: int
    text: str


MISSIONS: Final = {m.id: m for m in (
    Mission("M1", "minion_levels", 3, "defeated a minion of each level 3, 4 and 5"),
    Mission("M2", "heroes_at_6", 1, "at least one hero at level 6"),
    Mission("M3", "full_rows", 1, "explored all 6 rooms of some row"),
    Mission("M4", "heroes_at_3", 4, "all four heroes at level 3 or more"),
    Mission("M5", "full_columns", 1, "explored all 7 rooms of some column"),
    Mission("M6", "potions", 8, "filled at least 8 potion circles"),
    Mission("M7", "heroes_at_4", 3, "at least three heroes at level 4 or more"),
    Mission("M8", "minions", 6, "defeated at least 6 minions"),
    Mission("M9", "gems", 4, "at least 4 gems on the gem track"),
    Mission("M10", "corners", 2, "explored at least 2 corner rooms"),
    Mission("M11", "traps", 5, "triggered traps at least 5 times"),
    Mission("M12", "explored", 15, "explored at least 15 rooms"),
    Mission("M13", "items_done", 4, "completed at least 4 magic items"),
    Mission("M14", "hp", 12, "HP of at least 12"),
    Mission("M15", "lairs", 3, "reached all three lairs"),
    Mission("M16", "heroes_at_5", 2, "at least two heroes at level 5 or more"),
)}
MISSION_IDS: Final = tuple(MISSIONS)
MISSIONS_IN_PLAY: Final = 3

# ---------------------------------------------------------------------- objectives (§2.8)

OBJECTIVE_TIER_GLORY: Final = (2, 4, 6)


class Objective(NamedTuple):
    id: str
    metric: str
    tiers: tuple[int, int, int]
    styles: str  # warrior/wizard/cleric/rogue as B (black) or W (white), e.g. "BWWB"
    text: str


OBJECTIVES: Final = {o.id: o for o in (
    Objective("O1", "minions_l4", (2, 3, 4), "BWWB", "level-4 minions defeated"),
    Objective("O2", "minions_l5", (2, 3, 4), "WBBW", "level-5 minions defeated"),
    Objective("O3", "traps_and_crossings", (4, 7, 10), "WWBB",
              "traps triggered plus steps across a wall or water"),
    Objective("O4", "columns_4", (4, 5, 6), "BWWB", "columns with at least 4 explored rooms"),
    Objective("O5", "full_rows", (1, 2, 3), "WBBW", "rows with every room explored"),
    Objective("O6", "heroes_at_5", (2, 3, 4), "WWBB", "heroes at level 5 or more"),
    Objective("O7", "minions_l3", (2, 3, 4), "BWBW", "level-3 minions defeated"),
    Objective("O8", "potions", (6, 9, 12), "WBWB", "potion circles filled"),
    Objective("O9", "explored", (20, 25, 30), "BWBW", "rooms explored"),
    Objective("O10", "villain_glory", (10, 15, 20), "WBBW", "net villain glory (A + B + C)"),
    Objective("O11", "items_done", (2, 4, 7), "BBWW", "magic items completed"),
    Objective("O12", "edges", (10, 13, 16), "BBWW", "edge rooms explored"),
    Objective("O13", "minions", (4, 7, 10), "WWBB", "minions defeated"),
    Objective("O14", "gems", (2, 5, 7), "BWWB", "gems on the gem track"),
    Objective("O15", "corners", (1, 2, 3), "BWBW", "corner rooms explored"),
    Objective("O16", "hp", (12, 16, 20), "WBWB", "HP"),
)}
OBJECTIVE_IDS: Final = tuple(OBJECTIVES)
STYLE_PATTERNS: Final = tuple(sorted({o.styles for o in OBJECTIVES.values()}))

# ---------------------------------------------------------------------- powers (§2.9)


class Power(NamedTuple):
    id: str
    name: str  # English name
    pt: str  # Portuguese name
    kind: str  # "setup", "triggered" or "round"
    glory: int  # category J
    choice: str  # what the setup choice names: "", "rooms", "items", "heroes" or "letter"
    text: str


POWERS: Final = {p.id: p for p in (
    Power("alchemist", "Alchemist", "Alquimista", "triggered", -1, "",
          "every potions action with a die gives 3 potions instead of 2"),
    Power("craftsman", "Craftsman", "Artesão", "setup", -3, "items",
          "one free item step in each of two different items"),
    Power("assassin", "Assassin", "Assassino", "setup", 0, "rooms",
          "two minions of your choice are defeated"),
    Power("scout", "Scout", "Batedor", "triggered", -2, "", "traps deal you no damage"),
    Power("barbarian", "Barbarian", "Bárbaro", "triggered", 0, "",
          "villain fights deal you no damage"),
    Power("healer", "Healer", "Curandeiro", "setup", 2, "", "fill 2 potions"),
    Power("beastmaster", "Beastmaster", "Ladino", "triggered", -2, "",
          "1 free item step at every 3rd minion defeated"),
    Power("merchant", "Merchant", "Mercador", "triggered", 0, "",
          "1 potion for every gem added to your gem track"),
    Power("noble", "Noble", "Nobre", "triggered", -1, "",
          "1 free item step whenever a hero reaches level 5"),
    Power("ranger", "Ranger", "Patrulheiro", "triggered", -1, "",
          "+1 step whenever one of your steps crosses water"),
    Power("psionic", "Psionic", "Psiônico", "round", 0, "",
          "once a round, one die counts as the other colour"),
    Power("berserker", "Berserker", "Sanguinário", "triggered", -2, "",
          "+2 combat level against villains"),
    Power("treasure_hunter", "Treasure Hunter", "Saqueador", "setup", 0, "letter",
          "collect a gem letter of your choice"),
    Power("veteran", "Veteran", "Veterano", "setup", -3, "heroes",
          "one free evolution for each of two different heroes"),
    Power("fortune_teller", "Fortune Teller", "Vidente", "triggered", 2, "",
          "1 less skull damage each round"),
    Power("shaman", "Shaman", "Xamã", "triggered", 3, "",
          "1 potion at every 3rd minion defeated"),
)}
POWER_IDS: Final = tuple(POWERS)
HEALER_POTIONS: Final = 2
ALCHEMIST_POTIONS: Final = 3
POTIONS_ACTION: Final = 2

# ---------------------------------------------------------------------- the round

ROUNDS: Final = 8
SEASON_END: Final = {3: 1, 6: 2, 8: 3}  # round -> the season whose villain is fought
PLAYER_COUNTS: Final = (1, 2, 3, 4, 5, 6, 7, 8)
