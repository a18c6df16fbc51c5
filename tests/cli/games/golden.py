"""Golden tables shared by the games' table tests: compare a rendered table with its file, or
write the file with ``CRYPTCRAWL_UPDATE_GOLDEN=1`` (then read every changed table in
``git diff`` before committing it)."""

from __future__ import annotations

import os
from pathlib import Path

UPDATE_ENV = "CRYPTCRAWL_UPDATE_GOLDEN"


def check_golden(folder: Path, name: str, text: str) -> None:
    path = folder / name
    if os.environ.get(UPDATE_ENV):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"{path} is missing ({UPDATE_ENV}=1 writes it)"
    assert text == path.read_text(), f"{name} changed: regenerate it and read the diff"
