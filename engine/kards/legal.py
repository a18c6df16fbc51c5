"""Decisions: the legal actions of each decision frame, and what a decision does.

The legal actions are listed in a fixed order (the random bot and the zombie index into it):
the frame's own actions first (main actions in the order explore, move, search, attack,
ability, wait), then the free actions (stones in the order held, hops, services), then ``end``.
Every function that changes a state receives the fresh copy a transition is building.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engine.kards import combat
from engine.kards.actions import Action
from engine.kards.board import (
    any_available_exit,
    available_exits,
    component,
    direction,
    event_cells,
    explore_placements,
    follow,
    line_of_sight,
    move_destinations,
    portal,
)
from engine.kards.cards import (
    CHARACTER_BY_KIND,
    ITEM_BY_KIND,
    SIDES,
    STONE_BY_KIND,
    category,
    display,
    kind_of,
)
from engine.kards.edits import (
    explore_to,
    join,
    place_card,
    pop,
    push,
    replace,
    say,
    set_char,
    set_monster,
)
from engine.kards.records import Char, Effect, Monster, ap_of, stunned, with_effect

if TYPE_CHECKING:
    from engine.kards.state import Frame, KardsState

END: Final = Action("end")
WAIT: Final = Action("wait")
EXPLORE: Final = Action("explore")
SEARCH: Final = Action("search")
FALL: Final = Action("fall")
KEEP: Final = Action("keep")
EQUIP_DONE: Final = Action("equip", ("done",))
_TURN_FRAMES: Final = frozenset({"equip", "main", "end", "place", "keep", "mist", "attacks"})


def cell_name(s: KardsState, cell: int) -> str:
    return f"{cell % s.size},{cell // s.size}"


# ---------------------------------------------------------------------- skipping


def skip(s: KardsState, frame: Frame) -> bool:
    """Drop a decision frame that no longer applies (its character fell, saved itself, or has
    nothing left to do); True if the stack changed."""
    kind = frame[0]
    if kind in _TURN_FRAMES:
        c = s.chars[s.active]
        if s.turn_over or c.cell < 0:
            if kind == "end":
                replace(s, ("next",))
            else:
                if kind == "place":
                    s.grey_tail = (*s.grey_tail, str(frame[1]))
                pop(s)
            return True
        if kind == "attacks" and (int(frame[1]) <= 0 or not s.enemies_of(c)):
            pop(s)
            return True
        return False
    if kind == "save" and s.chars[s.active].cell < 0:
        pop(s)
        return True
    if kind == "choose" and s.chars[int(frame[1])].cell < 0:
        pop(s)
        return True
    if kind == "recruit" and (s.chars[0].cell < 0 or not s.unused):
        pop(s)
        return True
    return False


# ---------------------------------------------------------------------- legal actions


def frame_legal(s: KardsState, frame: Frame) -> tuple[Action, ...]:
    kind = frame[0]
    if kind == "pick":
        taken = {c.card for c in s.chars}
        return tuple(Action("pick", (c,)) for c in s.pack.characters if c not in taken)
    if kind == "gate":
        taken_cells = {c.start for c in s.chars}
        return tuple(Action("gate", (card,)) for card, cell in s.start_cells()
                     if cell not in taken_cells)
    if kind == "choose":
        c = s.chars[int(frame[1])]
        out = [Action("choose", ("life",))]
        if s.abilities and not c.charged:
            out.append(Action("choose", ("ability",)))
        return tuple(out)
    if kind == "recruit":
        return (*(Action("recruit", (c,)) for c in s.unused), Action("recruit", ("none",)))
    if kind == "cell":
        return tuple(Action("place", (cell_name(s, cell),))
                     for cell in event_cells(s.board, s.size, str(frame[1])))
    c = s.chars[s.active]
    if kind == "equip":
        return (*equip_actions(s, c, str(frame[1])), EQUIP_DONE)
    if kind == "main":
        return (*main_actions(s, c), *free_actions(s, c))
    if kind == "end":
        return (*free_actions(s, c), END)
    if kind == "place":
        return tuple(Action("place", (SIDES[d],))
                     for d in explore_placements(s.board, s.size, c.cell, str(frame[1])))
    if kind == "keep":
        return (*stone_uses(s, str(frame[1]), window=True), KEEP)
    if kind == "mist":
        return (Action("mist", ("double",)), Action("mist", ("single",)))
    if kind == "attacks":
        return (*attack_actions(s, c), *stone_actions(s, c))
    if kind == "save":
        return (Action("stone", (combat.resurrection_stone(c),)), FALL)
    raise AssertionError(f"no decision in frame {frame}")


def equip_actions(s: KardsState, c: Char, done: str) -> tuple[Action, ...]:
    out = []
    for item in c.carried:
        slot = ITEM_BY_KIND[kind_of(item.card)].slot
        if item.since < s.turn and slot[0] not in done:
            out.append(Action("equip", (item.card,)))
    return tuple(out)


def attack_targets(s: KardsState, c: Char) -> list[Char | Monster]:
    """Enemies on ``c``'s card it may attack: not the Boss while another monster shares its
    card (rulings 35, 36)."""
    enemies = s.enemies_of(c)
    guarded = sum(1 for e in enemies if isinstance(e, Monster)) > 1
    return [e for e in enemies if not (guarded and category(e.card) == "boss")]


def attack_actions(s: KardsState, c: Char) -> tuple[Action, ...]:
    return tuple(Action("attack", (e.card,)) for e in attack_targets(s, c))


def ability_actions(s: KardsState, c: Char) -> tuple[Action, ...]:
    if not s.abilities or not c.charged:
        return ()
    ability = CHARACTER_BY_KIND[kind_of(c.card)].ability
    if c.life <= ability.cost:
        return ()
    targets: list[str] = []
    if ability.kind in ("stun", "weaken"):
        targets.extend(m.card for m in s.monsters
                       if line_of_sight(s.board, s.size, c.cell, m.cell))
        if not s.campaign:
            targets.extend(o.card for o in s.chars if o.cell >= 0 and o.team != c.team
                           and line_of_sight(s.board, s.size, c.cell, o.cell))
    else:
        targets.extend(o.card for o in s.chars if o.cell >= 0
                       and (o.card == c.card or s.allied(c, o))
                       and line_of_sight(s.board, s.size, c.cell, o.cell))
    return tuple(Action("ability", (ability.id, t)) for t in targets)


def enemy_cells(s: KardsState, c: Char) -> set[int]:
    cells = {m.cell for m in s.monsters}
    if not s.campaign:
        cells |= {o.cell for o in s.chars if o.cell >= 0 and o.team != c.team}
    return cells


def move_actions(s: KardsState, c: Char) -> tuple[Action, ...]:
    found = move_destinations(s.board, s.size, c.cell, ap_of(c.card), enemy_cells(s, c))
    return tuple(Action("move", tuple(SIDES[d] for d in path)) for path in found.values())


def valve_open(s: KardsState, c: Char) -> bool:
    """Ruling 13 with A-22: the grey deck is empty, or no card reachable by walking has an
    available exit."""
    if not (s.grey or s.grey_tail):
        return True
    if available_exits(s.board, s.size, c.cell):
        return False
    return not any_available_exit(s.board, s.size, component(s.board, s.size, c.cell))


def main_actions(s: KardsState, c: Char) -> tuple[Action, ...]:
    if s.in_combat(c):
        if stunned(c):
            return (*ability_actions(s, c), WAIT)
        return (*attack_actions(s, c), *ability_actions(s, c))
    out: list[Action] = []
    if (s.grey or s.grey_tail) and available_exits(s.board, s.size, c.cell):
        out.append(EXPLORE)
    out.extend(move_actions(s, c))
    if valve_open(s, c):
        out.append(SEARCH)
    out.extend(ability_actions(s, c))
    if not out:  # (never with this pack: some Walk is always possible; see the docs)
        out.append(WAIT)
    return tuple(out)


def defeated_allies(s: KardsState, c: Char) -> list[Char]:
    return [o for o in s.chars if o.cell < 0 and not o.out and o.card and s.allied(c, o)]


def stone_uses(s: KardsState, card: str, *, window: bool = False) -> tuple[Action, ...]:
    """The ways the active character may use its stone ``card`` now (§4.12)."""
    c = s.chars[s.active]
    kind = STONE_BY_KIND[kind_of(card)].kind
    if kind == "portal":
        if s.in_combat(c):
            return ()
        return tuple(Action("stone", (card, dest)) for cell, dest in enumerate(s.board)
                     if dest and cell != c.cell and portal(dest))
    if kind == "resurrection":
        return tuple(Action("stone", (card, o.card)) for o in defeated_allies(s, c))
    return tuple(Action("stone", (card, o.card)) for o in s.chars
                 if o.cell == c.cell and (o.card == c.card or s.allied(c, o)))


def stone_actions(s: KardsState, c: Char) -> tuple[Action, ...]:
    out: list[Action] = []
    for card in c.stones:
        out.extend(stone_uses(s, card))
    return tuple(out)


def hop_actions(s: KardsState, c: Char) -> tuple[Action, ...]:
    here = portal(s.board[c.cell])
    if not here or s.in_combat(c):
        return ()
    if here == "Y" and not s.campaign:
        return ()  # Arena: black to yellow only (ruling 15)
    other = "B" if here == "Y" else "Y"
    pays = (("gold",) if c.gold >= 1 else ()) + (("life",) if c.life >= 2 else ())
    return tuple(Action("hop", (dest, pay)) for dest in s.board
                 if dest and portal(dest) == other for pay in pays)


def service_actions(s: KardsState, c: Char) -> tuple[Action, ...]:
    if portal(s.board[c.cell]) != "Y":
        return ()
    out: list[Action] = []
    if c.gold >= 5:
        out.extend(Action("service", ("resurrect", o.card)) for o in defeated_allies(s, c))
    if s.campaign and c.gold >= 2:
        out.append(Action("service", ("heal",)))
    if s.abilities and not c.charged and c.gold >= 6:
        out.append(Action("service", ("recharge",)))
    return tuple(out)


def free_actions(s: KardsState, c: Char) -> tuple[Action, ...]:
    return (*stone_actions(s, c), *hop_actions(s, c), *service_actions(s, c))


# ---------------------------------------------------------------------- deciding


def decide(s: KardsState, frame: Frame, action: Action) -> None:
    """Apply a decision (already checked legal) to the fresh state ``s``."""
    kind, verb, args = frame[0], action.verb, action.args
    if kind == "pick":
        _pick(s, frame, args[0])
    elif kind == "gate":
        _gate(s, frame, args[0])
    elif kind == "equip":
        if args[0] == "done":
            pop(s)
        else:
            replace(s, ("equip", str(frame[1]) + _equip(s, args[0])))
    elif kind in ("main", "end", "attacks") and verb in ("stone", "hop", "service"):
        _free(s, action)
    elif kind == "main":
        _main(s, action)
    elif kind == "end":
        replace(s, ("next",))
    elif kind == "place":
        explore_to(s, str(frame[1]), direction(args[0]))
    elif kind == "keep":
        pop(s)
        if verb == "stone":
            _free(s, action)
    elif kind == "mist":
        c = s.chars[s.active]
        set_char(s, s.active, c.replace(mist=False))
        count = ap_of(c.card) * (2 if args[0] == "double" else 1)
        say(s, f"{display(c.card)} uses its mist token: {count} attacks")
        replace(s, ("attacks", count - 1), ("strike", c.card, str(frame[1]), 0))
    elif kind == "attacks":
        c = s.chars[s.active]
        replace(s, ("attacks", int(frame[1]) - 1), ("strike", c.card, args[0], 0))
    elif kind == "save":
        pop(s)
        if verb == "stone":
            _self_save(s, args[0])
        else:
            below = s.stack[-1]
            s.stack = (*s.stack[:-1], (below[0], below[1], 1))
    elif kind == "choose":
        i = int(frame[1])
        pop(s)
        if args[0] == "life":
            combat.gain_life(s, i, int(frame[2]), "the event")
        else:
            set_char(s, i, s.chars[i].replace(charged=True))
            say(s, f"{display(s.chars[i].card)} recharges its ability")
    elif kind == "cell":
        x, y = (int(v) for v in args[0].split(","))
        pop(s)
        place_card(s, str(frame[1]), y * s.size + x)
        say(s, f"{frame[1]} placed at {args[0]} (revealed: {s.revealed})")
    elif kind == "recruit":
        pop(s)
        if args[0] != "none":
            s.unused = tuple(u for u in s.unused if u != args[0])
            join(s, args[0], s.chars[0].cell)
    else:
        raise AssertionError(f"no decision in frame {frame}")


def _pick(s: KardsState, frame: Frame, card: str) -> None:
    i = int(frame[1])
    seat = (s.first - 1 - i) % s.n
    data = CHARACTER_BY_KIND[kind_of(card)]
    set_char(s, seat, s.chars[seat].replace(card=card, life=data.life, budget=data.ap))
    say(s, f"seat {seat} takes the {display(card)}")
    if i + 1 < s.n:
        replace(s, ("pick", i + 1))
    else:
        replace(s, ("gate", 0) if s.mode == "arena" else ("begin",))


def _gate(s: KardsState, frame: Frame, card: str) -> None:
    i = int(frame[1])
    seat = (s.first - 1 - i) % s.n
    cell = s.cell_of_card(card)
    set_char(s, seat, s.chars[seat].replace(cell=cell, start=cell))
    say(s, f"seat {seat} starts on {display(card)}")
    replace(s, ("gate", i + 1) if i + 1 < s.n else ("begin",))


def _equip(s: KardsState, card: str) -> str:
    """Equip a carried item; the slot's old item goes back to the carried ones (ruling 9).
    Returns the slot's letter (one equip per slot per turn: "one of each", §4.2)."""
    c = s.chars[s.active]
    item = next(x for x in c.carried if x.card == card)
    slot = ITEM_BY_KIND[kind_of(card)].slot
    carried = [x for x in c.carried if x.card != card]
    old = c.weapon if slot == "weapon" else c.pet
    if old is not None:
        carried.append(old)
    c = c.replace(carried=tuple(carried), **{slot: item})
    set_char(s, s.active, c)
    say(s, f"{display(c.card)} equips {display(card)}")
    return slot[0]


