"""`simulate`: many games of one setup, fanned out over joblib, as one tidy DataFrame.

Games are played in chunks of consecutive game numbers (a single game is far below
joblib's per-task overhead). Each chunk comes back as a compact DataFrame as soon as it is
done (``return_as="generator_unordered"``); chunks are put back in game order at the end, so
the result is identical for any `n_jobs`, chunk size and backend.
"""
from __future__ import annotations

import contextlib
import math
import numbers
import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import Parallel, delayed, parallel_config
from joblib.parallel import LokyBackend, get_active_backend

try:  # notebook bars need ipywidgets; without it tqdm.auto warns (TqdmWarning), so use text bars
    import ipywidgets  # noqa: F401
    from tqdm.auto import tqdm
except ImportError:
    from tqdm import tqdm

from . import clusters, frames, limits
from .games import load_game, make_rules, resolve_policies
from .metadata import run_metadata
from .options import BACKENDS, ENGINES
from .plan import RunSpec
from .worker import (  # the light module a worker imports (no pandas, scipy, pyarrow)
    play_chunk,
    play_tagged_chunk,
    watch_parent,
)

SCHEDULER_ENV = "BALANCELAB_DASK_SCHEDULER"
MAX_CHUNK = 1000
KERNEL_MIN_CHUNK = 500   # games: a kernel chunk's frame costs about as much as 100 kernel games
KERNEL_MAX_CHUNK = 10_000   # games: a kernel chunk of this many plays in well under a second
TASKS_PER_WORKER = 8
#: "always": engine='auto' compiles an uncompiled kernel whatever the run's size (the tests set it, so
#: which engine plays a run does not depend on what an earlier test compiled); unset: weigh it
AUTO_COMPILE_ENV = "BALANCELAB_AUTO_COMPILE"


def prepare_run(game, rules=None, policies=None, seed=0, seat_order="rotate", engine="python",
                n_games: int | None = None, workers: int = 1):
    """Check a setup and return (game module, RunSpec). Bad input raises ValueError. `n_games` and
    `workers` (when known) let engine='auto' weigh compiling an uncompiled kernel (`engine_choice`)."""
    module = load_game(game)
    rules = make_rules(module, rules)
    lineup = tuple(resolve_policies(module, policies, rules.players))
    chosen, fallback = engine_choice(module, rules, lineup, engine, n_games, workers)
    return module, RunSpec(module.__name__, rules, lineup, seed, seat_order, chosen, fallback)


def resolve_engine(module, rules, lineup: tuple, engine: str = "python") -> str:
    """'python' or 'kernel': which engine plays this setup (docs/GAME_PROTOCOL.md, the KERNEL hook).

    'auto' takes the game's batch kernel when it has one that supports the rules and every
    policy of the lineup, else the Python engine; 'kernel' insists (ValueError saying why not).
    """
    return engine_choice(module, rules, lineup, engine)[0]


def engine_choice(module, rules, lineup: tuple, engine: str = "python", n_games: int | None = None,
                  workers: int = 1) -> tuple[str, str | None]:
    """(`resolve_engine`'s answer, why 'auto' fell back to Python or None): the reason is the kernel's
    own refusal (or that the game has none), kept in the run's metadata (``engine_fallback``) so a run
    that asked for a kernel and played Python says so.

    With `n_games` given, 'auto' also plays Python when the kernel's compiled code is not in numba's
    cache yet and the run is shorter than compiling it (fewer games than the kernel's
    ``compile_cost_games`` on each of `workers`, which all compile at once): both engines play the
    same games, so only the time differs, and `balancelab compile` compiles the kernels once."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "python":
        return "python", None
    kernel = getattr(module, "KERNEL", None)
    if kernel is None:
        if engine == "auto":
            return "python", f"game {module.__name__!r} has no batch kernel"
        raise ValueError(f"engine='kernel': game {module.__name__!r} has no batch kernel (no KERNEL); "
                         "use engine='python' or 'auto'")
    if kernel.supports(rules, lineup):
        if engine == "auto" and n_games is not None and not _worth_compiling(kernel, rules, lineup, n_games, workers):
            return "python", (f"the {module.__name__} kernel is not compiled yet and this run of {n_games:,} games "
                              "is shorter than compiling it (`balancelab compile` compiles it once)")
        return "kernel", None
    refusal = getattr(kernel, "refusal", None)
    reason = refusal(rules, lineup) if callable(refusal) else None
    if engine == "auto":
        return "python", f"the {module.__name__} kernel cannot play this run: {reason or 'supports() is False'}"
    raise ValueError(f"engine='kernel': the {module.__name__} kernel cannot play this run"
                     f"{': ' + reason if reason else ''}; use engine='python' or 'auto'")


def _worth_compiling(kernel, rules, lineup: tuple, n_games: int, workers: int) -> bool:
    """True when the kernel's code is compiled already, or the run is long enough to repay compiling it."""
    compiled = getattr(kernel, "compiled", None)
    if compiled is None or os.environ.get(AUTO_COMPILE_ENV) == "always" or compiled(rules, lineup):
        return True
    return n_games >= kernel.compile_cost_games(rules, lineup) * max(1, workers)


