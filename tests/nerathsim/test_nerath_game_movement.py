"""Phase 2, movement: move values, stopping, dungeons, flyers, warships and transport, alliance passage."""
import dataclasses

import pytest

from nerathsim import engine as E
from nerathsim.battle.rules import BattleRules
from nerathsim.engine.terrain import _reach
from nerathsim.maps import parse_map
from nerathsim.rules import Rules
from nerathsim.scenario import act, action, build_state, cargo_of, region, units_at

K, V, I, N = range(4)
# the rules of Parts I–II without the cards and guardians of Part III (scenarios of other rules stay exact)
FFA = Rules(map="small", mode="free_for_all", events=False, dungeons=False)
ALLY = Rules(map="small", mode="alliance", events=False, dungeons=False)

SURE = BattleRules(hit_threshold=1)   # every die hits: battles without luck


def test_move_values_footsoldier_one_fighter_two(dests):
    s = build_state(FFA, units={"Kar": {"karkoth": "footsoldier, fighter, siege_engine"}})
    assert dests(s, "Kar", "footsoldier") == {"Kmarch": (1, False), "Kcoast": (1, False)}
    assert dests(s, "Kar", "siege_engine") == {"Kmarch": (1, False), "Kcoast": (1, False)}
    assert dests(s, "Kar", "fighter") == {"Kmarch": (1, False), "Kcoast": (1, False), "Vmarch": (2, True),
                                          "Ncoast": (2, True)}


def test_entering_an_enemy_region_stops_the_unit(dests):
    s = build_state(FFA, units={"Kmarch": {"karkoth": "monster"}, "Vmarch": {"vailin": "footsoldier"},
                                "Kar": {"karkoth": "footsoldier"}})          # (an idle unit keeps the phase open)
    d = dests(s, "Kmarch", "monster")
    assert d["Vmarch"] == (1, True) and "Vale" not in d and "Vcoast" not in d
    act(s, "Move", "Kmarch", "Vmarch", "monster", 1)
    assert dests(s, "Vmarch", "monster") == {}


def test_an_empty_enemy_region_also_stops_the_unit(dests):
    s = build_state(FFA, units={"Kmarch": {"karkoth": "monster"}})
    assert dests(s, "Kmarch", "monster")["Vmarch"] == (1, True)


def test_moving_through_friendly_regions_in_steps(dests):
    s = build_state(FFA, units={"Kar": {"karkoth": "fighter"}, "Kcoast": {"karkoth": "footsoldier"}})
    act(s, "Move", "Kar", "Kmarch", "fighter", 1)
    assert dests(s, "Kmarch", "fighter") == {"Kar": (1, False), "Kcoast": (1, False), "Vmarch": (1, True)}
    act(s, "Move", "Kmarch", "Vmarch", "fighter", 1)
    assert dests(s, "Vmarch", "fighter") == {}


def test_units_with_fewest_moves_left_go_first(dests):
    s = build_state(FFA, units={"Kar": {"karkoth": "fighter"}, "Kmarch": {"karkoth": "fighter"}})
    act(s, "Move", "Kar", "Kmarch", "fighter", 1)                       # now one with 1 move, one with 2
    act(s, "Move", "Kmarch", "Kcoast", "fighter", 1)                    # the one with 1 move goes
    assert dests(s, "Kmarch", "fighter")["Ncoast"] == (2, True)         # the fresh one can still go 2


def test_count_cannot_exceed_units_able():
    s = build_state(FFA, units={"Kar": {"karkoth": "2 footsoldier"}})
    assert E.is_legal(s, action(s, "Move", "Kar", "Kmarch", "footsoldier", 2))
    assert not E.is_legal(s, action(s, "Move", "Kar", "Kmarch", "footsoldier", 3))
    assert not E.is_legal(s, action(s, "Move", "Kar", "Kmarch", "footsoldier", 0))


