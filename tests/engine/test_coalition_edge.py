"""The coalition benchmark (benchmarks/coalition_edge.py, issue 47): two seats that withhold a
character or a last-level room together gain nothing they keep under version 3 — in the model
and on the protocol mesh, where version 2 let both escape and version 3 forfeits every
withholder."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from benchmarks import abort_edge, coalition_edge, paired
from engine.stream import derive_key

SEED = derive_key(b"test", b"coalition-edge")
ALWAYS = -1.0  # (τ below every gain: the coalition withholds at its first character)


@pytest.fixture
def characters_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The coalition withholds characters only (no rollouts: quick)."""
    monkeypatch.setattr(coalition_edge, "LAST_LEVEL", "(none)")


@pytest.fixture
def one_rollout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rooms judged by one rollout a side (quick)."""
    monkeypatch.setattr(coalition_edge, "ROLLOUTS", 1)


def test_a_coalition_that_never_withholds_is_its_honest_twin() -> None:
    honest = coalition_edge.play(SEED, 4, {})
    assert honest[1] == 0
    for variant in coalition_edge.VARIANTS:
        for rule in ("before", "after"):
            assert coalition_edge.play(SEED, 4, {}, variant, paired.NEVER, rule) == honest


@pytest.mark.parametrize(("variant", "forfeited"), [("both", (2, 3)), ("partner", (3,))])
def test_under_version_3_every_withholder_forfeits(variant: str, forfeited: tuple[int, ...],
                                                   characters_only: None) -> None:
    _, withholds, _, shares = coalition_edge.play(SEED, 4, {}, variant, ALWAYS, "after")
    assert withholds == 1 and all(shares[s] == 0.0 for s in forfeited)
    _, before, _, _ = coalition_edge.play(SEED, 4, {}, variant, ALWAYS, "before")
    assert before >= 1  # (before: nobody forfeits, so it may withhold again)


@pytest.mark.parametrize(("variant", "version", "forfeits"), [
    ("both", 2, 0), ("partner", 2, 0), ("both", 3, 2), ("partner", 3, 1)])
def test_on_the_mesh_version_2_lets_the_coalition_escape_and_version_3_does_not(
        variant: str, version: int, forfeits: int, characters_only: None) -> None:
    _, _, withheld, caught = coalition_edge.protocol_coalition(
        (4, "test", 0, version, variant, ALWAYS, {}))
    assert (withheld, caught) == (1, forfeits)


def test_the_coalition_withholds_last_level_rooms_in_the_model(one_rollout: None) -> None:
    """Before the rule it withholds both its characters and each room of the last level
    (once each: it contributes to no re-draw); after it, the first withholding forfeits both
    and nothing more is withheld."""
    _, before, drawn, _ = coalition_edge.play(SEED, 4, {}, "both", ALWAYS, "before")
    rooms = [e for e in drawn if e.startswith(coalition_edge.LAST_LEVEL)]
    assert before == 2 + len(rooms) and rooms
    _, after, _, shares = coalition_edge.play(SEED, 4, {}, "both", ALWAYS, "after")
    assert after == 1 and shares[2] == shares[3] == 0.0


@pytest.mark.parametrize(("version", "forfeits"), [(2, 0), (3, 2)])
def test_on_the_mesh_the_coalition_withholds_rooms_again_and_again(
        version: int, forfeits: int, one_rollout: None) -> None:
    """Each withholding costs a vote and a reclaim; under version 2 nobody ever forfeits."""
    _, _, withheld, caught = coalition_edge.protocol_coalition(
        (4, "test", 0, version, "both", ALWAYS, {}))
    assert withheld > 1 and caught == forfeits


@pytest.mark.slow
def test_the_coalition_report_carries_every_figure() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert abort_edge.main(["--coalition", "2", "--games", "2", "--sweep-games", "2",
                                "--table-games", "2", "--protocol-matches", "1",
                                "--crash-games", "1", "--workers", "1"]) == 0
    last = json.loads(out.getvalue().splitlines()[-1])
    for key in ("coalition", "edge_before", "ci95_before", "edge_after", "ci95_after",
                "protocol_matches", "protocol_edge_before", "protocol_edge_after",
                "outage_forfeits_after", "outage_forfeit_rate_after", "honest_outage_cost_after",
                "honest_outage_ci95_after"):
        assert key in last, key
    assert last["coalition"] == 2 and last["best_tau_after"] == "never"
    assert last["ci95_after"] == [0.0, 0.0]
