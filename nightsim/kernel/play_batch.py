"""Batch kernel: whole Nightmarium games compiled with numba, many games per call.

    from nightsim.kernel.play_batch import KERNEL
    KERNEL.supports(rules, ["greedy", "random"])            # -> True
    records = KERNEL.play_batch(rules, [("greedy", "random")] * 3, [11, 12, 13])

The kernel implements the same rules as the Python engine (`nightsim/engine/engine.py`, the
reference) and draws the same random numbers: for the same int seed, lineup and rules,
`play_batch` gives exactly the records `play_game(rules, lineup, seed).to_record()` gives
(tests/nightsim/test_nightsim_kernel_equality.py; `benchmarks/tools/kernel_equality.py` checks many
more seeds). A game's outcome is a function of (rules, seat policies, seed) alone, independent
of batching.

Coverage: every `Rules` field except the Legions of Horrors expansion (`seals=True`); the
seal-only fields are ignored without seals, since no seal exists. Policies: `RandomPolicy`
and `HeuristicPolicy` with any `Weights` (`random`, `greedy`, `heuristic`, `purist`,
`aggressor` and swept weights). Anything else is refused (`refusal` says why), so
`analyses.simulate(engine="auto")` falls back to the Python engine.

Randomness: each game's int seed gives the SplitMix64 streams of `simcore.stream` (the compiled
twin `simcore.stream_kernel`): stream 0 for chance (the deal, reshuffles) and stream 1 + seat for
that seat's policy (a random seat's `below(len(legal))`, a heuristic's `below(len(tied))` on a
tie), as in `play_game`, so the seats of a rotated deal get the same cards whatever the policies.
"""
from __future__ import annotations

import dataclasses
import time

import numpy as np

from simcore.stream import MAX_BELOW

from ..engine.cards import ABILITIES, HEAD, LEGIONS, LEGS, TORSO
from ..engine.engine import STAT_NAMES
from ..game import policy_name
from ..policies.heuristic import POLICIES, HeuristicPolicy, RandomPolicy, Weights
from ..rules import Rules

STAT_COLUMNS = (*STAT_NAMES, *(f"ability_{a.lower()}" for a in ABILITIES),
                *(f"played_{lg.lower()}" for lg in LEGIONS))
WEIGHT_FIELDS = tuple(f.name for f in dataclasses.fields(Weights))
MAX_SEED = 2 ** 64
#: the Rules fields the kernel plays (`tables` reads each; `cards` through the card table)
PLAYED_FIELDS = ("players", "hand_size", "actions_per_turn", "creatures_to_win", "creature_limit", "max_turns",
                 "penalty_timing", "win_timing", "scavenger_optional", "min_discard", "last_seat_extra_cards",
                 "first_turn_fewer_actions", "reduced_first_turn_seats", "cards")
#: the fields of the seals expansion: `seals=True` is refused, and without seals the others change nothing
SEAL_FIELDS = ("seals", "seals_per_legion", "seal_reactivation_optional", "seal_target", "immunity",
               "seal_counts_as_play", "herald_plays_seals", "mocker_plays_seals")
LIMITS = {"creature_limit": 8, "cards": 256}   # = core.LM, NCM (checked when the core loads)


def _core():
    # numba takes ~0.5 s to import: loaded on the first batch, so importing nightsim (and every
    # analyses worker that never plays a kernel game) stays cheap.
    from . import core  # noqa: PLC0415
    assert (core.LM, core.NCM) == (LIMITS["creature_limit"], LIMITS["cards"])
    assert core.W_EXTRAS == len(WEIGHT_FIELDS) == core.N_WEIGHTS - 1   # Weights fields, then the switch
    assert (core.LEGS, core.TORSO, core.HEAD, core.CR_CARDS) == (LEGS, TORSO, HEAD, 3)
    assert core.MAX_DRAW == MAX_BELOW
    return core


def _play():
    # the compiled policies and game loop (numba, loaded on first use like _core)
    from . import play  # noqa: PLC0415
    return play


