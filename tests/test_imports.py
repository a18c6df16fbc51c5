"""engine/ and protocol/ stay pure: no I/O, clocks, threads or randomness, and no imports from
the outer layers (engine < protocol < p2p / cli)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"asyncio", "socket", "time", "random", "zeroconf", "prompt_toolkit", "threading",
             "os", "secrets"}
OUTER = {
    "engine": {"protocol", "p2p", "cli"},
    "protocol": {"p2p", "cli"},
}


def imported_modules(path: Path) -> set[str]:
    """Every module an import statement in ``path`` names (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    parts = parts[:-1]  # the package that relative imports start from
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts[: len(parts) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            if node.args and isinstance(node.args[0], ast.Constant):
                found.add(str(node.args[0].value))
    return found


def sources(package: str) -> list[Path]:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no sources under {package}/"
    return files


@pytest.mark.parametrize("package", sorted(OUTER))
def test_no_io_clock_thread_or_random_imports(package: str) -> None:
    bad = []
    for path in sources(package):
        for module in imported_modules(path):
            root = module.split(".")[0]
            if root in FORBIDDEN:
                bad.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", sorted(OUTER))
def test_no_imports_from_outer_layers(package: str) -> None:
    bad = []
    for path in sources(package):
        for module in imported_modules(path):
            if module.split(".")[0] in OUTER[package]:
                bad.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not bad, "\n".join(bad)


def test_the_scanner_sees_imports() -> None:
    # Guard against a scanner that silently finds nothing.
    found = imported_modules(ROOT / "engine" / "raiders" / "state.py")
    assert "engine.core" in found
    assert any(m.startswith("engine.raiders") for m in found)
