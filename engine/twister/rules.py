"""The actions of the action phase (rules §5, §6): each is checked by a function that returns why
it is illegal ("" if it is legal) and resolved by one that returns the changed tokens, scores and
whatever else it changes.  The state module sequences them (end-of-action checks, combat and
reveal steps, the end of the turn)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from engine.twister.actions import DROP, Action, taken
from engine.twister.board import BROKEN, CLOSED, FACE_DOWN, NEIGHBOURS, RAISED, Board
from engine.twister.data import (
    ARMOUR,
    CLERIC,
    LINE_SLOTS,
    LINE_X,
    MEKANORK,
    MOVE,
    N_CHARACTERS,
    PER_SEAT,
    POTION,
    POTION_AP,
    ROPE,
    SLOT_SQUARES,
    SLOTS,
    STRENGTH,
    SWORD,
    THIEF,
    TOKENS,
    TROLL,
    WALL_WALKER,
    WAND,
    WARRIOR,
    WIDTH,
    WIZARD,
    slot_of,
    square_name,
    token_id,
)
from engine.twister.records import REMOVED, Fight, Tok
from engine.twister.rooms import DIRS, GEAR, PIT, ROOMS, TWIN, WALL, ccw, cw
from engine.twister.table import Table, take_reason

if TYPE_CHECKING:
    from engine.twister.state import TwisterState

OPPOSITE: Final = (2, 3, 0, 1)


class Result(NamedTuple):
    """What a resolved action changed (None: unchanged)."""

    table: Table
    ap: int  # card AP left
    rooms: tuple[tuple[str, int] | None, ...] | None = None
    gates: tuple[tuple[int, ...], ...] | None = None
    jumps: int = -1  # the actor's seat's jump cards left (-1 unchanged)


def direction(a: int, b: int) -> int:
    """The direction from square a to the orthogonal neighbour b, or -1."""
    for d in range(4):
        if NEIGHBOURS[a * 4 + d] == b:
            return d
    return -1


def able(tok: Tok) -> bool:
    """A character that may act: on the board, carried by nobody, unwounded, not healed or
    regenerated this turn (§5, R10)."""
    return tok.at >= 0 and tok.carrier < 0 and not tok.wounded and not tok.healed


def ap_for(state: TwisterState, t: int) -> int:
    """The AP character ``t`` may spend: its potion AP, then the card's (A25)."""
    return state.ap + state.tokens[t].potion


def pay(table: Table, ap: int, t: int, cost: int) -> int:
    """Spend ``cost`` AP for ``t``: its potion AP first (A25).  Returns the card AP left."""
    tok = table.tokens[t]
    from_potion = min(tok.potion, cost)
    if from_potion:
        table.set(t, tok._replace(potion=tok.potion - from_potion))
    return ap - (cost - from_potion)


def _actor(state: TwisterState, seat: int, action: Action, cost: int = 1) -> str:
    who = action.who
    if not 0 <= who < TOKENS:
        return "name one of your characters"
    if who // PER_SEAT != seat or who % PER_SEAT >= N_CHARACTERS:
        return f"{token_id(who)} is not one of your characters"
    tok = state.tokens[who]
    if tok.at < 0:
        return f"{token_id(who)} is not on the board"
    if tok.carrier >= 0:
        return f"{token_id(who)} is being carried"
    if tok.wounded:
        return f"{token_id(who)} is wounded (wounded characters do not act)"
    if tok.healed:
        return f"{token_id(who)} was healed or regenerated this turn and may not act again (R10)"
    if ap_for(state, who) < cost:
        return f"not enough AP ({ap_for(state, who)} left for {token_id(who)}, {cost} needed)"
    return ""


# ====================================================================== moves and jumps


