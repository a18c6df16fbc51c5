"""Games both builds of the engine must play alike: the pure Python one and the optional native
(mypyc) build, which compiles engine/stream.py, engine/sim.py and engine/raiders/ (setup.py).

``python -m tests.engine.builds`` prints, as JSON, which build is loaded and the final public
digest of every game in :data:`GAMES` played to its end by the offline dealer with each game's
zombie at every seat (pinned per engine version) and a random bot at seat 0; ``--write``
records them in ``golden/builds.json``.  tests/engine/test_builds.py compares a build with the
record, and the native build with a pure copy of the engine run beside it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import engine.raiders.state
from engine.games import get_game
from engine.sim import Dealer, play_out

RECORD = Path(__file__).parent / "golden" / "builds.json"

# (game, players, variant or "", dealer seeds)
GAMES: tuple[tuple[str, int, str, int], ...] = (
    ("raiders", 3, "basic", 6), ("raiders", 5, "tactical", 6), ("raiders", 4, "basic", 3),
    ("kards", 2, "", 2), ("kards", 4, "", 1),
    ("twister", 2, "", 1),
    ("paper", 1, "", 1), ("paper", 3, "", 1),
)


def native() -> bool:
    """Whether the compiled build of the engine is the one imported."""
    return not str(engine.raiders.state.__file__).endswith(".py")


def digests() -> dict[str, str]:
    """``game/players/variant/seed`` -> the final public digest (hex) of that game."""
    out: dict[str, str] = {}
    for game, players, variant, seeds in GAMES:
        spec = get_game(game)
        zombie = spec.zombie or spec.bots["heuristic"]
        for n in range(seeds):
            options: dict[str, Any] = {"players": players}
            if variant:
                options["variant"] = variant
            state = spec.new(**options)
            bots = [spec.bots["random"]()] + [zombie() for _ in range(players - 1)]
            seed = f"cryptcrawl/builds/{game}/{players}/{variant}/{n}".encode()
            run = play_out(state, bots, Dealer(seed), record=False)
            out[seed.decode().removeprefix("cryptcrawl/builds/")] = run.state.digest().hex()
    return out


def main(argv: list[str]) -> int:
    found = digests()
    if argv == ["--write"]:
        RECORD.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        return 0
    json.dump({"native": native(), "engine": str(Path(engine.raiders.state.__file__).parents[2]),
               "digests": found}, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
