"""Starting units per realm as data and as a re-balancing knob (`Board.realm_units`,
`maps.place_realm_units`, ``map.realm_units.<realm>.<unit>`` in `nerathsim.knobs`).

A realm's count of a unit type on its own land is read from the map; a changed count moves the
board's units (extra ones on the capital, fewer taken from the region holding the most, ties the
region listed last), touches nothing else, is what a new game starts with, and a bad count is a
clear error naming the realm and the unit.
"""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerathsim
from analyses import knobs as K
from nerathsim.knobs import KNOBS
from nerathsim.maps import REALMS, MapError, load_map


def _land_counts(board, p: int) -> dict:
    out = {}
    for r in range(board.n):
        if board.is_sea[r] or board.owner[r] != p:
            continue
        for q, name, c in board.units[r]:
            assert q == p
            out[name] = out.get(name, 0) + c
    return out


def _held(board, region: str, realm: str, unit: str) -> int:
    r, p = board.region(region), REALMS.index(realm)
    return sum(c for q, u, c in board.units[r] if q == p and u == unit)


def test_the_published_counts_are_read_from_the_map_with_every_land_and_flying_type():
    board = load_map("nerath")
    types = ("footsoldier", "siege_engine", "fighter", "wizard", "monster", "storm_elemental", "dragon")
    for p, realm in enumerate(REALMS):
        counts = board.realm_units[realm]
        assert tuple(counts) == types                                  # castle and warship are not counted
        land = _land_counts(board, p)
        assert {u: c for u, c in counts.items() if c} == land
    assert board.realm_units["karkoth"]["footsoldier"] == 20 and board.realm_units["karkoth"]["dragon"] == 1
    assert board.realm_units["karkoth"]["storm_elemental"] == 0
    # Vailin's storm elemental at sea (Vailin Sound) is not on its land: only the one on Vailin counts
    assert board.realm_units["vailin"]["storm_elemental"] == 1
    with pytest.raises(TypeError):
        board.realm_units["karkoth"]["footsoldier"] = 3                # read-only like the rest of the board


def test_more_units_stand_on_the_capital_and_fewer_come_from_the_region_holding_the_most():
    board = load_map("nerath")
    counts = {realm: dict(c) for realm, c in board.realm_units.items()}
    counts["karkoth"]["footsoldier"] = 23                             # +3: on the capital Karkoth (had 1)
    counts["karkoth"]["dragon"] = 0                                   # -1: the only one, on Karkoth
    counts["iron_circle"]["monster"] = 2                              # -2: four regions hold 1 each; the last two listed
    counts["nerath"]["wizard"] = 2                                    # a new stack of a type already there
    counts["vailin"]["monster"] = 1                                   # a type the realm did not have
    changed = dataclasses.replace(board, realm_units=counts)
    assert _held(changed, "Karkoth", "karkoth", "footsoldier") == 4
    assert _held(changed, "Karkoth", "karkoth", "dragon") == 0
    assert [_held(changed, name, "iron_circle", "monster") for name in
            ("Irongate", "Ashgate", "Hobgoblin March", "Warcamp")] == [1, 1, 0, 0]
    assert _held(changed, "Fallcrest", "nerath", "wizard") == 2
    assert _held(changed, "Vailin", "vailin", "monster") == 1
    for p, realm in enumerate(REALMS):
        assert dict(changed.realm_units[realm]) == counts[realm]
        assert {u: c for u, c in counts[realm].items() if c} == _land_counts(changed, p)
    for r in range(board.n):                                          # the seas are untouched
        if board.is_sea[r]:
            assert changed.units[r] == board.units[r]
    assert changed.realm_gold == board.realm_gold and changed.realm_income == board.realm_income
    assert board.realm_units["karkoth"]["footsoldier"] == 20          # the shared board is unchanged
    # fewer footsoldiers thin the biggest garrison first: Ashen Gate (3) before any region of 2
    fewer = dataclasses.replace(board, realm_units={**counts, "karkoth": {**counts["karkoth"], "footsoldier": 19}})
    assert _held(fewer, "Ashen Gate", "karkoth", "footsoldier") == 2


