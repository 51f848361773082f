"""Map format, loader validation (errors name the region and the problem), and the shipped maps' facts."""
import copy
import json

import pytest

from nerathsim.battle.units import UnitTable
from nerathsim.maps import REALMS, MapError, describe_map, load_map, parse_map

K, V, I, N = range(4)


def small_data():
    return json.loads(load_map("small").source and open(load_map("small").source, encoding="utf-8").read())


def region(data, name):
    return next(r for r in data["regions"] if r["name"] == name)


def test_small_map_loads():
    b = load_map("small")
    assert b.n == 17
    assert b.names[b.capitals[K]] == "Kar"
    assert b.is_dungeon[b.region("Crypt")] and b.owner[b.region("Crypt")] == -1
    assert b.is_sea[b.region("Inner Sea")]
    assert b.coastal[b.region("Kcoast")] and not b.coastal[b.region("Crypt")]


def test_region_lookup_by_name_case_and_index():
    b = load_map("small")
    assert b.region("kmarch") == b.region("Kmarch") == b.region(b.region("Kmarch"))
    with pytest.raises(ValueError, match="unknown region 'Atlantis'"):
        b.region("Atlantis")


@pytest.mark.parametrize("edit, message", [
    (lambda d: region(d, "Kar")["adjacent"].append("Atlantis"), "region 'Kar': neighbour 'Atlantis' is not a region"),
    (lambda d: region(d, "Kar")["adjacent"].remove("Kmarch"),
     "region 'Kmarch' lists 'Kar' as a neighbour but 'Kar' does not list 'Kmarch'"),
    (lambda d: region(d, "Kmarch")["units"].update({"warship": 1}), "region 'Kmarch': warship is a sea unit"),
    (lambda d: region(d, "Kmarch")["units"].update({"balrog": 1}), "region 'Kmarch': unknown unit type 'balrog'"),
    (lambda d: region(d, "Kar").pop("capital"), "realm 'karkoth' has no capital"),
    (lambda d: region(d, "Kmarch").update({"capital": True, "castle": True}), "realm 'karkoth' has 2 capitals"),
    (lambda d: [region(d, "Isle").update({"adjacent": []}), region(d, "Inner Sea")["adjacent"].remove("Isle")],
     "region 'Isle': 'adjacent' must be a non-empty list"),
    (lambda d: region(d, "Inner Sea").update({"units": {"vailin": {"footsoldier": 3}}}),
     "region 'Inner Sea' \\(sea\\): 3 land unit\\(s\\) of vailin but its warships there carry only 0"),
    (lambda d: region(d, "Crypt").update({"owner": "nerath"}), "region 'Crypt': a dungeon region has no owner"),
    (lambda d: region(d, "Inner Sea").update({"castle": True}), "region 'Inner Sea': a sea region cannot hold a castle"),
    (lambda d: region(d, "Kmarch").update({"units": {"vailin": {"footsoldier": 1}}}),
     "region 'Kmarch': units of vailin stand on land held by karkoth"),
    (lambda d: region(d, "Kmarch").update({"owner": "mordor"}), "region 'Kmarch': a land region needs an 'owner'"),
    (lambda d: region(d, "Kmarch")["adjacent"].append("Kmarch"), "region 'Kmarch': lists itself"),
    (lambda d: d["realms"].pop("nerath"), "realm\\(s\\) nerath missing"),
    (lambda d: d.update({"format": "v2"}), "'format' must be 'nerathsim-map/1'"),
    (lambda d: region(d, "Kmarch").update({"gold": -1}), "region 'Kmarch': 'gold' must be a non-negative integer"),
    (lambda d: region(d, "Kmarch").update({"type": "swamp"}), "region 'Kmarch': 'type' must be 'land' or 'sea'"),
])
def test_loader_errors_name_region_and_problem(edit, message):
    data = small_data()
    edit(data)
    with pytest.raises(MapError, match=message):
        parse_map(data)


def test_disconnected_regions_are_reported():
    data = small_data()
    # cut the Isle off: remove its only link both ways and give it a private neighbour
    region(data, "Inner Sea")["adjacent"].remove("Isle")
    data["regions"].append({"name": "Islet", "type": "land", "owner": "vailin", "adjacent": ["Isle"]})
    region(data, "Isle")["adjacent"] = ["Islet"]
    with pytest.raises(MapError, match="regions 'Isle', 'Islet' are not connected to 'Kar'"):
        parse_map(data)


