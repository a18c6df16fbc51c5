"""``python -m p2p``'s arguments: a bot is named as its game names it (Paper Dungeons' strong
bot is ``search``, not ``heuristic``), and a wrong name is refused in one line before anything
starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2p.run import main


@pytest.mark.parametrize(("argv", "said"), [
    (["--bot", "heuristic", "host", "--game", "paper"],
     "paper has no bot 'heuristic'; its bots: random, search"),
    (["--bot", "search", "host", "--game", "nope"], "unknown game 'nope'"),
    (["--bot", "zzz", "join", "127.0.0.1:9"], "no game has a bot 'zzz'"),
])
def test_a_bot_the_game_lacks_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          argv: list[str], said: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--data-dir", str(tmp_path), *argv])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert not any(tmp_path.iterdir())  # nothing was started or written
