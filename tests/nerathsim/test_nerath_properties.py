"""Properties of the exact solver over random armies (hypothesis)."""
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import nerathsim
from nerathsim import BattleRules

LAND_ATTACKERS = ["footsoldier", "siege_engine", "fighter", "wizard", "monster", "storm_elemental", "dragon"]
FLYERS = ["storm_elemental", "dragon"]
CARGO = ["footsoldier", "siege_engine", "fighter", "wizard", "monster"]
# units that roll the same dice on attack and defence (a siege engine does not)
SYMMETRIC = ["footsoldier", "fighter", "wizard", "monster", "storm_elemental", "dragon"]


def counts(names):
    out = {}
    for n in names:
        out[n] = out.get(n, 0) + 1
    return out


land_attacker = st.lists(st.sampled_from(LAND_ATTACKERS), min_size=1, max_size=4).map(counts)
land_defender = st.tuples(st.lists(st.sampled_from(LAND_ATTACKERS), min_size=1, max_size=4), st.booleans()).map(
    lambda t: {**counts(t[0]), **({"castle": 1} if t[1] else {})})


@st.composite
def fleet(draw):
    ships = draw(st.integers(1, 2))
    army = {"warship": ships}
    for n in draw(st.lists(st.sampled_from(FLYERS), max_size=2)):
        army[n] = army.get(n, 0) + 1
    for n in draw(st.lists(st.sampled_from(CARGO), max_size=2 * ships)):
        army[n] = army.get(n, 0) + 1
    return army


def fits_aboard(army):
    return sum(c for n, c in army.items() if n in CARGO) <= 2 * army.get("warship", 0)


def add(army, unit):
    out = dict(army)
    out[unit] = out.get(unit, 0) + 1
    return out


def wins(o, side):
    return o.attacker_wins if side == "attacker" else o.defender_wins


@settings(max_examples=60, deadline=None)
@given(land_attacker, land_defender, st.sampled_from([None, "after:2", "units:1", "below:0.3"]),
       st.sampled_from(["absorbs_hit", "never_hit"]))
def test_probabilities_sum_to_one_on_land(a, d, retreat, castle_mode):
    o = nerathsim.battle_odds(a, d, retreat=retreat, rules=BattleRules(castle_mode=castle_mode))
    assert o.attacker_wins + o.defender_wins + o.draw + o.pruned == pytest.approx(1.0, abs=1e-12)
    assert min(o.attacker_wins, o.defender_wins, o.draw, o.attacker_retreats) >= -1e-15
    assert o.pruned < 1e-9
    assert sum(o.rounds) == pytest.approx(1.0, abs=1e-9)
    assert o.to_frame()["probability"].sum() == pytest.approx(1.0 - o.pruned, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(fleet(), fleet())
def test_probabilities_sum_to_one_at_sea(a, d):
    o = nerathsim.battle_odds(a, d, at_sea=True)
    assert o.attacker_wins + o.defender_wins + o.draw + o.pruned == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(land_attacker, land_defender, st.sampled_from(LAND_ATTACKERS), st.sampled_from(["attacker", "defender"]))
def test_adding_a_unit_never_lowers_that_sides_win_chance_on_land(a, d, unit, side):
    base = nerathsim.battle_odds(a, d)
    more = nerathsim.battle_odds(add(a, unit), d) if side == "attacker" else nerathsim.battle_odds(a, add(d, unit))
    assert wins(more, side) >= wins(base, side) - 1e-12


@settings(max_examples=50, deadline=None)
@given(fleet(), fleet(), st.sampled_from(["warship"] + FLYERS + CARGO), st.sampled_from(["attacker", "defender"]))
def test_adding_a_unit_never_lowers_that_sides_win_chance_at_sea(a, d, unit, side):
    bigger = add(a if side == "attacker" else d, unit)
    assume(fits_aboard(bigger))
    base = nerathsim.battle_odds(a, d, at_sea=True)
    more = nerathsim.battle_odds(bigger, d, at_sea=True) if side == "attacker" else \
        nerathsim.battle_odds(a, bigger, at_sea=True)
    assert wins(more, side) >= wins(base, side) - 1e-12


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(SYMMETRIC), min_size=1, max_size=5).map(counts))
def test_mirror_battles_are_even(army):
    """Fire is simultaneous and these units roll the same on attack and defence: neither side is favoured."""
    o = nerathsim.battle_odds(army, army)
    assert o.attacker_wins == pytest.approx(o.defender_wins, abs=1e-12)
    assert o.tuv_swing == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(land_attacker, land_defender)
def test_expected_rounds_agree_between_the_geometric_solve_and_round_stepping(a, d):
    o = nerathsim.battle_odds(a, d)
    assert sum(r * p for r, p in enumerate(o.rounds)) == pytest.approx(o.expected_rounds, rel=1e-8, abs=1e-8)
