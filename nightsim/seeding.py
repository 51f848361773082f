"""A game's random streams from an int seed, cheaply: the same generators as
`[numpy.random.default_rng(c) for c in numpy.random.SeedSequence(seed).spawn(k)]`.

numpy's `SeedSequence` does its few dozen 32-bit hash steps in compiled code, but every call
around them (each child's `__init__`, `generate_state` under `np.errstate`, array
concatenations) costs microseconds: `spawn(5)` and five `default_rng` calls take ~150 µs, a
tenth of a random 4-player game. `spawn_generators` builds the root `SeedSequence(seed)` only
(one call), then finishes each child's arithmetic on Python ints
(numpy/random/bit_generator.pyx):

- a child's entropy is the seed's words, padded with zeros to the pool size (4 words), then its
  spawn key `(i,)`. `mix_entropy` hashes the first four words into the pool and cross-mixes them
  exactly as for the root, so for a seed below 2**128 the child's pool is the root's `pool` with
  one more word, `i`, mixed into each pool word (hash steps 16 to 19; the hash constant depends
  only on the step, so the hashed `i` is a table, `_KEY_WORDS`);
- `PCG64` asks its seed sequence for `generate_state(4, uint64)`: eight words, each a pool word
  hashed with `generate_state`'s step constants (`_STATE_STEPS`), read as four little-endian
  uint64;
- `Words`, a minimal `ISeedSequence`, hands those words to `PCG64`.

`children_words` does these steps for every child at once on uint32 arrays (a handful of numpy
calls instead of ~60 Python-int operations per child: ~65,000 fewer instructions a game);
`child_words` is the same arithmetic on Python ints, one child at a time (a big-endian machine's path).

The generators are bit-identical to numpy's (`tests/nightsim/test_nightsim_seeding.py` compares
their states for many seeds). A seed of 2**128 or more, or more children than `_KEY_WORDS`
holds, goes through numpy itself. A generator made here cannot `spawn()` (its seed sequence is
a `Words`): `play_game` uses them for chance and for the seats of built-in policies, which
never see them, and gives a seat whose policy is someone else's code numpy's own child.
"""
from __future__ import annotations

import sys

import numpy as np
from numpy.random import PCG64, Generator, SeedSequence
from numpy.random.bit_generator import ISeedSequence

_MASK = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875   # mix_entropy's hash constants
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED   # generate_state's hash constants
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715     # mix(x, y) = L*x - R*y, then x ^= x >> 16
_POOL = 4                                   # SeedSequence's default pool_size (words)
FAST_LIMIT = 2 ** (32 * _POOL)              # seeds below fill at most the pool: the root's pool is shared
MAX_CHILDREN = 8                            # children with a precomputed spawn-key word


def _hash_steps(init: int, mult: int, n: int) -> tuple:
    """The (xor, multiply) constant pairs of the first n hash steps: SeedSequence's running hash
    constant depends on nothing but the number of steps taken."""
    out, h = [], init
    for _ in range(n):
        x = h
        h = h * mult & _MASK
        out.append((x, h))
    return tuple(out)


def _hashed(word: int, step: tuple) -> int:
    x, m = step
    v = (word ^ x) * m & _MASK
    return v ^ (v >> 16)


_MIX_STEPS = _hash_steps(_INIT_A, _MULT_A, 4 * _POOL + _POOL)   # 4 + 12 for the pool, 4 for the key
#: per child index: the key word hashed at steps 16..19, to be mixed into pool words 0..3
_KEY_WORDS = tuple(tuple(_hashed(i, _MIX_STEPS[4 * _POOL + j]) for j in range(_POOL)) for i in range(MAX_CHILDREN))
_STATE_STEPS = _hash_steps(_INIT_B, _MULT_B, 2 * _POOL)   # generate_state(4, uint64): 8 words


