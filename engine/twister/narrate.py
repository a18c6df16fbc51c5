"""Dungeon Twister told in words (the log, ``replay``, ``spectate`` and ``export`` of the
client): one public change of the state at a time, from the public states before and after and
the history entry that made it.  Nothing private is told: a face-down token is "a token" until
its owner opens it.

Tokens are written as players say them ("the East Thief"), squares as in the notation
(``x,y``), and what the engine's own record of the last action (``state.last``) says is put in
those words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from engine.core import (
    Acted,
    ChanceResolved,
    Entry,
    JointActed,
    Opened,
    Over,
)
from engine.twister.actions import parse_action
from engine.twister.data import (
    KINDS,
    PER_SEAT,
    SIDE_NAME,
    square_name,
)
from engine.twister.phases import (
    ACTION,
    CARD,
    COMBAT,
    END_OPEN,
    FIRST,
    OPEN,
    PLACE,
    PLACER,
    PUT,
    REVEAL,
    TEAM,
    TEAM_OPEN,
)
from engine.twister.records import ELIMINATED, ESCAPED, HIDDEN, REMOVED
from engine.twister.rooms import ROOMS
from engine.twister.state import TwisterState

_TOKEN: Final = re.compile(r"\b([WE])-([a-z_]+)\b")
_GONE: Final = {ELIMINATED: "is killed", ESCAPED: "escapes", REMOVED: "leaves the game"}


def kind_words(kind: str) -> str:
    """``wall_walker`` -> "Wall-Walker", ``fireball_wand`` -> "Fireball Wand"."""
    if kind == "wall_walker":
        return "Wall-Walker"
    return " ".join(word.capitalize() for word in kind.split("_"))


def token_words(token: int) -> str:
    """A token as players say it: "the East Thief"."""
    return f"the {SIDE_NAME[token // PER_SEAT]} {kind_words(KINDS[token % PER_SEAT])}"


def in_words(text: str) -> str:
    """A line of the engine's record with its token ids in words (``E-thief`` -> "the East
    Thief"), its first letter a capital."""
    side = {"W": "West", "E": "East"}
    out = _TOKEN.sub(lambda m: f"the {side[m.group(1)]} {kind_words(m.group(2))}", text)
    return out[:1].upper() + out[1:]


def _vp(state: TwisterState) -> str:
    return f"VP: West {state.players[0].vp}, East {state.players[1].vp}"


def _side(seat: int, names: Sequence[str]) -> str:
    if 0 <= seat < len(names) and names[seat] and names[seat] != SIDE_NAME[seat]:
        return f"{SIDE_NAME[seat]} ({names[seat]})"
    return SIDE_NAME[seat]


def narrate(before: TwisterState, entry: Entry | None, after: TwisterState,
            names: Sequence[str] = ()) -> list[str]:
    """One change, in words (see the module); ``names``: each seat's player, for the turns."""
    lines = _lines(before, entry, after, names)
    if isinstance(after.waiting, Over) and not isinstance(before.waiting, Over):
        lines.append(f"Game over: {after.waiting.outcome.reason}.")
    return lines


def _lines(before: TwisterState, entry: Entry | None, after: TwisterState,
           names: Sequence[str]) -> list[str]:
    if isinstance(entry, ChanceResolved):
        return _chance(before, entry.outcome, after, names)
    if isinstance(entry, Acted):
        return _acted(before, entry.seat, entry.action, after, names)
    if isinstance(entry, JointActed):
        if before.phase == TEAM:
            return ["West and East choose their starting teams, face down (they are turned up "
                    "once every token is placed)."]
        if before.phase == COMBAT:
            cards = ", ".join(f"{SIDE_NAME[s]} {a.split()[-1]}" for s, a in entry.actions)
            return [f"Combat cards: {cards}.", *_record(after, before), *_after(before, after,
                                                                                names)]
        return []
    if isinstance(entry, Opened):
        return _opened(before, entry.seat, entry.values, after)
    if entry is None:
        return _unexplained(before, after)
    return []


def _chance(before: TwisterState, outcome: str, after: TwisterState,
            names: Sequence[str]) -> list[str]:
    phase = before.phase
    if phase == PLACER:
        return [f"{_side(after.placer, names)} places the first face-down token (drawn by "
                "chance); the sides then take turns."]
    if phase == FIRST:
        return [f"{_side(after.active, names)} plays the first turn (drawn by chance).",
                f"Turn 1: {_side(after.active, names)}. {_vp(after)}."]
    if phase == REVEAL and before.reveal is not None:
        slot = before.reveal.slot
        room, turns = outcome.split("/")
        name = ROOMS[room].name if room in ROOMS else room
        quarter = {"0": "as printed", "1": "a quarter turn clockwise",
                   "2": "a half turn", "3": "a quarter turn counter-clockwise"}.get(turns, turns)
        text = f"Slot {slot} is revealed: room {room}, {name}, {quarter}."
        count = len(before.facedown[slot])
        if count:
            text += f" {count} face-down token{'s' * (count != 1)} lie on it."
        return [text, *_after(before, after, names)]
    return []