def test_unreadable_and_unknown_maps(tmp_path):
    with pytest.raises(MapError, match="cannot read"):
        load_map(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json", encoding="utf-8")
    with pytest.raises(MapError, match="not valid JSON"):
        load_map(bad)


def test_user_map_file_round_trip(tmp_path):
    data = small_data()
    data["name"] = "mine"
    region(data, "Kmarch")["units"] = {"footsoldier": 5}
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    b = load_map(path)
    assert b.name == "mine" and (K, "footsoldier", 5) in b.units[b.region("Kmarch")]


def test_units_are_checked_against_the_rules_unit_table():
    table = UnitTable.published().with_unit(
        UnitTable.published()["footsoldier"].__class__("ogre", cost=3, die=12, move=1))
    data = small_data()
    region(data, "Kmarch")["units"] = {"ogre": 2}
    assert parse_map(data, table).units[load_map("small").region("Kmarch")] == ((K, "ogre", 2),)
    with pytest.raises(MapError, match="unknown unit type 'ogre'"):
        parse_map(data)


def test_income_defaults_to_sum_of_starting_gold():
    b = load_map("small")
    for p in range(4):
        assert b.realm_income[p] == sum(b.gold[r] for r in range(b.n) if b.owner[r] == p)


# --- the nerath reconstruction honours the known facts --------------------------------------
@pytest.fixture(scope="module")
def nerath():
    return load_map("nerath")


def land_borders(b, p):
    out = set()
    for r in range(b.n):
        if b.owner[r] == p:
            out |= {b.owner[x] for x in b.adj[r] if b.owner[x] >= 0 and b.owner[x] != p}
    return out


def test_nerath_scale_and_kinds(nerath):
    assert 60 <= nerath.n <= 100                                  # WoT: "around 100 map regions"
    assert sum(nerath.is_sea) >= 10 and sum(nerath.is_dungeon) >= 4
    assert "RECONSTRUCTION" in nerath.notes[0]


def test_nerath_each_realm_borders_both_enemies_and_not_its_ally(nerath):
    ally = {K: I, I: K, V: N, N: V}
    for p in range(4):
        enemies = {q for q in range(4) if q not in (p, ally[p])}
        assert land_borders(nerath, p) == enemies, REALMS[p]


def test_nerath_named_dungeons(nerath):
    dungeons = {nerath.names[r] for r in range(nerath.n) if nerath.is_dungeon[r]}
    assert {"Temple of Elemental Evil", "Tomb of Horrors", "Trollhaunt Warrens"} <= dungeons


def test_the_nentir_vale_is_a_region_of_nerath_not_a_dungeon(nerath):
    vale = nerath.region("Nentir Vale")
    assert not nerath.is_dungeon[vale] and not nerath.is_sea[vale]
    assert nerath.owner[vale] == N and [(p, u, c) for p, u, c in nerath.units[vale]] == [(N, "footsoldier", 1)]
    old = load_map("nerath_uncapped")
    assert old.is_dungeon[old.region("Nentir Vale")]                # the variant keeps the 1.4 board


# facts 1.2 (S1): 63 figures per realm; 20 footsoldiers, 6 siege engines, 6 fighters, 6 wizards,
# and 25 monsters, castles, storm elementals, dragons and warships together
BOX = {"footsoldier": 20, "siege_engine": 6, "fighter": 6, "wizard": 6}


def starting_pieces(board, realm):
    out = {"castle": sum(1 for r in range(board.n) if board.owner[r] == realm and board.castle[r])}
    for r in range(board.n):
        for p, name, c in board.units[r]:
            if p == realm:
                out[name] = out.get(name, 0) + c
    return out


def test_every_realm_starts_with_no_more_pieces_than_the_box_holds(nerath):
    for realm in range(4):
        pieces = starting_pieces(nerath, realm)
        assert pieces["footsoldier"] == 20, REALMS[realm]          # the box's 20, every one on the board
        for name, cap in BOX.items():
            assert pieces.get(name, 0) <= cap, (REALMS[realm], name)
        assert sum(c for u, c in pieces.items() if u not in BOX) <= 25, REALMS[realm]
        assert sum(pieces.values()) <= 63, REALMS[realm]


def test_the_uncapped_variant_map_keeps_the_old_25_to_27_footsoldiers():
    old = load_map("nerath_uncapped")
    assert [starting_pieces(old, p)["footsoldier"] for p in range(4)] == [25, 25, 27, 27]


def test_nerath_central_island_and_every_land_region_owned(nerath):
    isle = nerath.region("Isle of Dread")
    land_neighbours = [x for x in nerath.adj[isle] if not nerath.is_sea[x]]
    assert all(nerath.is_dungeon[x] for x in land_neighbours)      # only its own dungeon, no bridge
    for r in nerath.land_regions:
        assert nerath.owner[r] >= 0                                # TWBG: no neutral territory


def test_nerath_enemy_enclaves_inside_each_kingdom(nerath):
    enclaves = {}
    for r in nerath.land_regions:
        o = nerath.owner[r]
        hosts = {nerath.owner[x] for x in nerath.adj[r] if not nerath.is_sea[x] and not nerath.is_dungeon[x]}
        if hosts and o not in hosts and len(hosts) == 1:
            enclaves[hosts.pop()] = o
    assert set(enclaves) == {K, V, I, N}


def test_nerath_realm_profiles(nerath):
    table = UnitTable.published()
    regions = [sum(1 for r in range(nerath.n) if nerath.owner[r] == p) for p in range(4)]
    land_army = [0] * 4
    ships = [0] * 4
    land_units = [0] * 4
    for r in range(nerath.n):
        for p, name, c in nerath.units[r]:
            if name == "warship":
                ships[p] += c
            else:
                land_army[p] += table[name].cost * c
                land_units[p] += table[name].domain == "land" and c
    assert regions[N] == min(regions) and nerath.realm_income[N] == min(nerath.realm_income)   # weakest territory
    assert ships[V] == max(ships) and ships[V] > sorted(ships)[-2]                             # strongest navy
    assert land_units[I] == max(land_units) and land_army[I] == max(land_army)                 # strongest armies
    assert nerath.realm_income[V] == max(nerath.realm_income)                                  # prosperous trade


def test_describe_map_mentions_each_realm(nerath):
    text = describe_map(nerath)
    for name in REALMS:
        assert name in text
    assert "reconstruction" in text.lower()


def test_board_is_shared_and_cached():
    assert load_map("small") is load_map("small")
    data = copy.deepcopy(small_data())
    assert parse_map(data) is not load_map("small")