class Words(ISeedSequence):
    """A seed sequence that hands a bit generator fixed words: what a SeedSequence's
    `generate_state(4, uint64)` returns, computed beforehand (PCG64 asks for nothing else)."""

    __slots__ = ("words",)

    def __init__(self, words: np.ndarray):
        self.words = words

    def generate_state(self, n_words, dtype=np.uint32):
        if n_words != len(self.words) or np.dtype(dtype) != np.uint64:
            raise ValueError(f"Words holds {len(self.words)} uint64 words; asked for {n_words} {dtype}")
        return self.words


def child_words(pool: list, index: int) -> list:
    """`generate_state(4, uint64)` (as ints) of child `index` of a SeedSequence whose entropy is at
    most 4 words and whose pool is `pool` (as ints)."""
    mask, left, right = _MASK, _MIX_L, _MIX_R
    c0, c1, c2, c3 = pool
    k0, k1, k2, k3 = _KEY_WORDS[index]
    m0 = (left * c0 - right * k0) & mask
    m0 ^= m0 >> 16
    m1 = (left * c1 - right * k1) & mask
    m1 ^= m1 >> 16
    m2 = (left * c2 - right * k2) & mask
    m2 ^= m2 >> 16
    m3 = (left * c3 - right * k3) & mask
    m3 ^= m3 >> 16
    (x0, y0), (x1, y1), (x2, y2), (x3, y3), (x4, y4), (x5, y5), (x6, y6), (x7, y7) = _STATE_STEPS
    w0 = (m0 ^ x0) * y0 & mask
    w1 = (m1 ^ x1) * y1 & mask
    w2 = (m2 ^ x2) * y2 & mask
    w3 = (m3 ^ x3) * y3 & mask
    w4 = (m0 ^ x4) * y4 & mask
    w5 = (m1 ^ x5) * y5 & mask
    w6 = (m2 ^ x6) * y6 & mask
    w7 = (m3 ^ x7) * y7 & mask
    return [(w0 ^ (w0 >> 16)) | (w1 ^ (w1 >> 16)) << 32, (w2 ^ (w2 >> 16)) | (w3 ^ (w3 >> 16)) << 32,
            (w4 ^ (w4 >> 16)) | (w5 ^ (w5 >> 16)) << 32, (w6 ^ (w6 >> 16)) | (w7 ^ (w7 >> 16)) << 32]


_U32 = np.uint32
_KEY_PRODUCTS = np.array([[_MIX_R * w & _MASK for w in row] for row in _KEY_WORDS], dtype=_U32)  # R * key word
_STATE_X = np.array([x for x, _ in _STATE_STEPS], dtype=_U32)
_STATE_Y = np.array([y for _, y in _STATE_STEPS], dtype=_U32)
_LITTLE_ENDIAN = sys.byteorder == "little"


def children_words(pool: np.ndarray, k: int) -> np.ndarray:
    """`child_words(pool, i)` of children 0..k-1 at once, as a (k, 4) uint64 array, from the root's
    `pool` (uint32): the same hash steps on uint32 arrays, whose arithmetic wraps mod 2**32 as the
    `& mask` does; each uint64 is two uint32 words, the first the low half (little-endian memory),
    as numpy's `generate_state` reads its uint32 words."""
    m = pool * _U32(_MIX_L) - _KEY_PRODUCTS[:k]
    m ^= m >> _U32(16)
    w = (np.concatenate((m, m), axis=1) ^ _STATE_X) * _STATE_Y  # word j hashes pool word j % 4 (C order)
    w ^= w >> _U32(16)
    return w.view(np.uint64)


def spawn_generators(seed: int, k: int) -> list:
    """`[default_rng(c) for c in SeedSequence(seed).spawn(k)]` for an int seed >= 0: the same
    streams (numpy's own generators for a seed of FAST_LIMIT or more, or more than MAX_CHILDREN)."""
    root = SeedSequence(seed)
    if seed >= FAST_LIMIT or k > MAX_CHILDREN:
        return [np.random.default_rng(c) for c in root.spawn(k)]
    if not _LITTLE_ENDIAN:
        pool, u64 = root.pool.tolist(), np.uint64
        return [Generator(PCG64(Words(np.array(child_words(pool, i), dtype=u64)))) for i in range(k)]
    return [Generator(PCG64(Words(words))) for words in children_words(root.pool, k)]
