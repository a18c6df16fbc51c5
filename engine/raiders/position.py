"""The Dungeon Raiders JSON position format (documented in docs/engine.md).

A position sets up any situation, as FEN does for chess.  Example (4 players, room 3 of level 2,
positions 3 and 5 face down, room 3 turned)::

    {"game": "raiders", "format": 1, "players": 4, "variant": "basic",
     "phase": "play", "level": 2, "room": 3, "layout": "L6",
     "row": ["zombie#1", "treasure-3", "dragon#1", "lava", "down"],
     "seats": [{"character": "warrior", "coins": 5, "wounds": 1,
                "items": {"sword": 1}, "used": [2, 4]}, ...]}

Fields left out take defaults: ``supply`` is derived from the 24 item cards (6 per type minus
those in hands and on the table; given, it must agree), ``rooms`` (cards not yet drawn) are all
room cards not shown in the row and ``level_cards`` all level cards but the current layout — a
convenience for tests and rules questions: from level 2 on, these default pools are larger than
a real game's, and only given pools are checked against the cards already drawn — and an
omitted seat field is 0 / empty.  A room may be named by its kind (``"dragon"``); the first
free copy is used.  ``private`` holds per-seat knowledge (pending card, owed and seen peeks).
:func:`to_position` always writes every field, so ``from_position(to_position(s)) == s``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import InvalidPositionError
from engine.plugin import get_int, invalid
from engine.raiders.actions import PLAY
from engine.raiders.cards import (
    BOSS_IDS,
    CARDS,
    CHARACTER_BY_KIND,
    ITEM_COPIES,
    ITEMS,
    LEVEL_CARDS,
    LEVELS,
    PLAYER_COUNTS,
    ROOM_IDS,
    ROOMS_PER_LEVEL,
)
from engine.raiders.records import NO_KNOWLEDGE, VARIANTS, Knowledge, Phase, Player
from engine.raiders.resolve import NO_CARD, Resolution
from engine.raiders.scoring import score
from engine.raiders.state import RaidersState, make_state

FORMAT = 1
DOWN = "down"
_HAND_CARDS = ("1", "2", "3", "4", "5", "torch", "crystal", "key", "sword")


# ---------------------------------------------------------------------- writing


def _items_json(items: tuple[int, ...]) -> dict[str, int]:
    return {name: items[i] for i, name in enumerate(ITEMS)}


def _used_json(used: int) -> list[int]:
    return [v for v in range(1, 6) if used >> (v - 1) & 1]


def resolution_to_json(r: Resolution) -> dict[str, Any]:
    return {
        "level": r.level, "position": r.position, "card": r.card,
        "plays": list(r.plays), "followups": list(r.followups), "values": list(r.values),
        "total": r.total, "strength": r.strength, "defeated": r.defeated,
        "attacked": list(r.attacked), "coins": list(r.coins), "wounds": list(r.wounds),
        "coin_delta": list(r.coin_delta), "wound_delta": list(r.wound_delta),
        "gained": list(r.gained), "eliminated": list(r.eliminated), "notes": list(r.notes),
    }


def resolution_from_json(d: Mapping[str, Any]) -> Resolution:
    try:
        return Resolution(
            level=int(d["level"]), position=int(d["position"]), card=str(d["card"]),
            plays=tuple(map(str, d["plays"])), followups=tuple(map(str, d["followups"])),
            values=tuple(map(int, d["values"])), total=int(d["total"]),
            strength=int(d["strength"]), defeated=bool(d["defeated"]),
            attacked=tuple(map(bool, d["attacked"])), coins=tuple(map(int, d["coins"])),
            wounds=tuple(map(int, d["wounds"])), coin_delta=tuple(map(int, d["coin_delta"])),
            wound_delta=tuple(map(int, d["wound_delta"])), gained=tuple(map(str, d["gained"])),
            eliminated=tuple(map(bool, d["eliminated"])), notes=tuple(map(str, d["notes"])),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidPositionError(f"malformed 'last' resolution: {exc}") from exc


def to_position(state: RaidersState, *, private: bool = True) -> dict[str, Any]:
    row: list[str | None] = []
    for p in range(ROOMS_PER_LEVEL):
        card = state.row[p]
        if card:
            row.append(card)
        elif state.layout and LEVEL_CARDS[state.layout][p] and state.phase not in (
                Phase.LEVEL, Phase.SETUP):
            row.append(DOWN)
        else:
            row.append(None)
    seats = []
    for s, player in enumerate(state.players):
        seats.append({
            "character": player.character,
            "coins": player.coins,
            "wounds": player.wounds,
            "items": _items_json(player.items),
            "used": _used_json(player.used),
            "eliminated": player.eliminated,
            "play": state.plays[s] or None,
            "followup": state.followups[s] or None,
            "peeks": state.peeks[s],
        })
    data: dict[str, Any] = {
        "game": "raiders",
        "format": FORMAT,
        "players": state.n,
        "variant": state.variant,
        "phase": state.phase.value,
        "level": state.level,
        "room": state.room + 1,
        "layout": state.layout or None,
        "row": row,
        "seats": seats,
        "supply": _items_json(state.supply),
        "level_cards": list(state.level_cards),
        "rooms": list(state.rooms),
        "map": state.map if state.map >= 0 else None,
        "turn": state.turn,
        "last": resolution_to_json(state.last) if state.last else None,
    }
    if state.forfeited:  # (written only when a seat forfeited: a position without is as before)
        data["forfeited"] = [s for s in range(state.n) if state.forfeited >> s & 1]
    if private:
        priv: dict[str, Any] = {}
        for s, k in enumerate(state.knowledge):
            if k != NO_KNOWLEDGE:
                priv[str(s)] = {"pending": k.pending or None, "owed": list(k.owed),
                                "seen": dict(k.seen)}
        data["private"] = priv
    return data


# ---------------------------------------------------------------------- reading


def _hand_card(v: Any, what: str) -> str:
    if v is None:
        return NO_CARD
    text = str(v).lower()
    if text in ("ball", "crystal ball"):
        text = "crystal"
    if text not in _HAND_CARDS:
        raise invalid(f"{what}: {v!r} is not a card (use 1..5, torch, crystal, key, sword)")
    return text


class _CardNamer:
    """Turns ids or kinds into distinct card ids."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def room(self, name: Any, *, boss: bool) -> str:
        if not isinstance(name, str):
            raise invalid(f"room card {name!r} must be a string")
        ids = BOSS_IDS if boss else ROOM_IDS
        if name in ids:
            if name in self.taken:
                raise invalid(f"room card {name} appears twice")
            self.taken.add(name)
            return name
        for card in ids:
            if CARDS[card].kind == name and card not in self.taken:
                self.taken.add(card)
                return card
        if any(CARDS[c].kind == name for c in ids):
            raise invalid(f"no copy of {name!r} is left")
        kind = "boss" if boss else "room card"
        if name in (ROOM_IDS if boss else BOSS_IDS) or any(
                CARDS[c].kind == name for c in (ROOM_IDS if boss else BOSS_IDS)):
            raise invalid(f"{name!r} cannot stand here (the boss is always level 5, position 5)")
        raise invalid(f"unknown {kind} {name!r}")


