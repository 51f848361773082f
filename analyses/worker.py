"""What a joblib worker runs: play a chunk of games and send back plain columns.

This is the only analyses module a worker process imports to play games (with the package's
`__init__`, which imports nothing eagerly, and `games` and `plan`): numpy and the game module,
never pandas, scipy, pyarrow or matplotlib. A worker therefore starts in a fraction of a second
instead of spending seconds on the parent's statistics stack before its first game; the parent
turns the columns into the compact DataFrame (`frames.chunk_frame`). Keep it that way:
`tests/analyses/test_analyses_worker_imports.py` checks it in a fresh process.

A loky worker also runs `watch_parent` when it starts (the pool's initializer, set by
`runner.Executor`): it exits as soon as the process that started the pool is gone, so a
parent killed with SIGKILL leaves no worker behind (loky's workers otherwise wait on their
task queue forever). dask's own worker processes already exit with their nanny.
"""
from __future__ import annotations

import os
import threading
import time

import numpy as np

from .games import load_game
from .plan import RunSpec, deal_seeds


def play_chunk(spec: RunSpec, start: int, stop: int) -> dict[str, list]:
    """Play games `start` .. `stop - 1` of a run and return their rows as columns: the index
    columns (game, deal, game_seed: int64 arrays) then the games' `to_record()` fields, one list per
    column (a kernel's `play_columns` may give numpy arrays). `spec.engine` says who plays them."""
    module = load_game(spec.game)
    games = range(start, stop)
    deals = np.arange(start, stop, dtype=np.int64) // spec.rotations
    seed_array = deal_seeds(int(spec.seed), deals)   # the seeds of `spec.game_seed`, computed for all at once
    seeds = seed_array.tolist()
    index = {"game": np.arange(start, stop, dtype=np.int64), "deal": deals, "game_seed": seed_array}
    if spec.engine == "kernel":  # the game's batch kernel (docs/GAME_PROTOCOL.md, KERNEL)
        kernel, lineups = module.KERNEL, chunk_lineups(spec, games)
        if hasattr(kernel, "play_columns"):  # optional: columns (lists or numpy arrays) straight from its arrays
            return {**index, **kernel.play_columns(spec.rules, lineups, seeds)}
        records = kernel.play_batch(spec.rules, lineups, seeds)
    else:
        records = [module.play_game(spec.rules, list(spec.seats(i)), seed).to_record()
                   for i, seed in zip(games, seeds)]
    return {**index, **record_columns(records)}


def chunk_lineups(spec: RunSpec, games: range) -> list[tuple]:
    """`spec.seats(i)` of each game, one tuple object per rotation (a kernel groups the games by lineup
    object: a new tuple per game made it name every game's seats again)."""
    if spec.seat_order == "random":
        return [spec.seats(i) for i in games]
    rotations = spec.rotations if spec.seat_order == "rotate" else 1
    seats = {r: spec.seats(r) for r in range(rotations)}   # seats(i) is seats(i % rotations)
    return [seats[i % rotations] for i in games]


def play_tagged_chunk(tag, spec: RunSpec, start: int, stop: int) -> tuple:
    """`play_chunk` of one of several runs played by one pool (`Executor.run_tagged`): (tag, columns)."""
    return tag, play_chunk(spec, start, stop)


def record_columns(records: list[dict]) -> dict[str, list]:
    """The games' `to_record()` rows as columns (a field some rows lack is None there)."""
    names = list(dict.fromkeys(name for record in records[:1] for name in record))
    if any(record.keys() != records[0].keys() for record in records):  # rare: rows with different stats
        names = list(dict.fromkeys(name for record in records for name in record))
    return {name: [record.get(name) for record in records] for name in names}


#: seconds between two looks at the parent: a dead parent's worker exits within this (or, when
#: a compiled kernel holds the interpreter for a whole chunk, when the chunk ends)
PARENT_POLL = 0.25


def watch_parent(parent: int, poll: float = PARENT_POLL) -> None:
    """Pool initializer: exit this worker process when `parent` (the pid that started the pool) is
    no longer its parent, i.e. has died and the worker was handed to init or a subreaper.

    Polling `os.getppid()` from a daemon thread works on every POSIX system, whatever thread of the
    parent started the worker (Linux's PR_SET_PDEATHSIG fires when that *thread* ends, which would
    kill healthy workers of a pool started from a short-lived thread). The worker never writes
    files (the parent writes every part), so exiting at once loses nothing but the games in play.
    """
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_exit_when_orphaned, args=(parent, poll), name="balancelab-watch-parent",
                     daemon=True).start()


def _exit_when_orphaned(parent: int, poll: float) -> None:
    while os.getppid() == parent:
        time.sleep(poll)
    os._exit(1)
