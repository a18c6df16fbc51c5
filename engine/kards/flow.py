"""The flow of play as frames (see ``state.py``): set-up, turns, exploration, movement, orange
draws, monster fetching, thresholds and events.  Combat and defeats are in ``combat.py``, the
decisions and their legal actions in ``legal.py``, the small edits all of them make (log, frame
stack, figures, placed cards) in ``edits.py``.

Every function here receives a fresh state copy (the one a transition is building) and changes
only it.  :func:`settle` runs automatic frames until the top frame waits for chance or for a
decision with a real choice (a decision with one legal action is taken at once: it is no
choice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from engine.core import ChanceEvent, Visibility
from engine.kards import combat
from engine.kards.actions import format_action
from engine.kards.board import any_available_exit, event_cells, explore_placements
from engine.kards.cards import (
    CHARACTER_BY_KIND,
    EVENT_LEVELS,
    EVENTS,
    ITEM_USES,
    MONSTER_BY_KIND,
    TRAP_BY_KIND,
    TREASURE_BY_KIND,
    category,
    display,
    kind_of,
)
from engine.kards.decks import new_orange, orange_event
from engine.kards.edits import (
    appear,
    join,
    pop,
    push,
    replace,
    say,
    set_char,
)
from engine.kards.events import apply_event
from engine.kards.legal import decide, frame_legal, skip, stone_uses
from engine.kards.records import DICE2, DIE, Item, Knowledge, ap_of

if TYPE_CHECKING:
    from engine.kards.state import Frame, KardsState

_PUBLIC: Final = Visibility.PUBLIC

DECISIONS: Final = frozenset({"pick", "gate", "equip", "main", "end", "place", "keep", "mist",
                              "attacks", "save", "choose", "cell", "recruit"})
CHANCES: Final = frozenset({"first", "explore", "draw", "appear", "fetch", "strike",
                            "treasure", "yellow", "event", "subroll", "open", "escort"})


def die_id(s: KardsState, kind: str) -> str:
    return f"T{s.turn}.{s.dice + 1}.{kind}"


# ---------------------------------------------------------------------- the loop


def settle(s: KardsState) -> None:
    """Run automatic frames until the state waits (or the game is over)."""
    while s.outcome is None:
        frame = s.stack[-1]
        kind = frame[0]
        auto = _AUTO.get(kind)
        if auto is not None:
            auto(s, frame)
            continue
        if kind in CHANCES:
            pre = _PRE.get(kind)
            if pre is not None and pre(s, frame):
                continue
            return
        if skip(s, frame):
            continue
        legal = frame_legal(s, frame)
        if len(legal) == 1 or (legal and s.resigned[decider(s, frame)]):
            if len(legal) == 1 and not s.resigned[decider(s, frame)]:
                s.auto = (*s.auto, (decider(s, frame), format_action(legal[0])))
            decide(s, frame, legal[0])
            s.acts += 1
            continue
        assert legal, f"no legal action in {frame}"
        s._legal = legal
        return
    s.stack = ()


def decider(s: KardsState, frame: Frame) -> int:
    """The seat that makes the decision of a decision frame."""
    kind = frame[0]
    if kind in ("pick", "gate"):
        return (s.first - 1 - int(frame[1])) % s.n
    if kind == "choose":
        return s.chars[int(frame[1])].seat
    if kind == "recruit":
        return 0
    return s.chars[s.active].seat


def chance_event(s: KardsState, frame: Frame) -> ChanceEvent | None:
    """The chance event a chance frame poses (None for a decision frame)."""
    kind = frame[0]
    if kind not in CHANCES:
        return None
    if kind == "first":
        return ChanceEvent("setup.first", tuple(str(i) for i in range(s.n)), _PUBLIC)
    if kind in ("explore", "open"):
        return ChanceEvent(f"G{s.grey_draws + 1}", s.grey, _PUBLIC)
    if kind in ("draw", "fetch"):
        top = s.orange.top_event
        if top is not None:
            return orange_event(top[0], top[1], hidden=True)
        return orange_event(s.orange_event_id(), s.orange.outcomes(), hidden=False)
    if kind == "yellow":
        return ChanceEvent(f"Y{s.yellow_draws + 1}", s.yellow, _PUBLIC)
    if kind == "strike":
        return ChanceEvent(die_id(s, "counter" if frame[3] else "attack"), DICE2, _PUBLIC)
    return ChanceEvent(die_id(s, kind), DIE, _PUBLIC)


def resolve_chance(s: KardsState, frame: Frame, outcome: str) -> None:
    kind = frame[0]
    if kind == "first":
        s.first = int(outcome)
        say(s, f"seat {s.first} plays first")
        replace(s, ("pick", 0))
    elif kind in ("explore", "open"):
        s.grey_draws += 1
        s.grey = _without(s.grey, outcome)
        (_explored if kind == "explore" else _opened)(s, frame, outcome)
    elif kind in ("draw", "fetch"):
        event_id = s.orange.top_event[0] if s.orange.top_event else s.orange_event_id()
        s.orange_draws += 1
        s.orange = s.orange.take(outcome)
        _turned(s, event_id)
        (_found if kind == "draw" else _fetched)(s, frame, outcome)
    elif kind == "yellow":
        s.yellow_draws += 1
        s.yellow = _without(s.yellow, outcome)
        i = s.char_index(str(frame[1]))
        gold = TREASURE_BY_KIND[kind_of(outcome)].gold
        if i >= 0 and not s.chars[i].out:
            c = s.chars[i]
            set_char(s, i, c.replace(gold=c.gold + gold))
        say(s, f"{display(str(frame[1]))} finds {display(outcome)}: {gold} gold")
        pop(s)
    else:
        s.dice += 1
        if kind == "strike":
            combat.resolve_strike(s, frame, outcome)
        else:
            _DICE[kind](s, frame, int(outcome))


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _turned(s: KardsState, event_id: str) -> None:
    """An orange draw is public now: it leaves every seat's owed and seen knowledge."""
    if any(k.owed or k.seen for k in s.knowledge):
        s.knowledge = tuple(
            Knowledge(tuple(e for e in k.owed if e != event_id),
                      tuple(e for e in k.seen if e[0] != event_id)) for k in s.knowledge)