def _main(s: KardsState, action: Action) -> None:
    c = s.chars[s.active]
    verb, args = action.verb, action.args
    name = display(c.card)
    if verb == "explore":
        say(s, f"{name} explores")
        replace(s, ("explore",))
    elif verb == "move":
        path = tuple(direction(a) for a in args)
        dest = follow(s.board, s.size, c.cell, path, enemy_cells(s, c))
        set_char(s, s.active, c.replace(cell=dest))
        say(s, f"{name} moves {' '.join(args)} to {cell_name(s, dest)}")
        replace(s, ("appear", dest))
    elif verb == "search":
        say(s, f"{name} searches")
        replace(s, ("draw", "search"))
    elif verb == "wait":
        say(s, f"{name} waits")
        pop(s)
    elif verb == "attack":
        say(s, f"{name} attacks")
        if c.mist:
            replace(s, ("mist", args[0]))
        else:
            replace(s, ("attacks", ap_of(c.card) - 1), ("strike", c.card, args[0], 0))
    elif verb == "ability":
        pop(s)
        _ability(s, args[1])
    else:
        raise AssertionError(f"no main action {action}")


def _ability(s: KardsState, target: str) -> None:
    """§4.9: pay the cost first, then the effect; the timer uses n now (ruling 29)."""
    c = s.chars[s.active]
    ability = CHARACTER_BY_KIND[kind_of(c.card)].ability
    c = c.replace(life=c.life - ability.cost, charged=False)
    set_char(s, s.active, c)
    n = len(s.in_play())
    say(s, f"{display(c.card)} uses {ability.name} on {display(target)} (cost "
        f"{ability.cost} life)")
    if ability.kind == "heal":
        combat.gain_life(s, s.char_index(target), ability.x, ability.name)
        return
    timer = ability.x * n if ability.kind == "stun" else 2 * n
    new = Effect(ability.kind, ability.x, timer, s.turn)
    i = s.char_index(target)
    if i >= 0:
        o = s.chars[i]
        set_char(s, i, o.replace(effects=with_effect(o.effects, new)))
    else:
        j = s.monster_index(target)
        m = s.monsters[j]
        set_monster(s, j, m.replace(effects=with_effect(m.effects, new)))
    say(s, f"{display(target)}: {ability.kind} {ability.x} for {timer} turns")


