"""Combat (§4.8), defeat (§4.10) and the end of the game (§4.15).

Every function receives the fresh state copy a transition is building and changes only it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engine.core import Outcome, Standing
from engine.kards.cards import ITEM_BY_KIND, category, display, kind_of
from engine.kards.edits import pop, push, say, set_char, set_monster
from engine.kards.records import (
    Char,
    Item,
    Monster,
    ap_of,
    attributes,
    max_life,
    stunned,
)

if TYPE_CHECKING:
    from engine.kards.state import Frame, KardsState

_ATK_DMG: Final = {k: (i.attack > 0 or i.damage > 0) for k, i in ITEM_BY_KIND.items()}
_DEF: Final = {k: i.defence > 0 for k, i in ITEM_BY_KIND.items()}


# ---------------------------------------------------------------------- life


def lose_life(s: KardsState, i: int, amount: int, why: str) -> None:
    """Character ``i`` loses ``amount`` life (down to 0); a defeat is then resolved."""
    c = s.chars[i]
    life = max(0, c.life - amount)
    set_char(s, i, c.replace(life=life))
    say(s, f"{display(c.card)} loses {amount} life ({why}): {c.life} → {life}")
    if life == 0:
        push(s, ("defeats", "", 0))


def gain_life(s: KardsState, i: int, amount: int, why: str) -> None:
    c = s.chars[i]
    life = min(max_life(c.card), c.life + amount)
    set_char(s, i, c.replace(life=life))
    say(s, f"{display(c.card)} recovers {life - c.life} life ({why}): {c.life} → {life}")


# ---------------------------------------------------------------------- a roll


def strike_void(s: KardsState, frame: Frame) -> bool:
    """A strike whose roller or target left the card (a resignation) is dropped."""
    roller, target = s.figure(str(frame[1])), s.figure(str(frame[2]))
    if (roller is None or target is None or roller.cell < 0 or roller.cell != target.cell
            or roller.life <= 0 or target.life <= 0):
        pop(s)
        return True
    return False


def _spend(fig: Char | Monster, as_roller: bool) -> tuple[Char | Monster, list[str]]:
    """Spend the uses a roll touches on ``fig`` (§4.11, ruling 41): its ATK/DMG items when
    it rolls, its DEF items when it is rolled against.  Returns the figure and the items that
    reached 0 (weapon, then pet: A-03)."""
    if not isinstance(fig, Char):
        return fig, []
    spent: list[str] = []
    slots: dict[str, Item | None] = {}
    for slot in ("weapon", "pet"):
        held: Item | None = getattr(fig, slot)
        if held is None:
            continue
        kind = kind_of(held.card)
        if (_ATK_DMG[kind] if as_roller else _DEF[kind]):
            used = held._replace(uses=held.uses - 1)
            if used.uses <= 0:
                spent.append(used.card)
                slots[slot] = None
            else:
                slots[slot] = used
    return (fig.replace(**slots) if slots else fig), spent


def _store(s: KardsState, fig: Char | Monster) -> None:
    if isinstance(fig, Char):
        set_char(s, s.char_index(fig.card), fig)
    else:
        set_monster(s, s.monster_index(fig.card), fig)


def resolve_strike(s: KardsState, frame: Frame, outcome: str) -> None:
    """One attack or counter-attack roll (§4.8 steps 2–5, rulings 1–4, A-01, A-02, A-09).  A
    hit deals the roller's DMG as it stands (the rulebook: weaken lowers it, down to 0; the
    reference's floor of 1, ruling 5 and A-13, is set aside: docs/rules/kards.md §7)."""
    counter = bool(frame[3])
    roller = s.figure(str(frame[1]))
    target = s.figure(str(frame[2]))
    assert roller is not None and target is not None
    a, b = (int(x) for x in outcome.split("+"))
    atk, _, dmg = attributes(roller)
    _, dfn, _ = attributes(target)
    total = a + b + atk
    hit = total > dfn
    damage = max(0, dmg) if hit else 0  # the rulebook: DMG, weakened (never below 0)
    roller, spent_r = _spend(roller, True)
    target, spent_t = _spend(target, False)
    life = max(0, target.life - damage)
    target = target.replace(life=life)
    _store(s, roller)
    _store(s, target)
    verb = "counter-attacks" if counter else "attacks"
    say(s, f"{display(roller.card)} {verb} {display(target.card)}: {a}+{b}+{atk} = {total} "
        + (f"> {dfn}, a hit for {damage}: {target.life + damage} → {life}" if hit
           else f"≤ {dfn}, a miss"))
    spent = spent_r + spent_t
    if spent:
        s.orange = s.orange.to_tail(*spent)
        say(s, "used up, to the orange tail: " + ", ".join(display(c) for c in spent))
    pop(s)
    if life == 0:
        if isinstance(target, Monster):
            monster_defeated(s, target, roller)
        else:
            push(s, ("defeats", roller.card, 0))
        return
    if not counter and can_counter(s, target):
        if s.counter_budget:
            _store(s, target.replace(budget=target.budget - 1))
        push(s, ("strike", target.card, roller.card, 1))