def from_position(data: Any) -> RaidersState:
    if not isinstance(data, Mapping):
        raise invalid("a position is a JSON object")
    if data.get("game", "raiders") != "raiders":
        raise invalid(f"game {data.get('game')!r} is not raiders")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise invalid(f"unsupported position format {fmt!r} (this engine reads {FORMAT})")
    n = get_int(data, "players", lo=3, hi=5)
    if n not in PLAYER_COUNTS:
        raise invalid(f"{n} players")
    variant = data.get("variant", "basic")
    if variant not in VARIANTS:
        raise invalid(f"unknown variant {variant!r}")
    tactical = variant == "tactical"
    try:
        phase = Phase(data.get("phase", "play"))
    except ValueError:
        raise invalid(f"unknown phase {data.get('phase')!r}") from None
    level = get_int(data, "level", 1 if phase not in (Phase.SETUP,) else 0, lo=0, hi=LEVELS)
    room = get_int(data, "room", 1, lo=1, hi=ROOMS_PER_LEVEL) - 1
    if phase in (Phase.SETUP,) and level != 0:
        raise invalid("setup happens before level 1")
    if phase not in (Phase.SETUP, Phase.LEVEL, Phase.OVER) and level == 0:
        raise invalid(f"phase {phase.value} needs a level of 1..5")

    layout = data.get("layout")
    in_level = phase in (Phase.DEAL, Phase.ENTER, Phase.PLAY, Phase.FOLLOWUP)
    if in_level:
        if layout not in LEVEL_CARDS:
            raise invalid(f"layout {layout!r} is not a level card (L1..L7)")
    elif layout not in (None, ""):
        if layout not in LEVEL_CARDS:
            raise invalid(f"layout {layout!r} is not a level card (L1..L7)")
        if phase is not Phase.OVER:
            raise invalid(f"phase {phase.value} has no layout")
    layout = layout or ""

    # ---- the row
    namer = _CardNamer()
    raw_row = data.get("row", [None] * ROOMS_PER_LEVEL)
    if not isinstance(raw_row, list) or len(raw_row) != ROOMS_PER_LEVEL:
        raise invalid("'row' must list 5 positions")
    row: list[str] = []
    for p, entry in enumerate(raw_row):
        boss_slot = level == LEVELS and p == ROOMS_PER_LEVEL - 1
        if entry is None or entry == DOWN:
            row.append(NO_CARD)
            if in_level:
                down = LEVEL_CARDS[layout][p]
                if entry == DOWN and not down:
                    raise invalid(f"position {p + 1} of {layout} is face up, not 'down'")
                if entry is None and down:
                    raise invalid(f"position {p + 1} of {layout} is face down: write 'down'")
                if entry is None and phase is not Phase.DEAL:
                    raise invalid(f"position {p + 1} has no card")
                if down and (p < room or (p == room and phase is not Phase.ENTER)):
                    raise invalid(f"position {p + 1} has been entered, so it is face up")
            continue
        if not in_level:
            raise invalid(f"phase {phase.value} has no row")
        row.append(namer.room(entry, boss=boss_slot))
        if LEVEL_CARDS[layout][p] and p > room:
            raise invalid(f"position {p + 1} of {layout} is face down and not entered yet")
    if in_level and phase is Phase.ENTER and (not LEVEL_CARDS[layout][room] or row[room]):
        raise invalid("phase enter needs the current position face down")
    if in_level and phase is Phase.DEAL:
        if any(not LEVEL_CARDS[layout][p] and row[p] and any(
                not LEVEL_CARDS[layout][q] and not row[q] for q in range(p)) for p in range(5)):
            raise invalid("face-up positions are dealt left to right")
        if room != 0:
            raise invalid("dealing happens before room 1")

    # ---- seats
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or len(raw_seats) != n:
        raise invalid(f"'seats' must list {n} seats")
    players: list[Player] = []
    plays: list[str] = []
    followups: list[str] = []
    peeks: list[int] = []
    characters: set[str] = set()
    for s, seat in enumerate(raw_seats):
        if not isinstance(seat, Mapping):
            raise invalid(f"seat {s} must be an object")
        character = seat.get("character") or ""
        if character:
            if character not in CHARACTER_BY_KIND:
                raise invalid(f"seat {s}: unknown character {character!r}")
            if character in characters:
                raise invalid(f"seat {s}: character {character} is dealt twice")
            characters.add(character)
        elif phase is not Phase.SETUP:
            raise invalid(f"seat {s} has no character")
        raw_items = seat.get("items", {})
        if not isinstance(raw_items, Mapping) or set(raw_items) - set(ITEMS):
            raise invalid(f"seat {s}: 'items' maps torch/crystal/key/sword to counts")
        items = tuple(get_int(raw_items, name, 0, hi=ITEM_COPIES) for name in ITEMS)
        raw_used = seat.get("used", [])
        if not isinstance(raw_used, list) or any(
                isinstance(v, bool) or v not in (1, 2, 3, 4, 5) for v in raw_used):
            raise invalid(f"seat {s}: 'used' lists power cards 1..5")
        if len(set(raw_used)) != len(raw_used):
            raise invalid(f"seat {s}: a power card is listed twice in 'used'")
        used = 0
        for v in raw_used:
            used |= 1 << (v - 1)
        eliminated = seat.get("eliminated", False)
        if not isinstance(eliminated, bool):
            raise invalid(f"seat {s}: 'eliminated' is true or false")
        if eliminated and phase is not Phase.OVER:
            raise invalid(f"seat {s}: only the boss, the last room, eliminates")
        players.append(Player(character, get_int(seat, "coins", 0, hi=20),
                              get_int(seat, "wounds", 0), (items[0], items[1], items[2], items[3]),
                              used, eliminated))
        plays.append(_hand_card(seat.get("play"), f"seat {s} play"))
        followups.append(_hand_card(seat.get("followup"), f"seat {s} followup"))
        peeks.append(get_int(seat, "peeks", 0))

    # ---- plays on the table, power-card invariant
    deciding = phase in (Phase.PLAY, Phase.FOLLOWUP)
    for s in range(n):
        play, follow = plays[s], followups[s]
        if not deciding and (play or follow):
            raise invalid(f"seat {s}: cards lie on the table only while a room is played")
        if follow and play != "crystal":
            raise invalid(f"seat {s}: a follow-up needs a crystal ball as the room card")
        if follow == "crystal":
            raise invalid(f"seat {s}: a follow-up cannot be a crystal ball")
        if phase is Phase.FOLLOWUP and not tactical and follow:
            raise invalid(f"seat {s}: basic follow-ups are revealed together, so none is shown")
        if phase is Phase.PLAY and not tactical and play:
            raise invalid(f"seat {s}: basic room cards are revealed together, so none is shown")
        power_here = sum(1 for c in (play, follow) if c in ("1", "2", "3", "4", "5"))
        for c in (play, follow):
            if c in ("1", "2", "3", "4", "5") and not players[s].used >> (int(c) - 1) & 1:
                raise invalid(f"seat {s}: played power card {c} must be listed in 'used'")
        limit = room + power_here if in_level else (0 if phase is Phase.LEVEL else 5)
        if players[s].used.bit_count() > limit:
            raise invalid(f"seat {s} has used {players[s].used.bit_count()} power cards, but at "
                        f"most {limit} can be down at this point of the level")
    if phase is Phase.FOLLOWUP and "crystal" not in plays:
        raise invalid("phase followup needs a crystal ball on the table")
    if phase is Phase.FOLLOWUP and not tactical and any(
            p and p for p in plays) and not all(plays):
        raise invalid("in phase followup every seat has revealed its room card")

    # ---- items: 6 per type across supply, hands and table
    on_table = [0, 0, 0, 0]
    for s in range(n):
        for c in (plays[s], followups[s]):
            if c in ("key", "sword"):
                on_table[ITEMS.index(c)] += 1
            if c == "crystal" and tactical:
                on_table[1] += 1
    derived = tuple(ITEM_COPIES - sum(p.items[i] for p in players) - on_table[i]
                    for i in range(4))
    if any(v < 0 for v in derived):
        raise invalid("more than 6 items of one type are in play")
    if "supply" in data and data["supply"] is not None:
        raw_supply = data["supply"]
        if not isinstance(raw_supply, Mapping):
            raise invalid("'supply' maps item names to counts")
        given = tuple(get_int(raw_supply, name, derived[i]) for i, name in enumerate(ITEMS))
        if given != derived:
            raise invalid(f"supply {dict(zip(ITEMS, given, strict=True))} does not agree with the "
                        f"items in hands and on the table (it would be "
                        f"{dict(zip(ITEMS, derived, strict=True))})")
    supply = (derived[0], derived[1], derived[2], derived[3])

    # ---- decks
    if "rooms" in data and data["rooms"] is not None:
        raw_rooms = data["rooms"]
        if not isinstance(raw_rooms, list):
            raise invalid("'rooms' lists the room cards not yet drawn")
        rooms = tuple(namer.room(r, boss=False) for r in raw_rooms)
    else:
        rooms = tuple(c for c in ROOM_IDS if c not in namer.taken)
    rooms = tuple(c for c in ROOM_IDS if c in set(rooms))  # canonical order
    if in_level:
        drawn = (level - 1) * ROOMS_PER_LEVEL + sum(1 for c in row if c in ROOM_IDS)
    elif phase is Phase.LEVEL:
        drawn = level * ROOMS_PER_LEVEL
    else:
        drawn = 0 if phase is Phase.SETUP else len(ROOM_IDS) - 6
    if "rooms" in data and data["rooms"] is not None and len(rooms) != len(ROOM_IDS) - drawn:
        raise invalid(f"{drawn} room cards have been drawn by now, so 'rooms' lists "
                    f"{len(ROOM_IDS) - drawn} undrawn cards, not {len(rooms)}")
    hidden_now = sum(1 for p in range(5) if in_level and LEVEL_CARDS[layout][p] and not row[p]
                     and not (level == LEVELS and p == 4))
    if len(rooms) < hidden_now:
        raise invalid("not enough undrawn room cards for the face-down positions")
    if "level_cards" in data and data["level_cards"] is not None:
        raw_levels = data["level_cards"]
        if not isinstance(raw_levels, list) or any(c not in LEVEL_CARDS for c in raw_levels) \
                or len(set(raw_levels)) != len(raw_levels):
            raise invalid("'level_cards' lists distinct level cards L1..L7 not yet drawn")
        level_cards = tuple(c for c in LEVEL_CARDS if c in raw_levels)
        if layout in level_cards:
            raise invalid(f"level card {layout} is in use, so it is not in 'level_cards'")
        if len(level_cards) != len(LEVEL_CARDS) - level:
            raise invalid(f"{level} level cards have been drawn, so 'level_cards' lists "
                        f"{len(LEVEL_CARDS) - level}, not {len(level_cards)}")
    else:
        level_cards = tuple(c for c in LEVEL_CARDS if c != layout)
    if phase is Phase.LEVEL and not level_cards:
        raise invalid("no level card left to draw")

    # ---- map and turn
    raw_map = data.get("map")
    if tactical and phase not in (Phase.SETUP,):
        if raw_map is None:
            raise invalid("the tactical variant needs a map holder")
        map_holder = get_int(data, "map", hi=n - 1)
    elif raw_map is not None and not tactical:
        raise invalid("only the tactical variant has a map")
    else:
        map_holder = -1 if raw_map is None else get_int(data, "map", hi=n - 1)
    turn = get_int(data, "turn", 0, hi=n - 1)
    if tactical and deciding:
        order = [(map_holder + i) % n for i in range(n)]
        if phase is Phase.FOLLOWUP:
            order = [s for s in order if plays[s] == "crystal"]
            done = [s for s in order if followups[s]]
        else:
            done = [s for s in order if plays[s]]
        if turn >= len(order) or done != order[:turn]:
            raise invalid("in the tactical variant, the seats before 'turn' (clockwise from the "
                        "map holder) have played and no other")
    elif turn:
        raise invalid("'turn' is used only in the tactical variant's decisions")

    # ---- private knowledge
    knowledge = [NO_KNOWLEDGE] * n
    raw_private = data.get("private") or {}
    if not isinstance(raw_private, Mapping):
        raise invalid("'private' maps seats to knowledge")
    hidden_ids = {f"L{level}.R{p + 1}" for p in range(5)
                  if in_level and LEVEL_CARDS[layout][p] and not row[p]}
    for key, k in raw_private.items():
        try:
            s = int(key)
        except ValueError:
            raise invalid(f"'private' key {key!r} is not a seat") from None
        if not 0 <= s < n or not isinstance(k, Mapping):
            raise invalid(f"'private' seat {key!r}")
        pending = _hand_card(k.get("pending"), f"seat {s} pending")
        if pending:
            if tactical or not deciding:
                raise invalid(f"seat {s}: a pending card exists only in a basic decision")
            if phase is Phase.FOLLOWUP and plays[s] != "crystal":
                raise invalid(f"seat {s} has no follow-up to commit")
        owed = k.get("owed") or []
        seen = k.get("seen") or {}
        if not isinstance(owed, list) or not isinstance(seen, Mapping):
            raise invalid(f"seat {s}: 'owed' is a list and 'seen' an object")
        for e in [*owed, *seen]:
            if e not in hidden_ids:
                raise invalid(f"seat {s}: {e!r} is not a face-down room of this row")
        for e, card in seen.items():
            boss = e == f"L{LEVELS}.R{ROOMS_PER_LEVEL}"
            if card not in (BOSS_IDS if boss else rooms):
                raise invalid(f"seat {s}: {card!r} cannot be the room of {e}")
        knowledge[s] = Knowledge(pending, tuple(sorted(owed)),
                                 tuple(sorted((str(e), str(c)) for e, c in seen.items())))

    forfeited = 0
    raw_forfeited = data.get("forfeited") or []
    if not isinstance(raw_forfeited, list):
        raise invalid("'forfeited' is a list of seats")
    for s in raw_forfeited:
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < n or (
                forfeited >> s & 1):
            raise invalid(f"'forfeited' names seat {s!r:.20} twice or out of range")
        forfeited |= 1 << s
    last = data.get("last")
    state = make_state(
        n=n, tactical=tactical, phase=phase, players=tuple(players), supply=supply,
        level=level, level_cards=level_cards, layout=layout, row=tuple(row), room=room,
        rooms=rooms, plays=tuple(plays), followups=tuple(followups), map=map_holder, turn=turn,
        peeks=tuple(peeks), last=resolution_from_json(last) if last else None,
        outcome=score(n, tuple(players), forfeited) if phase is Phase.OVER else None,
        knowledge=tuple(knowledge), forfeited=forfeited,
    )
    if deciding and not tactical:
        w = state.waiting
        seats: frozenset[int] = getattr(w, "seats", frozenset())
        for s in range(n):
            if knowledge[s].pending and s not in seats:
                raise invalid(f"seat {s} has no decision in this step")
        if seats and all(knowledge[s].pending for s in seats):
            raise invalid("every seat has committed: the cards would already be revealed")
        for s in seats:
            if knowledge[s].pending:
                reason = state._illegal_reason(s, _play(knowledge[s].pending))
                if reason:
                    raise invalid(f"seat {s}'s pending card is illegal: {reason}")
    return state


def _play(card: str) -> Any:
    return PLAY[card]
