"""analyses/unit_cost.py: hits per gold, equal-gold duels, best armies, break-even prices, Lanchester fits."""
import math

import numpy as np
import pandas as pd
import pytest

import nerathsim
from analyses import unit_cost
from nerathsim import BattleRules, UnitTable


def test_efficiency_matches_the_hand_table():
    e = unit_cost.unit_efficiency()
    # shared/data/nerath-facts.md §1.3, derived by hand
    assert e.loc["footsoldier", "attack_hits_per_gold"] == pytest.approx(1 / 6)
    assert e.loc["siege_engine", "attack_hits"] == pytest.approx(2 * 3 / 8)
    assert e.loc["siege_engine", "defence_hits"] == pytest.approx(3 / 8)
    assert e.loc["wizard", "attack_hits_per_gold"] == pytest.approx(0.5 / 3)
    assert e.loc["monster", "defence_hits_per_gold"] == pytest.approx(7 / 12 / 3)
    assert e.loc["storm_elemental", "sea_attack_hits_per_gold"] == pytest.approx(0.75 / 3)
    assert e.loc["storm_elemental", "attack_hits_per_gold"] == pytest.approx(0.375 / 3)
    assert e.loc["dragon", "hits_absorbed_per_gold"] == pytest.approx(2 / 5)
    assert e.loc["castle", "defence_hits"] == pytest.approx(0.75)
    assert math.isnan(e.loc["castle", "attack_hits"]) and math.isnan(e.loc["warship", "attack_hits"])
    assert math.isnan(e.loc["footsoldier", "sea_attack_hits"]) and e.loc["fighter", "sea_attack_hits"] == 0.5
    assert e.loc["warship", "sea_defence_hits_per_gold"] == pytest.approx(0.375 / 2)


def test_duel_matrix_small_budget():
    d = unit_cost.duel_matrix([6])
    units = ["footsoldier", "siege_engine", "fighter", "wizard", "monster", "storm_elemental", "dragon"]
    # the dragon costs 5, so at 6 gold every unit can afford at least one of itself
    assert len(d) == 49 and set(d["attacker_unit"]) == set(units)
    row = d[(d["attacker_unit"] == "footsoldier") & (d["defender_unit"] == "footsoldier")].iloc[0]
    assert (row["attacker_count"], row["defender_count"]) == (6, 6)
    assert row["attacker_wins"] == pytest.approx(row["defender_wins"], abs=1e-12)       # mirror battle
    one = d[(d["attacker_unit"] == "dragon") & (d["defender_unit"] == "footsoldier")].iloc[0]
    direct = nerathsim.battle_odds({"dragon": 1}, {"footsoldier": 6})
    assert one["attacker_wins"] == pytest.approx(direct.attacker_wins, abs=1e-12)
    assert one["tuv_swing"] == pytest.approx(direct.tuv_swing, abs=1e-12)
    assert (d["attacker_wins"] + d["defender_wins"] + d["draw"]).to_numpy() == pytest.approx(np.ones(len(d)))
    pivot = unit_cost.duel_pivot(d, 6)
    assert pivot.shape == (7, 7) and pivot.loc["dragon", "footsoldier"] == one["attacker_wins"]
    with pytest.raises(ValueError, match="no duels at budget 12"):
        unit_cost.duel_pivot(d, 12)


def test_duels_at_sea_use_sea_units_only():
    d = unit_cost.duel_matrix([6], at_sea=True)
    assert set(d["attacker_unit"]) == {"storm_elemental", "dragon", "warship"}


def test_bad_duel_input():
    with pytest.raises(ValueError, match="budgets must be positive whole gold amounts"):
        unit_cost.duel_matrix([0])
    with pytest.raises(ValueError, match="castle cannot attack on its own on land"):
        unit_cost.duel_matrix([6], units=["castle", "footsoldier"])


def test_armies_for_budget_spend_everything():
    rules = BattleRules()
    armies = unit_cost.armies_for_budget(3, ["footsoldier", "siege_engine", "wizard"], rules)
    assert sorted(map(lambda a: tuple(sorted(a.items())), armies)) == sorted([
        (("footsoldier", 3),), (("footsoldier", 1), ("siege_engine", 1)), (("wizard", 1),)])
    with_castle = unit_cost.armies_for_budget(8, ["castle"], rules)
    assert with_castle == []                      # at most one castle, and 4 gold cannot be spent otherwise


