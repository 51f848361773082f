"""Checks of a `balancelab` command line before any game is played, in the words of its flags.

`validate(args)` runs before every command: the game, each `--rule`, `--players`, `--policies`,
every sweep value (`--field`, `--values`, `--policy-param`) and every output path (`--out`,
`--save`) are checked, so a bad value fails in a second with one line that names the flag,
never after minutes of simulation. `flag_words(message)` rewrites the Python argument names a
library message may carry ("use at_sea=True") into the flags of the command line ("add --sea").
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from analyses import limits, safe_io
from analyses.games import load_game, make_rules, resolve_policies, with_parameter
from analyses.io import sidecar_path
from analyses.study import PLANS, run_sizes
from analyses.tune_study import check_storage

#: (pattern, replacement) from a library message to command-line words
FLAG_WORDS = (
    (r"use at_sea=True for a sea battle", "add --sea for a sea battle"),
    (r"\bat_sea=True\b", "--sea"),
    (r"use method='exact'", "use --method exact"),
    (r"^method must be one of", "--method must be one of"),
    (r"^retreat must be", "--retreat must be"),
    (r"^policies: ", "--policies: "),
    (r"^policy_param '([^']*)' is not among the policies", r"--policy-param \1 is not among the --policies"),
    (r"^n_jobs must be", "--jobs must be"),
    (r"^cost_weight must be", "--cost-weight must be"),
    (r"^(unknown )?objective ", r"--objective: \1objective "),
    (r"^n=([\d,]+) battles", r"--n \1 battles"),
    (r"^seed must be", "--seed must be"),
    (r"^seat_order must be", "--seat-order must be"),
)


def flag_words(message: str) -> str:
    """`message` with Python argument names replaced by the command line's flags."""
    for pattern, replacement in FLAG_WORDS:
        message = re.sub(pattern, replacement, message)
    return message


def validate(args) -> None:
    """Raise ValueError (naming the flag) for any value of `args` that a run would refuse later."""
    check_sizes(args)
    if hasattr(args, "rule") and getattr(args, "game", None) is not None:
        module = load_game(args.game)
        rules = check_rules(module, args.rule, args.players)
        if getattr(args, "values", None) is not None and hasattr(args, "field"):
            check_sweep(module, rules, args.policies, args.field, args.values, args.policy_param)
        else:
            _flagged("--policies", lambda: resolve_policies(module, args.policies, rules.players))
    if hasattr(args, "resume") and getattr(args, "out", None) is not None:       # simulate
        check_simulate_output(args)
    if hasattr(args, "source"):                                                  # report
        check_report(args)
    if hasattr(args, "storage"):                                                 # tune-policy
        if args.storage is not None:
            check_storage(args.storage, "--storage")
        if args.out is not None:
            safe_io.check_new_file(args.out, "--out", args.force, "a tuned data file")
    if hasattr(args, "bootstrap") and getattr(args, "out", None) is not None:    # ladder
        safe_io.check_new_file(args.out, "--out", args.force, "a ladder file")


def check_simulate_output(args) -> None:
    """simulate --out: a file we can write; its CSV sidecar and a link at its name are never replaced
    without --force (a finished --out itself: `simulate_to_file` offers --resume or --force)."""
    out = args.out.with_suffix(".csv") if args.csv else args.out
    check_output_file(out, "--out")
    if args.force or args.resume:
        return
    if out.is_symlink():
        raise ValueError(f"--out {out} is a link; give another name, or add --force to replace the link")
    if args.csv and safe_io.exists(sidecar_path(out)) and not out.exists():
        raise ValueError(f"--out {out}: its sidecar {sidecar_path(out)} exists; give another name, or add --force "
                         f"to replace it")


def _flagged(flag: str, check):
    try:
        return check()
    except ValueError as exc:
        message = flag_words(str(exc))
        raise ValueError(message if message.startswith(flag) else f"{flag}: {message}") from None


def check_rules(module, assignments, players=None):
    """The Rules of `--rule FIELD=VALUE ...` and `--players P`; a refusal names the flag that caused it."""
    flags = [(f"--rule {field}={value}", {field: value}) for field, value in assignments]
    for field, value in assignments:
        if players is not None and field == "players" and str(value).strip() != str(players):
            raise ValueError(f"--players {players} and --rule players={value} disagree; give one of them")
    if players is not None:
        flags.append((f"--players {players}", {"players": players}))
    overrides = {k: v for _, change in flags for k, v in change.items()}
    try:
        return make_rules(module, overrides or None)
    except ValueError as combined:
        for flag, change in flags:
            try:
                make_rules(module, change)
            except ValueError as single:
                raise ValueError(f"{flag}: {single}") from None
        raise ValueError(f"{' '.join(flag for flag, _ in flags)}: {combined}") from None


