"""The numba battle kernel (nerathsim/battle/kernel.py) against the exact solver and the numpy engine.

Tolerances are 4.5 standard errors of the sampled estimate (from the exact probability where there
is one); for the many rare ends and round counts (a handful of battles in 200,000) a floor of RARE
battles is added, as the normal approximation does not hold there. Every run has a fixed seed, so a
pass is reproducible.
"""
import argparse
import math
import subprocess
import sys

import numpy as np
import pytest

import nerathsim
from balancelab import parser as cli_parser
from nerathsim import BattleRules
from nerathsim.battle import kernel, monte_carlo
from nerathsim.battle.army import start_battle
from nerathsim.battle.casualties import resolve_casualties
from nerathsim.battle.outcomes import ATTACKER_WINS, DEFENDER_HOLDS, DRAW, RETREAT
from nerathsim.battle.steps import Retreat

Z = 4.5
RARE = 3   # battles: slack for ends and round counts with an expected count near zero

# (id, attacker, defender, keyword arguments): hand-chosen armies covering every rule the kernel plays
BATTLES = [
    ("issue", {"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8}, {}),
    ("first-strike", {"wizard": 2, "footsoldier": 3}, {"footsoldier": 4, "wizard": 1}, {}),
    ("dragons", {"dragon": 2, "footsoldier": 1}, {"footsoldier": 6}, {}),
    ("castle", {"footsoldier": 4, "monster": 1}, {"footsoldier": 3, "castle": 1}, {}),
    ("castle-never-hit", {"footsoldier": 3, "fighter": 1}, {"footsoldier": 2, "castle": 1},
     {"rules": BattleRules(castle_mode="never_hit")}),
    ("sea-cargo", {"warship": 2, "fighter": 2, "footsoldier": 2}, {"warship": 1, "storm_elemental": 2},
     {"at_sea": True}),
    ("sea-heroes", {"warship": 2, "wizard": 1, "monster": 1, "dragon": 1}, {"warship": 3, "fighter": 2},
     {"at_sea": True}),
    ("retreat-after", {"footsoldier": 4}, {"footsoldier": 4}, {"retreat": "after:2"}),
    ("retreat-units", {"footsoldier": 4, "dragon": 1}, {"footsoldier": 5}, {"retreat": "units:2"}),
    ("retreat-chance", {"footsoldier": 4, "siege_engine": 1}, {"footsoldier": 5}, {"retreat": "below:0.4"}),
    ("custom-order", {"dragon": 2, "footsoldier": 2}, {"footsoldier": 5, "monster": 1},
     {"casualty_order": {"attacker": ["dragon", "damage:dragon"]}, "rules": BattleRules(damaged_units_fight=False)}),
    ("threshold-5", {"storm_elemental": 2, "footsoldier": 2}, {"monster": 2}, {"rules": BattleRules(hit_threshold=5)}),
    ("mixed", {"footsoldier": 8, "siege_engine": 4, "fighter": 3, "wizard": 2, "monster": 2, "dragon": 1},
     {"footsoldier": 10, "siege_engine": 3, "fighter": 2, "monster": 2, "wizard": 1, "dragon": 1, "castle": 1}, {}),
]
IDS = [b[0] for b in BATTLES]
KEYS = ("attacker_wins", "defender_wins", "draw", "attacker_retreats")


def _rows(t):
    """{(outcome, attacker survivors, defender survivors, captured): probability} of an EndTable."""
    return {(int(o), tuple(a), tuple(d), tuple(c)): float(p)
            for o, a, d, c, p in zip(t.outcome, t.attacker, t.defender, t.captured, t.prob)}


def _agree_with_exact(mc, exact):
    n = mc.n
    for key in KEYS:
        p = getattr(exact, key)
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(getattr(mc, key) - p) <= Z * se + 1e-12, (key, getattr(mc, key), p, se)
    for name in ("tuv_swing", "expected_rounds"):
        lo, hi = mc.intervals[name]
        se = (hi - lo) / (2 * 1.959964)
        assert abs(getattr(mc, name) - getattr(exact, name)) <= Z * se + 1e-9, name
    # every way the battle can end, and how many rounds it lasts
    want, got = _rows(exact.ends), _rows(mc.ends)
    assert set(got) <= {k for k in want if want[k] > 0}, "the kernel reached an end the exact solver cannot"
    for k, p in want.items():
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(got.get(k, 0.0) - p) <= Z * se + RARE / n, (k, got.get(k, 0.0), p)
    r_exact, r_mc = np.asarray(exact.rounds), np.asarray(mc.rounds)
    for r in range(1, max(len(r_exact), len(r_mc))):
        p = r_exact[r] if r < len(r_exact) else 0.0
        q = r_mc[r] if r < len(r_mc) else 0.0
        assert abs(q - p) <= Z * math.sqrt(max(p * (1 - p), 1e-12) / n) + RARE / n, (r, q, p)


@pytest.mark.parametrize("name,attacker,defender,kw", BATTLES, ids=IDS)
def test_kernel_agrees_with_the_exact_solver(name, attacker, defender, kw):
    exact = nerathsim.battle_odds(attacker, defender, **kw)
    mc = nerathsim.battle_odds(attacker, defender, method="monte_carlo", n=200_000, seed=21, engine="kernel", **kw)
    assert mc.ends.engine == "kernel"
    _agree_with_exact(mc, exact)


@pytest.mark.parametrize("name,attacker,defender,kw", BATTLES[:7], ids=IDS[:7])
def test_the_general_loop_agrees_with_the_exact_solver(name, attacker, defender, kw, monkeypatch):
    """Battles too large for the round tables are played side by side, one draw per side and step."""
    monkeypatch.setattr(kernel, "MAX_PAIR_ENTRIES", 0)
    exact = nerathsim.battle_odds(attacker, defender, **kw)
    mc = nerathsim.battle_odds(attacker, defender, method="monte_carlo", n=100_000, seed=4, engine="kernel", **kw)
    _agree_with_exact(mc, exact)


@pytest.mark.parametrize("name,attacker,defender,kw", BATTLES[::3], ids=IDS[::3])
def test_kernel_and_numpy_engine_give_the_same_distributions(name, attacker, defender, kw):
    n = 150_000
    py = nerathsim.battle_odds(attacker, defender, method="monte_carlo", n=n, seed=8, **kw)
    kn = nerathsim.battle_odds(attacker, defender, method="monte_carlo", n=n, seed=8, engine="kernel", **kw)
    assert py.ends.engine == "python" and kn.ends.engine == "kernel"
    for key in KEYS:
        p = (getattr(py, key) + getattr(kn, key)) / 2
        se = math.sqrt(max(p * (1 - p), 1e-12) * 2 / n)
        assert abs(getattr(py, key) - getattr(kn, key)) <= Z * se + 1e-12, key
    for name in ("tuv_swing", "expected_rounds", "attacker_gold_lost", "defender_gold_lost"):
        se = math.hypot(*((t.intervals[name][1] - t.intervals[name][0]) / (2 * 1.959964) for t in (py, kn)))
        assert abs(getattr(py, name) - getattr(kn, name)) <= Z * se + 1e-9, name
    for side in ("attacker", "defender"):
        for unit, value in py.expected_survivors["overall"][side].items():
            assert kn.expected_survivors["overall"][side][unit] == pytest.approx(value, abs=0.03)


def test_a_huge_battle_uses_the_general_loop_and_agrees_with_the_numpy_engine():
    """300 v 300 footsoldiers: too many pair states for round tables (MAX_PAIR_ENTRIES), and too large
    for the exact solver; the two sampled engines agree."""
    a, d = {"footsoldier": 300}, {"footsoldier": 290, "siege_engine": 5}
    state = start_battle(a, d)
    plans = resolve_casualties(None, state, BattleRules())
    sides = (kernel.SideChain(state.attacker, plans[0], state.situation("attacker", BattleRules()), BattleRules()),
             kernel.SideChain(state.defender, plans[1], state.situation("defender", BattleRules()), BattleRules()))
    assert kernel.round_bound(*sides) > kernel.MAX_PAIR_ENTRIES
    n = 20_000
    py = nerathsim.battle_odds(a, d, method="monte_carlo", n=n, seed=2)
    kn = nerathsim.battle_odds(a, d, method="monte_carlo", n=n, seed=2, engine="kernel")
    for key in ("attacker_wins", "defender_wins"):
        p = (getattr(py, key) + getattr(kn, key)) / 2
        assert abs(getattr(py, key) - getattr(kn, key)) <= Z * math.sqrt(p * (1 - p) * 2 / n) + 1e-12, key
    se = math.hypot(*((t.intervals["expected_rounds"][1] - t.intervals["expected_rounds"][0]) / 3.92 for t in (py, kn)))
    assert abs(py.expected_rounds - kn.expected_rounds) <= Z * se


# ----------------------------------------------------------------------------------------
# Scenarios where every die hits: the kernel, the numpy engine and the reference agree exactly
# ----------------------------------------------------------------------------------------
SURE = BattleRules(hit_threshold=1)
SURE_BATTLES = [
    # 3 v 2 footsoldiers: round 1, 3 hits kill both defenders, 2 hits kill two attackers
    ({"footsoldier": 3}, {"footsoldier": 2}, {}, ATTACKER_WINS, 1, {"footsoldier": 1}),
    # first strike: the wizard kills the footsoldier before it rolls
    ({"wizard": 1}, {"footsoldier": 1}, {}, ATTACKER_WINS, 1, {"wizard": 1}),
    # the dragon takes the free hit, survives and heals; the castle absorbs a hit and is captured
    ({"dragon": 1, "footsoldier": 2}, {"castle": 1, "footsoldier": 1}, {}, ATTACKER_WINS, 1,
     {"footsoldier": 1, "dragon": 1}),
    # both wiped out in the same round
    ({"footsoldier": 2}, {"footsoldier": 2}, {}, DRAW, 1, {}),
    # at sea: the warship sinks and drowns its cargo; one storm elemental (2 dice at sea) is left
    ({"warship": 1, "footsoldier": 2}, {"storm_elemental": 2}, {"at_sea": True}, DEFENDER_HOLDS, 1, {}),
    # retreat after the first round, both still standing
    ({"dragon": 2}, {"dragon": 2}, {"retreat": "after:1"}, RETREAT, 1, {"dragon": 2}),
]


@pytest.mark.parametrize("attacker,defender,kw,outcome,rounds,left", SURE_BATTLES)
def test_sure_hits_give_one_end_in_every_engine(attacker, defender, kw, outcome, rounds, left):
    kw = dict(kw, rules=SURE)
    report = nerathsim.resolve_battle(attacker, defender, np.random.default_rng(0), **kw)
    for engine in ("python", "kernel"):
        t = nerathsim.monte_carlo_battle(attacker, defender, n=1000, seed=3, engine=engine, **kw)
        assert t.engine == engine
        assert len(t.outcome) == 1 and int(t.outcome[0]) == outcome and t.counts.tolist() == [1000]
        names = t.units
        assert {names[j]: int(c) for j, c in enumerate(t.attacker[0]) if c} == left == report.attacker
        assert np.argmax(t.rounds) == rounds == report.rounds and t.rounds[rounds] == 1.0


def test_a_captured_castle_is_reported_as_in_the_numpy_engine():
    kw = {"rules": SURE}
    a, d = {"footsoldier": 3}, {"castle": 1, "footsoldier": 1}
    for engine in ("python", "kernel"):
        t = nerathsim.monte_carlo_battle(a, d, n=10, seed=0, engine=engine, **kw)
        assert {t.units[j]: int(c) for j, c in enumerate(t.captured[0]) if c} == {"castle": 1}
        assert not t.defender.any()


# ----------------------------------------------------------------------------------------
# Determinism and the engine switch
# ----------------------------------------------------------------------------------------
def test_same_seed_same_battles_and_runs_are_prefixes():
    a, d = {"footsoldier": 3, "wizard": 1}, {"footsoldier": 4}
    one = nerathsim.monte_carlo_battle(a, d, n=70_000, seed=8, engine="kernel")
    two = nerathsim.monte_carlo_battle(a, d, n=70_000, seed=8, engine="kernel")
    assert np.array_equal(one.counts, two.counts) and np.array_equal(one.outcome, two.outcome)
    assert np.array_equal(one.rounds, two.rounds)
    other = nerathsim.monte_carlo_battle(a, d, n=70_000, seed=9, engine="kernel")
    assert not np.array_equal(one.counts, other.counts)
    short = nerathsim.monte_carlo_battle(a, d, n=kernel.CHUNK, seed=8, engine="kernel")
    longer = nerathsim.monte_carlo_battle(a, d, n=kernel.CHUNK + 1, seed=8, engine="kernel")

    def tally(t):
        return {(int(o), tuple(x), tuple(y)): int(c) for o, x, y, c in zip(t.outcome, t.attacker, t.defender, t.counts)}
    s, l = tally(short), tally(longer)
    assert sum(l[k] - s.get(k, 0) for k in l) == 1 and all(l.get(k, 0) >= v for k, v in s.items())


def test_the_kernel_draws_from_seeds_of_the_seed_sequence():
    seeds = kernel.chunk_seeds(5, 3 * kernel.CHUNK + 1)
    assert len(seeds) == 4 and seeds.dtype == np.uint32
    assert seeds[2] == np.random.SeedSequence(5, spawn_key=(2,)).generate_state(1, dtype=np.uint32)[0]


def test_engine_choice_and_bad_engines():
    a, d = {"footsoldier": 2}, {"footsoldier": 2}
    assert nerathsim.monte_carlo_battle(a, d, n=100).engine == "python"          # the default: the reference
    assert nerathsim.monte_carlo_battle(a, d, n=100, engine="auto").engine == "kernel"
    assert nerathsim.monte_carlo_battle(a, d, n=100, engine="auto", sampler="numpy").engine == "python"
    assert nerathsim.battle_odds(a, d).ends.engine is None                        # exact: no sampling engine
    with pytest.raises(ValueError, match="engine must be one of python, kernel, auto"):
        nerathsim.battle_odds(a, d, method="monte_carlo", engine="gpu")
    with pytest.raises(ValueError, match="sampler='numpy' applies to engine='python'"):
        nerathsim.monte_carlo_battle(a, d, engine="kernel", sampler="numpy")
    text = str(nerathsim.battle_odds(a, d, method="monte_carlo", n=1000, engine="kernel"))
    assert "Monte Carlo (numba kernel), 1,000 battles, seed 0" in text


def test_the_kernel_keeps_the_round_cap():
    """Nobody can hit anybody (threshold above every die): the kernel stops like the numpy engine."""
    state = start_battle({"footsoldier": 1}, {"footsoldier": 1}, rules=BattleRules(hit_threshold=30))
    plans = resolve_casualties(None, state, BattleRules(hit_threshold=30))
    with pytest.raises(RuntimeError, match="undecided after"):
        kernel.simulate_kernel(state, BattleRules(hit_threshold=30), plans, Retreat(), 2, 0)


def test_importing_nerathsim_does_not_import_numba():
    """numba costs about a second to import: only callers of the kernel pay it (worker start-up)."""
    code = "import sys, nerathsim; nerathsim.battle_odds('2 footsoldier', '2 footsoldier'); print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    assert monte_carlo.ENGINES == ("python", "kernel", "auto")


def test_the_battle_command_runs_the_kernel_on_request(capsys):
    parser = argparse.ArgumentParser(prog="balancelab")
    cli_parser.add_battle_units(parser.add_subparsers())
    argv = ["battle", "6 footsoldier, 2 siege_engine", "vs", "8 footsoldier", "--method", "monte_carlo",
            "--n", "50000", "--seed", "3", "--engine", "kernel"]
    args = parser.parse_args(argv)
    assert args.func(args) == 0
    out = capsys.readouterr().out
    want = nerathsim.battle_odds({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8}, method="monte_carlo",
                                 n=50_000, seed=3, engine="kernel")
    assert out.strip() == str(want).strip() and "Monte Carlo (numba kernel), 50,000 battles, seed 3" in out
    args = parser.parse_args(argv[:-1] + ["gpu"])
    assert args.func(args) == 2
    assert "engine must be one of python, kernel, auto" in capsys.readouterr().err
