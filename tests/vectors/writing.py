"""What every vector generator shares: the files being built, and the command line that writes
them to their folder or, with ``--check``, compares them with it."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

Files = dict[str, bytes]  # path in the folder -> content


class FileSet:
    """The files being built: a path is written once, or again with the same bytes."""

    def __init__(self) -> None:
        self.files: Files = {}

    def file(self, path: str, data: bytes) -> str:
        held = self.files.setdefault(path, data)
        assert held == data, f"two different files named {path}"
        return path


def generator_main(argv: list[str] | None, *, prog: str, doc: str | None, folder: Path,
             build: Callable[[], Files], held: Callable[[], Files],
             differences: Callable[[Files, Files], list[str]]) -> int:
    """``python -m PROG [--check]``: build the files; write them to ``folder`` (removing the
    ``held`` ones no longer built), or with ``--check`` print how they differ and write
    nothing (exit code 1 if they do)."""
    parser = argparse.ArgumentParser(prog=prog, description=(doc or "").split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help=f"compare with tests/vectors/{_inside(folder)} and write nothing")
    args = parser.parse_args(argv)
    began = time.monotonic()
    built = build()
    took = time.monotonic() - began
    if args.check:
        wrong = differences(built, held())
        for line in wrong:
            print(line)
        print(f"{len(built)} files generated in {took:.1f} s: "
              f"{'identical' if not wrong else f'{len(wrong)} difference(s)'}")
        return 1 if wrong else 0
    for name in set(held()) - set(built):
        (folder / name).unlink()
    for name, content in built.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    size = sum(len(c) for c in built.values())
    print(f"{len(built)} files, {size:,} bytes, written to {folder} in {took:.1f} s")
    return 0


def _inside(folder: Path) -> str:
    return folder.resolve().relative_to(Path(__file__).resolve().parent).as_posix()
