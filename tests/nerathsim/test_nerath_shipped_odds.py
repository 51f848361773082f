"""The table of solved odds shipped with the package (a fresh process makes no exact
solve for the armies the shipped games met): `battle.odds_table.SHIPPED`, read by the process-wide
table on its first miss. It is only a cache: every entry is what the exact solvers answer, under the
key of the battle rules it was solved for."""
from __future__ import annotations

import numpy as np

import nerathsim as api
from nerathsim import dungeons as dg
from nerathsim.battle import odds_table as OT
from nerathsim.battle.rules import BattleRules
from nerathsim.cards import Guardian

BR = BattleRules()


def _shipped() -> OT.OddsTable:
    table = OT.OddsTable()
    assert table.load(OT.SHIPPED) > 0
    return table


def _same(fresh, stored) -> bool:
    """Equal to within float rounding (a relative 1e-12), element by element for a tuple of odds."""
    fresh, stored = np.atleast_1d(np.asarray(fresh, dtype=float)), np.atleast_1d(np.asarray(stored, dtype=float))
    return fresh.shape == stored.shape and bool(np.allclose(fresh, stored, rtol=1e-12, atol=1e-15))


def test_the_shipped_table_is_built_for_the_published_battle_rules():
    """A new battle RULES_VERSION or unit table changes the key: rebuild the file
    (nerathsim/data/odds/build_odds.py) when this fails."""
    table = _shipped()
    key = OT.rules_key(api.Rules(mode="free_for_all").battle)
    assert key == OT.rules_key(BR)
    assert sum(k[0] == key for k in table.entries) > 1000
    assert sum(k[0] == key for k in table.fights) > 200


def test_the_shipped_table_answers_what_the_solvers_say():
    """A sample of its battles and dungeon fights, solved again, gives the stored answer to within float
    rounding: the solvers' numpy sums may round differently in the last bit on another CPU (SIMD path)
    or numpy version (seen 2026-12-02 on an AVX-512 machine: 0.2113532454561602 against the stored
    0.21135324545616022), so the check allows a relative 1e-12, far below any odds that matter."""
    table = _shipped()
    rng = np.random.default_rng(16)
    key = OT.rules_key(BR)
    battles = [k for k in table.entries if k[0] == key]
    for i in rng.choice(len(battles), 12, replace=False):
        k = battles[i]
        assert _same(OT.solve(BR, k[1], k[2], k[3]), table.entries[k]), k
    fights = [k for k in table.fights if k[0] == key]
    for i in rng.choice(len(fights), 6, replace=False):
        k = fights[i]
        guardians = tuple(Guardian(*g) for g in k[1])
        assert OT.fight_key(BR, guardians, k[2], k[3]) == k
        assert _same(dg._solve_fight(BR, guardians, k[2], k[3]), table.fights[k]), k


def test_a_table_reads_its_shipped_file_once_on_its_first_miss(tmp_path):
    names = BR.units.names
    att = tuple(4 if n == "footsoldier" else 0 for n in names)
    dfd = tuple(3 if n == "footsoldier" else 0 for n in names)
    other = tuple(2 if n == "footsoldier" else 0 for n in names)
    source = OT.OddsTable()
    want = source.attacker_wins(BR, att, dfd, False)
    path = tmp_path / "solved.json.gz"
    source.save(path)
    table = OT.OddsTable(shipped=path)
    assert len(table) == 0                                    # nothing read before it is needed
    assert table.attacker_wins(BR, att, dfd, False) == want and table.solves == 0 and table.shipped is None
    table.attacker_wins(BR, att, other, False)
    assert table.solves == 1
    assert OT.OddsTable(shipped=tmp_path / "missing.json.gz").attacker_wins(BR, att, dfd, False) == want


def test_dungeon_fights_are_kept_in_the_shared_table_and_survive_a_file(monkeypatch, tmp_path):
    table = OT.OddsTable()
    monkeypatch.setattr(OT, "SHARED", table)
    cards = api.Rules(mode="free_for_all").cards
    guardians = (cards.guardians[0],)
    heroes = (("fighter", 1),)
    p = dg.fight_chance.__wrapped__(BR, guardians, heroes)
    assert p == dg._solve_fight(BR, guardians, heroes, None)
    assert table.solves == 1 and len(table.fights) == 1
    assert dg.fight_chance.__wrapped__(BR, guardians, heroes) == p and table.solves == 1
    table.save(tmp_path / "t.json")
    again = OT.OddsTable()
    assert again.load(tmp_path / "t.json") == 1 and again.fights == table.fights