def test_the_knob_reads_and_writes_the_counts_and_a_new_game_starts_with_them():
    rules = nerathsim.Rules()
    for realm in REALMS:
        for unit, n in rules.board.realm_units[realm].items():
            spec = KNOBS[f"map.realm_units.{realm}.{unit}"]
            assert spec == {"type": "int", "low": 0, "high": max(6, 2 * n), "step": 1}
    (knob,) = K.resolve_knobs(nerathsim, rules, ["map.realm_units.karkoth.footsoldier"])
    assert knob.published == 20 and (knob.low, knob.high) == (0, 40)
    changed = K.set_values(nerathsim, rules, {"map.realm_units.karkoth.footsoldier": 26,
                                              "map.realm_units.nerath.dragon": 3})
    assert K.get_value(nerathsim, changed, "map.realm_units.karkoth.footsoldier") == 26
    assert K.get_value(nerathsim, rules, "map.realm_units.karkoth.footsoldier") == 20
    state = nerathsim.new_game(dataclasses.replace(changed, mode="free_for_all"), 5)
    foot, dragon = state.tab.idx["footsoldier"], state.tab.idx["dragon"]
    karkoth, nerath = REALMS.index("karkoth"), REALMS.index("nerath")
    assert sum(state.units[r][karkoth][foot] for r in changed.board.land_regions) == 26
    assert state.units[changed.board.capitals[nerath]][nerath][dragon] == 3
    result = nerathsim.play_game(dataclasses.replace(changed, mode="free_for_all"), ["tuned"] * 4, 5)
    assert result.turns > 0


@settings(max_examples=25, deadline=None)
@given(realm=st.sampled_from(REALMS), unit=st.sampled_from(("footsoldier", "siege_engine", "fighter", "dragon")),
       count=st.integers(0, 40))
def test_any_count_in_range_is_what_the_board_holds_and_nothing_else_moves(realm, unit, count):
    rules = nerathsim.Rules()
    changed = K.set_values(nerathsim, rules, {f"map.realm_units.{realm}.{unit}": count})
    board, before = changed.board, rules.board
    p = REALMS.index(realm)
    assert _land_counts(board, p).get(unit, 0) == count
    for q, other in enumerate(REALMS):
        for u, c in before.realm_units[other].items():
            if (other, u) != (realm, unit):
                assert board.realm_units[other][u] == c
                assert _land_counts(board, q).get(u, 0) == c
    moved = [r for r in range(board.n) if board.units[r] != before.units[r]]
    assert all(before.owner[r] == p for r in moved)                   # only the realm's own land changes


@pytest.mark.parametrize("value, message", [
    (-1, "karkoth footsoldier must be a whole number >= 0, got -1"),
    (2000, "karkoth footsoldier 2,000 puts 1,981 on the capital 'Karkoth', above the limit of 1,000 units"),
    (2.5, "got 2.5"),
    (True, "got True"),
])
def test_a_bad_count_is_refused_naming_the_realm_and_the_unit(value, message):
    with pytest.raises(MapError, match=message):
        K.set_values(nerathsim, nerathsim.Rules(), {"map.realm_units.karkoth.footsoldier": value})


def test_an_unknown_realm_or_a_type_not_counted_is_refused_before_any_game():
    rules = nerathsim.Rules()
    with pytest.raises(ValueError, match=r"knob 'map.realm_units.mordor.footsoldier'.*'mordor' is not a key of "
                                         r"realm_units \(karkoth, vailin, iron_circle, nerath\)"):
        K.resolve_knobs(nerathsim, rules, "map.realm_units.mordor.footsoldier=0:4:1")
    with pytest.raises(ValueError, match=r"'warship' is not a key of karkoth"):
        K.resolve_knobs(nerathsim, rules, "map.realm_units.karkoth.warship=0:4:1")
    board = load_map("nerath")
    with pytest.raises(MapError, match="realm_units: unknown realm 'mordor'"):
        dataclasses.replace(board, realm_units={"mordor": {"footsoldier": 1}})
    with pytest.raises(MapError, match=r"realm_units\['karkoth'\] must be \{unit: count\}"):
        dataclasses.replace(board, realm_units={"karkoth": 3})
