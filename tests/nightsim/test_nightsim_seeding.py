"""play_game's cheaper per-game work gives exactly the games of the plain code (issue 16, item 1).

- `nightsim.seeding.spawn_generators` builds the generators of `SeedSequence(seed).spawn(k)`
  without numpy's per-call costs: their states must be numpy's, bit for bit.
- `observation.public_frames` reads each frame kind with one getter: it must encode the stack
  exactly as `Frame.fields()` + `_encode` do.
- `play_game` applies decisions with `engine.apply_legal` inlined when it does not record: the
  records must equal the recorded games'.
- `HeuristicPolicy` keeps scoring facts in the policy object (`_facts`): a policy shared by every seat
  and warmed by other games chooses exactly like fresh objects, also when threads share it.
"""
from __future__ import annotations

import pickle
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nightsim
from nightsim.engine import apply_legal, new_game
from nightsim.observation import FRAME_CODES, _encode, public_frames
from nightsim.policies import GREEDY, PURIST, HeuristicPolicy
from nightsim.seeding import FAST_LIMIT, MAX_CHILDREN, Words, child_words, children_words, spawn_generators
from nightsim.turn import Discard


def numpy_generators(seed, k):
    return [np.random.default_rng(c) for c in np.random.SeedSequence(seed).spawn(k)]


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64, FAST_LIMIT - 1, FAST_LIMIT, 2**300 + 7])
@pytest.mark.parametrize("k", [1, 5, 6, MAX_CHILDREN, MAX_CHILDREN + 1])
def test_spawned_generators_are_numpys_at_the_edges(seed, k):
    mine, ref = spawn_generators(seed, k), numpy_generators(seed, k)
    assert len(mine) == len(ref) == k
    for a, b in zip(mine, ref):
        assert a.bit_generator.state == b.bit_generator.state
        assert a.random(3).tolist() == b.random(3).tolist()


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**140), k=st.integers(min_value=1, max_value=6))
def test_spawned_generators_are_numpys(seed, k):
    for a, b in zip(spawn_generators(seed, k), numpy_generators(seed, k)):
        assert a.bit_generator.state == b.bit_generator.state


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=FAST_LIMIT - 1))
def test_children_words_are_child_words_of_every_child(seed):
    """The uint32-array hash of all children at once (`children_words`) gives each child's words as the
    Python-int `child_words` does (the path a big-endian machine takes)."""
    pool = np.random.SeedSequence(seed).pool
    words = children_words(pool, MAX_CHILDREN)
    assert words.dtype == np.uint64 and words.flags.c_contiguous
    assert words.tolist() == [child_words(pool.tolist(), i) for i in range(MAX_CHILDREN)]


def test_words_hand_over_only_what_pcg64_asks_for():
    w = Words(np.arange(4, dtype=np.uint64))
    assert w.generate_state(4, np.uint64) is w.words
    with pytest.raises(ValueError, match="uint64 words"):
        w.generate_state(4, np.uint32)
    with pytest.raises(ValueError, match="uint64 words"):
        w.generate_state(2, np.uint64)


def test_a_seat_of_someone_elses_policy_gets_numpys_own_child_generator():
    seen = []

    def first(obs, legal, rng):
        if not seen:
            seen.append(rng.bit_generator.state)
            seen.append(rng.spawn(1)[0].random())  # a real SeedSequence behind it: it can spawn
        return legal[0]

    nightsim.play_game(nightsim.Rules(players=3), ["random", first, "greedy"], 12345)
    child = np.random.SeedSequence(12345).spawn(4)[2]
    assert seen[0] == np.random.default_rng(child).bit_generator.state
    assert seen[1] == np.random.default_rng(child).spawn(1)[0].random()


def reference_frames(s, player):
    """public_frames as first written: Frame.fields() and _encode for every field."""
    out = []
    for f in s.stack:
        t = type(f)
        if t is Discard and f.player != player:
            out.append((FRAME_CODES[t], f.player, ("H", len(f.picked))))
        else:
            out.append((FRAME_CODES[t],) + tuple(_encode(s, v) for v in f.fields().values()))
    return tuple(out)


@pytest.mark.parametrize("kwargs", [dict(players=4), dict(players=3, seals=True, herald_plays_seals=True,
                                                          scavenger_optional=True)])
def test_public_frames_encode_the_stack_as_frame_fields_do(kwargs):
    rules = nightsim.Rules(**kwargs)
    stacks = 0
    for seed in range(15):
        rng = np.random.default_rng(seed)
        s = new_game(rules, rng)
        while not s.is_terminal:
            if s.stack:
                stacks += 1
                for p in range(s.n):
                    assert public_frames(s, p) == reference_frames(s, p)
            legal = nightsim.legal_actions(s)
            apply_legal(s, legal[int(rng.integers(len(legal)))], rng)
    assert stacks > 100


@pytest.mark.parametrize("names", [["random"] * 4, ["greedy"] * 4, ["aggressor", "greedy", "purist", "random"]])
def test_unrecorded_games_have_the_records_of_recorded_ones(names):
    rules = nightsim.Rules(players=4)
    for seed in range(30):
        fast = nightsim.play_game(rules, names, seed)
        recorded = nightsim.play_game(rules, names, seed, record=True)
        assert fast.to_record() == recorded.to_record(), f"seed {seed}"


@pytest.mark.parametrize("weights", [GREEDY, PURIST])
def test_a_shared_warmed_heuristic_chooses_like_fresh_ones(weights):
    rules = nightsim.Rules(players=4)
    shared = HeuristicPolicy(weights, "h")
    for seed in range(40):  # warm the shared object's memo with other games first
        nightsim.play_game(rules, [shared] * 4, 1000 + seed)
    for seed in range(25):
        fresh = [HeuristicPolicy(weights, "h") for _ in range(4)]
        a = nightsim.play_game(rules, [shared] * 4, seed, record=True)
        b = nightsim.play_game(rules, fresh, seed, record=True)
        assert a.to_record() == b.to_record() and a.log == b.log, f"seed {seed}"
    copy = pickle.loads(pickle.dumps(shared))
    assert copy == shared and copy._facts.table is None and copy._facts.infos == {}


def test_a_heuristic_shared_by_threads_plays_the_games_it_plays_alone():
    """The memo is a plain dict shared by every caller of one policy object (joblib's threading
    backend shares POLICIES): concurrent evictions must not change a choice or raise."""
    rules = nightsim.Rules(players=4)
    seeds = range(48)
    alone = [nightsim.play_game(rules, [HeuristicPolicy(GREEDY, "h")] * 4, s).to_record() for s in seeds]
    shared = HeuristicPolicy(GREEDY, "h")
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        with ThreadPoolExecutor(4) as pool:
            together = list(pool.map(lambda s: nightsim.play_game(rules, [shared] * 4, s).to_record(), seeds))
    finally:
        sys.setswitchinterval(interval)
    assert together == alone
