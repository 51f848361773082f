"""Shared helpers of the Nerath full-game tests, the pytest way.

One rule, per kind of name:

* **Functions** (`drive`, `default_action`, `check_invariants`, `start_counts`, `dests`, `kinds`,
  `names`, `end_phase`, `events`, `rng`, `balanced_decisions`) are session-scoped fixtures *of the same name* that return
  the function: a test asks for the ones it calls as parameters (`def test_x(drive, events): ...`)
  and calls them. Session scope because they hold no state, and so hypothesis tests may
  use them. A test module's own helper that needs one of them is itself a (module-scoped) fixture
  of that module, built on these.
* **Constants** cannot be fixtures, because tests use them at import time (derived module constants
  such as `FFA_SURE = dataclasses.replace(FFA, ...)`, `parametrize` arguments): the realm indices
  `K, V, I, N = range(4)` and the rule sets `FFA`/`ALLY` (the small map without the events and
  dungeons of Part III) are module constants of the test files that use them.
* **Scenario builders** (`act`, `build_state`, `region`, `units_at`) are library code: tests import
  them from `nerathsim.scenario`.

Nothing here is imported by the tests (pytest discourages `from conftest import ...`).
"""
from __future__ import annotations

import numpy as np
import pytest

from nerathsim import engine as E
from nerathsim.game import LegalActions
from nerathsim.game_actions import Casualties, Fight, Pass, PressOn
from nerathsim.maps import REALMS
from nerathsim.observation import observe
from nerathsim.policies import POLICIES, take_hit
from nerathsim.public_copy import SeatCaches
from nerathsim.scenario import region


def _rng(seed=0):
    return np.random.default_rng(seed)


def _dests(s, src, unit):
    """{region name: (cost, stops)} the current realm's unit at src may move to."""
    d = E.destinations(s, region(s, src), unit)
    return {s.board.names[r]: (c, st) for r, (c, st, _able) in d.items()}


def _kinds(s):
    return sorted({type(a).__name__ for a in E.legal_actions(s)})


def _names(s, regions):
    return sorted(s.board.names[r] for r in regions)


def _end_phase(s, seed=0):
    E.apply_action(s, E.END_PHASE, _rng(seed))


def _default_action(s):
    """A neutral choice for driving a scenario: first battle, cheapest casualties (each hit where the
    heuristics put it: the least gold lost), press on, no amok, end phases;
    card windows: keep every card (Pass), play a card that must be played at once."""
    ph = s.phase
    if ph == E.PH_EVENT:
        legal = E.legal_actions(s)
        return Pass() if Pass() in legal else legal[0]
    if ph == E.PH_COMBAT:
        return Fight(s.sites[0])
    if ph == E.PH_CASUALTY:
        return Casualties("cheapest")
    if ph == E.PH_HIT:                 # the heuristics' choice: least gold lost (heroes drowned with a ship count)
        return take_hit(observe(s, s.current_player), E.legal_actions(s))
    if ph == E.PH_PRESS:
        return PressOn()
    if ph == E.PH_AMOK:
        return Pass()
    return E.END_PHASE


def _drive(s, until=lambda s: False, seed=0, limit=10_000):
    """Apply default choices until `until(s)` holds or the current realm's turn is over."""
    r = _rng(seed)
    turns = s.turns
    for _ in range(limit):
        if s.is_terminal or until(s) or s.turns != turns:
            return s
        E.apply_action(s, _default_action(s), r)
    raise AssertionError("drive did not stop")


def _events(s, kind):
    return [e for e in (s.log or []) if e["event"] == kind]


def _start_counts(rules):
    b = rules.board
    t = E.tables(rules)
    tot = [[0] * t.U for _ in range(4)]
    for r in range(b.n):
        if b.castle[r]:
            tot[b.owner[r]][t.castle_u] += 1
        for p, name, c in b.units[r]:
            tot[p][t.idx[name]] += c
    return tot