def planned_workers(n_jobs, backend=None, scheduler=None) -> int:
    """The local joblib workers a run of `n_jobs` will use (1 for a dask cluster, whose size is not known
    before it is reached: there, compiling is weighed for one worker)."""
    if backend == "dask" or scheduler is not None or not isinstance(n_jobs, numbers.Integral) or isinstance(n_jobs, bool):
        return 1
    return int(n_jobs) if n_jobs > 0 else max(1, (os.cpu_count() or 1) + 1 + int(n_jobs))


def simulate(game, n_games: int, rules=None, policies=None, seed: int = 0, n_jobs: int = 1,
             backend: str | None = None, seat_order: str = "rotate", progress: bool = True,
             until=None, chunk_size: int | None = None, scheduler: str | None = None,
             engine: str = "python") -> pd.DataFrame:
    """Play `n_games` games and return one row per game, with the run's metadata in `df.attrs`.

    game: registered name ('nightsim', 'nightmarium', ...), dotted module path or module.
    rules: None (the published game), a Rules instance or a dict of fields to change.
    policies: one name/object for every seat, a comma-separated string or one per seat.
    seed: game `i` is played with a seed derived from (seed, deal of i) only.
    n_jobs, backend: joblib workers and backend ('loky' by default, 'threading' or 'dask');
        with 'dask', `scheduler` (or $BALANCELAB_DASK_SCHEDULER) is the address of a
        running scheduler, else the current dask Client, else a LocalCluster on loopback.
        A `scheduler` given with no backend means backend 'dask'. On a cluster a worker that dies
        loses no game: the scheduler gives its chunks to the other workers.
    seat_order: 'rotate' (paired games, every policy in every seat), 'random' or 'fixed'.
    until: optional stopping rule; `n_games` is then the batch size. A dict such as
        {"ci_width": 0.01, "max_games": 200000} or a StopWhen, or any callable df -> bool
        with a `max_games` attribute (required: a cap; ci_width without max_games is refused).
        Batches continue the game sequence; under 'rotate' the batches and the budget are rounded
        up to whole deals (every rotation of a deal is played).
    Without `until`, a rotated run of `n_games` that is not a multiple of the rotations ends inside
    a deal: it is played as asked, and says so (``df.attrs["warnings"]`` and a PartialDealWarning
    on stderr).
    engine: 'python' (default: `play_game`, the reference), 'kernel' (the game's compiled batch
        kernel, `KERNEL`; ValueError if it cannot play these rules and policies) or 'auto' (the
        kernel when it can and it is compiled or the run repays compiling it, else Python;
        `engine_choice`). `df.attrs["engine"]` says which ran. A kernel that draws
        its game's random streams (nightsim's) plays the same games: the same frame either way.
    """
    n_games = limits.games(positive_int(n_games, "n_games"), "n_games")
    rule = None if until is None else stopping_rule(until)
    planned = max(n_games, getattr(rule, "max_games", None) or 0)
    module, spec = prepare_run(game, rules, policies, seed, seat_order, engine, planned,
                               planned_workers(n_jobs, backend, scheduler))
    chunk_size = None if chunk_size is None else positive_int(chunk_size, "chunk_size")
    with Executor(n_jobs, backend, scheduler) as executor:
        if rule is None:
            df = executor.collect(spec, 0, n_games, chunk_size, progress)
        else:
            df = _run_until(executor, spec, n_games, rule, chunk_size, progress)
    df.attrs = run_metadata(module, spec, len(df))
    warn_run(df.attrs)
    return df


