"""The Dungeon Twister JSON position format (docs/rules/twister.md §8).

A position sets up any situation, as FEN does for chess.  A short example (West to act with 3
AP, one room face up, two tokens on it)::

    {"game": "twister", "phase": "action", "turn": 5, "active": 0, "ap": 3,
     "rooms": [{"room": "3B", "orientation": 0}, null, null, null, null, null, null, null],
     "tokens": {"W-thief": {"at": [4, 3]}, "W-warrior": {"at": [2, 3], "wounded": true}}}

Fields left out take defaults (an empty board, no sealed values, full hands); a token left out
is face down or not placed (``HIDDEN``).  :func:`to_position` writes every field, so
``from_position(to_position(s)) == s``; ``private=False`` leaves out ``private`` (each seat's own
sealed values and its committed team or combat card), which gives the public part.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import InvalidActionError, InvalidKnowledgeError, InvalidPositionError
from engine.twister.actions import _token
from engine.twister.board import GATE_STATES, board_for
from engine.twister.data import (
    ACTION_CARDS,
    CAPACITY,
    COMBAT_CARDS,
    HEIGHT,
    JUMP_CARDS,
    KINDS,
    N_CHARACTERS,
    PER_SEAT,
    SLOTS,
    START_YS,
    TOKENS,
    WIDTH,
    start_slot,
    token_id,
    token_slot,
)
from engine.twister.flow import finish
from engine.twister.phases import COMBAT, END_OPEN, OPEN, OVER, PHASES, PUT, REVEAL, TEAM
from engine.twister.records import (
    GONE_WORDS,
    HIDDEN,
    NO_ENDING,
    Ending,
    Fight,
    Know,
    Player,
    Reveal,
    Tok,
)
from engine.twister.rooms import ROOMS
from engine.twister.state import TURN_CAP, TwisterState, make_state

FORMAT = 1
_GONE = {word: code for code, word in GONE_WORDS.items()}
_PLAY_PHASES = ("card", "action", "reveal", "open", "put", "combat")


# ---------------------------------------------------------------------- writing


def _tok_json(state: TwisterState, t: int) -> dict[str, Any]:
    tok = state.tokens[t]
    out: dict[str, Any] = {}
    if tok.at >= 0:
        out["at"] = [tok.at % WIDTH, tok.at // WIDTH]
    else:
        out["at"] = GONE_WORDS[tok.at]
    if tok.carrier >= 0:
        out["carrier"] = token_id(tok.carrier)
    if t % PER_SEAT < N_CHARACTERS:
        out.update(wounded=tok.wounded, hurt=tok.hurt, healed=tok.healed, potion=tok.potion)
    return out


def to_position(state: TwisterState, *, private: bool = True) -> dict[str, Any]:
    rooms: list[Any] = []
    for slot in range(SLOTS):
        placed = state.rooms[slot]
        if placed is None:
            rooms.append(None)
        else:
            rooms.append({"room": placed[0], "orientation": placed[1],
                          "gates": [GATE_STATES[g] for g in state.gates[slot]]})
    data: dict[str, Any] = {
        "game": "twister", "format": FORMAT, "turn_cap": state.turn_cap, "phase": state.phase,
        "teamed": state.teamed, "placer": state.placer, "turn": state.turn,
        "active": state.active, "ap": state.ap, "acts": state.acts, "highest": state.highest,
        "rooms": rooms,
        "facedown": [[[s, n] for s, n in state.facedown[slot]] for slot in range(SLOTS)],
        "seats": [{"vp": p.vp, "hand": list(p.hand), "combat": list(p.combat),
                   "jumps": p.jumps, "placed": p.placed,
                   "opened": [[slot, kind] for slot, kind in p.opened]}
                  for p in state.players],
        "tokens": {token_id(t): _tok_json(state, t) for t in range(TOKENS)
                   if state.tokens[t].at != HIDDEN},
        "reveal": None, "fight": None,
        "ending": {"reason": state.ending.reason, "winner": state.ending.winner,
                   "resigned": list(state.ending.resigned),
                   "forfeited": list(state.ending.forfeited)},
        "last": list(state.last),
    }
    if state.reveal is not None:
        r = state.reveal
        data["reveal"] = {"slot": r.slot, "lifted": [token_id(t) for t in r.lifted],
                          "mine": [token_id(t) for t in r.mine],
                          "theirs": [token_id(t) for t in r.theirs]}
    if state.fight is not None:
        f = state.fight
        data["fight"] = {"attacker": token_id(f.attacker), "target": token_id(f.target),
                         "attackers": [token_id(t) for t in f.attackers],
                         "defenders": [token_id(t) for t in f.defenders]}
    if private:
        data["private"] = {
            str(s): {"sealed": [[slot, kind] for slot, kind in k.sealed], "team": k.team,
                     "card": k.card}
            for s, k in enumerate(state.knowledge) if k != Know()}
    return data


# ---------------------------------------------------------------------- reading


def _bad(message: str) -> InvalidPositionError:
    return InvalidPositionError(f"invalid Dungeon Twister position: {message}")


def _int(data: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(f"{key} is a whole number from {low} to {high}, not {value!r}")
    return value


def _bool(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise _bad(f"{key} is true or false, not {value!r}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise _bad(f"{what} is a list, not {value!r}")
    return value


def _tok_id(text: Any, what: str) -> int:
    try:
        return _token(str(text))
    except InvalidActionError:
        raise _bad(f"{what}: {text!r} is not a token (W-troll, E-rope)") from None


def _rooms(data: Mapping[str, Any]) -> tuple[tuple[tuple[str, int] | None, ...],
                                             tuple[tuple[int, ...], ...]]:
    raw = _list(data.get("rooms", [None] * SLOTS), "rooms")
    if len(raw) != SLOTS:
        raise _bad(f"rooms has {SLOTS} entries (one per slot)")
    rooms: list[tuple[str, int] | None] = []
    gates: list[tuple[int, ...]] = []
    for slot, entry in enumerate(raw):
        if entry is None:
            rooms.append(None)
            gates.append(())
            continue
        if not isinstance(entry, Mapping) or entry.get("room") not in ROOMS:
            raise _bad(f"slot {slot}: a room is {{'room': one of {', '.join(ROOMS)}, "
                       "'orientation': 0-3}")
        room = str(entry["room"])
        o = _int(entry, "orientation", 0, 0, 3)
        count = len(ROOMS[room].gates)
        states = _list(entry.get("gates", ["closed"] * count), f"slot {slot} gates")
        if len(states) != count or any(g not in GATE_STATES for g in states):
            raise _bad(f"slot {slot}: {room} has {count} portcullises, each closed, open or "
                       "broken")
        rooms.append((room, o))
        gates.append(tuple(GATE_STATES.index(g) for g in states))
    shown = [r[0] for r in rooms if r is not None]
    if len(shown) != len(set(shown)):
        raise _bad("a room lies in two slots")
    return tuple(rooms), tuple(gates)


def _players(data: Mapping[str, Any]) -> tuple[Player, ...]:
    raw = _list(data.get("seats", [{}, {}]), "seats")
    if len(raw) != 2:
        raise _bad("seats has two entries")
    out = []
    for s, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            raise _bad(f"seat {s} is an object")
        hand = _list(entry.get("hand", list(ACTION_CARDS)), f"seat {s} hand")
        if sorted(set(hand)) != sorted(hand) or any(c not in ACTION_CARDS for c in hand):
            raise _bad(f"seat {s}: the action cards in hand are among 2, 3, 4, 5, once each")
        combat = _list(entry.get("combat", list(COMBAT_CARDS)), f"seat {s} combat")
        pool = list(COMBAT_CARDS)
        for c in combat:
            if c not in pool:
                raise _bad(f"seat {s}: combat cards are among 0, 1, 2, 2, 3, 3, 4, 5, 6")
            pool.remove(c)
        if 0 not in combat:
            raise _bad(f"seat {s}: the combat card 0 never leaves the hand")
        opened = []
        for item in _list(entry.get("opened", []), f"seat {s} opened"):
            if (not isinstance(item, list) or len(item) != 2 or item[1] not in KINDS
                    or not isinstance(item[0], str)):
                raise _bad(f"seat {s}: an opening is [slot, kind]")
            opened.append((item[0], item[1]))
        out.append(Player(
            vp=_int(entry, "vp", 0, 0, 99), hand=tuple(sorted(hand)),
            combat=tuple(sorted(combat)), jumps=_int(entry, "jumps", JUMP_CARDS, 0, JUMP_CARDS),
            placed=_int(entry, "placed", 0, 0, 10), opened=tuple(opened)))
    return tuple(out)


def _tokens(data: Mapping[str, Any], kinds: tuple[int, ...]) -> tuple[Tok, ...]:
    raw = data.get("tokens", {})
    if not isinstance(raw, Mapping):
        raise _bad("tokens is an object: token -> its state")
    tokens = [Tok()] * TOKENS
    carriers: dict[int, int] = {}
    for name, entry in raw.items():
        t = _tok_id(name, "tokens")
        if not isinstance(entry, Mapping):
            raise _bad(f"{name} is an object")
        at = entry.get("at")
        character = t % PER_SEAT < N_CHARACTERS
        if isinstance(at, str):
            if at not in _GONE or (at != "removed" and not character):
                raise _bad(f"{name}: at is [x, y], eliminated, escaped or removed")
            code = _GONE[at]
        elif at is None and "carrier" in entry:
            code = HIDDEN  # filled in from the carrier below
        else:
            if (not isinstance(at, list) or len(at) != 2 or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in at)
                    or not (0 <= at[0] < WIDTH and 0 <= at[1] < HEIGHT)):
                raise _bad(f"{name}: at is [x, y] on the board")
            code = at[1] * WIDTH + at[0]
            if kinds[code] < 0:
                raise _bad(f"{name} lies on a face-down slot")
        if "carrier" in entry:
            carriers[t] = _tok_id(entry["carrier"], f"{name}'s carrier")
        flags = {k: _bool(entry, k, False) for k in ("wounded", "hurt", "healed")}
        potion = _int(entry, "potion", 0, 0, 99)
        if not character and (any(flags.values()) or potion):
            raise _bad(f"{name} is an object: it is never wounded or healed")
        if code < 0 and code != HIDDEN and (any(flags.values()) or potion):
            raise _bad(f"{name} is out of the game")
        tokens[t] = Tok(at=code, wounded=flags["wounded"], hurt=flags["hurt"],
                        healed=flags["healed"], potion=potion)
    for t, c in carriers.items():
        carrier = tokens[c]
        if c % PER_SEAT >= N_CHARACTERS or carrier.at < 0 or c == t:
            raise _bad(f"{token_id(t)} is carried by {token_id(c)}, which is no character on "
                       "the board")
        if carrier.load >= 0:
            raise _bad(f"{token_id(c)} carries two tokens")
        if tokens[t].at not in (HIDDEN, carrier.at):
            raise _bad(f"{token_id(t)} lies elsewhere than its carrier {token_id(c)}")
        if t % PER_SEAT < N_CHARACTERS and (t // PER_SEAT != c // PER_SEAT
                                            or not tokens[t].wounded):
            raise _bad(f"{token_id(t)}: only a wounded friend is carried")
        tokens[c] = carrier._replace(load=t)
        tokens[t] = tokens[t]._replace(at=carrier.at, carrier=c)
    for t in carriers:
        if tokens[t].load >= 0:
            raise _bad(f"{token_id(t)} is carried and carries {token_id(tokens[t].load)}")
    count: dict[int, int] = {}
    standing: dict[int, int] = {}
    for t, tok in enumerate(tokens):
        if tok.at >= 0:
            count[tok.at] = count.get(tok.at, 0) + 1
            if t % PER_SEAT < N_CHARACTERS and tok.carrier < 0 and not tok.wounded:
                standing[tok.at] = standing.get(tok.at, 0) + 1
    for sq, n in count.items():
        if n > 2:
            raise _bad(f"square {sq % WIDTH},{sq // WIDTH} holds {n} tokens (golden rule 2)")
        if standing.get(sq, 0) > 1:
            raise _bad(f"square {sq % WIDTH},{sq // WIDTH} holds two unwounded characters")
    return tuple(tokens)


def _token_list(value: Any, what: str) -> tuple[int, ...]:
    return tuple(_tok_id(x, what) for x in _list(value, what))


def from_position(data: Any) -> TwisterState:
    """Read a position (see the module docstring); InvalidPositionError names what is wrong."""
    if not isinstance(data, Mapping):
        raise _bad("a position is a JSON object")
    if data.get("game", "twister") != "twister":
        raise _bad(f"game is twister, not {data.get('game')!r}")
    if data.get("format", FORMAT) != FORMAT:
        raise _bad(f"format {data.get('format')!r} is not {FORMAT}")
    turn_cap = _int(data, "turn_cap", TURN_CAP, 0, 1000)
    if turn_cap % 2 or turn_cap == 1:
        raise _bad("turn_cap is even (or 0: off)")
    phase = data.get("phase", "action")
    if phase not in PHASES:
        raise _bad(f"phase is one of {', '.join(PHASES)}, not {phase!r}")
    rooms, gates = _rooms(data)
    board = board_for(rooms, gates)
    players = _players(data)
    tokens = _tokens(data, board.kinds)
    play = phase in _PLAY_PHASES or (phase in (END_OPEN, OVER) and "turn" in data)
    turn = _int(data, "turn", 1 if phase in _PLAY_PHASES else 0, 0, 10_000)
    active = _int(data, "active", 0 if play else -1, -1, 1)
    if phase in _PLAY_PHASES and (turn < 1 or active < 0):
        raise _bad("a turn needs turn >= 1 and an active seat")
    if turn_cap and turn > turn_cap:
        raise _bad(f"turn {turn} is past the cap {turn_cap}")
    facedown_raw = _list(data.get("facedown", [[] for _ in range(SLOTS)]), "facedown")
    if len(facedown_raw) != SLOTS:
        raise _bad(f"facedown has {SLOTS} entries")
    facedown: list[tuple[tuple[int, int], ...]] = []
    seen: set[tuple[int, int]] = set()
    for slot, entry in enumerate(facedown_raw):
        items = []
        for item in _list(entry, f"facedown[{slot}]"):
            if (not isinstance(item, list) or len(item) != 2 or item[0] not in (0, 1)
                    or not isinstance(item[1], int) or not 1 <= item[1] <= players[item[0]].placed
                    or (item[0], item[1]) in seen):
                raise _bad(f"facedown[{slot}]: a face-down token is [seat, n], n up to the "
                           "seat's placed count, each once")
            seen.add((item[0], item[1]))
            items.append((item[0], item[1]))
        # A revealed slot keeps its face-down tokens while they are opened, and for good if
        # the game ends before they are lifted.
        if items and rooms[slot] is not None and not (
                (phase == OPEN and _slot(data) == slot) or phase in (END_OPEN, OVER)):
            raise _bad(f"slot {slot} is face up but holds face-down tokens")
        if len(items) > CAPACITY[slot]:
            raise _bad(f"slot {slot} holds at most {CAPACITY[slot]} face-down tokens")
        facedown.append(tuple(items))
    teamed = _bool(data, "teamed", False)
    for s, p in enumerate(players):
        allowed = {token_slot(s, n) for n in range(1, p.placed + 1)}
        if teamed:
            allowed |= {start_slot(s, y) for y in START_YS}
        kinds_opened = [k for _, k in p.opened]
        if any(slot not in allowed for slot, _ in p.opened) or len(set(kinds_opened)) != len(
                kinds_opened) or len({slot for slot, _ in p.opened}) != len(p.opened):
            raise _bad(f"seat {s}: openings name its own sealed slots, each token once")
    reveal = _reveal(data, phase)
    fight = _fight(data, phase)
    ending = _ending(data)
    knowledge = _knowledge(data)
    state = make_state(
        turn_cap=turn_cap, phase=phase, teamed=teamed, rooms=rooms, gates=gates,
        facedown=tuple(facedown), tokens=tokens, players=players,
        placer=_int(data, "placer", -1, -1, 1), turn=turn, active=active,
        ap=_int(data, "ap", 0, 0, 5), acts=_int(data, "acts", 1 if phase in _PLAY_PHASES[1:]
                                                else 0, 0, 10_000),
        highest=_int(data, "highest", 0, 0, 5), reveal=reveal, fight=fight, ending=ending,
        outcome=None, last=tuple(str(x) for x in _list(data.get("last", []), "last")),
        knowledge=(Know(), Know()))
    for s, k in enumerate(knowledge):
        if k.team and phase != TEAM:
            raise _bad("a committed team is only pending in the team step")
        if k.card >= 0 and (phase != COMBAT or k.card not in players[s].combat):
            raise _bad(f"seat {s}: a committed combat card is one in hand, in a combat")
        try:
            state = state._with_knowledge(s, k)
        except InvalidKnowledgeError as exc:
            raise _bad(f"private[{s}]: {exc}") from None
    if phase in (REVEAL, OPEN, PUT) and reveal is None:
        raise _bad(f"phase {phase} needs a reveal")
    if phase == REVEAL and reveal is not None and rooms[reveal.slot] is not None:
        raise _bad("the slot being revealed is face down")
    if phase == PUT and reveal is not None:
        for t in reveal.mine + reveal.theirs:
            if tokens[t].at != HIDDEN:
                raise _bad(f"{token_id(t)} is to be placed but lies on the board")
        if not reveal.mine and not reveal.theirs:
            raise _bad("phase put needs a token to place")
    if phase == COMBAT and fight is None:
        raise _bad("phase combat needs a fight")
    if phase == OVER:
        finish(state)
    return state


def _slot(data: Mapping[str, Any]) -> int:
    reveal = data.get("reveal")
    return int(reveal.get("slot", -1)) if isinstance(reveal, Mapping) else -1


def _reveal(data: Mapping[str, Any], phase: str) -> Reveal | None:
    raw = data.get("reveal")
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or phase not in (REVEAL, OPEN, PUT):
        raise _bad("a reveal is only in progress in the reveal, open and put phases")
    slot = _int(raw, "slot", -1, 0, SLOTS - 1)
    lifted = _token_list(raw.get("lifted", []), "reveal lifted")
    mine = _token_list(raw.get("mine", []), "reveal mine")
    theirs = _token_list(raw.get("theirs", []), "reveal theirs")
    if not set(mine) | set(theirs) <= set(lifted):
        raise _bad("the tokens to place are lifted ones")
    return Reveal(slot, lifted, mine, theirs)


def _fight(data: Mapping[str, Any], phase: str) -> Fight | None:
    raw = data.get("fight")
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or phase != COMBAT:
        raise _bad("a fight is only in progress in the combat phase")
    return Fight(_tok_id(raw.get("attacker"), "fight attacker"),
                 _tok_id(raw.get("target"), "fight target"),
                 _token_list(raw.get("attackers", []), "fight attackers"),
                 _token_list(raw.get("defenders", []), "fight defenders"))


def _ending(data: Mapping[str, Any]) -> Ending:
    raw = data.get("ending")
    if raw is None:
        return NO_ENDING
    if not isinstance(raw, Mapping) or raw.get("reason", "") not in (
            "", "vp", "cap", "draw", "resign", "forfeit"):
        raise _bad("ending.reason is '', vp, cap, draw, resign or forfeit")
    seats = []
    for key in ("resigned", "forfeited"):
        items = _list(raw.get(key, []), f"ending.{key}")
        if any(s not in (0, 1) for s in items) or len(set(items)) != len(items):
            raise _bad(f"ending.{key} lists seats 0 and 1 at most once each")
        seats.append(tuple(items))
    return Ending(str(raw.get("reason", "")), _int(raw, "winner", -1, -1, 1), seats[0], seats[1])


def _knowledge(data: Mapping[str, Any]) -> tuple[Know, Know]:
    raw = data.get("private", {})
    if not isinstance(raw, Mapping) or any(k not in ("0", "1") for k in raw):
        raise _bad("private is keyed by seat: '0', '1'")
    out = []
    for s in (0, 1):
        entry = raw.get(str(s), {})
        if not isinstance(entry, Mapping):
            raise _bad(f"private[{s}] is an object")
        sealed = []
        for item in _list(entry.get("sealed", []), f"private[{s}].sealed"):
            if not isinstance(item, list) or len(item) != 2 or not all(
                    isinstance(x, str) for x in item):
                raise _bad(f"private[{s}].sealed holds [slot, kind] pairs")
            sealed.append((item[0], item[1]))
        out.append(Know(tuple(sealed), _bool(entry, "team", False),
                        _int(entry, "card", -1, -1, 6)))
    return out[0], out[1]


__all__ = ["FORMAT", "from_position", "to_position"]
