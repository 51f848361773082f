"""The exact solver against answers derived by hand.

Per round, with a = P(attacker scores), d = P(defender scores) and simultaneous fire, the
no-hit round repeats, so P(attacker wins) = a(1-d) / (1 - (1-a)(1-d)), P(draw) = a d / (...).
Each case below spells out its own derivation.
"""
from fractions import Fraction as F

import pytest

import nerathsim
from nerathsim import BattleRules, UnitTable
from nerathsim.battle.army import BattleState, start_battle
from nerathsim.battle.casualties import CasualtyOrder, assign_hits, resolve_casualties


def odds(a, d, **kw):
    return nerathsim.battle_odds(a, d, **kw)


def check(o, att, dfd, draw, retreats=F(0)):
    assert o.attacker_wins == pytest.approx(float(att), abs=1e-12)
    assert o.defender_wins == pytest.approx(float(dfd), abs=1e-12)
    assert o.draw == pytest.approx(float(draw), abs=1e-12)
    assert o.attacker_retreats == pytest.approx(float(retreats), abs=1e-12)
    assert o.attacker_wins + o.defender_wins + o.draw + o.pruned == pytest.approx(1.0, abs=1e-14)


def test_one_footsoldier_against_one():
    # a = d = 1/6: per round 5/36 attacker only, 5/36 defender only, 1/36 both, 25/36 nothing
    o = odds({"footsoldier": 1}, {"footsoldier": 1})
    check(o, F(5, 11), F(5, 11), F(1, 11))
    assert o.expected_rounds == pytest.approx(36 / 11, abs=1e-12)    # geometric, leave prob 11/36
    assert o.to_frame("rounds")["probability"].iloc[0] == pytest.approx(11 / 36, abs=1e-15)
    assert o.to_frame("rounds")["probability"].iloc[1] == pytest.approx(25 / 36 * 11 / 36, abs=1e-15)
    assert o.attacker_gold_lost == pytest.approx(6 / 11) and o.tuv_swing == pytest.approx(0.0, abs=1e-15)


def test_siege_engine_rolls_two_dice_on_attack():
    # a = 1 - (5/8)^2 = 39/64, d = 1/6: leave = 1 - 25/64 * 5/6 = 259/384
    check(odds({"siege_engine": 1}, {"footsoldier": 1}), F(195, 259), F(25, 259), F(39, 259))
    # defending it rolls one d8: a = 1/6, d = 3/8 -> 5/48, 15/48, 3/48 over leave 23/48
    check(odds({"footsoldier": 1}, {"siege_engine": 1}), F(5, 23), F(15, 23), F(3, 23))


def test_wizard_first_strike():
    # wizard attacks: hits first with 1/2 (the footsoldier never fires); else the footsoldier fires 1/6
    # per round: attacker 1/2, defender 1/2 * 1/6 = 1/12, nothing 5/12
    check(odds({"wizard": 1}, {"footsoldier": 1}), F(6, 7), F(1, 7), F(0))
    check(odds({"footsoldier": 1}, {"wizard": 1}), F(1, 7), F(6, 7), F(0))
    # both sides' first strikers roll together: 1/4 each way, 1/4 both, 1/4 nothing
    check(odds({"wizard": 1}, {"wizard": 1}), F(1, 3), F(1, 3), F(1, 3))


def test_dragon_takes_two_hits_and_heals():
    # undamaged: leave 19/24, of which footsoldier-only (1/6 * 1/4 = 1/24) wounds the dragon: 1/19
    # wounded: attacker 1/24, draw 1/6 * 3/4 = 1/8, defender 5/8, over leave 19/24
    o = odds({"footsoldier": 1}, {"dragon": 1})
    check(o, F(1, 361), F(357, 361), F(3, 361))
    assert o.expected_survivors["defender_wins"]["defender"]["dragon"] == pytest.approx(1.0)   # healed, whole
    assert o.defender_gold_lost == pytest.approx(5 * 4 / 361, abs=1e-12)


