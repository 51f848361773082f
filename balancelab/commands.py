"""The `balancelab` simulate / fpa / winrates / length / sweep commands. Their parser is in
`balancelab.parser`; `balancelab.cli` (the entry point) imports this module only when one of them
runs, so `balancelab --help` and `balancelab COMMAND --help` answer without loading pandas, numba
or the games.
"""
from __future__ import annotations

import os
import sys
import threading
import time

from analyses.checkpoint import simulate_to_file
from analyses.first_player import first_player_advantage
from analyses.game_length import game_length
from analyses.games import load_game
from analyses.io import read_results
from analyses.metadata import rules_dict
from analyses.runner import planned_workers, prepare_run, simulate
from analyses.sweep import sweep
from analyses.win_rates import win_rates

from . import info
from .cli import PROG
from .text import header, tables_text, write_frames

# --- commands ---------------------------------------------------------------------------

def run_simulate(args) -> int:
    out = args.out.with_suffix(".csv") if args.csv else args.out
    if not args.resume:  # a resumed run plays only what is missing; timing games for it would play more
        announce_duration(args, args.games)
    started = time.perf_counter()
    df = simulate_to_file(args.game, args.games, out, resume=args.resume, force=args.force, csv=args.csv,
                          chunk_size=args.chunk_size, **_run_options(args))
    print(_header(df))
    print(f"wrote {len(df)} games to {out} in {time.perf_counter() - started:.1f} s")
    return 0


def run_fpa(args) -> int:
    return _report(args, first_player_advantage)


WINRATE_TABLES = {"outcomes": "outcomes", "seat": "by_seat", "policy": "by_policy", "faction": "by_faction",
                  "matrix": "matrix", "ratings": "ratings"}


def run_winrates(args) -> int:
    if args.by is None:
        return _report(args, win_rates)
    unknown = [b for b in args.by if b not in WINRATE_TABLES]
    if unknown:
        raise ValueError(f"--by: unknown table(s) {', '.join(unknown)}; allowed: {', '.join(WINRATE_TABLES)}")
    df = _results(args)
    tables = win_rates(df).tables()
    return _print(args, df, {WINRATE_TABLES[by]: tables[WINRATE_TABLES[by]] for by in args.by})


def run_length(args) -> int:
    return _report(args, game_length)


def run_sweep(args) -> int:
    options = _run_options(args)
    announce_duration(args, args.games * len(args.values))
    result = sweep(args.game, args.field, args.values, args.games, policy_param=args.policy_param,
                   chunk_size=args.chunk_size, **options)
    first = next(iter(result.runs.values()))
    what = f"{args.policy_param}.{args.field}" if args.policy_param else args.field
    others = _rules_text(first.attrs, skip=() if args.policy_param else (args.field,))
    swept = (f"{what} swept over {', '.join(map(str, result.runs))} (the same deals for every value); "
             f"other rules {others.replace(' (others as published)', '; others as published')}")
    return _print(args, first, result.tables(), swept=swept)


def _report(args, question) -> int:
    df = _results(args)
    return _print(args, df, question(df).tables())


def _print(args, df, tables: dict, swept: str | None = None) -> int:
    """The tables for people (a header and compact tables), or every column for machines (--format)."""
    if args.format != "table":
        text = write_frames(tables, args.format, args.out)
        print(text if text is not None else f"wrote {args.format} to {args.out}", end="" if text else "\n")
        return 0
    if args.out is not None:
        raise ValueError("--out needs --format csv, json or parquet (the table is printed)")
    print(_header(df, swept) + "\n")
    print(tables_text(tables))
    return 0


def _results(args):
    """The results to analyse: read from --in, or simulated on the spot."""
    if (args.input is None) == (args.game is None):
        raise ValueError("give either a GAME to simulate or --in RESULTS to read")
    if args.input is not None:
        return read_results(args.input)
    announce_duration(args, args.games)
    return simulate(args.game, args.games, chunk_size=args.chunk_size, **_run_options(args))


ANNOUNCE_AFTER = 30.0     # seconds: a run expected to take longer says so before it starts
TIMED_GAMES = 3           # Python engine: games timed for the estimate (fewer when one game is slow)
MIN_GAMES_TO_TIME = 20    # a shorter run starts at once
KERNEL_FIRST_BATCH = 8    # kernel: the first timed batch; each next one 4 x larger ...
KERNEL_TIMING = 0.5       # ... until the batches took this many seconds (a kernel game is too quick to time alone)
KERNEL_TIMED_SHARE = 0.1  # ... or would play more than this share of the run
COMPILE_NOTE_AFTER = 2.0  # seconds: a kernel still compiling after this long says so
COMPILE_SHOWN = 1.0       # seconds: compiling that took longer is named in the estimate