def _free(s: KardsState, action: Action) -> None:
    verb, args = action.verb, action.args
    if verb == "stone":
        use_stone(s, args[0], args[1])
    elif verb == "hop":
        c = s.chars[s.active]
        dest = s.cell_of_card(args[0])
        c = c.replace(gold=c.gold - 1) if args[1] == "gold" else c.replace(life=c.life - 1)
        set_char(s, s.active, c.replace(cell=dest))
        say(s, f"{display(c.card)} hops to {display(args[0])}, paying 1 {args[1]}")
    else:
        _service(s, args)


def _service(s: KardsState, args: tuple[str, ...]) -> None:
    c = s.chars[s.active]
    name = display(c.card)
    if args[0] == "resurrect":
        set_char(s, s.active, c.replace(gold=c.gold - 5))
        i = s.char_index(args[1])
        set_char(s, i, combat.restore(s.chars[i], keep=False))
        say(s, f"{name} pays 5 gold: {display(args[1])} is resurrected")
    elif args[0] == "heal":
        set_char(s, s.active, c.replace(gold=c.gold - 2))
        combat.gain_life(s, s.active, 99, "2 gold at a yellow portal")
    else:
        set_char(s, s.active, c.replace(gold=c.gold - 6, charged=True))
        say(s, f"{name} pays 6 gold to recharge its ability")


