"""The unit table against the seed's price table and unit list, the hit rule, army specs."""
import dataclasses
from fractions import Fraction

import numpy as np
import pytest

import nerathsim
from nerathsim import BattleRules, Unit, UnitTable

# Seed, "5. Forstærkninger": Trop / Pris
SEED_PRICES = {"footsoldier": 1, "siege_engine": 2, "fighter": 2, "wizard": 3, "monster": 3, "castle": 4,
               "storm_elemental": 3, "dragon": 5, "warship": 2}
# Seed, "Enhederne i spillet": sekssidet, ottesidet, tisidet, tolvsidet, tyvesidet terning
SEED_DICE = {"footsoldier": 6, "siege_engine": 8, "fighter": 10, "wizard": 10, "monster": 12, "castle": 20,
             "storm_elemental": 8, "dragon": 20, "warship": 8}


def test_published_table_has_the_seed_prices_and_dice():
    t = UnitTable.published()
    assert t.names == tuple(SEED_PRICES)
    assert {n: t[n].cost for n in t.names} == SEED_PRICES
    assert {n: t[n].die for n in t.names} == SEED_DICE


def test_published_table_abilities():
    t = UnitTable.published()
    assert (t["siege_engine"].attack_dice, t["siege_engine"].defence_dice) == (2, 1)   # two dice on attack
    assert (t["storm_elemental"].sea_attack_dice, t["storm_elemental"].sea_defence_dice) == (2, 2)
    assert (t["storm_elemental"].attack_dice, t["storm_elemental"].defence_dice) == (1, 1)
    assert [n for n in t.names if t[n].first_strike] == ["wizard"]
    assert [n for n in t.names if t[n].hero] == ["fighter", "wizard"]
    assert [n for n in t.names if t[n].explores_dungeons] == ["fighter", "wizard"]
    assert [n for n in t.names if t[n].hits_to_kill == 2] == ["dragon"]
    assert [n for n in t.names if t[n].heals] == ["dragon"]
    assert [n for n in t.names if t[n].runs_amok] == ["monster"]
    assert [n for n in t.names if t[n].captured] == ["castle"]
    assert t["castle"].attack_dice == 0 and t["castle"].move == 0 and t["castle"].places_units
    assert t["warship"].capacity == 2 and t["warship"].domain == "sea"
    assert (t["warship"].attack_dice, t["warship"].defence_dice) == (0, 0)
    assert {n for n in t.names if t[n].domain == "flying"} == {"storm_elemental", "dragon"}
    assert {n for n in t.names if t[n].domain == "land"} == {"footsoldier", "siege_engine", "fighter", "wizard",
                                                               "monster", "castle"}
    # heroes fight at sea, other land units are cargo there
    assert {n for n in t.names if t[n].domain == "land" and t[n].sea_attack_dice} == {"fighter", "wizard"}
    assert {n: t[n].move for n in t.names} == {"footsoldier": 1, "siege_engine": 1, "fighter": 2, "wizard": 2,
                                               "monster": 2, "castle": 0, "storm_elemental": 2, "dragon": 3,
                                               "warship": 2}


@pytest.mark.parametrize("die,expected", [(6, Fraction(1, 6)), (8, Fraction(3, 8)), (10, Fraction(5, 10)),
                                          (12, Fraction(7, 12)), (20, Fraction(15, 20))])
def test_a_hit_is_a_roll_of_six_or_more(die, expected):
    assert nerathsim.hit_probability(die) == pytest.approx(float(expected), abs=1e-15)


def test_hit_threshold_is_a_rule_field():
    assert nerathsim.hit_probability(6, 7) == 0.0
    assert nerathsim.hit_probability(8, 7) == pytest.approx(2 / 8)
    rules = BattleRules(hit_threshold=5)
    assert rules.p_hit("footsoldier") == pytest.approx(2 / 6)


def test_parse_army_text_and_dict():
    t = UnitTable.published()
    assert t.parse_army("6 footsoldier, 2 siege_engine") == {"footsoldier": 6, "siege_engine": 2}
    assert t.parse_army("2 Siege Engines + dragon") == {"siege_engine": 2, "dragon": 1}
    assert t.parse_army({"dragon": np.int64(2), "Footsoldiers": 1}) == {"footsoldier": 1, "dragon": 2}
    assert t.parse_army("3 footsoldier, 2 footsoldier") == {"footsoldier": 5}


@pytest.mark.parametrize("spec,message", [
    ("6 goblin", "unknown unit 'goblin'"),
    ({"footsoldier": 0}, "count of 'footsoldier' must be a positive integer, got 0"),
    ({"footsoldier": -2}, "must be a positive integer, got -2"),
    ("-1 dragon", "must be a positive integer, got -1"),
    ({"dragon": 1.5}, "must be a positive integer, got 1.5"),
    ({}, "is empty"),
    ("", "is empty"),
    ("6 footsoldier, ??", "cannot read '\\?\\?'"),
    (["footsoldier"], "must be a dict"),
])
def test_parse_army_bad_input(spec, message):
    with pytest.raises(ValueError, match=message):
        UnitTable.published().parse_army(spec)


def test_table_is_replaceable():
    t = UnitTable.published().replace("dragon", cost=6, die=12)
    assert (t["dragon"].cost, t["dragon"].die) == (6, 12)
    assert UnitTable.published()["dragon"].cost == 5
    t2 = t.with_unit(Unit("troll", cost=4, die=12, move=1, hits_to_kill=2))
    assert t2.names[-1] == "troll"
    frame = t2.to_frame()
    assert frame.loc["troll", "hits_to_kill"] == 2 and frame.loc["dragon", "cost"] == 6
    with pytest.raises(ValueError, match="unknown Unit field"):
        t.replace("dragon", price=3)
    with pytest.raises(ValueError, match="duplicate unit names: dragon"):
        UnitTable(t.units + (t["dragon"],))
    with pytest.raises(ValueError, match="hits_to_kill must be a non-negative integer"):
        Unit("x", cost=1, die=6, move=1, hits_to_kill=-1)
    with pytest.raises(ValueError, match="domain must be one of"):
        Unit("x", cost=1, die=6, move=1, domain="air")


def test_rules_validation():
    with pytest.raises(ValueError, match="castle_mode must be one of absorbs_hit, never_hit"):
        BattleRules(castle_mode="sturdy")
    with pytest.raises(ValueError, match="hit_threshold must be a positive integer"):
        BattleRules(hit_threshold=0)
    with pytest.raises(ValueError, match="units must be a UnitTable"):
        BattleRules(units={"footsoldier": 1})
    r = dataclasses.replace(BattleRules(), castle_mode="never_hit")
    assert r.to_dict()["castle_mode"] == "never_hit" and r.to_dict()["units"]["dragon"]["cost"] == 5


def test_a_replaced_price_changes_the_gold_accounting():
    rules = BattleRules(units=UnitTable.published().replace("footsoldier", cost=2))
    odds = nerathsim.battle_odds({"footsoldier": 1}, {"footsoldier": 1}, rules=rules)
    # attacker loses its footsoldier when the defender wins or in a draw: 2 gold x 6/11
    assert odds.attacker_gold_lost == pytest.approx(2 * 6 / 11, abs=1e-12)
