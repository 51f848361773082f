"""play_game's fast paths for the built-in policies give exactly the games of calling them.

`play_game` makes a built-in `RandomPolicy` seat's choice itself from block-drawn uniforms and
skips its observation, and hands a built-in `HeuristicPolicy` block-drawn uniforms and skips it
when one action is legal (nightsim/RULES.md, "(d) Policies"). A wrapper of another type gets
none of that: it is observed, called with the seat's numpy Generator, and checked. Records and
event logs must be identical, seed for seed.
"""
from __future__ import annotations

import numpy as np
import pytest

import nightsim
from nightsim.game import UNIFORM_BLOCK, Uniforms
from nightsim.policies import HeuristicPolicy


class Plain:
    """Calls a built-in policy the ordinary way (a type play_game has no fast path for)."""

    def __init__(self, name):
        self.name, self.inner = name, nightsim.POLICIES[name]

    def __call__(self, obs, legal, rng):
        assert isinstance(rng, np.random.Generator)
        return self.inner(obs, legal, rng)


LINEUPS = [
    (dict(players=4), ["random"] * 4),
    (dict(players=4), ["greedy"] * 4),
    (dict(players=4), ["aggressor", "greedy", "purist", "random"]),
    (dict(players=3, seals=True, herald_plays_seals=True, scavenger_optional=True), ["random", "purist", "greedy"]),
]


@pytest.mark.parametrize("kwargs,names", LINEUPS, ids=lambda x: str(x))
def test_play_game_gives_the_same_games_as_calling_the_built_in_policies(kwargs, names):
    rules = nightsim.Rules(**kwargs)
    for seed in range(40):
        fast = nightsim.play_game(rules, names, seed, record=True)
        plain = nightsim.play_game(rules, [Plain(n) for n in names], seed, record=True)
        assert fast.to_record() == plain.to_record(), f"seed {seed}"
        assert fast.log == plain.log, f"seed {seed}"


def test_uniforms_are_the_generators_own_numbers_in_order():
    a = np.random.default_rng(np.random.SeedSequence(7))
    u = Uniforms(np.random.default_rng(np.random.SeedSequence(7)))
    n = 2 * UNIFORM_BLOCK + 5
    assert [u.random() for _ in range(n)] == [a.random() for _ in range(n)]


@pytest.mark.parametrize("kwargs", [dict(players=4), dict(players=3, seals=True, herald_plays_seals=True)],
                         ids=lambda x: str(x))
def test_choose_from_the_creatures_is_the_policys_choice_and_observes_only_when_needed(kwargs):
    """`HeuristicPolicy.choose` (what play_game asks a built-in heuristic) picks what `__call__`
    picks from the full observation, with the same tie-break draws, and calls the observation
    function only for an action the creatures cannot score (Devour, seals, discard choices)."""
    rules = nightsim.Rules(**kwargs)
    lean_types = {nightsim.Play, nightsim.Draw, nightsim.StartDiscard, nightsim.Take, nightsim.Scavenge,
                  nightsim.PenaltyDiscard}
    seen_other = 0
    for name in ("greedy", "purist", "aggressor"):
        pol = nightsim.POLICIES[name]
        for seed in range(15):
            chance = np.random.default_rng(seed)
            s = nightsim.new_game(rules, chance)
            u1 = np.random.default_rng(1000 + seed)
            u2 = np.random.default_rng(1000 + seed)
            while not s.is_terminal:
                p = s.current_player
                legal = nightsim.legal_actions(s)
                obs = nightsim.observe(s, p)
                if len(legal) > 1:
                    calls = []

                    def obs_fn(s=s, p=p, calls=calls):
                        calls.append(1)
                        return nightsim.observe(s, p)

                    lean = HeuristicPolicy(pol.weights).choose(obs.creatures, p, rules.table, legal, u1, obs_fn)
                    full = pol(obs, legal, u2)
                    assert lean is full, f"{name} seed {seed}"
                    needs = any(type(a) not in lean_types for a in legal)
                    seen_other += needs
                    assert len(calls) == (1 if needs else 0)
                    a = full
                else:
                    a = legal[0]
                nightsim.apply_action(s, a, chance)
    assert seen_other > 0  # the observation function was exercised
