"""The two tiers of the suite (docs/testing.md): the default run, quick, and the slow tier
(``python -m pytest -q -m slow``), thorough.

* :func:`tiers` gives a size parameter two values: the quick one runs by default, the thorough
  one is marked ``slow``;
* hypothesis runs the ``default`` profile (a quarter of each test's examples, derandomised so a
  failure reproduces) in the default run, and the ``thorough`` profile (every example, random
  seeds) in the slow tier, which also runs every property test (tests/conftest.py).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

#: The share of each test's own example count a profile runs.
_SCALE = {"default": 0.25, "thorough": 1.0}

settings.register_profile("default", max_examples=25, deadline=None, derandomize=True,
                          print_blob=True)
settings.register_profile("thorough", max_examples=100, deadline=None, print_blob=True)


def profile() -> str:
    """The hypothesis profile in use (``HYPOTHESIS_PROFILE``, else ``default``)."""
    return os.environ.get("HYPOTHESIS_PROFILE", "default")


settings.load_profile(profile())


def examples(n: int) -> int:
    """How many examples a test that asks for ``n`` runs under the current profile (at least
    ten, so a scaled test still explores)."""
    return max(10, int(n * _SCALE.get(profile(), 1.0)))


def tiers(quick: object, thorough: object) -> list[object]:
    """Parameters for a test whose size has two tiers: ``quick`` in the default run, and
    ``thorough`` in the slow tier::

        @pytest.mark.parametrize("games", tiers(300, 2000))
    """
    return [pytest.param(quick, id="quick"),
            pytest.param(thorough, id="thorough", marks=pytest.mark.slow)]
