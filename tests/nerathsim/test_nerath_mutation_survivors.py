"""Rules and edge cases that planted bugs (mutants, see benchmarks/tools/mutation.py) slipped past:
one scenario each, with the exact expected outcome."""
import dataclasses
import json

import pytest

from nerathsim import engine as E
from nerathsim.battle.army import Army, BattleState, start_battle
from nerathsim.battle.casualties import resolve_casualties
from nerathsim.battle.exact import attacker_win_chance, exact_battle
from nerathsim.battle.outcomes import ATTACKER_WINS
from nerathsim.battle.rules import BattleRules
from nerathsim.game_actions import Buy
from nerathsim.maps import load_map, parse_map
from nerathsim.observation import observe
from nerathsim.rules import Rules
from nerathsim.scenario import act, build_state, region

K, V, I, N = range(4)
# the rules of Parts I–II without the cards and guardians of Part III (scenarios of other rules stay exact)
FFA = Rules(map="small", mode="free_for_all", events=False, dungeons=False)

SURE = BattleRules(hit_threshold=1)          # every die hits: battles without luck
FFA_SURE = dataclasses.replace(FFA, battle=SURE)


def small_map_with(**units_at_sea):
    """The small map with `units_at_sea[sea name] = {realm: {unit: count}}` as starting troops."""
    data = json.loads(open(load_map("small").source, encoding="utf-8").read())
    for r in data["regions"]:
        key = r["name"].replace(" ", "_")
        if key in units_at_sea:
            r["units"] = units_at_sea[key]
    return dataclasses.replace(FFA, map=parse_map(data))


# ------------------------------------------------------------------ setup
def test_land_units_starting_at_sea_fill_one_warship_before_the_next():
    rules = small_map_with(North_Sea={"karkoth": {"warship": 2, "footsoldier": 3}})
    s = E.new_game(rules, 0)
    fleet = [sh for sh in s.ships if sh.region == region(s, "North Sea") and sh.owner == K]
    assert sorted(len(sh.cargo) for sh in fleet) == [1, 2]     # a warship carries two, never three


def test_land_units_starting_at_sea_exactly_fill_the_warships():
    rules = small_map_with(North_Sea={"karkoth": {"warship": 2, "footsoldier": 4}})
    s = E.new_game(rules, 0)
    fleet = [sh for sh in s.ships if sh.region == region(s, "North Sea") and sh.owner == K]
    assert [len(sh.cargo) for sh in fleet] == [2, 2]


# ------------------------------------------------------------------ what may move
def test_castles_and_warships_are_not_listed_as_movable_troops():
    s = build_state(FFA, units={"Kar": {"karkoth": "castle, 2 footsoldier, dragon"}},
                    ships=[("karkoth", "North Sea", ["footsoldier"])])
    t = s.tab
    mob = observe(s, s.current_player).mobile(region(s, "Kar"))
    assert mob == {(t.idx["footsoldier"], 1): 2, (t.idx["dragon"], 3): 1}
    assert observe(s, s.current_player).mobile(region(s, "North Sea")) == {}   # ships sail, they are not troops
    fresh = E.new_game(FFA, 0)                                    # the same at the start of a real game
    kar = observe(fresh, fresh.current_player).mobile(region(fresh, "Kar"))
    assert {fresh.tab.names[u] for u, _m in kar} == {"footsoldier", "fighter"}


# ------------------------------------------------------------------ hostile seas after a sea battle
@pytest.mark.parametrize("defenders", [dict(ships=[("vailin", "North Sea"), ("vailin", "North Sea")]),
                                       dict(units={"North Sea": {"vailin": "2 storm_elemental"}})],
                         ids=["empty enemy warships", "enemy flyers without ships"])