def test_only_heroes_enter_dungeons_and_stop_there(dests):
    s = build_state(FFA, units={"Nmarch": {"nerath": "fighter, footsoldier"}}, realm="nerath")
    assert dests(s, "Nmarch", "fighter")["Crypt"] == (1, True)
    assert "Crypt" not in dests(s, "Nmarch", "footsoldier")
    act(s, "Move", "Nmarch", "Crypt", "fighter", 1)
    assert dests(s, "Crypt", "fighter") == {}
    s2 = build_state(dataclasses.replace(FFA, dungeon_entry="all_land"), units={"Nmarch": {"nerath": "footsoldier"}},
                     realm="nerath")
    assert dests(s2, "Nmarch", "footsoldier")["Crypt"] == (1, True)


def corridor_rules(**kw):
    """Kar - Tomb (dungeon) - Far; the other capitals on a ring around."""
    data = {
        "format": "nerathsim-map/1", "name": "corridor",
        "realms": {r: {"gold": 0} for r in ("karkoth", "vailin", "iron_circle", "nerath")},
        "regions": [
            {"name": "Kar", "type": "land", "owner": "karkoth", "capital": True, "castle": True,
             "adjacent": ["Tomb", "Vcap", "Bay"]},
            {"name": "Tomb", "type": "land", "dungeon": True, "adjacent": ["Kar", "Far"]},
            {"name": "Far", "type": "land", "owner": "karkoth", "adjacent": ["Tomb", "Ncap"]},
            {"name": "Vcap", "type": "land", "owner": "vailin", "capital": True, "castle": True,
             "adjacent": ["Kar", "Icap", "Bay"]},
            {"name": "Icap", "type": "land", "owner": "iron_circle", "capital": True, "castle": True,
             "adjacent": ["Vcap", "Ncap"]},
            {"name": "Ncap", "type": "land", "owner": "nerath", "capital": True, "castle": True,
             "adjacent": ["Icap", "Far"]},
            {"name": "Bay", "type": "sea", "adjacent": ["Kar", "Vcap"]},
        ],
    }
    return Rules(map=parse_map(data), mode="free_for_all", **kw)


def test_flyers_fly_over_dungeons_but_never_end_there(dests):
    s = build_state(corridor_rules(), units={"Kar": {"karkoth": "dragon, fighter, footsoldier"}})
    d = dests(s, "Kar", "dragon")
    assert "Tomb" not in d and d["Far"] == (2, False)
    assert "Far" not in dests(s, "Kar", "fighter")                     # heroes must stop in the dungeon
    assert "Tomb" not in dests(s, "Kar", "footsoldier") and "Far" not in dests(s, "Kar", "footsoldier")


def test_flyers_pass_enemy_troops_and_pay_one_extra_move_between_land_and_sea(dests):
    s = build_state(FFA, units={"Kar": {"karkoth": "dragon, storm_elemental"},
                                "Kmarch": {"karkoth": "footsoldier"},
                                "Vmarch": {"vailin": "3 footsoldier"}})
    d = dests(s, "Kar", "dragon")
    assert d["Vale"] == (3, False)                                     # Kar-Kmarch-Vmarch(enemies)-Vale
    assert d["North Sea"] == (2, False)                                # land -> sea costs 2
    assert d["Inner Sea"] == (3, False)
    assert "Isle" not in d                                             # sea -> land costs 2 more
    assert dests(s, "Kar", "storm_elemental")["North Sea"] == (2, False)
    s0 = build_state(dataclasses.replace(FFA, flyer_coast_cost=0), units={"Kar": {"karkoth": "dragon"}})
    assert dests(s0, "Kar", "dragon")["North Sea"] == (1, False)
    assert dests(s0, "Kar", "dragon")["Isle"] == (3, False)


def test_land_units_only_reach_land(dests):
    s = build_state(FFA, units={"Kcoast": {"karkoth": "wizard"}})
    assert all(not s.board.is_sea[region(s, r)] for r in dests(s, "Kcoast", "wizard"))


# --- warships and transport -----------------------------------------------------------------
def test_warships_move_only_at_sea_and_stop_in_hostile_seas():
    s = build_state(FFA, ships=[("karkoth", "North Sea"), ("vailin", "South Sea")],
                    units={"Kar": {"karkoth": "footsoldier"}})
    sh = s.ships[0]
    reach = {s.board.names[d]: st for d, _c, st in _reach(s, sh.region, E.C_SHIP, sh.moves, s.mode)}
    assert reach == {"Inner Sea": False, "South Sea": True}
    act(s, "Sail", sh.id, "South Sea")
    assert sh.moves == 0


