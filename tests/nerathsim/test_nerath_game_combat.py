"""Phase 3, combat in the full game: order, sea first, retreats, capture and VP, amok, alliance defence, luck."""
import dataclasses

import numpy as np
import pytest

from nerathsim import engine as E
from nerathsim.battle import ingame as gb
from nerathsim.battle.army import start_battle
from nerathsim.battle.casualties import resolve_casualties
from nerathsim.battle.rules import BattleRules
from nerathsim.battle.steps import both_standing, fight_round
from nerathsim.engine.combat import _start_land_stage
from nerathsim.game_actions import Casualties, Hit, Pass
from nerathsim.observation import observe
from nerathsim.policies import POLICIES
from nerathsim.rules import Rules
from nerathsim.scenario import act, build_state, region, units_at

K, V, I, N = range(4)
# the rules of Parts I–II without the cards and guardians of Part III (scenarios of other rules stay exact)
FFA = Rules(map="small", mode="free_for_all", events=False, dungeons=False)
ALLY = Rules(map="small", mode="alliance", events=False, dungeons=False)

SURE = BattleRules(hit_threshold=1)          # every die hits: battles without luck
FFA_SURE = dataclasses.replace(FFA, battle=SURE)
ALLY_SURE = dataclasses.replace(ALLY, battle=SURE)
FFA_ORDER = dataclasses.replace(FFA, casualty_choice="order")   # one casualty order per battle: the battle waits for it


@pytest.fixture(scope="module")
def battle_regions(events):
    def battle_regions(s):
        return [s.board.names[e["region"]] for e in events(s, "battle")]
    return battle_regions


