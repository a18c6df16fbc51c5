"""The immutable pieces a Paper Dungeons state is made of (named tuples: cheap, compared by
value), and the ids of its private deals and sealed slots."""

from __future__ import annotations

from enum import Enum
from typing import Final, NamedTuple

from engine.core import ChanceEvent, Visibility
from engine.paper.actions import Plan, SetupChoice
from engine.paper.data import OBJECTIVE_IDS, POWER_IDS, STORIES


class Phase(Enum):
    SETUP = "setup"
    CHOOSE = "choose"
    ROLL = "roll"
    PLAN = "plan"
    REWARD = "reward"
    OPEN = "open"
    OVER = "over"


class Options(NamedTuple):
    """The table's options (beyond the number of players)."""

    missions: bool = True  # False: the "no missions" variant
    missing_gems: bool = False  # the missing-gems variant (always on in solo play)
    story: str = "off"  # a story of §3.16, or "off"
    chapter: int = 1  # the story's chapter, 1..3

    @property
    def dungeon(self) -> str:
        """The dungeon card the story fixes ("" when it is drawn)."""
        return STORIES[self.story][self.chapter - 1] if self.story != "off" else ""


class Knowledge(NamedTuple):
    """One seat's private knowledge: the cards dealt to it, the index of its kept objective
    (its sealed value; -1 unknown), and its committed but unrevealed decision."""

    cards: tuple[tuple[str, str], ...] = ()  # (event id, card), sorted
    objective: int = -1
    pending: Plan | SetupChoice | None = None


NO_KNOWLEDGE: Final = Knowledge()
POWERS_DECK: Final = "powers"
OBJECTIVES_DECK: Final = "objectives"
SETUP_STEP: Final = "setup"

def deal_event(n: int, i: int) -> ChanceEvent:
    """The ``i``-th private deal of a game of ``n`` seats: every seat's two powers, then every
    seat's two objectives."""
    if i < 2 * n:
        seat, k = divmod(i, 2)
        return ChanceEvent(f"setup.power.{seat}.{k}", POWER_IDS, Visibility.PRIVATE, seat,
                           POWERS_DECK)
    seat, k = divmod(i - 2 * n, 2)
    return ChanceEvent(f"setup.objective.{seat}.{k}", OBJECTIVE_IDS, Visibility.PRIVATE, seat,
                       OBJECTIVES_DECK)


def parse_deal(event_id: str) -> tuple[str, int, int] | None:
    """("power" or "objective", seat, k) for a deal event id, else None."""
    parts = event_id.split(".")
    if (len(parts) != 4 or parts[0] != "setup" or parts[1] not in ("power", "objective")
            or not parts[2].isdigit() or parts[3] not in ("0", "1")):
        return None
    return parts[1], int(parts[2]), int(parts[3])


def objective_slot(seat: int) -> str:
    return f"objective.{seat}"
