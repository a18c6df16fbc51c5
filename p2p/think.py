"""The child process a searching bot thinks in (:mod:`p2p.decide`): ``python -m p2p.think``.

It reads one request a line on standard input — a JSON object: the game, the seat's state as a
position, the seat, the step, the decision's key (hex), the bot or level, and optionally a
``module:function`` that makes the bot instead — and writes one reply a line on standard
output: ``{"ok": true, "action": TEXT}``, or ``{"ok": false, "error": TEXT}``.  It ends when
its input does.  It uses no network and no clock; the engine's bots are pure.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from engine.games import get_game
from engine.sim import bot_input
from p2p.decide import make_bot


def answer(request: dict[str, Any], bots: dict[tuple[str, str, str], Any]) -> dict[str, Any]:
    """The reply to one request (bots are kept between requests, per game and name)."""
    try:
        game, seat, step = str(request["game"]), int(request["seat"]), str(request["step"])
        name, make = str(request["name"]), request.get("make")
        state = get_game(game).from_position(request["position"])
        bot = bots.get((game, name, str(make)))
        if bot is None:
            bot = bots[(game, name, str(make))] = make_bot(name, game, make)
        action = bot.choose(bot_input(bot, state, seat, step), bytes.fromhex(request["key"]))
        return {"ok": True, "action": state.format_action(action)}
    except Exception as exc:  # handed back: the parent raises it as a ThinkError
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}


def main() -> int:
    bots: dict[tuple[str, str, str], Any] = {}
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
        except ValueError:
            reply: dict[str, Any] = {"ok": False, "error": "a request is one JSON object a line"}
        else:
            reply = answer(request, bots)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
