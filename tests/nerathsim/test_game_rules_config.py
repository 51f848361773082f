"""Rules: defaults are the published game; bad values raise ValueError naming the field."""
import dataclasses

import pytest

from nerathsim.rules import PUBLISHED_TURN_ORDER, SEATING, TURN_ORDERS, Rules
from nerathsim.maps import REALMS, load_map
from nerathsim.battle.rules import BattleRules
from nerathsim.battle.units import UnitTable


def test_defaults_are_the_published_game():
    r = Rules()
    assert r.players == 4 and r.mode == "alliance"                    # "Som udgangspunkt ... alliance"
    assert r.game_length == "short" and r.vp_target == 20 and r.max_rounds == 30
    assert r.turn_order == PUBLISHED_TURN_ORDER == ("karkoth", "vailin", "iron_circle", "nerath")
    assert r.region_vp == 1 and r.capital_vp == 5 and r.placement_limit == 4
    assert r.event_deck_size == 20 and r.starting_hand == 2
    assert r.board.name == "nerath"
    assert r.cargo_may_stay_aboard is False and r.drowning == "per_ship"  # issue 13 items 10, 12: the text


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


@pytest.mark.parametrize("field, value, message", [
    ("players", 5, "Rules.players=5 is not allowed"),
    ("players", "4", "Rules.players must be an integer"),
    ("mode", "chaos", "Rules.mode='chaos' is not allowed"),
    ("game_length", "epic", "Rules.game_length='epic'"),
    ("turn_order", ("karkoth", "karkoth", "vailin", "nerath"), "Rules.turn_order must name each realm once"),
    ("turn_order", "backwards", "Rules.turn_order must name each realm once"),
    ("vp_to_win", 0, "Rules.vp_to_win=0"),
    ("max_rounds", 0, "Rules.max_rounds=0"),
    ("placement_limit", 0, "Rules.placement_limit=0"),
    ("flyers_ending_at_sea", ("footsoldier",), "Rules.flyers_ending_at_sea: footsoldier is not a flying unit"),
    ("flyers_ending_at_sea", ("balrog",), "Rules.flyers_ending_at_sea: unknown unit 'balrog'"),
    ("dungeon_entry", "everyone", "Rules.dungeon_entry="),
    ("regroup_move", "half", "Rules.regroup_move="),
    ("income_mode", "tax", "Rules.income_mode="),
    ("capital_vp_stacks", 1, "Rules.capital_vp_stacks must be True or False"),
    ("map", "atlantis", "Rules.map: map 'atlantis': cannot read"),
    ("map", 3, "Rules.map must be a map name"),
    ("battle", "dice", "Rules.battle must be a nerathsim.BattleRules"),
])
def test_bad_values_name_the_field(field, value, message):
    with pytest.raises(ValueError, match=message.replace("(", "\\(").replace(")", "\\)")):
        dataclasses.replace(Rules(map="small"), **{field: value})


def test_free_for_all_needs_four_players():
    with pytest.raises(ValueError, match="Rules.mode='free_for_all' needs players=4"):
        Rules(players=3, mode="free_for_all")


def test_map_dragon_at_sea_is_rejected_unless_it_may_end_there(tmp_path):
    import json
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


def test_rules_are_hashable_and_comparable():
    assert Rules(map="small") == Rules(map="small")
    assert hash(Rules(map="small")) == hash(Rules(map="small"))
