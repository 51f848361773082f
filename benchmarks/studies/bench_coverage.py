"""Coverage and false-positive rates of the seat and sweep statistics, naive vs deal as the unit.

The long version of tests/analyses/test_analyses_paired_designs.py. Runs are drawn from the toy
game's exact clustered model (`toygame.paired_runs`): a fair 4-seat lineup (one policy + 3 of
another, as strong as each other) whose deal, with chance `--seat-luck`, hands every game of the
deal to one seat (luck that belongs to the seat), or with chance `--policy-luck` to the seat of
the first policy (a policy that wins from any seat). Under the null every seat wins 1/4.

For each design (rotate / random / fixed) it prints, for the *naive* analysis (every game an
independent trial: Wilson, exact binomial, Pearson chi-square, paired t: the code before issue
12) and the *new* one (`analyses.clusters`: the deal as the unit):
- seat CI: share of 95% seat intervals covering 1/4 (mean over seats);
- seat test: share of seat tests at 0.05 rejecting (mean over seats);
- any seat: share of runs where some seat's test rejects (family-wise; Holm for the new one);
- chi2: omnibus chi-square (Rao–Scott for the new one) rejection rate;
- sweep CI / sweep test: a no-effect sweep under common random numbers (half the deals
  unchanged by the variant, the other half re-dealt), seat 0's paired difference;
- deff: mean seat design effect.
With `--simulate N` it also runs N blocks of the real `analyses.simulate` toy game (rotate,
`seat_luck`) through `first_player_advantage`; with `--real G` it measures the design effect of
seat win rates on real games under rotate (nightsim: heuristic/greedy/purist/aggressor + 3 random;
dreamsim: heuristic + 3 random), G games each.

With `--rebalance R` and `--tune R` it proves the confirmation runs of `analyses.rebalance` (per
condition: seat_balance + alliance_balance@teams=true, rotated deals with seat luck) and of
`analyses.tune_policy` (candidate vs the start policy, seats rotated, common deals; policy luck
and seat luck) by R runs of the real functions on the toy game against its exact odds
(tests/analyses/confirm_coverage.py): coverage of the reported 95% intervals and of naive
per-game intervals from the same tables. `--runs 0` skips the design table above.

    python benchmarks/studies/bench_coverage.py --runs 500 --games 400
    python benchmarks/studies/bench_coverage.py --runs 0 --rebalance 500 --tune 1000
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "analyses"))
sys.path.insert(0, str(ROOT))

import analyses  # noqa: E402
from analyses import clusters  # noqa: E402

import confirm_coverage as cc  # noqa: E402
import toygame as toy  # noqa: E402

PLAYERS = 4
FAIR = np.full((PLAYERS, PLAYERS), 1 / PLAYERS)


def seat_columns(winners):
    runs, games = winners.shape
    return (winners[:, :, None] == np.arange(PLAYERS)).transpose(1, 0, 2).reshape(games, runs * PLAYERS)


def measure(design: str, runs: int, games: int, seat_luck: float, policy_luck: float, seed: int) -> list[dict]:
    if design == "fixed":
        policy_luck = 0.0   # with fixed seats, policy luck is an unfair seat 0, not a null
    rng = np.random.default_rng(seed)
    winners, deal, rot, truth = toy.paired_runs(FAIR, runs, games, design, rng, seat_luck, policy_luck)
    other, *_ = toy.paired_runs(FAIR, runs, games, design, rng, seat_luck, policy_luck, rot=rot)
    deals = games // (PLAYERS if design == "rotate" else 1)
    variant = np.where(rng.random((runs, deals))[:, deal] < 0.5, winners, other)
    wins = winners[:, :, None] == np.arange(PLAYERS)
    out = []
    for method, groups in (("naive", None), ("deal as the unit", deal)):
        table = clusters.rates(seat_columns(winners), np.ones((games, 1)), groups, expected=truth[0])
        covered = ((table["ci_low"] <= truth[0]) & (truth[0] <= table["ci_high"])).mean()
        p = table["p_value"].to_numpy().reshape(runs, PLAYERS)
        family = np.array([clusters.holm(row) for row in p]) if groups is not None else p
        chi = np.array([clusters.uniformity(wins[i], groups)["chi2_p"] for i in range(runs)])
        diffs = [clusters.paired_difference((variant[i] == 0).astype(float), (winners[i] == 0).astype(float), groups)
                 for i in range(runs)]
        out.append({"design": design, "method": method, "runs": runs, "games": games,
                    "seat CI": covered, "seat test": (p <= 0.05).mean(),
                    "any seat": (family.min(axis=1) <= 0.05).mean(), "chi2": (chi <= 0.05).mean(),
                    "sweep CI": np.mean([d["ci_low"] <= 0 <= d["ci_high"] for d in diffs]),
                    "sweep test": np.mean([d["p_value"] <= 0.05 for d in diffs]),
                    "deff": float(np.nanmean(clusters.rates(seat_columns(winners), np.ones((games, 1)), deal)
                                             ["design_effect"]))})
    return out


def through_simulate(blocks: int, games: int, seat_luck: float, seed: int) -> pd.DataFrame:
    """Blocks of the real toy game (rotate, random + 3 'coin' policies, seat_luck) through first_player_advantage."""
    coin = toy.StrongPolicy(lucky=0.5, name="coin")
    df = analyses.simulate("toygame", blocks * games, rules=toy.Rules(players=PLAYERS, seat_luck=seat_luck),
                           policies=[toy.POLICIES["random"], coin, coin, coin], seed=seed, progress=False, n_jobs=2)
    block = np.repeat(np.arange(blocks), games)
    rows = []
    for method, frame in (("naive", df.drop(columns=["deal", "game_seed"])), ("deal as the unit", df)):
        if method == "naive":
            frame = frame.assign(game_seed=np.arange(len(frame)))   # every game its own deal
        results = [analyses.first_player_advantage(frame[block == b]) for b in range(blocks)]
        seats = pd.concat([r.seats for r in results])
        summary = pd.concat([r.summary for r in results])
        p = seats["p_value"].to_numpy().reshape(blocks, PLAYERS)
        holm = seats["p_holm"].to_numpy().reshape(blocks, PLAYERS) if method != "naive" else p
        rows.append({"design": "rotate (simulate)", "method": method, "runs": blocks, "games": games,
                     "seat CI": ((seats["ci_low"] <= 0.25) & (0.25 <= seats["ci_high"])).mean(),
                     "seat test": (p <= 0.05).mean(), "any seat": (holm.min(axis=1) <= 0.05).mean(),
                     "chi2": (summary["chi2_p"] <= 0.05).mean(), "sweep CI": np.nan, "sweep test": np.nan,
                     "deff": seats["design_effect"].mean() if method != "naive" else np.nan})
    return pd.DataFrame(rows)


def bradley_terry_calibration(blocks: int, games: int, seed: int) -> pd.DataFrame:
    """Spread of the Bradley–Terry estimate over repeated runs of the toy (strong + 3 random) against
    the standard error each run reports: model (Fisher) se vs cluster-robust (sandwich) se."""
    rows = []
    for design in ("rotate", "random"):
        df = analyses.simulate("toygame", blocks * games, policies="strong,random,random,random", seed=seed,
                               seat_order=design, progress=False, n_jobs=2)
        block = np.repeat(np.arange(blocks), games)
        ratings = [analyses.win_rates(df[block == b]).ratings.set_index("policy").loc["strong"] for b in range(blocks)]
        table = pd.DataFrame(ratings)
        rows.append({"design": design, "runs": blocks, "games": games,
                     "sd of estimate": table["log_strength"].std(ddof=1),
                     "mean se (model)": table["se_model"].mean(), "mean se (deal sandwich)": table["se"].mean()})
    return pd.DataFrame(rows)


def real_design_effects(games: int, seed: int) -> pd.DataFrame:
    setups = [("nightsim", f"{p},random,random,random") for p in ("heuristic", "greedy", "purist", "aggressor")]
    setups.append(("nightsim", "purist,aggressor,greedy,heuristic"))
    setups.append(("dreamsim", "heuristic,random,random,random"))
    rows = []
    for game, policies in setups:
        start = time.time()
        try:
            df = analyses.simulate(game, games, policies=policies, seed=seed, progress=False, n_jobs=2)
        except ValueError as error:   # a policy this game does not have
            print(f"  {game} {policies}: {error}")
            continue
        seats = analyses.first_player_advantage(df).seats
        rows.append({"game": game, "policies": policies, "games": len(df),
                     **{f"deff seat {s}": seats["design_effect"].iloc[s] for s in range(len(seats))},
                     "seconds": round(time.time() - start, 1)})
    return pd.DataFrame(rows)


def confirmations(rebalance_runs: int, tune_runs: int, args) -> None:
    """Coverage of the rebalance and tune_policy confirmation runs (real functions, toy game)."""
    fmt = {"float_format": lambda v: f"{v:.3f}", "index": False}
    if rebalance_runs:
        start = time.process_time()
        table = cc.rebalance_runs(rebalance_runs, seed=args.seed, seat_luck=args.seat_luck,
                                  tolerance=args.rebalance_tolerance, precision=args.rebalance_precision,
                                  first_games=args.rebalance_first)
        print(f"\nrebalance(toy, 'seat_balance(tolerance={args.rebalance_tolerance})+alliance_balance(...)@teams=true', "
              f"knobs='bias=0:0.6:0.3', rules bias=0.6, seat_luck={args.seat_luck}, random + 3 coin, rotated seats; "
              f"confirmation sized per condition (confirm_precision={args.rebalance_precision}); truth = exact rates "
              f"of the proposed rules; {rebalance_runs} runs, {time.process_time() - start:.0f} s CPU:")
        print(cc.summary(table, "condition").to_string(**fmt))
        print("proposals (bias):", table.groupby("run")["bias"].first().value_counts().sort_index().to_dict())
    if tune_runs:
        cases = [("policy luck (die_luck=0.8), 4 players", dict(players=4, die_luck=0.8, seat_luck=0.0)),
                 ("seat luck (seat_luck=0.5), 2 players", dict(players=2, die_luck=0.0, seat_luck=0.5)),
                 ("policy + seat luck (0.4 + 0.3), 3 players", dict(players=3, die_luck=0.4, seat_luck=0.3))]
        rows = []
        start = time.process_time()
        for label, case in cases:
            table = cc.tune_runs(tune_runs, seed=args.seed, confirm_games=args.tune_games, **case)
            rows.append(cc.summary(table).assign(rows=label))
        print(f"\ntune_policy(toy, start=StrongPolicy(lucky=0), space lucky in {{0.8, 1.0}}, budget 2, seats rotated, "
              f"common deals; confirmation {args.tune_games} games vs the start policy; truth = exact mean score; "
              f"{tune_runs} runs per case, {time.process_time() - start:.0f} s CPU:")
        print(pd.concat(rows, ignore_index=True).rename(columns={"rows": "deal luck"}).to_string(**fmt))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seat-luck", type=float, default=0.4)
    parser.add_argument("--policy-luck", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--simulate", type=int, default=0, help="blocks of the real toy game through simulate")
    parser.add_argument("--real", type=int, default=0, help="games per real-game design-effect measurement")
    parser.add_argument("--real-only", action="store_true", help="only the real-game design effects")
    parser.add_argument("--bt", type=int, default=0, help="blocks for the Bradley–Terry standard-error check")
    parser.add_argument("--rebalance", type=int, default=0, help="runs of analyses.rebalance's confirmation coverage")
    parser.add_argument("--rebalance-tolerance", type=float, default=0.05, help="seat/alliance band half-width")
    parser.add_argument("--rebalance-precision", type=float, default=0.6, help="rebalance(confirm_precision=)")
    parser.add_argument("--rebalance-first", type=int, default=40, help="rebalance(first_games=): search games")
    parser.add_argument("--tune", type=int, default=0, help="runs per case of analyses.tune_policy's confirmation coverage")
    parser.add_argument("--tune-games", type=int, default=2000, help="tune_policy(confirm_games=)")
    args = parser.parse_args(argv)
    start = time.time()
    if args.real_only:
        print(real_design_effects(args.real or 2000, args.seed).to_string(index=False, float_format=lambda v: f"{v:.2f}"))
        return
    if not args.runs:
        confirmations(args.rebalance, args.tune, args)
        print(f"\n({time.time() - start:.0f} s)")
        return
    rows = [row for design in ("rotate", "random", "fixed")
            for row in measure(design, args.runs, args.games, args.seat_luck, args.policy_luck, args.seed)]
    table = pd.DataFrame(rows)
    if args.simulate:
        table = pd.concat([table, through_simulate(args.simulate, args.games, args.seat_luck, args.seed)],
                          ignore_index=True)
    se = math.sqrt(0.95 * 0.05 / args.runs)
    print(f"Toy game, fair 4 seats, seat_luck={args.seat_luck}, policy_luck={args.policy_luck}: "
          f"{args.runs} runs x {args.games} games per design (coverage SE {se:.3f}); "
          f"target: CI 0.93-0.97, tests 0.03-0.07")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if args.bt:
        print("\nBradley–Terry log-strength of 'strong': spread over runs vs reported standard errors:")
        print(bradley_terry_calibration(args.bt, args.games, args.seed).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    confirmations(args.rebalance, args.tune, args)
    if args.real:
        print(f"\nDesign effect of seat win rates on real games (rotate, {args.real} games):")
        print(real_design_effects(args.real, args.seed).to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    print(f"\n({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