def peek_target(s: KardsState) -> str:
    """The next orange draw, when the pending chance event is an event roll that may be the
    Friendly guardian and the guardian could show a hidden card; else ""."""
    frame = s.stack[-1] if s.stack else ("over",)
    if frame[0] != "event" or not any(r.kind == "peek" for r in EVENTS[int(frame[1]) - 1]):
        return ""
    if s.active < 0 or s.chars[s.active].cell < 0 or not s.orange.hidden:
        return ""
    top = s.orange.top_event
    return top[0] if top is not None else s.orange_event_id()


# ---------------------------------------------------------------------- set-up


def _begin(s: KardsState, frame: Frame) -> None:
    """Set-up steps 5–9 after the picks (and gates): start cells, the orange deck, the
    revealed count, and the first turn."""
    pack = s.pack
    taken = {c.card for c in s.chars}
    unused = tuple(c for c in pack.characters if c not in taken)
    d05 = s.cell_of_card(pack.dungeon[4])  # the Black Gate (D05 / A-D05)
    chars = []
    for c in s.chars:
        data = CHARACTER_BY_KIND[kind_of(c.card)]
        cell, start = (c.cell, c.start) if s.mode == "arena" else (d05, d05)
        chars.append(c.replace(life=data.life, cell=cell, start=start, charged=True,
                               budget=data.ap))
    s.chars = tuple(chars)
    random_help = s.mode == "solo" and s.solo_help == "random"
    s.orange = new_orange(pack.orange + (unused if random_help else ()), pack.portal_stone)
    s.unused = unused if s.mode == "solo" and s.solo_help == "programmed" else ()
    s.revealed = len(s.start_cells())
    s.active = s.first if s.mode != "solo" else 0
    say(s, "the orange deck: " + f"{s.orange.top_size} cards over {s.orange.bottom_size} "
        "(the Portal Stone among them)")
    # Seats that resigned during the set-up leave now; the first turn goes to the first
    # character still in play in turn order.
    for i, c in enumerate(s.chars):
        if s.resigned[c.seat]:
            set_char(s, i, c.replace(out=True, life=0, cell=-1))
    combat.check_end(s)
    count = len(s.chars)
    order = [(s.active + k) % count for k in range(count)]
    s.active = next((i for i in order if s.chars[i].cell >= 0), s.active)
    replace(s, ("turn",))


# ---------------------------------------------------------------------- turns


def _turn(s: KardsState, frame: Frame) -> None:
    s.turn += 1
    s.dice = 0
    s.acts = 0
    s.turn_over = False
    c = s.chars[s.active]
    if s.counter_budget:
        s.chars = tuple(x.replace(budget=ap_of(x.card)) if x.card else x for x in s.chars)
        s.monsters = tuple(m.replace(budget=ap_of(m.card)) for m in s.monsters)
    say(s, f"turn {s.turn} (round {s.rounds + 1}): {display(c.card)}, seat {c.seat}")
    replace(s, ("end",), ("main",), ("equip", ""))


