"""The table of solved battle odds (`battle.odds_table`) and the other caches of the Nerath game
loop: each answers exactly what it stands in for, and a changed battle rule never reads
another rule set's answers."""
from __future__ import annotations

import dataclasses
import hashlib
import json

import numpy as np
import pytest

from nerathsim.battle import ingame as gb
from nerathsim.battle import odds_table as OT
from nerathsim.battle.odds import battle_odds
from nerathsim.battle.rules import RULES_VERSION, BattleRules
from nerathsim.policies import AGGRESSIVE, BALANCED, OddsCache, exact_odds, quick_odds

BR = BattleRules()
NAMES = BR.units.names


def counts(**units) -> tuple:
    return tuple(units.get(n, 0) for n in NAMES)


CASES = [
    (counts(footsoldier=4), counts(footsoldier=3), False),
    (counts(footsoldier=6, siege_engine=2), counts(footsoldier=5, castle=1), False),
    (counts(dragon=1, fighter=2), counts(footsoldier=4, wizard=1), False),
    (counts(warship=2, fighter=2), counts(warship=1, storm_elemental=1), True),
    (counts(monster=2, footsoldier=1), counts(dragon=1), False),
]


@pytest.mark.parametrize("att,dfd,at_sea", CASES)
def test_the_odds_table_answers_exactly_what_the_battle_calculator_says(att, dfd, at_sea):
    table = OT.OddsTable()
    a = {n: c for n, c in zip(NAMES, att) if c}
    d = {n: c for n, c in zip(NAMES, dfd) if c}
    want = battle_odds(a, d, at_sea=at_sea, rules=BR).attacker_wins
    # the calculator and the table sum the same end states in another order: equal to float rounding
    assert table.attacker_wins(BR, att, dfd, at_sea) == pytest.approx(want, rel=1e-12, abs=1e-15)
    assert table.solves == 1
    first = table.attacker_wins(BR, att, dfd, at_sea)
    assert table.attacker_wins(BR, att, dfd, at_sea) is first and table.solves == 1 and len(table) == 1


def test_armies_the_solver_refuses_are_stored_as_unsolvable_and_the_policy_falls_back_to_its_estimate():
    table = OT.OddsTable()
    att, dfd = counts(footsoldier=2), counts(footsoldier=1)              # land units at sea without warships
    with pytest.raises(ValueError):
        battle_odds({"footsoldier": 2}, {"footsoldier": 1}, at_sea=True)
    assert table.attacker_wins(BR, att, dfd, True) is OT.UNSOLVABLE
    assert table.attacker_wins(BR, att, dfd, True) is OT.UNSOLVABLE and table.solves == 1
    assert exact_odds(BR, list(att), list(dfd), True) == quick_odds(BR, list(att), list(dfd), True)


def test_a_changed_battle_rule_gets_another_key_and_its_own_answer():
    att, dfd = counts(footsoldier=4), counts(footsoldier=3)
    fives = dataclasses.replace(BR, hit_threshold=5)
    dearer = dataclasses.replace(BR, units=BR.units.replace("footsoldier", cost=4))
    keys = {OT.rules_key(r) for r in (BR, fives, dearer, dataclasses.replace(BR, castle_mode="never_hit"))}
    assert len(keys) == 4
    assert OT.rules_key(BattleRules()) == OT.rules_key(BR)           # equal rules, another object: the same key
    table = OT.OddsTable()
    p5, p6 = table.attacker_wins(fives, att, dfd, False), table.attacker_wins(BR, att, dfd, False)
    assert table.solves == 2 and len(table) == 2
    assert p5 == battle_odds({"footsoldier": 4}, {"footsoldier": 3}, rules=fives).attacker_wins
    assert p6 == battle_odds({"footsoldier": 4}, {"footsoldier": 3}, rules=BR).attacker_wins
    assert p5 != p6


def test_the_rules_key_names_the_battle_rules_version_and_fingerprint():
    want = hashlib.sha256(f"{RULES_VERSION}\n{gb.fingerprint(BR)}".encode()).hexdigest()[:16]
    assert OT.rules_key(BR) == want


def test_every_policy_shares_the_process_table_while_keeping_its_own_cache(monkeypatch):
    shared = OT.OddsTable()
    monkeypatch.setattr(OT, "SHARED", shared)
    att, dfd = list(counts(footsoldier=5, fighter=1)), list(counts(footsoldier=4, castle=1))
    mine, theirs = OddsCache(), OddsCache()
    p = exact_odds(BR, att, dfd, False, mine)
    assert exact_odds(BR, att, dfd, False, theirs) == p
    assert shared.solves == 1 and mine.calls == 1 and theirs.calls == 1 and len(mine) == len(theirs) == 1
    assert BALANCED.odds_cache is not AGGRESSIVE.odds_cache        # the policies' own caches stay their own


def test_the_table_is_bounded_and_survives_a_round_trip_through_a_file(tmp_path):
    table = OT.OddsTable(max_size=2)
    for n in (1, 2, 3):
        table.attacker_wins(BR, counts(footsoldier=3), counts(footsoldier=n), False)
    assert len(table) == 1 and table.solves == 3                   # the third entry emptied the full table
    table = OT.OddsTable()
    for att, dfd, at_sea in CASES:
        table.attacker_wins(BR, att, dfd, at_sea)
    path = tmp_path / "odds.json"
    table.save(path)
    again = OT.OddsTable()
    assert again.load(path) == len(CASES)
    assert again.entries == table.entries
    for att, dfd, at_sea in CASES:
        assert again.attacker_wins(BR, att, dfd, at_sea) == table.entries[(OT.rules_key(BR), att, dfd, at_sea)]
    assert again.solves == 0
    data = json.loads(path.read_text())
    data["table_version"] = OT.TABLE_VERSION + 1
    path.write_text(json.dumps(data))
    assert OT.OddsTable().load(path) == 0                           # another table version: ignored


def test_the_luck_figures_hit_distribution_is_the_numpy_distribution_as_floats_cached_by_the_dice():
    t = gb.side_table(BR, "attacker", False)
    td = gb.side_table(BR, "defender", False)
    army = gb.new_army(t, counts(footsoldier=3, siege_engine=1, dragon=1))
    other = gb.new_army(td, counts(footsoldier=2, castle=1))
    for first in (True, False):
        sides = [(t, army), (td, other)]
        got = gb.hit_distribution(sides, first)
        assert type(got) is tuple and all(type(x) is float for x in got)
        assert got == tuple(gb.pmf_sides(sides, first).tolist())
        assert np.array_equal(np.array(got), gb.pmf_sides(sides, first))
        assert gb.hit_distribution([(t, gb.copy_army(army)), (td, gb.copy_army(other))], first) is got
