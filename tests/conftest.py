"""What every test shares: how the suite is split across parallel workers, and the hypothesis
profiles.  See docs/testing.md.

The default run uses pytest-xdist (``-n`` in pyproject.toml's ``addopts``) with ``--dist
loadgroup``: a test goes to whichever worker is free, except that

* tests that share a module- or class-scoped fixture (a match played once and read by several
  tests) run on one worker, so the fixture is built once, not once per worker;
* tests that use multicast DNS on 127.0.0.1:5353 run on one worker, one after the other, so one
  test's tables never show up in another's browser.

Hypothesis: the default run uses the ``default`` profile (fewer examples, fixed derandomised
seeds, so a failure reproduces); the slow tier (``-m slow``) and ``HYPOTHESIS_PROFILE=thorough``
use many more.  A test with its own ``@settings(max_examples=N)`` scales it with
:func:`examples`.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import settings

# --------------------------------------------------------------------------- bytecode

# Byte-compiled modules are written (to __pycache__, which git ignores) even where the
# environment says not to: the suite starts hundreds of Python processes (peers, the command),
# and each would otherwise compile the whole project again, about 0.25 s of CPU apiece.  The
# workers and every process a test starts inherit this.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# --------------------------------------------------------------------------- hypothesis

#: The share of each test's own example count the profile runs.
_SCALE = {"default": 0.25, "thorough": 1.0}

settings.register_profile("default", max_examples=40, deadline=None, derandomize=True,
                          print_blob=True)
settings.register_profile("thorough", max_examples=400, deadline=None, print_blob=True)


def _profile() -> str:
    return os.environ.get("HYPOTHESIS_PROFILE", "default")


settings.load_profile(_profile())


def examples(n: int) -> int:
    """How many examples a test that asks for ``n`` runs under the current profile (at least
    ten, so a scaled test still explores)."""
    return max(10, int(n * _SCALE.get(_profile(), 1.0)))


# --------------------------------------------------------------------------- parallel workers

#: Test modules that browse or advertise on multicast DNS (127.0.0.1:5353).
MULTICAST_DNS = "mdns"


def pytest_configure(config: pytest.Config) -> None:
    if config.option.markexpr == "slow" and "HYPOTHESIS_PROFILE" not in os.environ:
        os.environ["HYPOTHESIS_PROFILE"] = "thorough"
        settings.load_profile("thorough")


def _shared_scope(item: pytest.Item) -> str | None:
    """The module (or class) whose scoped fixture ``item`` uses, if any."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    for defs in info.name2fixturedefs.values():
        for fixturedef in defs:
            if fixturedef.scope in ("module", "class", "package"):
                return item.nodeid.split("::", 1)[0]
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("mdns") is not None:
            item.add_marker(pytest.mark.xdist_group(MULTICAST_DNS))
            continue
        scope = _shared_scope(item)
        if scope is not None:
            item.add_marker(pytest.mark.xdist_group(scope))
