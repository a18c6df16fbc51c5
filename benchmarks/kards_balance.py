"""Dungeons of Kards: the balance checks of rules reference §5.10, re-measured with the engine.

    python -m benchmarks kards-balance --trials 400

Every fight is played by the engine from a position, through the checked API, with the offline
dealer rolling the dice; the counter budget is off and the round cap is 40 (the defaults) unless
``--counter-budget`` is given.  The checks:

* ``hit``: the chance to hit for each t = DEF − ATK, counted over the 36 rolls;
* ``l1`` / ``l2``: a fresh character (no items, no ability) alone against a fresh level-1 or
  level-2 monster on its card, attacking every turn: attack rolls to win, life lost, deaths;
* ``boss``: one fresh character against the Gate Warden, using its ability first (stun or
  weaken the Warden, empower itself) and to heal itself, then attacking;
* ``party``: a co-op party of 2, 3 or 4 distinct characters (random ones) on the Black Gate
  summons the Boss with its escorts and fights it out, each character attacking the
  weakest target it may attack and using its ability as the heuristic bot does; at full life
  and at 75% life;
* ``duel``: Arena duels without abilities, both characters fresh on one card, the first mover
  attacking first: every ordered pairing.

Prints a table per check and, last, one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from typing import Any

from engine.core import Chance, Turn
from engine.kards import from_position
from engine.kards.bots import HeuristicBot, p_hit
from engine.kards.cards import CHARACTERS, MONSTERS
from engine.kards.state import KardsState
from engine.sim import Dealer, bot_key
from engine.stream import derive_key

CHARS = tuple(c.id for c in CHARACTERS)
L1 = tuple(m.id for m in MONSTERS if m.level == 1)
L2 = tuple(m.id for m in MONSTERS if m.level == 2)


def _solo_fight(char: str, monster: str, *, abilities: bool, budget: bool, life: int = 0,
                seed: bytes) -> tuple[bool, int, int]:
    """(won, the character's attack rolls, life lost) of one fight to the end."""
    data: dict[str, Any] = {
        "players": 1, "mode": "solo", "events": False, "abilities": abilities,
        "counter_budget": budget, "map": [["D05", 3, 3]],
        "characters": [{"card": char, **({"life": life} if life else {})}],
        "monsters": [{"card": monster, "at": [3, 3]}],
    }
    state = from_position(data)
    start = state.chars[0].life
    dealer = Dealer(seed)
    rolls = 0
    policy = _AbilityFirst()
    while True:
        if state.monster_index(monster) < 0:
            return True, rolls, start - state.chars[0].life
        if state.is_over:
            return False, rolls, start
        w = state.waiting
        if isinstance(w, Chance):
            rolls += w.event.id.endswith(".attack")
            state = state.apply_chance(w.event.id, dealer.choose(w.event))
        else:
            assert isinstance(w, Turn)
            state = state.apply(w.seat, policy.choose(state, w.seat))


class _AbilityFirst:
    """Use the ability on the enemy (stun, weaken) or on itself (empower) when it can, heal
    itself when it is down by the heal's value, else attack the first target."""

    def choose(self, state: KardsState, seat: int) -> Any:
        legal = state.legal_actions(seat)
        c = state.chars[state.active]
        for a in legal:
            if a.verb != "ability":
                continue
            kind = next(ch.ability for ch in CHARACTERS if c.card.endswith(ch.id)).kind
            target = state.figure(a.args[1])
            if kind in ("stun", "weaken") and target is not None and target.card != c.card:
                if not target.effects:
                    return a
            if kind == "empower" and a.args[1] == c.card and not c.effects:
                return a
            if kind == "heal" and c.life <= 14 - 5:
                return a
        for a in legal:
            if a.verb == "attack":
                return a
        return legal[0]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def check_hit() -> dict[str, int]:
    return {str(t): round(p_hit(10, 10 + t) * 36) for t in range(1, 13)}


def check_monsters(level: int, trials: int, budget: bool) -> dict[str, Any]:
    monsters = L1 if level == 1 else L2
    rows = []
    for char, monster in itertools.product(CHARS, monsters):
        rolls, lost, deaths = [], [], 0
        for t in range(trials):
            won, n, life = _solo_fight(char, monster, abilities=False, budget=budget,
                                       seed=derive_key("balance", f"l{level}", char, monster,
                                                       str(t)))
            if won:
                rolls.append(n)
                lost.append(life)
            else:
                deaths += 1
        rows.append({"character": char, "monster": monster, "rolls": round(_mean(rolls), 2),
                     "life_lost": round(_mean(lost), 2),
                     "deaths": round(deaths / trials, 3)})
    return {
        "pairings": rows,
        "rolls": [min(r["rolls"] for r in rows), round(_mean([r["rolls"] for r in rows]), 2),
                  max(r["rolls"] for r in rows)],
        "life_lost": [min(r["life_lost"] for r in rows), max(r["life_lost"] for r in rows)],
        "deaths": [min(r["deaths"] for r in rows), max(r["deaths"] for r in rows)],
    }


def check_boss_alone(trials: int, budget: bool) -> dict[str, Any]:
    out = {}
    for char in CHARS:
        wins = sum(_solo_fight(char, "warden", abilities=True, budget=budget,
                               seed=derive_key("balance", "boss", char, str(t)))[0]
                   for t in range(trials))
        out[char] = round(wins / trials, 3)
    return {"by_character": out, "max": max(out.values()),
            "mean": round(_mean(list(out.values())), 3)}


def _party_fight(party: tuple[str, ...], share: float, budget: bool, seed: bytes) -> bool:
    """The first character stands on a yellow gate next to the Black Gate with the Portal
    Stone; the others wait on the Black Gate.  It summons the Boss (and the escorts)."""
    chars = []
    for i, char in enumerate(party):
        full = next(c.life for c in CHARACTERS if c.id == char)
        entry: dict[str, Any] = {"card": char, "life": max(1, math.ceil(full * share))}
        if i == 0:
            entry.update({"at": [4, 3], "stones": ["portal_stone"]})
        chars.append(entry)
    data = {"players": len(party), "mode": "coop", "events": False, "counter_budget": budget,
            "map": [["D05", 3, 3], ["D01", 4, 3]], "characters": chars}
    state = from_position(data)
    state = state.apply(0, state.parse_action(0, "stone portal_stone D05"))
    dealer = Dealer(seed)
    bot = HeuristicBot(margin=0.0, mix=(0, 1))
    while not state.is_over:
        w = state.waiting
        if isinstance(w, Chance):
            state = state.apply_chance(w.event.id, dealer.choose(w.event))
        else:
            assert isinstance(w, Turn)
            action = bot.choose(state.view(w.seat), bot_key(seed, w.step, w.seat, 0))
            state = state.apply(w.seat, action)
    return bool(state.waiting.outcome.winners)  # type: ignore[union-attr]


def check_party(trials: int, budget: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for size in (2, 3, 4):
        for share in (1.0, 0.75):
            wins = 0
            for t in range(trials):
                seed = derive_key("balance", "party", str(size), str(share), str(t))
                order = sorted(CHARS, key=lambda c, s=seed: derive_key(s, c))
                wins += _party_fight(tuple(order[:size]), share, budget, seed)
            out[f"{size}@{int(share * 100)}%"] = round(wins / trials, 3)
    return out


def _duel(first: str, second: str, budget: bool, seed: bytes) -> bool:
    """Whether ``first`` (moving first) wins a duel without abilities (a mirror match uses
    two copies of the pack, one character from each)."""
    data: dict[str, Any] = {
        "players": 2, "abilities": False, "events": False, "counter_budget": budget,
        "map": [["D01", 0, 0], ["D02", 6, 0], ["D03", 0, 6], ["D04", 6, 6]],
        "characters": [{"card": first, "at": [0, 0]},
                       {"card": second, "at": [0, 0], "start": [6, 6]}]}
    if first == second:
        data.update({"copies": 2, "map": [[f"A-D0{i}", x, y] for i, (x, y) in enumerate(
            ((0, 0), (8, 0), (0, 8), (8, 8)), start=1)]})
        data["characters"] = [{"card": "A-" + first, "at": [0, 0]},
                              {"card": "B-" + second, "at": [0, 0], "start": [8, 8]}]
    state = from_position(data)
    dealer = Dealer(seed)
    while not state.is_over:  # every decision is forced (Attack): only dice are asked
        w = state.waiting
        assert isinstance(w, Chance), w
        state = state.apply_chance(w.event.id, dealer.choose(w.event))
    return 0 in state.waiting.outcome.winners  # type: ignore[union-attr]


def check_duels(trials: int, budget: bool) -> dict[str, Any]:
    table: dict[str, float] = {}
    for a, b in itertools.product(CHARS, CHARS):
        if a == b:
            continue
        wins = sum(_duel(a, b, budget, derive_key("balance", "duel", a, b, str(t)))
                   for t in range(trials))
        table[f"{a}>{b}"] = round(wins / trials, 3)
    # A pairing's share for a: the mean of a moving first and a moving second.
    pairs = {}
    for a, b in itertools.combinations(CHARS, 2):
        pairs[f"{a}-{b}"] = round((table[f"{a}>{b}"] + 1 - table[f"{b}>{a}"]) / 2, 3)
    worst = max(pairs.items(), key=lambda kv: abs(kv[1] - 0.5))
    mirror = []
    for c in CHARS:
        mirror.append(_mean([float(_duel(c, c, budget, derive_key("balance", "mirror", c,
                                                                    str(t))))
                             for t in range(trials)]))
    return {"pairings": pairs, "worst": [worst[0], worst[1]],
            "first_mover_mirror": round(_mean(mirror), 3)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks kards-balance",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=300, help="fights per case")
    parser.add_argument("--counter-budget", action="store_true",
                        help="with ruling 2's counter budget (the rules file's old default)")
    parser.add_argument("--checks", default="hit,l1,l2,boss,party,duel")
    args = parser.parse_args(argv)
    checks = args.checks.split(",")
    start = time.perf_counter()
    report: dict[str, Any] = {"benchmark": "kards-balance", "trials": args.trials,
                              "counter_budget": args.counter_budget, "round_cap": 40}
    if "hit" in checks:
        report["hit"] = check_hit()
        print("hit (of 36) by t = DEF - ATK:", report["hit"])
    for level in (1, 2):
        if f"l{level}" in checks:
            got = check_monsters(level, args.trials, args.counter_budget)
            report[f"l{level}"] = {k: v for k, v in got.items() if k != "pairings"}
            print(f"fresh character vs a level-{level} monster: rolls to win "
                  f"{got['rolls'][0]}-{got['rolls'][2]} (mean {got['rolls'][1]}), life lost "
                  f"{got['life_lost'][0]}-{got['life_lost'][1]}, deaths "
                  f"{got['deaths'][0]:.1%}-{got['deaths'][1]:.1%}")
            for row in got["pairings"]:
                print(f"  {row['character']:8} {row['monster']:9} rolls {row['rolls']:5} "
                      f"lost {row['life_lost']:5} deaths {row['deaths']:.1%}")
    if "boss" in checks:
        report["boss"] = check_boss_alone(args.trials, args.counter_budget)
        print("the Boss alone, ability used:", report["boss"])
    if "party" in checks:
        report["party"] = check_party(max(50, args.trials // 3), args.counter_budget)
        print("the Boss with co-op escorts (party size @ life):", report["party"])
    if "duel" in checks:
        got = check_duels(args.trials, args.counter_budget)
        report["duel"] = {"worst": got["worst"],
                          "first_mover_mirror": got["first_mover_mirror"]}
        print("Arena duels without abilities (share of the first named, both orders):")
        for pair, share in got["pairings"].items():
            print(f"  {pair:16} {share:.3f}")
        print(f"  worst {got['worst']}, first mover in mirror matches "
              f"{got['first_mover_mirror']:.3f}")
    report["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(report))
    return 0
