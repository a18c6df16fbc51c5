"""The multi-host test: network namespaces on a private bridge; the host peer advertises its
table over mDNS, two others discover it over mDNS, join, and the match is played out; from a
fourth, ``cryptcrawl spectate NAME`` finds the live match over mDNS and watches it to its end.

Root only (skipped with the reason otherwise).  The namespaces, the veth pairs and the bridge
are this test's own, with names unique to the run; the bridge has no address and is attached to
no real interface, so nothing reaches the machine's own network.  A finalizer kills every peer
process and deletes every namespace and link, whatever happened.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest
from protocol.verify.verifier import verify

ROOT = Path(__file__).resolve().parents[2]
PEERS = 3
HOSTS = PEERS + 1  # (the last: a spectator)
DEADLINE = 180.0  # s, the whole match, every process
THINK = 0.15  # s, each bot's decision (the match lasts long enough to be watched)


def _skip_reason() -> str:
    if not sys.platform.startswith("linux"):
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "needs root to create network namespaces (run as root to include it)"
    if shutil.which("ip") is None:
        return "needs the `ip` command (iproute2)"
    return ""


pytestmark = pytest.mark.skipif(bool(_skip_reason()), reason=_skip_reason() or "-")


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)
    if check and done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done


@dataclass
class Lan:
    bridge: str
    namespaces: list[str] = field(default_factory=list)
    addresses: list[str] = field(default_factory=list)
    host_links: list[str] = field(default_factory=list)

    def remove(self) -> None:
        """Delete everything this LAN made; errors are ignored (it may be half built)."""
        for ns in self.namespaces:
            pids = ip("netns", "pids", ns, check=False).stdout.split()
            for pid in pids:  # only processes inside this test's own namespace
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.kill(int(pid), signal.SIGKILL)
            ip("netns", "del", ns, check=False)
        for link in [*self.host_links, self.bridge]:
            if ip("link", "show", link, check=False).returncode == 0:
                ip("link", "del", link, check=False)


@pytest.fixture
def lan(request: pytest.FixtureRequest) -> Lan:
    """Four namespaces, each with lo up, one veth into a private bridge, an address in a
    private /24 and a 224.0.0.0/4 route, removed by a finalizer even if setup fails."""
    tag = f"{os.getpid() % 10**7}"
    net = Lan(bridge=f"ccbr{tag}")
    request.addfinalizer(net.remove)
    subnet = f"10.213.{random.randrange(1, 255)}"
    try:
        made = ip("link", "add", net.bridge, "type", "bridge", "mcast_snooping", "0",
                  "nf_call_iptables", "0", check=False)
        if made.returncode != 0:
            ip("link", "add", net.bridge, "type", "bridge")
        ip("link", "set", net.bridge, "addrgenmode", "none", check=False)  # no IPv6 from here
        ip("link", "set", net.bridge, "up")
        for n in range(HOSTS):
            ns, outer, inner = f"cc{tag}{n}", f"ccv{tag}{n}", f"ccp{tag}{n}"
            address = f"{subnet}.{n + 1}"
            ip("netns", "add", ns)
            net.namespaces.append(ns)
            ip("link", "add", outer, "type", "veth", "peer", "name", inner)
            net.host_links.append(outer)
            ip("link", "set", inner, "netns", ns)
            ip("link", "set", outer, "addrgenmode", "none", check=False)
            ip("link", "set", outer, "master", net.bridge)
            ip("link", "set", outer, "up")
            ip("-n", ns, "link", "set", "lo", "up")
            ip("-n", ns, "link", "set", inner, "addrgenmode", "none", check=False)
            ip("-n", ns, "addr", "add", f"{address}/24", "dev", inner)
            ip("-n", ns, "link", "set", inner, "up")
            ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", inner)
            net.addresses.append(address)
    except RuntimeError as exc:
        if not net.namespaces and "ermission" in str(exc):
            pytest.skip(f"cannot create network namespaces here: {exc}")
        raise
    return net


@dataclass
class Proc:
    popen: subprocess.Popen[bytes]
    log: IO[bytes]
    log_path: Path


@pytest.fixture
def procs() -> Iterator[list[Proc]]:
    """Every peer process started; killed (by process group) in the finalizer."""
    started: list[Proc] = []
    yield started
    for proc in started:
        if proc.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.popen.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.popen.wait(timeout=10)
        proc.log.close()


def spawn(procs: list[Proc], ns: str, args: list[str], log_path: Path,
          module: str = "tests.p2p.netns_peer") -> Proc:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    env.pop("CRYPTCRAWL_DEBUG", None)
    log = log_path.open("wb")
    popen = subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, "-m", module, *args],
                             cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
                             stderr=subprocess.STDOUT, start_new_session=True)
    proc = Proc(popen, log, log_path)
    procs.append(proc)
    return proc


def test_three_hosts_discover_join_and_finish(lan: Lan, procs: list[Proc],
                                              tmp_path: Path) -> None:
    table_id = os.urandom(8).hex()
    started = time.monotonic()
    roles = [["host", "--players", str(PEERS)]] + [["join"]] * (PEERS - 1)
    seats = list(zip(lan.namespaces[:PEERS], lan.addresses[:PEERS], strict=True))
    for n, (ns, address) in enumerate(seats):
        spawn(procs, ns, ["--data-dir", str(tmp_path / f"peer{n}"), "--address", address,
                          "--table-id", table_id, "--result", str(tmp_path / f"result{n}.json"),
                          "--name", f"peer{n}", "--deadline", str(DEADLINE - 10),
                          "--think", str(THINK), *roles[n]], tmp_path / f"peer{n}.log")
    # The spectator: the real command, looking for the table's live match by its name.
    watcher = spawn(procs, lan.namespaces[PEERS],
                    ["spectate", f"netns table {table_id[:6]}", "--interface",
                     lan.addresses[PEERS], "--wait", "90"], tmp_path / "spectator.log",
                    module="cli.main")

    def logs() -> str:
        return "\n".join(f"--- {p.log_path.name}\n{p.log_path.read_text(errors='replace')[-3000:]}"
                         for p in procs)

    for proc in procs:
        left = DEADLINE - (time.monotonic() - started)
        try:
            proc.popen.wait(timeout=max(1.0, left))
        except subprocess.TimeoutExpired:
            pytest.fail(f"the match did not finish within {DEADLINE:.0f} s\n{logs()}")
    elapsed = time.monotonic() - started
    codes = [p.popen.returncode for p in procs]
    assert codes == [0] * HOSTS, f"exit codes {codes}\n{logs()}"

    results: list[dict[str, Any]] = [json.loads((tmp_path / f"result{n}.json").read_text())
                                     for n in range(PEERS)]
    host = results[0]
    # The joiners found the table over mDNS, at the host's namespace address.
    for joiner in results[1:]:
        found = joiner["found"]
        assert (found["host"], found["port"]) == (lan.addresses[0], host["port"]), found
        assert found["fingerprint"] == host["fingerprint"]
        assert found["seats"][1] == PEERS and found["seats"][0] < PEERS
    assert host["seats"] == list(range(2, PEERS + 1))  # the advert followed the seats
    assert sorted(r["seat"] for r in results) == list(range(PEERS))
    assert all(r["signed"] for r in results)

    # Every peer's match file: the same match, and it verifies to the same result.
    paths = [Path(r["path"]) for r in results]
    assert len({p.name for p in paths}) == 1
    verdicts = [verify(p.read_bytes()) for p in paths]
    for path, verdict in zip(paths, verdicts, strict=True):
        assert verdict.valid, f"{path}: {verdict.verdict}: {verdict.reason}"
    assert len({(v.final_digest, v.winners) for v in verdicts}) == 1
    # The spectator found the live match over mDNS, saw it to its result, refused nothing, and
    # was shown no seat's private knowledge (the bytes it received are checked on loopback:
    # tests/p2p/test_watchers.py).
    seen = watcher.log_path.read_text(errors="replace")
    assert "Watching Dungeon Raiders, 3 players: A host, " in seen, seen[-2000:]
    assert "refused" not in seen and "Traceback" not in seen, seen[-2000:]
    assert "Your cards" not in seen and "torch shows" not in seen
    assert "stopped relaying" not in seen, seen[-2000:]
    assert "Final" in seen or "wins" in seen, seen[-2000:]
    assert host["live_port"] != host["port"], host  # (the match port, not the lobby's)
    print(f"netns match: {elapsed:.1f} s; discovery "
          f"{[r['found']['seconds'] for r in results[1:]]} s")
