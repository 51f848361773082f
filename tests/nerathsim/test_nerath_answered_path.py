"""The game loop's answered path: at a Hit decision, at a battle's press-or-retreat
decision and at the combat phase's choice of the next fight, `play_game` asks the built-in war heuristic
`WarPolicy.hit` / `WarPolicy.press` / `WarPolicy.fight` with the battle as `observation.battle_view`
shows it, the unit counts at the fights' regions and the legal actions the engine lists, instead of
building an observation, and the game is the same.

- games (records and event logs) equal the games played with every such decision asked through an
  observation, over seeds, both modes and line-ups mixing every built-in policy;
- at every Hit, press-or-retreat and next-fight decision of seeded games, the path's inputs are what the
  observation shows (the battle view, the legal actions in the same order) and its answer is what
  `__call__` answers from the observation;
- the path is taken for the exact class only (a subclass is asked through an observation), and a
  dungeon fight's flee-or-fight is still asked.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerathsim as api
from nerathsim import engine as E
from nerathsim import game as G
from nerathsim.battle import ingame as gb
from nerathsim.game import LegalActions
from nerathsim.observation import battle_view
from nerathsim.phases import PHASES, Phase
from nerathsim.policies import BALANCED, POLICIES, WarPolicy
from nerathsim.policies.decisions import hit_cost
from nerathsim.public_copy import SeatCaches

FFA = api.Rules(mode="free_for_all")
ALLY = api.Rules()


def _game(rules, line_up, seed):
    r = api.play_game(rules, line_up, seed, record=True)
    return r.to_record(), r.log


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), ffa=st.booleans(),
       line_up=st.sampled_from([["balanced"] * 4, ["aggressive", "defensive", "balanced", "tuned"],
                                ["random", "balanced", "tuned", "balanced"]]))
def test_games_equal_the_games_asked_through_observations(monkeypatch, seed, ffa, line_up):
    line_up = [p for p in line_up if p in POLICIES] + ["balanced"] * sum(p not in POLICIES for p in line_up)
    rules = FFA if ffa else ALLY
    fast = _game(rules, line_up, seed)
    with monkeypatch.context() as m:
        m.setattr(G, "_answered", lambda policy, s, ph: None)
        slow = _game(rules, line_up, seed)
    assert fast == slow


@pytest.mark.parametrize("name", ["balanced", "aggressive", "defensive"])
def test_the_answer_and_its_inputs_are_the_observations(name):
    pol = dataclasses.replace(POLICIES[name])
    rng = np.random.default_rng(5)
    seen = {Phase.HIT: 0, Phase.PRESS: 0, Phase.COMBAT: 0}
    retreats = 0
    for rules, seed in ((FFA, 31), (ALLY, 32), (FFA, 33), (ALLY, 34)):
        chance = np.random.default_rng(seed)
        s = E.new_game(rules, chance)
        caches = [SeatCaches() for _ in range(4)]
        while not s.is_terminal and s.decisions < 1500:
            p = s.current_player
            ph = PHASES[s.phase]
            obs = G.Observation(s, p, caches[p])
            legal = LegalActions.of(obs)
            expected = pol(obs, legal, rng)
            if ph is Phase.COMBAT:
                assert list(E.legal_actions(s)) == list(legal)
                assert all(tuple(map(tuple, s.units[a.region])) == obs.unit_counts[a.region] for a in legal)
                got = G._answered(pol, s, ph)
                assert got == expected
                seen[ph] += 1
            elif ph in seen and not s.battle.dungeon:
                view = battle_view(s)
                assert view == obs.battle
                listed = E.hit_actions(s) if ph is Phase.HIT else list(E.legal_actions(s))
                assert listed == list(legal)
                got = G._answered(pol, s, ph)
                assert got == expected
                seen[ph] += 1
                retreats += type(got) is api.RetreatTo
            else:
                assert G._answered(pol, s, ph) is None
            E.apply_legal(s, expected, chance)
    assert seen[Phase.HIT] > 20 and seen[Phase.PRESS] > 20 and seen[Phase.COMBAT] > 20
    if name != "aggressive":
        assert retreats > 0


def test_press_retreats_to_the_destination_holding_most_of_the_realms_units():
    pol = BALANCED
    view = api.observation.BattleView(region=5, at_sea=False, attacker=0, round=1, attacker_units={"footsoldier": 1},
                                      defender_units={1: {"footsoldier": 6, "dragon": 1}}, attacker_damaged={})
    t = E.tables(FFA)
    legal = [api.PressOn(), api.RetreatTo(3), api.RetreatTo(7), api.RetreatTo(9)]
    held = {3: 2, 7: 4, 9: 4}
    assert pol.press(FFA.battle, t, view, legal, held.__getitem__) == api.RetreatTo(7)    # ties: the lower dst
    assert pol.press(FFA.battle, t, view, legal[:1], held.__getitem__) == api.PressOn()
    strong = view._replace(attacker_units={"footsoldier": 9, "dragon": 2})
    assert pol.press(FFA.battle, t, strong, legal, held.__getitem__) == api.PressOn()


def test_the_path_is_taken_for_the_exact_class_only(monkeypatch):
    asked = []
    real = G._ask

    def counting(policy, s, p, rng, caches=None):
        asked.append(PHASES[s.phase])
        return real(policy, s, p, rng, caches)

    monkeypatch.setattr(G, "_ask", counting)
    r = api.play_game(FFA, ["balanced"] * 4, 3)
    assert Phase.HIT not in asked and Phase.COMBAT not in asked

    class Cautious(WarPolicy):                       # a subclass may decide otherwise: always asked
        pass

    asked.clear()
    again = api.play_game(FFA, [Cautious(name="balanced")] * 4, 3)
    assert asked.count(Phase.HIT) > 0 and len(asked) == again.decisions
    assert again.to_record() == r.to_record()


@pytest.mark.parametrize("rules", [FFA, api.Rules(map="small", mode="free_for_all")])
def test_the_cached_unit_loss_is_the_units_own_numbers(rules):
    """`battle.ingame.unit_loss` (cached, what `decisions.hit_cost` starts from) against the unit table, for every
    unit, free wound, role and battlefield."""
    brules = rules.battle
    table = brules.units
    for role in ("attacker", "defender"):
        for at_sea in (False, True):
            for name in table.names:
                u = table[name]
                power = u.dice(role, at_sea) * u.hit_probability(brules.threshold(role))
                assert gb.unit_loss(brules, role, at_sea, name) == (u.cost, power, table.index(name), u.capacity)
                assert gb.unit_loss(brules, role, at_sea, "damage:" + name) == (0, 0.0, table.index(name), 0)
                if not (at_sea and u.capacity):
                    assert hit_cost(brules, {name: 2}, at_sea, role, name) == (u.cost, power, table.index(name))
