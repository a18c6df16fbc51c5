"""Dungeon Raiders' help: the full screen's keys, line mode's words, and the rules in short
(``cryptcrawl rules raiders``, the help pane after the keys, line mode's ``rules``).

The rules are made from the engine's card tables (characters, bosses) for the table's number of
players, so they say what this match plays by.  Lines stay within 79 columns.
"""

from __future__ import annotations

from cli.games.raiders import render
from cli.text import plural, wrap_text
from engine.raiders.cards import BOSSES, CHARACTERS, ITEMS

LINE_HELP = """\
How to play (line mode)
  Each room, every player plays one card (all at once; in the tactical variant
  one at a time, face up), then the room resolves.
  play 1 .. play 5   play a power card (each once per level; you get them back
                     after room 5). A bare number works too: 4
  play sword         counts 5, monster rooms and the boss only
  play key           counts 5, treasure rooms (and escapes the Mega-Dragon)
  play torch         counts 0, and shows you the face-down rooms of this level
  play crystal       play a crystal ball: see everyone's card, then play another
  torch              use a torch just to look at the face-down rooms, then choose
  look               show the table again
  rules              the rules in short
  ? or help          this help
  q or quit          leave the game
Most coins wins, but whoever ends with the most wounds faints and cannot win."""

KEY_LINES = """\
Keys (full screen)
  1 2 3 4 5   select a power card (each once per level)
  k           select a key: counts 5 in treasure rooms (escapes the Mega-Dragon)
  s           select a sword: counts 5 against monsters and the boss
  c           select a crystal ball: see everyone's card, then play another
  T           select a torch to play: counts 0, shows the face-down rooms
  t           select a torch just to look at the face-down rooms, then choose
  Enter       lock the selected card in (until then another key changes it)
  Esc         drop the selection (or close this help)
  PgUp PgDn   scroll the log (End: back to the newest line); here: this help
  ?           this help        q   leave the match (asks first)
A bell rings when it is your move (--no-bell turns it off)."""


def rules_text(players: int, variant: str) -> str:
    """The rules in short for ``players`` and ``variant``."""
    items = ", ".join(render.card_text(item) for item in ITEMS)
    characters = "; ".join(
        f"{c.name} {plural(c.coins, 'coin')}, {plural(c.wounds, 'wound')}"
        + "".join(f", {render.card_text(ITEMS[i])}" + (f" x{n}" if n > 1 else "")
                  for i, n in enumerate(c.items) if n)
        for c in CHARACTERS)
    parts = [
        "The game",
        "5 levels of 5 rooms. In each room every player plays one card; the room then "
        "resolves. Power cards 1-5 come back after room 5 of a level; items "
        f"({items}) are used up. Most coins wins, but whoever ends with the most wounds "
        "faints and cannot win.",
        "",
        "Characters (dealt at the start; they differ in what they start with)",
        characters + ".",
        "",
        "Room kinds",
        "Monster: if the cards add up to at least its strength it is defeated; otherwise "
        "the lowest card takes its wounds (all tied on it). A sword counts 5, a torch 0.",
        "Treasure: the highest card takes the big chest, the next lower card the small one; "
        "ties split a chest (rounded down). A key counts 5, a torch gets nothing.",
        "Vault: your card's value picks what you get (coins, healing or an item); if more "
        "ask for an item than the supply holds, none of them gets it.",
        "Trap: the highest card played sets the penalty; it hits everyone tied on the most "
        "coins (coin traps) or the fewest wounds (wound traps).",
        "Face-down rooms ([ ? ]) are turned when entered; a torch shows them to you alone.",
        "",
        f"Bosses (the last room of level 5; strengths for {players} players)",
    ]
    for boss in BOSSES:
        parts.append(render.describe_boss(boss, players))
    parts += [
        "",
        "Tactical variant" + (" (this match)" if variant == "tactical" else ""),
        "Cards are played one at a time, face up, clockwise from the map holder. After each "
        "room the map goes to the highest final card, going clockwise from the holder (a tied "
        "holder keeps it); keys and swords count 5, a torch 0. No map is passed after the "
        "boss.",
        "",
        "Fainting and ties",
        "At the end, among the players not eliminated: if all have the same wounds nobody "
        "faints. Otherwise with 4 or 5 players everyone tied on the most wounds faints; with "
        "3 players only a unique most-wounded player faints. The winner has the most coins "
        "among the rest, then the fewest wounds; a remaining tie is a shared win.",
    ]
    lines: list[str] = []
    for part in parts:
        lines.extend(wrap_text(part, width=79) if part else [""])
    return "\n".join(lines)
