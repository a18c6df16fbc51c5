"""What one seat may know (rules reference §8): everything is public — the map, every figure,
every item with its uses, gold, decks' sizes and tails, the lair, every die — except the order
of undrawn cards (which nobody knows: the engine never fixes one) and the Friendly guardian's
peek, which only the seat that looked may see.  ``make_view(state, -1)`` is the spectator's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import Chance, Over, Turn
from engine.kards.actions import Action, format_action
from engine.kards.board import portal, sides
from engine.kards.cards import (
    CHARACTER_BY_KIND,
    EVENT_LEVELS,
    MONSTER_BY_KIND,
    PACK,
    category,
    display,
    kind_of,
)
from engine.kards.records import (
    NO_KNOWLEDGE,
    Char,
    Effect,
    Item,
    Monster,
    ap_of,
    attributes,
    max_life,
)
from engine.kards.state import KardsState


@dataclass(frozen=True, slots=True)
class CellView:
    x: int
    y: int
    card: str
    sides: str  # N, E, S, W: "O" open, "D" door, "#" wall
    portal: str  # "Y", "B" or ""


@dataclass(frozen=True, slots=True)
class CharView:
    card: str
    name: str
    seat: int
    team: int
    life: int
    max_life: int
    attack: int  # ATK, DEF, DMG now: the life row, items and effects
    defence: int
    damage: int
    ap: int
    at: tuple[int, int] | None  # None: defeated (or resigned)
    start: tuple[int, int] | None
    gold: int
    ability: str
    charged: bool
    weapon: Item | None
    pet: Item | None
    carried: tuple[Item, ...]
    stones: tuple[str, ...]
    effects: tuple[Effect, ...]
    mist: bool
    budget: int
    out: bool
    in_combat: bool


@dataclass(frozen=True, slots=True)
class MonsterView:
    card: str
    name: str
    level: int  # 3: the Boss
    life: int
    max_life: int
    attack: int
    defence: int
    damage: int
    ap: int
    at: tuple[int, int]
    effects: tuple[Effect, ...]
    first: bool
    guarded: bool  # the Boss, while another monster shares its card


@dataclass(frozen=True, slots=True)
class KardsView:
    seat: int  # -1: a spectator
    pack: str
    players: int
    mode: str
    copies: int
    team_size: int
    options: tuple[tuple[str, Any], ...]
    size: int
    board: tuple[str, ...]  # size × size cells ("" empty), row by row from the north-west
    cells: tuple[CellView, ...]
    characters: tuple[CharView, ...]
    monsters: tuple[MonsterView, ...]
    grey_left: int  # grey cards still hidden
    grey_tail: tuple[str, ...]
    orange_top: int  # cards in the orange top half
    orange_bottom: int  # cards in the bottom half (the Portal Stone among them if undrawn)
    orange_tail: tuple[str, ...]
    orange_cards: tuple[str, ...]  # which cards the hidden segments hold (not their order)
    stone_in_deck: bool
    yellow_left: int
    lair: tuple[str, ...]
    boss_appeared: bool
    revealed: int
    events_done: int
    next_event: int  # the revealed count of the next event (0: none left)
    round: int  # the current round, 1-based
    round_cap: int  # 0: off
    turn: int
    active: str  # the active character's card ("" in set-up)
    deciding: str  # the character the pending decision is for (an event's chooser, else the
    # active character; "" in set-up and while chance or the end is pending)
    phase: str  # the kind of the top frame ("main", "attacks", "strike", ...)
    step: str
    waiting_for: tuple[int, ...]
    chance: str  # the pending chance event's id ("" none)
    legal: tuple[Action, ...]
    peeked: tuple[tuple[str, str], ...]  # what this seat's guardian showed (event, card)
    owed: tuple[str, ...]
    log: tuple[str, ...]
    winners: tuple[int, ...]
    standings: tuple[str, ...]
    result: str
    # The state with every other seat's private knowledge removed: exactly what this seat may
    # know (searching bots play on from it).  Not part of the JSON.
    state: KardsState

    def to_json(self) -> dict[str, Any]:
        def item(i: Item | None) -> list[Any] | None:
            return None if i is None else [i.card, i.uses, i.since]

        def eff(e: tuple[Effect, ...]) -> list[list[Any]]:
            return [[x.kind, x.x, x.timer] for x in e]

        return {
            "seat": self.seat, "pack": self.pack, "players": self.players, "mode": self.mode,
            "copies": self.copies, "team_size": self.team_size,
            "options": {k: v for k, v in self.options}, "size": self.size,
            "cells": [[c.x, c.y, c.card, c.sides, c.portal] for c in self.cells],
            "characters": [{
                "card": c.card, "seat": c.seat, "team": c.team, "life": c.life,
                "max_life": c.max_life, "stats": [c.attack, c.defence, c.damage, c.ap],
                "at": list(c.at) if c.at else None, "gold": c.gold, "ability": c.ability,
                "charged": c.charged, "weapon": item(c.weapon), "pet": item(c.pet),
                "carried": [item(i) for i in c.carried], "stones": list(c.stones),
                "effects": eff(c.effects), "mist": c.mist, "budget": c.budget, "out": c.out,
                "in_combat": c.in_combat} for c in self.characters],
            "monsters": [{
                "card": m.card, "level": m.level, "life": m.life, "max_life": m.max_life,
                "stats": [m.attack, m.defence, m.damage, m.ap], "at": list(m.at),
                "effects": eff(m.effects), "first": m.first, "guarded": m.guarded}
                for m in self.monsters],
            "decks": {"grey_left": self.grey_left, "grey_tail": list(self.grey_tail),
                      "orange_top": self.orange_top, "orange_bottom": self.orange_bottom,
                      "orange_tail": list(self.orange_tail),
                      "orange_cards": list(self.orange_cards),
                      "stone_in_deck": self.stone_in_deck, "yellow_left": self.yellow_left},
            "lair": list(self.lair), "boss_appeared": self.boss_appeared,
            "revealed": self.revealed, "events_done": self.events_done,
            "next_event": self.next_event, "round": self.round, "round_cap": self.round_cap,
            "turn": self.turn, "active": self.active, "deciding": self.deciding,
            "phase": self.phase, "step": self.step,
            "waiting_for": list(self.waiting_for), "chance": self.chance,
            "legal": [format_action(a) for a in self.legal], "peeked": dict(self.peeked),
            "owed": list(self.owed), "log": list(self.log), "winners": list(self.winners),
            "standings": list(self.standings), "result": self.result,
        }


def _at(s: KardsState, cell: int) -> tuple[int, int] | None:
    return (cell % s.size, cell // s.size) if cell >= 0 else None


def _char_view(s: KardsState, c: Char) -> CharView:
    kind = kind_of(c.card) if c.card else ""
    data = CHARACTER_BY_KIND.get(kind)
    atk, dfn, dmg = attributes(c) if data is not None else (0, 0, 0)
    return CharView(
        c.card, display(c.card) if c.card else "", c.seat, c.team, c.life,
        max_life(c.card) if c.card else 0, atk, dfn, dmg, ap_of(c.card) if c.card else 0,
        _at(s, c.cell), _at(s, c.start), c.gold, data.ability.id if data else "", c.charged,
        c.weapon, c.pet, c.carried, c.stones, c.effects, c.mist, c.budget, c.out,
        c.cell >= 0 and s.in_combat(c))


def _monster_view(s: KardsState, m: Monster) -> MonsterView:
    data = MONSTER_BY_KIND[kind_of(m.card)]
    atk, dfn, dmg = attributes(m)
    guarded = category(m.card) == "boss" and any(
        o.cell == m.cell and o.card != m.card for o in s.monsters)
    at = _at(s, m.cell)
    assert at is not None
    return MonsterView(m.card, display(m.card), data.level, m.life, data.life, atk, dfn, dmg,
                       data.ap, at, m.effects, m.first, guarded)


def _deciding(s: KardsState) -> str:
    if not isinstance(s.waiting, Turn) or s.active < 0:
        return ""
    frame = s.stack[-1]
    if frame[0] == "choose":
        return s.chars[int(frame[1])].card
    return s.chars[s.active].card


_CELLS: dict[tuple[str, ...], tuple[CellView, ...]] = {}


def _cells(board: tuple[str, ...], size: int) -> tuple[CellView, ...]:
    """The placed cards of ``board`` (memoised: a map changes only when a card is placed)."""
    found = _CELLS.get(board)
    if found is None:
        if len(_CELLS) >= 1024:
            _CELLS.clear()
        found = _CELLS[board] = tuple(
            CellView(cell % size, cell // size, card, sides(card), portal(card))
            for cell, card in enumerate(board) if card)
    return found


def _only(s: KardsState, seat: int) -> KardsState:
    """``s`` with the knowledge of every seat but ``seat`` removed."""
    keep = tuple(k if i == seat else NO_KNOWLEDGE for i, k in enumerate(s.knowledge))
    if keep == s.knowledge:
        return s
    new = s._copy()
    new.knowledge = keep
    return new


def make_view(s: KardsState, seat: int | None) -> KardsView:
    """What ``seat`` may know; ``None``: what a spectator may (pass the public state), shown
    as seat -1."""
    if seat is None:
        seat = -1
    w = s.waiting
    o = s.orange
    mine = s.knowledge[seat] if seat >= 0 else None
    outcome = w.outcome if isinstance(w, Over) else None
    step = s.step if isinstance(w, Turn) else ""
    next_event = (s.step_size * (s.events_done + 1)
                  if s.events and s.events_done < EVENT_LEVELS else 0)
    return KardsView(
        seat=seat, pack=PACK, players=s.n, mode=s.mode, copies=s.copies,
        team_size=s.team_size,
        options=(("events", s.events), ("abilities", s.abilities),
                 ("solo_help", s.solo_help), ("counter_budget", s.counter_budget),
                 ("round_cap", s.round_cap)),
        size=s.size, board=s.board,
        cells=_cells(s.board, s.size),
        characters=tuple(_char_view(s, c) for c in s.chars),
        monsters=tuple(_monster_view(s, m) for m in s.monsters),
        grey_left=len(s.grey), grey_tail=s.grey_tail, orange_top=o.top_size,
        orange_bottom=o.bottom_size, orange_tail=o.tail,
        orange_cards=tuple(sorted((*o.pool, *o.top_known, *o.bottom_known))),
        stone_in_deck=s.pack.portal_stone in o.bottom_known, yellow_left=len(s.yellow),
        lair=s.lair, boss_appeared=s.boss_appeared, revealed=s.revealed,
        events_done=s.events_done, next_event=next_event,
        round=s.rounds + 1 if s.turn else 0, round_cap=s.round_cap, turn=s.turn,
        active=s.chars[s.active].card if s.active >= 0 else "",
        deciding=_deciding(s),
        phase=s.stack[-1][0] if s.stack else "over", step=step,
        waiting_for=(w.seat,) if isinstance(w, Turn) else (),
        chance=w.event.id if isinstance(w, Chance) else "",
        legal=s.legal_actions(seat) if seat >= 0 else (),
        peeked=mine.seen if mine else (), owed=mine.owed if mine else (),
        log=s.log,
        winners=tuple(sorted(outcome.winners)) if outcome else (),
        standings=tuple(st.status for st in outcome.standings) if outcome else (),
        result=outcome.reason if outcome else "",
        state=_only(s, seat),
    )
