"""The flow of Dungeon Raiders play: cards put down and revealed, a room resolved, the next room
entered, a level ended, the game finished, a chance outcome applied (see ``state.py`` for the
phases).

Every function returns a new state: those that take ``state`` copy it first; those that take
``new`` change that fresh copy (the one a transition is building) and return it.  The state
class calls them; they read its derived facts (``face_down``, ``_turn_order`` …) and import it
only for typing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.raiders.cards import (
    CHARACTER_BY_KIND,
    CRYSTAL,
    ITEM_INDEX,
    LEVEL_CARDS,
    LEVELS,
    ROOMS_PER_LEVEL,
    TORCH,
)
from engine.raiders.records import (
    _CHAR,
    _COINS,
    _DEAL,
    _ELIM,
    _EMPTY_PLAYS,
    _ENTER,
    _FOLLOWUP,
    _ITEMS,
    _LEVEL,
    _OVER,
    _PLAY,
    _POWER_BIT,
    _SETUP,
    _USED,
    _WOUNDS,
    Hands,
    Knowledge,
    Player,
    _add,
    _new_player,
)
from engine.raiders.resolve import NO_CARD, _resolve_room, map_value
from engine.raiders.scoring import score

if TYPE_CHECKING:
    from engine.raiders.state import RaidersState





def owe_peek(state: RaidersState, knowledge: list[Knowledge], seat: int) -> None:
    hidden = tuple(state.event_id(p) for p in state.hidden_positions())
    if hidden:
        k = knowledge[seat]
        knowledge[seat] = Knowledge(k.pending, hidden, k.seen)


def peek(state: RaidersState, seat: int) -> RaidersState:
    new = state._copy()
    players = list(state.players)
    p = players[seat]
    players[seat] = p.replace(items=_add(p.items, TORCH, -1))
    knowledge = list(state.knowledge)
    owe_peek(state, knowledge, seat)
    peeks = list(state.peeks)
    peeks[seat] += 1
    new.players = tuple(players)
    new.supply = _add(state.supply, TORCH, 1)
    new.knowledge = tuple(knowledge)
    new.peeks = tuple(peeks)
    return new


def put_down(state: RaidersState, cards: Mapping[int, str], knowledge: list[Knowledge] | None,
             *, return_balls: bool) -> tuple[Hands, list[int], list[Knowledge] | None]:
    """Move revealed cards from hands to the table.  Returns the seats' hands after it
    (power cards used and items, as lists) and the supply.  Torches (and, in the basic
    game, crystal balls) go straight back to the supply; a torch played as a card owes its
    user a peek if a face-down room remains (ruling 2), which is added to ``knowledge``
    (copied from the state if None)."""
    used = [p[_USED] for p in state.players]
    items = [p[_ITEMS] for p in state.players]
    supply = list(state.supply)
    for seat, card in cards.items():
        bit = _POWER_BIT.get(card, 0)
        if bit:
            used[seat] |= bit
            continue
        i = ITEM_INDEX[card]
        held = list(items[seat])
        held[i] -= 1
        items[seat] = (held[0], held[1], held[2], held[3])
        if i == TORCH:
            supply[TORCH] += 1
            if knowledge is None:
                knowledge = list(state.knowledge)
            owe_peek(state, knowledge, seat)
        elif i == CRYSTAL and return_balls:
            supply[CRYSTAL] += 1
    return (used, items), supply, knowledge


def with_hands(state: RaidersState, hands: Hands) -> tuple[Player, ...]:
    used, items = hands
    return tuple([_new_player((p[_CHAR], p[_COINS], p[_WOUNDS], items[s], used[s],
                               p[_ELIM])) for s, p in enumerate(state.players)])


def reveal(state: RaidersState, cards: Mapping[int, str], *, held: bool) -> RaidersState:
    """Every card of a simultaneous step is revealed together.  ``held``: some of the cards
    were committed one by one and are pending in the seats' knowledge."""
    new = state._copy()
    knowledge: list[Knowledge] | None = None
    if held:
        knowledge = [Knowledge(NO_CARD, k.owed, k.seen) if k.pending else k
                     for k in state.knowledge]
    in_play = state.phase is _PLAY
    slot = list(state.plays if in_play else state.followups)
    for s, c in cards.items():
        slot[s] = c
    if in_play:
        new.plays = tuple(slot)
    else:
        new.followups = tuple(slot)
    hands, supply, knowledge = put_down(state, cards, knowledge, return_balls=True)
    if knowledge is not None:
        new.knowledge = tuple(knowledge)
    if in_play and "crystal" in slot and not state._escapes_with_ball():
        new.players = with_hands(state, hands)
        new.supply = (supply[0], supply[1], supply[2], supply[3])
        new.phase = _FOLLOWUP
        new.turn = 0
        return new
    return resolve(new, hands, supply)


