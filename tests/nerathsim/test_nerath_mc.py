"""Monte Carlo against the exact solver (within 4 standard errors), and the kernel's own contract."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerathsim
from nerathsim import Army, BattleRules, Situation, UnitTable
from nerathsim.battle.casualties import CasualtyOrder, assign_hits, default_plan
from nerathsim.battle.monte_carlo import CHUNK, apply_hits, compile_side

MIXED_A = {"footsoldier": 8, "siege_engine": 4, "fighter": 3, "wizard": 2, "monster": 2, "dragon": 1}
MIXED_D = {"footsoldier": 10, "siege_engine": 3, "fighter": 2, "monster": 2, "wizard": 1, "dragon": 1, "castle": 1}

# (id, attacker, defender, keyword arguments); a dozen battles covering every rule
BATTLES = [
    ("1v1", {"footsoldier": 1}, {"footsoldier": 1}, {}),
    ("issue", {"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8}, {}),
    ("first-strike", {"wizard": 2, "footsoldier": 3}, {"footsoldier": 4, "wizard": 1}, {}),
    ("dragons", {"dragon": 2}, {"footsoldier": 6}, {}),
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
]


def _within(mc, exact, key, z=4.0):
    """|MC - exact| within z standard errors of the MC estimate (SE from the exact p)."""
    p = getattr(exact, key)
    se = math.sqrt(max(p * (1 - p), 1e-12) / mc.n)
    assert abs(getattr(mc, key) - p) <= z * se + 1e-12, (key, getattr(mc, key), p, se)


@pytest.mark.parametrize("name,attacker,defender,kw", BATTLES, ids=[b[0] for b in BATTLES])
def test_monte_carlo_agrees_with_exact(name, attacker, defender, kw):
    exact = nerathsim.battle_odds(attacker, defender, **kw)
    mc = nerathsim.battle_odds(attacker, defender, method="monte_carlo", n=60_000, seed=11, **kw)
    for key in ("attacker_wins", "defender_wins", "draw", "attacker_retreats"):
        _within(mc, exact, key)
    lo, hi = mc.intervals["tuv_swing"]
    se = (hi - lo) / (2 * 1.959964)
    assert abs(mc.tuv_swing - exact.tuv_swing) <= 4 * se + 1e-9
    lo, hi = mc.intervals["expected_rounds"]
    assert abs(mc.expected_rounds - exact.expected_rounds) <= 4 * (hi - lo) / (2 * 1.959964) + 1e-9


@pytest.mark.parametrize("name,attacker,defender,kw", BATTLES[1:8:2], ids=[b[0] for b in BATTLES[1:8:2]])
def test_numpy_binomial_sampler_agrees_with_exact(name, attacker, defender, kw):
    exact = nerathsim.battle_odds(attacker, defender, **kw)
    mc = nerathsim.battle_odds(attacker, defender, method="monte_carlo", n=30_000, seed=5, sampler="numpy", **kw)
    for key in ("attacker_wins", "defender_wins", "draw"):
        _within(mc, exact, key)


@pytest.mark.parametrize("name,attacker,defender,kw", [BATTLES[2], BATTLES[4], BATTLES[6], BATTLES[10]],
                         ids=["first-strike", "castle", "sea-cargo", "retreat-chance"])
def test_engine_step_function_agrees_with_exact(name, attacker, defender, kw):
    """resolve_battle, one battle at a time, is the third implementation of the rules."""
    exact = nerathsim.battle_odds(attacker, defender, **kw)
    kw = {k: v for k, v in kw.items() if k in ("at_sea", "rules", "retreat", "casualty_order")}
    n = 1500
    seq = np.random.SeedSequence(99).spawn(n)
    outcomes = [nerathsim.resolve_battle(attacker, defender, np.random.default_rng(s), **kw).outcome for s in seq]
    for key in ("attacker_wins", "defender_wins", "draw"):
        p = getattr(exact, key)
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(outcomes.count(key) / n - p) <= 4 * se + 1e-12, key


@pytest.mark.slow
def test_mixed_twenty_against_twenty_agrees():
    exact = nerathsim.battle_odds(MIXED_A, MIXED_D)
    mc = nerathsim.battle_odds(MIXED_A, MIXED_D, method="monte_carlo", n=400_000, seed=3)
    for key in ("attacker_wins", "defender_wins", "draw"):
        _within(mc, exact, key)
    for side in ("attacker", "defender"):
        for unit, value in exact.expected_survivors["overall"][side].items():
            assert mc.expected_survivors["overall"][side][unit] == pytest.approx(value, abs=0.02)


def test_same_seed_same_answer_and_runs_are_prefixes():
    a, d = {"footsoldier": 3, "wizard": 1}, {"footsoldier": 4}
    one = nerathsim.monte_carlo_battle(a, d, n=70_000, seed=8)
    two = nerathsim.monte_carlo_battle(a, d, n=70_000, seed=8)
    assert np.array_equal(one.counts, two.counts) and np.array_equal(one.outcome, two.outcome)
    other = nerathsim.monte_carlo_battle(a, d, n=70_000, seed=9)
    assert not np.array_equal(one.counts, other.counts)
    # battles come in chunks seeded by (seed, chunk number): a run of CHUNK battles is the first
    # chunk of any longer run, so every end is seen at least as often in the longer run
    short = nerathsim.monte_carlo_battle(a, d, n=CHUNK, seed=8)
    longer = nerathsim.monte_carlo_battle(a, d, n=CHUNK + 1, seed=8)

    def tally(t):
        return {(int(o), tuple(x), tuple(y)): int(c) for o, x, y, c in zip(t.outcome, t.attacker, t.defender, t.counts)}
    s, l = tally(short), tally(longer)
    assert sum(l.values()) - sum(s.values()) == 1
    assert sum(l[k] - s.get(k, 0) for k in l) == 1 and all(l.get(k, 0) >= v for k, v in s.items())


def test_monte_carlo_bad_input():
    a, d = {"footsoldier": 1}, {"footsoldier": 1}
    with pytest.raises(ValueError, match="n must be a positive integer"):
        nerathsim.battle_odds(a, d, method="monte_carlo", n=0)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        nerathsim.battle_odds(a, d, method="monte_carlo", seed=-1)
    with pytest.raises(ValueError, match="sampler must be one of alias, numpy"):
        nerathsim.battle_odds(a, d, method="monte_carlo", sampler="dice")
    with pytest.raises(ValueError, match="method must be one of exact, monte_carlo"):
        nerathsim.battle_odds(a, d, method="guess")
    with pytest.raises(ValueError, match="needs a casualty order .* not a callable"):
        nerathsim.battle_odds(a, d, method="monte_carlo", casualty_order=lambda army, hits, s: army)


# ---------------------------------------------------------------------------------------------
# The vectorised casualty kernel equals the one-hit-at-a-time reference
# ---------------------------------------------------------------------------------------------
LAND = ["footsoldier", "siege_engine", "fighter", "wizard", "monster", "storm_elemental", "dragon"]
TABLE = UnitTable.published()


@st.composite
def army_and_order(draw):
    at_sea = draw(st.booleans())
    counts = {}
    if at_sea:
        counts["warship"] = draw(st.integers(1, 3))
        for u in draw(st.lists(st.sampled_from(["storm_elemental", "dragon"]), max_size=3)):
            counts[u] = counts.get(u, 0) + 1
        for u in draw(st.lists(st.sampled_from(["footsoldier", "fighter", "wizard", "monster"]),
                               max_size=2 * counts["warship"])):
            counts[u] = counts.get(u, 0) + 1
    else:
        for u in draw(st.lists(st.sampled_from(LAND + ["castle"]), min_size=1, max_size=7)):
            counts[u] = counts.get(u, 0) + 1
        if "castle" in counts:
            counts["castle"] = 1            # one castle per space
    damaged = {"dragon": draw(st.integers(0, counts["dragon"]))} if "dragon" in counts else {}
    army = Army.of(counts, damaged)
    custom = draw(st.booleans())
    tokens = list(draw(st.permutations(sorted(counts) + (["damage:dragon"] if "dragon" in counts else []))))
    return army, at_sea, (CasualtyOrder(tuple(tokens)) if custom else None)


@settings(max_examples=120, deadline=None)
@given(army_and_order(), st.lists(st.integers(0, 12), min_size=1, max_size=6))
def test_vectorised_casualties_equal_the_reference(case, hits):
    army, at_sea, order = case
    situation = Situation("defender", at_sea, BattleRules())
    plan = order.plan(army, situation) if order else default_plan(army, situation)
    side = compile_side(army, plan, situation)
    c = np.repeat(side.start[:, None], len(hits), axis=1).astype(np.int32)
    apply_hits(c, np.array(hits, dtype=np.int32), side.ops)
    for j, h in enumerate(hits):
        expected = assign_hits(army, h, plan, situation)
        got = Army(tuple((n, d, int(c[i, j])) for i, (n, d) in enumerate(side.slots)))
        assert got == expected, (army, h, plan)