def _next(s: KardsState, frame: Frame) -> None:
    """End of a turn: effect timers tick (ruling 29, A-35), then the next character in play;
    passing the first player's position ends a round (A-41)."""
    turn = s.turn

    def tick(effects: tuple[Any, ...]) -> tuple[Any, ...]:
        out = []
        for e in effects:
            if e.turn != turn:
                e = e._replace(timer=e.timer - 1)
            if e.timer > 0:
                out.append(e)
        return tuple(out)

    s.chars = tuple(c.replace(effects=tick(c.effects)) if c.effects else c for c in s.chars)
    s.monsters = tuple(m.replace(effects=tick(m.effects)) if m.effects else m
                       for m in s.monsters)
    s.turn_over = False
    first_slot = 0 if s.mode == "solo" else s.first
    pos = s.active
    for _ in range(len(s.chars) + 1):
        pos = (pos + 1) % len(s.chars)
        if pos == first_slot:
            s.rounds += 1
            if s.round_cap and s.rounds >= s.round_cap:
                combat.cap_result(s)
                return
        if s.chars[pos].cell >= 0:
            s.active = pos
            replace(s, ("turn",))
            return
    combat.check_end(s)
    assert s.outcome is not None, "no character in play, but the game goes on"


# ---------------------------------------------------------------------- exploration


def _pre_grey(s: KardsState, frame: Frame) -> bool:
    """A grey draw from the tail needs no chance; an event's card with nothing to place it
    on is not revealed at all (A-23)."""
    if frame[0] == "open" and (not (s.grey or s.grey_tail)
                               or not _any_exit(s)):
        say(s, "no dungeon card can be opened")
        pop(s)
        return True
    if s.grey:
        return False
    card, s.grey_tail = s.grey_tail[0], s.grey_tail[1:]
    (_explored if frame[0] == "explore" else _opened)(s, frame, card)
    return True


def _any_exit(s: KardsState) -> bool:
    return any_available_exit(s.board, s.size)


def _explored(s: KardsState, frame: Frame, card: str) -> None:
    c = s.chars[s.active]
    if c.cell < 0:  # (the seat resigned while the card was drawn)
        s.grey_tail = (*s.grey_tail, card)
        pop(s)
        return
    say(s, f"{display(c.card)} reveals {card} ({display(card)})")
    if not explore_placements(s.board, s.size, c.cell, card):
        pop(s)
        _paradox(s, card)
        return
    replace(s, ("place", card))


def _paradox(s: KardsState, card: str) -> None:
    """Ruling 11 (and 33): the card goes to the grey tail; the active character loses 1."""
    s.grey_tail = (*s.grey_tail, card)
    c = s.chars[s.active] if s.active >= 0 else None
    if c is not None and c.cell >= 0:
        combat.lose_life(s, s.active, 1, f"a paradox: {card} fits nowhere")
    else:
        say(s, f"a paradox: {card} fits nowhere")


def _opened(s: KardsState, frame: Frame, card: str) -> None:
    say(s, f"the event reveals {card} ({display(card)})")
    if not event_cells(s.board, s.size, card):
        pop(s)
        _paradox(s, card)
        return
    replace(s, ("cell", card))


# ---------------------------------------------------------------------- orange draws


def _pre_orange(s: KardsState, frame: Frame) -> bool:
    """Draws from the tail (public order) and from an empty deck need no chance; a monster
    fetch first looks in the lair (§4.7)."""
    if frame[0] == "fetch" and not frame[3]:
        level = int(frame[1])
        for card in s.lair:
            if MONSTER_BY_KIND[kind_of(card)].level == level:
                i = s.lair.index(card)
                s.lair = s.lair[:i] + s.lair[i + 1:]
                say(s, f"from the lair: {display(card)}")
                pop(s)
                appear(s, card, int(frame[2]))
                return True
    if frame[0] == "draw" and s.chars[s.active].cell < 0:
        pop(s)
        return True
    if s.orange.hidden:
        return False
    if s.orange.tail:
        card, s.orange = s.orange.take_tail()
        (_found if frame[0] == "draw" else _fetched)(s, frame, card)
        return True
    if frame[0] == "fetch":
        aside = tuple(frame[3])
        if aside:
            s.orange = s.orange.to_tail(*aside)
        say(s, "the orange deck is empty: no monster appears")
    else:
        say(s, "the orange deck is empty")
    pop(s)
    return True