def run_move(state: TwisterState, seat: int, action: Action) -> tuple[str, Table | None]:
    """Check and play a Move or a Jump step by step (§5.3, §5.4, R16-R19, A1-A7, A11).
    Returns (why it is illegal, None) or ("", the table after it, before the pit check)."""
    reason = _actor(state, seat, action)
    if reason:
        return reason, None
    who = action.who
    jump = action.kind == "jump"
    if jump and state.players[seat].jumps <= 0:
        return "you have no jump card left", None
    table = Table(state.tokens, [p.vp for p in state.players], state.board, state.occupancy())
    board = table.board
    links = board.links
    tokens = table.tokens
    cur = tokens[who].at
    carrying = tokens[who].load
    steps = 0
    limit = 2 if jump else MOVE[who % PER_SEAT]
    goal_x = LINE_X[seat ^ 1]
    escaped = False
    touched: list[int] = []
    first_dir = -1
    path = action.path
    for item in path:
        if escaped:
            return "nothing may follow an escape (A1, A2)", None
        if item >= 0:
            steps += 1
            if steps > limit:
                return ("a jump is exactly two steps" if jump else
                        f"{token_id(who)} moves at most {limit} steps"), None
            d = direction(cur, item)
            if d < 0:
                return f"{square_name(item)} is not next to {square_name(cur)}", None
            if links[cur * 4 + d] != item:
                why = ("a face-down room" if board.kinds[item] == FACE_DOWN
                       else "a wall or a closed portcullis")
                return f"{why} blocks the way from {square_name(cur)} to {square_name(item)}", None
            if jump and steps == 1:
                if board.kinds[item] != PIT or table.here(item):
                    return "a jump goes first onto a connected pit with no token on it", None
                first_dir = d
            elif jump and steps == 2:
                if d == OPPOSITE[first_dir]:
                    return "a jump lands straight ahead or at a right angle, not back", None
            else:
                why = table.may_enter(who, item, carrying)
                if why:
                    return why, None
            table.put(who, item)
            cur = item
            if item % WIDTH == goal_x:
                escaped = True
            continue
        if jump and steps < 2:
            return "during a jump, tokens are handled only on the landing square (A11)", None
        if item == DROP:
            if carrying < 0:
                return f"{token_id(who)} carries nothing to drop", None
            if board.kinds[cur] == PIT and carrying % PER_SEAT != ROPE:
                return "only the Rope may be dropped on a pit (A7)", None
            table.drop_load(who)
            carrying = -1
            touched.append(cur)
            continue
        t = taken(item)
        if not 0 <= t < TOKENS:
            return "take names a token", None
        if carrying >= 0:
            return f"{token_id(who)} already carries {token_id(carrying)} (drop it first)", None
        why = _takeable(table, who, t, cur)
        if why:
            return why, None
        table.pick_up(who, t)
        carrying = t
        touched.append(cur)
    if jump and steps != 2:
        return "a jump is exactly two steps: onto a pit, then beyond it", None
    why = table.may_end(who, cur, carrying)
    if why:
        return why, None
    for sq in touched:
        if sq != cur and len(table.here(sq)) > 2:
            return f"{square_name(sq)} would hold more than two tokens (golden rule 2)", None
    if escaped:
        table.escape(who)
    return "", table


def _takeable(table: Table, who: int, t: int, cur: int) -> str:
    """Why ``who`` may not pick up ``t`` on ``cur`` ("" if it may: R18)."""
    if table.tokens[t].at != cur or t == who:
        return f"{token_id(t)} is not on {square_name(cur)}"
    return take_reason(table.tokens, who, t)


# ====================================================================== the other actions


def check_reveal(state: TwisterState, seat: int, action: Action) -> str:
    reason = _actor(state, seat, action)
    if reason:
        return reason
    slot = action.n
    if not 0 <= slot < SLOTS or state.rooms[slot] is not None:
        return f"slot {slot} is not face down"
    at = state.tokens[action.who].at
    if at % WIDTH == LINE_X[seat]:
        if slot in LINE_SLOTS[seat]:
            return ""  # A18: anywhere on its own line
        a, b = LINE_SLOTS[seat]
        return f"from your starting line you may reveal slot {a} or {b}"
    if not access(state.board, state.gates, at, slot):
        return f"{token_id(action.who)} has no direct access to slot {slot} (§5.1)"
    return ""


def access(board: Board, gates: tuple[tuple[int, ...], ...], at: int, slot: int) -> bool:
    """Direct access from a room square to a face-down slot: next to it, through a side of its
    own square that is no wall and no closed portcullis (§5.1)."""
    for d in range(4):
        other = NEIGHBOURS[at * 4 + d]
        if other < 0 or board.kinds[other] != FACE_DOWN or slot_of(other) != slot:
            continue
        code = board.sides[at * 4 + d]
        if code == WALL or (code >= 0 and gates[slot_of(at)][code] == CLOSED):
            continue
        return True
    return False


