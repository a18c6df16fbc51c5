"""Build script.  Metadata lives in pyproject.toml; this file only adds the optional native build.

With ``CRYPTCRAWL_NATIVE=1`` the engine's hot modules are compiled with mypyc (part of mypy):
the same source, type-checked with ``mypy --strict``, about twice as fast.  Without it the
package is pure Python.  Both behave identically (the test suite runs against both in CI).
See docs/engine.md, "Speed".
"""

from __future__ import annotations

import os

from setuptools import setup

NATIVE_MODULES = [
    "engine/stream.py",
    "engine/sim.py",
    "engine/raiders/resolve.py",
    "engine/raiders/records.py",
    "engine/raiders/flow.py",
    "engine/raiders/state.py",
    "engine/raiders/bots.py",
    "engine/raiders/cards.py",
]

if os.environ.get("CRYPTCRAWL_NATIVE") == "1":
    try:
        from mypyc.build import mypycify
    except ImportError:
        # The build frontend is asking for the build requirements (PEP 517): the native
        # build needs mypy, which brings mypyc.  The pure build needs nothing beyond setuptools.
        setup(setup_requires=["mypy>=1.10"])
    else:
        setup(ext_modules=mypycify(NATIVE_MODULES, opt_level="3"))
else:
    setup()
