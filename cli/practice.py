"""The record of an offline game (``cryptcrawl play --deal-seed TEXT --out FILE``).

An offline game has no match file: a local dealer seeded by the deal seed answers every chance
event, the bots are plain objects and nothing is signed.  Its record is a small JSON document —
the command's choices (game, options, seats, bot kind, both seeds), every move the person typed
in order, and the result — that says in so many words that it **proves nothing**: whoever holds
the seeds could have dealt any game, and could have written any moves.  ``cryptcrawl verify``
recognises it, plays the game again from it (the same dealer, the same bots, the person's moves
typed in order) and says whether it reaches the recorded result; either way the record is no
evidence of a game played fairly.  A solo game (one seat) is always of this kind: a match of one
seat would prove nothing either.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import Outcome
from engine.games import get_game

FORMAT = "cryptcrawl-offline/1"
PROVES = ("nothing: a local dealer seeded by deal_seed dealt every card and die and knew them "
          "all, the bots were plain objects, and nothing is signed")
EXIT_REPLAYED = 9
"""``cryptcrawl verify``'s status for an offline record that replays to its result (it is not a
match file and proves nothing; 1 if it does not replay, 3 if it cannot be read)."""


@dataclass(frozen=True)
class Replayed:
    """What playing a record again gave: whether it reached the recorded result, and the
    lines to say."""

    ok: bool
    lines: tuple[str, ...]


def record(options: Any, moves: Sequence[str], outcome: Outcome) -> dict[str, Any]:
    """The record of one offline game (``options``: its :class:`cli.play.GameOptions`)."""
    return {
        "format": FORMAT, "proves": PROVES, "game": options.game,
        "engine": get_game(options.game).engine_version, "players": options.players,
        "bots": options.bots, "bot_kind": options.bot_kind,
        "options": {k: v for k, v in options.options}, "bot_seed": options.bot_seed,
        "deal_seed": options.deal_seed, "name": options.name, "moves": list(moves),
        "result": outcome.reason, "winners": sorted(outcome.winners),
        "scores": [st.score for st in sorted(outcome.standings, key=lambda st: st.seat)],
    }


def write(path: str | Path, data: dict[str, Any]) -> None:
    target = Path(path)
    target.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def is_record(data: bytes) -> bool:
    """Whether ``data`` is an offline record (a match file never starts with ``{``)."""
    if not data.lstrip().startswith(b"{"):
        return False
    try:
        return bool(json.loads(data).get("format") == FORMAT)
    except (ValueError, AttributeError):
        return False


def replay(data: bytes) -> Replayed:
    """Play the record again (see the module).  Never raises on a bad record: says why."""
    from cli.play import GameOptions, InputClosed, LeftGame, play_offline

    try:
        doc = json.loads(data)
        spec = get_game(str(doc["game"]))
        if doc["engine"] != spec.engine_version:
            return Replayed(False, (f"recorded with engine {doc['engine']}; this program has "
                                    f"{spec.engine_version}: it cannot play it again",))
        moves = [str(m) for m in doc["moves"]]
        options = GameOptions(
            players=int(doc["players"]), bots=int(doc["bots"]), bot_kind=str(doc["bot_kind"]),
            game=spec.name, options=tuple(sorted(dict(doc["options"]).items())),
            bot_seed=str(doc["bot_seed"]), deal_seed=str(doc["deal_seed"]),
            name=str(doc["name"]))
        want = (str(doc["result"]), [int(w) for w in doc["winners"]],
                [int(s) for s in doc["scores"]])
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return Replayed(False, (f"the record is damaged ({type(exc).__name__}: {exc})",))
    typed = io.StringIO("".join(m + "\n" for m in moves))
    try:
        outcome = play_offline(options, typed, io.StringIO())
    except (InputClosed, LeftGame):
        return Replayed(False, ("its moves do not play the game again: one of them is not "
                                "legal where it stands, or moves are missing",))
    except (ValueError, KeyError, TypeError) as exc:
        return Replayed(False, (f"its options do not make a game ({exc})",))
    if typed.read():
        return Replayed(False, ("the game ends before its last recorded moves",))
    got = (outcome.reason, sorted(outcome.winners),
           [st.score for st in sorted(outcome.standings, key=lambda st: st.seat)])
    if got != want:
        return Replayed(False, (f"played again it ends otherwise: {got[0]} (scores "
                                f"{got[2]}), not {want[0]} (scores {want[2]})",))
    return Replayed(True, (f"{spec.title}, {doc['players']} player(s): played again from its "
                           f"seeds and {len(moves)} typed move(s), it reaches its recorded "
                           f"result: {outcome.reason}",))