def test_embark_from_the_coast_two_per_warship():
    s = build_state(FFA, units={"Kcoast": {"karkoth": "3 footsoldier"}}, ships=[("karkoth", "Inner Sea")])
    sid = s.ships[0].id
    act(s, "Embark", "Kcoast", sid, "footsoldier")
    act(s, "Embark", "Kcoast", sid, "footsoldier")
    assert cargo_of(s, sid) == ["footsoldier", "footsoldier"]
    assert units_at(s, "Kcoast", "karkoth") == {"footsoldier": 1}
    assert not E.is_legal(s, action(s, "Embark", "Kcoast", sid, "footsoldier"))     # full


def test_units_that_moved_cannot_board_unless_the_rule_allows():
    s = build_state(FFA, units={"Kar": {"karkoth": "fighter"}}, ships=[("karkoth", "Inner Sea")])
    sid = s.ships[0].id
    act(s, "Move", "Kar", "Kcoast", "fighter", 1)
    assert not E.is_legal(s, action(s, "Embark", "Kcoast", sid, "fighter"))
    s2 = build_state(dataclasses.replace(FFA, board_after_move=True), units={"Kar": {"karkoth": "fighter"}},
                     ships=[("karkoth", "Inner Sea")])
    act(s2, "Move", "Kar", "Kcoast", "fighter", 1)
    act(s2, "Embark", "Kcoast", s2.ships[0].id, "fighter")


def test_ship_moves_before_and_after_loading_and_not_after_unloading():
    s = build_state(FFA, units={"Kcoast": {"karkoth": "footsoldier, fighter"}}, ships=[("karkoth", "North Sea")])
    sid = s.ships[0].id
    act(s, "Sail", sid, "Inner Sea")                                   # before loading
    act(s, "Embark", "Kcoast", sid, "footsoldier")
    act(s, "Embark", "Kcoast", sid, "fighter")
    act(s, "Sail", sid, "South Sea")                                   # after loading
    act(s, "Unload", sid, "Nmarch")                                    # a sea landing on an empty enemy region
    assert units_at(s, "Nmarch", "karkoth") == {"footsoldier": 1, "fighter": 1}
    assert s.phase == E.PH_REGROUP                                      # nothing left to move: combat, capture
    assert s.mob[region(s, "Nmarch")] == {(E.tables(FFA).idx["fighter"], 2): 1}   # (the hero may regroup)
    assert s.owner[region(s, "Nmarch")] == K and s.vp[K] == 1          # walked in from the ship: +1 VP


def test_a_ship_that_unloaded_moves_no_more_and_landed_units_stop(dests):
    s = build_state(FFA, units={"Kcoast": {"karkoth": "footsoldier"}, "Kar": {"karkoth": "footsoldier"}},
                    ships=[("karkoth", "Inner Sea")])
    sid = s.ships[0].id
    act(s, "Embark", "Kcoast", sid, "footsoldier")
    act(s, "Unload", sid, "Ncoast")
    sh = s.ship(sid)
    assert sh.unloaded and sh.moves == 0
    assert not any(getattr(a, "ship", None) == sid for a in E.legal_actions(s))
    assert dests(s, "Ncoast", "footsoldier") == {}


def test_boarding_units_move_no_further_themselves(dests):
    s = build_state(FFA, units={"Kcoast": {"karkoth": "fighter"}}, ships=[("karkoth", "Inner Sea")])
    act(s, "Embark", "Kcoast", s.ships[0].id, "fighter")
    assert dests(s, "Kcoast", "fighter") == {}