def check_rotate(state: TwisterState, seat: int, action: Action) -> str:
    quarters = abs(action.m)
    if not 1 <= quarters <= 3:
        return "a rotation is 1 to 3 quarter turns (A19)"
    reason = _actor(state, seat, action, quarters)
    if reason:
        return reason
    at = state.tokens[action.who].at
    board = state.board
    if board.kinds[at] != GEAR:
        return f"{token_id(action.who)} is not on a rotation gear"
    own = slot_of(at)
    target = action.n
    placed = state.rooms[own]
    assert placed is not None
    if not 0 <= target < SLOTS:
        return f"there is no slot {target}"
    other = state.rooms[target]
    if target != own and (other is None or other[0] != TWIN[placed[0]]):
        return f"slot {target} is neither this room nor its face-up twin ({TWIN[placed[0]]})"
    assert other is not None
    arrow = ROOMS[other[0]].turns
    if action.who % PER_SEAT != MEKANORK and (action.m > 0) != (arrow > 0):
        return (f"{other[0]} turns {'clockwise' if arrow > 0 else 'counter-clockwise'} "
                "(only the Mekanork chooses)")
    return ""


def rotate(table: Table, rooms: tuple[tuple[str, int] | None, ...], slot: int,
           quarters: int) -> tuple[tuple[str, int] | None, ...]:
    """Turn the room in ``slot`` by signed quarter turns: orientation and every token on it
    (R5).  Changes ``table`` and returns the new rooms."""
    placed = rooms[slot]
    assert placed is not None
    squares = SLOT_SQUARES[slot]
    moved: dict[int, int] = {}
    for local, sq in enumerate(squares):
        r, c = local // 5 + 1, local % 5 + 1
        for _ in range(abs(quarters)):
            r, c = cw(r, c) if quarters > 0 else ccw(r, c)
        moved[sq] = squares[(r - 1) * 5 + (c - 1)]
    standing = [(t, table.tokens[t].at) for sq in squares for t in table.here(sq)
                if table.tokens[t].carrier < 0]
    for t, _ in standing:
        table.put(t, -1)
    for t, sq in standing:
        table.put(t, moved[sq])
    out = list(rooms)
    out[slot] = (placed[0], (placed[1] + quarters) % 4)
    return tuple(out)


def check_target(state: TwisterState, seat: int, action: Action, *, heal: bool) -> str:
    reason = _actor(state, seat, action)
    if reason:
        return reason
    who, t = action.who, action.m
    if heal and who % PER_SEAT != CLERIC:
        return "only the Cleric heals"
    if not 0 <= t < TOKENS or t % PER_SEAT >= N_CHARACTERS:
        return "the target is a character"
    tok = state.tokens[t]
    if tok.at < 0:
        return f"{token_id(t)} is not on the board"
    if tok.carrier >= 0:
        return f"{token_id(t)} is carried (a carried character is never a target, A13)"
    at = state.tokens[who].at
    d = direction(at, tok.at)
    if d < 0 or state.board.links[at * 4 + d] != tok.at:
        return f"{token_id(t)} is not on an adjacent, connected square"
    if heal:
        if not tok.wounded:
            return f"{token_id(t)} is not wounded"
        table = state.occupancy()
        if any(u != t and u % PER_SEAT < N_CHARACTERS and state.tokens[u].carrier < 0
               and not state.tokens[u].wounded for u in table.get(tok.at, ())):
            return f"{token_id(t)} shares its square with an unwounded character (R25)"
        return ""
    if t // PER_SEAT == seat:
        return f"{token_id(t)} is on your side"
    if tok.hurt:
        return f"{token_id(t)} was wounded this turn and may not be attacked again"
    if tok.healed:
        return f"{token_id(t)} was healed or regenerated this turn (R10)"
    return ""