def can_counter(s: KardsState, fig: Char | Monster) -> bool:
    """A surviving target counter-attacks unless stunned, or (option ``counter_budget``) out
    of budget (ruling 2, A-01)."""
    if stunned(fig):
        return False
    return not s.counter_budget or fig.budget > 0


def monster_defeated(s: KardsState, m: Monster, by: Char | Monster) -> None:
    """§4.10: a monster goes to the back of the lair (treasure roll at its first defeat); the
    Boss's defeat ends the game."""
    set_monster(s, s.monster_index(m.card), None)
    say(s, f"{display(m.card)} is defeated")
    if category(m.card) == "boss":
        assert isinstance(by, Char)
        boss_result(s, by)
        return
    s.lair = (*s.lair, m.card)
    if m.card not in s.treasured and isinstance(by, Char):
        s.treasured = (*s.treasured, m.card)
        push(s, ("treasure", by.card))


# ---------------------------------------------------------------------- defeat


def resolve_defeats(s: KardsState, frame: Frame) -> None:
    """Characters at 0 life are defeated together (ruling 42), after the active character's
    chance to save itself (ruling 18, A-05); then the monster that defeated a character leaves
    the map (the rulebook: shuffled back on its first appearance, else as if defeated; the
    Boss stays), and the end conditions are checked once."""
    zeros = [i for i, c in enumerate(s.chars) if c.cell >= 0 and c.life <= 0]
    killer = str(frame[1])
    if not zeros:
        pop(s)
        return
    a = s.active
    if a in zeros and not frame[2] and resurrection_stone(s.chars[a]):
        push(s, ("save",))
        return
    pop(s)
    for i in zeros:
        defeat(s, i, killer)
    k = s.monster_index(killer)
    if k >= 0:
        m = s.monsters[k]
        if category(m.card) != "boss":
            set_monster(s, k, None)
            if m.first:
                s.orange = s.orange.shuffle_back(m.card)
                say(s, f"{display(m.card)} leaves the map, shuffled back into the orange deck")
            else:
                s.lair = (*s.lair, m.card)
                say(s, f"{display(m.card)} leaves the map for the lair")
    check_end(s)


def resurrection_stone(c: Char) -> str:
    for card in c.stones:
        if kind_of(card).startswith("resurrection"):
            return card
    return ""


def defeat(s: KardsState, i: int, killer: str) -> None:
    """Character ``i`` leaves the map (§4.10, rulings 21, 23, A-04): an opponent character
    that defeated it takes its items and gold; otherwise its items are shuffled back into the
    orange deck and its gold leaves the game."""
    c = s.chars[i]
    held = [x for x in (c.weapon, c.pet) if x is not None] + list(c.carried)
    k = s.char_index(killer)
    if k >= 0 and s.chars[k].team != c.team and s.mode == "arena":
        taker = s.chars[k]
        got = tuple(Item(x.card, x.uses, s.turn) for x in held)
        set_char(s, k, taker.replace(carried=(*taker.carried, *got),
                                     stones=(*taker.stones, *c.stones),
                                     gold=taker.gold + c.gold))
        say(s, f"{display(c.card)} is defeated by {display(killer)}, who takes "
            + (", ".join(display(x) for x in [*(h.card for h in held), *c.stones])
               or "no items") + f" and {c.gold} gold")
    else:
        for item in held:
            s.orange = s.orange.shuffle_back(item.card)
        for stone in c.stones:
            s.orange = s.orange.shuffle_back(stone, bottom=stone == s.pack.portal_stone)
        say(s, f"{display(c.card)} is defeated"
            + (f"; {', '.join(display(x.card) for x in held)} shuffled back" if held else "")
            + (f"; {', '.join(display(x) for x in c.stones)} shuffled back" if c.stones
               else "") + (f"; {c.gold} gold lost" if c.gold else ""))
    set_char(s, i, c.replace(life=0, cell=-1, weapon=None, pet=None, carried=(), stones=(),
                             gold=0, effects=(), mist=False))
    if i == s.active:
        s.turn_over = True


