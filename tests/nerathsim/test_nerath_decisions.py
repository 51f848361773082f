"""`nerathsim.DECISIONS` and the setup fields: each reading or setup choice that can move the alliance
balance is a Rules field whose default is the documented one, with its variants played on hand-built
positions and boards."""
from __future__ import annotations

import dataclasses
import pathlib

import pytest

import nerathsim
from nerathsim import engine as E
from nerathsim.battle.rules import BattleRules
from nerathsim.decisions import BY_ID
from nerathsim.maps import REALMS, load_map
from nerathsim.rules import Rules
from nerathsim.scenario import act, build_state, region, units_at
from nerathsim.setups import EXTRA_MONSTER_REGIONS

K, V, I, N = range(4)
FIELDS = {f.name: f.default for f in dataclasses.fields(Rules)}
DOC = (pathlib.Path(nerathsim.__file__).parent / "RULES.md").read_text(encoding="utf-8")
# every die hits: a lone dragon silences a lone castle in the first round and survives its one hit
SURE = Rules(map="small", mode="free_for_all", events=False, dungeons=False, battle=BattleRules(hit_threshold=1))


def _default(name):
    default = FIELDS[name]
    return default() if callable(default) else getattr(Rules(), name)


# --- the registry -------------------------------------------------------------------------------
def test_the_registry_has_unique_ids_and_names_the_flyer_and_setup_decisions():
    ids = [d.id for d in nerathsim.DECISIONS]
    assert len(ids) == len(set(ids)) == len(BY_ID)
    assert BY_ID["D-flyer-capture"].field == "flyers_capture"
    assert {BY_ID[i].field for i in ("D-starting-gold", "D-karkoth-start", "D-iron-circle-monsters",
                                     "D-footsoldier-cap", "D-map")} == {
        "starting_gold", "karkoth_start", "iron_circle_extra_monsters", "footsoldier_box_cap", "map"}
    assert {d.evidence for d in nerathsim.DECISIONS} <= {"text", "facts", "box", "chosen"}


@pytest.mark.parametrize("decision", nerathsim.DECISIONS, ids=lambda d: d.id)
def test_each_decision_is_a_field_whose_default_is_not_among_its_alternatives(decision):
    assert decision.field in FIELDS
    base = Rules()
    default = getattr(base, decision.field)
    assert decision.alternatives and default not in decision.alternatives
    variants = decision.variants()
    assert [getattr(r, decision.field) for r in variants] == list(decision.alternatives)
    for r in variants:        # exactly one field differs from the published rules
        assert [f for f in FIELDS if getattr(r, f) != getattr(base, f)] == [decision.field]
    assert f"**{decision.id}**" in DOC


def test_the_defaults_are_the_shipped_board_and_the_text_reading():
    r = Rules()
    assert (r.flyers_capture, r.starting_gold, r.karkoth_start, r.iron_circle_extra_monsters,
            r.footsoldier_box_cap, r.map) == (True, "map", "front", True, True, "nerath")
    assert r.board is not None and r.board.realm_gold == load_map("nerath").realm_gold == (10, 12, 10, 14)
    assert r.board.units == load_map("nerath").units


# --- flyer capture (G11, D-flyer-capture) -------------------------------------------------------
@pytest.mark.parametrize("capture", [True, False])
def test_a_lone_dragon_beats_a_lone_castle_and_takes_the_region_only_when_flyers_capture(capture, drive, events,
                                                                                          end_phase):
    rules = dataclasses.replace(SURE, flyers_capture=capture)
    s = build_state(rules, record=True, units={"Kmarch": {"karkoth": "dragon"}, "Vmarch": {"vailin": "castle"}})
    act(s, "Move", "Kmarch", "Vmarch", "dragon", 1)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert [e["outcome"] for e in events(s, "battle_end")] == ["attacker_wins"]
    vmarch = region(s, "Vmarch")
    if capture:        # the region, its castle and the VP of an enemy starting area go to Karkoth
        assert s.owner[vmarch] == K and s.vp[K] == 1
        assert units_at(s, "Vmarch", "karkoth") == {"dragon": 1, "castle": 1} and units_at(s, "Vmarch", "vailin") == {}
        assert [e["how"] for e in events(s, "capture")] == ["battle"]
    else:              # the battle is won, the region is not: Vailin keeps it and its castle, no VP
        assert s.owner[vmarch] == V and s.vp[K] == 0 and events(s, "capture") == []
        assert units_at(s, "Vmarch", "vailin") == {"castle": 1} and units_at(s, "Vmarch", "karkoth") == {"dragon": 1}
        # the dragon stands on enemy land: unless it flies to friendly land in the regroup it is lost
        end_phase(s)
        assert [(e["unit"], e["count"]) for e in events(s, "flyers_lost")] == [("dragon", 1)]
        assert units_at(s, "Vmarch", "karkoth") == {}


# --- setup fields (G38b, G42-G44) ---------------------------------------------------------------
def _counts(rules):
    return {realm: dict(c) for realm, c in rules.board.realm_units.items()}


