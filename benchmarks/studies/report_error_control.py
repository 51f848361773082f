"""Error control of a report's Findings on toy games with a known truth: false findings, power, bias.

Each simulated report runs the report's own code (`analyses.multiplicity.with_family`: one Holm family per
game; `analyses.findings.game_findings`: claims selected on a discovery run, re-measured on a fresh
confirmation run) on a toy game drawn from an exact model (tests/analyses/report_toys.py): 4 fair seats with
seat-bound luck and 12 opening-hand cards, each run `--deals` deals of 4 rotations. The null toy has no
effect at all; in the effect toy card 0 multiplies its holder's odds by (1 + beta) outside the lucky deals,
with an exactly known effect. It prints, with binomial standard errors:

- null toy: the share of reports stating a false finding (selected, then confirmed) and selecting a false
  claim (the family-wise error rate, at most 5% by Holm);
- effect toy: the share finding the real effect (selected and confirmed), the shares with a false claim
  selected or stated, and the mean printed (confirmation) estimate of the real effect minus the exact truth
  with its standard error — and, for contrast, the same for the selected discovery estimate (winner's curse).

    PYTHONPATH=$PWD:$PWD/tests/analyses python benchmarks/studies/report_error_control.py --reports 400
"""
from __future__ import annotations

import argparse
import math
import sys
import time

from analyses.findings import ALPHA

import report_toys as rt


def _share(name: str, x, nominal: float | None = None) -> str:
    p, se = rt.share(x)
    line = f"  {name}: {p:.3f} (SE {se:.3f}; {int(round(p * len(x)))} of {len(x)})"
    if nominal is not None:
        line += f", within {nominal} + 2 SE(nominal): {p <= nominal + 2 * math.sqrt(nominal * (1 - nominal) / len(x))}"
    return line


def _error(name: str, table, toy, column: str) -> str:
    error, se, n = rt.estimate_error(table, toy, column)
    return (f"  {name}: mean {error:+.2f} points (SE {se:.2f}, {n} reports), within 2 SE: "
            f"{abs(error) <= 2 * se}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reports", type=int, default=400, help="simulated reports per toy (default 400)")
    ap.add_argument("--deals", type=int, default=rt.Toy.deals, help=f"deals per run, 4 games each (default {rt.Toy.deals})")
    ap.add_argument("--seat-luck", type=float, default=rt.Toy.seat_luck,
                    help=f"chance a deal hands every rotation to one seat (default {rt.Toy.seat_luck})")
    ap.add_argument("--beta", type=float, default=rt.EFFECT_BETA,
                    help=f"card 0 multiplies its holder's odds by 1 + beta in the effect toy (default {rt.EFFECT_BETA})")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.reports < 2 or args.deals < 2 or not 0 <= args.seat_luck < 1 or not args.beta > 0:
        ap.error("--reports and --deals must be at least 2, --seat-luck in [0, 1) and --beta positive")
    null = rt.Toy(deals=args.deals, seat_luck=args.seat_luck)
    effect = rt.effect_toy(deals=args.deals, seat_luck=args.seat_luck, beta=args.beta)
    print("# " + " ".join(["python", *sys.argv]))
    print(f"# {args.reports} reports per toy; {args.deals} deals x 4 rotations per run (discovery and confirmation); "
          f"seat luck {args.seat_luck}; {null.cards} opening-hand cards, each dealt to a seat with chance {null.share}; "
          f"one Holm family per report (4 seats, the chi-square of equal seats, {null.cards} cards); seed {args.seed}")
    start = time.time()
    t0 = time.time()
    table = rt.reports(null, args.reports, seed=args.seed)
    print(f"null toy (no effect at all): {time.time() - t0:.0f} s")
    print(_share("reports stating a false finding (selected, then confirmed)", table["false_stated"], ALPHA))
    print(_share("reports selecting a false claim (family-wise error)", table["false_selected"], ALPHA))
    t0 = time.time()
    table = rt.reports(effect, args.reports, seed=args.seed + 1)
    print(f"effect toy (card 0: beta {args.beta}, exact effect {effect.truth():+.2f} points): {time.time() - t0:.0f} s")
    print(_share("reports finding the real effect (selected and confirmed)", table["effect_stated"]))
    print(_share("reports selecting the real effect", table["effect_selected"]))
    print(_share("reports stating a false finding (selected, then confirmed)", table["false_stated"], ALPHA))
    print(_share("reports selecting a false claim (family-wise error)", table["false_selected"], ALPHA))
    print(_error("printed confirmation estimate of the selected effect minus the truth", table, effect, "estimate"))
    print(_error("for contrast, its selected discovery estimate minus the truth", table, effect, "discovery_estimate"))
    print(f"  sentences showing their confirmation estimate: {bool(table['shown'].all())}")
    print(f"# wall time {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