def _check_invariants(s, start=None):
    """Units and gold accounted for, no unit where it may not stand, ownership consistent."""
    b, t = s.board, s.tab
    F = s.friends
    mid_combat = (E.PH_MOVE, E.PH_COMBAT, E.PH_CASUALTY, E.PH_HIT, E.PH_PRESS, E.PH_AMOK, E.PH_EVENT)
    for r in range(b.n):
        present = {q for q in range(4) if any(s.units[r][q])} | {sh.owner for sh in s.ships if sh.region == r}
        for q1 in present:
            for q2 in present:
                if q2 not in F[q1]:
                    # enemies share a region only while the current realm's attack is unresolved, or (with
                    # Rules.flyers_capture False) while its flyers, which cannot take the region, regroup
                    flyers_only = all(not c or t.flyer[u] for u, c in enumerate(s.units[r][s.realm]))
                    assert s.realm in (q1, q2) and (s.phase in mid_combat or (
                        s.phase == E.PH_REGROUP and flyers_only and not s.rules.flyers_capture)), \
                        (b.names[r], q1, q2, s.decision)
        if b.is_sea[r]:
            assert s.owner[r] == -1
            for q in range(4):
                for u in range(t.U):
                    if s.units[r][q][u]:
                        assert t.flyer[u], f"{t.names[u]} standing at sea in {b.names[r]}"
        else:
            assert not any(sh.region == r for sh in s.ships), f"warship on land {b.names[r]}"
            for q in range(4):
                for u in range(t.U):
                    if s.units[r][q][u] and t.flyer[u]:
                        pass
            if b.is_dungeon[r]:
                assert s.owner[r] == -1
                for q in range(4):
                    for u in range(t.U):
                        if s.units[r][q][u]:
                            assert t.land[u] and (t.hero[u] or s.rules.dungeon_entry == "all_land"), \
                                f"{t.names[u]} in dungeon {b.names[r]}"
            else:
                assert s.owner[r] >= 0
                for q in range(4):
                    if s.units[r][q][t.castle_u]:
                        assert q == s.owner[r], f"castle of {REALMS[q]} on {b.names[r]} held by {s.owner[r]}"
    for sh in s.ships:
        assert b.is_sea[sh.region] and len(sh.cargo) <= t.capacity[sh.utype]
        assert all(t.land[u] for u in sh.cargo)
    for p in range(4):
        assert s.gold[p] >= 0
        assert s.gold[p] == (b.realm_gold[p] + s.stats["gold_earned"][p] - s.stats["gold_spent"][p]
                             + s.stats["card_gold"][p] + s.stats["guardian_gold"][p])
        assert s.vp[p] >= 0
    if start is not None:
        for p in range(4):
            tot = s.total_units(p)
            bought = [s.spent[p][u] // t.cost[u] if t.cost[u] else 0 for u in range(t.U)]
            have = sum(tot[u] for u in range(t.U) if u != t.castle_u)
            expect = (sum(start[p][u] + bought[u] for u in range(t.U) if u != t.castle_u) - s.stats["units_lost"][p]
                      + s.stats["card_units"][p])
            assert have == expect, (REALMS[p], have, expect)
        castles = sum(s.total_units(p)[t.castle_u] for p in range(4))
        assert castles == sum(start[p][t.castle_u] + s.spent[p][t.castle_u] // t.cost[t.castle_u] for p in range(4))
    if s.phase in (E.PH_MOVE, E.PH_REGROUP, E.PH_REINFORCE):
        for r, g in s.mob.items():
            for u in range(t.U):
                assert sum(c for (uu, _m), c in g.items() if uu == u) <= s.units[r][s.realm][u]
    if s.phase in (E.PH_BUY, E.PH_REINFORCE):
        # after the regroup phase: flyers where they may end, nobody on enemy land
        for r in range(b.n):
            for q in range(4):
                for u in range(t.U):
                    if not s.units[r][q][u]:
                        continue
                    if b.is_sea[r]:
                        assert t.sea_ender[u] or (q == s.realm and s.phase == E.PH_REINFORCE and False) \
                            or not t.flyer[u] or q != s.realm, f"{t.names[u]} of {REALMS[q]} at sea"
                    elif not b.is_dungeon[r]:
                        assert s.owner[r] in F[q], f"{t.names[u]} of {REALMS[q]} on enemy land {b.names[r]}"
    if not s.is_terminal:
        assert E.legal_actions(s), "a live state must offer a decision"
        # the decision is made for a realm of the deciding seat; the turn's own decisions for the turn's realm
        assert s.seat_of[s.decider] == s.current_player, (REALMS[s.decider], s.current_player, s.decision)
        if s.phase in (E.PH_MOVE, E.PH_COMBAT, E.PH_PRESS, E.PH_AMOK, E.PH_REGROUP, E.PH_BUY, E.PH_REINFORCE):
            assert s.decider == s.realm, (REALMS[s.decider], REALMS[s.realm], s.decision)


def _balanced_decisions(rules, seed: int, steps: int):
    """(state, observation) at each decision of a game of 4 x `balanced` (the seat's own caches, as
    play_game keeps them) from `default_rng(seed)`, at most `steps` decisions: the caller looks (on
    copies, or at the live state without changing it), then the seat's choice is applied."""
    rng = np.random.default_rng(seed)
    s = E.new_game(rules, rng)
    caches = [SeatCaches() for _ in range(4)]
    for _ in range(steps):
        if s.is_terminal:
            return
        p = s.current_player
        obs = observe(s, p, caches[p])
        yield s, obs
        E.apply_legal(s, POLICIES["balanced"](obs, LegalActions.of(obs), rng), rng)


# ---- fixtures: each returns the helper of its name ----


@pytest.fixture(scope="session")
def balanced_decisions():
    return _balanced_decisions



@pytest.fixture(scope="session")
def rng():
    return _rng


@pytest.fixture(scope="session")
def dests():
    return _dests


@pytest.fixture(scope="session")
def kinds():
    return _kinds


@pytest.fixture(scope="session")
def names():
    return _names


@pytest.fixture(scope="session")
def end_phase():
    return _end_phase


@pytest.fixture(scope="session")
def default_action():
    return _default_action


@pytest.fixture(scope="session")
def drive():
    return _drive


@pytest.fixture(scope="session")
def events():
    return _events


@pytest.fixture(scope="session")
def start_counts():
    return _start_counts


@pytest.fixture(scope="session")
def check_invariants():
    return _check_invariants