def _policy(entry):
    """A seat's policy object (a registered name becomes its POLICIES entry), or None if unknown."""
    if isinstance(entry, str):
        return POLICIES.get(entry)
    return entry


def refusal(rules, policies) -> str | None:
    """Why the kernel cannot play these rules with these policies, or None if it can."""
    if not isinstance(rules, Rules):
        return f"rules must be a nightsim.Rules, got {type(rules).__name__}"
    if rules.seals:
        return "the kernel does not implement the Legions of Horrors expansion (Rules.seals=True)"
    for f in dataclasses.fields(rules):   # a field added to Rules after the kernel: played only at its default
        if f.name not in PLAYED_FIELDS and f.name not in SEAL_FIELDS and getattr(rules, f.name) != f.default:
            return f"the kernel does not implement Rules.{f.name} (={getattr(rules, f.name)!r}; it plays only {f.default!r})"
    if rules.limit > LIMITS["creature_limit"]:
        return f"the kernel plays at most {LIMITS['creature_limit']} creatures per seat (Rules.limit={rules.limit})"
    if len(rules.table.cards) > LIMITS["cards"]:
        return f"the kernel plays decks of at most {LIMITS['cards']} cards (this deck has {len(rules.table.cards)})"
    for entry in policies:
        p = _policy(entry)
        if type(p) is RandomPolicy or type(p) is HeuristicPolicy:
            continue
        return (f"policy {entry!r} has no kernel (the kernel plays RandomPolicy and HeuristicPolicy: "
                f"{', '.join(sorted(POLICIES))})")
    return None


def supports(rules, policies) -> bool:
    """Whether the kernel plays these rules with every one of these policies."""
    return refusal(rules, policies) is None


def tables(rules: Rules) -> np.ndarray:
    """The card table and rule parameters as the kernel's `tb` array (core's layout)."""
    core = _core()
    t = rules.table
    tb = np.zeros(core.TB_SIZE, np.int64)
    n = len(t.cards)
    tb[core.LEGION:core.LEGION + n] = t.legion
    tb[core.ABILITY:core.ABILITY + n] = t.ability
    tb[core.FITS:core.FITS + 3 * n] = np.asarray(t.fits, np.int64).reshape(-1)
    prm = {core.P_PLAYERS: rules.players, core.P_HAND: rules.hand_size, core.P_APT: rules.actions_per_turn,
           core.P_TO_WIN: rules.creatures_to_win, core.P_LIMIT: rules.limit, core.P_MAX_TURNS: rules.max_turns,
           core.P_PEN_BEFORE: rules.penalty_timing == "before_abilities",
           core.P_WIN_IMMEDIATE: rules.win_timing == "immediate", core.P_SCAV_OPT: rules.scavenger_optional,
           core.P_MIN_DISCARD: rules.min_discard, core.P_EXTRA_LAST: rules.last_seat_extra_cards,
           core.P_FEWER_FIRST: rules.first_turn_fewer_actions,
           core.P_FEWER_SEATS: rules.reduced_first_turn_seats, core.P_CARDS: n}
    for index, value in prm.items():
        tb[core.PRM + index] = int(value)
    return tb


def policy_row(policy):
    """(kind, weights) of a supported policy object."""
    core = _core()
    if type(policy) is RandomPolicy:
        return core.POL_RANDOM, np.zeros(core.N_WEIGHTS)
    row = np.zeros(core.N_WEIGHTS)
    row[:len(WEIGHT_FIELDS)] = [float(getattr(policy.weights, f)) for f in WEIGHT_FIELDS]
    row[core.W_EXTRAS] = float(policy.weights.extras())   # the context features' switch
    return core.POL_HEURISTIC, row


