"""The shape of the code: the generic layers name no game, no module grows past its size, and the
packages import each other without cycles.

* **No game words** in ``protocol/``, ``p2p/`` and the generic client (``cli/`` outside
  ``cli/games/``, where each game's plug-in and the registry of plug-ins live): their identifiers
  and string literals (read with :mod:`tokenize`, so docstrings count and comments do not) never
  name a registered game nor say raiders, torch, peek, room or crystal.  The wire names and
  verdict texts of protocol v1, which do, live in the frozen ``protocol/wire/v1_names.py``, which is
  exempt.
* **Module size**: no module of ``protocol/``, ``p2p/`` or ``cli/`` (subpackages included) passes
  800 lines.
* **No import cycles** among the project's own modules: every import that runs counts (a
  function's included; ``if TYPE_CHECKING:`` blocks, which never run, do not), and a game's package
  under ``engine/`` or ``cli/games/`` counts as one unit (its modules may refer to each other).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from cli.games import CLIENTS
from engine.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
GENERIC = ("protocol", "p2p", "cli")
PLUG_INS = ROOT / "cli" / "games"  # each game's client, and the registry naming them
FROZEN_V1 = ROOT / "protocol" / "v1_names.py"
EXEMPT = (FROZEN_V1,)
GAME_WORDS = ("raider", "torch", "peek", "room", "crystal", *GAMES)
MAX_LINES = 800
PACKAGES = ("engine", "protocol", "p2p", "cli", "benchmarks")


def _words(text: str) -> list[str]:
    """The words of an identifier or a string: split on anything not a letter, and on case
    (``TorchRound`` is "torch" and "round")."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return [w.lower() for w in re.findall(r"[A-Za-z]+", spaced)]


def game_words(source: str) -> list[tuple[int, str]]:
    """(line, token) for every identifier or string literal of ``source`` that holds a game
    word."""
    found = []
    kinds = {tokenize.NAME, tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.NAME)}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in kinds:
            continue
        if any(word.startswith(GAME_WORDS) for word in _words(token.string)):
            found.append((token.start[0], token.string))
    return found


def generic_sources() -> list[Path]:
    files = [p for package in GENERIC for p in sorted((ROOT / package).rglob("*.py"))
             if PLUG_INS not in p.parents]
    assert len(files) > 10, "the scanner found no sources"
    assert ROOT / "cli" / "tui.py" in files and ROOT / "cli" / "plugin.py" in files
    return files


def test_the_generic_layers_name_no_game() -> None:
    bad = []
    for path in generic_sources():
        if path in EXEMPT:
            continue
        for line, token in game_words(path.read_text(encoding="utf-8")):
            bad.append(f"{path.relative_to(ROOT)}:{line}: {token[:60]}")
    assert not bad, "game words in the generic layers:\n" + "\n".join(bad)


def test_the_word_scanner_sees_identifiers_and_strings_but_not_comments() -> None:
    source = ('class TorchRound:  # a torch\n'
              '    """The rooms."""\n'
              '    x = f"peek {y}"\n'
              '    crystal_ball = 1\n'
              '    # raiders only in a comment\n')
    assert [line for line, _ in game_words(source)] == [1, 2, 3, 4]
    assert game_words("broom = 'heroes'  # roomy\n") == []  # words, not substrings


def test_the_frozen_v1_names_hold_the_game_words() -> None:
    # (Else the exemption would be hiding nothing: the v1 wire names must live there.)
    for path in EXEMPT:
        assert game_words(path.read_text(encoding="utf-8")), path


def test_the_plug_ins_are_where_the_game_words_are() -> None:
    # (The scan leaves cli/games/ out: each plug-in there names its game, as it must.)
    for game in ("raiders", "kards"):
        words = game_words((PLUG_INS / game / "__init__.py").read_text(encoding="utf-8")
                           + (PLUG_INS / game / "help.py").read_text(encoding="utf-8"))
        assert words, game
    assert game_words((PLUG_INS / "__init__.py").read_text(encoding="utf-8"))  # the registry


@pytest.mark.parametrize("package", GENERIC)
def test_no_module_is_past_its_size(package: str) -> None:
    long = []
    for path in sorted((ROOT / package).rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not long, f"modules past {MAX_LINES} lines (split them by responsibility):\n" + (
        "\n".join(long))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def runtime_imports(path: Path) -> set[str]:
    """Every module an import statement of ``path`` that can run names (not those under ``if
    TYPE_CHECKING:``); absolute imports only (the project uses no relative ones)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def walk(node: ast.AST) -> None:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for child in node.orelse:
                walk(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert not node.level, f"{path}: a relative import"
            found.add(node.module or "")
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            walk(child)

    walk(tree)
    return found


def _unit(module: str) -> str:
    """The unit a module belongs to: a game's package under engine/ is one, and so is a game's
    client plug-in under cli/games/."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "engine" and GAMES.get(parts[1]) == f"engine.{parts[1]}":
        return f"engine.{parts[1]}"
    if len(parts) >= 3 and parts[:2] == ["cli", "games"] and CLIENTS.get(parts[2]) == (
            f"cli.games.{parts[2]}"):
        return f"cli.games.{parts[2]}"
    return module


def import_graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for package in PACKAGES
               for p in sorted((ROOT / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {_unit(name): set() for name in modules}
    for name, path in modules.items():
        edges = graph[_unit(name)]
        for imported in runtime_imports(path):
            # "a.b.c" may be module a.b.c or name c of module a.b: the longest module it names
            parts = imported.split(".")
            for k in range(len(parts), 0, -1):
                candidate = ".".join(parts[:k])
                if candidate in modules:
                    if _unit(candidate) != _unit(name):
                        edges.add(_unit(candidate))
                    break
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
