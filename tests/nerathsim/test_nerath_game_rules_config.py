"""Rules: defaults are the published game; bad values raise ValueError naming the field."""
import json

import pytest

from nerathsim.battle.rules import BattleRules
from nerathsim.battle.units import UnitTable
from nerathsim.maps import REALMS, load_map
from nerathsim.rules import PUBLISHED_TURN_ORDER, SEATING, TURN_ORDERS, Rules


def test_defaults_are_the_published_game():
    r = Rules()
    assert r.players == 4 and r.mode == "alliance"                    # "Som udgangspunkt ... alliance"
    assert r.game_length == "short" and r.vp_target == 20 and r.max_rounds == 30
    assert r.turn_order == PUBLISHED_TURN_ORDER == ("karkoth", "vailin", "iron_circle", "nerath")
    assert r.region_vp == 1 and r.capital_vp == 5 and r.placement_limit == 4
    assert r.event_deck_size == 20 and r.starting_hand == 2
    assert r.board.name == "nerath"
    assert r.cargo_may_stay_aboard is False and r.drowning == "per_ship"  # what the seed text says


@pytest.mark.parametrize("length, mode, target", [
    ("short", "free_for_all", 13), ("short", "alliance", 20), ("medium", "free_for_all", 20),
    ("medium", "alliance", 30), ("long", "free_for_all", None), ("long", "alliance", None)])
def test_victory_table(length, mode, target):
    r = Rules(game_length=length, mode=mode)
    assert r.vp_target == target
    if length == "long":
        assert r.treasure_target == (12 if mode == "alliance" else 8)


def test_seating_follows_the_seed_table():
    assert Rules(players=2).seating == ((0, 2), (1, 3))               # K+IC | V+N
    assert Rules(players=3).seating == ((1, 3), (0,), (2,))           # V+N | K | IC
    assert Rules(players=4).seating == ((0,), (1,), (2,), (3,))
    assert set(SEATING) == {2, 3, 4}


def test_turn_order_variants_by_name():
    assert Rules(turn_order="nerath_first").turn_order == TURN_ORDERS["nerath_first"]
    assert Rules(turn_order=["nerath", "karkoth", "vailin", "iron_circle"]).order == (3, 0, 1, 2)


def test_free_for_all_needs_four_players():
    with pytest.raises(ValueError, match="Rules.mode='free_for_all' needs players=4"):
        Rules(players=3, mode="free_for_all")


def test_map_dragon_at_sea_is_rejected_unless_it_may_end_there(tmp_path):
    data = json.loads(open(load_map("small").source, encoding="utf-8").read())
    for reg in data["regions"]:
        if reg["name"] == "North Sea":
            reg["units"] = {"vailin": {"warship": 1, "dragon": 1}}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="dragon must end its turn on land"):
        Rules(map=str(path))
    assert Rules(map=str(path), flyers_ending_at_sea=("storm_elemental", "dragon")).board.name == "small"


def test_unit_table_is_the_battle_rules_table():
    table = UnitTable.published().replace("dragon", cost=6)
    r = Rules(map="small", battle=BattleRules(units=table))
    assert r.units["dragon"].cost == 6


def test_to_dict_is_plain():
    d = Rules(map="small").to_dict()
    assert d["map"] == "small" and d["turn_order"] == list(PUBLISHED_TURN_ORDER)
    assert isinstance(d["battle"], dict) and "units" in d["battle"]
    assert set(REALMS) == set(d["turn_order"])

