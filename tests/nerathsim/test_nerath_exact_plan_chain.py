"""`exact.plan_chain`: a side's casualty chain under a fixed plan is worked out once per (army, plan,
situation) and remembered; the exact odds are the same to the last bit whether it was remembered or not,
and what it keeps cannot be written to."""
from __future__ import annotations

import numpy as np
import pytest

from nerathsim.battle import exact
from nerathsim.battle import odds_table as OT
from nerathsim.battle.army import Army, Situation
from nerathsim.battle.casualties import default_plan
from nerathsim.battle.rules import BattleRules

BR = BattleRules()
NAMES = BR.units.names


def counts(**units) -> tuple:
    return tuple(units.get(n, 0) for n in NAMES)


GARRISON = counts(footsoldier=4, castle=1)
BATTLES = [
    (counts(footsoldier=5), GARRISON, False),
    (counts(footsoldier=3, siege_engine=2), GARRISON, False),     # the same defender, another attacker
    (counts(dragon=1, fighter=2), GARRISON, False),
    (counts(warship=2, fighter=1), counts(warship=2), True),
]


def test_remembered_chains_give_the_same_odds_to_the_last_bit():
    exact._PLAN_CHAINS.clear()
    cold = []
    for att, dfd, at_sea in BATTLES:
        exact._PLAN_CHAINS.clear()
        cold.append(OT.solve(BR, att, dfd, at_sea))
    exact._PLAN_CHAINS.clear()
    warm = [OT.solve(BR, att, dfd, at_sea) for att, dfd, at_sea in BATTLES]
    assert warm == cold                      # floats compared exactly on purpose: the same computation
    assert all(0.0 < p < 1.0 for p in warm)
    # the garrison's chain was worked out once and reused by the second and third battles
    defender_keys = [k for k in exact._PLAN_CHAINS if k[2].role == "defender"]
    assert len(defender_keys) == 2           # the garrison and the fleet


def test_a_remembered_chain_is_read_only_and_the_memo_is_bounded(monkeypatch):
    sit = Situation("defender", False, BR)
    army = Army.of({"footsoldier": 3})
    plan = default_plan(army, sit)
    states, hp, size, fs, main = exact.plan_chain(army, plan, sit)
    assert exact.plan_chain(army, plan, sit)[0] is states
    assert list(hp) == [3, 2, 1, 0] and len(states) == 4
    with pytest.raises(ValueError):
        hp[0] = 9
    with pytest.raises(ValueError):
        fs[0][0] = 0.5
    monkeypatch.setattr(exact, "PLAN_CHAINS_MAX", 1)
    other = Army.of({"footsoldier": 2})
    exact.plan_chain(other, default_plan(other, sit), sit)
    assert len(exact._PLAN_CHAINS) == 1
    assert np.array_equal(exact.plan_chain(army, plan, sit)[1], hp)