def use_stone(s: KardsState, card: str, target: str) -> None:
    """§4.12; the stone goes to the orange tail (after the Boss's escorts: A-30)."""
    c = s.chars[s.active]
    set_char(s, s.active, c.replace(stones=tuple(x for x in c.stones if x != card)))
    data = STONE_BY_KIND[kind_of(card)]
    name = display(c.card)
    if data.kind == "resurrection":
        i = s.char_index(target)
        set_char(s, i, combat.restore(s.chars[i], keep=False))
        say(s, f"{name} uses a Resurrection Stone: {display(target)} is back")
    elif data.kind == "restoration":
        combat.gain_life(s, s.char_index(target), data.value, display(card))
    else:
        cell = s.cell_of_card(target)
        set_char(s, s.active, s.chars[s.active].replace(cell=cell))
        say(s, f"{name} uses the Portal Stone to reach {display(target)}")
        if portal(target) == "B" and not s.boss_appeared:
            _boss(s, cell)
            return
    s.orange = s.orange.to_tail(card)


def _boss(s: KardsState, cell: int) -> None:
    """§4.14: the Boss appears; in co-op one escort per character in play, rolled in turn order
    from the stone user; the stone goes to the tail after them."""
    s.boss_appeared = True
    boss = s.pack.boss
    s.appeared = (*s.appeared, boss)
    s.monsters = (*s.monsters, Monster(boss, cell, 22, True, (), ap_of(boss)))
    say(s, f"the Gate Warden appears at {cell_name(s, cell)}")
    push(s, ("to_tail", s.pack.portal_stone))
    if s.mode == "coop":
        count = len(s.chars)
        order = [(s.active + k) % count for k in range(count)]
        escorts = [("escort", cell) for i in order if s.chars[i].cell >= 0]
        push(s, *escorts)


