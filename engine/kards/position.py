"""The Dungeons of Kards JSON position format (docs/rules/kards.md §9).

A position is every public fact of a state (and, under ``private``, each seat's peek
knowledge).  :func:`to_position` writes every field, so ``from_position(to_position(s)) == s``;
:func:`from_position` fills in defaults for the fields left out (the start layout, the decks as
"every card not found elsewhere", full life, the main decision of the active character's turn),
checks that every card of the pack is in exactly one place, and then runs the state's automatic
frames, so a position may also stop at one (``["turn"]``: the start of a turn).

Cells are written ``[x, y]``; figures and cards by their ids; frames as lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.core import Outcome, Standing
from engine.kards.cards import (
    ITEM_BY_KIND,
    PACKS,
    STONE_BY_KIND,
    category,
    kind_of,
)
from engine.kards.decks import Orange
from engine.kards.flow import CHANCES, DECISIONS, settle
from engine.kards.records import (
    NO_KNOWLEDGE,
    Char,
    Effect,
    Item,
    Knowledge,
    Monster,
    ap_of,
    max_life,
)
from engine.kards.state import (
    HELPS,
    KardsState,
    make_state,
    new_game,
    resolve_options,
)
from engine.plugin import get_int, invalid

FORMAT: Final = 1
_FRAME_ARGS: Final = {
    # kind: the types of its arguments ("s" text, "i" integer, "t" a list of card ids)
    "first": "", "pick": "i", "gate": "i", "begin": "", "turn": "", "equip": "s", "main": "",
    "end": "", "next": "", "explore": "", "place": "s", "draw": "s", "keep": "s",
    "threshold": "", "event": "i", "subroll": "ii", "choose": "ii", "open": "", "cell": "s",
    "recruit": "", "appear": "i", "fetch": "iit", "mist": "s", "attacks": "i",
    "strike": "ssi", "treasure": "s", "yellow": "s", "defeats": "si", "save": "",
    "escort": "i", "to_tail": "s",
}


# ---------------------------------------------------------------------- writing


def _cell(s: KardsState, cell: int) -> list[int] | None:
    return [cell % s.size, cell // s.size] if cell >= 0 else None


def _item(item: Item | None) -> dict[str, Any] | None:
    if item is None:
        return None
    return {"card": item.card, "uses": item.uses, "since": item.since}


def _effects(effects: tuple[Effect, ...]) -> list[dict[str, Any]]:
    return [{"kind": e.kind, "x": e.x, "timer": e.timer, "turn": e.turn} for e in effects]


def frame_json(frame: tuple[Any, ...]) -> list[Any]:
    return [list(x) if isinstance(x, tuple) else x for x in frame]


def to_position(s: KardsState, *, private: bool = True) -> dict[str, Any]:
    o = s.orange
    data: dict[str, Any] = {
        "game": "kards", "format": FORMAT, "players": s.n, "mode": s.mode, "copies": s.copies,
        "team_size": s.team_size, "events": s.events, "abilities": s.abilities,
        "solo_help": s.solo_help, "counter_budget": s.counter_budget,
        "round_cap": s.round_cap, "first": s.first if s.first >= 0 else None,
        "map": [[card, cell % s.size, cell // s.size] for cell, card in enumerate(s.board)
                if card],
        "characters": [{
            "card": c.card or None, "seat": c.seat, "team": c.team, "life": c.life,
            "at": _cell(s, c.cell), "start": _cell(s, c.start), "gold": c.gold,
            "charged": c.charged, "weapon": _item(c.weapon), "pet": _item(c.pet),
            "carried": [_item(i) for i in c.carried], "stones": list(c.stones),
            "effects": _effects(c.effects), "mist": c.mist, "budget": c.budget, "out": c.out,
        } for c in s.chars],
        "monsters": [{
            "card": m.card, "at": _cell(s, m.cell), "life": m.life, "first": m.first,
            "effects": _effects(m.effects), "budget": m.budget,
        } for m in s.monsters],
        "boss_appeared": s.boss_appeared,
        "grey": {"hidden": list(s.grey), "tail": list(s.grey_tail), "draws": s.grey_draws},
        "orange": {"pool": list(o.pool), "top_unknown": o.top_unknown,
                   "top_known": list(o.top_known), "bottom_known": list(o.bottom_known),
                   "tail": list(o.tail),
                   "top_event": ({"id": o.top_event[0], "outcomes": list(o.top_event[1])}
                                 if o.top_event else None),
                   "draws": s.orange_draws},
        "yellow": {"left": list(s.yellow), "draws": s.yellow_draws},
        "lair": list(s.lair), "appeared": list(s.appeared), "treasured": list(s.treasured),
        "unused": list(s.unused), "revealed": s.revealed, "events_done": s.events_done,
        "help_done": s.help_done, "round": s.rounds, "turn": s.turn, "dice": s.dice,
        "acts": s.acts, "active": s.active if s.active >= 0 else None,
        "turn_over": s.turn_over, "resigned": list(s.resigned),
        "stack": [frame_json(f) for f in s.stack], "log": list(s.log),
        "outcome": None if s.outcome is None else {
            "winners": sorted(s.outcome.winners), "reason": s.outcome.reason,
            "standings": [[st.seat, st.status, st.score, st.tiebreak, st.detail]
                          for st in s.outcome.standings]},
    }
    if private:
        data["private"] = {str(i): {"owed": list(k.owed), "seen": dict(k.seen)}
                           for i, k in enumerate(s.knowledge) if k != NO_KNOWLEDGE}
    return data


# ---------------------------------------------------------------------- reading


def _bool(d: Mapping[str, Any], key: str, default: bool) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise invalid(f"'{key}' is true or false, not {v!r:.40}")
    return v


def _list(d: Mapping[str, Any], key: str, default: list[Any] | None = None) -> list[Any]:
    v = d.get(key)
    if v is None:
        if default is None:
            raise invalid(f"missing '{key}'")
        return default
    if not isinstance(v, list):
        raise invalid(f"'{key}' must be a list")
    return v


def _obj(v: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise invalid(f"{what} must be an object")
    return v


class _Reader:
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        n = get_int(data, "players", lo=1, hi=8)
        mode = data.get("mode", "auto")
        if not isinstance(mode, str):
            raise invalid("'mode' is text")
        try:
            self.mode, self.copies, self.team_size, self.cap = resolve_options(
                n, mode, data.get("copies", "auto"), data.get("team_size", 1),
                data.get("round_cap", 40))
        except ValueError as exc:
            raise invalid(str(exc)) from None
        self.n = n
        self.pack = PACKS[self.copies]
        self.size = self.pack.size
        self.cards = set(self.pack.characters) | set(self.pack.dungeon) | set(
            self.pack.orange) | set(self.pack.treasures) | {self.pack.portal_stone,
                                                            self.pack.boss}

    def card(self, v: Any, what: str, *cats: str) -> str:
        if not isinstance(v, str) or v not in self.cards:
            raise invalid(f"{what}: {v!r:.40} is no card of this game")
        if cats and category(v) not in cats:
            raise invalid(f"{what}: {v} is not a {' or '.join(cats)} card")
        return v

    def cell(self, v: Any, what: str) -> int:
        if v is None:
            return -1
        if (not isinstance(v, list) or len(v) != 2 or any(
                isinstance(x, bool) or not isinstance(x, int) for x in v)):
            raise invalid(f"{what}: a cell is [x, y]")
        x, y = v
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise invalid(f"{what}: cell [{x}, {y}] is off the {self.size}×{self.size} map")
        return int(y * self.size + x)

    def item(self, v: Any, what: str) -> Item | None:
        if v is None:
            return None
        d = _obj(v, what)
        card = self.card(d.get("card"), what, "item")
        return Item(card, get_int(d, "uses", 10, lo=1, hi=10), get_int(d, "since", 0))

    def effects(self, v: Any, what: str) -> tuple[Effect, ...]:
        if v is None:
            return ()
        if not isinstance(v, list):
            raise invalid(f"{what}: 'effects' is a list")
        out = []
        for e in v:
            d = _obj(e, what)
            kind = d.get("kind")
            if kind not in ("stun", "weaken", "empower"):
                raise invalid(f"{what}: unknown effect {kind!r:.20}")
            out.append(Effect(kind, get_int(d, "x", lo=1), get_int(d, "timer", lo=1),
                              get_int(d, "turn", 0)))
        if len({e.kind for e in out}) != len(out):
            raise invalid(f"{what}: two effects of one kind")
        return tuple(out)


def from_position(data: Any) -> KardsState:
    if not isinstance(data, Mapping):
        raise invalid("a position is a JSON object")
    if data.get("game", "kards") != "kards":
        raise invalid(f"game {data.get('game')!r:.20} is not kards")
    if data.get("format", FORMAT) != FORMAT:
        raise invalid(f"unsupported position format {data.get('format')!r:.20} (this engine "
                    f"reads {FORMAT})")
    r = _Reader(data)
    n, size, pack = r.n, r.size, r.pack
    solo_help = data.get("solo_help", "none")
    if solo_help not in HELPS or (solo_help != "none" and r.mode != "solo"):
        raise invalid(f"solo_help {solo_help!r:.20}")
    setup = data.get("turn", 1) == 0
    first = get_int(data, "first", 0, hi=n - 1)

    # ---- the map
    board = [""] * (size * size)
    raw_map = data.get("map")
    if raw_map is None:
        template = new_game(n, r.mode, r.copies, r.team_size, solo_help=solo_help)
        board = list(template.board)
    else:
        if not isinstance(raw_map, list):
            raise invalid("'map' lists [card, x, y]")
        for entry in raw_map:
            if not isinstance(entry, list) or len(entry) != 3:
                raise invalid("'map' lists [card, x, y]")
            card = r.card(entry[0], "map", "dungeon")
            cell = r.cell(entry[1:], f"map {card}")
            if board[cell]:
                raise invalid(f"two cards on cell {entry[1]},{entry[2]}")
            board[cell] = card
    placed = [c for c in board if c]
    if len(set(placed)) != len(placed):
        raise invalid("a dungeon card is on the map twice")

    # ---- characters
    raw_chars = _list(data, "characters")
    teams = n // r.team_size if r.mode == "arena" else 1
    d05 = board.index(pack.dungeon[4]) if pack.dungeon[4] in board else -1
    chars: list[Char] = []
    for i, v in enumerate(raw_chars):
        what = f"character {i}"
        d = _obj(v, what)
        raw_card = d.get("card")
        card = "" if raw_card is None and setup else r.card(raw_card, what, "character")
        seat = get_int(d, "seat", i if r.mode != "solo" else 0, hi=n - 1)
        cell = r.cell(d.get("at"), what) if "at" in d else (-1 if setup else d05)
        start = r.cell(d.get("start"), what) if "start" in d else (
            d05 if r.mode != "arena" and d05 >= 0 else cell)
        life = get_int(d, "life", max_life(card) if card and cell >= 0 else 0,
                    hi=max_life(card) if card else 0)
        if card and cell >= 0 and not setup and life == 0 and not any(
                isinstance(f, list) and f[:1] == ["defeats"] for f in data.get("stack") or []):
            raise invalid(f"{what} is on the map with 0 life (only while a defeat is resolved)")
        if cell >= 0 and not board[cell]:
            raise invalid(f"{what} stands on an empty cell")
        if card and not setup and (start < 0 or not board[start]):
            raise invalid(f"{what} needs a starting point on a placed card (its gate, or the "
                        "Black Gate in the campaign)")
        raw_carried = d.get("carried") or []
        if not isinstance(raw_carried, list):
            raise invalid(f"{what}: 'carried' is a list")
        carried = [r.item(x, what) for x in raw_carried]
        stones = tuple(r.card(x, what, "stone") for x in d.get("stones") or [])
        weapon, pet = r.item(d.get("weapon"), what), r.item(d.get("pet"), what)
        if weapon and ITEM_BY_KIND[kind_of(weapon.card)].slot != "weapon":
            raise invalid(f"{what}: {weapon.card} is not a weapon")
        if pet and ITEM_BY_KIND[kind_of(pet.card)].slot != "pet":
            raise invalid(f"{what}: {pet.card} is not a pet")
        chars.append(Char(
            card, seat, get_int(d, "team", seat % teams, hi=teams - 1), life, cell, start,
            get_int(d, "gold", 0), _bool(d, "charged", True), weapon, pet,
            tuple(x for x in carried if x is not None), stones,
            r.effects(d.get("effects"), what), _bool(d, "mist", False),
            get_int(d, "budget", ap_of(card) if card else 0), _bool(d, "out", False)))
    if r.mode != "solo" and len(chars) != n:
        raise invalid(f"'characters' must list {n} characters, one per seat")
    if r.mode == "solo" and not chars:
        raise invalid("'characters' must list the solo character first")
    if r.mode != "solo" and any(c.seat != i for i, c in enumerate(chars)):
        raise invalid("character i belongs to seat i")

    # ---- monsters
    monsters: list[Monster] = []
    for i, v in enumerate(_list(data, "monsters", [])):
        what = f"monster {i}"
        d = _obj(v, what)
        card = r.card(d.get("card"), what, "monster", "boss")
        cell = r.cell(d.get("at"), what)
        if cell < 0 or not board[cell]:
            raise invalid(f"{what} must stand on a placed card")
        monsters.append(Monster(card, cell, get_int(d, "life", max_life(card), lo=1,
                                                  hi=max_life(card)),
                                _bool(d, "first", True), r.effects(d.get("effects"), what),
                                get_int(d, "budget", ap_of(card))))

    # ---- the flow (frames may hold cards in transit)
    raw_stack = _list(data, "stack", [["first"]] if setup else [["end"], ["main"]])
    stack = tuple(_frame(r, f) for f in raw_stack)
    in_transit_grey = [f[1] for f in stack if f[0] in ("place", "cell")]
    in_transit_orange = [c for f in stack if f[0] == "fetch" for c in f[3]]
    in_transit_orange += [f[1] for f in stack if f[0] == "to_tail"]

    # ---- decks and piles
    grey_d = _obj(data.get("grey") or {}, "'grey'")
    grey_tail = tuple(r.card(c, "grey tail", "dungeon") for c in _list(grey_d, "tail", []))
    taken_grey = {*placed, *grey_tail, *in_transit_grey}
    if "hidden" in grey_d:
        grey = tuple(r.card(c, "grey hidden", "dungeon") for c in _list(grey_d, "hidden"))
    else:
        grey = tuple(c for c in pack.dungeon if c not in taken_grey)
    _once("dungeon card", [*placed, *grey_tail, *in_transit_grey, *grey], pack.dungeon)
    grey = tuple(c for c in pack.dungeon if c in set(grey))

    orange_d = _obj(data.get("orange") or {}, "'orange'")
    o_tail = tuple(r.card(c, "orange tail") for c in _list(orange_d, "tail", []))
    top_known = tuple(r.card(c, "orange top_known") for c in _list(orange_d, "top_known", []))
    lair = tuple(r.card(c, "lair", "monster") for c in _list(data, "lair", []))
    unused = tuple(r.card(c, "unused", "character") for c in _list(data, "unused", []))
    held: list[str] = []
    for c in chars:
        held.extend(x.card for x in (c.weapon, c.pet, *c.carried) if x is not None)
        held.extend(c.stones)
    on_map_monsters = [m.card for m in monsters]
    random_help = r.mode == "solo" and solo_help == "random"
    playing = {c.card for c in chars if c.card}
    outside = [*o_tail, *top_known, *held, *on_map_monsters, *lair, *in_transit_orange]
    if "bottom_known" in orange_d:
        bottom_known = tuple(r.card(c, "orange bottom_known")
                             for c in _list(orange_d, "bottom_known"))
    elif setup:
        bottom_known = ()
    else:
        bottom_known = (pack.portal_stone,) if pack.portal_stone not in outside else ()
    orange_cards = [*pack.orange, *(c for c in pack.characters
                                    if random_help and c not in playing)]
    if "pool" in orange_d:
        pool = tuple(r.card(c, "orange pool") for c in _list(orange_d, "pool"))
    elif setup:
        pool = ()
    else:
        pool = tuple(c for c in orange_cards if c not in {*outside, *bottom_known})
    order = {c: i for i, c in enumerate(orange_cards)}
    if any(c not in order for c in pool):
        raise invalid("the orange pool holds a card that is no original orange card")
    pool = tuple(sorted(pool, key=order.__getitem__))
    if not setup:
        orange_all = [*pool, *bottom_known, *outside]
        _once("orange card", [c for c in orange_all if category(c) not in (
            "character", "boss")], [*pack.orange, pack.portal_stone])
        _once("character card", [*(c for c in orange_all if category(c) == "character"),
                                 *(c.card for c in chars if c.card), *unused], (),
              complete=False)
        if pack.boss not in on_map_monsters and any(c == pack.boss for c in orange_all):
            raise invalid("the Boss is never in the orange deck (ruling 6)")
    top_unknown = get_int(orange_d, "top_unknown", len(pool) // 2, hi=len(pool))
    top_event = None
    raw_top = orange_d.get("top_event")
    if raw_top is not None:
        td = _obj(raw_top, "'top_event'")
        tid = td.get("id")
        outcomes = tuple(r.card(c, "top_event") for c in _list(td, "outcomes"))
        if not isinstance(tid, str) or not outcomes:
            raise invalid("'top_event' has an id and outcomes")
        top_event = (tid, outcomes)
    orange = Orange(pool, top_unknown, top_known, bottom_known, o_tail, top_event)
    if top_event is not None and (not orange.hidden or any(
            c not in (*pool, *top_known, *bottom_known) for c in top_event[1])):
        raise invalid("'top_event' names cards that are not in the hidden segments")
    yellow_d = _obj(data.get("yellow") or {}, "'yellow'")
    yellow = tuple(r.card(c, "yellow", "treasure") for c in _list(
        yellow_d, "left", list(pack.treasures)))
    _once("treasure", yellow, (), complete=False)
    yellow = tuple(c for c in pack.treasures if c in set(yellow))

    # ---- counters and the flow
    revealed = get_int(data, "revealed", len(placed))
    if not setup and revealed != len(placed):
        raise invalid(f"'revealed' is {revealed} but {len(placed)} cards are on the map")
    step = 5 * r.copies
    events = _bool(data, "events", True)
    events_done = get_int(data, "events_done", min(4, revealed // step) if events else 0, hi=4)
    help_done = get_int(data, "help_done", revealed // step if solo_help == "programmed" else 0)
    active: int | None = None
    if data.get("active") is not None:
        active = get_int(data, "active", hi=len(chars) - 1)
    elif not setup:
        active = first if r.mode != "solo" else 0
    raw_resigned = _list(data, "resigned", [False] * n)
    if len(raw_resigned) != n or any(not isinstance(x, bool) for x in raw_resigned):
        raise invalid(f"'resigned' lists {n} booleans")
    outcome = _outcome(data.get("outcome"), n)
    if outcome is None and not stack:
        raise invalid("an empty 'stack' belongs to a finished game (give 'outcome')")
    if outcome is not None and stack:
        raise invalid("a finished game has an empty 'stack'")
    knowledge = [NO_KNOWLEDGE] * n
    raw_private = data.get("private") or {}
    if not isinstance(raw_private, Mapping):
        raise invalid("'private' maps seats to knowledge")
    for key, k in raw_private.items():
        try:
            seat = int(key)
        except ValueError:
            raise invalid(f"'private' key {key!r:.20} is not a seat") from None
        if not 0 <= seat < n:
            raise invalid(f"'private' seat {key}")
        kd = _obj(k, f"'private' seat {key}")
        owed = _list(kd, "owed", [])
        seen_k = _obj(kd.get("seen") or {}, "'seen'")
        for e in [*owed, *seen_k]:
            if top_event is None or e != top_event[0]:
                raise invalid(f"seat {seat}: {e!r:.20} is not the peeked orange draw")
        for card in seen_k.values():
            assert top_event is not None
            if card not in top_event[1]:
                raise invalid(f"seat {seat}: {card!r:.20} cannot be the top orange card")
        knowledge[seat] = Knowledge(tuple(map(str, owed)),
                                    tuple(sorted((str(e), str(c)) for e, c in seen_k.items())))
    log = _list(data, "log", [])
    if any(not isinstance(x, str) for x in log):
        raise invalid("'log' lists lines of text")
    state = make_state(
        n=n, mode=r.mode, copies=r.copies, team_size=r.team_size, events=events,
        abilities=_bool(data, "abilities", True), solo_help=solo_help,
        counter_budget=_bool(data, "counter_budget", False), round_cap=r.cap,
        first=first if (data.get("first") is not None or not setup or n == 1) else -1,
        board=tuple(board), chars=tuple(chars), monsters=tuple(monsters),
        boss_appeared=_bool(data, "boss_appeared", pack.boss in on_map_monsters),
        grey=grey, grey_tail=grey_tail, orange=orange, yellow=yellow, lair=lair,
        appeared=tuple(r.card(c, "appeared", "monster", "boss") for c in _list(
            data, "appeared", [*on_map_monsters, *lair])),
        treasured=tuple(r.card(c, "treasured", "monster") for c in _list(data, "treasured",
                                                                         [])),
        unused=unused, revealed=revealed, events_done=events_done, help_done=help_done,
        rounds=get_int(data, "round", 0), turn=get_int(data, "turn", 1),
        dice=get_int(data, "dice", 0),
        acts=get_int(data, "acts", 0), grey_draws=get_int(grey_d, "draws", 0),
        orange_draws=get_int(orange_d, "draws", 0), yellow_draws=get_int(yellow_d, "draws", 0),
        active=-1 if active is None else active, turn_over=_bool(data, "turn_over", False),
        resigned=tuple(raw_resigned), stack=stack, log=tuple(log), outcome=outcome,
        knowledge=tuple(knowledge),
    )
    if state.active >= 0 and not setup and chars[state.active].cell < 0 and outcome is None \
            and not state.turn_over:
        raise invalid("the active character is not on the map")
    if outcome is None:
        _check_stack(state)
        settle(state)
    return state


def _once(what: str, found: list[str] | tuple[str, ...],
          expected: tuple[str, ...] | list[str], *,
          complete: bool = True) -> None:
    """Every card is in one place: none twice and (``complete``) none missing."""
    seen: set[str] = set()
    for c in found:
        if c in seen:
            raise invalid(f"{what} {c} is in two places at once")
        seen.add(c)
    if complete:
        for c in expected:
            if c not in seen:
                raise invalid(f"{what} {c} is nowhere (every card of the pack is somewhere)")
        extra = seen - set(expected)
        if extra:
            raise invalid(f"{what} {sorted(extra)[0]} does not belong there")


def _frame(r: _Reader, raw: Any) -> tuple[Any, ...]:
    if not isinstance(raw, list) or not raw or raw[0] not in _FRAME_ARGS:
        raise invalid(f"unknown frame {raw!r:.60}")
    kinds = _FRAME_ARGS[raw[0]]
    args = raw[1:]
    if len(args) != len(kinds):
        raise invalid(f"frame {raw[0]!r} takes {len(kinds)} arguments")
    out: list[Any] = [raw[0]]
    for kind, v in zip(kinds, args, strict=True):
        if kind == "i":
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise invalid(f"frame {raw!r:.60}: {v!r:.20} is not a count")
            out.append(v)
        elif kind == "s":
            if not isinstance(v, str):
                raise invalid(f"frame {raw!r:.60}: {v!r:.20} is not text")
            out.append(v)
        else:
            if not isinstance(v, list):
                raise invalid(f"frame {raw!r:.60}: {v!r:.20} is not a list of cards")
            out.append(tuple(r.card(c, "frame") for c in v))
    return tuple(out)


def _check_stack(s: KardsState) -> None:
    """The frames must make sense for the state (a decision frame names its character's
    cards, a strike its figures)."""
    top = s.stack[-1][0]
    if s.turn == 0:
        if top not in ("first", "pick", "gate", "begin"):
            raise invalid(f"set-up (turn 0) cannot stop at {top!r}")
    elif s.active < 0:
        raise invalid("a turn needs an 'active' character")
    for frame in s.stack:
        kind = frame[0]
        if kind == "strike":
            for card in frame[1:3]:
                if s.figure(card) is None:
                    raise invalid(f"frame {frame}: {card} is not on the map")
        if kind in ("place", "cell") and frame[1] in s.board:
            raise invalid(f"frame {frame}: {frame[1]} is already on the map")
        if kind in ("keep",) and frame[1] not in s.chars[s.active].stones:
            raise invalid(f"frame {frame}: the active character holds no {frame[1]}")
        if kind == "keep" and STONE_BY_KIND.get(kind_of(frame[1])) is None:
            raise invalid(f"frame {frame}: {frame[1]} is no stone")
        if kind == "choose" and frame[1] >= len(s.chars):
            raise invalid(f"frame {frame}: no character {frame[1]}")
        if kind in ("pick", "gate") and frame[1] >= s.n:
            raise invalid(f"frame {frame}: no seat {frame[1]}")
        if kind in ("appear", "escort") and frame[1] >= len(s.board):
            raise invalid(f"frame {frame}: no cell {frame[1]}")
        if kind == "fetch" and (frame[1] not in (1, 2) or frame[2] >= len(s.board)):
            raise invalid(f"frame {frame}: a fetch needs level 1 or 2 and a cell")
        if kind == "event" and not 1 <= frame[1] <= 4:
            raise invalid(f"frame {frame}: events have levels 1 to 4")
    if top in DECISIONS | CHANCES:
        return
    if top not in ("begin", "turn", "next", "threshold", "defeats", "to_tail"):
        raise invalid(f"cannot stop at frame {top!r}")


def _outcome(v: Any, n: int) -> Outcome | None:
    if v is None:
        return None
    d = _obj(v, "'outcome'")
    winners = d.get("winners", [])
    reason = d.get("reason", "")
    standings = d.get("standings", [])
    if (not isinstance(winners, list) or any(not isinstance(w, int) or not 0 <= w < n
                                             for w in winners) or not isinstance(reason, str)
            or not isinstance(standings, list) or len(standings) != n):
        raise invalid("'outcome' has winners, a reason and one standing per seat")
    out = []
    for st in standings:
        if (not isinstance(st, list) or len(st) != 5 or not isinstance(st[1], str)
                or not isinstance(st[4], str)):
            raise invalid("a standing is [seat, status, score, tiebreak, detail]")
        out.append(Standing(int(st[0]), st[1], int(st[2]), int(st[3]), st[4]))
    return Outcome(frozenset(winners), tuple(out), reason)

