"""The honest matches a tampering run starts from: finished matches of every game, played on
:mod:`protocol.mesh`'s in-memory mesh, each under a tag of its own (keys, nonces, seeds, bot
choices and every DELIVERY's sealing derive from it: :class:`SealingNetwork`), so a base is the
same bytes on every run and in every worker.

A base's **scenario** says what happens in it besides play, so that the tampering meets what the
rules are about (:data:`SCENARIOS`):

* ``plain`` — every seat plays to the end;
* ``absence`` — a seat's messages stall past both timeouts (its peer cut off), the others vote
  it absent and replace it, then the link heals: it reclaims its seat and is welcomed back
  (three seats or more);
* ``leave`` / ``resign`` — a seat leaves the match for good (or resigns) partway; its zombie
  plays on, or the game's forfeit ends the match (two seats);
* ``pause`` — a seat offers a pause, every other seat accepts, another resumes later;
* ``draw`` — a seat offers a draw, the others answer (accepted where the game has draws);
* ``claim`` — with two seats live (another seat left first, where there are three or more), a
  seat goes silent for good and the other claims the match.

Every game plays its own features: Dungeon Raiders private-knowledge rounds (torch peeks, one
seat keen on them), Dungeons of Kards dice pools, Dungeon Twister sealed values (two seats),
Paper Dungeons shared decks.  A scenario that does not finish under its tag is tried under the
next tag (``attempt``), then played ``plain``."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from benchmarks.tampering.sealing import SealingNetwork
from engine.core import GameState
from engine.games import get_game
from engine.stream import HashStream
from protocol.mesh import MeshGame, Network, Stalled, bot_decider, cut_off
from protocol.wire.messages import Kind, Message

__all__ = ["GAMES", "SCENARIOS", "Base", "at", "base", "keen_decider", "silence", "step_of"]

GAMES: Final = ("raiders", "kards", "twister", "paper")
SCENARIOS: Final = ("plain", "absence", "leave", "pause", "resign", "claim", "draw")

Decider = Callable[[GameState[Any], int], str]


@dataclass
class Base:
    """An honest finished match: its game, number, scenario and the network that played it."""

    game: str
    index: int
    scenario: str
    tag: bytes
    net: Network

    @property
    def name(self) -> str:
        return f"{self.game}-{self.index:03d}-{self.scenario}"

    @property
    def seats(self) -> int:
        return len(self.net.cores)

    def feeds(self, holder: int) -> list[list[Message]]:
        """The feeds of ``holder``'s copy."""
        return [list(f.messages) for f in self.net.cores[holder].feeds]

    def file(self, holder: int) -> bytes:
        """``holder``'s match file (the header, then every feed in seat order)."""
        return self.net.match_file(holder)


# --------------------------------------------------------------------------- clients


def silence(net: Network, seat: int, when: Callable[[Message], bool]) -> list[Message]:
    """From the first message ``seat`` would send for which ``when`` holds, it sends nothing
    more.  Returns the messages withheld (the first one, signed but never sent)."""
    local = net.seats[seat]
    original = local.messages_to_send
    withheld: list[Message] = []

    def send() -> list[Message]:
        if withheld:
            return []
        out = []
        for message in original():
            if withheld or when(message):
                withheld.append(message)
                local.sent.pop()
                continue
            out.append(message)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    return withheld


def step_of(message: Message) -> str:
    """The step a message is about ("" if none)."""
    return str(getattr(message.content, "step", ""))


def at(net: Network, seat: int, sent: int, act: Callable[[], None]) -> None:
    """``act`` once ``seat`` has sent ``sent`` messages."""
    local = net.seats[seat]
    original = local.messages_to_send
    done: list[bool] = []

    def send() -> list[Message]:
        if len(local.sent) >= sent and not done:
            done.append(True)
            act()
        return original()
    local.messages_to_send = send  # type: ignore[method-assign]


def keen_decider(seed: bytes, bot: str) -> Decider:
    """Plays ``torch`` (a private-knowledge peek, Dungeon Raiders) whenever it may, else the
    game's bot ``bot``."""
    plain = bot_decider(seed, bot)

    def decide(state: GameState[Any], seat: int) -> str:
        legal = [state.format_action(a) for a in state.legal_actions(seat)]
        if "torch" in legal:
            return "torch"
        return plain(state, seat)
    return decide


# --------------------------------------------------------------------------- the bases


def seats_of(game: str, index: int) -> int:
    """How many seats base ``index`` of ``game`` has."""
    if game == "twister":
        return 2
    if game == "raiders":
        return (3, 4, 5)[index % 3]
    if game == "paper":
        return (2, 3)[index % 2]
    return (3, 4)[index % 2]  # kards


