"""kill -9 of `balancelab simulate --jobs 2 --out ...` at random moments: no orphans, and --resume finishes it.

    python benchmarks/tools/kill9_resume.py                         # 20 trials, nightsim, 3,000 games, --jobs 2
    python benchmarks/tools/kill9_resume.py --trials 3 --games 1000 # quicker
    python benchmarks/tools/kill9_resume.py --backend dask          # the dask LocalCluster's workers instead of loky's

For each trial (moments drawn from --seed): start the command in its own session, SIGKILL the
command's process (only it: its workers are left to notice) at a random moment between start and
the uninterrupted run's duration, wait --grace seconds, then list every process still in that
session (loky workers and resource trackers, dask nannies and workers: anything the command
started). Then `--resume` the same command and compare the finished file with the uninterrupted
run's (`read_results`: same frame, same metadata). Prints one line per trial and the totals; exits
with 1 if any process outlived the grace period or any resumed file differs.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil
from pandas.testing import assert_frame_equal

from analyses.checkpoint import parts_dir
from analyses.io import read_results


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="kill9-"))
    try:
        return run_trials(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def command(args, out: Path) -> list[str]:
    cmd = [sys.executable, "-m", "balancelab", "simulate", args.game, "--games", str(args.games), "--jobs",
           str(args.jobs), "--seed", str(args.seed), "--out", str(out), "--no-progress"]
    if args.policies:
        cmd += ["--policies", args.policies]
    if args.chunk_size:
        cmd += ["--chunk-size", str(args.chunk_size)]
    if args.backend:
        cmd += ["--backend", args.backend]
    return cmd


def run_trials(args, folder: Path) -> int:
    reference = folder / "reference.parquet"
    started = time.perf_counter()
    subprocess.run(command(args, reference), check=True, stdout=subprocess.DEVNULL)
    duration = time.perf_counter() - started
    expected = read_results(reference)
    print(f"{args.game}: {args.games} games, --jobs {args.jobs}, backend {args.backend or 'loky'}; "
          f"uninterrupted run {duration:.1f} s (start-up included); grace {args.grace:.1f} s")
    rng = np.random.default_rng(args.seed)
    orphans = mismatches = 0
    seen, finished_before, workers_seen, exits = [], 0, 0, []
    for trial in range(args.trials):
        out = folder / f"trial{trial}.parquet"
        moment = float(rng.uniform(0.0, duration))
        killed = kill_at(command(args, out), moment)
        parts = len(list(parts_dir(out).glob("part-*.parquet"))) if parts_dir(out).exists() else 0
        left, gone_after = survivors(killed["session"], args.grace)
        orphans += len(left)
        workers_seen += killed["children"] > 0
        finished_before += killed["finished"]
        if gone_after is not None:
            exits.append(gone_after)
        resumed = subprocess.run([*command(args, out), "--resume"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        same = resumed.returncode == 0 and same_frame(read_results(out), expected)
        mismatches += not same
        seen.append(parts)
        state = "finished before the kill" if killed["finished"] else f"{parts} parts on disk"
        print(f"trial {trial:2d}: kill at {moment:5.2f} s ({state}; {killed['children']} processes under it); "
              f"left after grace: {len(left)}{' ' + str(left) if left else ''}; "
              f"resume {'identical' if same else 'DIFFERS: ' + resumed.stderr.strip()[-300:]}")
        for pid in left:  # do not leave them to the next trial
            with_process(pid, lambda p: p.kill())
        out.unlink(missing_ok=True)
    print(f"\n{args.trials} trials: {workers_seen} killed with worker processes running, {finished_before} had "
          f"already finished; parts on disk at the kill: median {np.median(seen):.0f}, max {max(seen)}")
    if exits:
        print(f"processes under the killed command all gone within {max(exits):.2f} s (median {np.median(exits):.2f} s)")
    print(f"orphans left after {args.grace:.1f} s: {orphans}; resumed files differing from the uninterrupted run: "
          f"{mismatches}")
    return 1 if orphans or mismatches else 0


def kill_at(cmd: list[str], moment: float) -> dict:
    """Start `cmd` in a new session, SIGKILL it (the command's own process only) `moment` seconds later."""
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.perf_counter() + moment
    children = 0
    while time.perf_counter() < deadline and process.poll() is None:
        children = max(children, len(session_members(process.pid)) - 1)
        time.sleep(0.02)
    finished = process.poll() is not None
    if not finished:
        process.send_signal(signal.SIGKILL)
    process.wait()
    return {"session": process.pid, "children": children, "finished": finished}


def session_members(session: int) -> list[int]:
    """Live processes of a session (zombies do not count: they run nothing)."""
    members = []
    for p in psutil.process_iter(["pid", "status"]):
        try:
            if os.getsid(p.info["pid"]) == session and p.info["status"] != psutil.STATUS_ZOMBIE:
                members.append(p.info["pid"])
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return members


def survivors(session: int, grace: float) -> tuple[list[int], float | None]:
    """(processes of the session still alive after `grace` seconds, seconds until none was left)."""
    started = time.perf_counter()
    while time.perf_counter() - started < grace:
        if not session_members(session):
            return [], time.perf_counter() - started
        time.sleep(0.05)
    left = session_members(session)
    return left, None if left else time.perf_counter() - started


def with_process(pid: int, action) -> None:
    try:
        action(psutil.Process(pid))
    except psutil.Error:
        pass


def same_frame(df, expected) -> bool:
    try:
        assert_frame_equal(df, expected)
    except AssertionError:
        return False
    return df.attrs == expected.attrs


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0, help="kill moments (and the run's seed)")
    parser.add_argument("--game", default="nightsim")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--policies", default="random")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--chunk-size", type=int, default=50, help="games per part (many parts: many kill states)")
    parser.add_argument("--backend", choices=("loky", "dask"), default=None)
    parser.add_argument("--grace", type=float, default=5.0, help="seconds the workers get to notice")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
