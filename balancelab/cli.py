"""The `balancelab` command: simulate to a file, or answer a balance question.

Bad input (unknown game, policy or rules field, a value of the wrong type, --games 0, an
unreadable or foreign results file) prints one line to stderr and exits with code 2.

This module is the entry point and imports only argparse-level modules: `balancelab --help`, no
command or an unknown one are answered from the command list below, without loading pandas, numba,
scipy or the games (a fraction of a second instead of seconds). Every command's parser lives in
`balancelab.parser` (argparse-level too, so `balancelab COMMAND --help` is as quick); a command's
code lives in `balancelab.commands` and the other modules of this package, imported only when the command
runs.
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import tempfile
import time
import traceback
from pathlib import Path

from analyses.suggest import did_you_mean

PROG = "balancelab"
DESCRIPTION = "Simulate tabletop games in bulk and answer balance questions."
EXAMPLES = """\
examples:
  balancelab fpa nightsim --games 20000 --jobs 2
  balancelab simulate nightsim --games 100000 --players 3 --policies greedy,random,random \\
      --seed 7 --jobs 8 --out runs/greedy3.parquet
  balancelab simulate nightsim --games 100000 ... --out runs/greedy3.parquet --resume   # after Ctrl-C
  balancelab winrates --in runs/greedy3.parquet
  balancelab length nightsim --games 2000 --rule creatures_to_win=6
  balancelab sweep nightsim --field players --values 2,3,4,5 --games 4000 --jobs 2
  balancelab sweep nightsim --policy-param greedy --field weights.pure --values 0,2,5 \\
      --policies greedy,random,random,random --games 4000
  balancelab fpa nightsim --games 200000 --backend dask --scheduler tcp://host:8786
  balancelab games                  # the games; then: balancelab policies GAME, balancelab rules GAME
  balancelab report                 # the balance report of every game (the main job)
  balancelab ladder nightsim --jobs 2 --out runs/ladders/nightsim.json   # skill ladder; report --ladder
  balancelab replay nerath --seed 3 --out game.html   # watch one game step by step
each command shows its own examples: balancelab COMMAND --help
"""
#: (command, one-line help) as the full parser registers them (a test keeps the two the same)
COMMANDS = (
    ("simulate", "play games and write one row per game to a results file"),
    ("fpa", "first-player advantage: each seat's win rate against the fair share"),
    ("winrates", "win rates by seat, policy and faction; policy matrix and ratings"),
    ("length", "game length: turns and decisions, overall and by winning seat"),
    ("sweep", "vary one rules field (or policy parameter) with common random numbers"),
    ("battle", "Conquest of Nerath battle calculator: win odds, survivors, gold swing"),
    ("units", "Conquest of Nerath unit cost efficiency: hits per gold, duels, best armies, break-even"),
    ("report", "simulate every game and write the HTML balance report (the main job)"),
    ("replay", "write one game as an HTML page to step through: the board, the log, a search box"),
    ("rebalance", "find the smallest rule change that fixes an imbalance, and confirm it"),
    ("tune-policy", "tune a heuristic's weights against a pool of opponents, and confirm the result on fresh seeds"),
    ("ladder", "skill ladder: ratings of random, the heuristics and search, and the findings at each rung"),
    ("sensitivity", "re-measure the headline figures under each alternative reading of the rules"),
    ("games", "list the games, their players, rules versions and the policies runs use"),
    ("policies", "list a game's policies and their parameters (names for --policies, --policy-param)"),
    ("rules", "list a game's Rules fields: default, allowed values, meaning (for --rule FIELD=VALUE)"),
    ("compile", "compile the card games' batch kernels once, so later runs play them"),
)


class _Lazy:
    """A module imported on first attribute use (the commands' heavy imports stay off `--help`)."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr):
        return getattr(importlib.import_module(self._name), attr)


_checks = _Lazy("balancelab.checks")
_info = _Lazy("balancelab.info")
_games = _Lazy("analyses.games")
_parser = _Lazy("balancelab.parser")


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit code 2) and a "did you mean" for a mistyped command."""

    def error(self, message):
        wrong = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        hint = did_you_mean(wrong.group(1), re.findall(r"'([^']*)'", wrong.group(2))) if wrong else ""
        # the message quotes what was typed: a line break or other control character in it is shown
        # escaped, so the error stays one line
        message = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in message)
        self.exit(2, f"{self.prog}: error: {message}{hint} (see --help)\n")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 internal error, 2 bad input, 130 interrupted)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser() if _names_a_command(argv) else command_list_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or an argparse error already printed
        return int(exc.code or 0)
    try:
        if getattr(args, "policies", "") is None and getattr(args, "game", None) is not None:
            # the game's main policy in every seat (as `balancelab report`), not random
            args.policies = _info.default_policy(_games.load_game(args.game))
        _checks.validate(args)        # every value checked before any game is played
        return args.command(args)
    except EXPECTED as exc:
        print(f"{PROG}: error: {_checks.flag_words(_one_line(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        hint = " (rerun the same command with --resume to finish)" if getattr(args, "out", None) else ""
        print(f"{PROG}: interrupted{hint}", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001  # the one boundary: a bug is one line plus a saved traceback
        where = save_traceback(exc, argv)
        print(f"{PROG}: internal error: {type(exc).__name__}: {_one_line(exc)} (traceback saved to {where}; "
              f"please report it)", file=sys.stderr)
        return 1


#: expected failures: bad input (ValueError, its LimitError and IllegalActionError), files and folders
#: (OSError), a run that runs out of memory (MemoryError): one line, exit code 2
EXPECTED = (ValueError, OSError, MemoryError)
#: where an unexpected exception's traceback is kept (BALANCELAB_CRASH_DIR overrides it)
CRASH_DIR_ENV = "BALANCELAB_CRASH_DIR"


def save_traceback(exc: BaseException, argv) -> str:
    """Write the traceback of `exc` (and the command line) to a new file; its path, or a note when even
    that fails."""
    folder = Path(os.environ.get(CRASH_DIR_ENV) or Path(tempfile.gettempdir()) / "balancelab-crashes")
    text = (f"balancelab {' '.join(map(str, argv))}\n\n"
            + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f"crash-{time.strftime('%Y%m%d-%H%M%S')}-", suffix=".txt", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return name
    except OSError as err:
        return f"nowhere: {folder} is not writable ({err.strerror or err})"


def build_parser() -> Parser:
    """The full parser: every command with its options (argparse-level: the commands' modules are
    imported when a command runs)."""
    return _parser.build_parser()


def command_list_parser() -> Parser:
    """The top-level parser alone: the command list, the description and the examples (no command's
    options); enough for `--help`, a missing command and a mistyped one."""
    parser = Parser(prog=PROG, description=DESCRIPTION, epilog=EXAMPLES,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND", parser_class=Parser)
    for name, help_text in COMMANDS:
        commands.add_parser(name, help=help_text)
    return parser


def _names_a_command(argv: list[str]) -> bool:
    first = next((a for a in argv if not a.startswith("-")), None)
    return first in {name for name, _ in COMMANDS}


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def __getattr__(name: str):
    """The commands' names (`balancelab.cli.run_fpa`, ...) are those of `balancelab.commands`."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module("balancelab.commands"), name)
