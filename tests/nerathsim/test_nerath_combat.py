"""The seed's battle procedure (nerathsim/battle/ army, steps, casualties, combat): casualties, drowning,
dice pools, steps, bad input."""
import numpy as np
import pytest

import nerathsim
from nerathsim import Army, BattleRules, BattleState, CasualtyOrder, Retreat, Situation
from nerathsim.battle.army import health, start_battle
from nerathsim.battle.casualties import assign_hits, default_plan, resolve_casualties
from nerathsim.battle.combat import end_of_battle, resolve_battle
from nerathsim.battle.steps import battle_result, dice_pool, fight_round, press_or_retreat, roll_hits

RULES = BattleRules()
LAND_A = Situation("attacker", False, RULES)
LAND_D = Situation("defender", False, RULES)
SEA_A = Situation("attacker", True, RULES)


def army(**counts):
    return Army.of(counts)


# ----------------------------------------------------------------------- casualty orders
def test_default_order_free_dragon_hits_then_cheapest_then_weaker_dice():
    a = army(dragon=1, footsoldier=2, siege_engine=1, fighter=1)
    plan = default_plan(a, LAND_A)
    # on attack: siege engine 2 dice x 3/8 = 0.75 > fighter 0.5, so at the same price the fighter goes first
    assert plan.hits == ("damage:dragon", "footsoldier", "fighter", "siege_engine", "dragon")
    plan_d = default_plan(a, LAND_D)
    # on defence the siege engine rolls one die (0.375 < 0.5): it goes before the fighter
    assert plan_d.hits == ("damage:dragon", "footsoldier", "siege_engine", "fighter", "dragon")


def test_assign_hits_default_order_by_hand():
    a = army(dragon=1, footsoldier=2)
    plan = default_plan(a, LAND_A)
    assert assign_hits(a, 0, plan, LAND_A) == a
    assert assign_hits(a, 1, plan, LAND_A) == Army((("dragon", 1, 1), ("footsoldier", 0, 2)))
    assert assign_hits(a, 2, plan, LAND_A) == Army((("dragon", 1, 1), ("footsoldier", 0, 1)))
    assert assign_hits(a, 3, plan, LAND_A) == Army((("dragon", 1, 1),))
    assert assign_hits(a, 4, plan, LAND_A) == Army()
    assert assign_hits(a, 9, plan, LAND_A) == Army()          # extra hits are lost


def test_two_dragons_each_take_a_free_hit_before_any_dies():
    a = army(dragon=2)
    plan = default_plan(a, LAND_D)
    assert assign_hits(a, 2, plan, LAND_D) == Army((("dragon", 1, 2),))
    assert assign_hits(a, 3, plan, LAND_D) == Army((("dragon", 1, 1),))


def test_custom_order_kill_the_dragon_first():
    a = army(dragon=1, footsoldier=2)
    plan = CasualtyOrder(("dragon", "footsoldier")).plan(a, LAND_A)
    # the free first hit still comes first unless the order places 'damage:dragon'
    assert plan.hits == ("damage:dragon", "dragon", "footsoldier")
    assert assign_hits(a, 2, plan, LAND_A) == army(footsoldier=2)
    plan2 = CasualtyOrder("footsoldier, damage:dragon, dragon").plan(a, LAND_A)
    assert plan2.hits == ("footsoldier", "damage:dragon", "dragon")
    assert assign_hits(a, 2, plan2, LAND_A) == army(dragon=1)
    assert assign_hits(a, 3, plan2, LAND_A) == Army((("dragon", 1, 1),))


def test_custom_order_missing_types_follow_in_default_order():
    a = army(footsoldier=1, monster=1, fighter=1)
    plan = CasualtyOrder(("monster",)).plan(a, LAND_D)
    assert plan.hits == ("monster", "footsoldier", "fighter")


