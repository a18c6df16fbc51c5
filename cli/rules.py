"""``cryptcrawl rules [GAME]``: a game's rules in short — the text its plug-in shows as the
match's help — or, without a game, the games there are."""

from __future__ import annotations

from typing import TextIO

from cli.choice import default_players, players_text
from cli.games import DEFAULT_GAME, find_ui, make_ui
from engine.games import games, get_game


def show_rules(game: str | None, out: TextIO, *, players: int | None = None) -> int:
    """Print the rules of ``game`` (for a table of ``players``; default: its usual table), or
    the list of games."""
    if game is None:
        out.write("The games (cryptcrawl rules GAME for one's rules in short):\n")
        for name in games():
            spec = get_game(name)
            notes = []
            if name == DEFAULT_GAME:
                notes.append("the default")
            if find_ui(name).networked:
                notes.append("offline practice only, for now")
            note = f" ({'; '.join(notes)})" if notes else ""
            out.write(f"  {name:<9} {spec.title}, {players_text(spec.players)} "
                      f"players{note}\n")
        return 0
    spec = get_game(game)
    table = players if players is not None else default_players(game, networked=False)
    ui = make_ui(game, table, {})
    out.write(f"{spec.title}: the rules in short\n\n{ui.rules()}\n")
    return 0
