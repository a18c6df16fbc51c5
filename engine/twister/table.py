"""A working copy of the tokens and scores while one action is checked and resolved, with the
token rules every action shares: who may enter, end on or pass a square (§5.3, §6.4, R13, R31,
A8, A9), eliminations (§6.3, R14, R15), escapes (§7) and the pit check (§6.4, A10)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.twister.board import Board
from engine.twister.data import (
    GOBLIN,
    N_CHARACTERS,
    PER_SEAT,
    ROPE,
    THIEF,
    TREASURE,
    WIZARD,
    token_id,
)
from engine.twister.records import ELIMINATED, ESCAPED, REMOVED, Tok
from engine.twister.rooms import PIT

_ROPE: Final = ROPE


def occupancy(tokens: Sequence[Tok]) -> dict[int, list[int]]:
    """Square -> the tokens on it (carried ones included), by token number."""
    occ: dict[int, list[int]] = {}
    for t, tok in enumerate(tokens):
        if tok.at >= 0:
            occ.setdefault(tok.at, []).append(t)
    return occ


class Table:
    """Tokens, scores and a log, changed in place while one action resolves."""

    __slots__ = ("board", "log", "occ", "tokens", "vp")

    def __init__(self, tokens: Sequence[Tok], vp: Sequence[int], board: Board,
                 occ: dict[int, list[int]] | None = None) -> None:
        self.tokens = list(tokens)
        self.vp = list(vp)
        self.board = board
        self.occ = {sq: list(ts) for sq, ts in occ.items()} if occ is not None else occupancy(
            tokens)
        self.log: list[str] = []

    # ------------------------------------------------------------------ reading

    def here(self, sq: int) -> list[int]:
        return self.occ.get(sq, [])

    def rope_at(self, sq: int) -> bool:
        return any(t % PER_SEAT == _ROPE for t in self.occ.get(sq, ()))

    def standing(self, sq: int) -> list[int]:
        """The characters on ``sq`` that nobody carries."""
        tokens = self.tokens
        return [t for t in self.occ.get(sq, ()) if t % PER_SEAT < N_CHARACTERS
                and tokens[t].carrier < 0]

    def unwounded_at(self, sq: int) -> list[int]:
        tokens = self.tokens
        return [t for t in self.standing(sq) if not tokens[t].wounded]

    def others(self, sq: int, mover: int, carrying: int) -> list[int]:
        return [t for t in self.occ.get(sq, ()) if t != mover and t != carrying]

    def may_enter(self, mover: int, sq: int, carrying: int) -> str:
        """Why ``mover`` (carrying ``carrying``) may not step onto ``sq`` mid-move ("" if it
        may).  Connection is checked by the caller."""
        return enter_reason(self.tokens, self.board, mover, sq,
                            self.others(sq, mover, carrying), carrying)

    def may_end(self, mover: int, sq: int, carrying: int) -> str:
        """Why ``mover`` (carrying ``carrying``) may not end an action on ``sq``."""
        return end_reason(self.tokens, self.board, mover, sq,
                          self.others(sq, mover, carrying), carrying)

    # ------------------------------------------------------------------ changing

    def set(self, t: int, tok: Tok) -> None:
        self.tokens[t] = tok

    def put(self, t: int, sq: int) -> None:
        """Move ``t`` (and what it carries) to ``sq`` (>= 0), or off the board."""
        tok = self.tokens[t]
        for token in (t, tok.load) if tok.load >= 0 else (t,):
            old = self.tokens[token].at
            if old >= 0:
                self.occ[old].remove(token)
                if not self.occ[old]:
                    del self.occ[old]
            self.tokens[token] = self.tokens[token]._replace(at=sq)
            if sq >= 0:
                self.occ.setdefault(sq, []).append(token)
                self.occ[sq].sort()

    def _leave(self, t: int, code: int) -> None:
        old = self.tokens[t].at
        if old >= 0:
            self.occ[old].remove(t)
            if not self.occ[old]:
                del self.occ[old]
        self.tokens[t] = Tok(at=code)

    def drop_load(self, carrier: int) -> None:
        """The carrier's load lies on its square from now on."""
        tok = self.tokens[carrier]
        if tok.load >= 0:
            self.tokens[tok.load] = self.tokens[tok.load]._replace(carrier=-1)
            self.tokens[carrier] = tok._replace(load=-1)

    def pick_up(self, carrier: int, t: int) -> None:
        """``carrier`` takes ``t`` from the ground or from a wounded character."""
        holder = self.tokens[t].carrier
        if holder >= 0:
            self.tokens[holder] = self.tokens[holder]._replace(load=-1)
        self.tokens[t] = self.tokens[t]._replace(carrier=carrier)
        self.tokens[carrier] = self.tokens[carrier]._replace(load=t)

    def eliminate(self, t: int, how: str) -> None:
        """Character ``t`` is killed: its owner's opponent scores 1 (R15); a wounded character
        it carries dies with it; an object it carries stays on its square, or leaves the game
        on a pit, except the Rope (§6.3, R14, R24)."""
        tok = self.tokens[t]
        sq = tok.at
        self.vp[t // PER_SEAT ^ 1] += 1
        self.log.append(f"{token_id(t)} {how}")
        load = tok.load
        if tok.carrier >= 0:
            holder = self.tokens[tok.carrier]
            self.tokens[tok.carrier] = holder._replace(load=-1)
        self._leave(t, ELIMINATED)
        if load >= 0:
            self.tokens[load] = self.tokens[load]._replace(carrier=-1)
            if load % PER_SEAT < N_CHARACTERS:
                self.eliminate(load, "dies with its carrier")
            elif self.board.kinds[sq] == PIT and load % PER_SEAT != _ROPE:
                self._leave(load, REMOVED)
                self.log.append(f"{token_id(load)} falls into the pit")

    def escape(self, t: int) -> None:
        """Character ``t`` leaves through the opponent's line: 1 VP (Goblin 2), a Treasure it
        carries 1 more; what it carries leaves the game with it (§7)."""
        tok = self.tokens[t]
        seat = t // PER_SEAT
        gain = 2 if t % PER_SEAT == GOBLIN else 1
        load = tok.load
        note = ""
        if load >= 0:
            if load % PER_SEAT == TREASURE:
                gain += 1
                note = f" with {token_id(load)}"
            elif load % PER_SEAT < N_CHARACTERS:
                note = f", carrying {token_id(load)} out (it scores nothing)"
            else:
                note = f" with {token_id(load)}"
            self._leave(load, REMOVED)
        self._leave(t, ESCAPED)
        self.vp[seat] += gain
        self.log.append(f"{token_id(t)} escapes{note}: +{gain} VP")

    def pit_check(self) -> None:
        """Every character on a pit that nobody carries falls, unless a Rope is on its square
        or it is an unwounded Thief (§6.4, R14, A10)."""
        kinds = self.board.kinds
        for sq in sorted(self.occ):
            if kinds[sq] != PIT or self.rope_at(sq):
                continue
            for t in self.standing(sq):
                if t % PER_SEAT == THIEF and not self.tokens[t].wounded:
                    continue
                if self.tokens[t].at == sq:
                    self.eliminate(t, "falls into the pit")


def enter_reason(tokens: Sequence[Tok], board: Board, mover: int, sq: int,
                 others: Sequence[int], carrying: int) -> str:
    """Why ``mover`` (carrying ``carrying``) may not step onto ``sq`` mid-move, ``others``
    being the other tokens there ("" if it may): an unwounded enemy stands there (only the
    Wizard passes), or a pit it may not cross (§5.3, §6.4, R13, R31, A8)."""
    enemy = mover // PER_SEAT ^ 1
    wizard = mover % PER_SEAT == WIZARD
    thief_here = rope = False
    for t in others:
        if t % PER_SEAT == _ROPE:
            rope = True
        if t % PER_SEAT >= N_CHARACTERS or tokens[t].carrier >= 0 or tokens[t].wounded:
            continue
        if t // PER_SEAT == enemy and not wizard:
            return f"{token_id(t)} stands on {_sq(sq)}"
        if t % PER_SEAT == THIEF:
            thief_here = True
    if board.kinds[sq] == PIT and not (
            mover % PER_SEAT == THIEF or wizard or rope or thief_here
            or (carrying >= 0 and carrying % PER_SEAT == _ROPE)):
        return f"{_sq(sq)} is a pit (a Rope or a Thief is needed to cross it)"
    return ""


def end_reason(tokens: Sequence[Tok], board: Board, mover: int, sq: int,
               others: Sequence[int], carrying: int) -> str:
    """Why ``mover`` (carrying ``carrying``) may not end an action on ``sq``, ``others`` being
    the other tokens there ("" if it may): another unwounded character, a wounded enemy, a pit
    without a Rope (unless the mover is a Thief), more than two tokens (§5.3, R17, A9)."""
    seat = mover // PER_SEAT
    rope = carrying >= 0 and carrying % PER_SEAT == _ROPE
    for t in others:
        if t % PER_SEAT == _ROPE:
            rope = True
        if t % PER_SEAT >= N_CHARACTERS or tokens[t].carrier >= 0:
            continue
        if not tokens[t].wounded:
            return f"{token_id(t)} already stands on {_sq(sq)}"
        if t // PER_SEAT != seat:
            return f"the wounded {token_id(t)} lies on {_sq(sq)}"
    if board.kinds[sq] == PIT and not rope and mover % PER_SEAT != THIEF:
        return f"{_sq(sq)} is a pit without a Rope"
    if len(others) + 1 + (carrying >= 0) > 2:
        return f"{_sq(sq)} would hold more than two tokens"
    return ""


def take_reason(tokens: Sequence[Tok], who: int, t: int) -> str:
    """Why ``who`` may not pick up ``t`` from its square ("" if it may): an object lying there
    or held by a wounded character, or a wounded friend lying there that carries nothing
    (R17, R18)."""
    tok = tokens[t]
    if t % PER_SEAT >= N_CHARACTERS:
        if tok.carrier >= 0 and not tokens[tok.carrier].wounded:
            return (f"{token_id(tok.carrier)} holds {token_id(t)} (only wounded characters "
                    "can be relieved of what they carry)")
        return ""
    if t // PER_SEAT != who // PER_SEAT:
        return "only a wounded friend can be carried"
    if not tok.wounded or tok.carrier >= 0:
        return f"{token_id(t)} can be carried only while wounded and lying on the ground"
    if tok.load >= 0:
        return f"{token_id(t)} carries {token_id(tok.load)} (a carried character carries nothing)"
    return ""


def _sq(sq: int) -> str:
    return f"{sq % 22},{sq // 22}"