def restore(c: Char, *, keep: bool) -> Char:
    """A resurrection (§4.12, ruling 19) or a self-save (A-05): full life at the starting
    point, ability charged, no effects or mist token; ``keep``: with its items and gold."""
    c = c.replace(life=max_life(c.card), cell=c.start, charged=True, effects=(), mist=False,
                  budget=ap_of(c.card))
    if not keep:
        c = c.replace(weapon=None, pet=None, carried=(), stones=(), gold=0)
    return c


def remove_seat(s: KardsState, seat: int) -> None:
    """A resignation: the seat's characters leave for good (their items are shuffled back and
    their gold leaves the game); the end conditions are checked."""
    resigned = list(s.resigned)
    resigned[seat] = True
    s.resigned = tuple(resigned)
    say(s, f"seat {seat} resigns")
    if s.active < 0:  # set-up: its picks are made for it, and it leaves at the start
        return
    for i, c in enumerate(s.chars):
        if c.seat != seat:
            continue
        if c.cell >= 0:
            defeat(s, i, "")
        set_char(s, i, s.chars[i].replace(out=True, life=0, cell=-1))
        if i == s.active:
            s.turn_over = True
    check_end(s)


# ---------------------------------------------------------------------- the end


def check_end(s: KardsState) -> None:
    """§4.15, checked at once after any defeat."""
    if s.outcome is not None or s.active < 0:
        return
    playing = [c for c in s.chars if c.cell >= 0]
    if s.mode == "solo" and s.chars[0].cell < 0:
        finish(s, frozenset(), "the solo character is defeated: the game is lost", "lost")
    elif not playing:
        finish(s, frozenset(), "no character is left in play: everyone loses", "lost")
    elif s.mode == "arena":
        teams = {c.team for c in playing}
        if len(teams) == 1:
            last_standing(s, teams.pop())


def last_standing(s: KardsState, team: int) -> None:
    """Arena: ``team`` is the only one left — it wins."""
    finish(s, _team_seats(s, team), _team_name(s, team) + " is the last standing", "lost")


def _team_seats(s: KardsState, team: int) -> frozenset[int]:
    return frozenset(c.seat for c in s.chars if c.team == team and not s.resigned[c.seat])


def _team_name(s: KardsState, team: int) -> str:
    seats = sorted({c.seat for c in s.chars if c.team == team})
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "the team of seats " + ", ".join(map(str, seats))


def boss_result(s: KardsState, by: Char) -> None:
    if s.mode == "arena":
        finish(s, _team_seats(s, by.team),
               f"{display(by.card)} defeats the Gate Warden: {_team_name(s, by.team)} wins",
               "lost")
    else:
        finish(s, frozenset(range(s.n)) - {i for i in range(s.n) if s.resigned[i]},
               f"{display(by.card)} defeats the Gate Warden: the party wins", "lost")


def cap_result(s: KardsState) -> None:
    """The round cap (on by default, 40): Arena draws among the teams still in play; the
    campaign is lost."""
    if s.mode == "arena":
        draw_result(s, f"the round cap ({s.round_cap}) is reached")
    else:
        finish(s, frozenset(), f"the round cap ({s.round_cap}) is reached: the game is lost",
               "lost")


def draw_result(s: KardsState, why: str) -> None:
    teams = sorted({c.team for c in s.chars if c.cell >= 0})
    seats: frozenset[int] = frozenset()
    for t in teams:
        seats |= _team_seats(s, t)
    finish(s, seats, f"{why}: a draw among "
           + (", ".join(_team_name(s, t) for t in teams) or "nobody"), "lost",
           shared="drawn")


def finish(s: KardsState, winners: frozenset[int], reason: str, others: str, *,
           shared: str = "winner") -> None:
    standings = []
    for seat in range(s.n):
        mine = [c for c in s.chars if c.seat == seat and c.card]
        gold = sum(c.gold for c in mine)
        life = sum(c.life for c in mine if c.cell >= 0)
        if s.resigned[seat]:
            status = "resigned"
        elif seat in winners:
            status = shared
        else:
            status = others
        detail = "; ".join(f"{display(c.card)} " + (f"{c.life} life" if c.cell >= 0
                                                     else "defeated") + f", {c.gold} gold"
                           for c in mine)
        standings.append(Standing(seat, status, gold, life, detail))
    s.outcome = Outcome(winners, tuple(standings), reason)
    s.stack = ()
    say(s, "game over: " + reason)

