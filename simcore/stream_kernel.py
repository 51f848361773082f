"""The compiled twin of `simcore.stream` (numba): the same SplitMix64 streams, number for number.
A kernel keeps its streams' states in a uint64 array `rs` (one entry per stream) and passes the
stream's index. A game's kernel that calls these lists this file among its cache's source files, so
an edit here recompiles it."""
from __future__ import annotations

import numpy as np

from simcore.kernel_cache import njit

GAMMA = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
_U11, _U27, _U30, _U31, _U53 = np.uint64(11), np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(53)
_TWO_M53 = 1.0 / 9007199254740992.0


@njit(cache=True, _nrt=False, error_model="numpy")
def mix(z):
    z = (z ^ (z >> _U30)) * M1
    z = (z ^ (z >> _U27)) * M2
    return z ^ (z >> _U31)


@njit(cache=True, _nrt=False, error_model="numpy")
def seed_streams(rs, seed):
    """rs[i] = the starting state of stream i of `seed` (simcore.stream.stream_state)."""
    base = mix(np.uint64(seed) ^ M2)
    for i in range(rs.shape[0]):
        rs[i] = mix(base + np.uint64(i + 1) * GAMMA)


@njit(cache=True, _nrt=False, error_model="numpy")
def next64(rs, i):
    z = rs[i] + GAMMA
    rs[i] = z
    return mix(z)


@njit(cache=True, _nrt=False, error_model="numpy")
def below(rs, i, n):
    """A uniform integer in [0, n) from stream i, 1 <= n <= 2048 (Stream.below)."""
    return np.int64(((next64(rs, i) >> _U11) * np.uint64(n)) >> _U53)


@njit(cache=True, _nrt=False, error_model="numpy")
def random(rs, i):
    """A float in [0, 1) from stream i (Stream.random)."""
    return np.float64(next64(rs, i) >> _U11) * _TWO_M53


@njit(cache=True, _nrt=False, error_model="numpy")
def shuffle(a, off, n, rs, i):
    """Fisher-Yates from the top on a[off:off+n] with stream i (Stream.shuffle)."""
    for k in range(n - 1, 0, -1):
        j = below(rs, i, k + 1)
        t = a[off + k]
        a[off + k] = a[off + j]
        a[off + j] = t
