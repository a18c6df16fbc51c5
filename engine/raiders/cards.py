"""Dungeon Raiders card data (Devir edition), as tables with their provenance marks.

Marks (from the rules reference): ``R`` stated in the rulebook (PT/ES); ``D`` two independent
Devir-edition implementations agree; ``D1`` only one gives it; ``A`` assumed for lack of a
source.  ``"R; str D1"`` means the row is R except the named field.  The rules read these tables;
nothing in the rules names a card.  See docs/rules/raiders.md for every deviation.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

# --------------------------------------------------------------------------- cards in hand

POWER_CARDS: Final[tuple[str, ...]] = ("1", "2", "3", "4", "5")
ITEMS: Final[tuple[str, ...]] = ("torch", "crystal", "key", "sword")
TORCH: Final = 0  # indexes into item tuples
CRYSTAL: Final = 1
KEY: Final = 2
SWORD: Final = 3
ITEM_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(ITEMS)}
ITEM_COPIES: Final = 6  # per type (R)
COIN_CAP: Final = 20  # (R)
ROOMS_PER_LEVEL: Final = 5
LEVELS: Final = 5
PLAYER_COUNTS: Final = (3, 4, 5)


class Category(Enum):
    MONSTER = "monster"
    TREASURE = "treasure"
    VAULT = "vault"
    TRAP = "trap"
    BOSS = "boss"


@dataclass(frozen=True, slots=True)
class Monster:
    kind: str
    name: str
    names_es_pt: str
    strength: tuple[int, int, int]  # for 3, 4, 5 players
    wounds: int
    prov: str


@dataclass(frozen=True, slots=True)
class Treasure:
    kind: str
    big: int
    second: int  # 0: no second chest
    prov: str


@dataclass(frozen=True, slots=True)
class Benefit:
    """A vault benefit: gain an item, gain coins, or heal wounds (a potion)."""

    item: int | None = None
    coins: int = 0
    heal: int = 0

    def describe(self) -> str:
        if self.item is not None:
            return f"take 1 {ITEMS[self.item]}"
        if self.coins:
            return f"+{self.coins} coin{'s' if self.coins > 1 else ''}"
        return f"potion {self.heal} (-{self.heal} wound{'s' if self.heal > 1 else ''})"


@dataclass(frozen=True, slots=True)
class Vault:
    kind: str
    benefits: tuple[Benefit, Benefit, Benefit, Benefit, Benefit]  # by value 1..5
    prov: str


@dataclass(frozen=True, slots=True)
class Trap:
    kind: str
    name: str
    names_es_pt: str
    target: str  # "coins": most coins lose coins; "wounds": fewest wounds take wounds
    penalty: tuple[int, int, int, int, int, int]  # by highest value h = 0..5
    prov: str


@dataclass(frozen=True, slots=True)
class Boss:
    kind: str
    name: str
    names_es_pt: str
    strength: tuple[int, int, int] | None  # None: cannot be defeated
    wounds: int  # per attacked player
    coins: int  # lost per attacked player
    eliminates: bool  # attacked players are eliminated (Medusa)
    attacks_highest: bool  # Mummy
    top_bonus: int  # coins for the highest value (Sphinx, Minotaur; ruling 13)
    escape: str | None  # the card that escapes: "torch", "crystal", "key"
    value_override: tuple[tuple[str, int], ...]  # Golem: 5 and sword count as 1
    prov: str


RoomData = Monster | Treasure | Vault | Trap | Boss

# --------------------------------------------------------------------------- monsters (11)

MONSTERS: tuple[tuple[Monster, int], ...] = (
    # (card, copies)
    (Monster("snake", "Snake", "Serpiente / Serpente", (8, 10, 13), 3, "D; 4p/5p D1"), 1),
    (Monster("zombie", "Zombie", "Zombi / Zumbi", (11, 14, 18), 1, "D; 4p/5p D1"), 2),
    (Monster("skeleton", "Skeleton", "Esqueleto / Esqueleto", (11, 14, 18), 3, "D; 4p/5p D1"), 1),
    (Monster("goblin", "Goblin", "Goblin / Goblin", (11, 14, 18), 2, "D; 4p/5p D1"), 2),
    (Monster("thing", "The Thing", "La Cosa / A Coisa", (14, 18, 23), 1, "D; 4p/5p D1"), 1),
    (Monster("troll", "Troll", "Troll / Troll", (14, 18, 23), 2, "D; 4p/5p D1"), 2),
    (Monster("dragon", "Dragon", "Dragón / Dragão", (14, 18, 23), 3,
             "R (4p 18, 3 wounds); D; 5p D1"), 2),
)

# --------------------------------------------------------------------------- treasures (10)

TREASURES: tuple[tuple[Treasure, int], ...] = (
    (Treasure("treasure-4-2", 4, 2, "D"), 2),
    (Treasure("treasure-4", 4, 0, "D"), 1),
    (Treasure("treasure-3-2", 3, 2, "D1 (EVB; TFG lists one copy)"), 2),
    (Treasure("treasure-3", 3, 0, "D"), 1),
    (Treasure("treasure-2-1", 2, 1, "D"), 2),
    (Treasure("treasure-2", 2, 0, "D"), 1),
    (Treasure("treasure-1", 1, 0, "D"), 1),
)

# --------------------------------------------------------------------------- vaults (5)

VAULTS: tuple[tuple[Vault, int], ...] = (
    (Vault("vault-items", (Benefit(item=0), Benefit(item=1), Benefit(item=2), Benefit(item=3),
                           Benefit(heal=1)), "D1 (TFG; matches the 2013 cards)"), 3),
    (Vault("vault-coins", (Benefit(coins=1), Benefit(coins=2), Benefit(heal=1), Benefit(coins=3),
                           Benefit(heal=2)), "D1 (TFG; matches the 2013 cards)"), 2),
)

# --------------------------------------------------------------------------- traps (4)

TRAPS: tuple[tuple[Trap, int], ...] = (
    (Trap("lava", "Lava trap", "Caldero de lava / Armadilha de lava", "coins",
          (0, 0, 0, 1, 2, 3), "R; copies D"), 1),
    (Trap("magnetic", "Magnetic trap", "Atrapamonedas / Armadilha magnética", "coins",
          (0, 0, 1, 1, 2, 2), "R; copies D"), 1),
    (Trap("spikes", "Spike trap", "Trampa de pinchos / Armadilha de estacas", "wounds",
          (0, 0, 0, 1, 2, 2), "R; copies D"), 1),
    (Trap("boulder", "Boulder trap", "Roca gigante / Armadilha de pedregulho", "wounds",
          (0, 0, 1, 1, 1, 2), "R; copies D"), 1),
)

# --------------------------------------------------------------------------- bosses (10)

BOSSES: tuple[Boss, ...] = (
    Boss("tax_collector", "Tax Collector", "Recaudador / Coletor de Impostos", (11, 14, 16),
         0, 3, False, False, 0, None, (), "R; str D1"),
    Boss("medusa", "Medusa", "Medusa / Medusa", (11, 14, 16),
         0, 0, True, False, 0, None, (), "R; str D1"),
    Boss("vampire", "Vampire", "Vampiro / Vampiro", (14, 18, 23),
         1, 2, False, False, 0, None, (), "R; str D1"),
    Boss("sphinx", "Sphinx", "Esfinge / Esfinge", (11, 14, 16),
         2, 0, False, False, 2, None, (), "R; str D1"),
    Boss("minotaur", "Minotaur", "Minotauro / Minotauro", (14, 18, 23),
         1, 0, False, False, 1, None, (), "R; str D1"),
    Boss("wolf_pack", "Wolf Pack", "Manada de lobos / Matilha de Lobos", (11, 14, 16),
         2, 0, False, False, 0, "torch", (), "R; str, wounds D1"),
    Boss("necromancer", "Necromancer", "Nigromante / Necromante", (14, 18, 23),
         2, 0, False, False, 0, "crystal", (), "R; str, wounds D1"),
    Boss("mega_dragon", "Mega-Dragon", "Megadragón / Megadragão", None,
         3, 0, False, False, 0, "key", (), "R; wounds D1"),
    Boss("golem", "Golem", "Golem / Golem", None,
         3, 0, False, False, 0, None, (("5", 1), ("sword", 1)), "R; wounds A"),
    Boss("mummy", "Mummy", "Momia / Múmia", None,
         3, 0, False, True, 0, None, (), "R; wounds A"),
)

# --------------------------------------------------------------------------- characters (5)


@dataclass(frozen=True, slots=True)
class Character:
    kind: str
    name: str
    names_es_pt: str
    coins: int
    wounds: int
    items: tuple[int, int, int, int]  # torch, crystal, key, sword
    prov: str


CHARACTERS: tuple[Character, ...] = (
    Character("warrior", "Warrior", "Guerrero / Guerreiro", 2, 0, (0, 0, 0, 0), "D; items D1"),
    Character("wizard", "Wizard", "Hechicero / Mago", 1, 1, (0, 2, 0, 0), "D; items D1"),
    Character("thief", "Thief", "Ladrona / Ladra", 2, 2, (0, 0, 1, 0), "D; items D1"),
    Character("explorer", "Explorer", "Exploradora / Exploradora", 3, 2, (1, 0, 0, 0),
              "D; items D1"),
    Character("knight", "Knight", "Caballero / Cavaleiro", 1, 1, (0, 0, 0, 1), "D; items D1"),
)
CHARACTER_BY_KIND: dict[str, Character] = {c.kind: c for c in CHARACTERS}

# --------------------------------------------------------------------------- level cards (7)

# True = face down ("d"), False = face up ("U").  Source: EVB only (D1).
LEVEL_CARDS: Final[dict[str, tuple[bool, bool, bool, bool, bool]]] = {
    "L1": (False, True, False, True, True),
    "L2": (False, True, True, False, True),
    "L3": (False, False, False, False, True),
    "L4": (False, False, True, True, False),
    "L5": (False, False, True, True, True),
    "L6": (False, False, True, False, True),
    "L7": (False, True, True, True, False),
}
LEVEL_CARD_PROV = "D1 (EVB only)"


# --------------------------------------------------------------------------- the room deck


@dataclass(frozen=True, slots=True)
class RoomCard:
    """One physical card: a unique id (copies are numbered) and its data."""

    id: str
    category: Category
    data: RoomData

    @property
    def kind(self) -> str:
        return self.data.kind


def _build_deck() -> tuple[RoomCard, ...]:
    cards: list[RoomCard] = []
    groups: tuple[tuple[Category, tuple[tuple[RoomData, int], ...]], ...] = (
        (Category.MONSTER, MONSTERS),
        (Category.TREASURE, TREASURES),
        (Category.VAULT, VAULTS),
        (Category.TRAP, TRAPS),
    )
    for category, table in groups:
        for data, copies in table:
            for i in range(copies):
                card_id = data.kind if copies == 1 else f"{data.kind}#{i + 1}"
                cards.append(RoomCard(card_id, category, data))
    return tuple(cards)


ROOM_DECK: Final[tuple[RoomCard, ...]] = _build_deck()
BOSS_CARDS: Final[tuple[RoomCard, ...]] = tuple(RoomCard(b.kind, Category.BOSS, b)
                                                for b in BOSSES)
CARDS: Final[dict[str, RoomCard]] = {c.id: c for c in ROOM_DECK + BOSS_CARDS}
ROOM_IDS: Final[tuple[str, ...]] = tuple(c.id for c in ROOM_DECK)
BOSS_IDS: Final[tuple[str, ...]] = tuple(c.id for c in BOSS_CARDS)
ROOMS_USED = 24

assert len(ROOM_DECK) == 30
assert sum(c.category is Category.MONSTER for c in ROOM_DECK) == 11
assert sum(c.category is Category.TREASURE for c in ROOM_DECK) == 10
assert sum(c.category is Category.VAULT for c in ROOM_DECK) == 5
assert sum(c.category is Category.TRAP for c in ROOM_DECK) == 4
assert len(BOSSES) == 10 and len(CHARACTERS) == 5 and len(LEVEL_CARDS) == 7


def room_name(card_id: str) -> str:
    """A readable name for a room card id."""
    card = CARDS[card_id]
    data = card.data
    if isinstance(data, Treasure):
        return f"Treasure {data.big}/{data.second}" if data.second else f"Treasure {data.big}"
    if isinstance(data, Vault):
        return "Items vault" if data.kind == "vault-items" else "Coins vault"
    return data.name