@pytest.mark.parametrize("order,message", [
    (("goblin",), "unknown unit 'goblin'"),
    (("footsoldier", "footsoldier"), "names 'footsoldier' twice"),
    (("damage:footsoldier",), "dies to one hit"),
])
def test_bad_casualty_orders(order, message):
    with pytest.raises(ValueError, match=message):
        CasualtyOrder(order).plan(army(footsoldier=2), LAND_A)


# ----------------------------------------------------------------------- sea and castles
def test_sea_cargo_drowns_with_its_ships_non_fighters_first():
    a = army(warship=2, fighter=1, footsoldier=2)
    plan = default_plan(a, SEA_A)
    # at sea the warships come after the hero they carry (the fighter); footsoldiers are cargo
    assert plan.hits == ("fighter", "warship")
    assert plan.drown == ("footsoldier", "fighter")
    assert health(a, SEA_A) == 3
    assert assign_hits(a, 1, plan, SEA_A) == army(warship=2, footsoldier=2)
    assert assign_hits(a, 2, plan, SEA_A) == army(warship=1, footsoldier=2)
    # cheapest first, ties by weaker dice: warship (d8, 0.375) before fighter (d10, 0.5)
    ships_first = CasualtyOrder(("warship", "fighter")).plan(a, SEA_A)
    # (a custom order drowns its own land units first: the fighter named in it goes down with the ship)
    assert assign_hits(a, 1, ships_first, SEA_A) == army(warship=1, footsoldier=2)
    assert assign_hits(a, 2, ships_first, SEA_A) == Army()          # last ship sinks: everyone aboard drowns


def test_at_sea_the_default_order_does_not_drown_heroes_to_save_a_cheaper_ship():
    a = army(warship=1, fighter=1, wizard=1)
    assert default_plan(a, SEA_A).hits == ("fighter", "wizard", "warship")
    # without heroes aboard the cheapest-first order stands: warship (2, d8) before storm elemental (3)
    assert default_plan(army(warship=2, storm_elemental=1, footsoldier=3), SEA_A).hits == ("warship", "storm_elemental")
    # a hero is hit before the ships, a costlier flyer keeps its place after them
    assert default_plan(army(warship=1, wizard=1, storm_elemental=1), SEA_A).hits == (
        "wizard", "warship", "storm_elemental")


def test_castle_absorbs_a_hit_and_stays_to_be_captured():
    d = army(castle=1, footsoldier=1)
    plan = default_plan(d, LAND_D)
    assert plan.hits == ("footsoldier", "castle")
    after = assign_hits(d, 2, plan, LAND_D)
    assert after == Army((("castle", 1, 1),))                # silenced, not removed
    assert health(after, LAND_D) == 0 and dice_pool(after, LAND_D, False) == {}
    state = BattleState(army(footsoldier=1), after)
    assert battle_result(state, RULES) == "attacker_wins"
    survivors_a, survivors_d, captured = end_of_battle(state, "attacker_wins", RULES)
    assert (survivors_a, survivors_d, captured) == ({"footsoldier": 1}, {}, {"castle": 1})


def test_castle_never_hit_mode_rolls_only_beside_other_defenders():
    rules = BattleRules(castle_mode="never_hit")
    sit = Situation("defender", False, rules)
    d = army(castle=1, footsoldier=1)
    assert health(d, sit) == 1
    assert dice_pool(d, sit, False) == {6: 1, 20: 1}
    assert default_plan(d, sit).hits == ("footsoldier",)
    alone = army(castle=1)
    assert health(alone, sit) == 0 and dice_pool(alone, sit, False) == {}


