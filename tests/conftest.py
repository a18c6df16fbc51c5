"""What every test shares: byte-compiled modules, the tiers (tests/tiers.py), and how the suite
is split across parallel workers.  See docs/testing.md.

The default run uses pytest-xdist (``-n`` in pyproject.toml's ``addopts``) with ``--dist
loadgroup``: a test goes to whichever worker is free, except that

* tests that share a module- or class-scoped fixture (a match played once and read by several
  tests) run on one worker, so the fixture is built once, not once per worker;
* tests that use multicast DNS on 127.0.0.1:5353 (marked ``mdns``) run on one worker, one after
  the other, so one test's tables never show up in another's browser.
"""

from __future__ import annotations

import os
import sys

import pytest

# Byte-compiled modules are written (to __pycache__, which git ignores) even where the
# environment says not to: the suite starts hundreds of Python processes (peers, the command),
# and each would otherwise compile the whole project again, about 0.25 s of CPU apiece.  The
# workers and every process a test starts inherit this.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

_SLOW_TIER = False


def pytest_configure(config: pytest.Config) -> None:
    global _SLOW_TIER
    _SLOW_TIER = config.option.markexpr == "slow"
    if _SLOW_TIER and "HYPOTHESIS_PROFILE" not in os.environ:
        os.environ["HYPOTHESIS_PROFILE"] = "thorough"  # (the workers inherit it)
    from tests import tiers  # noqa: F401  (loads the profile, after the line above)


#: The order the workers are handed the folders: those whose tests wait longest (processes,
#: terminals, sockets) first, so that no long test starts near the end of the run.
_FIRST = ("tests/adversary/", "tests/cli/", "tests/p2p/", "tests/campaign/", "tests/deck/",
          "tests/engine/", "tests/protocol/", "tests/vectors/")


def _order(item: pytest.Item) -> int:
    path = item.nodeid
    return next((i for i, folder in enumerate(_FIRST) if path.startswith(folder)), len(_FIRST))


#: The xdist group of the tests marked ``mdns``.
MULTICAST_DNS = "mdns"


def _shared_scope(item: pytest.Item) -> str | None:
    """The module whose module- or class-scoped fixture ``item`` uses, if any."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    for defs in info.name2fixturedefs.values():
        for fixturedef in defs:
            if fixturedef.scope in ("module", "class", "package"):
                return item.nodeid.split("::", 1)[0]
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _SLOW_TIER:
        # The slow tier also runs every property test, at its full example count.
        for item in items:
            if getattr(getattr(item, "function", None), "is_hypothesis_test", False):
                item.add_marker(pytest.mark.slow)
    if not config.pluginmanager.hasplugin("xdist"):
        return
    items.sort(key=_order)  # (stable: a module's tests stay together, in their order)
    for item in items:
        if item.get_closest_marker("mdns") is not None:
            item.add_marker(pytest.mark.xdist_group(MULTICAST_DNS))
            continue
        scope = _shared_scope(item)
        if scope is not None:
            item.add_marker(pytest.mark.xdist_group(scope))