def _self_save(s: KardsState, card: str) -> None:
    """Ruling 18 with A-05: back at the starting point, full life, charged, no effects; the
    items and gold stay; the stone goes to the tail; the turn ends."""
    c = s.chars[s.active]
    c = combat.restore(c.replace(stones=tuple(x for x in c.stones if x != card)), keep=True)
    set_char(s, s.active, c)
    s.orange = s.orange.to_tail(card)
    s.turn_over = True
    say(s, f"{display(c.card)} saves itself with a Resurrection Stone")


# ---------------------------------------------------------------------- explanations


def why_illegal(s: KardsState, frame: Frame, action: Action) -> str:
    """A reason a player can read, for an action not legal in this decision."""
    legal = frame_legal(s, frame)
    verbs = sorted({a.verb for a in legal})
    kind = frame[0]
    allowed = f"now you may {', '.join(verbs)}"
    if kind == "main" and s.active >= 0:
        c = s.chars[s.active]
        combat_now = s.in_combat(c)
        if action.verb in ("explore", "move", "search") and combat_now:
            return "you are in combat (you cannot walk away from a fight); " + allowed
        if action.verb == "wait" and combat_now:
            return "in combat you may wait only while stunned; " + allowed
        if action.verb == "attack" and stunned(c):
            return "you are stunned; " + allowed
        if action.verb == "attack" and not combat_now:
            return "no enemy is on your card; " + allowed
        if action.verb == "explore":
            if not (s.grey or s.grey_tail):
                return "the grey deck is empty"
            return "your card has no available exit"
        if action.verb == "search":
            return "searching is only for when no card you can reach has an available exit " \
                   "or the grey deck is empty (ruling 13)"
        if action.verb == "move":
            return (f"no legal path: at most {ap_of(c.card)} steps through open sides and "
                    "doors, stopping at an enemy, and not back to where you started")
        if action.verb == "ability":
            if not s.abilities:
                return "abilities are off in this game"
            if not c.charged:
                return "your ability is spent (recharge it for 6 gold at a yellow portal)"
            return "no such target in line of sight, or its life cost would be too high"
    if action.verb == "attack" and kind in ("main", "attacks"):
        return "that is no enemy you may attack here (the Boss is guarded while another " \
               "monster shares its card); " + allowed
    if action.verb == "hop":
        return "a hop needs a portal, no fight, a destination of the other colour that the " \
               "mode allows, and 1 gold (or 2 life to pay 1); " + allowed
    if action.verb == "service":
        return "services need a yellow portal and the gold: resurrect 5, heal 2 (campaign), " \
               "recharge 6; " + allowed
    if action.verb == "stone":
        return "you hold no such stone, or it has no such use now; " + allowed
    if action.verb in verbs:
        return "not that one; " + allowed
    return allowed


