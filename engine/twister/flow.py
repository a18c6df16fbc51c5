"""The transitions of a Dungeon Twister state, applied to a fresh copy (never to a state anyone
else holds): decisions already checked, chance outcomes, openings, endings; the end-of-action
sequence (pits and scores are settled by the action itself; then victory, R22, and the end of
the turn when no AP is left) and the end of a turn (phase 3, R28, A28)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Outcome, Standing
from engine.twister.actions import Action
from engine.twister.board import CLOSED
from engine.twister.data import (
    ACTION_CARDS,
    KINDS,
    LINE_X,
    N_CHARACTERS,
    PER_SEAT,
    SIDE_NAME,
    START_YS,
    TARGET_VP,
    square,
    square_name,
    start_slot,
    token_id,
)
from engine.twister.phases import (
    ACTION,
    CARD,
    COMBAT,
    END_OPEN,
    FIRST,
    OPEN,
    OVER,
    PLACE,
    PLACER,
    PUT,
    REVEAL,
    TEAM,
    TEAM_OPEN,
)
from engine.twister.records import Ending, Reveal, Tok, _with
from engine.twister.rooms import ROOMS
from engine.twister.rules import (
    Result,
    participants,
    pay,
    resolve_ability,
    resolve_combat,
    rotate,
    run_move,
    spend_card,
)
from engine.twister.table import Table

if TYPE_CHECKING:
    from engine.twister.state import TwisterState

TOTAL_PLACED = 20


def apply_public(new: TwisterState, seat: int, action: Action) -> None:
    """Apply a checked public action to ``new`` (a fresh copy)."""
    phase = new.phase
    if phase == ACTION:
        _act(new, seat, action)
    elif phase == CARD:
        player = new.players[seat]
        hand = tuple(c for c in player.hand if c != action.n)
        new._set(players=_with(new.players, seat, player._replace(hand=hand)), ap=action.n,
                 highest=max(new.highest, action.n), phase=ACTION, acts=1,
                 last=(f"{SIDE_NAME[seat]} plays the action card {action.n}",))
    elif phase == PUT:
        _put(new, seat, action)
    elif phase == COMBAT:
        k = new.knowledge[seat]
        new._set(knowledge=_with(new.knowledge, seat, k._replace(card=action.n)))
        if all(k.card >= 0 for k in new.knowledge):
            _fight(new)
    elif phase == PLACE:
        slot = action.n
        player = new.players[seat]
        n = player.placed + 1
        facedown = _with(new.facedown, slot, (*new.facedown[slot], (seat, n)))
        new._set(players=_with(new.players, seat, player._replace(placed=n)), facedown=facedown,
                 last=(f"{SIDE_NAME[seat]} places a token face down on slot {slot}",))
        if sum(p.placed for p in new.players) == TOTAL_PLACED:
            new._set(phase=TEAM_OPEN)
    else:
        assert phase == TEAM
        k = new.knowledge[seat]
        new._set(knowledge=_with(new.knowledge, seat, k._replace(team=True)))
        if all(k.team for k in new.knowledge):
            new._set(teamed=True, phase=PLACER,
                     knowledge=tuple(k._replace(team=False) for k in new.knowledge),
                     last=("both starting teams are chosen",))


def _act(new: TwisterState, seat: int, action: Action) -> None:
    kind = action.kind
    if kind == "end":
        new._set(last=(f"{SIDE_NAME[seat]} ends the turn",))
        end_turn(new)
        return
    if kind in ("move", "jump"):
        reason, table = run_move(new, seat, action)
        assert not reason and table is not None, reason
        ap = _charge(new, table, action.who, 1)
        if table.tokens[action.who].at >= 0:
            table.log.insert(0, f"{token_id(action.who)} {kind}s to "
                                f"{square_name(table.tokens[action.who].at)}")
        table.pit_check()
        jumps = new.players[seat].jumps - (kind == "jump")
        _settle(new, Result(table, ap, jumps=jumps))
        return
    if kind == "reveal":
        table = _table(new)
        ap = pay(table, new.ap, action.who, 1)
        new._set(tokens=tuple(table.tokens), ap=ap, phase=REVEAL, reveal=Reveal(action.n),
                 last=(f"{token_id(action.who)} reveals slot {action.n}",))
        return
    if kind == "rotate":
        table = _table(new)
        ap = pay(table, new.ap, action.who, abs(action.m))
        rooms = rotate(table, new.rooms, action.n, action.m)
        placed = rooms[action.n]
        assert placed is not None
        sense = "clockwise" if action.m > 0 else "counter-clockwise"
        table.log.append(f"{token_id(action.who)} turns {placed[0]} (slot {action.n}) "
                         f"{abs(action.m)} quarter turn{'s' if abs(action.m) > 1 else ''} "
                         f"{sense}")
        _settle(new, Result(table, ap, rooms=rooms))
        return
    if kind == "attack":
        table = _table(new)
        ap = pay(table, new.ap, action.who, 1)
        new._set(tokens=tuple(table.tokens), ap=ap)
        fight = participants(new, action.who, action.m)
        new._set(phase=COMBAT, fight=fight,
                 last=(f"{token_id(action.who)} attacks {token_id(action.m)}",))
        return
    _settle(new, resolve_ability(new, action))


def _charge(new: TwisterState, table: Table, who: int, cost: int) -> int:
    """AP for an action whose table is already played: the actor's potion AP first (A25), read
    from the state before the action (an escaped actor has left the table)."""
    potion = new.tokens[who].potion
    from_potion = min(potion, cost)
    tok = table.tokens[who]
    if from_potion and tok.at >= 0:
        table.set(who, tok._replace(potion=potion - from_potion))
    return new.ap - (cost - from_potion)


def _table(new: TwisterState) -> Table:
    return Table(new.tokens, [p.vp for p in new.players], new.board, new.occupancy())


def _settle(new: TwisterState, result: Result) -> None:
    """Write an action's result into ``new``, then the end-of-action sequence."""
    table = result.table
    players = tuple(p._replace(vp=table.vp[s]) for s, p in enumerate(new.players))
    if result.jumps >= 0:
        players = _with(players, new.active, players[new.active]._replace(jumps=result.jumps))
    changes: dict[str, object] = {"tokens": tuple(table.tokens), "players": players,
                                  "ap": result.ap, "last": tuple(table.log)}
    if result.rooms is not None:
        changes["rooms"] = result.rooms
    if result.gates is not None:
        changes["gates"] = result.gates
    new._set(**changes)
    after_action(new)