def _seed_array(seeds: list) -> np.ndarray:
    """The seeds as uint64; ValueError naming the first that is not an integer in 0..2**64-1."""
    types = set(map(type, seeds))
    if all(t is int or issubclass(t, np.integer) for t in types) and (
            not seeds or (min(seeds) >= 0 and max(seeds) < MAX_SEED)):
        return np.array(seeds, np.uint64)   # the common case, checked without a loop in Python
    for seed in seeds:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < MAX_SEED:
            raise ValueError(f"nightsim kernel: seed must be an integer in 0..2**64-1, got {seed!r}")
    return np.array([int(s) for s in seeds], np.uint64)   # int subclasses the fast path leaves to this loop


def _distinct(lineups: list) -> tuple[list, np.ndarray]:
    """The distinct lineup objects (by identity: a batch repeats a few) and each game's index among them."""
    ids = list(map(id, lineups))
    objects = dict(zip(ids, lineups))   # every object stays alive in `lineups` meanwhile
    position = {key: j for j, key in enumerate(objects)}
    return list(objects.values()), np.fromiter(map(position.__getitem__, ids), np.int64, len(ids))


def _check(rules, lineups, distinct, seeds):
    reason = refusal(rules, list({id(e): e for lineup in distinct for e in lineup}.values()))
    if reason:
        raise ValueError(f"nightsim kernel: {reason}. Reproduce with nightsim.kernel.play_batch.refusal(rules, policies)")
    if len(lineups) != len(seeds):
        raise ValueError(f"nightsim kernel: {len(lineups)} lineups for {len(seeds)} seeds; give one per game")
    for lineup in distinct:
        if len(lineup) != rules.players:
            raise ValueError(f"nightsim kernel: lineup {tuple(lineup)!r} has {len(lineup)} seats for "
                             f"{rules.players} players")
    return _seed_array(seeds)


def _games(rules: Rules, lineups, seeds) -> tuple[dict, list, np.ndarray]:
    """play_arrays' arrays, and the distinct lineups with each game's index among them (play_columns)."""
    lineups, seeds = list(lineups), list(seeds)
    distinct, game_lineup = _distinct(lineups)
    seed_array = _check(rules, lineups, distinct, seeds)
    core = _core()
    objects, rows, kinds, weights = {}, [], [], []
    # each distinct lineup's policy rows, by the identity of its entries: hashing a
    # HeuristicPolicy's Weights (30 floats) for every seat of every game cost ~20% of a greedy batch
    rows_of_entries = {}
    for lineup in distinct:
        entries = tuple(map(id, lineup))
        row = rows_of_entries.get(entries)
        if row is None:
            row = []
            for entry in lineup:
                p = _policy(entry)
                key = (type(p), getattr(p, "weights", None))
                if key not in objects:
                    objects[key] = len(kinds)
                    kind, w = policy_row(p)
                    kinds.append(kind)
                    weights.append(w)
                row.append(objects[key])
            rows_of_entries[entries] = row
        rows.append(row)
    n, players = len(seeds), rules.players
    play = _play()
    st, rs, acts, ties = play.new_buffers()
    out_game = np.zeros((n, core.N_OUT), np.int64)
    out_score = np.zeros((n, players), np.int64)
    out_stats = np.zeros((n, players, core.N_STATS), np.int64)
    seat_pol = np.array(rows, np.int64).reshape(len(rows), players)[game_lineup]
    play.play_games(st, tables(rules), rs, acts, ties, np.zeros(players, np.int64),
                    np.zeros((players, core.N_WEIGHTS)), seed_array,
                    np.array(kinds, np.int64), np.array(weights, np.float64).reshape(len(kinds), core.N_WEIGHTS),
                    seat_pol, out_game, out_score, out_stats)
    arrays = {"winner": out_game[:, core.OUT_WINNER], "turns": out_game[:, core.OUT_TURNS],
              "decisions": out_game[:, core.OUT_DECISIONS],
              "timed_out": out_game[:, core.OUT_TIMED_OUT].astype(bool), "score": out_score, "stats": out_stats}
    return arrays, distinct, game_lineup


