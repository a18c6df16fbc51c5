"""``python -m tests.cli.lineonly ARGS``: ``cryptcrawl ARGS`` with Toy Grid registered under the
generic plug-in (no client of its own, so no full-screen table: every game of the program has
one, and a game added without one must still be playable)."""
