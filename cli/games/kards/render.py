"""Dungeons of Kards' table as text: the arena map — every dungeon card placed, with its walls,
doors and portals, and every figure on it — then each character's panel, the monsters, the
decks and the lair, the events track, whose turn it is and the latest lines of the log.

Every character is ASCII and nothing depends on colour (NO_COLOR, screen readers).  A cell is
seven characters by two lines: its card and portal, then the figures on it (a character by its
seat's letter, a monster by a two-letter code).  Cells are named ``x,y`` (column, row), as the
moves are written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cli.text import seat_letter, wrap_text
from engine.kards.cards import CHARACTER_BY_KIND, MONSTER_BY_KIND, kind_of

CELL: Final = 7
NORTH, EAST, SOUTH, WEST = range(4)
_CODE: Final = {"cultist": "cu", "gargoyle": "ga", "ghoul": "gh", "goblin": "go", "ooze": "oo",
                "orc": "or", "rat": "ra", "skeleton": "sk", "spider": "sp", "warden": "wa"}
LEGEND: Final = (
    "The map: cells are named x,y (column, row from the top).  A cell shows its dungeon card "
    "(and Y or B for a yellow or blue portal), then its figures: a character by its seat's "
    "letter, a monster by two letters (cu cultist, ga gargoyle, gh ghoul, go goblin, oo ooze, "
    "or orc, ra rat, sk skeleton, sp spider, wa warden), the Boss in capitals.  Between cells: "
    "| and ------- walls, = a door, blank open."
)
HINT: Final = "Characters by seat letter, monsters by two letters; ? explains every sign."


def monster_code(card: str) -> str:
    kind = kind_of(card)
    code = _CODE.get(kind, kind[:2])
    data = MONSTER_BY_KIND.get(kind)
    return code.upper() if data is not None and data.level >= 3 else code


def edge_kind(a: str | None, b: str | None) -> str:
    """The boundary between two cells from their facing sides ("O", "D", "#"; None: no card):
    "wall", "door" or ""."""
    known = [s for s in (a, b) if s is not None]
    if not known:
        return ""
    if "#" in known:
        return "wall"
    if "D" in known:
        return "door"
    return ""


def render_map(view: Any) -> list[str]:
    """The arena, one row of cells as two text lines plus one boundary line."""
    n = view.size
    sides: dict[tuple[int, int], str] = {(c.x, c.y): c.sides for c in view.cells}
    cards = {(c.x, c.y): c for c in view.cells}
    figures: dict[tuple[int, int], list[str]] = {}
    for c in view.characters:
        if c.at is not None:
            figures.setdefault(tuple(c.at), []).append(seat_letter(c.seat))
    for m in view.monsters:
        figures.setdefault(tuple(m.at), []).append(monster_code(m.card))

    def side(x: int, y: int, d: int) -> str | None:
        s = sides.get((x, y))
        return s[d] if s else None

    lines = ["   " + "".join(f"{x:^{CELL + 1}}" for x in range(n)).rstrip()]
    for y in range(n + 1):
        row = "   "
        for x in range(n):
            edge = edge_kind(side(x, y - 1, SOUTH) if y > 0 else None,
                         side(x, y, NORTH) if y < n else None)
            if (y == 0 or y == n) and not edge:
                edge = "wall"  # (the arena's edge)
            row += "+" + {"wall": "-" * CELL, "door": "---=---", "": " " * CELL}[edge]
        lines.append(row + "+")
        if y == n:
            break
        top, bottom = f"{y:>2} ", "   "
        for x in range(n + 1):
            edge = edge_kind(side(x - 1, y, EAST) if x > 0 else None,
                         side(x, y, WEST) if x < n else None)
            if (x == 0 or x == n) and not edge:
                edge = "wall"
            mark = {"wall": "|", "door": "=", "": " "}[edge]
            top += mark
            bottom += mark
            if x == n:
                break
            cell = cards.get((x, y))
            top += (f"{cell.card} {cell.portal}" if cell else "").ljust(CELL)[:CELL]
            here = figures.get((x, y), [])
            text = " ".join(here)
            if len(text) > CELL:
                text = " ".join(here[:2]) + f" +{len(here) - 2}"
            bottom += text.ljust(CELL)[:CELL]
        lines += [top.rstrip(), bottom.rstrip()]
    return lines


def _item(item: Any) -> str:
    if item is None:
        return "-"
    name = item.card.split("#")[0].replace("_", " ")
    return f"{name} ({item.uses} use{'s' if item.uses != 1 else ''})" if item.uses else name


ABILITY_WORDS: Final = {"heal": "heals {x} life", "stun": "stuns a figure for {x} round(s)",
                        "empower": "+{x} damage for 2 rounds", "weaken": "-{x} damage to a figure "
                        "for 2 rounds"}


SHORT_ABILITY: Final = {"heal": "heals {x}", "stun": "stuns {x} rd", "empower": "+{x} DMG 2 rd",
                        "weaken": "-{x} DMG 2 rd"}


def character_card(card: str, *, short: bool = False) -> str:
    """A character to pick, in words: its life, AP, attributes at full life and its ability
    (``short``: in one line of the full screen)."""
    data = CHARACTER_BY_KIND.get(kind_of(card))
    if data is None:
        return card
    top = max(data.bands, key=lambda b: b.high)
    ability = data.ability
    does = ABILITY_WORDS.get(ability.kind, f"{ability.kind} {{x}}").format(x=ability.x)
    if short:
        brief = SHORT_ABILITY.get(ability.kind, ability.kind).format(x=ability.x)
        return (f"{data.name}: life {data.life} AP {data.ap} ATK {top.attack} DEF "
                f"{top.defence} DMG {top.damage}; {ability.name}: {brief} "
                f"(-{ability.cost} life)")
    return (f"pick {card.split('#')[0]}: {data.name}, life {data.life}, AP {data.ap}, ATK "
            f"{top.attack} DEF {top.defence} DMG {top.damage} at full life; ability "
            f"{ability.name}: {does}; it costs {ability.cost} life and is spent until "
            "recharged.")


def character_line(c: Any, labels: Sequence[str]) -> str:
    """A character's panel in one (wrapped) line."""
    letter = seat_letter(c.seat)
    label = labels[c.seat] if c.seat < len(labels) else letter
    who = letter if label == letter else f"{letter} {label}"
    head = f"{who}, {c.name or 'no character yet'}"
    if not c.card:
        return head + "."
    if c.out or c.at is None:
        state = ("out of the game" if c.out else "not on the map yet" if c.start is None
                 else "defeated")
        return f"{head}: {state}; gold {c.gold}."
    parts = [f"life {c.life}/{c.max_life}", f"ATK {c.attack} DEF {c.defence} DMG {c.damage}",
             f"AP {c.ap}", f"gold {c.gold}", f"at {c.at[0]},{c.at[1]}"]
    if c.weapon is not None:
        parts.append("weapon " + _item(c.weapon))
    if c.pet is not None:
        parts.append("pet " + _item(c.pet))
    if c.carried:
        parts.append("carrying " + ", ".join(_item(i) for i in c.carried))
    if c.stones:
        parts.append("stones " + ", ".join(s.split("#")[0].replace("_", " ") for s in c.stones))
    if c.effects:
        parts.append("effects " + ", ".join(e.kind.replace("_", " ") for e in c.effects))
    if c.ability:
        parts.append(f"ability {c.ability.replace('_', ' ')}"
                     + (" (charged)" if c.charged else " (spent)"))
    if c.in_combat:
        parts.append("in combat")
    return f"{head}: " + "; ".join(parts) + "."


