"""A rematch on the LAN: the host opens the table again on the same port, the same seats sit
down again without being asked, and a joiner that said yes waits for it and rejoins.

In-process (host and joiner as tasks of one event loop, everything on loopback, no zeroconf):
the rematch question itself needs a terminal (tests/cli/test_rematch.py covers it); this
drives what follows a yes.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from protocol.verify.verifier import verify
from protocol.wire.transcript import read_transcript

from cli import lan
from cli.netplay import NetOptions
from cli.play import Console

CARDS = "".join(f"{c}\n" for c in ["play 5", "play 4", "play 3", "play 2", "play 1",
                                    "play sword", "play key", "play torch", "play crystal"] * 40)


def quiet(typed: str = "") -> Console:
    """No terminal; ``typed`` is all the input there is (then "input ended")."""
    return Console(io.StringIO(typed), io.StringIO())


async def one_match(tmp_path: Path, host_session: lan.Session, join_session: lan.Session,
                    *, approve_all: bool, port: int, target: str, retry: float,
                    host_first: bool = True) -> tuple[Console, Console]:
    options = NetOptions(players=3, bots=1, bot_kind="random", name="Hal",
                         timeouts=(30, 30, 30, 20))
    host_console, join_console = quiet(CARDS), quiet()  # the host is a person: its cards
    opened: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    original = host_console.say

    def say(*lines: str) -> None:  # the lobby port, as the host prints it
        original(*lines)
        if host_session.port and not opened.done():
            opened.set_result(host_session.port)
    host_console.say = say  # type: ignore[method-assign]

    async def hosting() -> int:
        return await lan.host_lan(
            options, host_console, tmp_path / "h", interfaces=None, port=port,
            table_name="Rematch table", passphrase="", approve_all=approve_all,
            advertise=False, session=host_session)

    async def joining(where: str) -> int:
        return await lan.join_lan(
            NetOptions(name="Joe"), join_console,
            tmp_path / "j", where, interfaces=None, passphrase="", wait=5, bot="random",
            session=join_session, retry_for=retry)

    if host_first:
        host_task = asyncio.ensure_future(hosting())
        lobby = await asyncio.wait_for(opened, 20)
        join_task = asyncio.ensure_future(joining(target or f"127.0.0.1:{lobby}"))
    else:  # the joiner already waits when the host opens the rematch
        join_task = asyncio.ensure_future(joining(target))
        await asyncio.sleep(1.0)
        host_task = asyncio.ensure_future(hosting())
    codes = await asyncio.wait_for(asyncio.gather(host_task, join_task), 120)
    assert codes == [0, 0], codes
    return host_console, join_console


def files_of(console: Console) -> list[Path]:
    text = console.out.getvalue()  # type: ignore[attr-defined]
    return [Path(line.split(": ", 1)[1]) for line in text.splitlines()
            if line.startswith("The match file: ")]


@pytest.mark.asyncio
async def test_rematch_same_seats_new_match(tmp_path: Path) -> None:
    host_session, join_session = lan.Session(), lan.Session()
    # The first match: everyone let in (--yes), the session remembers the seats and address.
    h1, j1 = await one_match(tmp_path, host_session, join_session, approve_all=True, port=0,
                             target="", retry=0)
    assert host_session.matches == join_session.matches == 1
    assert join_session.port == host_session.port
    # The rematch: no --yes; the joiner waits at the old address before the host opens it
    # again on the same port, and sits down without the host being asked.
    h2, j2 = await one_match(tmp_path, host_session, join_session, approve_all=False,
                             port=host_session.port,
                             target=f"{join_session.host}:{join_session.port}", retry=30,
                             host_first=False)
    shown = h2.out.getvalue()  # type: ignore[attr-defined]
    assert "Joe [" in shown and "sits down again" in shown
    assert "wants to sit down" not in shown and "let them sit down" not in shown
    assert "Waiting up to 30 s for the host" in j2.out.getvalue()  # type: ignore[attr-defined]
    first, second = files_of(h1) + files_of(j1), files_of(h2) + files_of(j2)
    assert len(first) == len(second) == 2
    assert first[0].name == first[1].name and second[0].name == second[1].name
    assert first[0].name != second[0].name  # a new match: a new match id
    headers = []
    for path in first + second:
        assert verify(path.read_bytes()).verdict == "valid", path
        t = read_transcript(path.read_bytes())
        assert t.header is not None
        headers.append(t.header.header)
    # The same seats (names and keys), new nonces.
    assert headers[0].seats == headers[2].seats
    assert headers[0].nonces != headers[2].nonces


@pytest.mark.asyncio
async def test_a_joiner_waiting_for_a_rematch_gives_up_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(Exception) as caught:
        await lan.join_lan(NetOptions(name="Joe"), quiet(), tmp_path / "j", "127.0.0.1:9",
                           interfaces=None, passphrase="", wait=1, bot="random",
                           retry_for=1.0)
    assert type(caught.value).__name__ == "LobbyError"
    assert "no rematch: nothing answered at 127.0.0.1:9" in str(caught.value)
