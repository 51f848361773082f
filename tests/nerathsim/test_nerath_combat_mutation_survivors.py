"""The battle procedure (nerathsim/battle/: army, steps, casualties, combat): behaviours that planted bugs (mutants, see
benchmarks/tools/mutation.py) slipped past, each on a hand-built army with the exact outcome."""
import numpy as np
import pytest

from nerathsim.battle.army import Army, Situation, health, start_battle
from nerathsim.battle.casualties import CasualtyOrder, assign_hits, default_plan, resolve_casualties
from nerathsim.battle.combat import resolve_battle
from nerathsim.battle.rules import BattleRules
from nerathsim.battle.steps import Retreat, fight_round
from nerathsim.battle.units import UnitTable


def test_an_army_of_counts_with_some_damaged_holds_the_rest_undamaged():
    a = Army.of({"footsoldier": 3, "dragon": 1}, {"footsoldier": 1})
    assert a.groups == (("dragon", 0, 1), ("footsoldier", 0, 2), ("footsoldier", 1, 1))
    assert a.size == 4 and a.count("footsoldier") == 3 and a.damaged("footsoldier") == 1


def test_an_army_without_some_unit_types_keeps_every_other_group():
    a = Army.of({"footsoldier": 2, "dragon": 1, "archer": 1}, {"dragon": 1})
    assert a.without({"dragon"}) == Army.of({"footsoldier": 2, "archer": 1})
    assert a.without(("dragon", "archer")).groups == (("footsoldier", 0, 2),)
    assert a.without(()) == a


# ------------------------------------------------------------------ who fights
def test_at_sea_a_unit_with_a_single_sea_die_fights_and_takes_hits():
    rules = BattleRules(units=UnitTable.published().replace("fighter", sea_defence_dice=0))  # 1 sea die in all
    sea = Situation("defender", True, rules)
    assert sea.fights(rules.units["fighter"]) and sea.takes_hits(rules.units["fighter"])
    assert health(Army.of({"fighter": 1, "warship": 1}), sea) == 2


def test_a_unit_that_cannot_fight_there_takes_no_hits():
    rules = BattleRules()
    assert Situation("defender", True, rules).takes_hits(rules.units["footsoldier"]) is False   # cargo at sea
    assert Situation("defender", False, rules).takes_hits(rules.units["warship"]) is False      # a ship on land
    assert Situation("defender", False, rules).takes_hits(rules.units["footsoldier"]) is True


def test_a_unit_without_attack_dice_cannot_attack():
    rules = BattleRules(units=UnitTable.published().replace("footsoldier", attack_dice=0))
    with pytest.raises(ValueError, match="footsoldier cannot attack on land: it has no attack dice there"):
        start_battle({"footsoldier": 1}, {"footsoldier": 1}, rules=rules)


# ------------------------------------------------------------------ taking hits
def test_a_casualty_choice_is_asked_only_for_hits_actually_taken():
    rules = BattleRules(hit_threshold=1)  # every die hits; nobody has first strike: no hits in step 1
    calls = []

    def choose(army, hits, situation):
        calls.append((situation.role, hits))
        return assign_hits(army, hits, default_plan(army, situation), situation)

    report = fight_round(start_battle({"footsoldier": 2}, {"footsoldier": 2}, rules=rules),
                         np.random.default_rng(0), rules, (choose, choose))
    assert calls == [("attacker", 2), ("defender", 2)]
    assert report.first_strike_hits == (0, 0) and report.hits == (2, 2)


# ------------------------------------------------------------------ retreat rules and reports
def test_a_retreat_threshold_may_be_any_probability_from_0_to_1():
    assert Retreat(below_win_chance=0).below_win_chance == 0
    assert Retreat(below_win_chance=1.0).below_win_chance == 1.0
    for bad in (-0.1, 1.5, True):
        with pytest.raises(ValueError, match="below_win_chance must be a probability"):
            Retreat(below_win_chance=bad)


@pytest.mark.parametrize("spec", ["sometimes:3", "after:", "after", "below:0.4,units"])
def test_an_unreadable_retreat_rule_is_rejected_with_the_forms_it_may_take(spec):
    with pytest.raises(ValueError, match="cannot read retreat rule .*; use after:N, below:P or units:K"):
        Retreat.parse(spec)


def test_gold_lost_is_asked_of_the_attacker_or_the_defender_only():
    rules = BattleRules(hit_threshold=1)
    report = resolve_battle({"footsoldier": 2}, {"footsoldier": 1}, np.random.default_rng(0), rules=rules)
    assert report.gold_lost("attacker", rules) == rules.units.cost({"footsoldier": 1})
    assert report.gold_lost("defender", rules) == rules.units.cost({"footsoldier": 1})
    with pytest.raises(ValueError, match="role must be 'attacker' or 'defender', got 'attaker'"):
        report.gold_lost("attaker", rules)


def test_an_attacker_unit_a_casualty_choice_marks_as_killed_is_no_survivor():
    rules = BattleRules(hit_threshold=1)

    def mark_instead_of_remove(army, hits, situation):  # a killed footsoldier left in with its hit marked
        return Army((("footsoldier", 0, army.count("footsoldier") - hits), ("footsoldier", 1, hits)))

    report = resolve_battle({"footsoldier": 2}, {"footsoldier": 1}, np.random.default_rng(0), rules=rules,
                            casualty_order={"attacker": mark_instead_of_remove})
    assert report.outcome == "attacker_wins" and report.attacker == {"footsoldier": 1} and report.defender == {}


# ------------------------------------------------------------------ casualty orders per side
def test_a_pair_of_orders_is_one_per_side_and_a_pair_of_unit_names_one_order_for_both():
    rules = BattleRules()
    state = start_battle({"footsoldier": 2, "dragon": 1}, {"footsoldier": 2, "dragon": 1}, rules=rules)
    both = resolve_casualties(["dragon", "footsoldier"], state, rules)
    assert resolve_casualties(("dragon", "footsoldier"), state, rules) == both
    assert both[0].hits == ("damage:dragon", "dragon", "footsoldier")
    attacker, defender = resolve_casualties((CasualtyOrder(("dragon", "footsoldier")), None), state, rules)
    assert attacker == both[0]
    assert defender == default_plan(state.defender, state.situation("defender", rules))
    assert defender != attacker