def test_landing_from_a_hostile_sea_waits_for_the_sea_battle_heroes_fight_in_both(drive, events):
    # every die hits; a costly fighter so that the one hit taken at sea sinks the empty warship
    rules = dataclasses.replace(FFA, battle=BattleRules(hit_threshold=1,
                                                        units=SURE.units.replace("fighter", cost=10)))
    s = build_state(rules, record=True,
                    units={"Nera": {"nerath": "footsoldier"}},
                    ships=[("karkoth", "Inner Sea", ["fighter", "footsoldier"]), ("karkoth", "Inner Sea"),
                           ("nerath", "South Sea")])
    loaded, empty = s.ships[0].id, s.ships[1].id
    act(s, "Sail", loaded, "South Sea")
    act(s, "Sail", empty, "South Sea")
    act(s, "Unload", loaded, "Nera")
    assert s.ship(loaded).landing == region(s, "Nera")                 # declared, not landed
    assert units_at(s, "Nera", "karkoth") == {}
    assert s.decision == "take a hit"               # nothing else could move: combat began; the fighter or a ship?
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    battles = events(s, "battle")
    assert [s.board.names[e["region"]] for e in battles] == ["South Sea", "Nera"]   # sea battle first
    assert battles[0]["attacker"].get("fighter") == 1                  # the hero fights at sea ...
    assert battles[1]["attacker"].get("fighter") == 1                  # ... and then on the coast
    assert s.owner[region(s, "Nera")] == K


def test_no_landing_when_the_ship_is_sunk(drive):
    rules = dataclasses.replace(FFA, battle=SURE)
    s = build_state(rules, ships=[("karkoth", "Inner Sea", ["footsoldier"]), ("nerath", "South Sea"),
                                  ("nerath", "South Sea")], units={"Nera": {"nerath": "footsoldier"}})
    sid = s.ships[0].id
    act(s, "Sail", sid, "South Sea")
    act(s, "Unload", sid, "Nera")
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert s.ship(sid) is None and s.owner[region(s, "Nera")] == N
    assert units_at(s, "Nera", "karkoth") == {}


def test_cargo_may_stay_aboard_or_is_lost_at_the_end_of_the_turn(end_phase):
    for stay in (True, False):
        rules = dataclasses.replace(FFA, cargo_may_stay_aboard=stay)
        s = build_state(rules, ships=[("karkoth", "North Sea", ["footsoldier"])], realm="karkoth")
        while s.realm == K and not s.is_terminal:
            end_phase(s)
        assert cargo_of(s, s.ships[0].id) == (["footsoldier"] if stay else [])


def test_land_units_aboard_when_the_turn_ends_are_lost_by_default(end_phase, events):
    """Seed: land units "skal slutte deres tur på et landfelt"."""
    assert Rules().cargo_may_stay_aboard is False
    s = build_state(FFA, ships=[("karkoth", "North Sea", ["footsoldier", "fighter"])], realm="karkoth", record=True)
    sid = s.ships[0].id
    lost0 = s.stats["units_lost"][K]
    while s.realm == K and not s.is_terminal:
        end_phase(s)
    assert cargo_of(s, sid) == [] and s.ship(sid).region == region(s, "North Sea")     # the warship stays
    assert s.stats["units_lost"][K] == lost0 + 2
    assert [(e["region"], sorted(e["units"])) for e in events(s, "cargo_lost")] == \
        [(region(s, "North Sea"), sorted([s.tab.idx["footsoldier"], s.tab.idx["fighter"]]))]


# --- alliance ----------------------------------------------------------------------------------
def test_allies_move_through_each_others_land_and_share_regions(dests, end_phase, events):
    # Vmarch held by Iron Circle (Karkoth's ally) with Iron Circle troops in it
    s = build_state(ALLY, owner={"Vmarch": "iron_circle"}, units={"Kmarch": {"karkoth": "fighter, footsoldier"},
                                                                  "Vmarch": {"iron_circle": "footsoldier"}})
    d = dests(s, "Kmarch", "fighter")
    assert d["Vmarch"] == (1, False) and d["Vale"] == (2, True)        # through the ally's land
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 1)               # stands with the ally's troops
    end_phase(s)
    assert not events(s, "battle")
    assert units_at(s, "Vmarch", "karkoth") == {"footsoldier": 1}
    # in free-for-all the same region is hostile
    s2 = build_state(FFA, owner={"Vmarch": "iron_circle"}, units={"Kmarch": {"karkoth": "fighter"}})
    assert dests(s2, "Kmarch", "fighter")["Vmarch"] == (1, True)


def test_end_phase_and_move_kinds_offered(kinds):
    s = build_state(FFA, units={"Kcoast": {"karkoth": "footsoldier"}}, ships=[("karkoth", "Inner Sea")])
    assert kinds(s) == ["Embark", "EndPhase", "Move", "Sail"]


