"""`balancelab ladder GAME`: the skill ladder (analyses/ladder.py) on the command line.

    balancelab ladder nightsim --jobs 2 --out runs/ladders/nightsim.json
    balancelab ladder nightsim --games 40 --findings-games 40 --ladder random,greedy,ismcts:10
    balancelab report --from runs/study --ladder runs/ladders      # a "Skill ladder" section per game

Prints the ratings, the pairwise table and the findings by rung; `--out` stores the result as
JSON for `balancelab report --ladder FILE_OR_FOLDER` (the report renders it, never simulates).
"""
from __future__ import annotations

from analyses import ladder as L
from analyses import safe_io

from .checks import check_output_file


def run_ladder(args) -> int:
    for flag, value, least in (("--games", args.games, 1), ("--findings-games", args.findings_games, 0),
                               ("--search-games", args.search_games, 1),
                               ("--search-findings-games", args.search_findings_games, 0),
                               ("--players", args.players, 1), ("--findings-players", args.findings_players, 1),
                               ("--bootstrap", args.bootstrap, 0), ("--seed", args.seed, 0)):
        if value is not None and value < least:
            raise ValueError(f"{flag} must be at least {least}, got {value}")
    if args.jobs == 0:
        raise ValueError("--jobs must be a positive number of workers or -1 (all cores)")
    if args.out is not None:
        check_output_file(args.out, "--out", "ladder.json")
        safe_io.check_new_file(args.out, "--out", args.force, "a ladder file")
    ladder = args.ladder if args.ladder is not None else L.default_ladder(args.game)
    # read from the module when the command runs (not bound at import), so a module imported lazily
    # sees the ladder function as it is then
    result = L.skill_ladder(args.game, ladder=ladder, games=args.games, seed=args.seed, n_jobs=args.jobs,
                            players=args.players, findings_games=args.findings_games,
                            findings_players=args.findings_players, bootstrap=args.bootstrap, progress=args.progress,
                            search_games=args.search_games, search_findings_games=args.search_findings_games,
                            backend=args.backend, scheduler=args.scheduler)
    print(result.to_text())
    if args.out is not None:
        print(f"\nwrote {result.save(args.out)}")
    return 0