def test_starting_gold_equal_gives_every_realm_the_mean_and_the_game_starts_with_it():
    assert Rules(starting_gold="equal").board.realm_gold == (12, 12, 12, 12)      # 46 / 4 = 11.5, half up
    rules = Rules(map="small", starting_gold="3-4-5-6", events=False, dungeons=False)
    assert rules.starting_gold == (3, 4, 5, 6) and rules.board.realm_gold == (3, 4, 5, 6)
    s = E.new_game(rules, 1)
    assert s.gold == [3, 4, 5, 6]
    assert Rules(map="small", starting_gold=[7, 7, 7, 7]).starting_gold == (7, 7, 7, 7)


def test_karkoth_at_its_capital_keeps_every_piece_and_one_footsoldier_per_region():
    base, massed = Rules(), Rules(karkoth_start="capital")
    assert _counts(massed) == _counts(base)                         # the same pieces, elsewhere
    b = massed.board
    capital = b.capitals[K]
    for r in b.land_regions:
        row = [(q, u, c) for q, u, c in b.units[r] if q == K]
        if b.owner[r] == K and r != capital:
            assert row in ([(K, "footsoldier", 1)], []), b.names[r]
    held = {u: c for q, u, c in b.units[capital] if q == K}
    assert held["footsoldier"] == 6 and held["monster"] == 3 and held["siege_engine"] == 2
    others = [r for r in range(b.n) if b.owner[r] != K]       # no other realm and no sea changes
    assert all(b.units[r] == base.board.units[r] for r in others)
    assert b.castle == base.board.castle


def test_without_the_extra_monsters_the_iron_circle_loses_exactly_the_two_named_ones():
    base, plain = _counts(Rules()), _counts(Rules(iron_circle_extra_monsters=False))
    assert plain["iron_circle"]["monster"] == base["iron_circle"]["monster"] - 2
    assert {realm: c for realm, c in plain.items() if realm != "iron_circle"} == {
        realm: c for realm, c in base.items() if realm != "iron_circle"}
    b = Rules(iron_circle_extra_monsters=False).board
    for name in EXTRA_MONSTER_REGIONS:
        assert all(u != "monster" for _q, u, _c in b.units[b.region(name)])


def test_without_the_box_cap_each_region_gets_the_footsoldiers_of_the_uncapped_board():
    capped = _counts(Rules())
    uncapped = _counts(Rules(footsoldier_box_cap=False))
    assert [capped[r]["footsoldier"] for r in REALMS] == [20, 20, 20, 20]
    # the old board's 25, 25, 27, 27, and Nerath keeps the Nentir Vale's footsoldier on top
    assert [uncapped[r]["footsoldier"] for r in REALMS] == [25, 25, 27, 28]
    b, old = Rules(footsoldier_box_cap=False).board, load_map("nerath_uncapped")
    for name in ("Ashen Gate", "Irongate", "Fallcrest", "Seagate"):
        p = b.owner[b.region(name)]
        assert ({u: c for q, u, c in b.units[b.region(name)] if q == p}["footsoldier"]
                == {u: c for q, u, c in old.units[old.region(name)] if q == p}["footsoldier"])
    assert {u: c for realm in ("iron_circle",) for u, c in uncapped[realm].items() if u != "footsoldier"} == {
        u: c for u, c in capped["iron_circle"].items() if u != "footsoldier"}      # the monsters stay


@pytest.mark.parametrize("field, value", [("iron_circle_extra_monsters", False), ("footsoldier_box_cap", False)])
def test_region_based_setup_variants_need_the_nerath_map(field, value):
    with pytest.raises(ValueError, match=rf"Rules\.{field}=False .* 'nerath' map; map 'small'"):
        Rules(map="small", **{field: value})


@pytest.mark.parametrize("kwargs, match", [
    (dict(starting_gold="lots"), r"Rules\.starting_gold must be 'map' or 'equal' or four"),
    (dict(starting_gold=(1, 2, 3)), r"Rules\.starting_gold"),
    (dict(starting_gold="1-2-3--4"), r"Rules\.starting_gold"),
    (dict(karkoth_start="rear"), r"Rules\.karkoth_start='rear' is not allowed; allowed: front, capital"),
    (dict(footsoldier_box_cap="no"), r"Rules\.footsoldier_box_cap must be True or False"),
])
def test_bad_setup_values_are_refused_by_name(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Rules(**kwargs)


def test_a_board_given_as_the_map_is_played_as_given():
    board = Rules(starting_gold="equal").board
    again = Rules(map=board, starting_gold="equal")
    assert again.board is board and again.board.realm_gold == (12, 12, 12, 12)


def test_the_setup_fields_reach_the_data_hash_and_the_metadata():
    base, variant = Rules(), Rules(iron_circle_extra_monsters=False)
    assert base.data_hashes()["map"] != variant.data_hashes()["map"]
    assert variant.to_dict()["iron_circle_extra_monsters"] is False
    assert Rules(starting_gold="1-2-3-4").to_dict()["starting_gold"] == [1, 2, 3, 4]
