"""Conformance vectors of issue 47's forfeits (protocol version 3, protocol.md §6.6, §7.7,
§7.13): seats that withhold chance secrets together, a deal withholder, and a secret sent late
inside and outside the grace window.

    python -m tests.vectors.forfeits_v3           # write tests/vectors/v3/forfeits/
    python -m tests.vectors.forfeits_v3 --check   # build again and compare, write nothing

Each vector is a match of in-memory peers (protocol.mesh.Network) built from a fixed tag under
``vectors/v3/forfeits/``: keys, nonces, seeds and bot choices derive from it, Ed25519 signatures
are deterministic, and every private-knowledge delivery (a character's look) is sealed under an
ephemeral key derived from the tag (benchmarks/tampering/sealing.py), so the bytes are the same
on every run; no seat uses its torch.  The file is one live peer's (seat
0's) match file: every feed it took.  The manifest pins the fields of ``cryptcrawl verify --json
FILE`` run from the folder (those tests/vectors/generate_v2.py pins: ``verdict``, ``blamed``,
``record``, ``reason_code``, ``waiting_for``), its exit status, and — every vector here being a
valid match — the notes that carry the rule: who forfeited (or did not, where the game has no
forfeit), for what, and which event was drawn again.  (tests/vectors/generate_v3.py writes the
other groups of tests/vectors/v3/; this module owns only the ``forfeits`` folder.)"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.scenario import raiders
from benchmarks.tampering.sealing import SealingNetwork
from engine.core import GameState
from engine.raiders import PEEK
from engine.sim import bot_key
from engine.stream import HashStream
from protocol.deck import DeckMessageBody, SharesBody
from protocol.mesh import MeshGame, Network
from protocol.wire.messages import Kind, Message
from tests.vectors.generate_v2 import run
from tests.vectors.making import differences, stored, verify_json

FOLDER = Path(__file__).resolve().parent / "v3" / "forfeits"
TAG = b"vectors/v3/forfeits/"
GENERATOR = "python -m tests.vectors.forfeits_v3"


@dataclass(frozen=True)
class Built:
    name: str  # the file's name in the folder, without ".crawl"
    description: str
    data: bytes


def pinned_notes(notes: list[str]) -> list[str]:
    """The notes of a verdict that a forfeit vector pins: forfeits, and events drawn again."""
    return [n for n in notes if (n.startswith("seat ") and "forfeit" in n)
            or " drawn again as " in n]


def no_torch(seed: bytes) -> Callable[[GameState[Any], int], str]:
    """A random legal action, never the torch's look (whose deliveries are sealed under fresh
    randomness), keyed by ``seed``."""
    attempts: dict[tuple[str, int], int] = {}

    def decide(state: GameState[Any], seat: int) -> str:
        legal = [a for a in state.legal_actions(seat) if a != PEEK]
        step = state.waiting.step  # type: ignore[union-attr]
        n = attempts.get((step, seat), 0)
        attempts[(step, seat)] = n + 1
        pick = HashStream(bot_key(seed, step, seat, n)).below(len(legal))
        return str(state.format_action(legal[pick]))
    return decide


def _raiders(tag: bytes) -> Network:
    return SealingNetwork(4, raiders(), TAG + tag, [no_torch(b"d%d" % i) for i in range(4)],
                          version=3)


def _file(net: Network) -> bytes:
    return net.match_file(0)


def _silent(net: Network, seat: int, when: Callable[[Message], bool]) -> None:
    """From the first message ``seat`` would send for which ``when`` holds, it sends nothing
    (signed but never sent: it is not in any feed the others hold)."""
    local = net.seats[seat]
    original = local.messages_to_send
    gone: list[Message] = []

    def send() -> list[Message]:
        out = []
        for message in original():
            if gone or when(message):
                gone.append(message)
                continue
            out.append(message)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]


def _after_reveal() -> Callable[[Message], bool]:
    seen: list[bool] = []

    def when(m: Message) -> bool:
        if seen:
            return True
        if m.kind is Kind.CHANCE_REVEAL:
            seen.append(True)
        return False
    return when


def _is_reveal(m: Message) -> bool:
    return m.kind is Kind.CHANCE_REVEAL


def coalition(variant: str) -> Built:
    net = _raiders(b"coalition-" + variant.encode())
    _silent(net, 3, _is_reveal)
    _silent(net, 2, _is_reveal if variant == "both" else _after_reveal())
    net.run_with_timeouts()
    assert net.cores[0].signed
    what = ("seats 2 and 3 both withhold their secrets of the first chance event revealed (the "
            "first character's draw, setup.character.0) and go silent: both forfeit"
            if variant == "both" else
            "seat 3 withholds its secret of the first chance event revealed (the first "
            "character's draw, setup.character.0); seat 2 reveals its own and then goes silent "
            "before committing to the re-draw: seat 3 forfeits, seat 2 (it revealed) does not")
    return Built(f"coalition-{variant}",
                 f"Dungeon Raiders, four seats: {what} (protocol.md §7.7, the coalition rule). "
                 "Seat 0's match file.", _file(net))


def deal_withholder() -> Built:
    net = SealingNetwork(3, MeshGame("paper"), TAG + b"deal-withholder", version=3)
    decks = net.cores[2].decks
    original = decks.next_body

    def next_body(seat: int) -> DeckMessageBody | None:
        body = original(seat)
        return None if body is not None and isinstance(body.body, SharesBody) else body
    decks.next_body = next_body  # type: ignore[method-assign]
    for _ in range(5000):
        net.pump(limit=1, partial=True)
        if decks.learnt:
            break
    assert decks.learnt
    net.crash(2)
    net.run_with_timeouts()
    assert net.cores[0].signed and net.cores[0].seats.withholders == {2}
    return Built("deal-withholder",
                 "Paper Dungeons, three seats: seat 2 learns its own cards (every other seat's "
                 "shares of them are in) and never sends its shares of the others': it is "
                 "replaced, the deal restarts, and it forfeits at its setup choice for having "
                 "withheld them (protocol.md §7.13, a deal withholder). Seat 0's match file.",
                 _file(net))


def late_secret(past: float) -> Built:
    """Seat 3's link fails as it sends its first CHANCE_REVEAL (the event's last secret);
    the others' clocks run past the turn timeout, then ``past`` seconds more (silence 60 s,
    grace window 60 s); then its link comes back."""
    inside = past < 120.0
    net = _raiders(b"late-secret")
    local = net.seats[3]
    original = local.messages_to_send
    held: list[Message] = []

    def send() -> list[Message]:
        out = []
        for message in original():
            if held or message.kind is Kind.CHANCE_REVEAL:
                held.append(message)
            else:
                out.append(message)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    net.pump()
    assert held
    for i in range(3):
        core = net.cores[i]
        overdue = core.get_timer()
        assert overdue is not None
        core.handle_timer(overdue + 0.5)
        core.handle_timer(overdue + past)
    net.pump()
    local.messages_to_send = original  # type: ignore[method-assign]
    net.queue.extend(held)
    net.run_with_timeouts()
    assert net.cores[0].signed
    assert bool(net.cores[0].seats.withholders) != inside
    where = ("inside the grace window (90 s past the turn timeout: the silence timeout passed, "
             "the window not): its secret counts, the event stands, nobody is replaced or "
             "forfeits" if inside else
             "outside the grace window (130 s past the turn timeout): it was voted out, the "
             "event was drawn again, and it forfeits; its late messages are stale")
    return Built(f"late-secret-{'inside' if inside else 'outside'}",
                 "Dungeon Raiders, four seats: seat 3's link fails as it sends the last secret "
                 "of the first chance event revealed (every other secret of it is out) and "
                 f"comes back {where} (protocol.md §6.6). Seat 0's match file.", _file(net))


def build() -> list[Built]:
    return [coalition("both"), coalition("partner"), deal_withholder(), late_secret(90.0),
            late_secret(130.0)]


def expected(root: Path, name: str) -> dict[str, Any]:
    """What the manifest pins of ``name`` (a file under ``root``)."""
    code, got = run(root, (name,))
    _code, text, _err = verify_json(root, name)
    got["notes"] = pinned_notes(json.loads(text).get("notes", []))
    return {"exit": code, "expected": got}


def files_of(built: list[Built]) -> dict[str, bytes]:
    """Every file of the folder: the vectors, then the manifest (their expected fields)."""
    files = {f"{b.name}.crawl": b.data for b in built}
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in files.items():
            (Path(tmp) / name).write_bytes(data)
        manifest = {"format": 1, "protocol": 3, "generator": GENERATOR,
                    "command": {"single": "cryptcrawl verify --json FILE",
                                "cwd": "tests/vectors/v3/forfeits"},
                    "vectors": [{"name": b.name, "file": f"{b.name}.crawl",
                                 "description": b.description,
                                 **expected(Path(tmp), f"{b.name}.crawl")} for b in built]}
    files["manifest.json"] = (json.dumps(manifest, indent=1, ensure_ascii=False)
                              + "\n").encode()
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=GENERATOR, description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="build again and compare with the folder; write nothing")
    args = parser.parse_args(argv)
    files = files_of(build())
    if args.check:
        problems = differences(files, stored(FOLDER))
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    for old in FOLDER.glob("*"):
        if old.is_file() and old.name not in files:
            old.unlink()
    for name, data in files.items():
        (FOLDER / name).write_bytes(data)
    print(f"wrote {len(files)} files to {FOLDER}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