def play_arrays(rules: Rules, lineups, seeds) -> dict:
    """Play game i with seat policies `lineups[i]` and int seed `seeds[i]`; per-game arrays:

    winner (-1: none), turns (played, the winning turn included), decisions, timed_out (bool),
    score (games x seats: complete creatures), stats (games x seats x STAT_COLUMNS).
    """
    return _games(rules, lineups, seeds)[0]


def play_columns(rules: Rules, lineups, seeds) -> dict:
    """The games as columns named and ordered like `GameResult.to_record()`: numpy arrays, except
    `winner` (a list, None for no winner) and the `seat{i}_policy` names (lists)."""
    arrays, distinct, game_lineup = _games(rules, lineups, seeds)
    names = np.empty((len(distinct), rules.players), object)
    for j, lineup in enumerate(distinct):
        names[j] = [policy_name(_policy(e)) for e in lineup]
    winner = arrays["winner"].astype(object)
    winner[arrays["winner"] < 0] = None
    columns = {"winner": winner.tolist(), "turns": arrays["turns"],
               "decisions": arrays["decisions"], "timed_out": arrays["timed_out"]}
    for p in range(rules.players):
        columns[f"seat{p}_policy"] = names[game_lineup, p].tolist()
        columns[f"seat{p}_score"] = arrays["score"][:, p]
    for j, stat in enumerate(STAT_COLUMNS):
        for p in range(rules.players):
            columns[f"seat{p}_{stat}"] = arrays["stats"][:, p, j]
    return columns


def play_batch(rules: Rules, lineups, seeds) -> list[dict]:
    """One `GameResult.to_record()`-shaped row per game (same keys, same order, plain Python values)."""
    columns = {k: v if isinstance(v, list) else v.tolist() for k, v in play_columns(rules, lineups, seeds).items()}
    return [dict(zip(columns, row)) for row in zip(*columns.values())]


#: about how many 4-player games the Python engine plays while the kernel compiles (~40 CPU s against
#: ~350-400 games a CPU second, quiet 2-core machine, default rules, random or greedy seats): both scale
#: with the machine, so the ratio travels; `analyses` plays a shorter run of an uncompiled kernel in Python
COMPILE_COST_GAMES = 15_000
#: line-ups whose first batches together compile the whole kernel (one compiled loop plays every policy)
WARM_LINEUPS = (("random", "random"),)


def compiled(rules=None, policies=None) -> bool:
    """True when numba's cache holds the kernel's compiled game loop, so a batch loads it and compiles
    nothing (one loop plays every rules set and line-up the kernel supports)."""
    from simcore.kernel_cache import is_cached  # noqa: PLC0415  (numba loads with the kernel, as in _core)
    return is_cached(_play().play_games)


def warm_up(policies=("random", "random")) -> float:
    """Compile (or load from numba's cache) the kernel and play one short game; the seconds it took."""
    t0 = time.perf_counter()
    play_arrays(Rules(players=len(policies), max_turns=2), [tuple(policies)], [0])
    return time.perf_counter() - t0


class Kernel:
    """The hook `analyses` looks for (`nightsim.KERNEL`; docs/GAME_PROTOCOL.md)."""

    name = "nightsim.kernel.play_batch"
    warm_lineups = WARM_LINEUPS

    @staticmethod
    def compiled(rules, policies) -> bool:
        return compiled(rules, policies)

    @staticmethod
    def compile_cost_games(rules, policies) -> int:
        return COMPILE_COST_GAMES

    @staticmethod
    def warm_up(policies=("random", "random")) -> float:
        return warm_up(policies)

    @staticmethod
    def supports(rules, policies) -> bool:
        return supports(rules, policies)

    @staticmethod
    def refusal(rules, policies) -> str | None:
        return refusal(rules, policies)

    @staticmethod
    def play_batch(rules, lineups, seeds) -> list[dict]:
        return play_batch(rules, lineups, seeds)

    @staticmethod
    def play_columns(rules, lineups, seeds) -> dict:
        return play_columns(rules, lineups, seeds)

    def __repr__(self):
        return "nightsim.KERNEL"


KERNEL = Kernel()
