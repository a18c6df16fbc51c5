"""A whole 3-player all-bot match over a slow link: one peer's veth shaped with ``tc tbf``.

Three network namespaces on a private bridge of their own (the ``lan`` fixture of
tests/p2p/test_netns.py: names unique to the run, no address on the bridge, nothing attached
to a real interface; a finalizer kills every process in them and deletes every namespace and
link, whatever happened).  One ``python -m p2p`` process runs in each namespace; the host
announces its lobby port in a file and the two others join it by address (no discovery).

The same three namespaces play two matches: first unshaped (for comparison), then with one
joiner's link shaped in both directions by a token bucket filter (the kernel has ``tbf`` but not
``netem``): its egress inside its namespace and the egress of the bridge-side end of its veth.
Every peer must finish, every match file must verify valid (by the verifier and by ``cryptcrawl
verify --json``), the three copies must agree to the end, and no seat may have been replaced by
its zombie.  Timings are printed, not asserted (beyond a generous bound on the whole match).

Root only, skipped with the reason otherwise.  Slow (``-m slow``).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.adversary.conftest import (
    REPO,
    Proc,
    assert_agree_to_the_end,
    cli_verify,
    finished,
    one_match,
    verdict_of,
    wait_for,
)
from tests.p2p.test_netns import Lan, ip, lan  # noqa: F401 - lan: the fixture

PLAYERS = 3
SHAPED = 2  # the joiner whose link is shaped (index into the LAN's namespaces)
TBF = ("rate", "256kbit", "burst", "4kb", "latency", "400ms")
TURN = 60.0  # s: turn and silence timeouts of every peer, far above any wait a slow link causes
LINGER = 1.0  # s
PLAIN_BOUND = 120.0  # s: the whole unshaped match (it takes a few seconds)
SHAPED_BOUND = 300.0  # s: the whole shaped match


def _skip_reason() -> str:
    if not sys.platform.startswith("linux"):
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "needs root to create network namespaces and qdiscs (run as root to include it)"
    for tool, package in (("ip", "iproute2"), ("tc", "iproute2")):
        if shutil.which(tool) is None:
            return f"needs the `{tool}` command ({package})"
    return ""


pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(bool(_skip_reason()), reason=_skip_reason() or "-")]


def tc(*args: str, ns: str | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    argv = ["tc", *(["-n", ns] if ns else []), *args]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {done.stderr.strip()}")
    return done


def inner_link(net: Lan, n: int) -> str:
    """The namespace-side end of peer ``n``'s veth (test_netns names it ccp<tag><n>)."""
    outer = net.host_links[n]
    assert outer.startswith("ccv")
    return "ccp" + outer[3:]


def qdisc_stats(dev: str, ns: str | None) -> tuple[int, int]:
    """(bytes sent, overlimits) of the root qdisc of ``dev``, which must be a tbf."""
    shown = tc("-s", "qdisc", "show", "dev", dev, ns=ns).stdout
    assert re.search(r"qdisc tbf \S+ root", shown), f"no tbf on {dev}:\n{shown}"
    sent = re.search(r"Sent (\d+) bytes", shown)
    over = re.search(r"overlimits (\d+)", shown)
    return (int(sent.group(1)) if sent else 0, int(over.group(1)) if over else 0)