def _found(s: KardsState, frame: Frame, card: str) -> None:
    """An orange card drawn by exploration or search, resolved on the drawer's card (§4.6)."""
    pop(s)
    i = s.active
    c = s.chars[i]
    cat = category(card)
    say(s, f"{display(c.card)} draws {display(card)}")
    if cat == "monster":
        appear(s, card, c.cell)
    elif cat == "trap":
        s.orange = s.orange.to_tail(card)
        combat.lose_life(s, i, TRAP_BY_KIND[kind_of(card)].loss, display(card))
    elif cat == "item":
        set_char(s, i, c.replace(carried=(*c.carried, Item(card, ITEM_USES, s.turn))))
    elif cat == "stone":
        set_char(s, i, c.replace(stones=(*c.stones, card)))
        if stone_uses(s, card, window=True):
            push(s, ("keep", card))
    elif cat == "character":
        join(s, card, c.cell)


def _fetched(s: KardsState, frame: Frame, card: str) -> None:
    """One card revealed while searching for a level-L monster (§4.7, ruling 25)."""
    level, cell, aside = int(frame[1]), int(frame[2]), tuple(frame[3])
    cat = category(card)
    say(s, f"revealed while searching: {display(card)}")
    if cat == "monster" and MONSTER_BY_KIND[kind_of(card)].level == level:
        pop(s)
        if aside:
            s.orange = s.orange.to_tail(*aside)
        appear(s, card, cell)
        return
    active = s.chars[s.active] if s.active >= 0 else None
    if card == s.pack.portal_stone and active is not None and active.cell >= 0:
        set_char(s, s.active, active.replace(stones=(*active.stones, card)))
        say(s, f"{display(active.card)} takes the Portal Stone")
    elif cat == "character" and active is not None and active.cell >= 0:
        join(s, card, active.cell)
    else:
        aside = (*aside, card)
    replace(s, ("fetch", level, cell, aside))


# ---------------------------------------------------------------------- dice


def _appear_roll(s: KardsState, frame: Frame, face: int) -> None:
    cell = int(frame[1])
    say(s, f"appearance roll {face}"
        + {5: ": a level-1 monster", 6: ": a level-2 monster"}.get(face, ": nothing"))
    if face >= 5:
        replace(s, ("fetch", face - 4, cell, ()))
    else:
        pop(s)


def _escort_roll(s: KardsState, frame: Frame, face: int) -> None:
    level = 1 if face <= 3 else 2
    say(s, f"escort roll {face}: a level-{level} monster")
    replace(s, ("fetch", level, int(frame[1]), ()))


def _treasure_roll(s: KardsState, frame: Frame, face: int) -> None:
    say(s, f"treasure roll {face}" + (": a treasure card" if face >= 5 else ": nothing"))
    if face >= 5 and s.yellow:
        replace(s, ("yellow", frame[1]))
    else:
        pop(s)


def _event_roll(s: KardsState, frame: Frame, face: int) -> None:
    pop(s)
    apply_event(s, int(frame[1]), face)


def _subroll(s: KardsState, frame: Frame, face: int) -> None:
    at_least, loss = int(frame[1]), int(frame[2])
    pop(s)
    c = s.chars[s.active]
    if face >= at_least and c.cell >= 0:
        combat.lose_life(s, s.active, loss, f"the event's roll of {face}")
    else:
        say(s, f"the event's roll: {face}, nothing happens")


# ---------------------------------------------------------------------- thresholds


def _threshold(s: KardsState, frame: Frame) -> None:
    """After a placement: the event of a threshold reached, then (solo, programmed help) an
    ally offered (A-40); checked again after each, for cascades (§4.16)."""
    step = s.step_size
    if s.events and s.events_done < EVENT_LEVELS and s.revealed >= step * (s.events_done + 1):
        s.events_done += 1
        push(s, ("event", s.events_done))
        return
    if (s.mode == "solo" and s.solo_help == "programmed" and s.unused
            and s.revealed >= step * (s.help_done + 1)):
        s.help_done += 1
        push(s, ("recruit",))
        return
    pop(s)


def _to_tail(s: KardsState, frame: Frame) -> None:
    s.orange = s.orange.to_tail(str(frame[1]))
    pop(s)


_AUTO: Final = {
    "begin": _begin,
    "turn": _turn,
    "next": _next,
    "threshold": _threshold,
    "defeats": combat.resolve_defeats,
    "to_tail": _to_tail,
}
_PRE: Final[dict[str, Callable[[KardsState, Frame], bool]]] = {
    "explore": _pre_grey,
    "open": _pre_grey,
    "draw": _pre_orange,
    "fetch": _pre_orange,
    "strike": combat.strike_void,
}
_DICE: Final = {
    "appear": _appear_roll,
    "escort": _escort_roll,
    "treasure": _treasure_roll,
    "event": _event_roll,
    "subroll": _subroll,
}


def _pre_yellow(s: KardsState, frame: Frame) -> bool:
    if s.yellow:
        return False
    pop(s)
    return True


_PRE["yellow"] = _pre_yellow

