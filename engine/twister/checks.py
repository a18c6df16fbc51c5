"""Why a decision is illegal ("" if it is legal), phase by phase: the one place the checked API
asks.  The seat is known to be deciding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.twister.actions import Action
from engine.twister.data import CAPACITY, KINDS, N_CHARACTERS, SLOT_SQUARES, SLOTS, token_id
from engine.twister.phases import ACTION, CARD, COMBAT, PLACE, PUT, TEAM
from engine.twister.rooms import FLOOR, GEAR
from engine.twister.rules import check_ability, check_reveal, check_rotate, check_target, run_move

if TYPE_CHECKING:
    from engine.twister.state import TwisterState

_ACTION_KINDS = ("end", "move", "jump", "reveal", "rotate", "attack", "heal", "regenerate",
                 "drink", "open", "close", "break", "pass", "fireball")


def illegal_reason(state: TwisterState, seat: int, action: Action) -> str:
    phase = state.phase
    kind = action.kind
    if phase == ACTION:
        if kind not in _ACTION_KINDS:
            return "it is time for an action (or end)"
        if kind == "end":
            return ""
        if kind in ("move", "jump"):
            return run_move(state, seat, action)[0]
        if kind == "reveal":
            return check_reveal(state, seat, action)
        if kind == "rotate":
            return check_rotate(state, seat, action)
        if kind in ("attack", "heal"):
            return check_target(state, seat, action, heal=kind == "heal")
        return check_ability(state, seat, action)
    if phase == CARD:
        if kind != "card":
            return "play an action card first"
        if action.n not in state.players[seat].hand:
            return (f"your action card {action.n} is played already (you get the four back "
                    "once all are played)")
        if action.n > state.ceiling:
            return (f"the highest card you may play now is {state.ceiling}: one more than the "
                    "highest played so far (A27)")
        return ""
    if phase == COMBAT:
        if kind != "combat":
            return "choose a combat card"
        if action.n not in state.players[seat].combat:
            return f"your combat card {action.n} is played already"
        return ""
    if phase == PUT:
        return _check_put(state, seat, action)
    if phase == PLACE:
        return _check_place(state, seat, action)
    assert phase == TEAM
    if kind != "team":
        return "choose your starting team"
    if action.path:
        if len(action.path) != 4 or len(set(action.path)) != 4 or any(
                not 0 <= k < N_CHARACTERS for k in action.path):
            return "a team is four different characters"
    elif action != Action("team"):
        return "write team"
    return ""


def _check_place(state: TwisterState, seat: int, action: Action) -> str:
    if action.kind != "place":
        return "place a token face down on a slot"
    if action.who != -1 or action.path:
        return "write place SLOT (and your token's kind)"
    slot = action.n
    if not 0 <= slot < SLOTS:
        return f"there is no slot {slot}"
    if len(state.facedown[slot]) >= CAPACITY[slot]:
        return f"slot {slot} is full ({CAPACITY[slot]} tokens, R4)"
    if action.m >= 0:
        if not state.knows(seat):
            return "this state does not hold your tokens: apply the public 'place S'"
        if action.m >= len(KINDS) or action.m not in state.reserve(seat):
            return f"you have no {KINDS[action.m] if action.m < len(KINDS) else '?'} left to place"
    elif action.m != -1:
        return "write place SLOT (and your token's kind)"
    return ""


def _check_put(state: TwisterState, seat: int, action: Action) -> str:
    if action.kind != "put":
        return "place the lifted tokens"
    reveal = state.reveal
    assert reveal is not None
    mine = reveal.mine if seat == state.active else reveal.theirs
    if action.who not in mine:
        names = ", ".join(token_id(t) for t in mine)
        return f"you place {names}"
    sq = action.n
    if sq not in SLOT_SQUARES[reveal.slot]:
        return f"a lifted token goes on the revealed room (slot {reveal.slot})"
    if state.board.kinds[sq] not in (FLOOR, GEAR):
        return "a lifted token never goes on a pit"
    if state.occupancy().get(sq):
        return "that square is not empty"
    return ""