class NsProcesses:
    """``python -m p2p`` processes inside the LAN's namespaces; each in its own process
    group, killed (by group) by the fixture's finalizer, pass or fail."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.started: list[Proc] = []

    def start(self, ns: str, name: str, data_dir: Path, bind: str, *args: str) -> Proc:
        env = {**os.environ, "PYTHONPATH": str(REPO),
               "PYTHONUNBUFFERED": "1"}
        out, err = data_dir.with_suffix(".out"), data_dir.with_suffix(".err")
        argv = ["ip", "netns", "exec", ns, sys.executable, "-m", "p2p",
                "--data-dir", str(data_dir), "--timeouts", f"{TURN},{TURN},{TURN},{TURN}",
                "--linger", str(LINGER), "--bind", bind,
                "--name", name, "--seed", name, *args]
        with out.open("wb") as o, err.open("wb") as e:
            popen = subprocess.Popen(argv, cwd=REPO, env=env, stdin=subprocess.DEVNULL,
                                     stdout=o, stderr=e, start_new_session=True)
        peer = Proc(name, data_dir, popen, out, err)
        self.started.append(peer)
        return peer

    def close(self) -> None:
        for peer in self.started:
            if peer.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(peer.proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                peer.proc.wait(timeout=10)


@pytest.fixture
def ns_procs(lan: Lan, tmp_path: Path) -> Iterator[NsProcesses]:  # noqa: F811
    group = NsProcesses(tmp_path)
    try:
        yield group
    finally:
        group.close()


def play(net: Lan, procs: NsProcesses, root: Path, bound: float) -> tuple[list[Path], float]:
    """One whole match, host in the first namespace, joiners by address; the three match files
    (host first) and the wall time from starting the host to the last peer's exit."""
    root.mkdir()
    started = time.monotonic()
    announce = root / "lobby.port"
    host = procs.start(net.namespaces[0], "host", root / "host", net.addresses[0],
                       "--announce", str(announce), "host", "--game", "raiders",
                       "--players", str(PLAYERS), "--port", "0")
    wait_for(lambda: announce.exists() and announce.read_text().strip().isdigit(), 30.0,
             lambda: f"no lobby port; host stderr:\n{host.stderr()}", alive=[host], poll=0.05)
    port = int(announce.read_text())
    peers = [host] + [procs.start(net.namespaces[n], f"join{n}", root / f"join{n}",
                                  net.addresses[n], "join", f"{net.addresses[0]}:{port}")
                      for n in range(1, PLAYERS)]
    paths = [finished(peer, max(1.0, bound - (time.monotonic() - started))) for peer in peers]
    return paths, time.monotonic() - started


def check_files(paths: list[Path]) -> None:
    """One match, every copy valid (verifier and CLI), no seat replaced, all agree."""
    one_match(paths, PLAYERS)
    for path in paths:
        v = verdict_of(path)
        assert v.valid, f"{path}: {v.verdict}: {v.reason} {v.notes}"
        assert not any("replaced" in note for note in v.notes), (path, v.notes)
        j = cli_verify(path)
        assert j["status"] == "valid" and j["exit"] == 0, (path, j)
    assert len({(verdict_of(p).final_digest, verdict_of(p).winners) for p in paths}) == 1
    assert_agree_to_the_end(paths)


def test_match_over_a_tbf_shaped_link(lan: Lan, ns_procs: NsProcesses,  # noqa: F811
                                      tmp_path: Path) -> None:
    test_start = time.monotonic()
    plain_paths, plain_s = play(lan, ns_procs, tmp_path / "plain", PLAIN_BOUND)
    check_files(plain_paths)

    # Shape one joiner's link, both ways: its upload (egress of the veth end in its namespace)
    # and its download (egress of the bridge-side end).  The finalizer deletes both with the
    # links; a qdisc never outlives its device.
    ns, inner, outer = lan.namespaces[SHAPED], inner_link(lan, SHAPED), lan.host_links[SHAPED]
    tc("qdisc", "add", "dev", inner, "root", "tbf", *TBF, ns=ns)
    tc("qdisc", "add", "dev", outer, "root", "tbf", *TBF)
    shaped_devs = [(inner, ns), (outer, None)]
    before = [qdisc_stats(dev, where) for dev, where in shaped_devs]
    assert ip("-n", ns, "link", "show", inner).returncode == 0

    shaped_paths, shaped_s = play(lan, ns_procs, tmp_path / "shaped", SHAPED_BOUND)
    after = [qdisc_stats(dev, where) for dev, where in shaped_devs]
    check_files(shaped_paths)
    # The match's traffic to and from the shaped peer really went through the two tbfs.
    for (dev, _), (sent0, _), (sent1, _) in zip(shaped_devs, before, after, strict=True):
        assert sent1 > sent0, f"nothing went through the tbf on {dev}"

    sizes = [p.stat().st_size for p in shaped_paths]
    print(f"\nslow link: tbf {' '.join(TBF)} on {inner} (in {ns}) and {outer}; "
          f"unshaped match {plain_s:.1f} s, shaped match {shaped_s:.1f} s "
          f"({shaped_s / plain_s:.1f}x); through the tbfs (bytes sent, overlimits): "
          f"up {after[0][0] - before[0][0]}, {after[0][1] - before[0][1]}; "
          f"down {after[1][0] - before[1][0]}, {after[1][1] - before[1][1]}; "
          f"match file {sizes[0]} bytes; test {time.monotonic() - test_start:.1f} s")
