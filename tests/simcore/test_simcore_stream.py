"""The shared random stream: the Python stream and its compiled twin draw the same numbers, and the
numbers are what the definition says (SplitMix64's published outputs, uniform integers, shuffles)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from simcore import stream_kernel as K
from simcore.stream import MASK, Stream, mix, seed_int, stream_state, streams


def _bits(x: float) -> int:
    return int(np.float64(x).view(np.uint64))


def test_splitmix64_gives_the_reference_outputs():
    # Vigna's splitmix64.c seeded with 0 (x += gamma; finalise): the first outputs
    s = Stream(0)
    assert [s.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, MASK), stream=st.integers(0, 7), ns=st.lists(st.integers(1, 2048), min_size=1, max_size=40))
def test_the_kernel_draws_what_the_python_stream_draws(seed, stream, ns):
    py = Stream(stream_state(seed, stream))
    rs = np.zeros(8, np.uint64)
    K.seed_streams(rs, np.uint64(seed))
    assert int(rs[stream]) == py.state
    for n in ns:
        assert K.below(rs, stream, n) == py.below(n)
        assert _bits(K.random(rs, stream)) == _bits(py.random())   # the same float, bit for bit
    arr = np.arange(30, dtype=np.int64)
    lst = list(range(30))
    K.shuffle(arr, 0, 30, rs, stream)
    py.shuffle(lst)
    assert arr.tolist() == lst


def test_below_is_uniform():
    s = Stream.of(12345, 0)
    draws = [s.below(6) for _ in range(60_000)]
    counts = np.bincount(draws, minlength=6)
    assert stats.chisquare(counts).pvalue > 1e-4
    assert s.draws == 60_000


def test_a_shuffle_is_a_uniform_permutation_of_its_items():
    s = Stream.of(7, 1)
    firsts = np.zeros(4, int)
    for _ in range(20_000):
        lst = [0, 1, 2, 3]
        s.shuffle(lst)
        assert sorted(lst) == [0, 1, 2, 3]
        firsts[lst[0]] += 1
    assert stats.chisquare(firsts).pvalue > 1e-4


def test_streams_of_one_seed_differ_and_a_seed_sequence_maps_to_one_int():
    a, b = streams(99, 2)
    assert [a.next64() for _ in range(5)] != [b.next64() for _ in range(5)]
    ss = np.random.SeedSequence(2024)
    assert seed_int(ss) == seed_int(np.random.SeedSequence(2024))
    assert Stream.of(ss, 0).next64() == Stream.of(seed_int(ss), 0).next64()


@pytest.mark.parametrize("bad", [-1, 1 << 64, 1.5, "3", True, None])
def test_a_bad_seed_is_refused(bad):
    with pytest.raises(ValueError, match="seed must be"):
        seed_int(bad)


def test_below_refuses_a_range_it_cannot_draw_exactly():
    with pytest.raises(ValueError, match="1..2048"):
        Stream(1).below(4096)


def test_generator_style_calls_draw_from_the_stream():
    s, t = Stream(5), Stream(5)
    assert s.integers(3, 9) == 3 + t.below(6)
    assert s.integers(2 ** 63) == t.next64() % 2 ** 63   # a wide range (a search's sub-seed): one 64-bit draw
    assert s.integers(5, 5 + 2 ** 64) == 5 + t.next64()
    with pytest.raises(ValueError, match="at most 2\\*\\*64"):
        s.integers(2 ** 64 + 1)
    assert s.choice("abc") == "abc"[t.below(3)]
    assert _bits(s.random()) == _bits(t.random())
    assert mix(0) == 0