def announce_duration(args, n_games: int, out=None, clock=time.perf_counter) -> float | None:
    """Time a few games of this run (on one worker; their results are not used) and, when the whole run
    is expected to take longer than ANNOUNCE_AFTER, print the estimate to stderr before it starts.
    A run of a batch kernel (--engine kernel, or auto when the kernel plays it) first plays one game
    to compile the kernel (saying so when that takes a while), then times batches of games, since
    compiling is not playing. Returns the estimate in seconds (None when not timed)."""
    if n_games < MIN_GAMES_TO_TIME:
        return None
    out = out or sys.stderr
    options = {**_run_options(args), "n_jobs": 1, "progress": False, "backend": None, "scheduler": None}
    if run_engine(args, n_games) == "kernel":
        per_game, played, compiled = _time_kernel(args.game, {**options, "engine": "kernel"}, n_games, clock, out)
    else:
        per_game, played, compiled = *_time_python(args.game, options, clock), None
    workers = (os.cpu_count() or 1) if args.jobs == -1 else args.jobs
    estimate = per_game * n_games / max(1, min(workers, n_games))
    if estimate > ANNOUNCE_AFTER:
        slow = compiled is not None and compiled >= COMPILE_SHOWN
        after = f" after {_duration(compiled)} compiling the kernel" if slow else ""
        print(f"{PROG}: this run will take about {_duration(estimate)} ({n_games:,} games at about "
              f"{_rate(per_game)} from {played:,} timed game(s){after}, {workers} worker(s)); Ctrl-C stops it",
              file=out, flush=True)
    return estimate


def run_engine(args, n_games: int) -> str:
    """'python' or 'kernel': the engine that plays this run of `n_games` (--engine auto resolved as the
    run will)."""
    o = _run_options(args)
    _, spec = prepare_run(args.game, o["rules"], o["policies"], o["seed"], o["seat_order"], o["engine"],
                          n_games, planned_workers(o["n_jobs"], o["backend"], o["scheduler"]))
    return spec.engine


def _time_python(game, options: dict, clock) -> tuple[float, int]:
    """(seconds a game, games timed): up to TIMED_GAMES games, one at a time."""
    per_game, played, started = 0.0, 0, clock()
    while played < TIMED_GAMES:
        simulate(game, 1, **{**options, "seed": options["seed"] + played})
        played += 1
        per_game = (clock() - started) / played
        if per_game > 1.0:          # one slow game is estimate enough
            break
    return per_game, played


def _time_kernel(game, options: dict, n_games: int, clock, out) -> tuple[float, int, float]:
    """(seconds a game, games timed, seconds compiling): one game compiles the kernel (or loads it from
    numba's cache), then batches of KERNEL_FIRST_BATCH, 4 x, 16 x ... games are timed together."""
    note = threading.Timer(COMPILE_NOTE_AFTER, lambda: print(
        f"{PROG}: compiling the {game} kernel first (once: numba keeps it on disk), then timing a few games",
        file=out, flush=True))
    started = clock()
    note.start()
    try:
        simulate(game, 1, **options)
    finally:
        note.cancel()
    compiled = clock() - started
    played, spent, batch = 0, 0.0, KERNEL_FIRST_BATCH
    most = max(KERNEL_FIRST_BATCH, int(n_games * KERNEL_TIMED_SHARE))
    while played + batch <= most:
        started = clock()
        simulate(game, batch, **{**options, "seed": options["seed"] + 1 + played})
        spent += clock() - started
        played += batch
        if spent >= KERNEL_TIMING:
            break
        batch *= 4
    return spent / played, played, compiled    # played >= KERNEL_FIRST_BATCH: n_games >= MIN_GAMES_TO_TIME


def _rate(per_game: float) -> str:
    if 0 < per_game < 0.01:
        return f"{1 / per_game:,.0f} games a second"
    return f"{per_game:.2g} s a game"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.1f} hours"


def _run_options(args) -> dict:
    """Keyword arguments for simulate/sweep from the shared options."""
    rules = dict(args.rule)
    if args.players is not None:
        rules["players"] = args.players
    return {"rules": rules or None, "policies": args.policies, "seed": args.seed, "n_jobs": args.jobs,
            "backend": args.backend, "seat_order": args.seat_order, "progress": args.progress,
            "scheduler": args.scheduler, "engine": args.engine}


def _header(df, swept: str | None = None) -> str:
    """What was played, in words (`balancelab.text.header`): game, games, seats, seed, line-up, rules."""
    try:
        default = info.default_policy(load_game(df.attrs["game"]))
    except (KeyError, ValueError, ImportError):
        default = None
    return header(df, _rules_text(df.attrs), default, swept)


def _rules_text(attrs: dict, skip=()) -> str:
    """The rules that differ from the game's defaults (all of them if the game is not installed),
    leaving out the fields in `skip` (a sweep's field, named on its own)."""
    rules = {k: v for k, v in attrs.get("rules", {}).items() if k not in skip}
    try:
        defaults = rules_dict(load_game(attrs["game"]).Rules())
    except (KeyError, ValueError, ImportError):
        defaults = {}
    changed = {k: v for k, v in rules.items() if defaults.get(k, object()) != v}
    text = " ".join(f"{k}={v}" for k, v in changed.items())
    return f"{text} (others as published)" if text else "as published"

