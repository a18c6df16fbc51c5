"""Golden playthroughs of Dungeon Raiders (in the spirit of OpenSpiel's playthroughs/*.txt).

Each file records one fixed-seed game of RandomBots played through :func:`engine.sim.play_out`:
for every state, what it waits for, each seat's view (compact JSON, one line per seat) and the
legal actions of the seats to move.  The latest room resolution is written once, when it
changes, instead of inside every view.

Regenerate after an intended change of the engine, the views, the bots or the dealer::

    python -m tests.engine.regen_golden

and review the diff before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.core import Chance, Over, Simultaneous, Turn
from engine.raiders import format_action, new_game
from engine.raiders.bots import RandomBot
from engine.sim import Dealer, play_out

GOLDEN_DIR = Path(__file__).parent / "golden"

# (file name, players, variant, dealer seed)
GAMES: tuple[tuple[str, int, str, bytes], ...] = (
    ("raiders-3p-basic.txt", 3, "basic", b"cryptcrawl/golden/raiders-3p-basic"),
    ("raiders-4p-tactical.txt", 4, "tactical", b"cryptcrawl/golden/raiders-4p-tactical"),
)


def _compact(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _describe(waiting: Any, dealer: Dealer) -> str:
    if isinstance(waiting, Chance):
        event = waiting.event
        return (f"chance {event.id} {event.visibility.value} {len(event.outcomes)} outcomes"
                f" -> {dealer.choose(event)}")
    if isinstance(waiting, Simultaneous):
        return (f"simultaneous {waiting.step} seats {sorted(waiting.seats)}"
                f" committed {sorted(waiting.committed)}")
    if isinstance(waiting, Turn):
        return f"turn {waiting.step} seat {waiting.seat}"
    assert isinstance(waiting, Over)
    outcome = waiting.outcome
    return f"over winners {sorted(outcome.winners)}: {outcome.reason}"


def render(players: int, variant: str, seed: bytes) -> str:
    """The golden text of one game."""
    dealer = Dealer(seed)
    lines = [
        "# Dungeon Raiders golden playthrough (regenerate: python -m tests.engine.regen_golden)",
        f"# players {players}, variant {variant}, dealer seed {seed.decode()}, bots random",
    ]
    count = 0
    last_seen: Any = None

    def on_state(state: Any) -> None:
        nonlocal count, last_seen
        lines.append("")
        lines.append(f"## state {count}  digest {state.digest().hex()[:16]}")
        count += 1
        last = state.to_position(private=False)["last"]
        if last != last_seen:
            lines.append(f"resolved: {_compact(last)}")
            last_seen = last
        w = state.waiting
        lines.append(f"waiting: {_describe(w, dealer)}")
        for seat in range(players):
            view = state.view(seat).to_json()
            view.pop("last")
            lines.append(f"view {seat}: {_compact(view)}")
        if isinstance(w, Simultaneous | Turn):
            for seat in sorted(w.pending):
                legal = ", ".join(format_action(a) for a in state.legal_actions(seat))
                lines.append(f"legal {seat}: {legal}")

    bots = [RandomBot() for _ in range(players)]
    run = play_out(new_game(players, variant), bots, dealer, on_state=on_state)
    lines.append("")
    lines.append(f"# {count} states, {len(run.history)} history entries, final digest "
                 f"{run.state.digest().hex()}")
    return "\n".join(lines) + "\n"


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, players, variant, seed in GAMES:
        text = render(players, variant, seed)
        path = GOLDEN_DIR / name
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({len(text.encode()) // 1024} KB)")


if __name__ == "__main__":
    main()