def test_a_sea_the_defender_holds_stays_hostile_no_warship_may_be_placed_there(defenders, drive):
    units = {"Kar": {"karkoth": "castle, dragon"}, "Kcoast": {"karkoth": "castle"}}
    units.update(defenders.get("units", {}))
    s = build_state(FFA_SURE, units=units, ships=defenders.get("ships", ()), gold={"karkoth": 20})
    act(s, "Move", "Kar", "North Sea", "dragon", 1)
    drive(s, until=lambda s: s.phase == E.PH_BUY)
    assert s.realm == K and not [sh for sh in s.ships if sh.owner == K]
    assert not E.is_legal(s, Buy("warship", region(s, "North Sea")))   # the defender held the sea
    assert E.is_legal(s, Buy("warship", region(s, "Inner Sea")))       # a free sea next to a castle


# ------------------------------------------------------------------ exact battle maths edge cases
def test_attacker_win_chance_when_a_side_is_already_wiped_out():
    rules = BattleRules()
    two = Army.of({"footsoldier": 2})
    assert attacker_win_chance(BattleState(two, Army()), rules, (None, None)) == 1.0
    assert attacker_win_chance(BattleState(Army(), two), rules, (None, None)) == 0.0
    assert attacker_win_chance(BattleState(Army(), Army()), rules, (None, None)) == 0.0
    assert attacker_win_chance(BattleState(Army.of({"footsoldier": 1}), Army()), rules, (None, None)) == 1.0


@pytest.mark.parametrize("attacker, defender", [("2 footsoldier", "footsoldier"), ("footsoldier", "2 footsoldier"),
                                                ("3 footsoldier, fighter", "2 footsoldier, castle")])
def test_attacker_win_chance_of_a_standing_battle_is_the_exact_tables_win_probability(attacker, defender):
    rules = BattleRules()
    state = start_battle(attacker, defender, False, rules)
    table = exact_battle(attacker, defender, rules=rules, prune=0)
    expected = float(table.prob[table.outcome == ATTACKER_WINS].sum())
    assert 0.0 < expected < 1.0
    assert attacker_win_chance(state, rules, resolve_casualties(None, state, rules)) == pytest.approx(expected, abs=1e-9)


def test_prune_zero_keeps_every_state_and_bad_prune_values_are_refused():
    table = exact_battle("2 footsoldier", "footsoldier", prune=0)
    assert table.pruned == 0.0 and abs(table.prob.sum() - 1.0) < 1e-12
    assert exact_battle("2 footsoldier", "footsoldier", prune=0.0).pruned == 0.0
    for bad in (-1e-9, 1e-3, 0.5, True, "0"):
        with pytest.raises(ValueError, match="prune must be a probability threshold"):
            exact_battle("2 footsoldier", "footsoldier", prune=bad)
    assert exact_battle("2 footsoldier", "footsoldier", prune=9.9e-4).pruned >= 0.0


def test_a_fleet_retreats_only_to_seas_free_of_enemies_including_one_just_defended(drive):
    # the storm elemental attacks the North Sea and is sunk there: the North Sea stays hostile
    # (four empty Vailin warships), so the fleet fighting in the Inner Sea may retreat only south
    s = build_state(FFA, seed=0, units={"Kar": {"karkoth": "storm_elemental"}},
                    ships=[("vailin", "North Sea")] * 4 + [("vailin", "Inner Sea")] * 4 + [("karkoth", "South Sea")] * 4)
    act(s, "Move", "Kar", "North Sea", "storm_elemental", 1)
    for sh in [sh for sh in s.ships if sh.owner == K]:
        act(s, "Sail", sh.id, "Inner Sea")
    act(s, "Fight", "North Sea")
    drive(s, until=lambda s: s.phase == E.PH_PRESS and s.battle.region == region(s, "Inner Sea"))
    north = region(s, "North Sea")
    assert not any(s.units[north][K]) and {sh.owner for sh in s.ships if sh.region == north} == {V}
    assert [s.board.names[x] for x in E.retreat_options(s)] == ["South Sea"]
