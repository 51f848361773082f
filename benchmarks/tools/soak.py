"""Soak test: many games in one process per engine path; exceptions and memory (RSS) growth of each process.

    python benchmarks/tools/soak.py                                  # the full soak (hours: see the sizes below)
    nice -n 5 python benchmarks/tools/soak.py --scale 0.01           # 1/100 of every size (minutes)
    python benchmarks/tools/soak.py --only dreamsim-play --play-games 20000

Parts, each in a fresh process of its own (so each RSS figure is that path's alone), one after the
other (--jobs N runs N at once):

- `<game>-kernel`: --kernel-games games (default 1,000,000) per card game through
  `analyses.simulate(..., engine="auto")` in batches of --batch games (the batch kernel; the line-up
  is the record fingerprints' mixed line-up when the kernel plays it, else the game's main policy);
- `<game>-play`: --play-games games (default 100,000) per card game through `play_game`, one game at
  a time, mixed line-up (every heuristic: each keeps its own caches);
- `nerathsim-play`: --nerath-games games (default 10,000) of Conquest of Nerath through `play_game`.

Every game is played on its own seed (0, 1, ...); an exception is counted with its seed and the run
goes on. Each part prints its RSS at 10 marks, then: exceptions, games that hit the turn cap, RSS
after the first mark (caches and compiled code warm), at the end, its peak, and the growth over the second
half of the games (caches full by then: flat is close to 0). Exits with 1 if any game raised.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import psutil

import analyses
from analyses.games import load_game, make_rules, resolve_policies
from analyses.runner import resolve_engine
from analyses.worker import watch_parent

#: the stress line-ups (benchmarks/tools/record_fingerprints.py's "mixed4": every policy of the game)
MIXED = {"nightsim": "aggressor,greedy,purist,random", "dreamsim": "runner,heuristic,trickster,horror",
         "nerathsim": "balanced,defensive,aggressive,random"}
MAIN = {"nightsim": "greedy", "dreamsim": "heuristic", "nerathsim": "balanced"}
MARKS = 10


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    parts = [p for p in plan(args) if not args.only or p[0] in args.only]
    if not parts:
        raise SystemExit(f"--only: no part named {', '.join(args.only)}; parts: {', '.join(p[0] for p in plan(args))}")
    print(f"soak: {', '.join(f'{name} ({n:,} games)' for name, _, n, _ in parts)}; one process each, "
          f"{args.jobs} at a time", flush=True)
    failed = 0
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn"), max_tasks_per_child=1,
                             initializer=watch_parent, initargs=(os.getpid(),)) as pool:  # no orphan if killed
        futures = [pool.submit(run_part, *part) for part in parts]
        for future in futures:
            summary = future.result()
            failed += summary["exceptions"]
            print(summary["text"], flush=True)
    print(f"\nsoak done: {'no exception' if not failed else f'{failed} games raised'}")
    return 1 if failed else 0


def plan(args) -> list[tuple]:
    """(name, game, games, options) of every part."""
    def scale(n: int) -> int:
        return max(1, round(n * args.scale))

    parts = []
    for game in ("nightsim", "dreamsim"):
        parts.append((f"{game}-kernel", game, scale(args.kernel_games), {"path": "kernel", "batch": args.batch}))
        parts.append((f"{game}-play", game, scale(args.play_games), {"path": "play"}))
    parts.append(("nerathsim-play", "nerathsim", scale(args.nerath_games), {"path": "play"}))
    return parts


def run_part(name: str, game: str, n_games: int, options: dict) -> dict:
    """Play one part in this (fresh) process; a summary with the figures as text."""
    process = psutil.Process()
    started, rss, errors, capped, done = time.perf_counter(), [], [], 0, 0
    module = load_game(game)

    def say(text: str) -> None:
        print(f"[{name}] {text}", flush=True)

    marks = sorted({max(1, round(n_games * (k + 1) / MARKS)) for k in range(MARKS)})
    if options["path"] == "kernel":
        rules = make_rules(module, None)
        lineup, engine = MIXED[game], None
        try:
            engine = resolve_engine(module, rules, tuple(resolve_policies(module, lineup, rules.players)), "auto")
        except ValueError:
            pass
        if engine != "kernel":
            lineup = MAIN[game]
        say(f"{n_games:,} games through analyses.simulate(engine='auto'), policies {lineup}, "
            f"batches of {options['batch']:,}")
        while done < n_games:
            size = min(options["batch"], n_games - done, next(m for m in marks if m > done) - done)
            try:
                df = analyses.simulate(game, size, policies=lineup, seed=done, engine="auto", progress=False)
                capped += int(df["timed_out"].sum())
                if df.attrs.get("engine") != "kernel":
                    say(f"warning: games {done}..{done + size - 1} played by the {df.attrs.get('engine')} engine")
            except Exception as exc:  # counted and shown; the soak goes on
                errors.append((done, _one_line(exc)))
            done += size
            if done in marks:
                rss.append((done, process.memory_info().rss))
                say(f"{done:,} games: RSS {rss[-1][1] / 2**20:.0f} MB")
    else:
        rules = make_rules(module, None)
        lineup = resolve_policies(module, MIXED[game], rules.players)
        say(f"{n_games:,} games through {game}.play_game, policies {MIXED[game]}")
        for seed in range(n_games):
            try:
                result = module.play_game(rules, list(lineup), seed=seed)
                capped += bool(result.to_record().get("timed_out"))
            except Exception as exc:  # counted and shown; the soak goes on
                errors.append((seed, _one_line(exc)))
            if seed + 1 in marks:
                rss.append((seed + 1, process.memory_info().rss))
                say(f"{seed + 1:,} games: RSS {rss[-1][1] / 2**20:.0f} MB")
        done = n_games
    seconds = time.perf_counter() - started
    (first_games, first), (last_games, last) = rss[0], rss[-1]
    half_games, half = rss[(len(rss) - 1) // 2]  # the second half: caches warm, growth there is a leak
    peak = max(r for _, r in rss)
    per_1000 = (last - half) / 2**20 / max(last_games - half_games, 1) * 1000
    lines = [f"== {name}: {done:,} games in {seconds:,.0f} s; exceptions {len(errors)}; turn cap hit in {capped:,} "
             f"({capped / max(done, 1):.2%})",
             f"   RSS {first / 2**20:.0f} MB after {first_games:,} games -> {last / 2**20:.0f} MB after {last_games:,} "
             f"(peak {peak / 2**20:.0f} MB); second half ({half_games:,} -> {last_games:,} games): "
             f"{(last - half) / 2**20:+.0f} MB, {per_1000:+.2f} MB per 1,000 games"]
    lines += [f"   exception at game/seed {at}: {text}" for at, text in errors[:5]]
    return {"name": name, "exceptions": len(errors), "text": "\n".join(lines)}


def _one_line(exc: BaseException) -> str:
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" ({where.filename.rsplit('/', 1)[-1]}:{where.lineno})" if where else ""
    return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}{at}"


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernel-games", type=int, default=1_000_000, help="per card game (default 1,000,000)")
    parser.add_argument("--play-games", type=int, default=100_000, help="per card game (default 100,000)")
    parser.add_argument("--nerath-games", type=int, default=10_000, help="default 10,000")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size (0.01: 1/100)")
    parser.add_argument("--batch", type=int, default=50_000, help="kernel games per simulate call (default 50,000)")
    parser.add_argument("--jobs", type=int, default=1, help="parts run at once (default 1)")
    parser.add_argument("--only", type=lambda s: s.split(","), default=None, metavar="PART,PART",
                        help="only these parts: nightsim-kernel, nightsim-play, dreamsim-kernel, dreamsim-play, "
                             "nerathsim-play")
    args = parser.parse_args(argv)
    if min(args.kernel_games, args.play_games, args.nerath_games, args.batch, args.jobs) < 1 or args.scale <= 0:
        parser.error("sizes, --batch and --jobs must be positive, --scale above 0")
    return args


if __name__ == "__main__":
    sys.exit(main())
