"""`balancelab report`: the all-games balance report, the project's main job.

    balancelab report                                  # every installed game, defaults
    balancelab report --games 8000 --jobs 2 --out balance-report.html --save runs/study
    balancelab report --from runs/study                # rebuild from stored runs, no simulation
    balancelab report --from runs/study --ladder runs/ladders   # + a "Skill ladder" section per game
    balancelab report --no-stored                      # without the ladders and fixes shipped with the package

Results too slow for the report to play (skill ladders, re-balancing studies, assumption sensitivity) are shipped with the
package (`analyses.shipped`) and rendered with their provenance; a stored ladder or study given on
the command line takes the place of the shipped one for its game.

Simulation and analysis live in `analyses.study`; `reports.build` only renders.
"""
from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

from analyses.confirmed import with_confirmed
from analyses.ladder import load_ladders
from analyses.rebalance_search import SPEC_FILE, suggested_fixes
from analyses.replay import example_replays
from analyses.replication import confirm_study, load_confirmation_runs, simulate_confirmation
from analyses.robustness import with_ladders
from analyses.shipped import shipped_ladders, shipped_sensitivity, shipped_studies
from analyses.study import PLANS, analyse_study, load_study_runs, simulate_study

from .compile import background_compile


def _no_ladders_yet(path: Path) -> bool:
    """A --ladder folder that does not exist yet or holds no ladder file (a file given by name must exist)."""
    path = Path(path)
    if path.suffix == ".json":
        return False
    return not path.exists() or (path.is_dir() and not any(path.glob("*.json")))


def _clear_saved(folder: Path, games) -> None:
    """--save --force: remove the stored runs of the games about to be played (no stale runs stay)."""
    for name in games or PLANS:
        for pattern in ("*.parquet", "confirm/*.parquet"):
            for path in (Path(folder) / name).glob(pattern):
                path.unlink()


def run_report(args) -> int:
    # reports renders what analyses computed; only this command (and `replay`) needs it:
    import reports  # noqa: PLC0415  # lazy: loads matplotlib and jinja2 (~0.8 s) for this command only

    if args.games < 1:
        raise ValueError(f"--games must be at least 1, got {args.games}")
    scale = getattr(args, "confirm_scale", 1.0)
    if not scale > 0:
        raise ValueError(f"--confirm-scale must be positive, got {scale}")
    games = [g.strip() for g in args.only.split(",")] if args.only else None
    command = "balancelab " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else "balancelab report"
    t0 = time.perf_counter()
    stored = getattr(args, "stored", True)
    engine = getattr(args, "engine", "auto")
    ladders = shipped_ladders(games) if stored else {}
    if getattr(args, "ladder", None) is not None:
        if _no_ladders_yet(args.ladder):     # the README's folder before any `balancelab ladder --out` run
            print(f"note: no skill ladders in {str(args.ladder)!r} yet (make one with `balancelab ladder GAME "
                  f"--out {args.ladder}/GAME.json`); the report shows "
                  + ("the ladders shipped with balancelab" if stored else "no ladder"), file=sys.stderr)
        else:
            ladders.update(load_ladders(args.ladder))
    if args.source is not None:
        runs, skipped = load_study_runs(args.source), {}
        if games:
            runs = {g: r for g, r in runs.items() if g in games}
    else:
        if args.save is not None and args.force:
            _clear_saved(args.save, games)
        note = background_compile(games) if engine == "auto" else None
        if note:
            print(note, file=sys.stderr)
        runs, skipped = simulate_study(args.games, games=games, seed=args.seed, n_jobs=args.jobs,
                                       out_dir=args.save, progress=args.progress, engine=engine)
    if not runs:
        raise ValueError("no game could be simulated: " + "; ".join(f"{g}: {w}" for g, w in skipped.items()))
    study = analyse_study(runs, skipped, command=command, seed=args.seed, n_games=args.games)
    # discovery, then confirmation: each claim the runs above selected is measured again on fresh seeds
    if args.source is not None:
        confirmation = load_confirmation_runs(args.source)
    else:
        confirmation = simulate_confirmation(study, seed=args.seed, n_jobs=args.jobs, scale=scale,
                                             out_dir=args.save, progress=args.progress, engine=engine)
    if args.source is None or confirmation:
        study = confirm_study(study, confirmation)
    stores = add_suggested_fixes(study, args.source) if args.source is not None else {}
    if stored:
        for game, found in add_shipped_fixes(study).items():
            stores.setdefault(game, []).extend(found)
    study = with_confirmed(study, stores)       # a confirmed change is stated in Findings, beside its imbalance
    sensitivity = shipped_sensitivity(games) if stored else {}
    # ladder tests join each game's family; a robustness line per claim (luck, skill, assumptions)
    study = with_ladders(study, ladders, sensitivity)
    replays, no_replay = example_replays(runs)
    path = reports.build(study, args.out, ladders=ladders, replays=replays)
    confirm_games = sum(g.confirmation.games_played for g in study.games.values() if g.confirmation is not None)
    print(f"wrote {path} — {len(study.games)} game(s), {study.games_played:,} games played "
          f"(+{confirm_games:,} confirmation games), {time.perf_counter() - t0:.0f} s")
    for game, why in skipped.items():
        print(f"  not in the report: {game} ({why})")
    for game, why in no_replay.items():
        print(f"  no replay page for {game}: {why}")
    return 0


FIXES_TITLE = "Suggested fixes (re-balancing study: search scores are biased by selection; the confirmation decides)"


def add_suggested_fixes(study, folder) -> dict:
    """A "Suggested fixes" table for each re-balancing study stored in the study folder:
    `<game>/rebalance/` and any `<game>/rebalance-<name>/` (several per game, e.g. Nerath's unit
    prices and its starting gold), written by `balancelab rebalance --store`. Returns {game: [(study
    folder, None)]} (for `analyses.confirmed.with_confirmed`)."""
    stores = {}
    for name, game in study.games.items():
        for store in sorted((Path(folder) / name).glob("rebalance*")):
            if (store / SPEC_FILE).exists():
                table = suggested_fixes(store)
                where = "" if store.name == "rebalance" else f" ({store.name})"
                game.extra[f"{FIXES_TITLE}: {table.attrs['objective']}{where}"] = table
                stores.setdefault(name, []).append((store, None))
    return stores


def add_shipped_fixes(study) -> dict:
    """The "Suggested fixes" of the studies shipped with the package, for the games of `study`; a study of
    the same name stored in `--from` takes the place of the shipped one. Returns {game: [(study folder,
    its provenance for the report's appendix)]}."""
    stores = {}
    for name, game in study.games.items():
        for shipped in shipped_studies(name):
            where = "" if shipped.path.name == "rebalance" else f" ({shipped.path.name})"
            table = suggested_fixes(shipped.path)
            title = f"{FIXES_TITLE}: {table.attrs['objective']}{where}"
            if title in game.extra:              # the same study given with --from
                continue
            table.attrs["provenance"] = shipped.provenance()
            table.attrs["shipped"] = shipped.details()
            game.extra[f"{title} (shipped)"] = table
            stores.setdefault(name, []).append((shipped.path, shipped.details()))
    return stores