def test_castle_absorbs_a_hit_and_is_captured():
    # castle d20 (3/4) against a footsoldier (1/6): attacker 1/24, defender 15/24, both 3/24 over 19/24
    o = odds({"footsoldier": 1}, {"castle": 1})
    check(o, F(1, 19), F(15, 19), F(3, 19))
    assert o.defender_gold_lost == pytest.approx(4 / 19, abs=1e-12)       # captured only when the attacker wins
    assert o.attacker_gold_lost == pytest.approx(18 / 19, abs=1e-12)
    assert o.tuv_swing == pytest.approx(-14 / 19, abs=1e-12)
    frame = o.to_frame()
    assert frame.loc[frame["outcome"] == "attacker_wins", "captured_castle"].tolist() == [1]
    assert frame.loc[frame["outcome"] == "draw", "defender_castle"].tolist() == [1]    # nobody left to take it


def test_castle_never_hit_mode():
    rules = BattleRules(castle_mode="never_hit")
    # footsoldier + castle defend, only the footsoldier can be hit; the defence scores with 1-(5/6)(1/4) = 19/24
    # attacker 1/6 * 5/24, draw 1/6 * 19/24, defender 5/6 * 19/24, over 1 - 5/6 * 5/24 = 119/144
    check(odds({"footsoldier": 1}, {"footsoldier": 1, "castle": 1}, rules=rules), F(5, 119), F(95, 119), F(19, 119))
    # a lone castle holds nothing in this mode: taken without a fight
    o = odds({"footsoldier": 1}, {"castle": 1}, rules=rules)
    check(o, F(1), F(0), F(0))
    assert o.expected_rounds == 0.0


def test_sea_battles():
    # storm elemental rolls two d8 at sea (39/64) against a warship (3/8): leave 387/512
    check(odds({"storm_elemental": 1}, {"warship": 1}, at_sea=True), F(195, 387), F(75, 387), F(117, 387))
    # warship duel, the attacker's carries two footsoldiers that cannot fight and drown with it
    o = odds({"warship": 1, "footsoldier": 2}, {"warship": 1}, at_sea=True)
    check(o, F(5, 13), F(5, 13), F(3, 13))
    assert o.attacker_gold_lost == pytest.approx(4 * 8 / 13, abs=1e-12)
    assert o.expected_survivors["attacker_wins"]["attacker"]["footsoldier"] == pytest.approx(2.0)
    assert o.expected_survivors["overall"]["attacker"]["footsoldier"] == pytest.approx(10 / 13, abs=1e-12)


def test_hero_fights_from_the_deck_and_strikes_first_at_sea():
    # wizard aboard strikes first (1/2: the defender's warship sinks before it fires); else both warships
    # fire (3/8 each). The default order keeps the ship that carries the wizard: a hit takes the wizard.
    # per round: attacker wins 1/2 + 1/2 * (15/64 + 9/64) = 88/128; the wizard falls alone 15/128 (then
    # warship v warship: 15/39, 15/39, draw 9/39); nothing 25/128.
    check(odds({"warship": 1, "wizard": 1}, {"warship": 1}, at_sea=True), F(1219, 1339), F(75, 1339), F(45, 1339))
    # the old order (the cheaper warship first) drowns the wizard with its ship: 79/103 for the attacker
    check(odds({"warship": 1, "wizard": 1}, {"warship": 1}, at_sea=True, casualty_order={"attacker": ["warship"]}),
          F(79, 103), F(15, 103), F(9, 103))


def test_retreat_after_one_round():
    # round 1 only: attacker 5/36, defender 5/36, draw 1/36, else (25/36) the attacker withdraws
    o = odds({"footsoldier": 1}, {"footsoldier": 1}, retreat="after:1")
    check(o, F(5, 36), F(30, 36), F(1, 36), retreats=F(25, 36))
    assert o.expected_rounds == 1.0


def test_retreat_below_win_chance_is_checked_after_each_round():
    # 5/11 < 1/2 at the start, but the attacker must fight round 1 first: same as after:1
    check(odds({"footsoldier": 1}, {"footsoldier": 1}, retreat="below:0.5"), F(5, 36), F(30, 36), F(1, 36), F(25, 36))
    # a threshold below 5/11 never fires: same as never retreating
    check(odds({"footsoldier": 1}, {"footsoldier": 1}, retreat="below:0.45"), F(5, 11), F(5, 11), F(1, 11))