class PartialDealWarning(UserWarning):
    """A rotated run ended inside a deal (the text is also in ``df.attrs["warnings"]``)."""


def warn_run(attrs: dict) -> None:
    """Show each of a run's ``attrs["warnings"]`` on stderr (a PartialDealWarning)."""
    for text in attrs.get("warnings", ()):
        warnings.warn(text, PartialDealWarning, stacklevel=3)


def simulate_runs(game, runs: dict, n_jobs: int = 1, backend: str | None = None, progress=True,
                  scheduler: str | None = None) -> dict:
    """Several runs in one pool of workers, one game per task: `runs` maps a key to a dict of
    `simulate`'s arguments (n_games, rules, policies, seed, seat_order, engine: 'python' when not given); returns key ->
    the DataFrame `simulate` returns for those arguments (same rows, columns and metadata). For runs of
    a few slow games each (the skill ladder's search pairings: 2 games a run, 20-55 s each), where
    `simulate` run by run leaves a worker idle while the other finishes its run's slowest game.
    backend, scheduler: as `simulate`'s."""
    specs, sizes = {}, {}
    if not runs:
        return {}
    for key, arguments in runs.items():
        arguments = dict(arguments)
        sizes[key] = positive_int(arguments.pop("n_games"), "n_games")
        module, specs[key] = prepare_run(game, **arguments)
    tasks = [(key, specs[key], g, g + 1) for key in runs for g in range(sizes[key])]
    parts: dict = {key: [] for key in runs}
    with Executor(n_jobs, backend, scheduler) as executor, progress_bar(len(tasks), progress) as bar:
        for key, frame in executor.run_tagged(tasks):
            parts[key].append(frame)
            bar.update(len(frame))
    out = {}
    for key in runs:
        out[key] = frames.concat_frames(parts[key])
        out[key].attrs = run_metadata(module, specs[key], len(out[key]))
        warn_run(out[key].attrs)
    return out


def _run_until(executor, spec: RunSpec, batch: int, rule, chunk_size, progress) -> pd.DataFrame:
    """Play batches of `batch` games (whole deals) until `rule(df)` or its game budget says stop."""
    batch = math.ceil(batch / spec.rotations) * spec.rotations
    budget = getattr(rule, "max_games", None)
    if budget is not None:  # finish the last deal: every rotation of a deal, or none
        budget = math.ceil(budget / spec.rotations) * spec.rotations
    df = frames.concat_frames([])
    while True:
        stop = len(df) + batch if budget is None else min(len(df) + batch, budget)
        df = frames.concat_frames([df, executor.collect(spec, len(df), stop, chunk_size, progress)])
        if rule(df) or (budget is not None and len(df) >= budget):
            return df


@dataclass(frozen=True)
class StopWhen:
    """Stopping rule: every seat's win-rate interval narrower than `ci_width`, or `max_games` played.

    `max_games` is required (alone, or with `ci_width`): a game whose seats never narrow their
    interval (one that never decides) would otherwise play forever. The headline intervals are the Wilson intervals of each seat's win rate over decided games.
    """

    ci_width: float | None = None
    max_games: int | None = None
    confidence: float = 0.95

    def __post_init__(self):
        if self.ci_width is None and self.max_games is None:
            raise ValueError("until: give ci_width, max_games or both")
        for name in ("ci_width", "confidence"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Real)
                                      or not 0 < value < 1):
                raise ValueError(f"until: {name} must be in (0, 1), got {value!r}")
        if self.max_games is not None:
            positive_int(self.max_games, "until: max_games")
        elif self.ci_width is not None:   # a game that never decides never narrows its interval
            raise ValueError(f"until: ci_width={self.ci_width!r} needs max_games (a game budget), or a game that "
                             "never narrows its interval plays forever: e.g. {'ci_width': 0.01, 'max_games': 200000}")

    def __call__(self, df: pd.DataFrame) -> bool:
        if self.ci_width is None:
            return False
        return headline_width(df, self.confidence) < self.ci_width


