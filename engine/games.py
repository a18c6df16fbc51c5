"""Importing this module registers every game package with :mod:`engine.core`."""

import engine.raiders  # noqa: F401