def test_retreat_at_one_unit_by_hand():
    # 2 v 2 footsoldiers, retreat at 1 unit or fewer. Hits per side ~ Bin(2, 1/6): 25/36, 10/36, 1/36.
    # From (2 v 1): the attacker wins on any hit (11/36); it retreats if hit first. leave 91/216 -> 66/91.
    # From (2 v 2): win outright 1/36 * 35/36, draw 1/36 * 1/36, go to (2 v 1) 10/36 * 25/36, stay 625/1296.
    win = (F(35, 1296) + F(250, 1296) * F(66, 91)) / F(671, 1296)
    draw = F(1, 1296) / F(671, 1296)
    assert win == F(19685, 61061)
    o = odds({"footsoldier": 2}, {"footsoldier": 2}, retreat="units:1")
    assert o.attacker_wins == pytest.approx(float(win), abs=1e-12)
    assert o.draw == pytest.approx(float(draw), abs=1e-12)
    assert o.attacker_retreats > 0.6


def test_first_battle_of_the_issue_is_a_clear_attacker_win():
    o = odds({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8})
    assert 0.96 < o.attacker_wins < 0.965 and o.pruned < 1e-12
    assert sum(o.rounds) == pytest.approx(1.0, abs=1e-10)
    assert sum(r * p for r, p in enumerate(o.rounds)) == pytest.approx(o.expected_rounds, abs=1e-9)


def test_pruning_reports_the_mass_it_drops():
    # 15 footsoldiers against 3: states where the 15 lose a dozen before the 3 lose one are negligible
    exact = odds({"footsoldier": 15}, {"footsoldier": 3}, prune=0.0)
    pruned = odds({"footsoldier": 15}, {"footsoldier": 3}, prune=1e-6)
    assert exact.pruned == pytest.approx(0.0, abs=1e-13)
    assert 1e-8 < pruned.pruned < 1e-4
    assert pruned.attacker_wins + pruned.defender_wins + pruned.draw + pruned.pruned == pytest.approx(1.0, abs=1e-13)
    assert abs(pruned.attacker_wins - exact.attacker_wins) <= pruned.pruned
    with pytest.raises(ValueError, match="prune must be a probability threshold"):
        odds({"footsoldier": 1}, {"footsoldier": 1}, prune=0.5)


def test_exact_solver_limit_is_a_clear_error():
    with pytest.raises(ValueError, match="too large for the exact solver.*monte_carlo"):
        odds({"dragon": 60}, {"dragon": 60})


def test_custom_callable_casualty_choice_by_search():
    # a callable choice (not an order) is explored state by state; equal to the order it mimics

    def kill_dragons_first(army, hits, situation):
        return assign_hits(army, hits, CasualtyOrder(("dragon", "damage:dragon")).plan(army, situation), situation)
    a, d = {"dragon": 2, "footsoldier": 2}, {"footsoldier": 5}
    by_callable = odds(a, d, casualty_order={"attacker": kill_dragons_first})
    by_order = odds(a, d, casualty_order={"attacker": ["dragon", "damage:dragon"]})
    default = odds(a, d)
    assert by_callable.attacker_wins == pytest.approx(by_order.attacker_wins, abs=1e-12)
    assert default.attacker_wins > by_order.attacker_wins        # fodder first is the better default here


def test_attacker_win_chance_from_a_mid_battle_state():
    state = start_battle({"footsoldier": 1}, {"dragon": 1})
    plans = resolve_casualties(None, state, BattleRules())
    assert nerathsim.attacker_win_chance(state, BattleRules(), plans) == pytest.approx(1 / 361)
    wounded = BattleState(state.attacker, nerathsim.Army((("dragon", 1, 1),)), False, 2)
    assert nerathsim.attacker_win_chance(wounded, BattleRules(), plans) == pytest.approx(1 / 19)


def test_first_strike_granted_by_a_card_is_a_table_change():
    # seed: "andre enheder kan få det via treasure- og eventkort". A first-striking footsoldier attacks one:
    # per round it kills first with 1/6; otherwise the defender fires back 5/6 * 1/6 = 5/36; nothing 25/36
    table = UnitTable.published().with_unit(
        nerathsim.Unit("blessed_footsoldier", cost=1, die=6, move=1, first_strike=True))
    check(odds({"blessed_footsoldier": 1}, {"footsoldier": 1}, rules=BattleRules(units=table)),
          F(6, 11), F(5, 11), F(0))
