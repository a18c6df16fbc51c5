"""The events table (§4.16, §6; rulings 32, 33, 42, A-23–A-26, A-37–A-39).

Rows 4–6 of the table are reconstructed from scrambled OCR (R*, rules reference §6); they are
kept exactly as printed there (A-37).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.kards import combat
from engine.kards.cards import EVENTS, display
from engine.kards.edits import push, say, set_char
from engine.kards.records import Knowledge

if TYPE_CHECKING:
    from engine.kards.state import KardsState


def apply_event(s: KardsState, level: int, face: int) -> None:
    """Apply the event of ``level`` rolled ``face``.  "You" is the active character; "every
    character" is every character in play (ruling 32)."""
    row = EVENTS[level - 1][face - 1]
    mark = " (a reconstructed row)" if row.reconstructed else ""
    say(s, f"event level {level}, roll {face}: {row.name}{mark}")
    a = s.active
    active_in = a >= 0 and s.chars[a].cell >= 0
    kind = row.kind
    if kind == "you":
        if active_in:
            if row.amount >= 0:
                combat.gain_life(s, a, row.amount, row.name)
            else:
                combat.lose_life(s, a, -row.amount, row.name)
    elif kind == "roll":
        if active_in:  # a "you" sub-roll is skipped when the active is not in play
            push(s, ("subroll", row.at_least, row.amount))
    elif kind == "every":
        hurt = False
        for i, c in enumerate(s.chars):
            if c.cell < 0:
                continue
            if row.amount >= 0:
                combat.gain_life(s, i, row.amount, row.name)
            else:
                life = max(0, c.life + row.amount)
                set_char(s, i, c.replace(life=life))
                say(s, f"{display(c.card)} loses {-row.amount} life: {c.life} → {life}")
                hurt = hurt or life == 0
        if hurt:  # ruling 42: defeats resolved together, the end checked once
            push(s, ("defeats", "", 0))
    elif kind == "thief":
        for i, c in enumerate(s.chars):
            if c.cell >= 0 and c.gold > 0:
                set_char(s, i, c.replace(gold=c.gold - 1))
    elif kind == "mist":
        for i, c in enumerate(s.chars):
            if c.cell >= 0:
                set_char(s, i, c.replace(mist=True))
    elif kind == "open":
        push(s, *(("open",) for _ in range(row.amount)))
    elif kind == "choose":
        if active_in:
            push(s, ("choose", a, row.amount))
    elif kind == "choose_every":
        count = len(s.chars)
        order = [(a + k) % count for k in range(count)]
        frames = [("choose", i, row.amount) for i in order if s.chars[i].cell >= 0]
        push(s, *reversed(frames))
    elif kind == "peek":
        if active_in:
            peek(s, s.chars[a].seat)
    else:
        raise AssertionError(f"unknown event kind {kind}")


def peek(s: KardsState, seat: int) -> None:
    """The Friendly guardian: the seat privately looks at the top orange card, which stays on
    top.  The next draw becomes a hidden event fixed now (its secrets were committed with the
    event roll); the seat is owed its outcome.  A public top (the tail) or an empty deck shows
    nothing new."""
    if not s.orange.hidden:
        say(s, "the guardian shows nothing new: the top orange card is already public")
        return
    top = s.orange.top_event
    if top is None:
        top = (s.orange_event_id(), s.orange.outcomes())
        s.orange = s.orange._replace(top_event=top)
    event = top[0]
    k = s.knowledge[seat]
    if event not in k.owed and event not in dict(k.seen):
        knowledge = list(s.knowledge)
        knowledge[seat] = Knowledge((*k.owed, event), k.seen)
        s.knowledge = tuple(knowledge)
    say(s, f"seat {seat} looks at the top orange card ({event})")
