"""A seat's successive public copies share what the engine has not changed (Nerath speed):
`public_copy.SeatCaches.last` keeps the parts of the seat's last copy (the mobile units, the
statistics, the gold spent) and the next copy shares those still equal to the engine's — compared,
never assumed; the unit counts are a value (tuples) whose regions are made afresh only where the
engine's log of changed regions (`State._touched`) says so. These tests pin that a copy made that way
is always equal to a fresh copy (so no write to the counts escapes the log), that a policy scribbling on
its own copy changes neither the game nor what it is shown next, and that nothing shared is the
engine's (the walk of tests/nerathsim/test_nerath_public_copy.py)."""
from __future__ import annotations

import numpy as np
import pytest

import nerathsim as api
from nerathsim import engine as E
from nerathsim.observation import observe
from nerathsim.policies import POLICIES
from nerathsim.public_copy import SeatCaches, public_state

FIELDS = ("units", "mob", "stats", "spent", "fr_land", "hostile", "owner", "gold", "vp")


def _same_as_fresh(s, seat, caches):
    obs = observe(s, seat, caches)
    fresh = public_state(s, seat)
    for name in FIELDS:
        assert getattr(obs._s, name) == getattr(fresh, name), name
    # the seat's reach tables are the ones for the engine's terrain now
    assert obs._s.reach_land is caches.table(bytes(s.fr_land), s.reach_land)
    assert obs._s.reach is caches.table((bytes(s.fr_land), bytes(s.hostile)), s.reach)
    for name in ("units", "mob", "stats", "spent", "fr_land", "hostile"):
        assert getattr(obs._s, name) is not getattr(s, name), name
    assert all(a is not b for ra, rb in zip(obs._s.units, s.units) for a, b in zip(ra, rb))
    return obs


@pytest.mark.parametrize("rules, seed, policy", [(api.Rules(mode="free_for_all"), 3, "balanced"),
                                                 (api.Rules(map="small"), 4, "balanced"),
                                                 (api.Rules(), 5, "random"),
                                                 (api.Rules(mode="free_for_all"), 6, "random"),
                                                 (api.Rules(mode="free_for_all"), 7, "aggressive")])
def test_a_seats_copy_sharing_its_last_copy_equals_a_fresh_copy_at_every_decision(rules, seed, policy):
    pol = POLICIES[policy]
    rng = np.random.default_rng(seed)
    prngs = [np.random.default_rng(seed + 10 + p) for p in range(rules.players)]
    s = E.new_game(rules, rng)
    caches = [SeatCaches() for _ in range(rules.players)]
    shared = 0
    for _ in range(3000):
        if s.is_terminal:
            break
        p = s.current_player
        before = caches[p].last.units
        obs = _same_as_fresh(s, p, caches[p])
        shared += before is not None and any(a is b for a, b in zip(obs._s.units, before))
        a = pol(obs, api.game.LegalActions.of(obs), prngs[p])
        E.apply_legal(s, a, rng)
    assert shared > 100                       # the copies do share regions


class Vandal:
    """The balanced policy, which then scribbles over everything its copy holds."""

    name = "vandal"

    def __init__(self):
        self.inner = POLICIES["balanced"]

    def __call__(self, obs, legal, rng):
        a = self.inner(obs, legal, rng)
        c = obs._s
        with pytest.raises(TypeError):
            c.units[0][0][0] = 7                 # the counts are a value
        obs.units(0, 0)[0] = 7                   # a list of its own
        for g in c.mob.values():
            g[(0, 0)] = 99
        for v in c.stats.values():
            v[0] = -1
        for v in c.spent:
            v[0] = -1
        c.fr_land[0] = not c.fr_land[0]
        c.hostile[0] = not c.hostile[0]
        return a


def test_a_policy_scribbling_on_its_copy_changes_neither_the_game_nor_what_it_is_shown_next():
    rules = api.Rules(mode="free_for_all")
    for seed in (1, 2):
        plain = api.play_game(rules, ["balanced"] * 4, seed, record=True)
        scribbled = api.play_game(rules, [Vandal() for _ in range(4)], seed, record=True)
        assert plain.to_record() | {f"seat{i}_policy": "x" for i in range(4)} == \
            scribbled.to_record() | {f"seat{i}_policy": "x" for i in range(4)}
        assert plain.log == scribbled.log