def after_action(new: TwisterState) -> None:
    """The action is over: 5 VP ends the game (the active seat first if both, R22); otherwise
    the next action, or the end of the turn when no AP is left."""
    vp = [p.vp for p in new.players]
    if max(vp) >= TARGET_VP:
        winner = new.active if vp[new.active] >= TARGET_VP else new.active ^ 1
        begin_end(new, new.ending._replace(reason="vp", winner=winner))
        return
    new._set(phase=ACTION, acts=new.acts + 1, reveal=None, fight=None)
    if new.ap <= 0 and not any(
            t // PER_SEAT == new.active and tok.potion > 0 and tok.at >= 0 and tok.carrier < 0
            and not tok.wounded and not tok.healed for t, tok in enumerate(new.tokens)):
        end_turn(new)


def end_turn(new: TwisterState) -> None:
    """Phase 3 (recover the four action cards if none is left), the this-turn flags and potion
    AP expire (R28), then the next turn, or the end at the turn cap (A28)."""
    seat = new.active
    player = new.players[seat]
    players = new.players
    if not player.hand:
        players = _with(players, seat, player._replace(hand=ACTION_CARDS))
    tokens = tuple(tok._replace(hurt=False, healed=False, potion=0)
                   if tok.hurt or tok.healed or tok.potion else tok for tok in new.tokens)
    new._set(players=players, tokens=tokens, ap=0, reveal=None, fight=None)
    if new.turn_cap and new.turn >= new.turn_cap:
        begin_end(new, new.ending._replace(reason="cap"))
        return
    new._set(turn=new.turn + 1, active=seat ^ 1, phase=CARD, acts=0)


def _put(new: TwisterState, seat: int, action: Action) -> None:
    reveal = new.reveal
    assert reveal is not None
    t = action.who
    new._set(tokens=_with(new.tokens, t, Tok(at=action.n)),
             reveal=reveal._replace(mine=tuple(x for x in reveal.mine if x != t),
                                    theirs=tuple(x for x in reveal.theirs if x != t)),
             last=(f"{SIDE_NAME[seat]} puts {token_id(t)} on {square_name(action.n)}",))
    reveal = new.reveal
    assert reveal is not None
    if not reveal.mine and not reveal.theirs:
        after_action(new)


def _fight(new: TwisterState) -> None:
    fight = new.fight
    assert fight is not None
    cards = (new.knowledge[0].card, new.knowledge[1].card)
    table = resolve_combat(new, fight, cards)
    players = tuple(p._replace(combat=spend_card(p.combat, cards[s]))
                    for s, p in enumerate(new.players))
    new._set(players=players, knowledge=tuple(k._replace(card=-1) for k in new.knowledge))
    _settle(new, Result(table, new.ap))


# ---------------------------------------------------------------------- chance and openings


