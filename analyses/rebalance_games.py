"""How a re-balancing search plays its games (`analyses.rebalance_search`): `_Runner` plays every
candidate through `analyses.simulate` with common random numbers (rung segment k on seed stream k
of the search seed, the same for every candidate), keeps a candidate's frames so a promoted
candidate plays only the games it lacks, and, with a store, saves every segment and every
confirmation chunk on disk so a resumed search or confirmation replays none. `fresh_seed` is the
confirmation's seed, a stream no search rung uses (`analyses.tune` uses it too).
"""
from __future__ import annotations

import hashlib
import inspect
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from .io import read_results, write_results
from .runner import simulate

FRAMES_DIR = "games"      # with a store, every search segment's games are saved here, so a resume replays none
CONFIRM_CHUNK = 1000      # with a store, the confirmation is played and saved in chunks of this many games
_CONFIRM_STREAM = 0xC0F1


def fresh_seed(seed: int) -> int:
    """A confirmation seed no search rung uses (a different SeedSequence stream of `seed`)."""
    state = np.random.SeedSequence([int(seed), _CONFIRM_STREAM]).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))


def _tag(values: dict) -> str:
    """The knob values of a candidate as text (part of its cache key)."""
    return json.dumps({k: _json(v) if hasattr(v, "item") else v for k, v in sorted(values.items())}, default=str)


def _json(value):
    return value.item() if hasattr(value, "item") else str(value)


class _Runner:
    """Plays candidates through `analyses.simulate`: rung segment k uses seed stream k of the search
    seed (the same for every candidate: common random numbers), and a candidate's frames are kept
    so a promoted candidate only plays the games it has not played yet."""

    def __init__(self, module, lineup, seed, n_jobs, backend, scheduler, seat_order, engine):
        self.module, self.lineup, self.seed = module, lineup, seed
        self.options = {"n_jobs": n_jobs, "backend": backend, "scheduler": scheduler, "seat_order": seat_order,
                        "progress": False}
        if engine is not None:
            if "engine" not in inspect.signature(simulate).parameters:
                raise ValueError("engine=: this version of analyses.simulate has no engines")
            self.options["engine"] = engine
        distinct = len({repr(p) for p in lineup})
        self.per_deal = len(lineup) if seat_order == "rotate" and distinct > 1 else 1
        self.cache: dict = {}
        self.played, self.engines, self.fallbacks = 0, set(), set()   # fallbacks: why 'auto' played Python
        self.folder: Path | None = None     # with a store: the search's games are saved there (a resume replays none)

    def _key(self, rules, seed: int, tag: str) -> str:
        # the game's RULES_VERSION too: games saved by another version of the engine are never reused
        return hashlib.sha256(repr((repr(rules), tag, [repr(p) for p in self.lineup], self.options.get("engine"),
                                    self.options["seat_order"], int(seed), str(getattr(self.module, "RULES_VERSION", ""))
                                    )).encode()).hexdigest()[:16]

    def _saved(self, path_of, k: int):
        """The saved segment k (any size: a segment of n games is a prefix of a longer one), or None."""
        found = sorted(self.folder.glob(path_of(k, "*"))) if self.folder is not None else []
        if not found:
            return None
        df = read_results(found[-1])
        self._engine_of(df)
        return df

    def _engine_of(self, df: pd.DataFrame) -> None:
        """Keep the engine that played `df`, and why 'auto' played Python when its metadata says so."""
        self.engines.add(str(df.attrs.get("engine", "python")))
        if df.attrs.get("engine_fallback"):
            self.fallbacks.add(str(df.attrs["engine_fallback"]))

    def _simulate(self, rules, n: int, seed: int) -> pd.DataFrame:
        # in process (n_jobs=1, no scheduler): one chunk, as tune.Arena does (the frame is the same for any
        # chunk size; eight small chunks cost more in frame building than a small game costs to play)
        one = self.options["n_jobs"] == 1 and self.options["scheduler"] is None
        df = simulate(self.module, n, rules=rules, policies=list(self.lineup), seed=seed,
                      chunk_size=n if one else None, **self.options)
        self.played += len(df)
        self._engine_of(df)
        return df

    def confirm_frame(self, rules, n: int, seed: int, folder: Path | None, tag: str = "") -> pd.DataFrame:
        """The confirmation's `n` games of `rules` on the fresh `seed`. With a folder (the store), they
        are played in chunks of CONFIRM_CHUNK games (chunk k: seed stream k of `seed`), each saved
        there as soon as it is played, so a stopped confirmation resumes at its last chunk."""
        if folder is None:
            return self._simulate(rules, n, seed)
        key = self._key(rules, seed, tag)
        chunk = int(math.ceil(CONFIRM_CHUNK / self.per_deal) * self.per_deal)
        parts, have, k = [], 0, 0
        while have < n:
            size = min(chunk, n - have)
            path = folder / f"{key}-{k:04d}-{size}.parquet"
            if path.exists():
                df = read_results(path)
                self._engine_of(df)
            else:
                chunk_seed = int(np.random.SeedSequence([int(seed), k]).generate_state(1, np.uint64)[0] >> np.uint64(1))
                df = self._simulate(rules, size, chunk_seed)
                write_results(df, path)
            parts.append(df)
            have, k = have + len(df), k + 1
        return _concat(parts)

    def frame(self, rules, n: int, seed: int | None = None, tag: str = "") -> pd.DataFrame:
        """`n` games of `rules` (at least), segment k on seed stream k of the search seed. `tag` names
        the knob values: the cache key is the rules' repr AND the tag, because a repr may summarise
        data (Nerath's Board prints only its name and size, whatever its realm gold)."""
        if seed is not None:
            return self._simulate(rules, n, seed)
        key = repr(rules) + "|" + tag
        parts = self.cache.setdefault(key, [])
        have = sum(len(p) for p in parts)
        k = len(parts)
        disk = self._key(rules, self.seed, tag) if self.folder is not None else ""

        def path_of(i, size):
            return f"{disk}-{i:04d}-{size}.parquet"

        while have < n:
            size = n - have
            df = self._saved(path_of, k)
            if df is None:
                segment_seed = int(np.random.SeedSequence([int(self.seed), k]).generate_state(1, np.uint64)[0]
                                   >> np.uint64(1))
                df = self._simulate(rules, size, segment_seed)
                if self.folder is not None:
                    write_results(df, self.folder / path_of(k, f"{len(df):06d}"))
            parts.append(df)
            have, k = have + len(df), k + 1
        if len(self.cache) > 64:
            self.cache.pop(next(iter(self.cache)))
        return _concat(parts)


def _concat(parts: list) -> pd.DataFrame:
    if len(parts) == 1:
        return parts[0]
    df = pd.concat(parts, ignore_index=True)
    df.attrs = dict(parts[0].attrs)
    return df