def _acted(before: TwisterState, seat: int, text: str, after: TwisterState,
           names: Sequence[str]) -> list[str]:
    phase = before.phase
    side = SIDE_NAME[seat]
    action = parse_action(text)
    if phase == PLACE:
        n = after.players[seat].placed
        return [f"{side} places a token face down on slot {action.n} (its {_nth(n)} of 10)."]
    if phase == CARD:
        return [f"{side} plays action card {action.n}: {action.n} action points this turn."]
    if phase == PUT:
        return [f"{side} puts {token_words(action.who)} on {square_name(action.n)}.",
                *_after(before, after, names)]
    if phase != ACTION:
        return []
    kind = action.kind
    if kind == "end":
        return [f"{side} ends the turn.", *_after(before, after, names, ended=True)]
    if kind in ("move", "jump"):
        start = before.tokens[action.who].at
        end = after.tokens[action.who].at
        verb = "jumps" if kind == "jump" else "moves"
        where = square_name(end) if end >= 0 else "the edge"
        text = f"{in_words(token_words(action.who))} {verb} {square_name(start)} → {where}"
        handled = _handling(before, action.path)
        if handled:
            text += f" ({handled})"
        rest = [line for line in _record(after, before) if " moves to " not in line
                and " jumps to " not in line]
        return [text + ".", *rest, *_after(before, after, names)]
    if kind == "reveal":
        return [f"{in_words(token_words(action.who))} reveals slot {action.n}."]
    if kind == "attack":
        return [f"{in_words(token_words(action.who))} attacks {token_words(action.m)}: both "
                "sides choose a combat card, face down."]
    return [*_record(after, before), *_after(before, after, names)]


def _nth(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _handling(before: TwisterState, path: tuple[int, ...]) -> str:
    """A move's pick-ups and drops in words."""
    words = []
    for item in path:
        if item == -1:
            words.append("drops what it carries")
        elif item < -1:
            words.append(f"takes {token_words(-2 - item)}")
    return ", then ".join(words)


def _record(after: TwisterState, before: TwisterState) -> list[str]:
    """The engine's record of the action (``last``), in words."""
    if after.last == before.last:
        return []
    return [in_words(line) + "." for line in after.last if not line.startswith("lifted: ")]


def _after(before: TwisterState, after: TwisterState, names: Sequence[str], *,
           ended: bool = False) -> list[str]:
    """What follows an action: the score if it changed, the end of the turn (``ended``: the
    action said so already), the next turn."""
    lines = []
    if [p.vp for p in before.players] != [p.vp for p in after.players]:
        lines.append(f"{_vp(after)}.")
    if after.turn != before.turn and after.phase == CARD:
        if before.phase in (ACTION, PUT, COMBAT, REVEAL) and not ended and before.active >= 0:
            lines.append(f"{SIDE_NAME[before.active]}'s turn is over.")
        lines.append(f"Turn {after.turn}: {_side(after.active, names)}. {_vp(after)}.")
    return lines


def _opened(before: TwisterState, seat: int, values: tuple[tuple[str, str], ...],
            after: TwisterState) -> list[str]:
    side = SIDE_NAME[seat]
    starts = [(slot, kind) for slot, kind in values if slot.startswith("start.")]
    tokens = [(slot, kind) for slot, kind in values if slot.startswith("tok.")]
    lines = []
    if starts:
        x = 0 if seat == 0 else 21
        team = ", ".join(f"{kind_words(kind)} on {x},{slot.split('.')[-1]}"
                         for slot, kind in sorted(starts, key=lambda v: int(v[0].split(".")[-1])))
        lines.append(f"{side}'s starting team is turned face up: {team}.")
    if tokens:
        where: dict[int, list[str]] = {}
        for slot, kind in tokens:
            n = int(slot.split(".")[-1])
            on = next((s for s, placed in enumerate(before.facedown) if (seat, n) in placed), -1)
            where.setdefault(on, []).append(kind_words(kind))
        at_end = before.phase == END_OPEN
        for on, kinds in sorted(where.items()):
            place = f"on slot {on}" if on >= 0 else "face down"
            lead = "At the end, " if at_end else ""
            lines.append(f"{lead}{side}'s token{'s' * (len(kinds) != 1)} {place}: "
                         f"{', '.join(kinds)}.")
    if before.phase == OPEN and after.phase == PUT and after.reveal is not None:
        lifted = ", ".join(token_words(t) for t in after.reveal.lifted)
        lines.append(f"Lifted off slot {after.reveal.slot}: {lifted}. They are put on the "
                     f"room: {SIDE_NAME[after.active]} first, then its opponent places "
                     f"{SIDE_NAME[after.active]}'s objects.")
    if before.phase == TEAM_OPEN and after.phase == FIRST:
        lines.append("Both starting teams stand on their lines.")
    return lines


def _unexplained(before: TwisterState, after: TwisterState) -> list[str]:
    """A change no entry explains: a resignation, a forfeit, an agreed draw."""
    e, f = before.ending, after.ending
    lines = []
    for s in f.resigned:
        if s not in e.resigned:
            lines.append(f"{SIDE_NAME[s]} resigns.")
    for s in f.forfeited:
        if s not in e.forfeited:
            lines.append(f"{SIDE_NAME[s]} forfeits.")
    if f.reason == "draw" and e.reason != "draw":
        lines.append("Both sides agree to a draw.")
    if after.phase == END_OPEN and before.phase != END_OPEN:
        lines.append("The match ends: every token still face down is turned up first.")
    return lines


def gone_words(state: TwisterState, token: int) -> str:
    """Where a token off the board went, in words ("" while it is on the board)."""
    at = state.tokens[token].at
    if at == HIDDEN:
        return "face down"
    return _GONE.get(at, "")


__all__ = ["gone_words", "in_words", "kind_words", "narrate", "token_words"]