def resolve_chance(new: TwisterState, outcome: str) -> None:
    phase = new.phase
    if phase == PLACER:
        new._set(placer=int(outcome), phase=PLACE,
                 last=(f"{SIDE_NAME[int(outcome)]} places the first token",))
        return
    if phase == FIRST:
        new._set(active=int(outcome), turn=1, phase=CARD, acts=0,
                 last=(f"{SIDE_NAME[int(outcome)]} plays the first turn",))
        return
    assert phase == REVEAL and new.reveal is not None
    slot = new.reveal.slot
    room, o = outcome.split("/")
    rooms = _with(new.rooms, slot, (room, int(o)))
    gates = _with(new.gates, slot, (CLOSED,) * len(ROOMS[room].gates))
    new._set(rooms=rooms, gates=gates,
             last=(*new.last, f"slot {slot} is {room} {ROOMS[room].name}, turned {o}"))
    if new.facedown[slot]:
        new._set(phase=OPEN)
    else:
        after_action(new)


def record_openings(new: TwisterState, seat: int, values: tuple[tuple[str, str], ...]) -> None:
    """Checked openings become public; when every request is in, the phase goes on."""
    player = new.players[seat]
    done = {slot for slot, _ in values}
    k = new.knowledge[seat]
    new._set(players=_with(new.players, seat, player._replace(opened=player.opened + values)),
             knowledge=_with(new.knowledge, seat, k._replace(
                 sealed=tuple(kv for kv in k.sealed if kv[0] not in done))))
    if new._requests():
        return
    phase = new.phase
    if phase == TEAM_OPEN:
        tokens = list(new.tokens)
        for s in (0, 1):
            opened = new.opened(s)
            for y in START_YS:
                t = s * PER_SEAT + KINDS.index(opened[start_slot(s, y)])
                tokens[t] = Tok(at=square(LINE_X[s], y))
        new._set(tokens=tuple(tokens), phase=FIRST,
                 last=("both starting teams are turned face up",))
    elif phase == OPEN:
        reveal = new.reveal
        assert reveal is not None
        lifted = []
        for s, n in new.facedown[reveal.slot]:
            lifted.append(s * PER_SEAT + KINDS.index(new.opened(s)[f"tok.{s}.{n}"]))
        active = new.active
        theirs = tuple(t for t in lifted if t // PER_SEAT == active and t % PER_SEAT
                       >= N_CHARACTERS)
        mine = tuple(t for t in lifted if t not in theirs)
        new._set(facedown=_with(new.facedown, reveal.slot, ()), phase=PUT,
                 reveal=Reveal(reveal.slot, tuple(lifted), mine, theirs),
                 last=(*new.last, "lifted: " + ", ".join(token_id(t) for t in lifted)))
    else:
        finish(new)


def begin_end(new: TwisterState, ending: Ending) -> None:
    """The match ends: every token still sealed is opened (end_open), then the result."""
    knowledge = tuple(k._replace(team=False, card=-1) for k in new.knowledge)
    if not new.teamed:  # a team committed in an unfinished team step was never sealed
        knowledge = tuple(k._replace(sealed=tuple(kv for kv in k.sealed
                                                  if not kv[0].startswith("start.")))
                          for k in knowledge)
    new._set(ending=ending, phase=END_OPEN, reveal=None, fight=None, knowledge=knowledge)
    if not new._requests():
        finish(new)


def finish(new: TwisterState) -> None:
    """The result, once nothing sealed is owed: resigned and forfeited seats lose; otherwise a
    5-VP win, an agreed draw, or the turn cap (more VP wins, equal VP is a draw)."""
    e = new.ending
    vp = [p.vp for p in new.players]
    losers = set(e.resigned) | set(e.forfeited)
    if losers:
        winners = {0, 1} - losers
        parts = [f"{SIDE_NAME[s]} resigned" for s in e.resigned]
        parts += [f"{SIDE_NAME[s]} forfeited" for s in e.forfeited if s not in e.resigned]
        reason = " and ".join(parts)
        reason += f": {SIDE_NAME[min(winners)]} wins" if winners else ": nobody wins"
    elif e.reason == "draw":
        winners = set()
        reason = f"a draw by agreement at {vp[0]}-{vp[1]}"
    elif e.reason == "vp":
        winners = {e.winner}
        reason = f"{SIDE_NAME[e.winner]} wins with {vp[e.winner]} VP"
    else:
        if vp[0] == vp[1]:
            winners = set()
            reason = f"the turn cap ({new.turn_cap} turns): a draw at {vp[0]}-{vp[1]}"
        else:
            best = 0 if vp[0] > vp[1] else 1
            winners = {best}
            reason = (f"the turn cap ({new.turn_cap} turns): {SIDE_NAME[best]} wins "
                      f"{vp[best]}-{vp[best ^ 1]}")
    standings = []
    for s in (0, 1):
        if s in e.forfeited:
            status = "forfeited"
        elif s in e.resigned:
            status = "resigned"
        elif s in winners:
            status = "winner"
        elif not winners and not losers:
            status = "draw"
        else:
            status = "lost"
        standings.append(Standing(s, status, vp[s], 0, SIDE_NAME[s]))
    new._set(phase=OVER, outcome=Outcome(frozenset(winners), tuple(standings), reason))