def check_sweep(module, rules, policies, field: str, values, policy_param=None) -> None:
    """Every value of a sweep is a valid setting (and fits the line-up) before the first is played."""
    if policy_param is not None:
        lineup = _flagged("--policies", lambda: resolve_policies(module, policies, rules.players))
        if policy_param not in lineup:
            raise ValueError(f"--policy-param {policy_param} is not among the --policies "
                             f"({', '.join(map(str, lineup))})")
    seen = {}
    for value in values:
        if policy_param is None:
            try:
                variant = make_rules(module, rules, **{field: value})
            except ValueError as exc:
                flag = "--field" if "unknown" in str(exc) and "field" in str(exc) else f"--values {value}"
                raise ValueError(f"{flag}: {exc}") from None
            _flagged("--policies", lambda: resolve_policies(module, policies, variant.players))
            setting = getattr(variant, field)
        else:
            try:
                changed = with_parameter(module.POLICIES[policy_param], field, value)
            except ValueError as exc:
                missing = re.search(r"has no parameter '([^']*)'", str(exc))
                if missing:
                    raise ValueError(f"--field {field}: the {policy_param} policy has no parameter {missing.group(1)!r} "
                                     f"(`balancelab policies {module.__name__}` lists them)") from None
                raise ValueError(f"--values {value}: {exc}") from None
            setting = changed
            for attr in field.split("."):
                setting = getattr(setting, attr)
            if dataclasses.is_dataclass(setting) or isinstance(setting, (dict, list, tuple)):
                inner = [f.name for f in dataclasses.fields(setting)] if dataclasses.is_dataclass(setting) else []
                raise ValueError(f"--field {field} is a group of parameters, not one"
                                 f"{'; give one of ' + ', '.join(f'{field}.{n}' for n in inner[:4]) + ', ...' if inner else ''}")
        if repr(setting) in seen:
            raise ValueError(f"--values: {seen[repr(setting)]!r} and {value!r} are the same setting of {field}")
        seen[repr(setting)] = value


def check_output_file(path, flag: str, example: str = "results.parquet") -> Path:
    """`path` can be written as a file: not a folder, and its folder exists or can be made."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{flag} {path}: is a folder; give a file name, e.g. {path / example}")
    _check_folder(path.parent, flag, path)
    return path


def check_output_folder(path, flag: str) -> Path:
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{flag} {path}: is a file, not a folder")
    _check_folder(path, flag, path)
    return path


def _check_folder(folder: Path, flag: str, given: Path) -> None:
    """The first existing folder above `folder` is a folder we may write in."""
    safe_io.check_folder(folder, flag, given)


def check_report(args) -> None:
    """`balancelab report`: sizes, games, output paths; `--from` never overwrites without `--force`."""
    if args.games < 1:
        raise ValueError(f"--games must be at least 1, got {args.games}")
    if args.jobs == 0:
        raise ValueError("--jobs must be a positive number of workers or -1 (all cores), got 0")
    if args.only:
        unknown = [g.strip() for g in args.only.split(",") if g.strip() not in PLANS]
        if unknown:
            raise ValueError(f"--only: no standard study for {', '.join(unknown)}; known: {', '.join(PLANS)}")
    check_output_file(args.out, "--out", "balance-report.html")
    safe_io.check_new_file(args.out, "--out", args.force, "a report; --save keeps the runs, not the report")
    if args.source is not None:
        if not Path(args.source).is_dir():
            raise ValueError(f"--from {args.source}: no such folder (write one with --save)")
        if args.save is not None:
            raise ValueError("--from and --save do not go together: --from reads stored runs, --save stores new ones")
    if args.save is not None:
        check_output_folder(args.save, "--save")
        if any(Path(args.save).glob("*/*.parquet")) and not args.force:
            raise ValueError(f"--save {args.save} already holds study results; give an empty folder, or add "
                             f"--force to replace them")


#: argparse dest -> (flag, least, limit): every count a command takes, bounded before any work
COUNTS = {
    "games": ("--games", 1, limits.MAX_GAMES),
    "chunk_size": ("--chunk-size", 1, limits.MAX_GAMES),
    "first_games": ("--first-games", 1, limits.MAX_GAMES),
    "games_per_trial": ("--games-per-trial", 1, limits.MAX_GAMES),
    "confirm_games": ("--confirm-games", 1, limits.MAX_GAMES),
    "findings_games": ("--findings-games", 0, limits.MAX_GAMES),
    "search_games": ("--search-games", 1, limits.MAX_GAMES),
    "search_findings_games": ("--search-findings-games", 0, limits.MAX_GAMES),
    "bootstrap": ("--bootstrap", 0, limits.MAX_BOOTSTRAP),
    "trials": ("--trials", 1, limits.MAX_TRIALS),
    "rungs": ("--rungs", 1, limits.MAX_RUNGS),
    "reduction_factor": ("--reduction-factor", 1, limits.MAX_GAMES),
    "max_knobs": ("--max-knobs", 1, 10_000),
    "players": ("--players", 1, limits.MAX_PLAYERS),
    "findings_players": ("--findings-players", 1, limits.MAX_PLAYERS),
}


def check_sizes(args) -> None:
    """Every size on the command line within its limit (analyses.limits), before anything else runs."""
    for dest, (flag, least, limit) in COUNTS.items():
        value = getattr(args, dest, None)
        if value is not None:
            limits.count(value, flag, limit, least)
    if getattr(args, "jobs", None) is not None:
        limits.jobs(args.jobs)
    if getattr(args, "seed", None) is not None and isinstance(args.seed, int):
        limits.seed(args.seed)
    values = getattr(args, "values", None)
    if values is not None and getattr(args, "games", None) is not None:
        limits.count(len(values), "--values", limits.MAX_SWEEP_VALUES, what="values")
        limits.games(args.games * len(values), f"--games {args.games} x {len(values)} --values")
    if getattr(args, "rungs", None) is not None:
        first = getattr(args, "first_games", None) or getattr(args, "games_per_trial", None)
        first_flag = "--first-games" if getattr(args, "first_games", None) else "--games-per-trial"
        if first is not None:
            limits.rung_games(first, args.reduction_factor, args.rungs, first_flag)
    if hasattr(args, "source") and getattr(args, "games", None) is not None:        # report: all its runs
        total = sum(sum(run_sizes(plan, args.games).values()) for plan in PLANS.values())
        if total > limits.MAX_GAMES:
            raise limits.LimitError(f"--games {args.games}: the report would play {total:,} games in all, above the "
                                    f"limit of {limits.MAX_GAMES:,}")