def headline_width(df: pd.DataFrame, confidence: float = 0.95) -> float:
    """Widest interval among the seats' win rates over decided games (1.0 if none), with the deal
    as the unit (`clusters.rates`: Wilson when every game is its own deal, cluster-robust under
    rotated seats), so a stopping rule stops on the width the report will show."""
    decided = frames.decided(df).to_numpy()
    won = frames.seat_wins(df)[decided]
    if len(won) == 0:
        return 1.0
    table = clusters.rates(won, np.ones((len(won), 1)), clusters.cluster_ids(df[decided]), confidence=confidence)
    widths = (table["ci_high"] - table["ci_low"]).fillna(1.0)
    return float(widths.max())


UNTIL_KEYS = ("ci_width", "max_games", "confidence")


def stopping_rule(until) -> Callable[[pd.DataFrame], bool]:
    """A StopWhen from a dict, or `until` itself when it is already callable.

    A callable that is not a StopWhen must carry a `max_games` attribute (a positive integer):
    a rule that never returns True would otherwise play forever.
    """
    if isinstance(until, dict):
        unknown = [k for k in until if k not in UNTIL_KEYS]
        if unknown:
            raise ValueError(f"until: unknown key(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(UNTIL_KEYS)}")
        return StopWhen(**until)
    if isinstance(until, StopWhen):
        return until
    if callable(until):
        budget = getattr(until, "max_games", None)
        if budget is None:
            raise ValueError("until: a callable stopping rule needs a game budget: give it a max_games attribute "
                             "(until.max_games = 100000), or use {'ci_width': ..., 'max_games': ...}")
        positive_int(budget, "until: max_games")
        return until
    raise ValueError(f"until must be a dict, a StopWhen or a callable, got {until!r}")


# --- execution --------------------------------------------------------------------------

def chunk_ranges(start: int, stop: int, chunk_size: int) -> Iterator[tuple[int, int]]:
    """Consecutive (start, stop) ranges of at most `chunk_size` games covering start..stop."""
    for a in range(start, stop, chunk_size):
        yield a, min(a + chunk_size, stop)


def auto_chunk_size(n_games: int, workers: int, progress: bool = True, engine: str = "python") -> int:
    """Enough tasks to balance the workers, few enough that per-task overhead is negligible.

    With one worker and no progress bar there is nothing to balance or to report, so the games
    are one chunk (up to MAX_CHUNK): each chunk's frame costs ~3.5 ms to build, which is more than
    a small run's games (80 nightsim greedy games: 0.11 s CPU in 8 chunks, 0.077 s in one).
    A batch kernel plays a game in tens of microseconds, so its chunks are at least
    KERNEL_MIN_CHUNK games (or a worker's share of the run) and up to KERNEL_MAX_CHUNK: a chunk's frame
    (and, writing to a file, its part file) would otherwise cost more than its games."""
    tasks = TASKS_PER_WORKER if workers > 1 or progress else 1
    share = math.ceil(n_games / (tasks * max(workers, 1)))
    if engine == "kernel":
        return max(1, min(max(share, KERNEL_MIN_CHUNK), KERNEL_MAX_CHUNK, math.ceil(n_games / max(workers, 1))))
    return max(1, min(MAX_CHUNK, share))


