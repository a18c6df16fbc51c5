"""Dungeon Raiders bots.  A bot reads only a seat's view; its choices come from a SHA-256 stream
keyed by the caller (never from ``random``), so every peer computes an absent seat's stand-in
identically.

* :class:`RandomBot` — uniform among the legal actions.
* :class:`HeuristicBot` — estimates each card's worth in the current room by sampling what the
  others can still play (their power cards left this level are public), resolving the room with
  the engine's own resolution, and charging for the cards it spends: chest splits, monster
  strength against what the others can add, vault benefits and the supply, trap exposure, and
  the value of high cards for the rooms still ahead in the level.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine import plugin
from engine.raiders.actions import PEEK, PLAY, Action
from engine.raiders.cards import CARDS, ROOMS_PER_LEVEL, Boss, Category
from engine.raiders.resolve import resolve_room
from engine.raiders.view import RaidersView
from engine.sim import LegalView
from engine.stream import HashStream, sample_index

_POWER = ("1", "2", "3", "4", "5")


class RandomBot:
    """Uniform among the legal actions."""

    name = "random"
    reads_view = False  # the driver may pass a LegalView (seat, step, legal) instead

    def choose(self, view: RaidersView | LegalView, key: bytes) -> Action:
        legal: tuple[Action, ...] = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no decision")
        return legal[sample_index(key, len(legal))]


class HeuristicBot:
    """Sampling bot (see the module docstring).  ``samples`` opponent plays per candidate."""

    name = "heuristic"

    def __init__(self, samples: int = 24, margin: float = 0.6,
                 mix: tuple[int, int] = (1, 3)) -> None:
        self.samples = samples
        self.margin = margin  # how far below the best a card may be and still be played
        self.mix_num, self.mix_den = mix  # how often such a card is played instead

    # ------------------------------------------------------------------ valuation

    @staticmethod
    def _wound_cost(view: RaidersView) -> float:
        me = view.seats[view.seat]
        others = [s.wounds for s in view.seats if s.seat != view.seat]
        top = max(others) if others else 0
        # Wounds matter most when they could make this seat the one who faints.
        if me.wounds + 2 >= top:
            return 2.2
        return 1.0

    @staticmethod
    def _card_cost(view: RaidersView, card: str) -> float:
        """What spending ``card`` now costs in the rooms still ahead."""
        rooms_after = ROOMS_PER_LEVEL - view.room
        if card in _POWER:
            v = int(card)
            # Later rooms of the level want high cards; the last room spends for free.
            return 0.55 * v * min(1.0, rooms_after / 2.5)
        if card in ("key", "sword"):
            return 1.6
        if card == "torch":
            return 0.9
        return 1.5  # crystal ball

    def _opponent_card(self, view: RaidersView, seat: int, stream: HashStream) -> str:
        sv = view.seats[seat]
        left = [c for c in _POWER if int(c) not in sv.used]
        return left[stream.below(len(left))] if left else "torch"

    def _gain(self, view: RaidersView, card_id: str, plays: Sequence[str],
              followups: Sequence[str]) -> float:
        r, _ = resolve_room(
            level=view.level, position=view.room, card_id=card_id, n_setup=view.players,
            plays=plays, followups=followups,
            coins=[s.coins for s in view.seats], wounds=[s.wounds for s in view.seats],
            supply=view.supply)
        me = view.seat
        gain = r.coin_delta[me] - self._wound_cost(view) * r.wound_delta[me]
        if r.gained[me]:
            gain += 1.4
        if r.eliminated[me]:
            gain -= 60.0
        return float(gain)

    # ------------------------------------------------------------------ choice

    def choose(self, view: RaidersView, key: bytes) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no decision")
        stream = HashStream(key)
        cards = [a for a in legal if a.kind == "play"]
        if PEEK in legal and self._wants_peek(view):
            return PEEK
        values = self._values(view, stream, cards)
        best: list[Action] = []
        best_value = float("-inf")
        for action, v in zip(cards, values, strict=True):
            if v > best_value + 1e-9:
                best, best_value = [action], v
            elif abs(v - best_value) <= 1e-9:
                best.append(action)
        if self.margin > 0:
            # Not always the best card: bots that all play their best card in the same
            # position play the same card (45% of rooms among four of them), which wastes a
            # shared chest and lets a person predict them.  One time in three (by default) a
            # card close to the best is played instead (docs/engine.md §11).  Exact arithmetic
            # on the values and the stream: every peer computes the same choice.
            near = [a for a, v in zip(cards, values, strict=True)
                    if a not in best and v >= best_value - self.margin - 1e-9]
            if near and stream.below(self.mix_den) < self.mix_num:
                return near[stream.below(len(near))]
        return best[stream.below(len(best))]

    def best_value(self, view: RaidersView, key: bytes) -> float:
        """What this seat expects from its best card in the current room (the valuation
        :meth:`choose` plays by; 0 with no card to play) — for analysis, never for play."""
        cards = [a for a in view.legal if a.kind == "play"]
        return max(self._values(view, HashStream(key), cards)) if cards else 0.0

    def _values(self, view: RaidersView, stream: HashStream,
                cards: Sequence[Action]) -> list[float]:
        """Each card's value: its average gain over sampled plays of the seats whose cards
        are unknown, less what spending it costs in the rooms ahead."""
        current = view.row[view.room - 1].card
        me = view.seat
        n = view.players
        follow_phase = view.phase == "followup"
        # Which seats' cards are still unknown?
        unknown = [s for s in range(n) if s != me and not (
            (view.seats[s].play and not follow_phase) or
            (follow_phase and view.seats[s].play != "crystal"))]
        if view.variant == "tactical":
            unknown = [s for s in range(n) if s != me and not view.seats[s].play]
            if follow_phase:
                unknown = [s for s in range(n) if s != me and view.seats[s].play == "crystal"
                           and not view.seats[s].followup]
        samples = max(1, self.samples if unknown else 1)
        scenarios: list[list[str]] = []
        for _ in range(samples):
            plays = [view.seats[s].play for s in range(n)]
            follow = [view.seats[s].followup for s in range(n)]
            for s in unknown:
                c = self._opponent_card(view, s, stream)
                if follow_phase:
                    follow[s] = c
                else:
                    plays[s] = c
                    follow[s] = ""
            scenarios.append(plays + follow)

        def value_of(card: str) -> float:
            total = 0.0
            for sc in scenarios:
                plays, follow = list(sc[:n]), list(sc[n:])
                if follow_phase:
                    follow[me] = card
                else:
                    plays[me] = card
                    follow[me] = ""
                if card == "crystal":
                    total += self._best_followup(view, current, plays, follow)
                else:
                    total += self._gain(view, current, plays, follow)
            return total / len(scenarios) - self._card_cost(view, card)

        return [value_of(action.card) for action in cards]

    def _best_followup(self, view: RaidersView, current: str, plays: list[str],
                       follow: list[str]) -> float:
        data = CARDS[current].data
        if isinstance(data, Boss) and data.escape == "crystal":
            return self._gain(view, current, plays, follow)
        me = view.seat
        hand = [c for c in view.hand if c != "crystal"]
        options = set()
        category = CARDS[current].category
        for c in hand:
            if c == "key" and not (category is Category.TREASURE or (
                    isinstance(data, Boss) and data.escape == "key")):
                continue
            if c == "sword" and category not in (Category.MONSTER, Category.BOSS):
                continue
            options.add(c)
        best = float("-inf")
        for c in sorted(options):
            f = list(follow)
            f[me] = c
            best = max(best, self._gain(view, current, plays, f) - self._card_cost(view, c))
        return best if options else 0.0

    @staticmethod
    def _wants_peek(view: RaidersView) -> bool:
        down = [r for r in view.row if r.state == "down"]
        unseen = [r for r in down if not r.peeked]
        if len(unseen) < 2:
            return False
        torches = view.items[0]
        return torches >= 2 or (torches == 1 and view.level < 5 and view.room <= 2)


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def zombie_bot() -> HeuristicBot:
    """The policy every peer computes for a replaced seat (engine version ``raiders/1``): the
    heuristic that always plays its best card.  Pinned, so a match file keeps verifying when
    the bots that play for people change."""
    return HeuristicBot(margin=0.0, mix=(0, 1))


def make_bot(name: str) -> RandomBot | HeuristicBot:
    """A new bot of the kind called ``name`` in :data:`BOTS`; ValueError naming the known ones."""
    bots: Mapping[str, Callable[[], RandomBot | HeuristicBot]] = BOTS
    return plugin.make_bot(bots, name)


__all__ = ["BOTS", "PLAY", "HeuristicBot", "RandomBot", "make_bot", "zombie_bot"]