def test_dice_pools_by_role_place_and_step():
    a = army(siege_engine=2, wizard=1, storm_elemental=1)
    assert dice_pool(a, LAND_A, False) == {8: 5}                  # 2 x 2 siege dice + 1 storm die
    assert dice_pool(a, LAND_A, True) == {10: 1}                  # the wizard strikes first
    assert dice_pool(a, LAND_D, False) == {8: 3}
    s = army(warship=1, storm_elemental=1, wizard=1)
    assert dice_pool(s, SEA_A, False) == {8: 3}                   # storm elemental rolls two at sea
    damaged = Army((("dragon", 1, 1),))
    assert dice_pool(damaged, LAND_A, False) == {20: 1}
    tired = BattleRules(damaged_units_fight=False)
    assert dice_pool(damaged, Situation("attacker", False, tired), False) == {}


def test_roll_hits_is_a_function_of_the_generator():
    a = army(footsoldier=6, siege_engine=2)
    h1 = [roll_hits(a, LAND_A, np.random.default_rng(5), False) for _ in range(3)]
    assert len(set(h1)) == 1
    many = [roll_hits(a, LAND_A, np.random.default_rng(s), False) for s in range(2000)]
    assert np.mean(many) == pytest.approx(6 / 6 + 4 * 3 / 8, abs=0.08)   # 2.5 expected hits
    assert max(many) <= 10


# ----------------------------------------------------------------------- steps
def test_fight_round_first_strike_removes_before_return_fire():
    state = start_battle({"wizard": 1}, {"footsoldier": 1})
    choices = resolve_casualties(None, state, RULES)
    outcomes = {"attacker_wins": 0, "defender_wins": 0, "going": 0}
    for seed in range(400):
        rep = fight_round(state, np.random.default_rng(seed), RULES, choices)
        if rep.first_strike_hits[0] == 1:
            # the footsoldier died before it could roll
            assert rep.hits == (0, 0) and battle_result(rep.state, RULES) == "attacker_wins"
        outcomes[battle_result(rep.state, RULES) or "going"] += 1
        assert rep.state.round == 1
    assert outcomes["attacker_wins"] > outcomes["defender_wins"] > 0


def test_press_or_retreat_and_result():
    state = start_battle({"footsoldier": 2}, {"footsoldier": 2})
    assert battle_result(state, RULES) is None
    assert battle_result(press_or_retreat(state, True), RULES) == "defender_wins"
    assert battle_result(press_or_retreat(state, False), RULES) is None
    both_gone = BattleState(Army(), Army())
    assert battle_result(both_gone, RULES) == "draw"


def test_resolve_battle_replays_from_the_seed():
    r1 = resolve_battle({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8}, np.random.default_rng(3),
                        record=True)
    r2 = resolve_battle({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8}, np.random.default_rng(3))
    assert (r1.outcome, r1.rounds, r1.attacker, r1.defender) == (r2.outcome, r2.rounds, r2.attacker, r2.defender)
    assert len(r1.log) == r1.rounds and r1.outcome in ("attacker_wins", "defender_wins", "draw")


def test_resolve_battle_retreat_rules():
    r = resolve_battle({"footsoldier": 3}, {"footsoldier": 3}, np.random.default_rng(0), retreat="after:1")
    assert r.rounds == 1 and (r.retreated or r.outcome != "defender_wins" or not r.attacker)
    r = resolve_battle({"footsoldier": 1}, {"footsoldier": 1}, np.random.default_rng(0), retreat="below:0.5")
    assert r.rounds == 1            # 5/11 < 1/2 after any round that leaves both standing
    calls = []

    def nervous(state):
        calls.append(state.round)
        return True
    r = resolve_battle({"footsoldier": 5}, {"footsoldier": 5}, np.random.default_rng(1), retreat=nervous)
    assert r.retreated and calls == [1] and r.outcome == "defender_wins"


def test_resolve_battle_heals_dragons_and_custom_casualty_callable():
    def finish_one_dragon_first(army, hits, situation):
        # 'dragon' before 'damage:dragon': a wounded dragon is finished before another is hurt
        plan = CasualtyOrder(("dragon", "damage:dragon")).plan(army, situation)
        return assign_hits(army, hits, plan, situation)
    for seed in range(30):
        r = resolve_battle({"dragon": 2}, {"footsoldier": 3}, np.random.default_rng(seed),
                           casualty_order={"attacker": finish_one_dragon_first})
        assert set(r.attacker) <= {"dragon"} and r.state.attacker.damaged("dragon") <= 1
        if r.outcome == "attacker_wins":
            assert r.attacker["dragon"] >= 1


