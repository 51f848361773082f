"""The kernel equality harness: a game's batch kernel must give, seed for seed, exactly the records its
engine gives (``play_game(rules, lineup, seed).to_record()``). `compare` plays both and finds the first
difference (and, given the game's ``first_divergence``, the decision where the two games part);
`check_equal` is `compare` as an assertion, for the tests. A kernel is passed as
``play_batch(rules, lineup, seeds) -> records`` (one line-up for every seed). It imports no game."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

MISSING = "<missing>"   # what a difference shows for a field one record does not have


def record_differences(engine: dict, kernel: dict) -> dict:
    """{field: (engine value, kernel value)} for every field whose values differ or that one record
    lacks (`MISSING` on that side): the engine's fields in its order, then the kernel's extra ones."""
    diff = {k: (v, kernel.get(k, MISSING)) for k, v in engine.items() if k not in kernel or kernel[k] != v}
    diff.update({k: (MISSING, v) for k, v in kernel.items() if k not in engine})
    return diff


@dataclass(frozen=True)
class Difference:
    """The first seed whose records differ, and what differs."""

    seed: object
    fields: dict     # field -> (engine value, kernel value)

    def __str__(self) -> str:
        return f"seed {self.seed}: (engine, kernel) differ in {self.fields}"


def first_difference(engine_records, kernel_records, seeds) -> Difference | None:
    """The first seed (in the order of `seeds`) whose engine and kernel records differ, or None.
    ValueError unless there is one record of each per seed."""
    engine_records, kernel_records, seeds = list(engine_records), list(kernel_records), list(seeds)
    if not len(engine_records) == len(kernel_records) == len(seeds):
        raise ValueError(f"{len(engine_records)} engine and {len(kernel_records)} kernel records for "
                         f"{len(seeds)} seeds; give one of each per seed")
    return next((Difference(s, record_differences(a, b))
                 for s, a, b in zip(seeds, engine_records, kernel_records) if a != b), None)


@dataclass(frozen=True)
class Comparison:
    """Engine and kernel over the same seeds: the seeds that differ, the first difference (None:
    none), where its games part (the game's ``first_divergence``, if given), the seconds each took."""

    seeds: tuple
    differing: tuple
    first: Difference | None
    where: object = None
    engine_seconds: float = field(default=0.0, compare=False)
    kernel_seconds: float = field(default=0.0, compare=False)

    def message(self) -> str:
        if self.first is None:
            return f"{len(self.seeds)} seeds, none differ"
        text = f"{len(self.differing)} of {len(self.seeds)} seeds differ; first {self.first}"
        return text + (f"; first divergence: {self.where}" if self.where is not None else "")


def compare(play_game, play_batch, rules, lineup, seeds, divergence=None) -> Comparison:
    """The kernel's records (`play_batch(rules, lineup, seeds)`) against the engine's
    (`play_game(rules, list(lineup), seed).to_record()`), seed for seed. `divergence`: the game's
    ``first_divergence(rules, lineup, seed)``, asked about the first differing seed only."""
    seeds = list(seeds)
    if not seeds:
        raise ValueError("compare: give at least one seed")
    t0 = time.perf_counter()
    kernel = list(play_batch(rules, lineup, seeds))
    t1 = time.perf_counter()
    engine = [play_game(rules, list(lineup), s).to_record() for s in seeds]
    t2 = time.perf_counter()
    first = first_difference(engine, kernel, seeds)
    differing = tuple(s for s, a, b in zip(seeds, engine, kernel) if a != b)
    where = divergence(rules, lineup, first.seed) if first is not None and divergence is not None else None
    return Comparison(tuple(seeds), differing, first, where, engine_seconds=t2 - t1, kernel_seconds=t1 - t0)


def check_equal(play_game, play_batch, rules, lineup, seeds, divergence=None) -> Comparison:
    """`compare`, raising AssertionError (the line-up, the first differing seed, what differs, where
    the games part) unless every record is equal."""
    result = compare(play_game, play_batch, rules, lineup, seeds, divergence)
    if result.first is not None:
        names = [p if isinstance(p, str) else getattr(p, "name", repr(p)) for p in lineup]
        raise AssertionError(f"{names}: {result.message()}")
    return result
