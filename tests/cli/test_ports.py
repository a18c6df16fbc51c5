"""``join HOST:PORT`` and ``host --port``: an address or port that cannot be right is a usage
error (one line, status 2), never an internal error; a table name is still looked up."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.lan import UsageError, check_lobby_port, parse_target
from tests.cli.test_command import cryptcrawl

BAD_TARGETS = [
    ("127.0.0.1:99999", "port 99999 is out of range (1 to 65535)"),
    ("127.0.0.1:65536", "port 65536 is out of range (1 to 65535)"),
    ("127.0.0.1:0", "port 0 is out of range (1 to 65535)"),
    (":0", "the host is missing"),
    (":5000", "the host is missing"),
    ("127.0.0.1:abc", "'abc' is not a port number"),
    ("127.0.0.1:-5", "a port cannot be negative"),
    ("::1", "an IPv6 address goes in brackets, with a port: [::1]:PORT"),
    ("[::1]", "the port is missing"),
    ("[::1]:99999", "port 99999 is out of range"),
    ("[nope]:5000", "'nope' in brackets is not an IPv6 address"),
    ("127.0.0.1", "the port is missing"),
]


@pytest.mark.mdns
@pytest.mark.parametrize(("target", "reason"), BAD_TARGETS, ids=[t for t, _ in BAD_TARGETS])
def test_join_with_a_bad_address_is_a_usage_error(tmp_path: Path, target: str,
                                                  reason: str) -> None:
    result = cryptcrawl("join", target, "--data-dir", str(tmp_path), "--bot", "random",
                        "--interface", "127.0.0.1", "--wait", "0.5", timeout=30)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"cryptcrawl join: error: {target!r} is not a valid "
                                    "HOST:PORT: "), result.stderr
    assert reason in result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert "Looking for" not in result.stdout  # not searched for as a table name


@pytest.mark.mdns
@pytest.mark.parametrize("port", ["99999", "65536"])
def test_host_with_a_port_out_of_range_is_a_usage_error(tmp_path: Path, port: str) -> None:
    result = cryptcrawl("host", "--port", port, "--interface", "127.0.0.1", "--data-dir",
                        str(tmp_path), "--yes", "--plain", timeout=30)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (f"cryptcrawl host: error: --port {port} is not a TCP port (0 to "
                             "65535; 0: any free port) (see cryptcrawl host --help)\n")


@pytest.mark.mdns
def test_a_table_name_with_a_colon_is_still_a_name(tmp_path: Path) -> None:
    result = cryptcrawl("join", "Game: night", "--data-dir", str(tmp_path), "--interface",
                        "127.0.0.1", "--wait", "0.5", timeout=30)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "no open table 'Game: night'" in result.stderr


def test_parse_target() -> None:
    assert parse_target("127.0.0.1:5000") == ("127.0.0.1", 5000)
    assert parse_target("[::1]:5000") == ("::1", 5000)
    assert parse_target("[fe80::1%eth0]:5000") == ("fe80::1%eth0", 5000)
    assert parse_target("table.lan:5000") == ("table.lan", 5000)
    assert parse_target("localhost:5000") == ("localhost", 5000)
    for name in ("", "Hal's table", "Game: night", "my table", "T1234", "lobby:abc"):
        assert parse_target(name) is None, name
    for target, _ in BAD_TARGETS:
        with pytest.raises(UsageError):
            parse_target(target)
    assert check_lobby_port(0) == 0 and check_lobby_port(65535) == 65535
    with pytest.raises(UsageError, match="--port 65536 is not a TCP port"):
        check_lobby_port(65536)
