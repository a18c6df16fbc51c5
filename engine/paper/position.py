"""The Paper Dungeons JSON position format (documented in docs/rules/paper.md, "Positions").

Example (solo, round 2, waiting for the plan)::

    {"game": "paper", "format": 1, "players": 1, "phase": "plan", "dungeon": "A",
     "round": 2, "roll": ["warrior", "clover", "skull", "boots", "wizard", "skull"],
     "seats": [{"power": "healer", "styles": "B/W/W/B",
                "levels": {"wizard": 2}, "room": "C1", "explored": ["C1"],
                "potions": 1, "hearts": 2, "damage": 1}]}

Omitted fields take defaults (a fresh sheet; every deal done after setup; the missions in
play are those drawn and not yet scored).  Derived numbers (``hp``, ``gem_track``,
``minion_track``, ``lairs``) are written for readers and, when given, must agree.
:func:`to_position` writes every field, so ``from_position(to_position(s)) == s``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.core import EngineError, InvalidPositionError
from engine.paper.actions import SetupChoice, format_action, parse_plan, parse_setup
from engine.paper.data import (
    DUNGEONS,
    HEROES,
    ITEMS,
    LETTERS,
    MINION_ROOMS,
    MISSION_IDS,
    OBJECTIVE_IDS,
    POWER_IDS,
    POWERS,
    ROOM_INDEX,
    ROOM_NAMES,
    ROUNDS,
    STORIES,
    STYLE_PATTERNS,
)
from engine.paper.records import NO_KNOWLEDGE, Knowledge, Options, Phase, parse_deal
from engine.paper.rounds import parse_roll
from engine.paper.score import outcome
from engine.paper.sheet import BOARDS, NEW_SHEET, Sheet, gems, hp, lairs_reached, track
from engine.paper.state import PaperState, make_state

FORMAT: Final = 1


# ---------------------------------------------------------------------- writing


def _mask_names(mask: int, names: tuple[str, ...] | str) -> list[str]:
    return [names[i] for i in range(len(names)) if mask >> i & 1]


def sheet_to_json(s: Sheet, board_letter: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "power": s.power,
        "styles": "/".join(s.styles),
        "levels": dict(zip(HEROES, s.levels, strict=True)),
        "damage": s.damage,
        "resurrected": s.resurrected,
        "potions": s.potions,
        "hearts": s.hearts,
        "letters": _mask_names(s.letters, LETTERS),
        "crossed": _mask_names(s.crossed, LETTERS),
        "minions": _mask_names(s.minions, ROOM_NAMES),
        "items": dict(zip(ITEMS, s.items, strict=True)),
        "room": ROOM_NAMES[s.room] if s.room >= 0 else None,
        "explored": _mask_names(s.explored, ROOM_NAMES),
        "traps": s.traps,
        "crossings": s.crossings,
        "villains": list(s.villains),
        "missions": [[m, g] for m, g in s.missions],
        "rounds": list(s.rounds),
        "resigned": s.resigned,
        "hp": hp(s),
        "gem_track": gems(s),
        "minion_track": track(s),
    }
    if board_letter:
        data["lairs"] = list(lairs_reached(s, BOARDS[board_letter]))
    return data


def to_position(state: PaperState, *, private: bool = True) -> dict[str, Any]:
    o = state.options
    seats = []
    for i, s in enumerate(state.sheets):
        data = sheet_to_json(s, state.dungeon)
        setup = state.setup[i]
        data["setup"] = format_action(setup) if setup is not None else None
        data["plan"] = state.plans[i]
        index, card = state.shown[i]
        data["shown"] = [index, card] if index >= 0 else None
        data["kept"] = state.kept[i]
        data["void"] = state.void[i]
        seats.append(data)
    out: dict[str, Any] = {
        "game": "paper", "format": FORMAT, "players": state.n,
        "options": {"missions": o.missions, "missing_gems": o.missing_gems,
                    "story": o.story, "chapter": o.chapter},
        "phase": state.phase.value,
        "dungeon": state.dungeon or None,
        "missions": list(state.missions),
        "open_missions": list(state.open_missions),
        "dealt": state.dealt,
        "round": state.round,
        "attempt": state.attempt,
        "roll": list(state.roll) if state.roll else None,
        "seats": seats,
        "fight": list(state.fight),
        "reward": state.reward,
    }
    if private:
        out["private"] = {
            str(i): {"cards": dict(k.cards), "objective": k.objective,
                     "pending": format_action(k.pending) if k.pending is not None else None}
            for i, k in enumerate(state.knowledge) if k != NO_KNOWLEDGE}
    return out


# ---------------------------------------------------------------------- reading


def _bad(msg: str) -> InvalidPositionError:
    return InvalidPositionError(msg)


def _int(value: Any, name: str, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad(f"{name} is a whole number, not {value!r:.30}")
    if value < low or (high is not None and value > high):
        raise _bad(f"{name} is {low} to {high if high is not None else 'more'}, not {value}")
    return value


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(f"{name} is true or false, not {value!r:.30}")
    return value


def _mask(value: Any, names: tuple[str, ...] | str, name: str,
          allowed: tuple[int, ...] | None = None) -> int:
    if not isinstance(value, list):
        raise _bad(f"{name} is a list")
    mask = 0
    for v in value:
        if not isinstance(v, str) or v not in names:
            raise _bad(f"{name}: {v!r:.20} is not one of them")
        i = names.index(v)
        if allowed is not None and i not in allowed:
            raise _bad(f"{name}: {v} is not allowed here")
        if mask >> i & 1:
            raise _bad(f"{name}: {v} twice")
        mask |= 1 << i
    return mask


def _fields(data: Any, name: str, known: set[str]) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise _bad(f"{name} is an object")
    unknown = set(data) - known
    if unknown:
        raise _bad(f"{name}: unknown field {sorted(unknown)[0]!r}")
    return data


_SHEET_FIELDS: Final = {
    "power", "styles", "levels", "damage", "resurrected", "potions", "hearts", "letters",
    "crossed", "minions", "items", "room", "explored", "traps", "crossings", "villains",
    "missions", "rounds", "resigned", "hp", "gem_track", "minion_track", "lairs", "setup",
    "plan", "shown", "kept", "void"}


def sheet_from_json(d: Mapping[str, Any], name: str, board_letter: str) -> Sheet:
    s = NEW_SHEET
    power = d.get("power", "")
    if power and power not in POWERS:
        raise _bad(f"{name}: unknown power {power!r:.30}")
    styles = d.get("styles", "")
    if not isinstance(styles, str):
        raise _bad(f"{name}: styles like 'B/W/W/B'")
    styles = styles.replace("/", "")
    if styles and styles not in STYLE_PATTERNS:
        raise _bad(f"{name}: no objective marks the styles {styles!r}")
    levels_d = _fields(d.get("levels", {}), f"{name}.levels", set(HEROES))
    lv = [_int(levels_d.get(h, 1), f"{name}.levels.{h}", 1, 6) for h in HEROES]
    levels = (lv[0], lv[1], lv[2], lv[3])
    items_d = _fields(d.get("items", {}), f"{name}.items", set(ITEMS))
    items = tuple(_int(items_d.get(i, 0), f"{name}.items.{i}", 0, 2) for i in ITEMS)
    potions = _int(d.get("potions", 0), f"{name}.potions", 0, 12)
    hearts = _int(d.get("hearts", 0), f"{name}.hearts", 0, 2 * potions)
    letters = _mask(d.get("letters", []), LETTERS, f"{name}.letters")
    crossed = _mask(d.get("crossed", []), LETTERS, f"{name}.crossed")
    if letters & crossed:
        raise _bad(f"{name}: a gem both collected and crossed out")
    room_name = d.get("room")
    if room_name is not None and room_name not in ROOM_INDEX:
        raise _bad(f"{name}: no room {room_name!r:.20}")
    room = ROOM_INDEX[room_name] if room_name is not None else -1
    explored = _mask(d.get("explored", [] if room < 0 else [room_name]), ROOM_NAMES,
                     f"{name}.explored")
    if (room >= 0) != bool(explored) or (room >= 0 and not explored >> room & 1):
        raise _bad(f"{name}: the party's room is explored, and a party outside has "
                   "explored nothing")
    villains_v = d.get("villains", [None, None, None])
    if not isinstance(villains_v, list) or len(villains_v) != 3 or any(
            v is not None and (not isinstance(v, int) or isinstance(v, bool))
            for v in villains_v):
        raise _bad(f"{name}.villains: three numbers or nulls")
    missions_v = d.get("missions", [])
    if not isinstance(missions_v, list) or any(
            not isinstance(m, list) or len(m) != 2 or m[0] not in MISSION_IDS
            or not isinstance(m[1], int) for m in missions_v):
        raise _bad(f"{name}.missions: [mission, glory] pairs")
    rounds_v = d.get("rounds", [])
    if not isinstance(rounds_v, list) or any(not isinstance(r, str) for r in rounds_v):
        raise _bad(f"{name}.rounds: a list of dice used, like '245'")
    damage = _int(d.get("damage", 0), f"{name}.damage", 0)
    resurrected = _bool(d.get("resurrected", False), f"{name}.resurrected")
    s = Sheet(
        levels, styles, power, damage, resurrected, potions, hearts, letters, crossed,
        _mask(d.get("minions", []), ROOM_NAMES, f"{name}.minions", MINION_ROOMS),
        items, room, explored, _int(d.get("traps", 0), f"{name}.traps", 0),
        _int(d.get("crossings", 0), f"{name}.crossings", 0),
        (villains_v[0], villains_v[1], villains_v[2]),
        tuple((str(m[0]), int(m[1])) for m in missions_v), tuple(rounds_v),
        _bool(d.get("resigned", False), f"{name}.resigned"))
    if s.damage > hp(s) and not s.resurrected:
        raise _bad(f"{name}: direct damage above HP marks the resurrection box")
    derived: dict[str, Any] = {"hp": hp(s), "gem_track": gems(s), "minion_track": track(s)}
    if board_letter:
        derived["lairs"] = list(lairs_reached(s, BOARDS[board_letter]))
    for key, value in derived.items():
        if key in d and d[key] != value:
            raise _bad(f"{name}.{key} is {value}, not {d[key]!r:.20}")
    return s


_TOP: Final = {"game", "format", "players", "options", "phase", "dungeon", "missions",
               "open_missions", "dealt", "round", "attempt", "roll", "seats", "fight",
               "reward", "private"}


def from_position(data: Any) -> PaperState:
    try:
        return _from_position(data)
    except InvalidPositionError:
        raise
    except EngineError as exc:
        raise _bad(f"impossible position: {exc}") from None


def _from_position(data: Any) -> PaperState:
    d = _fields(data, "position", _TOP)
    if d.get("game", "paper") != "paper":
        raise _bad(f"not a Paper Dungeons position (game {d.get('game')!r:.20})")
    if d.get("format", FORMAT) != FORMAT:
        raise _bad(f"unknown position format {d.get('format')!r:.20}")
    n = _int(d.get("players"), "players", 1, 8)
    od = _fields(d.get("options", {}), "options", {"missions", "missing_gems", "story",
                                                    "chapter"})
    story = od.get("story", "off")
    if story != "off" and story not in STORIES:
        raise _bad(f"unknown story {story!r:.30}")
    options = Options(_bool(od.get("missions", True), "options.missions"),
                      _bool(od.get("missing_gems", False), "options.missing_gems"),
                      story, _int(od.get("chapter", 1), "options.chapter", 1, 3))
    try:
        phase = Phase(d.get("phase", "plan"))
    except ValueError:
        raise _bad(f"unknown phase {d.get('phase')!r:.20}") from None
    dungeon = d.get("dungeon") or ""
    if dungeon and dungeon not in DUNGEONS:
        raise _bad(f"unknown dungeon card {dungeon!r:.20}")
    if options.dungeon and dungeon and dungeon != options.dungeon:
        raise _bad(f"story chapter {options.chapter} is played on card {options.dungeon}")
    dungeon = dungeon or options.dungeon
    if phase is not Phase.SETUP and not dungeon:
        raise _bad("a dungeon card is needed after setup")
    missions = d.get("missions", [])
    if not isinstance(missions, list) or any(m not in MISSION_IDS for m in missions) or len(
            set(missions)) != len(missions) or len(missions) > 3:
        raise _bad("missions: up to three different mission ids")
    if phase is not Phase.SETUP and options.missions != (len(missions) == 3):
        raise _bad("three missions are drawn after setup (none without missions)")
    dealt = _int(d.get("dealt", 0 if phase is Phase.SETUP else 4 * n), "dealt", 0, 4 * n)
    if phase is not Phase.SETUP and dealt != 4 * n:
        raise _bad("every card is dealt after setup")
    round_no = _int(d.get("round", 0 if phase in (Phase.SETUP, Phase.CHOOSE) else 1), "round",
                    0, ROUNDS)
    if (round_no == 0) != (phase in (Phase.SETUP, Phase.CHOOSE)):
        raise _bad("round 0 is setup; rounds 1 to 8 follow")
    roll_v = d.get("roll")
    roll: tuple[str, ...] = ()
    if roll_v is not None:
        if not isinstance(roll_v, list) or any(not isinstance(f, str) for f in roll_v):
            raise _bad("roll: six faces, die 1 first")
        try:
            roll = parse_roll(" ".join(roll_v))
        except ValueError as exc:
            raise _bad(str(exc)) from None
    if bool(roll) != (phase in (Phase.PLAN, Phase.REWARD)):
        raise _bad("the roll is given while the round is planned or rewarded, and only then")
    seats_v = d.get("seats")
    if not isinstance(seats_v, list) or len(seats_v) != n:
        raise _bad(f"seats: {n} objects")
    sheets, setup, plans, shown, kept, void = [], [], [], [], [], []
    for i, sv in enumerate(seats_v):
        name = f"seats[{i}]"
        sd = _fields(sv, name, _SHEET_FIELDS)
        sheet = sheet_from_json(sd, name, dungeon)
        choice = _setup(sd.get("setup"), name)
        if choice is not None and (choice.power, choice.styles) != (sheet.power, sheet.styles):
            raise _bad(f"{name}: the setup choice's power and styles are the sheet's")
        sheets.append(sheet)
        setup.append(choice)
        plan = sd.get("plan", "")
        if not isinstance(plan, str):
            raise _bad(f"{name}.plan: a plan's text")
        plans.append(plan)
        sh = sd.get("shown")
        if sh is None:
            shown.append((-1, ""))
        elif (isinstance(sh, list) and len(sh) == 2 and sh[0] in (0, 1)
              and sh[1] in OBJECTIVE_IDS):
            shown.append((int(sh[0]), str(sh[1])))
        else:
            raise _bad(f"{name}.shown: [index, objective] or null")
        kept.append(_int(sd.get("kept", -1), f"{name}.kept", -1, 1))
        void.append(_bool(sd.get("void", False), f"{name}.void"))
    open_default = [m for m in missions if not any(m == x for s in sheets for x, _ in s.missions)]
    open_missions = d.get("open_missions", open_default)
    if not isinstance(open_missions, list) or any(m not in missions for m in open_missions):
        raise _bad("open_missions: missions drawn")
    fight_v = d.get("fight", [])
    if not isinstance(fight_v, list) or (fight_v and len(fight_v) != n):
        raise _bad(f"fight: [] or {n} combat levels")
    fight = tuple(_int(v, "fight", -1) for v in fight_v)
    reward = _int(d.get("reward", -1), "reward", -1, n - 1)
    if (reward >= 0) != (phase is Phase.REWARD):
        raise _bad("a reward seat exactly in phase reward")
    knowledge = [NO_KNOWLEDGE] * n
    private = _fields(d.get("private", {}), "private", {str(i) for i in range(n)})
    state = make_state(
        n=n, options=options, phase=phase, dungeon=dungeon, missions=tuple(missions),
        open_missions=tuple(open_missions), dealt=dealt, setup=tuple(setup),
        round=round_no, attempt=_int(d.get("attempt", 1), "attempt", 1),
        roll=roll, sheets=tuple(sheets), plans=tuple(plans), fight=fight, reward=reward,
        shown=tuple(shown), kept=tuple(kept), void=tuple(void), outcome=None,
        knowledge=tuple(knowledge))
    for key, value in private.items():
        state = _private(state, int(key), value)
    if phase is Phase.OVER:
        objectives = [card if state.kept[s] == index >= 0 else ""
                      for s, (index, card) in enumerate(state.shown)]
        notes = ["objective never opened (replaced seat): 0" if state.void[s]
                 else "resigned" if state.sheets[s].resigned
                 else f"objective {objectives[s]}" if objectives[s] else ""
                 for s in range(n)]
        state.outcome = outcome(state.sheets, state.board, objectives, notes)
    return state


def _setup(value: Any, name: str) -> SetupChoice | None:
    if value is None:
        return None
    try:
        choice = parse_setup(value)
    except EngineError as exc:
        raise _bad(f"{name}.setup: {exc}") from None
    if choice.objective >= 0:
        raise _bad(f"{name}.setup: the public setup choice has no objective index")
    return choice


def _private(state: PaperState, seat: int, value: Any) -> PaperState:
    name = f"private.{seat}"
    d = _fields(value, name, {"cards", "objective", "pending"})
    cards = d.get("cards", {})
    if not isinstance(cards, Mapping):
        raise _bad(f"{name}.cards: event -> card")
    for event, card in cards.items():
        deal = parse_deal(str(event))
        if deal is None or deal[1] != seat:
            raise _bad(f"{name}.cards: {event!r:.30} is no deal of seat {seat}")
        deck = POWER_IDS if deal[0] == "power" else OBJECTIVE_IDS
        if card not in deck:
            raise _bad(f"{name}.cards: {card!r:.30} is no {deal[0]}")
    state = state.learn(seat, dict(cards)) if cards else state
    pending_text = d.get("pending")
    objective = _int(d.get("objective", -1), f"{name}.objective", -1, 1)
    if pending_text is not None:
        if state.phase not in (Phase.CHOOSE, Phase.PLAN):
            raise _bad(f"{name}.pending: only while a setup or plan step is decided")
        parse = parse_setup if state.phase is Phase.CHOOSE else parse_plan
        try:
            action = parse(pending_text)
            state.check(seat, action)
        except EngineError as exc:
            raise _bad(f"{name}.pending: {exc}") from None
        if isinstance(action, SetupChoice) and action.objective >= 0:
            raise _bad(f"{name}.pending: the objective index goes in 'objective'")
        knowledge = list(state.knowledge)
        k = knowledge[seat]
        knowledge[seat] = Knowledge(k.cards, k.objective, action)
        if all(knowledge[s].pending is not None for s in state.live):
            raise _bad("every seat's decision is in: it would have been revealed")
        new = state._copy()
        new.knowledge = tuple(knowledge)
        state = new
    if objective >= 0:
        state = state.learn(seat, {f"objective.{seat}": str(objective)})
    return state