def after_plays(new: RaidersState) -> RaidersState:
    """Tactical: every room card is down: go to the follow-ups or resolve."""
    if "crystal" in new.plays and not new._escapes_with_ball():
        new.phase = _FOLLOWUP
        new.turn = 0
        return new
    return_crystal_balls(new)
    return resolve(new, hands_of(new), list(new.supply))


def return_crystal_balls(new: RaidersState) -> None:
    balls = new.plays.count("crystal")
    if balls:
        new.supply = _add(new.supply, CRYSTAL, balls)


def play_in_turn(state: RaidersState, seat: int, card: str) -> RaidersState:
    new = state._copy()
    in_play = state.phase is _PLAY
    slot = list(state.plays if in_play else state.followups)
    slot[seat] = card
    if in_play:
        new.plays = tuple(slot)
    else:
        new.followups = tuple(slot)
    hands, supply, knowledge = put_down(state, {seat: card}, None, return_balls=False)
    new.players = with_hands(state, hands)
    new.supply = (supply[0], supply[1], supply[2], supply[3])
    if knowledge is not None:
        new.knowledge = tuple(knowledge)
    order = state._turn_order()
    if state.turn + 1 < len(order):
        new.turn = state.turn + 1
        return new
    if state.phase is _PLAY:
        return after_plays(new)
    return_crystal_balls(new)
    return resolve(new, hands_of(new), list(new.supply))


# ---------------------------------------------------------------------- resolution


def hands_of(state: RaidersState) -> Hands:
    return [p.used for p in state.players], [p.items for p in state.players]


def resolve(new: RaidersState, hands: Hands, supply_before: list[int]) -> RaidersState:
    """Resolve the current room, discard it and move on (``new`` is a fresh copy; ``hands``
    and the supply are as :func:`put_down` left them)."""
    plays = new.plays
    followups = new.followups
    players = new.players
    resolution, supply = _resolve_room(
        new.level, new.room + 1, new.row[new.room], new.n, plays, followups,
        tuple([p[_COINS] for p in players]), tuple([p[_WOUNDS] for p in players]),
        supply_before)
    coins, wounds, gained, eliminated = (resolution[10], resolution[11], resolution[14],
                                         resolution[15])
    used, items = hands
    new_players = []
    for s, p in enumerate(players):
        held = items[s]
        if gained[s]:
            held = _add(held, ITEM_INDEX[gained[s]], 1)
        card = plays[s]
        if card == "key" or card == "sword":  # back to the supply after the room
            supply[ITEM_INDEX[card]] += 1
        card = followups[s]
        if card == "key" or card == "sword":
            supply[ITEM_INDEX[card]] += 1
        new_players.append(_new_player((p[_CHAR], coins[s], wounds[s], held, used[s],
                                        p[_ELIM] or eliminated[s])))
    new.players = tuple(new_players)
    new.supply = (supply[0], supply[1], supply[2], supply[3])
    new.last = resolution
    if new.tactical and not (new.level == LEVELS and new.room == ROOMS_PER_LEVEL - 1):
        new.map = next_map_holder(new)
    empty = _EMPTY_PLAYS[new.n]
    new.plays = empty
    new.followups = empty
    new.turn = 0
    if new.room + 1 < ROOMS_PER_LEVEL:
        new.room = new.room + 1
        return enter(new)
    return end_level(new)


