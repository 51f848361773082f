"""`balancelab replay`: one game as a page a designer can step through (board, log, search).

    balancelab replay nerath --seed 3 --out game.html
    balancelab replay nightsim --seed 7 --players 3 --policies greedy,random,purist --out game.html
    balancelab replay --from runs/study/nightsim/main.parquet --game-index 12 --out game.html

`analyses.replay` plays the game with its log kept (from a stored run: that run's rules, the row's
policies and seed); `reports.replay` rebuilds the board after each event and writes the page.
"""
from __future__ import annotations

from pathlib import Path

from analyses import safe_io
from analyses.replay import record_from_results, record_game

from .checks import check_output_file


def run_replay(args) -> int:
    check_output_file(args.out, "--out", "game.html")
    if args.results is not None:
        if args.game_index is None:
            raise ValueError("--from needs --game-index I (the row of the results file to replay)")
        if args.game is not None or args.rule or args.players is not None or args.policies is not None:
            raise ValueError("--from takes the game, rules, policies and seed from the results file: "
                             "leave out GAME, --rule, --players and --policies")
        if not Path(args.results).is_file():
            raise ValueError(f"--from {args.results}: no such file")
        safe_io.check_new_file(args.out, "--out", args.force, "a replay page")
        record = record_from_results(args.results, args.game_index)
    else:
        if args.game is None:
            raise ValueError("give a GAME (nightsim, dreamsim, nerath) or --from RESULTS_FILE --game-index I")
        if args.game_index is not None:
            raise ValueError("--game-index needs --from RESULTS_FILE")
        if args.seed < 0:
            raise ValueError(f"--seed must be a non-negative integer, got {args.seed}")
        rules = dict(args.rule)
        if args.players is not None:
            rules["players"] = str(args.players)
        safe_io.check_new_file(args.out, "--out", args.force, "a replay page")
        record = record_game(args.game, args.seed, args.policies, rules or None)
    # reports renders what analyses played; only this command and `balancelab report` need it
    from reports.replay import Replay  # noqa: PLC0415  # lazy: loads jinja2 and matplotlib for this command only

    path = Replay(record).write(args.out)
    result = record.result
    print(f"wrote {path} — {record.title}, {record.source}: {len(record.log)} events, {result['turns']} turns, "
          f"winner {result['winner'] if result['winner'] is not None else 'none'}")
    return 0