def monster_line(m: Any) -> str:
    where = f"{m.at[0]},{m.at[1]}"
    boss = "the Boss, " if m.level >= 3 else f"level {m.level}, "
    extra = "; guarded" if m.guarded else ""
    if m.effects:
        extra += "; " + ", ".join(e.kind.replace("_", " ") for e in m.effects)
    return (f"{monster_code(m.card)} {m.name} ({boss}at {where}): life {m.life}/{m.max_life}, "
            f"ATK {m.attack} DEF {m.defence} DMG {m.damage}{extra}.")


def headline(view: Any, labels: Sequence[str]) -> str:
    """The round of the cap, whose turn it is and who chooses, the mode."""
    cap = f"/{view.round_cap}" if view.round_cap else ""
    if view.turn:
        active = next((c for c in view.characters if c.card == view.active), None)
        who = f"{active.name} ({labels[active.seat]})" if active is not None else view.active
        head = f"Round {view.round}{cap}, turn {view.turn}: {who} acts"
        if view.deciding and view.deciding != view.active:
            chooser = next((c for c in view.characters if c.card == view.deciding), None)
            if chooser is not None:
                head += f"; {chooser.name} ({labels[chooser.seat]}) chooses"
    else:
        head = "Set-up"
    mode = {"arena": "Arena", "coop": "Co-op", "solo": "Solo"}.get(view.mode, view.mode)
    head += f". {mode}"
    if view.mode == "coop" and view.round_cap:
        head += f" (reaching round {view.round_cap} loses)"
    return head + "."


def render_table(view: Any, labels: Sequence[str]) -> list[str]:
    """Everything the viewer needs to decide (line mode)."""
    lines = wrap_text(headline(view, labels))
    lines += render_map(view)
    lines.append(HINT)
    for c in view.characters:
        lines += wrap_text(character_line(c, labels), indent="  ")
    for m in view.monsters:
        lines += wrap_text(monster_line(m), indent="  ")
    decks = (f"Decks: grey {view.grey_left} hidden; orange {view.orange_top + view.orange_bottom}"
             f" hidden; yellow {view.yellow_left}. Lair: "
             + (", ".join(view.lair) if view.lair else "empty") + ".")
    if view.next_event:
        decks += (f" Events: {view.events_done} so far, the next when {view.next_event} "
                  f"cards are revealed ({view.revealed} now).")
    lines += wrap_text(decks)
    if view.peeked:
        lines += wrap_text("Your guardian showed you (only you): " + ", ".join(
            f"{card} ({event})" for event, card in view.peeked) + ".")
    for entry in view.log[-3:]:
        lines += wrap_text("Last: " + entry, indent="  ")
    if view.result:
        lines += wrap_text(view.result[:1].upper() + view.result[1:] + ".")
    return lines
