"""`balancelab sensitivity`: do the headline figures hold under each other reading of the rules?

    balancelab sensitivity dreamsim --games 1000 --policies heuristic --jobs 2
    balancelab sensitivity nightsim --games 2000 --policies greedy --only D-scavenger,D-win-timing
    balancelab sensitivity nightsim --games 500 --format csv > sensitivity.csv
    balancelab sensitivity nerath --games 200 --policies balanced --only D-flyer-capture,D-starting-gold
    balancelab sensitivity nerath --games 100 --policies tuned --out runs/sensitivity/nerathsim-tuned.json

Plays the published rules and each alternative of the game's DECISIONS on the same seeds
(`analyses.sensitivity`) and prints a table of paired differences (alternative - default; rates in
points, the game length in turns; * = significant after Holm over the whole table) and one verdict
per decision: "holds", or "moves <quantity> by <diff> [95% interval]". --format csv or json prints
the tidy table instead (every quantity with its interval, p-value and Holm-adjusted p-value).
"""
from __future__ import annotations

import textwrap

from analyses import safe_io
from analyses.games import load_game
from analyses.sensitivity import HORROR, TIMEOUTS, TURNS, choose_decisions, is_rate, save, sensitivity, verdicts

from .checks import check_output_file

WIDTH = 100
CELL = 8


def run_sensitivity(args) -> int:
    if args.only is not None:
        try:
            choose_decisions(load_game(args.game), args.only)
        except ValueError as exc:
            raise ValueError(f"--only: {exc}") from None
    if getattr(args, "out", None) is not None:       # checked before any game is played
        check_output_file(args.out, "--out", "sensitivity.json")
        safe_io.check_new_file(args.out, "--out", args.force, "a sensitivity file")
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
    if getattr(args, "out", None) is not None:
        print(f"wrote {save(table, args.out)}")
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
        for why in base.get("engine_fallback", ()):   # the arms the kernel refused: why this baseline played Python
            lines.extend(textwrap.wrap(f"Python, not the kernel: {why}", width, initial_indent="  ",
                                       subsequent_indent="    "))
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