def test_the_attacker_orders_the_battles(battle_regions, drive, names):
    s = build_state(FFA, record=True, units={"Kmarch": {"karkoth": "footsoldier"}, "Kcoast": {"karkoth": "footsoldier"},
                                             "Vmarch": {"vailin": "footsoldier"}, "Ncoast": {"nerath": "footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 1)
    act(s, "Move", "Kcoast", "Ncoast", "footsoldier", 1)
    assert s.decision == "battle order"
    assert names(s, [a.region for a in E.legal_actions(s)]) == ["Ncoast", "Vmarch"]
    act(s, "Fight", "Ncoast")
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert battle_regions(s) == ["Ncoast", "Vmarch"]


def test_all_sea_battles_come_before_land_battles(battle_regions, drive, names):
    s = build_state(FFA, record=True,
                    units={"Kar": {"karkoth": "dragon, storm_elemental"}, "Kmarch": {"karkoth": "footsoldier"},
                           "Vmarch": {"vailin": "footsoldier"}},
                    ships=[("vailin", "North Sea"), ("nerath", "Inner Sea")])
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 1)
    act(s, "Move", "Kar", "North Sea", "dragon", 1)
    act(s, "Move", "Kar", "North Sea", "storm_elemental", 1)
    act(s, "Move", "North Sea", "Inner Sea", "dragon", 1)
    assert s.decision == "battle order"
    assert names(s, [a.region for a in E.legal_actions(s)]) == ["Inner Sea", "North Sea"]   # no land battle yet
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert battle_regions(s)[-1] == "Vmarch"


def test_retreat_to_any_adjacent_friendly_land_not_only_where_they_came_from(drive, names):
    s = build_state(FFA, owner={"Vcoast": "karkoth"},
                    units={"Kmarch": {"karkoth": "2 footsoldier"}, "Vmarch": {"vailin": "6 footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 2)
    drive(s, until=lambda s: s.phase == E.PH_PRESS)
    assert names(s, E.retreat_options(s)) == ["Kmarch", "Vcoast"]      # land units: friendly land only
    act(s, "RetreatTo", "Vcoast")
    assert s.owner[region(s, "Vmarch")] == V
    assert sum(units_at(s, "Vcoast", "karkoth").values()) >= 1 and not units_at(s, "Vmarch", "karkoth")


def test_flyers_may_also_retreat_to_a_friendly_sea(drive, names):
    s = build_state(FFA, units={"Kmarch": {"karkoth": "dragon"}, "Vmarch": {"vailin": "8 footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "dragon", 1)
    drive(s, until=lambda s: s.phase == E.PH_PRESS)
    assert names(s, E.retreat_options(s)) == ["Inner Sea", "Kmarch", "North Sea"]


def test_land_units_retreat_onto_warships_only_without_friendly_land_next_door(drive, events, names):
    # a landing on the Isle (its only neighbour is the Inner Sea)
    for stay in (True, False):
        s = build_state(dataclasses.replace(FFA, cargo_may_stay_aboard=stay), units={"Isle": {"vailin": "6 footsoldier"}},
                        ships=[("karkoth", "Inner Sea", ["footsoldier", "footsoldier"])], record=True)
        act(s, "Unload", s.ships[0].id, "Isle")
        drive(s, until=lambda s: s.phase == E.PH_PRESS)
        assert names(s, E.retreat_options(s)) == ["Inner Sea"]
        act(s, "RetreatTo", "Inner Sea")
        assert not units_at(s, "Isle", "karkoth")
        if stay:
            assert len(s.ships[0].cargo) >= 1
        else:       # the text's default: still aboard when the turn ends, they are lost (G15)
            assert s.realm != K and not s.ships[0].cargo and events(s, "cargo_lost")


def test_no_retreat_option_means_the_battle_goes_on(drive):
    s = build_state(FFA_ORDER, units={"Isle": {"vailin": "3 footsoldier"}},
                    ships=[("karkoth", "Inner Sea", ["footsoldier", "fighter"])])
    sid = s.ships[0].id
    act(s, "Unload", sid, "Isle")
    s.ships[0].cargo = []
    # sink the ship: no warship and no friendly land next to the Isle
    s.ships.remove(s.ship(sid))
    s._legal = None
    drive(s, until=lambda s: s.phase in (E.PH_PRESS, E.PH_REGROUP))
    assert s.phase != E.PH_PRESS


def test_capture_gives_region_castle_and_one_vp(drive):
    s = build_state(FFA_SURE, units={"Kmarch": {"karkoth": "3 footsoldier"}, "Vmarch": {"vailin": "footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 3)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert s.owner[region(s, "Vmarch")] == K and s.vp[K] == 1
    assert s.stats["attacks_won"][K] == 1 and s.stats["battles_won"][K] == 1 and s.stats["battles_fought"][V] == 1


@pytest.mark.parametrize("stacks, vp", [(False, 5), (True, 6)])
def test_capital_gives_five_vp_and_its_castle(stacks, vp, drive):
    rules = dataclasses.replace(FFA_SURE, capital_vp_stacks=stacks)
    s = build_state(rules, owner={"Vmarch": "karkoth"},
                    units={"Vmarch": {"karkoth": "4 footsoldier"}, "Vale": {"vailin": "footsoldier, castle"}})
    act(s, "Move", "Vmarch", "Vale", "footsoldier", 4)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert s.owner[region(s, "Vale")] == K and s.vp[K] == vp
    assert units_at(s, "Vale", "karkoth").get("castle") == 1 and not units_at(s, "Vale", "vailin")


def test_no_vp_for_retaking_your_own_region_vp_for_any_opponents_area(drive):
    s = build_state(FFA_SURE, owner={"Kmarch": "vailin", "Vmarch": "nerath"},
                    units={"Kar": {"karkoth": "2 footsoldier"}, "Kmarch": {"vailin": "footsoldier"},
                           "Vmarch": {"nerath": "footsoldier"}, "Kcoast": {"karkoth": "footsoldier"}})
    act(s, "Move", "Kar", "Kmarch", "footsoldier", 2)                  # Karkoth's own starting region
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert s.owner[region(s, "Kmarch")] == K and s.vp[K] == 0
    # next Karkoth turn: Vmarch (Vailin's starting area, now held by Nerath) scores
    s2 = build_state(FFA_SURE, owner={"Vmarch": "nerath"},
                     units={"Kmarch": {"karkoth": "2 footsoldier"}, "Vmarch": {"nerath": "footsoldier"}})
    act(s2, "Move", "Kmarch", "Vmarch", "footsoldier", 2)
    drive(s2, until=lambda s: s.phase == E.PH_REGROUP)
    assert s2.vp[K] == 1


def test_vp_once_per_region_variant():
    for once, vp in ((False, 2), (True, 1)):
        rules = dataclasses.replace(FFA, vp_once_per_region=once, walk_in_attack=False)   # (re-entry by hand below)
        s = build_state(rules, units={"Kmarch": {"karkoth": "footsoldier"}})
        act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 1)
        assert s.vp[K] == 1
        s.owner[region(s, "Vmarch")] = V                                 # Vailin takes it back ...
        s.phase = E.PH_MOVE
        _start_land_stage(s)                                           # ... and Karkoth walks in again
        assert s.vp[K] == vp


def test_draw_leaves_the_region_with_the_defender(drive):
    s = build_state(FFA_SURE, units={"Kmarch": {"karkoth": "footsoldier"}, "Vmarch": {"vailin": "footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 1)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert s.owner[region(s, "Vmarch")] == V and not units_at(s, "Vmarch", "karkoth")
    assert s.stats["battles_won"][V] == 1 and s.stats["attacks_won"][K] == 0


def test_monsters_run_amok_into_empty_enemy_regions(drive, names):
    s = build_state(FFA_SURE, units={"Kmarch": {"karkoth": "2 monster, 2 footsoldier"},
                                     "Vmarch": {"vailin": "2 footsoldier"}, "Vcoast": {"vailin": "castle"}})
    act(s, "Move", "Kmarch", "Vmarch", "monster", 2)
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 2)
    drive(s, until=lambda s: s.phase == E.PH_AMOK)
    assert names(s, E.amok_targets(s)) == ["Vale"]                     # Vcoast holds a castle: not empty
    act(s, "Amok", "Vale")
    assert s.owner[region(s, "Vale")] == K and s.vp[K] == 1 + 5
    assert units_at(s, "Vale", "karkoth") == {"monster": 1}
    assert s.stats["amok_conquests"][K] == 1


def test_amok_without_vp_variant_and_pass(drive):
    rules = dataclasses.replace(FFA_SURE, amok_scores_vp=False)
    s = build_state(rules, units={"Kmarch": {"karkoth": "monster, footsoldier"}, "Vmarch": {"vailin": "footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "monster", 1)
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 1)
    drive(s, until=lambda s: s.phase == E.PH_AMOK)
    assert E.is_legal(s, Pass())
    act(s, "Amok", "Vcoast")
    assert s.vp[K] == 1 and s.owner[region(s, "Vcoast")] == K


@pytest.mark.parametrize("capture", [True, False])
def test_flyers_alone_capture_only_with_the_rule(capture, drive):
    rules = dataclasses.replace(FFA, flyers_capture=capture)
    s = build_state(rules, units={"Kmarch": {"karkoth": "dragon"}})
    act(s, "Move", "Kmarch", "Vmarch", "dragon", 1)
    assert s.phase == E.PH_MOVE                                          # flyers do not stop: it may fly on
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert (s.owner[region(s, "Vmarch")] == K) == capture


def test_with_the_order_variant_casualty_orders_are_asked_of_each_side_out_of_turn():
    s = build_state(FFA_ORDER, units={"Kmarch": {"karkoth": "footsoldier, fighter"}, "Vmarch": {"vailin": "footsoldier, wizard"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 1)
    act(s, "Move", "Kmarch", "Vmarch", "fighter", 1)
    assert s.decision == "casualty order" and s.decider == K and s.current_player == 0
    act(s, "Casualties", "weakest")
    assert s.decision == "casualty order" and s.decider == V and s.current_player == 1
    assert s.battle.att.order == "weakest"
    assert s.battle.att.plan.hits[0] == (False, E.tables(FFA).idx["footsoldier"])


# --- alliance -------------------------------------------------------------------------------
@pytest.mark.parametrize("hits, healths, troops, owner, mode, expected", [
    (3, [5, 5], [2, 1], 0, "equal", [2, 1]),          # odd hit to the side with most troops
    (3, [5, 5], [1, 2], 0, "equal", [1, 2]),
    (3, [5, 5], [2, 2], 1, "equal", [1, 2]),          # tie: the region's holder takes it
    (4, [1, 5], [1, 3], 0, "equal", [1, 3]),          # a wiped-out partner passes the rest on
    (5, [1, 2], [1, 2], 0, "equal", [1, 2]),          # more hits than both can take
    (3, [2, 5], [1, 9], 0, "region_owner_first", [2, 1]),
])
def test_allied_defenders_split_damage(hits, healths, troops, owner, mode, expected):
    assert gb.split_hits(hits, healths, troops, owner, mode) == expected


def test_allies_defend_a_region_together(drive, events):
    s = build_state(ALLY_SURE, record=True,
                    units={"Kmarch": {"karkoth": "3 footsoldier"}, "Vmarch": {"vailin": "2 footsoldier",
                                                                             "nerath": "footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 3)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    ev = events(s, "battle")[0]
    assert set(ev["defenders"]) == {"vailin", "nerath"}
    assert s.stats["battles_fought"][N] == 1 and s.stats["units_lost"][N] == 1 and s.stats["units_lost"][V] == 2


def test_retaking_an_allys_region_hands_it_to_the_ally_without_vp(drive):
    # Vmarch (Vailin's starting area) is held by Karkoth; Nerath, Vailin's ally, takes it back
    s = build_state(ALLY_SURE, owner={"Vmarch": "karkoth", "Kmarch": "nerath"}, realm="nerath",
                    units={"Kmarch": {"nerath": "3 footsoldier"}, "Vmarch": {"karkoth": "footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 3)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert s.owner[region(s, "Vmarch")] == V
    assert units_at(s, "Vmarch", "nerath") == {"footsoldier": 2}      # the troops stay
    assert s.vp[N] == 0


# --- luck -------------------------------------------------------------------------------------
def test_luck_is_zero_when_every_die_hits(drive):
    s = build_state(FFA_SURE, units={"Kmarch": {"karkoth": "3 footsoldier, fighter"},
                                     "Vmarch": {"vailin": "2 footsoldier, castle"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 3)
    act(s, "Move", "Kmarch", "Vmarch", "fighter", 1)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert s.stats["luck"] == pytest.approx([0.0] * 4, abs=1e-9)


def test_luck_is_zero_sum_and_expected_to_average_out(drive):
    total = []
    for seed in range(40):
        s = build_state(FFA, seed=seed, units={"Kmarch": {"karkoth": "4 footsoldier, siege_engine"},
                                               "Vmarch": {"vailin": "3 footsoldier, wizard"}})
        act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 4, rng=np.random.default_rng(seed))
        act(s, "Move", "Kmarch", "Vmarch", "siege_engine", 1, rng=np.random.default_rng(seed))
        drive(s, until=lambda s: s.phase == E.PH_REGROUP, seed=seed)
        assert sum(s.stats["luck"]) == pytest.approx(0.0, abs=1e-9)
        total.append(s.stats["luck"][K])
    assert abs(np.mean(total)) < 2.0 and np.std(total) > 0


# --- the fast battle path is the battles module's procedure -------------------------------------
def test_fast_rounds_match_combat_fight_round_bit_for_bit(names):
    rng0 = np.random.default_rng(5)
    names = BattleRules().units.names
    checked = 0
    for trial in range(400):
        br = BattleRules(castle_mode=["absorbs_hit", "never_hit"][trial % 2], damaged_units_fight=bool(trial % 3))
        at_sea = trial % 4 == 0

        def army(role):
            c = [0] * len(names)
            for u, n in enumerate(names):
                unit = br.units[n]
                if at_sea and (unit.domain == "land" and n not in ("fighter", "wizard", "footsoldier")):
                    continue
                if not at_sea and unit.domain == "sea":
                    continue
                if unit.captured:
                    c[u] = int(rng0.integers(0, 2)) if role == "defender" else 0
                elif rng0.random() < 0.5:
                    c[u] = int(rng0.integers(0, 3))
            if at_sea:
                land = sum(c[u] for u, n in enumerate(names) if br.units[n].domain == "land")
                c[names.index("warship")] = max(c[names.index("warship")], (land + 1) // 2, 1)
            if not sum(c):
                c[0] = 1
            return c

        ca, cd = army("attacker"), army("defender")
        try:
            st = start_battle({names[u]: n for u, n in enumerate(ca) if n}, {names[u]: n for u, n in enumerate(cd) if n},
                              at_sea, br)
        except ValueError:
            continue
        choices = resolve_casualties(None, st, br)
        ta, td = gb.side_table(br, "attacker", at_sea), gb.side_table(br, "defender", at_sea)
        A, D = gb.new_army(ta, ca), gb.new_army(td, cd)
        pa, pd = gb.compile_plan(ta, ca), gb.compile_plan(td, cd)
        seed = int(rng0.integers(1 << 30))
        r1, r2 = np.random.default_rng(seed), np.random.default_rng(seed)
        for _ in range(5):
            if not both_standing(st, br):
                break
            rep = fight_round(st, r1, br, choices)
            st = rep.state
            fa, fd = gb.roll(ta, A, r2, True), gb.roll(td, D, r2, True)
            gb.assign(ta, A, fd, pa)
            gb.assign(td, D, fa, pd)
            ha, hd = gb.roll(ta, A, r2, False), gb.roll(td, D, r2, False)
            gb.assign(ta, A, hd, pa)
            gb.assign(td, D, ha, pd)

            def groups(a):
                return sorted((names[u], d, c) for u, row in enumerate(a) for d, c in enumerate(row) if c)

            assert (fa, fd) == rep.first_strike_hits and (ha, hd) == rep.hits
            assert groups(A) == list(st.attacker.groups) and groups(D) == list(st.defender.groups)
            checked += 1
    assert checked > 300


def test_heroes_attack_enemy_heroes_in_a_dungeon_but_never_capture_it(drive):
    s = build_state(FFA_SURE, realm="iron_circle", units={"Imarch": {"iron_circle": "2 fighter"},
                                                          "Crypt": {"nerath": "fighter"}})
    act(s, "Move", "Imarch", "Crypt", "fighter", 2)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert not units_at(s, "Crypt", "nerath") and units_at(s, "Crypt", "iron_circle") == {"fighter": 1}
    assert s.owner[region(s, "Crypt")] == -1 and s.vp[I] == 0
    assert s.explored == set()                  # (dungeons off in these rules: no guardians, nothing explored)


# --- "Du bestemmer, hvilken af dine tropper, der rammes": each hit placed by its owner -----------------
def _sea_fight_of_heroes():
    s = build_state(FFA_SURE, record=True, ships=[("karkoth", "Inner Sea", ["fighter", "wizard"]), ("vailin", "North Sea")],
                    units={"North Sea": {"vailin": "dragon"}})
    act(s, "Sail", s.ships[0].id, "North Sea")
    act(s, "EndPhase")
    return s


def test_the_owner_places_each_hit_out_of_turn_and_a_wound_on_a_fresh_dragon_is_one_choice():
    s = _sea_fight_of_heroes()
    # step 1: the wizard strikes first (every die hits); Vailin places that hit
    assert s.decision == "take a hit" and s.decider == V and s.current_player == 1
    assert E.legal_actions(s) == [Hit("damage:dragon"), Hit("warship")]
    act(s, "Hit", "damage:dragon")
    # step 2: fighter and warship hit twice; Karkoth places two hits (three places; the warship carries both heroes)
    assert s.decision == "take a hit" and s.decider == K and s.battle.due == [[K, 2], [V, 2]]
    assert E.legal_actions(s) == [Hit("fighter"), Hit("wizard"), Hit("warship")]


def test_at_sea_the_heuristics_sacrifice_the_heroes_before_the_ship_that_carries_them(events):
    s = _sea_fight_of_heroes()
    for name in ("balanced", "aggressive", "defensive"):
        assert POLICIES[name](observe(s, 1), E.legal_actions(s), None) == Hit("damage:dragon")   # a free hit
    act(s, "Hit", "damage:dragon")
    for name in ("balanced", "aggressive", "defensive"):
        assert POLICIES[name](observe(s, 0), E.legal_actions(s), None) == Hit("fighter")   # 2 gold, not 2 + the wizard
    act(s, "Hit", "fighter")
    assert E.legal_actions(s) == [Hit("wizard"), Hit("warship")]
    assert POLICIES["balanced"](observe(s, 0), E.legal_actions(s), None) == Hit("wizard")   # 3 < 2 + 3 drowned
    act(s, "Hit", "wizard")
    # Vailin's two hits kill its wounded dragon and its warship: nothing to choose, the battle ends
    assert s.phase == E.PH_REGROUP or s.battle is None
    end = events(s, "battle_end")[-1]
    assert end["outcome"] == "attacker_wins" and end["attacker"] == {"warship": 1}
    assert [sh.owner for sh in s.ships] == [K] and s.ships[0].cargo == []


def test_hits_that_destroy_every_unit_able_to_take_one_are_placed_without_asking():
    s = build_state(FFA_SURE, units={"Kmarch": {"karkoth": "3 footsoldier, fighter"},
                                     "Vmarch": {"vailin": "footsoldier, wizard"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 3)
    act(s, "Move", "Kmarch", "Vmarch", "fighter", 1)
    # the wizard's first strike: Karkoth chooses (footsoldier or fighter); then Vailin's two units take 3 hits
    # (no choice: both are lost) and Karkoth's hit from the footsoldier can only go to a footsoldier
    assert s.decision == "take a hit" and s.decider == K
    act(s, "Hit", "fighter")
    assert s.owner[region(s, "Vmarch")] == K and units_at(s, "Vmarch", "karkoth") == {"footsoldier": 2}


def test_the_casualty_order_variant_keeps_one_order_for_the_whole_battle():
    s = build_state(dataclasses.replace(FFA_SURE, casualty_choice="order"), ships=[
        ("karkoth", "Inner Sea", ["fighter", "wizard"]), ("vailin", "North Sea")], units={"North Sea": {"vailin": "dragon"}})
    act(s, "Sail", s.ships[0].id, "North Sea")
    act(s, "EndPhase")
    assert s.decision == "casualty order" and E.legal_actions(s) == [Casualties("cheapest"), Casualties("weakest")]


# --- walking into an empty enemy region is an attack ----------------------------
@pytest.fixture(scope="module")
def _walk_in(end_phase):
    def _walk_in(rules, record=True):
        s = build_state(rules, units={"Kmarch": {"karkoth": "1 monster"}, "Kar": {"karkoth": "castle"},
                                      "Vale": {"vailin": "castle"}}, realm="karkoth", record=record)
        act(s, "Move", "Kmarch", "Vmarch", "monster", 1)
        if s.decision == "movement":
            end_phase(s)
        return s
    return _walk_in


def test_a_monster_that_walks_into_an_empty_enemy_region_may_run_amok(_walk_in, events, names):
    """Seed: entering an enemy region "Det er et angreb", and "Hvis der er monstre i angriberens hær, kan
    de nu gå amok" (the issue's reproducer, free-for-all on the small map)."""
    assert FFA.walk_in_attack is True and dataclasses.replace(FFA, map="nerath").walk_in_attack is True
    s = _walk_in(FFA)
    assert s.owner[region(s, "Vmarch")] == K and s.vp[K] == 1
    assert s.decision == "run amok"
    assert names(s, E.amok_targets(s)) == ["Vcoast"]            # Vale holds a castle: not "uden modstandere"
    act(s, "Amok", "Vcoast")
    assert s.owner[region(s, "Vcoast")] == K and s.vp[K] == 2
    assert units_at(s, "Vcoast", "karkoth") == {"monster": 1} and units_at(s, "Vmarch", "karkoth") == {}
    assert [(e["how"], s.board.names[e["region"]]) for e in events(s, "capture")] == [("walk_in", "Vmarch"),
                                                                                      ("amok", "Vcoast")]


def test_walk_ins_without_amok_variant(_walk_in):
    s = _walk_in(dataclasses.replace(FFA, walk_in_attack=False))
    assert s.owner[region(s, "Vmarch")] == K and s.vp[K] == 1
    assert s.decision != "run amok" and s.owner[region(s, "Vcoast")] == V


def test_walk_ins_are_attacks_in_the_attackers_order(drive, events, names):
    s = build_state(FFA, record=True, units={"Kmarch": {"karkoth": "footsoldier"}, "Kcoast": {"karkoth": "footsoldier"},
                                             "Ncoast": {"nerath": "footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 1)       # empty: a walk-in
    act(s, "Move", "Kcoast", "Ncoast", "footsoldier", 1)       # a battle
    assert s.decision == "battle order"
    assert names(s, [a.region for a in E.legal_actions(s)]) == ["Ncoast", "Vmarch"]
    act(s, "Fight", "Ncoast")
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert [e["event"] for e in s.log if e["event"] in ("battle", "capture")][:2] == ["battle", "capture"]
    assert [e["how"] for e in events(s, "capture")][-1] == "walk_in"
