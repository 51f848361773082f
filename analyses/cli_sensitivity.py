"""`balancelab sensitivity`: do the headline figures hold under each other reading of the rules?

    balancelab sensitivity dreamsim --games 1000 --policies heuristic --jobs 2
    balancelab sensitivity nightsim --games 2000 --policies greedy --only D-scavenger,D-win-timing
    balancelab sensitivity nightsim --games 500 --format csv > sensitivity.csv

Plays the published rules and each alternative of the game's DECISIONS on the same seeds
(`analyses.sensitivity`) and prints a table of paired differences (alternative - default; rates in
points, the game length in turns; * = significant after Holm over the whole table) and one verdict
per decision: "holds", or "moves <quantity> by <diff> [95% interval]". --format csv or json prints
the tidy table instead (every quantity with its interval, p-value and Holm-adjusted p-value).
"""
from __future__ import annotations

import argparse
import textwrap

from .cli_types import assignment as _assignment
from .cli_types import comma_list as _comma_list
from .cli_types import jobs as _jobs
from .cli_types import non_negative_int as _non_negative_int
from .cli_types import positive_int as _positive_int
from .games import load_game
from .sensitivity import HORROR, SEAT_ORDERS, TIMEOUTS, TURNS, choose_decisions, is_rate, sensitivity, verdicts

WIDTH = 100
CELL = 8
FORMATS = ("text", "csv", "json")
EXAMPLES = """\
examples:
  balancelab sensitivity dreamsim --games 1000 --policies heuristic --jobs 2
  balancelab sensitivity nightsim --games 2000 --policies greedy --only D-scavenger,D-win-timing
  balancelab sensitivity nightsim --games 500 --format csv > sensitivity.csv
  balancelab sensitivity nerath --games 200 --policies balanced --only D-flyer-capture,D-starting-gold
"""


def add_subcommands(commands) -> None:
    """Register `sensitivity` on an argparse subparsers object."""
    sub = commands.add_parser(
        "sensitivity", help="re-measure the headline figures under each alternative reading of the rules",
        description="Play the published rules and each alternative reading listed in the game's DECISIONS on "
                    "the same seeds, and print each seat's win rate, the game length, the timeout share (and "
                    "the Horror's win share) as paired differences from the default, with one verdict per "
                    "decision: holds, or moves <quantity> by <diff> [95% interval] (Holm over the whole table).",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("game", help="nightsim (nightmarium), dreamsim (midnighters) or nerathsim (nerath): a game "
                                  "with DECISIONS")
    sub.add_argument("--games", type=_positive_int, default=2000, help="games per arm (default 2000)")
    sub.add_argument("--policies", default=None, help="one policy for every seat, or one per seat: greedy,random")
    sub.add_argument("--players", type=_positive_int, default=None, help="number of players (Rules.players)")
    sub.add_argument("--rule", action="append", default=[], type=_assignment, metavar="FIELD=VALUE",
                     help="change a Rules field in every arm (repeatable)")
    sub.add_argument("--only", type=_comma_list, default=None, metavar="IDS",
                     help="comma-separated decision ids (default: all of the game's DECISIONS)")
    sub.add_argument("--jobs", type=_jobs, default=1, help="worker processes (-1 = all cores)")
    sub.add_argument("--seed", type=_non_negative_int, default=0, help="seed of the common deals (default 0)")
    sub.add_argument("--seat-order", choices=SEAT_ORDERS, default="fixed",
                     help="fixed (default) or rotate: every policy in every seat, the deal as the paired unit")
    sub.add_argument("--engine", choices=("auto", "python", "kernel"), default="auto",
                     help="auto (default): the batch kernel when it plays every arm of a comparison")
    sub.add_argument("--format", choices=FORMATS, default="text", help="text (default), csv or json")
    sub.add_argument("--progress", action="store_true", help="show a progress bar per arm on stderr")
    sub.set_defaults(command=run_sensitivity)


def run_sensitivity(args) -> int:
    if args.only is not None:
        try:
            choose_decisions(load_game(args.game), args.only)
        except ValueError as exc:
            raise ValueError(f"--only: {exc}") from None
    rules = dict(args.rule)
    if args.players is not None:
        rules["players"] = str(args.players)
    table = sensitivity(args.game, decisions=args.only, n_games=args.games, policies=args.policies, seed=args.seed,
                        n_jobs=args.jobs, engine=args.engine, rules=rules or None, seat_order=args.seat_order,
                        progress=args.progress)
    if args.format == "csv":
        print(table.to_csv(index=False), end="")
    elif args.format == "json":
        print(table.to_json(orient="records", indent=1))
    else:
        print(render(table))
    return 0


def _label(quantity: str) -> str:
    if quantity.endswith(" win rate"):
        return quantity[:-len(" win rate")]
    return {TURNS: "turns", TIMEOUTS: "timeout", HORROR: "Horror"}.get(quantity, quantity[:CELL - 1])


def _value(quantity: str, value: float) -> str:
    return f"{100 * value:.1f}%" if is_rate(quantity) else f"{value:.1f}"


def render(table, width: int = WIDTH) -> str:
    """The text report: a header, the defaults, one row of differences per alternative, the verdicts."""
    attrs = table.attrs
    quantities = list(dict.fromkeys(table["quantity"]))
    policies = attrs.get("policies", [])
    lineup = f"{len(policies)} x {policies[0]}" if len(set(policies)) == 1 else ",".join(policies)
    lines = [f"{attrs.get('game')} sensitivity ({attrs.get('rules_version')}): {lineup}, {attrs.get('games')} games "
             f"per arm, seat order {attrs.get('seat_order')}, seed {attrs.get('seed')}",
             "alternative - default, paired on the same seeds (points; turns); * = Holm p < 0.05"]
    for base in attrs.get("baselines", []):
        changed = ", ".join(f"{k}={v}" for k, v in base["rules"].items())
        head = f"default{' with ' + changed if changed else ''} ({base['engine']} engine): "
        cells = [f"{_label(q)} {_value(q, v)}" for q, v in base["default"].items()]
        lines.extend(textwrap.wrap(head + " · ".join(cells), width, subsequent_indent="  "))
    labels = table["decision"].astype(str).str.len()
    decision_width = int(labels.max()) if len(labels) else 8
    alt_width = max(6, min(int(table["alternative"].astype(str).str.len().max()) if len(table) else 6,
                           width - decision_width - 2 - CELL * len(quantities)))
    header = f"{'decision':<{decision_width}} {'alternative':<{alt_width}}" + "".join(
        f"{_label(q):>{CELL}}" for q in quantities)
    lines += ["", header]
    for (decision, alternative), part in table.groupby(["decision", "alternative"], sort=False):
        cells = part.set_index("quantity")
        row = f"{decision:<{decision_width}} {str(alternative)[:alt_width]:<{alt_width}}"
        for q in quantities:
            r = cells.loc[q]
            scale = 100.0 if is_rate(q) else 1.0
            mark = "*" if r["p_holm"] < 0.05 else " "
            row += f"{scale * r['diff']:>+{CELL - 1}.1f}{mark}" if r["diff"] == r["diff"] else f"{'-':>{CELL - 1}} "
        lines.append(row.rstrip())
    lines += ["", "verdicts (Holm over the whole table; 95% intervals):"]
    for v in verdicts(table).itertuples():
        lines.extend(textwrap.wrap(f"{v.decision} ({v.field}): {v.verdict}", width, subsequent_indent="    "))
    return "\n".join(lines)
