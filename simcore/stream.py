"""The random stream every engine draws from, defined so that a numba kernel can draw the very same
numbers (`simcore.stream_kernel` is its compiled twin, number for number).

A game's integer seed gives `k` independent streams (stream 0 for chance, streams 1.. for the seats,
by each game's convention). Each stream is SplitMix64 (Steele, Lea and Flood, "Fast splittable
pseudorandom number generators", OOPSLA 2014): the state advances by the golden gamma and the output
is the state passed through the variant-13 finaliser. SplitMix64 passes BigCrush, costs one addition
and five integer operations a number, and is a pure function of (seed, stream, position), which is
what lets the Python engine and the compiled kernel agree bit for bit without sharing a library.

- stream i of seed s starts at ``mix(mix(s ^ M2) + (i + 1) * GAMMA)`` (mod 2**64);
- ``next64``: ``state += GAMMA``; return ``mix(state)``;
- ``below(n)``: ``((next64 >> 11) * n) >> 53``, a uniform integer in ``[0, n)`` for ``1 <= n <= 2048``
  (the 53-bit fraction times n; the bias is below n / 2**53, and the product fits 64 bits, so the
  kernel computes it in uint64 exactly as Python does with its integers);
- ``random()``: ``(next64 >> 11) / 2**53``, a float in ``[0, 1)``;
- ``shuffle``: Fisher-Yates from the top, ``for i = n-1 .. 1: swap(i, below(i + 1))``.

`Stream` also answers the few `numpy.random.Generator` calls a policy makes (`integers`, `random`,
`choice`, `shuffle`, `permutation`), so a user's policy written against a Generator keeps working.
"""
from __future__ import annotations

import numpy as np

GAMMA = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB
MASK = (1 << 64) - 1
MAX_BELOW = 1 << 11            # below(n) is exact for n up to this (53 + 11 bits fit a uint64)
MAX_SEED = 1 << 64
_TWO_M53 = 1.0 / 9007199254740992.0


def mix(z: int) -> int:
    """SplitMix64's finaliser (variant 13) of a 64-bit integer."""
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def seed_int(seed) -> int:
    """A game's seed as the 64-bit integer its streams start from: an int in [0, 2**64) as it is; a
    `numpy.random.SeedSequence` through its first 64-bit word of state. ValueError for anything else."""
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, np.uint64)[0])
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < MAX_SEED:
        raise ValueError(f"seed must be an integer in 0..2**64-1 or a numpy SeedSequence, got {seed!r}")
    return int(seed)


def stream_state(seed: int, i: int) -> int:
    """The starting state of stream i of an integer seed."""
    base = mix((seed ^ M2) & MASK)
    return mix((base + (i + 1) * GAMMA) & MASK)


class Stream:
    """One SplitMix64 stream (see the module docstring for the exact definition)."""

    __slots__ = ("state", "draws")

    def __init__(self, state: int):
        self.state = state & MASK
        self.draws = 0

    @classmethod
    def of(cls, seed, i: int) -> Stream:
        """Stream i of a seed (an int or a SeedSequence, as `seed_int` reads it)."""
        return cls(stream_state(seed_int(seed), i))

    def next64(self) -> int:
        z = self.state = (self.state + GAMMA) & MASK
        self.draws += 1
        z = ((z ^ (z >> 30)) * M1) & MASK
        z = ((z ^ (z >> 27)) * M2) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), 1 <= n <= 2048."""
        if not 1 <= n <= MAX_BELOW:
            raise ValueError(f"Stream.below: n must be in 1..{MAX_BELOW}, got {n}")
        return ((self.next64() >> 11) * n) >> 53

    def random(self, size=None):
        """A float in [0, 1) (or an array of `size` of them, drawn in order)."""
        if size is None:
            return (self.next64() >> 11) * _TWO_M53
        return np.array([(self.next64() >> 11) * _TWO_M53 for _ in range(int(np.prod(size)))]).reshape(size)

    def shuffle(self, seq) -> None:
        """Fisher-Yates in place, from the top."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def permutation(self, x):
        """A shuffled copy of a sequence (a list for a list, an array otherwise), or of range(x)."""
        if isinstance(x, (int, np.integer)):
            out = list(range(int(x)))
            self.shuffle(out)
            return np.array(out)
        out = list(x)
        self.shuffle(out)
        return out if isinstance(x, list) else np.array(out)

    def integers(self, low, high=None):
        """`Generator.integers(low, high)` for one value: uniform in [low, high) (or [0, low)). A range
        of up to 2048 values is one `below`; a wider one (up to 2**64, e.g. a search's sub-seed drawn
        with `integers(2**63)`) is `next64() % span` (exact for a power of two, else biased by under
        span / 2**64)."""
        if high is None:
            low, high = 0, low
        span = int(high) - int(low)
        if span <= MAX_BELOW:
            return int(low) + self.below(span)
        if span > MAX_SEED:
            raise ValueError(f"Stream.integers: at most 2**64 values, got {span}")
        return int(low) + self.next64() % span

    def choice(self, seq):
        """One element of a non-empty sequence, uniformly."""
        return seq[self.below(len(seq))]


def streams(seed, k: int) -> list[Stream]:
    """Streams 0..k-1 of a seed."""
    s = seed_int(seed)
    return [Stream(stream_state(s, i)) for i in range(k)]


def chance_stream(seed):
    """The stream chance draws from: a `Stream` (or a numpy Generator) as given; for an int or a
    SeedSequence its stream 0, the chance stream `play_game` and the kernels deal and draw from."""
    if isinstance(seed, (Stream, np.random.Generator)):
        return seed
    if seed is None:   # no hidden entropy: the protocol promises the same game for the same seed
        raise ValueError("seed/rng is None: give an int, a numpy SeedSequence, a simcore Stream or a numpy Generator "
                         "(games are deterministic)")
    return Stream.of(seed, 0)