def next_map_holder(state: RaidersState) -> int:
    finals = [f if f else p for p, f in zip(state.plays, state.followups, strict=True)]
    values = [map_value(c) for c in finals]
    best = max(values)
    for i in range(state.n):
        seat = (state.map + i) % state.n
        if values[seat] == best:
            return seat
    raise AssertionError("no highest value")


def enter(new: RaidersState) -> RaidersState:
    """Enter the current room: turn it if it is face down (a hidden chance event)."""
    if new.face_down(new.room):
        new.phase = _ENTER
    else:
        new.phase = _PLAY
    return new


def end_level(new: RaidersState) -> RaidersState:
    players = tuple([_new_player((p[0], p[1], p[2], p[3], 0, p[5])) if p[4] else p
                     for p in new.players])
    new.players = players
    new.peeks = (0,) * new.n
    new.knowledge = tuple(
        Knowledge(k.pending, (), ()) if (k.owed or k.seen) else k for k in new.knowledge)
    if new.level == LEVELS:
        return finish(new)
    new.phase = _LEVEL
    new.layout = ""
    new.row = (NO_CARD,) * ROOMS_PER_LEVEL
    new.room = 0
    return new


def finish(new: RaidersState) -> RaidersState:
    new.phase = _OVER
    new.layout = ""
    new.row = (NO_CARD,) * ROOMS_PER_LEVEL
    new.room = 0
    new.outcome = score(new.n, new.players, new.forfeited)
    return new


def apply_chance(state: RaidersState, outcome: str) -> RaidersState:
    """The next state after ``outcome`` of the pending chance event (checked by the caller)."""
    new = state._copy()
    phase = state.phase
    if phase is _SETUP:
        missing = [s for s, p in enumerate(state.players) if not p.character]
        if missing:
            s = missing[0]
            c = CHARACTER_BY_KIND[outcome]
            players = list(state.players)
            players[s] = Player(c.kind, c.coins, c.wounds, c.items)
            new.players = tuple(players)
            supply = state.supply
            new.supply = (supply[0] - c.items[0], supply[1] - c.items[1],
                          supply[2] - c.items[2], supply[3] - c.items[3])
            if len(missing) > 1 or state.tactical:
                return new
        else:
            new.map = int(outcome)
        new.phase = _LEVEL
        return new
    if phase is _LEVEL:
        new.level = state.level + 1
        new.layout = outcome
        new.level_cards = tuple(c for c in state.level_cards if c != outcome)
        new.phase = _DEAL
        return new
    position = state._next_deal() if phase is _DEAL else state.room
    row = list(state.row)
    row[position] = outcome
    new.row = tuple(row)
    if not state._is_boss_slot(position):
        rooms = state.rooms
        i = rooms.index(outcome)
        new.rooms = rooms[:i] + rooms[i + 1:]
    if phase is _ENTER:
        # The turned room is public now: drop it from what torches showed or are owed.
        event = state.event_id(position)
        if any(k.seen or k.owed for k in state.knowledge):
            new.knowledge = tuple(
                Knowledge(k.pending, tuple(e for e in k.owed if e != event),
                          tuple(e for e in k.seen if e[0] != event))
                if (k.seen or k.owed) else k for k in state.knowledge)
        new.phase = _PLAY
        return new
    layout = LEVEL_CARDS[state.layout]
    if any(not layout[p] and not row[p] for p in range(ROOMS_PER_LEVEL)):
        return new
    return enter(new)
