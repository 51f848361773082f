"""Shortcuts of the odds table and the movement plan: each gives exactly what it stands in for.

- the table of solved odds asks `exact.attacker_wins_sum`, which adds up only the end states the
  attacker wins (no rounds distribution, no merging of the other rows): the same probability, to within
  float rounding of the sum, as the ATTACKER_WINS rows of `exact.solve`'s end table with no retreat;
- the movement plan lists, once per plan, the free units that reach each target (`movement._reachers`):
  for every target and every state of the free units, the same candidates in the same order as a walk
  of all the free units.
"""
from __future__ import annotations

import dataclasses
import gzip
import json

import numpy as np
import pytest

import nerathsim as api
from nerathsim import engine as E
from nerathsim.battle import exact
from nerathsim.battle import odds_table as OT
from nerathsim.battle.army import start_battle
from nerathsim.battle.casualties import resolve_casualties
from nerathsim.battle.outcomes import ATTACKER_WINS
from nerathsim.battle.steps import Retreat
from nerathsim.policies import movement as MV

FFA = api.Rules(mode="free_for_all")
# Two sums of the same won end states may differ in the last bits: numpy picks its summation order
# (pairwise, SIMD width) by version and CPU. A few thousand terms in [0, 1] round by at most
# n * 2**-53 ~ 1e-13 relative; 1e-12 leaves room and is far below any odds a policy compares.
SUM_ROUNDING = 1e-12


def _plain_attacker_wins(brules, att: tuple, dfd: tuple, at_sea: bool):
    """P(attacker wins) as the table worked it out before: the whole end table's ATTACKER_WINS rows."""
    names = brules.units.names
    a = {names[u]: c for u, c in enumerate(att) if c}
    d = {names[u]: c for u, c in enumerate(dfd) if c}
    try:
        state = start_battle(a, d, at_sea, brules)
        table = exact.solve(state, brules, resolve_casualties(None, state, brules), Retreat.parse(None),
                            exact.DEFAULT_PRUNE)
    except ValueError:
        return OT.UNSOLVABLE
    return float(table.prob[table.outcome == ATTACKER_WINS].sum())


def _random_armies(rng, names, at_sea: bool, n: int):
    """`n` seeded (attacker, defender) count tuples of up to ~12 units, land or sea."""
    U = len(names)
    ship, castle = names.index("warship"), names.index("castle")
    out = []
    for _ in range(n):
        att, dfd = [0] * U, [0] * U
        for army, size in ((att, rng.integers(1, 7)), (dfd, rng.integers(0, 7))):
            for _k in range(size):
                army[int(rng.integers(0, U))] += 1
        att[castle] = 0                        # castles never attack
        if at_sea:
            for army in (att, dfd):
                army[castle] = 0
                army[ship] += 1
        else:
            att[ship] = dfd[ship] = 0
        out.append((tuple(att), tuple(dfd)))
    return out


@pytest.mark.parametrize("brules", [FFA.battle, dataclasses.replace(FFA.battle, castle_mode="never_hit"),
                                    dataclasses.replace(FFA.battle, attacker_hit_threshold=5)],
                         ids=["published", "castles-never-hit", "other-threshold"])
@pytest.mark.parametrize("at_sea", [False, True], ids=["land", "sea"])
def test_the_attacker_wins_sum_is_the_end_tables_sum_to_the_last_bit(brules, at_sea):
    rng = np.random.default_rng(32)
    names = brules.units.names
    cases = _random_armies(rng, names, at_sea, 40)
    castle = names.index("castle")
    if not at_sea:
        cases += [((1,) + (0,) * 8, tuple(2 if u == castle else 0 for u in range(len(names))))]   # a lone castle
    solved = 0
    for att, dfd in cases:
        got = OT.solve(brules, att, dfd, at_sea)
        want = _plain_attacker_wins(brules, att, dfd, at_sea)
        if want is OT.UNSOLVABLE:
            assert got is OT.UNSOLVABLE, (att, dfd)
        else:
            assert got == pytest.approx(want, rel=SUM_ROUNDING, abs=1e-15), (att, dfd)
        solved += got is not None
    assert solved > 20


def test_the_shipped_tables_entries_are_what_the_fast_sum_says():
    data = json.loads(gzip.decompress(OT.SHIPPED.read_bytes()))
    key = OT.rules_key(FFA.battle)
    rows = [r for r in data["entries"] if r[0] == key][::40]
    assert len(rows) > 40
    for _k, a, d, s, p in rows:
        assert OT.solve(FFA.battle, tuple(a), tuple(d), bool(s)) == pytest.approx(p, rel=SUM_ROUNDING, abs=1e-15)


# --- the movement plan's candidates by target -------------------------------------------------------
def test_the_reachers_of_a_target_are_the_free_units_a_walk_finds_in_its_order(balanced_decisions):
    compared = []

    def visit(s, obs):
        if s.phase != E.PH_MOVE or not obs.mobile_regions():
            return
        avail = {}
        for r in obs.mobile_regions():
            for (u, m), c in obs.mobile(r).items():
                if m > 0 and c > 0:
                    avail[(r, u)] = avail.get((r, u), 0) + c
        reach = {(r, u): obs.destinations(r, obs.tables.names[u]) for (r, u) in avail}
        aim = [obs.owner[x] not in obs.friends(obs.realm) for x in range(obs.board.n)]
        reachers = MV._reachers(reach, aim)
        assert set(reachers) == {dst for dests in reach.values() for dst in dests if aim[dst]}
        rng = np.random.default_rng(len(compared))
        for _round in range(3):
            for target, keys in reachers.items():
                walked = [k for k, n in avail.items() if n > 0 and target in reach[k]]
                assert [k for k in keys if avail[k] > 0] == walked
            for k in avail:                                   # some units get used up
                if rng.random() < 0.4:
                    avail[k] = 0
        compared.append(len(reachers))

    for seed in (11, 12):
        for s, obs in balanced_decisions(FFA, seed, 2500):
            visit(s, obs)
    assert len(compared) > 20 and max(compared) >= 2

