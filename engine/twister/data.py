"""Dungeon Twister's components and board constants (rules/dungeon-twister.md §1, §2, §10.1).

Seat 0 is West (yellow, starting line x = 0) and seat 1 is East (blue, x = 21).  Each seat owns
14 tokens, numbered ``seat * 14 + kind``; a token is written ``W-troll`` or ``E-rope``.
"""

from __future__ import annotations

from typing import Final

WIDTH: Final = 22
HEIGHT: Final = 10
SQUARES: Final = WIDTH * HEIGHT

SEATS: Final = 2
SIDE: Final = ("W", "E")
SIDE_NAME: Final = ("West", "East")
LINE_X: Final = (0, WIDTH - 1)  # each seat's starting line
START_YS: Final = (1, 3, 6, 8)  # the starting squares of each line
SLOTS: Final = 8
CAPACITY: Final = (2, 3, 3, 2, 2, 3, 3, 2)  # face-down tokens per slot at set-up (both seats)

CHARACTERS: Final = ("cleric", "goblin", "mekanork", "thief", "troll", "wall_walker", "warrior",
                     "wizard")
OBJECTS: Final = ("treasure", "armour", "sword", "fireball_wand", "rope", "speed_potion")
KINDS: Final = CHARACTERS + OBJECTS
PER_SEAT: Final = len(KINDS)  # 14
TOKENS: Final = SEATS * PER_SEAT
N_CHARACTERS: Final = len(CHARACTERS)

CLERIC, GOBLIN, MEKANORK, THIEF, TROLL, WALL_WALKER, WARRIOR, WIZARD = range(8)
TREASURE, ARMOUR, SWORD, WAND, ROPE, POTION = range(8, 14)

MOVE: Final = (4, 4, 3, 5, 2, 4, 3, 4)  # per character kind
STRENGTH: Final = (2, 1, 2, 2, 4, 1, 3, 1)

ACTION_CARDS: Final = (2, 3, 4, 5)
COMBAT_CARDS: Final = (0, 1, 2, 2, 3, 3, 4, 5, 6)
JUMP_CARDS: Final = 3
TARGET_VP: Final = 5
POTION_AP: Final = 4

# Spellings parse_action accepts for a kind, besides the canonical one.
KIND_ALIASES: Final = {
    "wall-walker": "wall_walker", "wallwalker": "wall_walker", "walker": "wall_walker",
    "armor": "armour", "wand": "fireball_wand", "fireball-wand": "fireball_wand",
    "potion": "speed_potion", "speed-potion": "speed_potion",
}


def seat_of(token: int) -> int:
    return token // PER_SEAT


def kind_of(token: int) -> int:
    return token % PER_SEAT



def token_id(token: int) -> str:
    """``W-troll``, ``E-rope``."""
    return f"{SIDE[token // PER_SEAT]}-{KINDS[token % PER_SEAT]}"



def square(x: int, y: int) -> int:
    return y * WIDTH + x


def xy(sq: int) -> tuple[int, int]:
    return sq % WIDTH, sq // WIDTH


def square_name(sq: int) -> str:
    return f"{sq % WIDTH},{sq // WIDTH}"


def slot_of(sq: int) -> int:
    """The room slot of a square, or -1 on a starting line."""
    x, y = sq % WIDTH, sq // WIDTH
    if x == 0 or x == WIDTH - 1:
        return -1
    return (x - 1) // 5 + 4 * (y // 5)


def local_of(sq: int) -> int:
    """The local index (R - 1) * 5 + (C - 1) of a room square in its slot."""
    x, y = sq % WIDTH, sq // WIDTH
    return (y % 5) * 5 + (x - 1) % 5


def slot_square(slot: int, local: int) -> int:
    """The board square of local index ``local`` of ``slot``."""
    k, j = slot % 4, slot // 4
    return square(5 * k + 1 + local % 5, 5 * j + local // 5)



def start_slot(seat: int, y: int) -> str:
    """The sealed-value slot of a starting square: ``start.0.3``."""
    return f"start.{seat}.{y}"


def token_slot(seat: int, n: int) -> str:
    """The sealed-value slot of a seat's n-th face-down room token (1..10): ``tok.1.7``."""
    return f"tok.{seat}.{n}"


SLOT_SQUARES: Final = tuple(tuple(slot_square(s, i) for i in range(25)) for s in range(SLOTS))
LINE_SLOTS: Final = ((0, 4), (3, 7))  # the slots that touch each seat's starting line
