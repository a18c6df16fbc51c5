"""Line mode: what the others do while your prompt waits is written on lines of its own, and
the prompt is shown again after it (issue 48: bot messages printed on the prompt line)."""

from __future__ import annotations

import io
import os
import threading
import time

from cli.play import Console


def test_a_line_said_while_the_prompt_waits_ends_the_prompt_line_first() -> None:
    read, write = os.pipe()
    out = io.StringIO()
    with os.fdopen(read, "r") as inp:
        console = Console(inp, out)
        got: list[str] = []
        asking = threading.Thread(target=lambda: got.append(console.ask("your move> ")))
        asking.start()
        deadline = time.monotonic() + 10
        while console.prompt != "your move> ":  # (the prompt is up: bounded)
            assert time.monotonic() < deadline, "the prompt never came"
        console.say("Bot 1 plays card 4.")
        os.write(write, b"end\n")
        asking.join(5)
        os.close(write)
    assert got == ["end"]
    assert out.getvalue() == "your move> \nBot 1 plays card 4.\nyour move> end\n"