class Executor:
    """A joblib setup (backend, workers, dask client) kept open across batches of chunks."""

    def __init__(self, n_jobs: int = 1, backend: str | None = None, scheduler: str | None = None):
        if backend is not None and backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
        if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
            raise ValueError(f"n_jobs must be a non-zero integer (-1 = all cores), got {n_jobs!r}")
        limits.jobs(n_jobs, "n_jobs")
        if scheduler is not None:  # a scheduler address means its cluster: backend 'dask' (the only one with one)
            if not isinstance(scheduler, str) or not scheduler.strip():
                raise ValueError(f"scheduler must be a dask scheduler address such as tcp://host:8786, got {scheduler!r}")
            if backend not in (None, "dask"):
                raise ValueError(f"scheduler {scheduler!r} is a dask cluster's address: use it with backend 'dask', "
                                 f"not {backend!r}")
            backend = "dask"
        self.n_jobs, self.backend, self.scheduler = int(n_jobs), backend, scheduler
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Executor:
        if self.backend == "dask":
            client = self._stack.enter_context(dask_client(self.scheduler, self.n_jobs))
            self.workers = max(1, sum(client.nthreads().values()))
            self._stack.enter_context(parallel_config(backend="dask"))
            self.n_jobs = -1
        else:
            self.workers = planned_workers(self.n_jobs)
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()

    def run(self, spec: RunSpec, ranges: Iterable[tuple[int, int]]) -> Iterator[pd.DataFrame]:
        """Chunk frames in completion order (not game order). Workers play `worker.play_chunk` and
        send plain columns; the frames are built here, so workers never import pandas."""
        parallel = Parallel(n_jobs=self.n_jobs, backend=self._joblib_backend(), return_as="generator_unordered")
        return map(frames.chunk_frame, parallel(delayed(play_chunk)(spec, a, b) for a, b in ranges))

    def run_tagged(self, tasks: Iterable[tuple]) -> Iterator[tuple[object, pd.DataFrame]]:
        """(tag, chunk frame) pairs in completion order for chunks of several runs, tasks given as
        (tag, spec, start, stop): one pool plays the chunks of every run, so slow games of different
        runs share the workers instead of each run waiting for its own slowest game."""
        parallel = Parallel(n_jobs=self.n_jobs, backend=self._joblib_backend(), return_as="generator_unordered")
        done = parallel(delayed(play_tagged_chunk)(tag, spec, a, b) for tag, spec, a, b in tasks)
        return ((tag, frames.chunk_frame(columns)) for tag, columns in done)

    def _joblib_backend(self):
        """The backend for Parallel: dask's from the active config (entered in __enter__); loky (named,
        or joblib's default when no other backend is configured) with `worker.watch_parent` as the
        workers' initializer, so they exit when this process dies; anything else as given."""
        if self.backend == "dask":
            return None
        if self.backend is None:
            active, _ = get_active_backend()
            if type(active) is not LokyBackend or "initializer" in active.backend_kwargs:
                return None  # a backend (or a loky setup) the caller configured: theirs to manage
            return LokyBackend(inner_max_num_threads=active.inner_max_num_threads,
                               **{**active.backend_kwargs, **watched_workers()})
        if self.backend == "loky":
            return LokyBackend(**watched_workers())
        return self.backend

    def collect(self, spec: RunSpec, start: int, stop: int, chunk_size: int | None = None,
                progress: bool = True) -> pd.DataFrame:
        """Games start..stop-1 as one DataFrame in game order."""
        size = chunk_size or auto_chunk_size(stop - start, self.workers, bool(progress), spec.engine)
        with progress_bar(stop - start, progress) as bar:
            parts = []
            for frame in self.run(spec, chunk_ranges(start, stop, size)):
                parts.append(frame)
                bar.update(len(frame))
        return frames.concat_frames(parts)


def watched_workers() -> dict:
    """loky executor arguments that make each worker exit when this process dies (`worker.watch_parent`).
    The same function and pid every call, so joblib keeps reusing one pool of workers."""
    return {"initializer": watch_parent, "initargs": (os.getpid(),)}


def progress_bar(total: int, enabled=True):
    """A tqdm bar counting games (a no-op object when `enabled` is False). `enabled` may also be
    a bar the caller owns (anything with `.update(n)`, e.g. one bar for several runs): it is
    updated and left open."""
    if hasattr(enabled, "update"):
        return contextlib.nullcontext(enabled)
    return tqdm(total=total, disable=not enabled, unit="game", smoothing=0.1, dynamic_ncols=True)


@contextlib.contextmanager
def dask_client(scheduler: str | None = None, n_workers: int = -1):
    """The dask Client to run on: `scheduler` address, $BALANCELAB_DASK_SCHEDULER, the current
    client, or (closed afterwards) a LocalCluster of `n_workers` processes on 127.0.0.1."""
    try:
        from dask.distributed import Client, LocalCluster, get_client  # noqa: PLC0415  # lazy: optional extra, ~1 s to import
    except ImportError:
        raise ValueError("backend 'dask' needs dask.distributed: pip install 'balancelab[distributed]'") from None
    address = scheduler or os.environ.get(SCHEDULER_ENV)
    if address:
        with Client(address) as client:
            yield client
        return
    current = _current_client(get_client)
    if current is not None:
        yield current
        return
    workers = n_workers if n_workers > 0 else None
    with LocalCluster(host="127.0.0.1", n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


def _current_client(get_client):
    try:
        return get_client()
    except ValueError:  # no client in this process
        return None


def positive_int(value, label: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{label} must be a positive integer, got {value!r}")
    return int(value)