def test_best_army_small_budget():
    best = unit_cost.best_army(3, "attack", top=None)
    assert list(best["rank"]) == list(range(1, len(best) + 1))
    assert best["win"].is_monotonic_decreasing
    assert best.attrs["opponent"] == "3 footsoldier"
    top = best.iloc[0]
    direct = nerathsim.battle_odds(top["army"], {"footsoldier": 3})
    assert top["win"] == pytest.approx(direct.attacker_wins, abs=1e-12)
    # 1 footsoldier + 1 siege engine beats 3 footsoldiers more often than 3 footsoldiers do
    names = list(best["army"])
    assert names.index("1 footsoldier, 1 siege_engine") < names.index("3 footsoldier")
    defence = unit_cost.best_army(4, "defence", top=None)
    assert "1 castle" in set(defence["army"])
    castle = defence[defence["army"] == "1 castle"].iloc[0]
    assert castle["win"] == pytest.approx(nerathsim.battle_odds({"footsoldier": 4}, {"castle": 1}).defender_wins)
    with pytest.raises(ValueError, match="role must be 'attack' or 'defence'"):
        unit_cost.best_army(3, "ambush")


def test_break_even_of_footsoldiers_is_their_price():
    be = unit_cost.break_even_prices(budget=4, units=["footsoldier", "dragon"])
    assert be.loc["footsoldier", "break_even_attack"] == pytest.approx(1.0, abs=1e-12)   # mirror: even at m = n
    assert be.loc["footsoldier", "break_even_defence"] == pytest.approx(1.0, abs=1e-12)
    m = unit_cost.break_even_count("dragon", 1, "attack")
    below, above = math.floor(m), math.ceil(m)
    # one dragon beats `below` footsoldiers more often than it loses, and loses more often to `above`
    o_below = nerathsim.battle_odds({"dragon": 1}, {"footsoldier": below})
    o_above = nerathsim.battle_odds({"dragon": 1}, {"footsoldier": above})
    assert o_below.attacker_wins >= o_below.defender_wins and o_above.attacker_wins < o_above.defender_wins
    assert be.loc["dragon", "break_even_attack"] == pytest.approx(m)


def test_cheaper_dragons_are_a_rules_experiment():
    cheap = BattleRules(units=UnitTable.published().replace("dragon", cost=3))
    be = unit_cost.break_even_prices(cheap, budget=6, units=["dragon"])
    assert be.loc["dragon", "count"] == 2 and be.loc["dragon", "cost"] == 3


def test_lanchester_fit_recovers_a_known_exponent():
    n = np.array([4, 6, 8, 8, 10, 10], dtype=float)
    m = np.array([2, 3, 4, 6, 5, 8], dtype=float)
    for alpha, k in ((1.0, 0.8), (2.0, 0.5)):
        s = (n ** alpha - k * m ** alpha) ** (1 / alpha)
        fit = unit_cost.fit_lanchester(pd.DataFrame({"n": n, "m": m, "win": 1.0, "survivors": s}))
        assert fit["alpha"] == pytest.approx(alpha, abs=1e-3) and fit["K"] == pytest.approx(k, rel=1e-3)
    with pytest.raises(ValueError, match="need at least three battles"):
        unit_cost.fit_lanchester(pd.DataFrame({"n": [1, 2], "m": [1, 1], "win": [1, 1], "survivors": [1, 1]}))


def test_lanchester_table_small():
    data = unit_cost.lanchester_data("fighter", sizes=range(1, 4))
    assert (data["win"] >= 0.5).all() and set(data["n"]) == {1, 2, 3}
    fits = unit_cost.lanchester_fits(units=["footsoldier", "siege_engine"], sizes=range(1, 5))
    assert list(fits.index) == ["footsoldier", "siege_engine"]
    assert ((fits["alpha"] > 0.25) & (fits["alpha"] < 6)).all()
    assert fits.loc["footsoldier", "equal_gold_win_largest"] == pytest.approx(
        nerathsim.battle_odds({"footsoldier": 4}, {"footsoldier": 4}).attacker_wins)


def test_report_names_every_table():
    tables = unit_cost.report(budgets=[6], best_budgets=[3], top=2, break_even_budget=4, lanchester_sizes=range(1, 4))
    assert list(tables) == ["efficiency", "duels", "duel_attacker_wins_6", "best_attack_3", "best_defence_3",
                            "break_even", "lanchester"]
    assert all(isinstance(t, pd.DataFrame) and len(t) for t in tables.values())
    assert len(tables["best_attack_3"]) == 2