def participants(state: TwisterState, attacker: int, target: int) -> Fight:
    """The combat's participants: the attacker and the target, then every unwounded character
    next to and connected with a participant of the other side, not healed or regenerated
    this turn, until none is added (§5.5 step 2, R7, A15)."""
    tokens = state.tokens
    links = state.board.links
    side = attacker // PER_SEAT
    members = {attacker, target}
    candidates = [t for t in range(TOKENS) if t % PER_SEAT < N_CHARACTERS and able(tokens[t])]
    grew = True
    while grew:
        grew = False
        for c in candidates:
            if c in members:
                continue
            at = tokens[c].at
            near = {links[at * 4 + d] for d in range(4)} - {-1}
            if any(tokens[p].at in near and p // PER_SEAT != c // PER_SEAT for p in members):
                members.add(c)
                grew = True
    attackers = tuple(sorted(t for t in members if t // PER_SEAT == side))
    defenders = tuple(sorted(t for t in members if t // PER_SEAT != side))
    return Fight(attacker, target, attackers, defenders)


def strengths(state: TwisterState, fight: Fight) -> tuple[int, int]:
    """The two sides' totals before the cards (§5.5 step 4, R8, R9)."""
    tokens = state.tokens
    attack = 0
    for t in fight.attackers:
        attack += STRENGTH[t % PER_SEAT]
        load = tokens[t].load
        attack += load >= 0 and load % PER_SEAT == SWORD
    defence = 0
    for t in fight.defenders:
        defence += 0 if tokens[t].wounded else STRENGTH[t % PER_SEAT]
        load = tokens[t].load
        defence += load >= 0 and load % PER_SEAT == ARMOUR
    return attack, defence


def resolve_combat(state: TwisterState, fight: Fight, cards: tuple[int, int]) -> Table:
    """The cards are shown (``cards`` per seat): the higher total wins; each losing
    participant is wounded, or eliminated if it was wounded already, and a wounded character
    it carries dies (§5.5 step 5).  Then the pit check (R14)."""
    attack, defence = strengths(state, fight)
    side = fight.attacker // PER_SEAT
    attack += cards[side]
    defence += cards[side ^ 1]
    table = Table(state.tokens, [p.vp for p in state.players], state.board, state.occupancy())
    table.log.append(f"{token_id(fight.attacker)} attacks {token_id(fight.target)}: "
                     f"{attack} against {defence} (cards {cards[side]} and {cards[side ^ 1]})")
    if attack == defence:
        table.log.append("a tie: nothing happens")
    else:
        losers = fight.defenders if attack > defence else fight.attackers
        for t in losers:
            tok = table.tokens[t]
            if tok.at < 0:
                continue
            if tok.wounded:
                table.eliminate(t, "is killed")
                continue
            table.set(t, tok._replace(wounded=True, hurt=True))
            table.log.append(f"{token_id(t)} is wounded")
            load = tok.load
            if load >= 0 and load % PER_SEAT < N_CHARACTERS:
                table.eliminate(load, "dies in its carrier's arms")
    table.pit_check()
    return table


def check_ability(state: TwisterState, seat: int, action: Action) -> str:
    kind = action.kind
    if kind == "regenerate":
        return _check_regenerate(state, seat, action)
    reason = _actor(state, seat, action)
    if reason:
        return reason
    who = action.who
    at = state.tokens[who].at
    if kind == "drink":
        load = state.tokens[who].load
        if load < 0 or load % PER_SEAT != POTION:
            return f"{token_id(who)} carries no Speed Potion"
        return ""
    d = action.n
    if not 0 <= d < 4:
        return "name a direction: n, e, s or w"
    if kind in ("open", "close", "break"):
        need = {"open": THIEF, "close": THIEF, "break": WARRIOR}[kind]
        if who % PER_SEAT != need:
            return f"only the {'Thief' if need == THIEF else 'Warrior'} may {kind} a portcullis"
        code = state.board.sides[at * 4 + d]
        if code < 0:
            return f"there is no portcullis on the {DIRS[d]} side of {square_name(at)}"
        gate = state.gates[slot_of(at)][code]
        if kind == "open" and gate != CLOSED:
            return "that portcullis is not closed (A23)"
        if kind == "close" and gate != RAISED:
            return "that portcullis is not open (a broken one never closes, R27)"
        if kind == "break" and gate == BROKEN:
            return "that portcullis is broken already (A23)"
        return ""
    if kind == "pass":
        if who % PER_SEAT != WALL_WALKER:
            return "only the Wall-Walker passes walls"
        beyond = state.board.walls[at * 4 + d]
        if beyond < 0:
            return (f"no wall she may pass on the {DIRS[d]} side of {square_name(at)} "
                    "(not a portcullis, a face-down room or the edge, A21)")
        table = Table(state.tokens, [0, 0], state.board, state.occupancy())
        return table.may_end(who, beyond, state.tokens[who].load)
    assert kind == "fireball"
    if who % PER_SEAT != WIZARD:
        return "only the Wizard can use the Fireball Wand"
    load = state.tokens[who].load
    if load < 0 or load % PER_SEAT != WAND:
        return f"{token_id(who)} carries no Fireball Wand"
    victims = in_sight(state, at, d)
    if not victims:
        return f"no character is in sight to the {DIRS[d]} (R24)"
    if action.m not in victims:
        return f"the fireball hits {' or '.join(token_id(v) for v in victims)} (A14)"
    return ""


def _check_regenerate(state: TwisterState, seat: int, action: Action) -> str:
    who = action.who
    if not 0 <= who < TOKENS or who // PER_SEAT != seat or who % PER_SEAT != TROLL:
        return "only your own Troll regenerates"
    tok = state.tokens[who]
    if tok.at < 0:
        return f"{token_id(who)} is not on the board"
    if not tok.wounded:
        return f"{token_id(who)} is not wounded"
    if tok.hurt:
        return f"{token_id(who)} was wounded this turn (R11)"
    if tok.carrier >= 0:
        return f"{token_id(who)} is being carried (R11)"
    if any(u != who and u % PER_SEAT < N_CHARACTERS and state.tokens[u].carrier < 0
           and not state.tokens[u].wounded for u in state.occupancy().get(tok.at, ())):
        return f"{token_id(who)} shares its square with an unwounded character (R11)"
    if ap_for(state, who) < 1:
        return "no AP left"
    return ""


def in_sight(state: TwisterState, at: int, d: int) -> list[int]:
    """The characters nobody carries on the first square in direction ``d`` from ``at`` that
    holds any (§6.6, A14, A17); empty if the line stops first."""
    links = state.board.links
    occ = state.occupancy()
    tokens = state.tokens
    sq = links[at * 4 + d]
    while sq >= 0:
        found = [t for t in occ.get(sq, ()) if t % PER_SEAT < N_CHARACTERS
                 and tokens[t].carrier < 0]
        if found:
            return found
        sq = links[sq * 4 + d]
    return []


def resolve_ability(state: TwisterState, action: Action) -> Result:
    """Resolve a checked heal, regenerate, drink, open, close, break, pass or fireball."""
    who = action.who
    table = Table(state.tokens, [p.vp for p in state.players], state.board, state.occupancy())
    ap = pay(table, state.ap, who, 1)
    kind = action.kind
    gates = None
    if kind in ("heal", "regenerate"):
        t = action.m if kind == "heal" else who
        table.set(t, table.tokens[t]._replace(wounded=False, healed=True))
        table.log.append(f"{token_id(t)} is {'healed' if kind == 'heal' else 'regenerated'}")
    elif kind == "drink":
        tok = table.tokens[who]
        potion = tok.load
        table.set(who, tok._replace(load=-1, potion=tok.potion + POTION_AP))
        table.set(potion, Tok(at=REMOVED))
        table.occ[tok.at].remove(potion)
        table.log.append(f"{token_id(who)} drinks {token_id(potion)}: +{POTION_AP} AP")
    elif kind in ("open", "close", "break"):
        at = table.tokens[who].at
        slot = slot_of(at)
        code = state.board.sides[at * 4 + action.n]
        states = list(state.gates[slot])
        states[code] = {"open": RAISED, "close": CLOSED, "break": BROKEN}[kind]
        out = list(state.gates)
        out[slot] = tuple(states)
        gates = tuple(out)
        verb = {"open": "opens", "close": "closes", "break": "breaks"}[kind]
        table.log.append(f"{token_id(who)} {verb} the portcullis {DIRS[action.n]} of "
                         f"{square_name(at)}")
    elif kind == "pass":
        beyond = state.board.walls[table.tokens[who].at * 4 + action.n]
        table.put(who, beyond)
        table.log.append(f"{token_id(who)} passes the wall to {square_name(beyond)}")
        if beyond % WIDTH == LINE_X[who // PER_SEAT ^ 1]:
            table.escape(who)
    else:
        tok = table.tokens[who]
        wand = tok.load
        table.set(who, tok._replace(load=-1))
        table.set(wand, Tok(at=REMOVED))
        table.occ[tok.at].remove(wand)
        table.log.append(f"{token_id(who)} fires {token_id(wand)} {DIRS[action.n]}")
        table.eliminate(action.m, "is burnt by the fireball")
    table.pit_check()
    return Result(table, ap, gates=gates)



def spend_card(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The hand after a combat card is played: it leaves the game, except the 0 (§5.5 step 6)."""
    if card == 0:
        return hand
    out = list(hand)
    out.remove(card)
    return tuple(out)
