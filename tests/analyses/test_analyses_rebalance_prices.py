"""Nerath unit prices (`unit_value_parity`): the break-even search, scale-free values, and the
units no price can fix (`analyses.objectives.price_limits`), stated by the re-balancing output."""
from __future__ import annotations

import math

import pytest

import nerathsim
from analyses import knobs as K
from analyses.objectives import make_objective, parity_starts, price_limits, unit_values
from analyses.rebalance_search import rebalance
from analyses.unit_cost import _margin, break_even_count
from nerathsim.battle.rules import BattleRules


def _scan(unit, count, role, rules):
    """The definition: the first m (from 1) at which count units no longer win more than they lose."""
    prev = 1.0
    for m in range(1, 400):
        cur = _margin(unit, count, m, role, rules)
        if cur <= 0:
            return (m - 1) + prev / (prev - cur) if prev != cur else float(m)
        prev = cur
    raise AssertionError("no break-even")


@pytest.mark.parametrize("unit, count, role", [
    ("siege_engine", 6, "attack"), ("siege_engine", 6, "defence"), ("dragon", 2, "attack"), ("fighter", 7, "attack"),
    ("castle", 1, "defence"), ("footsoldier", 4, "attack"), ("dragon", 6, "defence"), ("storm_elemental", 1, "attack"),
])
def test_break_even_by_bisection_is_the_scan_from_one_exactly(unit, count, role):
    rules = BattleRules()
    assert break_even_count(unit, count, role, rules) == _scan(unit, count, role, rules)


def test_a_units_value_per_gold_depends_on_the_price_ratio_only():
    def ratios(foot, fighter):
        rules = K.set_values(nerathsim, nerathsim.Rules(), {"battle.units.footsoldier.cost": foot,
                                                           "battle.units.fighter.cost": fighter})
        return unit_values(rules, units="fighter")[["count", "value_ratio"]].to_numpy().tolist()
    assert ratios(3, 5) == ratios(6, 10) == ratios(9, 15)            # the footsoldier-3 scale, exactly
    count, ratio = ratios(3, 5)[0]
    assert count == 7 and 0.9 <= ratio <= 1.1                         # fighter at 5/3 of a footsoldier: in band


def test_the_siege_engine_is_the_one_unit_no_price_can_fix_and_the_best_is_stated():
    limits = price_limits(nerathsim.Rules())
    assert list(limits["unit"]) == ["siege_engine"]
    row = limits.iloc[0]
    assert row.spread == pytest.approx(row.attack_per_unit / row.defence_per_unit) and row.spread > row.allowed
    assert row.allowed == pytest.approx(1.1 / 0.9)
    assert row.best_attack_ratio == pytest.approx(math.sqrt(row.spread))          # both misses balanced
    assert row.best_attack_ratio * row.best_defence_ratio == pytest.approx(1.0)
    # the claim, checked price by price: no siege-engine price from 1 to 12 (footsoldier 1) meets both roles
    for cost in range(1, 13):
        rules = K.set_values(nerathsim, nerathsim.Rules(), {"battle.units.siege_engine.cost": cost})
        values = unit_values(rules, units="siege_engine")["value_ratio"]
        assert not values.between(0.9, 1.1).all(), cost
    assert price_limits(nerathsim.Rules(), band=0.2).empty                       # ±20% allows a spread of 1.5
    assert price_limits(nerathsim.Rules(), units=("fighter", "dragon")).empty   # same dice on attack and defence


def test_the_rebalance_output_states_the_siege_engine_impossibility():
    result = rebalance("nerathsim", "unit_value_parity(units=siege_engine)",
                       knobs="battle.units.siege_engine.cost=1:6:1", budget=6)
    assert not result.meets and len(result.notes) == 1
    text = result.to_text()
    line = next(x for x in text.splitlines() if x.startswith("cannot be met by any price: "))
    assert "siege_engine: no price puts both its attack and its defence value per gold within ±10%" in line
    assert "allows at most 1.22" in line and "best achievable: price 1.82 × the footsoldier's" in line


def test_the_parity_search_starts_from_every_footsoldier_price_scale_and_finds_the_fighter_price():
    knobs = K.resolve_knobs(nerathsim, nerathsim.Rules(), "battle.units.footsoldier.cost=1:3:1,"
                                                          "battle.units.fighter.cost=1:6:1")
    objective = make_objective("unit_value_parity(units=fighter)")
    starts = parity_starts(nerathsim, nerathsim.Rules(), knobs, objective)
    assert [s["battle.units.footsoldier.cost"] for s in starts] == [1, 2, 3]
    assert starts[2]["battle.units.fighter.cost"] == 5                # 5/3 of a footsoldier: the one fit in range
    for start in starts:       # each start is the best fighter price for its footsoldier price, exactly
        foot = start["battle.units.footsoldier.cost"]
        def deviation(cost):
            rules = K.set_values(nerathsim, nerathsim.Rules(), {"battle.units.footsoldier.cost": foot,
                                                               "battle.units.fighter.cost": cost})
            return abs(math.log(unit_values(rules, units="fighter")["value_ratio"].iloc[0]))
        assert deviation(start["battle.units.fighter.cost"]) == min(deviation(c) for c in range(1, 7))
    assert parity_starts(nerathsim, nerathsim.Rules(), knobs, make_objective("seat_balance")) == []
    result = rebalance("nerathsim", objective, knobs=knobs, budget=4, seed=0)
    trials = result.trials
    assert list(trials["battle.units.footsoldier.cost"])[:3] == [1, 2, 3]     # published (= the footsoldier-1 start),
    assert list(trials["battle.units.fighter.cost"])[:3] == [2, 4, 5]         # then the other starts, then the grid
    proposal = result.proposal.set_index("knob")["proposed"]
    assert (proposal["battle.units.footsoldier.cost"], proposal["battle.units.fighter.cost"]) == (3, 5)
    assert result.meets and result.table["within_after"].all() and not result.table["within_before"].any()