def scenario_of(game: str, index: int) -> str:
    return SCENARIOS[index % len(SCENARIOS)]


def _deciders(game: str, n: int, tag: bytes) -> list[Decider]:
    bots = get_game(game).bots
    bot = "random" if "random" in bots else next(iter(bots))
    out = [bot_decider(tag + b"/bot%d" % i, bot) for i in range(n)]
    if game == "raiders":
        out[0] = keen_decider(tag + b"/bot0", bot)
    return out


def _network(game: str, n: int, tag: bytes, *, rebuild: bool = False) -> SealingNetwork:
    spec = get_game(game)
    options: tuple[tuple[str, Any], ...] = ()
    if spec.variants:
        options = (("variant", spec.variants[0]),)
    return SealingNetwork(n, MeshGame(game, options), tag, _deciders(game, n, tag),
                          rebuild=rebuild)


def _finished(net: Network) -> bool:
    live = [i for i in range(len(net.cores)) if i not in net.crashed]
    return all(net.cores[i].signed or not net.cores[i].live(i) for i in live) and any(
        net.cores[i].signed for i in live)


def _answer(yes: bool) -> Callable[[int, str], bool]:
    return lambda offerer, what: yes


def _leaving(net: Network, seat: int) -> Callable[[], None]:
    return lambda: net.seats[seat].leave()


def _play(game: str, n: int, scenario: str, tag: bytes) -> Network:
    """One match of ``scenario``; raises :class:`Stalled` or AssertionError if it does not
    finish as the scenario says."""
    stream = HashStream(b"tamper/scenario/" + tag)
    if scenario == "absence":
        assert n >= 3
        net = _network(game, n, tag, rebuild=True)
        net.pump(limit=40 + stream.below(80 * n), partial=True)
        net.land_in_flight()
        seat = stream.below(n)
        held = net.stall(cut_off({seat}, n))
        net.heal(held, order=tag)
        net.run_with_timeouts(limit=12)
        kinds = {m.kind for f in net.cores[0].feeds for m in f.messages}
        assert Kind.ABSENT in kinds, "nobody was voted absent"
    else:
        net = _network(game, n, tag)
        seat = stream.below(n)
        if scenario in ("leave", "resign"):
            resign = scenario == "resign"
            at(net, seat, 10 + stream.below(30),
               lambda: net.seats[seat].leave(resign=resign))
        elif scenario in ("pause", "draw"):
            what = scenario
            yes = [bool(stream.below(4)) for _ in range(n)]
            for i, local in enumerate(net.seats):
                local.answering = _answer(yes[i])
            at(net, seat, 10 + stream.below(30), lambda: net.seats[seat].offer(what))
            if what == "pause":
                other = (seat + 1 + stream.below(n - 1)) % n
                at(net, other, 45 + stream.below(20), net.seats[other].resume)
        elif scenario == "claim":
            if n > 2:
                leaver = (seat + 1) % n
                at(net, leaver, 10 + stream.below(10), lambda: net.seats[leaver].leave())
                for extra in range(n - 3):  # (two seats live at most)
                    other = (seat + 2 + extra) % n
                    at(net, other, 12 + stream.below(10), _leaving(net, other))
            last = 25 + stream.below(20)
            silence(net, seat, lambda m: m.seq >= last)
        net.run_with_timeouts()
        kinds = {m.kind for f in net.cores[0].feeds for m in f.messages}
        wanted = {"leave": Kind.LEAVE, "resign": Kind.RESIGN, "pause": Kind.OFFER,
                  "draw": Kind.OFFER, "claim": Kind.CLAIM}.get(scenario)
        assert wanted is None or wanted in kinds, f"no {wanted} in a {scenario} match"
    assert _finished(net), "the match did not finish"
    return net


def base(game: str, index: int) -> Base:
    """Base match ``index`` of ``game`` (see the module docstring)."""
    n = seats_of(game, index)
    scenario = scenario_of(game, index)
    if scenario == "absence" and n < 3:
        scenario = "claim"
    for attempt in range(4):
        tag = hashlib.sha256(b"cryptcrawl/tamper/%s/%d/%s/%d" % (
            game.encode(), index, scenario.encode(), attempt)).digest()[:16]
        try:
            return Base(game, index, scenario, tag, _play(game, n, scenario, tag))
        except (Stalled, AssertionError):
            continue
    tag = hashlib.sha256(b"cryptcrawl/tamper/%s/%d/plain" % (game.encode(), index)).digest()[:16]
    return Base(game, index, "plain", tag, _play(game, n, "plain", tag))
