"""Long runs written to disk chunk by chunk, so an interrupted run can be finished.

`simulate_to_file(..., out="runs/x.parquet")` keeps its progress in ``runs/x.parquet.parts/``:
a ``run.json`` describing the run, and one ``part-<start>-<stop>.parquet`` per finished
chunk of games, each written to a temporary file and renamed into place (a crash leaves
either a whole part or none). When every game is done the parts are consolidated into the
results file (written atomically) and the folder is renamed to ``.parts.trash`` and deleted,
so a kill during clean-up never leaves parts without their ``run.json``; a resume that finds
the finished file returns it (and removes any leftovers). With ``resume=True`` an interrupted run plays only
the games that have no part yet, so the final file equals that of an uninterrupted run.

One run at a time writes a results file: a run holds an advisory lock on ``<out>.lock`` (flock,
released by the kernel however the run ends, kill -9 included), and a second run of the same
--out is refused with a one-line error naming the first run's pid, before it touches anything.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from . import frames, limits, safe_io
from .io import atomic_write, read_parquet_part, read_results, write_parquet, write_results
from .metadata import jsonable, run_metadata
from .runner import (
    Executor,
    auto_chunk_size,
    chunk_ranges,
    positive_int,
    prepare_run,
    progress_bar,
    warn_run,
)

MANIFEST = "run.json"
_PART = re.compile(r"^part-(\d+)-(\d+)\.parquet$")
#: the metadata that must match for a run to be resumed (versions may differ)
RUN_IDENTITY = ("game", "rules_version", "rules", "data_hashes", "policies", "policy_reprs", "seed", "n_games",
                "seat_order", "rotations", "engine")
#: what a run written before a key existed had (runs before the batch kernels were all Python)
IDENTITY_DEFAULTS = {"engine": "python"}


def parts_dir(out) -> Path:
    """runs/x.parquet -> runs/x.parquet.parts"""
    out = Path(out)
    return out.with_name(out.name + ".parts")


def simulate_to_file(game, n_games: int, out, *, rules=None, policies=None, seed: int = 0, n_jobs: int = 1,
                     backend: str | None = None, seat_order: str = "rotate", progress: bool = True,
                     resume: bool = False, csv: bool | None = None, chunk_size: int | None = None,
                     scheduler: str | None = None, force: bool = False, engine: str = "python") -> pd.DataFrame:
    """`simulate` that writes each chunk to disk as it finishes and returns the consolidated table.

    resume=False refuses to touch the leftovers of an interrupted run or a finished file;
    resume=True finishes it (the settings and data inputs must match the interrupted run's)
    or returns the finished file. force=True starts over, replacing a finished file and
    discarding an unfinished run's parts.

    One writer at a time: the run holds a lock on `<out>.lock` (`safe_io.run_lock`), so a second
    process writing the same file stops with "in use by process N" before touching its parts.
    """
    module, spec = prepare_run(game, rules, policies, seed, seat_order, engine)
    n_games = limits.games(positive_int(n_games, "n_games"), "n_games")
    chunk_size = None if chunk_size is None else positive_int(chunk_size, "chunk_size")
    if resume and force:
        raise ValueError("resume and force exclude each other: --resume finishes a run, --force starts it over")
    out = Path(out)
    metadata = run_metadata(module, spec, n_games)
    with safe_io.run_lock(out):
        return _simulate_to_file(out, module, spec, metadata, n_games, n_jobs, backend, scheduler, chunk_size,
                                 progress, resume, force, csv)


def _simulate_to_file(out: Path, module, spec, metadata: dict, n_games: int, n_jobs, backend, scheduler,
                      chunk_size, progress, resume: bool, force: bool, csv) -> pd.DataFrame:
    folder = parts_dir(out)
    _discard(_trash(folder))  # a clean-up cut short earlier
    if out.exists():
        if resume:
            finished = _finished(out, metadata, folder)
            if finished is not None:
                _discard(folder)  # leftovers of a clean-up cut short after the file was written
                return finished
        elif not force:
            raise ValueError(f"{str(out)!r} already holds a finished run: pass --resume (resume=True) to reuse it "
                             "with the same settings, --force (force=True) to overwrite it, or choose another --out")
    if force:
        _discard(folder)
    _open_folder(folder, metadata, resume)
    with Executor(n_jobs, backend, scheduler) as executor:
        todo = missing_ranges(done_ranges(folder), n_games)
        size = chunk_size or auto_chunk_size(sum(b - a for a, b in todo), executor.workers, engine=spec.engine)
        ranges = [r for a, b in todo for r in chunk_ranges(a, b, size)]
        with progress_bar(n_games, progress) as bar:
            bar.update(n_games - sum(b - a for a, b in todo))
            for frame in executor.run(spec, ranges):
                write_part(folder, frame)
                bar.update(len(frame))
    df = consolidate(folder, n_games, metadata)
    write_results(df, out, csv)
    _discard(folder)
    warn_run(df.attrs)
    return df


#: the lock of a results file's run (`safe_io`'s: one lock for every writer of the lab)
lock_path = safe_io.lock_path
run_lock = safe_io.run_lock


def _finished(out: Path, metadata: dict, folder: Path) -> pd.DataFrame | None:
    """The finished results file, checked to be this run's; None when it is unreadable but the
    parts are still there (a CSV whose sidecar was not written yet): finish from the parts."""
    try:
        df = read_results(out)
    except ValueError:
        if (folder / MANIFEST).is_file():
            return None
        raise
    _check_same_run(df.attrs, metadata, out)
    return df


def _trash(folder: Path) -> Path:
    return folder.with_name(folder.name + ".trash")


def _discard(folder: Path) -> None:
    """Remove a parts folder atomically: rename it out of the way (one step), then delete it.

    A kill during the deletion leaves only `<out>.parts.trash`, which no run reads and the
    next run of the same file deletes; never a parts folder without its run.json.
    """
    if not folder.exists():
        return
    trash = folder if folder.name.endswith(".trash") else _trash(folder)
    if trash != folder:
        if trash.exists():
            shutil.rmtree(trash)
        folder.rename(trash)
    shutil.rmtree(trash)


def _open_folder(folder: Path, metadata: dict, resume: bool) -> None:
    manifest = folder / MANIFEST
    if folder.exists():
        if not resume:
            raise ValueError(f"{str(folder)!r} holds an unfinished run: pass --resume (resume=True) "
                             "to finish it, or delete the folder")
        try:
            previous = json.loads(manifest.read_text())
        except (OSError, ValueError):
            raise ValueError(f"{str(folder)!r} has no readable {MANIFEST}; delete the folder to start over") from None
        _check_same_run(previous, metadata, folder)
        for stale in folder.glob("*.tmp"):
            stale.unlink()
        return
    folder.mkdir(parents=True)
    atomic_write(manifest, lambda tmp: tmp.write_text(json.dumps(metadata, indent=1)))


def _check_same_run(previous: dict, metadata: dict, where: Path) -> None:
    before, now = previous.get("data_hashes"), metadata.get("data_hashes")
    if before != now:
        if not isinstance(before, dict):
            raise ValueError(f"cannot resume {str(where)!r}: it records no content hash of its data inputs "
                             f"(written before balancelab checked them); delete it to start over")
        changed = sorted(k for k in set(before) | set(now) if before.get(k) != now.get(k))
        raise ValueError(f"cannot resume {str(where)!r}: its data inputs differ from this run's "
                         f"({', '.join(changed)}: content hash {str(before.get(changed[0]))[:12]} there, "
                         f"{str(now.get(changed[0]))[:12]} here); the file would mix two games")
    for key in RUN_IDENTITY:
        before = previous.get(key, IDENTITY_DEFAULTS.get(key))
        if jsonable(before) != metadata.get(key):
            raise ValueError(f"cannot resume {str(where)!r}: its {key} is {before!r}, "
                             f"this run's is {metadata.get(key)!r}")


def part_path(folder: Path, start: int, stop: int) -> Path:
    return folder / f"part-{start:012d}-{stop:012d}.parquet"


def write_part(folder: Path, frame: pd.DataFrame) -> Path:
    """Write one chunk of games atomically; its file name records which games it holds."""
    start, stop = int(frame["game"].iloc[0]), int(frame["game"].iloc[-1]) + 1
    path = part_path(folder, start, stop)
    atomic_write(path, lambda tmp: write_parquet(frame, tmp))
    return path


def done_ranges(folder: Path) -> list[tuple[int, int]]:
    """(start, stop) of every finished part, sorted."""
    found = (_PART.match(p.name) for p in folder.iterdir())
    return sorted((int(m.group(1)), int(m.group(2))) for m in found if m)


def missing_ranges(done: list[tuple[int, int]], n_games: int) -> list[tuple[int, int]]:
    """The game ranges in 0..n_games-1 that no finished part covers."""
    todo, position = [], 0
    for start, stop in sorted(done):
        if start > position:
            todo.append((position, start))
        position = max(position, stop)
    if position < n_games:
        todo.append((position, n_games))
    return todo


def consolidate(folder: Path, n_games: int, metadata: dict) -> pd.DataFrame:
    """All parts as one table in game order; checks that every game is there exactly once."""
    parts = [read_parquet_part(part_path(folder, a, b)) for a, b in done_ranges(folder)]
    df = frames.concat_frames(parts)
    if len(df) != n_games or not np.array_equal(df["game"].to_numpy(), np.arange(n_games)):
        raise ValueError(f"{str(folder)!r}: the parts do not hold games 0..{n_games - 1} exactly once; "
                         "delete the folder and run again")
    df.attrs = metadata
    return df