# ---------------------------------------------------------------------- short forms


def normalize(s: KardsState, action: Action) -> Action:
    """A short form's canonical action (``move D23``, ``move E N``, ``pick mage`` with two
    copies, ``attack`` with one target, ``ability cleric``), or the action unchanged."""
    legal = frame_legal(s, s.stack[-1])
    verb, args = action.verb, action.args
    same = [a for a in legal if a.verb == verb]
    if verb == "move" and s.active >= 0:
        c = s.chars[s.active]
        dest = -1
        if all(direction(a) >= 0 for a in args):
            dest = follow(s.board, s.size, c.cell, tuple(direction(a) for a in args),
                          enemy_cells(s, c)) if len(args) <= ap_of(c.card) else -1
        elif len(args) == 1:
            dest = s.cell_of_card(args[0])
            if dest < 0 and "," in args[0]:
                x, y = (int(v) for v in args[0].split(","))
                dest = y * s.size + x if x < s.size and y < s.size else -1
        for a in same:
            if follow(s.board, s.size, c.cell, tuple(direction(d) for d in a.args),
                      enemy_cells(s, c)) == dest:
                return a
        return action
    if verb == "pick" and len(args) == 1:
        for a in same:
            if kind_of(a.args[0]) == kind_of(args[0]):
                return a
    if verb in ("attack", "ability") and len(same) == 1 and len(args) <= 1:
        if not args or same[0].args[-1] == args[0]:
            return same[0]
    if verb == "ability" and len(args) == 1:
        for a in same:
            if a.args[1] == args[0] or (a.args[0] == args[0] and len(same) == 1):
                return a
    if verb == "stone" and len(args) == 1:
        uses = [a for a in same if a.args[0] == args[0]]
        if len(uses) == 1:
            return uses[0]
    return action
