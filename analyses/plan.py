"""What game number `i` of a run is: its deal, its seat lineup and its seed.

Game `i` is a pure function of (run seed, i), never of how games are chunked or spread over
workers, so a run is a prefix of one infinite, reproducible sequence of games.

Seat orders:
- ``"fixed"``: every game uses the lineup as given.
- ``"rotate"``: game `i` is rotation `i % k` of deal `i // k`, where `k` is the number of
  distinct rotations of the lineup (`players` for distinct policies, 1 when every seat plays
  the same policy: identical rotations would replay the same game). Policies are the same
  when the policy objects have equal parameters (`policy_key`), whatever they are called: a
  registered name counts as its object, so nightsim's `heuristic` (an alias of `greedy`)
  with three `greedy` seats is one seating, played once per deal. Rotation `r` moves the
  policy of base seat `s` to seat `(s + r) % players`. All rotations of a deal share one game
  seed (paired games), so every policy meets the same luck in every seat.
- ``"random"``: each game shuffles the lineup with its own generator.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .games import load_game
from .options import SEAT_ORDERS

_SEED_STREAM, _SHUFFLE_STREAM = 0, 1


@dataclass(frozen=True)
class RunSpec:
    """Everything a worker needs to play any game of a run; plain, picklable values."""

    game: str          # importable module name of the game
    rules: object      # the game's Rules instance
    lineup: tuple      # base policy per seat: names from POLICIES or policy objects
    seed: int
    seat_order: str = "rotate"
    engine: str = "python"   # which engine plays the games: "python" (play_game) or "kernel" (game.KERNEL)
    engine_fallback: str | None = None   # why engine='auto' plays Python (the kernel's refusal), else None

    def __post_init__(self):
        if self.engine not in ("python", "kernel"):
            raise ValueError(f"engine must be 'python' or 'kernel' once resolved, got {self.engine!r}")
        if self.seat_order not in SEAT_ORDERS:
            raise ValueError(f"seat_order must be one of {', '.join(SEAT_ORDERS)}, got {self.seat_order!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")

    @cached_property
    def rotations(self) -> int:
        """Games per deal: the number of distinct rotations of the lineup under 'rotate', else 1."""
        if self.seat_order != "rotate":
            return 1
        return distinct_rotations(tuple(policy_key(p) for p in policy_objects(self.game, self.lineup)))

    def deal(self, index: int) -> int:
        """The deal (seed group) that game `index` belongs to."""
        return index // self.rotations

    def seats(self, index: int) -> tuple:
        """The policy entry in each seat for game `index`."""
        lineup = self.lineup
        if self.seat_order == "fixed":
            return lineup
        if self.seat_order == "rotate":
            r = index % self.rotations
            return lineup[-r:] + lineup[:-r] if r else lineup
        rng = np.random.default_rng(np.random.SeedSequence(int(self.seed), spawn_key=(index, _SHUFFLE_STREAM)))
        return tuple(lineup[j] for j in rng.permutation(len(lineup)))

    def game_seed(self, index: int) -> int:
        """The int seed `play_game` gets for game `index` (63 bits, so it fits an int64 column)."""
        return deal_seed(int(self.seed), self.deal(index))


def deal_seed(seed: int, deal: int) -> int:
    """Seed of deal `deal`: derived from (seed, deal) alone with numpy's SeedSequence."""
    sequence = np.random.SeedSequence(seed, spawn_key=(deal, _SEED_STREAM))
    return int(sequence.generate_state(1, np.uint64)[0] >> np.uint64(1))


# numpy's SeedSequence constants (numpy/random/bit_generator.pyx): its hash of the entropy words into a
# pool of 4 words, and the hash of the pool into the state words
_POOL = 4
_INIT_A, _MULT_A = np.uint32(0x43B0D7E5), np.uint32(0x931E8875)
_INIT_B, _MULT_B = np.uint32(0x8B51F9DD), np.uint32(0x58F38DED)
_MIX_L, _MIX_R = np.uint32(0xCA01F9DD), np.uint32(0x4973F715)
_SHIFT = np.uint32(16)
_WORD = 0xFFFFFFFF


def deal_seeds(seed: int, deals) -> np.ndarray:
    """`deal_seed(seed, d)` for every deal `d` of `deals`, as an int64 array: numpy's SeedSequence
    computed on whole arrays of deals (one SeedSequence object per deal costs ~10 us, more than a
    kernel game). Deals of 2**32 and beyond (a spawn key of two words) take `deal_seed` one by one;
    tests/analyses/test_analyses_engine.py checks both against SeedSequence itself."""
    deals = np.asarray(deals, dtype=np.int64)
    if len(deals) and (int(deals.min()) < 0 or int(deals.max()) > _WORD):
        return np.array([deal_seed(int(seed), int(d)) for d in deals], dtype=np.int64)
    run, rest = [], int(seed)
    while True:   # the seed's 32-bit words, least significant first, padded to the pool (a spawn key follows)
        run.append(rest & _WORD)
        rest >>= 32
        if not rest:
            break
    run += [0] * (_POOL - len(run))
    n = len(deals)
    entropy = [np.full(n, w, np.uint32) for w in run] + [deals.astype(np.uint32), np.full(n, _SEED_STREAM, np.uint32)]
    hash_const = [_INIT_A]

    def hashmix(value):
        value = value ^ hash_const[0]
        hash_const[0] = hash_const[0] * _MULT_A
        value = value * hash_const[0]
        return value ^ (value >> _SHIFT)

    def mix(x, y):
        result = _MIX_L * x - _MIX_R * y
        return result ^ (result >> _SHIFT)

    with np.errstate(over="ignore"):   # uint32 arithmetic wraps, as in SeedSequence
        pool = [hashmix(entropy[i]) for i in range(_POOL)]
        for src in range(_POOL):
            for dst in range(_POOL):
                if src != dst:
                    pool[dst] = mix(pool[dst], hashmix(pool[src]))
        for src in range(_POOL, len(entropy)):
            for dst in range(_POOL):
                pool[dst] = mix(pool[dst], hashmix(entropy[src]))
        state, const = [], _INIT_B
        for i in range(2):   # generate_state(1, uint64): two 32-bit words, low word first
            value = pool[i] ^ const
            const = const * _MULT_B
            value = value * const
            state.append((value ^ (value >> _SHIFT)).astype(np.uint64))
    return ((state[0] | (state[1] << np.uint64(32))) >> np.uint64(1)).astype(np.int64)


def policy_objects(game: str, lineup: tuple) -> tuple:
    """The policy object of each seat (a registered name becomes the game's POLICIES entry)."""
    if not any(isinstance(entry, str) for entry in lineup):
        return tuple(lineup)
    registered = load_game(game).POLICIES
    return tuple(registered[entry] if isinstance(entry, str) else entry for entry in lineup)


def policy_key(policy):
    """What makes two policies play alike: a dataclass policy's fields except a `name` label
    (its type and parameters), any other policy object itself (its own `==`)."""
    if dataclasses.is_dataclass(policy) and not isinstance(policy, type):
        return (type(policy), tuple((f.name, getattr(policy, f.name)) for f in dataclasses.fields(policy)
                                    if f.name != "name"))
    return policy


def distinct_rotations(lineup: tuple) -> int:
    """Smallest k >= 1 such that rotating `lineup` by k seats gives an equal lineup (seat by seat `==`)."""
    n = len(lineup)
    for k in range(1, n):
        if n % k == 0 and lineup[k:] + lineup[:k] == lineup:
            return k
    return n
