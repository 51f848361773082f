"""Checks of a `balancelab` command line before any game is played, in the words of its flags.

`validate(args)` runs before every command: the game, each `--rule`, `--players`, `--policies`,
every sweep value (`--field`, `--values`, `--policy-param`) and every output path (`--out`,
`--save`) are checked, so a bad value fails in a second with one line that names the flag,
never after minutes of simulation. `flag_words(message)` rewrites the Python argument names a
library message may carry ("use at_sea=True") into the flags of the command line ("add --sea").
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from .games import load_game, make_rules, resolve_policies, with_parameter
from .study import PLANS

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
    if hasattr(args, "rule") and getattr(args, "game", None) is not None:
        module = load_game(args.game)
        rules = check_rules(module, args.rule, args.players)
        if getattr(args, "values", None) is not None and hasattr(args, "field"):
            check_sweep(module, rules, args.policies, args.field, args.values, args.policy_param)
        else:
            _flagged("--policies", lambda: resolve_policies(module, args.policies, rules.players))
    if hasattr(args, "resume") and getattr(args, "out", None) is not None:       # simulate
        check_output_file(args.out.with_suffix(".csv") if args.csv else args.out, "--out")
    if hasattr(args, "source"):                                                  # report
        check_report(args)


def _flagged(flag: str, check):
    try:
        return check()
    except ValueError as exc:
        message = flag_words(str(exc))
        raise ValueError(message if message.startswith(flag) else f"{flag}: {message}") from None


def check_rules(module, assignments, players=None):
    """The Rules of `--rule FIELD=VALUE ...` and `--players P`; a refusal names the flag that caused it."""
    flags = [(f"--rule {field}={value}", {field: value}) for field, value in assignments]
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
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"{flag} {given}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"{flag} {given}: no permission to write in {existing}")


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
    if args.source is not None:
        if not Path(args.source).is_dir():
            raise ValueError(f"--from {args.source}: no such folder (write one with --save)")
        if args.save is not None:
            raise ValueError("--from and --save do not go together: --from reads stored runs, --save stores new ones")
        if Path(args.out).exists() and not args.force:
            raise ValueError(f"--out {args.out} exists; rebuilding with --from would overwrite it: give another "
                             f"--out, or add --force to replace it")
    if args.save is not None:
        check_output_folder(args.save, "--save")
        if any(Path(args.save).glob("*/*.parquet")) and not args.force:
            raise ValueError(f"--save {args.save} already holds study results; give an empty folder, or add "
                             f"--force to replace them")
