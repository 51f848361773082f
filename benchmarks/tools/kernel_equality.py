"""The batch kernel against `play_game`, record for record: for every line-up and rule set below, the
same int seeds through both, and the count of games whose records differ (expected: none).

    python benchmarks/tools/kernel_equality.py                  # 5,000 seeds per case
    python benchmarks/tools/kernel_equality.py --seeds 500 --cases lineups --jobs 2

Cases: random seats at 2-5 players, each built-in heuristic the kernel plays, mixed line-ups and
context-feature weights (published rules); and a mixed line-up under every rules field the lab varies
(each `nightsim.KNOBS` knob at both ends of its range, each `nightsim.DECISIONS` alternative without
seals, a small deck for reshuffles, a tight turn cap for timeouts; the test plays every knob value). Prints per case the games, the differing
games, the first differing seed with what differs and where the games part
(`simcore.equality.compare`, `nightsim.kernel.bridge.first_divergence`), the
engines' games/s, and the totals. The fast test of the same property:
tests/nightsim/test_nightsim_kernel_equality.py. Exit status 1 if any record differs.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
from concurrent.futures import ProcessPoolExecutor

import nightsim
from nightsim import DECISIONS, GREEDY, KNOBS, HeuristicPolicy, Rules, play_game
from nightsim.kernel.bridge import first_divergence
from nightsim.kernel.play_batch import play_batch
from simcore.equality import compare

CONTEXT = HeuristicPolicy(dataclasses.replace(GREEDY, win=7.0, follow=1.25, pair=2.5, crowd=-0.75, mocker_ctx=1.5,
                                              executioner_ctx=0.5, scavenger_ctx=0.75, devourer_ctx=-0.5,
                                              draw_hand=-0.25, discard_dead=0.5, discard_extra=0.25,
                                              discard_value=0.3, fit_value=2.0, threat=3.0, discard=0.0,
                                              draw=0.25), "context")
MIXED = ("greedy", "random", "purist", "aggressor", "random")


def lineup_cases() -> list:
    cases = [(Rules(players=n), ("random",) * n) for n in (2, 3, 4, 5)]
    cases += [(Rules(players=4), (name,) * 4) for name in ("greedy", "purist", "aggressor")]
    cases += [(Rules(players=4), MIXED[:4]), (Rules(players=5), MIXED), (Rules(players=2), ("greedy", "random")),
              (Rules(players=3), ("heuristic", CONTEXT, "random")), (Rules(players=2), (CONTEXT, CONTEXT))]
    if "tuned" in nightsim.POLICIES:
        cases.append((Rules(players=3), ("tuned", "greedy", "random")))
    return cases


def rules_cases() -> list:
    base = Rules(players=3)
    out = []
    for name, knob in KNOBS.items():   # each knob at both ends of its range
        for value in sorted({knob["low"], knob["high"]}):
            if value == getattr(base, name):
                continue
            players = max(3, value) if name == "reduced_first_turn_seats" else 3
            try:
                out.append(dataclasses.replace(base, players=players, **{name: value}))
            except ValueError:
                pass   # ruled out by another field's published value
    out += [rules for d in DECISIONS if not d.requires for rules in d.variants(base)]
    small = nightsim.load_cards()[:40]
    out += [dataclasses.replace(base, min_discard=2), dataclasses.replace(base, creature_limit=7),
            dataclasses.replace(base, cards=small), dataclasses.replace(base, max_turns=12)]
    return [(r, MIXED[:r.players]) for r in out]


def label(rules, lineup) -> str:
    changed = {f.name: getattr(rules, f.name) for f in dataclasses.fields(Rules)
               if f.name != "players" and getattr(rules, f.name) != f.default}
    if "cards" in changed:
        changed["cards"] = f"{len(rules.cards)} cards"
    names = ",".join(p if isinstance(p, str) else p.name for p in lineup)
    return f"{rules.players}p {names}" + "".join(f" {k}={v}" for k, v in changed.items())


def batch(rules, lineup, seeds) -> list:
    """The kernel's records of one line-up over `seeds` (its batch call takes a line-up per game)."""
    return play_batch(rules, [lineup] * len(seeds), seeds)


def check(case: tuple, seeds: list) -> tuple:
    """(label, `simcore.equality.Comparison`) of one case."""
    rules, lineup = case
    return label(rules, lineup), compare(play_game, batch, rules, lineup, seeds, divergence=first_divergence)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=5000, help="seeds per case (default 5000)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--cases", choices=("all", "lineups", "rules"), default="all")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes, one case at a time each (default 1)")
    args = ap.parse_args()
    if args.seeds < 1 or args.jobs < 1:
        ap.error("--seeds and --jobs must be at least 1")
    cases = (lineup_cases() if args.cases != "rules" else []) + (rules_cases() if args.cases != "lineups" else [])
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    print(f"nightsim {nightsim.RULES_VERSION}: kernel vs play_game, {len(cases)} cases x {len(seeds)} seeds, "
          f"{args.jobs} job(s)")
    print(f"{'case':70} {'games':>6} {'differ':>6} {'engine g/s':>10} {'kernel g/s':>10}")
    total = differ = 0
    t_engine = t_kernel = 0.0
    with ProcessPoolExecutor(args.jobs) as pool:
        for name, c in pool.map(check, cases, [seeds] * len(cases)):
            n, bad = len(c.seeds), len(c.differing)
            total, differ = total + n, differ + bad
            t_engine, t_kernel = t_engine + c.engine_seconds, t_kernel + c.kernel_seconds
            print(f"{name[:70]:70} {n:6} {bad:6} {n / c.engine_seconds:10.0f} {n / c.kernel_seconds:10.0f}",
                  flush=True)
            if bad:
                print(f"    {c.message()}")
    print(f"total: {total} games in {len(cases)} cases, {differ} differ; engine {total / t_engine:.0f} games/s, "
          f"kernel {total / t_kernel:.0f} games/s (per process; the kernel's first batch per process includes "
          "loading its compiled code)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
