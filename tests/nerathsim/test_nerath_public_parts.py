"""The parts of a seat's public copy shared with its last copy (Nerath speed; beyond the unit
counts, mobile units, statistics and gold spent of tests/nerathsim/test_nerath_seat_copies.py): the
cards used and kept, the dungeons' tokens (a value: face-down tokens as -1), the treasures given, the
turned-over dungeons, the wins counted, the cards played, this turn's castles, the owners at the turn's
start, the explored dungeons and conquests; and a battle's army states, frozen once per state. Each is
always equal to what a fresh copy holds, a policy scribbling on its copy changes neither the game nor
what it is shown next, and nothing shared is the engine's."""
from __future__ import annotations

import numpy as np
import pytest

import nerathsim as api
from nerathsim import engine as E
from nerathsim.observation import observe
from nerathsim.policies import POLICIES
from nerathsim.public_copy import SeatCaches, public_state

SHARED = ("used", "kept", "dungeon_given", "revealed", "win_done", "card_plays", "turn_castles", "owner_start",
          "explored", "conquered")


def _check(s, seat, caches):
    obs = observe(s, seat, caches)
    c, fresh = obs._s, public_state(s, seat)
    for name in SHARED + ("guardians",):
        assert getattr(c, name) == getattr(fresh, name), name
    for name in SHARED:
        assert getattr(c, name) is not getattr(s, name), name
    assert all(v is not w for v, w in zip(c.used, s.used)) and all(v is not w for v, w in zip(c.conquered, s.conquered))
    # the tokens: the engine's where turned over, -1 where face down, and a value
    assert set(c.guardians) == set(s.guardians)
    for r, g in s.guardians.items():
        assert c.guardians[r] == (tuple(g) if r in s.revealed else (-1,) * len(g))
    with pytest.raises(TypeError):
        c.guardians[-5] = ()
    if s.battle is not None:
        for mine, eng in zip([c.battle.att, *c.battle.defs], [s.battle.att, *s.battle.defs]):
            assert [list(map(list, st)) for st in mine.states] == eng.states
            assert all(type(st) is tuple and all(type(row) is tuple for row in st) for st in mine.states)
            assert mine.k == eng.k and mine.lost == eng.lost and mine.healths == eng.healths
            assert mine.lost is not eng.lost and mine.states is not eng.states
    return obs


@pytest.mark.parametrize("rules, seed, policy", [(api.Rules(mode="free_for_all"), 3, "balanced"),
                                                 (api.Rules(), 5, "balanced"),
                                                 (api.Rules(map="small"), 6, "random")])
def test_a_seats_shared_parts_equal_a_fresh_copy_at_every_decision(rules, seed, policy):
    pol = POLICIES[policy]
    rng = np.random.default_rng(seed)
    prngs = [np.random.default_rng(seed + 10 + p) for p in range(rules.players)]
    s = E.new_game(rules, rng)
    caches = [SeatCaches() for _ in range(rules.players)]
    shared = battles = 0
    for _ in range(2500):
        if s.is_terminal:
            break
        p = s.current_player
        before = caches[p].last.conquered
        obs = _check(s, p, caches[p])
        shared += obs._s.conquered is before
        battles += s.battle is not None
        a = pol(obs, api.game.LegalActions.of(obs), prngs[p])
        E.apply_legal(s, a, rng)
    assert shared > 100 and battles > 10


class Vandal:
    """The balanced policy, which then scribbles over every shared part its copy holds."""

    name = "vandal"

    def __init__(self):
        self.inner = POLICIES["balanced"]

    def __call__(self, obs, legal, rng):
        a = self.inner(obs, legal, rng)
        c = obs._s
        for v in c.used + c.kept:
            v.append(-9)
        c.dungeon_given[-9] = 9
        c.revealed.add(-9)
        c.win_done.add(-9)
        c.card_plays.append(9)
        c.turn_castles.add(-9)
        c.owner_start[0] = -9
        c.explored.add(-9)
        for v in c.conquered:
            v.add(-9)
        if c.battle is not None:
            c.battle.att.lost.append(-9)
            c.battle.att.states.append(())
        return a


def test_a_policy_scribbling_on_its_shared_parts_changes_neither_the_game_nor_what_it_is_shown_next():
    rules = api.Rules(mode="free_for_all")
    for seed in (1, 2):
        plain = api.play_game(rules, ["balanced"] * 4, seed, record=True)
        scribbled = api.play_game(rules, [Vandal() for _ in range(4)], seed, record=True)
        assert plain.to_record() | {f"seat{i}_policy": "x" for i in range(4)} == \
            scribbled.to_record() | {f"seat{i}_policy": "x" for i in range(4)}
        assert plain.log == scribbled.log


def test_a_state_sampled_from_a_public_copy_in_battle_fights_on_with_lists():
    """sample_state clones the public copy: the frozen army states and tokens become lists again."""
    rules = api.Rules(mode="free_for_all")
    rng = np.random.default_rng(4)
    s = E.new_game(rules, rng)
    pol = POLICIES["balanced"]
    while s.battle is None or not any(len(ch.states) > 1 for ch in [s.battle.att, *s.battle.defs]):
        obs = observe(s, s.current_player)
        E.apply_legal(s, pol(obs, api.game.LegalActions.of(obs), rng), rng)
    c = public_state(s, s.current_player).clone()
    for ch in [c.battle.att, *c.battle.defs]:
        assert all(type(st) is list and all(type(row) is list for row in st) for st in ch.states)
    assert all(type(g) is list for g in c.guardians.values())
    for _ in range(300):                     # plays on to the end of the battle and beyond
        if c.is_terminal:
            break
        obs = observe(c, c.current_player)
        E.apply_legal(c, pol(obs, api.game.LegalActions.of(obs), rng), rng)
