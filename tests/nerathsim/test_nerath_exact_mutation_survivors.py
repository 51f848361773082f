"""The exact battle solver (nerathsim/battle/exact.py): behaviours that planted bugs (mutants,
see benchmarks/tools/mutation.py) slipped past, each on a battle whose answer is known exactly."""
import numpy as np

from nerathsim.battle.army import Army
from nerathsim.battle.exact import exact_battle
from nerathsim.battle.outcomes import ATTACKER_WINS, DRAW
from nerathsim.battle.rules import BattleRules
from nerathsim.battle.units import UnitTable

NAMES = UnitTable.published().names
SURE_ATTACK_HALF_DEFENCE = BattleRules(attacker_hit_threshold=1, defender_hit_threshold=4)  # p = 1 and 1/2


def units(**counts):
    return [counts.get(n, 0) for n in NAMES]


def mark_instead_of_remove(army, hits, situation):
    """A casualty choice that leaves each killed footsoldier in the army with its hit marked."""
    fresh = army.count("footsoldier") - army.damaged("footsoldier")
    return Army((("footsoldier", 0, fresh - hits), ("footsoldier", 1, army.damaged("footsoldier") + hits)))


def test_a_callable_casualty_choice_is_solved_over_every_state_it_reaches():
    # the attacker always hits (3 hits: the defence is gone in round 1); the 2 defenders each hit with 1/2
    rules = SURE_ATTACK_HALF_DEFENCE
    plain = exact_battle({"footsoldier": 3}, {"footsoldier": 2}, rules=rules)
    marked = exact_battle({"footsoldier": 3}, {"footsoldier": 2}, rules=rules,
                          casualty_order={"attacker": mark_instead_of_remove})
    for t in (plain, marked):
        assert t.outcome.tolist() == [ATTACKER_WINS] * 3
        assert t.attacker.tolist() == [units(footsoldier=2), units(footsoldier=1), units(footsoldier=3)]
        assert t.prob.tolist() == [0.5, 0.25, 0.25]      # 1, 2 or 0 defenders hit
        assert t.defender.sum() == 0 and t.captured.sum() == 0


def test_pruning_drops_states_visited_less_often_than_the_threshold_not_as_often():
    # 1 sure attacker against 12 defenders hitting with 1/2: it survives round 1 with 2^-12 (then
    # round 2 with a further 2^-11); a threshold of exactly 2^-12 keeps the first and prunes the second
    rules = SURE_ATTACK_HALF_DEFENCE
    assert exact_battle({"footsoldier": 1}, {"footsoldier": 12}, rules=rules, prune=0).pruned == 0.0
    assert exact_battle({"footsoldier": 1}, {"footsoldier": 12}, rules=rules, prune=2.0 ** -12).pruned == 2.0 ** -23
    assert exact_battle({"footsoldier": 1}, {"footsoldier": 12}, rules=rules,
                        prune=2.0 ** -12 * (1 + 1e-9)).pruned == 2.0 ** -12


def test_a_lone_castle_that_cannot_be_hit_is_captured_without_a_fight():
    t = exact_battle({"footsoldier": 1}, {"castle": 1}, rules=BattleRules(castle_mode="never_hit"))
    assert t.outcome.tolist() == [ATTACKER_WINS] and t.prob.tolist() == [1.0]
    assert t.attacker.tolist() == [units(footsoldier=1)]
    assert t.defender.tolist() == [units()] and t.captured.tolist() == [units(castle=1)]


def test_two_sides_that_cannot_fight_at_sea_draw_and_leave_nothing_on_the_field():
    rules = BattleRules(units=UnitTable.published().replace("dragon", sea_attack_dice=0, sea_defence_dice=0))
    t = exact_battle({"dragon": 1}, {"dragon": 1}, at_sea=True, rules=rules)
    assert t.outcome.tolist() == [DRAW] and t.prob.tolist() == [1.0]
    assert t.attacker.tolist() == [units()] and t.defender.tolist() == [units()] and t.captured.tolist() == [units()]
    won = exact_battle({"warship": 1}, {"dragon": 1}, at_sea=True, rules=rules)
    assert won.outcome.tolist() == [ATTACKER_WINS] and won.attacker.tolist() == [units(warship=1)]
    assert won.defender.tolist() == [units()] and won.captured.tolist() == [units()]
    assert np.array_equal(won.prob, [1.0])


def test_the_exact_solver_asks_a_casualty_choice_only_for_hits_the_other_side_can_score():
    asked = set()

    def choose(army, hits, situation):
        asked.add(hits)
        return mark_instead_of_remove(army, hits, situation)

    exact_battle({"footsoldier": 3}, {"footsoldier": 2}, rules=SURE_ATTACK_HALF_DEFENCE, casualty_order={"attacker": choose})
    assert asked == {1, 2}     # two defenders score at most two hits a round