@pytest.mark.parametrize("attacker,defender,at_sea,message", [
    ({"goblin": 1}, {"footsoldier": 1}, False, "unknown unit 'goblin'"),
    ({"footsoldier": 0}, {"footsoldier": 1}, False, "attacker army: count of 'footsoldier' must be a positive"),
    ({"footsoldier": 1}, {"footsoldier": -3}, False, "defender army: count of 'footsoldier' must be a positive"),
    ({}, {"footsoldier": 1}, False, "attacker army is empty"),
    ({"footsoldier": 1}, {"warship": 1}, False, "warship cannot fight in a land battle"),
    ({"warship": 1}, {"footsoldier": 1}, False, "warship cannot fight in a land battle"),
    ({"castle": 1}, {"footsoldier": 1}, False, "castle cannot attack"),
    ({"warship": 1}, {"castle": 1, "warship": 1}, True, "castle cannot be at sea"),
    ({"warship": 1, "footsoldier": 3}, {"warship": 1}, True, "3 land unit\\(s\\) must be aboard warships, which carry 2"),
    ({"fighter": 1}, {"warship": 1}, True, "must be aboard warships"),
    ({"footsoldier": 1}, {"footsoldier": 1}, "yes", "at_sea must be True or False"),
])
def test_bad_battles_are_rejected_with_a_clear_message(attacker, defender, at_sea, message):
    with pytest.raises(ValueError, match=message):
        start_battle(attacker, defender, at_sea)
    with pytest.raises(ValueError, match=message):
        nerathsim.battle_odds(attacker, defender, at_sea=at_sea)


def test_bad_retreat_rules():
    with pytest.raises(ValueError, match="cannot read retreat rule 'sometimes'"):
        Retreat.parse("sometimes")
    with pytest.raises(ValueError, match="'x' is not a number"):
        Retreat.parse("after:x")
    with pytest.raises(ValueError, match="below_win_chance must be a probability"):
        Retreat(below_win_chance=1.5)
    with pytest.raises(ValueError, match="after_rounds must be an integer >= 1"):
        Retreat(after_rounds=0)
    assert Retreat.parse("after:3, units:1") == Retreat(after_rounds=3, at_units=1)
    assert str(Retreat.parse("never")) == "never"


def test_a_casualty_choice_that_ignores_hits_is_rejected():
    state = start_battle({"footsoldier": 2}, {"footsoldier": 2})
    lazy = lambda army, hits, situation: army  # noqa: E731
    with pytest.raises(ValueError, match="did not assign"):
        for seed in range(50):
            fight_round(state, np.random.default_rng(seed), RULES, (lazy, lazy))
    with pytest.raises(ValueError, match="did not assign"):
        nerathsim.battle_odds({"footsoldier": 2}, {"footsoldier": 2}, casualty_order=lazy)


def test_battle_report_gold_lost():
    rules = BattleRules()
    for seed in range(40):
        r = resolve_battle({"footsoldier": 3, "dragon": 1}, {"footsoldier": 2, "castle": 1}, np.random.default_rng(seed))
        lost_a = 8 - 1 * r.attacker.get("footsoldier", 0) - 5 * r.attacker.get("dragon", 0)
        assert r.gold_lost("attacker", rules) == lost_a
        if r.outcome == "attacker_wins":
            assert r.captured == {"castle": 1} and r.gold_lost("defender", rules) == 6
        else:
            assert r.defender.get("castle") == 1 and r.gold_lost("defender", rules) == 2 - r.defender.get("footsoldier", 0)
