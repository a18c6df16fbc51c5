"""Final scoring of Dungeon Raiders (rules reference §3.5 with rulings 15–17), and the ranking of
a seat that forfeited (docs/rules/raiders.md, "Forfeits")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.core import Outcome, Standing

if TYPE_CHECKING:
    from engine.raiders.records import Player


def score(n: int, players: Sequence[Player], forfeited: int = 0) -> Outcome:
    """The outcome: among the survivors, those with the most wounds faint (unless all are
    equal, or with three players more than one is at the top); the most coins win, fewer
    wounds breaking a tie.  A seat that forfeited (bit s of ``forfeited``) is scored as it
    stands but cannot win: it is left out of the contenders before anything else, so the
    others are ranked as if it were not there."""
    out = {s for s in range(n) if forfeited >> s & 1}
    survivors = [s for s, p in enumerate(players) if not p.eliminated and s not in out]
    fainted: set[int] = set()
    if survivors:
        top = max(players[s].wounds for s in survivors)
        at_top = [s for s in survivors if players[s].wounds == top]
        if len(at_top) < len(survivors):  # the all-equal exception looks at survivors only
            if n >= 4 or len(at_top) == 1:
                fainted = set(at_top)
    contenders = [s for s in survivors if s not in fainted]
    winners: frozenset[int] = frozenset()
    if contenders:
        best = max((players[s].coins, -players[s].wounds) for s in contenders)
        winners = frozenset(s for s in contenders
                            if (players[s].coins, -players[s].wounds) == best)
    standings = []
    for s, p in enumerate(players):
        if s in out:
            status = "forfeited"
        elif p.eliminated:
            status = "eliminated"
        elif s in fainted:
            status = "fainted"
        elif s in winners:
            status = "winner"
        else:
            status = "lost"
        standings.append(Standing(s, status, p.coins, -p.wounds,
                                  f"{p.coins} coins, {p.wounds} wounds"))
    if not winners:
        reason = ("the Medusa eliminated everyone: nobody wins" if not any(
            not p.eliminated for p in players) else "nobody is left to win")
    elif len(winners) > 1:
        reason = "shared win: " + ", ".join(f"seat {s}" for s in sorted(winners))
    else:
        (w,) = winners
        reason = f"seat {w} wins with {players[w].coins} coins"
    return Outcome(winners, tuple(standings), reason)