# --- drowning ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def _one_ship_sunk(drive):
    def _one_ship_sunk(drowning):
        """Karkoth's lone warship attacks two Vailin warships with a footsoldier each (every die hits):
        it scores one hit and is sunk; one Vailin warship goes down."""
        rules = dataclasses.replace(FFA, battle=SURE, drowning=drowning)
        s = build_state(rules, record=True, units={"Kar": {"karkoth": "footsoldier"}},
                        ships=[("karkoth", "Inner Sea"), ("vailin", "North Sea", ["footsoldier"]),
                               ("vailin", "North Sea", ["footsoldier"])])
        k_ship, v1, v2 = (sh.id for sh in s.ships)
        act(s, "Sail", k_ship, "North Sea")
        drive(s, until=lambda s: s.phase == E.PH_REGROUP)
        return s, k_ship, v1, v2
    return _one_ship_sunk


def test_units_aboard_a_sunk_warship_drown_with_it(_one_ship_sunk, events):
    """Seed: "Enheder om bord på et warship, der udslettes, drukner" — even when the other warship has room."""
    assert Rules().drowning == "per_ship"
    s, k_ship, v1, v2 = _one_ship_sunk("per_ship")
    assert s.ship(k_ship) is None
    assert s.ship(v1) is None                                    # equal cargo: the lower id sinks first
    assert cargo_of(s, v2) == ["footsoldier"]                    # the sunk ship's footsoldier drowned
    assert s.stats["units_lost"][V] == 2 and s.stats["gold_lost"][V] == 2 + 1
    assert events(s, "battle_end")[0]["outcome"] == "defender_wins"


def test_pooled_drowning_variant_saves_cargo_where_another_ship_has_room(_one_ship_sunk):
    s, k_ship, v1, v2 = _one_ship_sunk("pooled")
    afloat = [sh.id for sh in s.ships if sh.owner == V]
    assert len(afloat) == 1 and cargo_of(s, afloat[0]) == ["footsoldier", "footsoldier"]
    assert s.stats["units_lost"][V] == 1


@pytest.fixture(scope="module")
def _two_loaded_ships_attack(drive, events):
    def _two_loaded_ships_attack(drowning, cargo2):
        """Two Karkoth warships (a fighter aboard the first; `cargo2` aboard the second) attack a lone Vailin
        warship; every die hits and the fighter costs 10 gold, so Vailin's one hit sinks a warship."""
        heavy = BattleRules(hit_threshold=1, units=SURE.units.replace("fighter", cost=10))
        rules = dataclasses.replace(FFA, battle=heavy, drowning=drowning, cargo_may_stay_aboard=True)   # (cargo kept to look at)
        s = build_state(rules, record=True, units={"Kar": {"karkoth": "footsoldier"}},
                        ships=[("karkoth", "Inner Sea", ["fighter"]), ("karkoth", "Inner Sea", cargo2),
                               ("vailin", "North Sea")])
        a, b, _v = (sh.id for sh in s.ships)
        act(s, "Sail", a, "North Sea")
        act(s, "Sail", b, "North Sea")
        drive(s, until=lambda s: events(s, "battle_end"))
        return s, a, b
    return _two_loaded_ships_attack


def test_the_warship_with_the_least_valuable_cargo_sinks_first(_two_loaded_ships_attack, events):
    s, loaded, empty = _two_loaded_ships_attack("per_ship", [])
    assert s.ship(empty) is None and cargo_of(s, loaded) == ["fighter"]
    assert events(s, "battle_end")[0]["attacker"] == {"fighter": 1, "warship": 1}


def test_heroes_aboard_a_sunk_warship_drown_although_the_other_has_room(_two_loaded_ships_attack, events):
    """Each warship carries a fighter; one warship sinks: its fighter drowns (pooled: it would move
    into the free place of the other warship and survive)."""
    s, a, b = _two_loaded_ships_attack("per_ship", ["fighter"])
    assert s.ship(a) is None and cargo_of(s, b) == ["fighter"]
    assert events(s, "battle_end")[0]["attacker"] == {"fighter": 1, "warship": 1}
    s, a, b = _two_loaded_ships_attack("pooled", ["fighter"])
    assert events(s, "battle_end")[0]["attacker"] == {"fighter": 2, "warship": 1}
