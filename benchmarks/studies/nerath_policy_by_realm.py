"""Conquest of Nerath: does a policy suit every realm? Its gain over a reference policy, realm by realm.

For each realm, the candidate plays that realm's seat and the reference the other three, on seeds
`--seed` .. `--seed + games - 1`; the same seeds with the reference in every seat give the baseline.
Prints per realm: the candidate's win rate in that seat, the reference's on the same seeds and the gain
(points, with a 95% paired interval over the seeds) and a Wald test that every realm gains the same; then
the evil alliance's win rate when the candidate plays every seat. `--profile` also prints, per realm, how
the candidate plays it differently from the reference on the same seeds (`profile`): attacks, captures, the
share of its capture capacity taken (`nerathsim.parity`), losses and what it buys, per game, with the paired
difference and its 95% interval; and whether the difference in capacity share is the same in every realm
(the Wald test, clustered by seed). With a stronger candidate (a search spec) that is the test of whether
the reference takes less of what it could capture in one realm than in the others, measured against what a
stronger player takes from the same seat. `--realms` limits the seats played (`--no-selfplay`: all four,
without the candidate in every seat). `--params` changes the candidate's parameters
(`nerathsim.with_params`), e.g. `naval=true,purchase.ships=1,purchase.warship=0.5` for `tuned` with its
fleets. The candidate may be a search spec (`ismcts:4:base=tuned:steps=0:margin=1e-9`, the ladder's search
rung): if one realm's heuristic were weaker than the others', the search would gain most in that realm's
seat.

    nice -n 5 env PYTHONPATH=$PWD python benchmarks/studies/nerath_policy_by_realm.py --games 80 --seed 1000
    nice -n 5 env PYTHONPATH=$PWD python benchmarks/studies/nerath_policy_by_realm.py --games 200 --seed 6000 \\
        --policy "ismcts:4:base=tuned:steps=0:margin=1e-9" --reference tuned --realms karkoth,vailin --profile
    nice -n 5 env PYTHONPATH=$PWD python benchmarks/studies/nerath_policy_by_realm.py --games 120 --seed 0 \\
        --params naval=true,purchase.ships=1,purchase.warship=0.5 --only-selfplay
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np
from joblib import Parallel, delayed

import nerathsim
from analyses.games import resolve_policies
from nerathsim import Rules, play_game
from nerathsim.maps import REALMS
from nerathsim.parity import equal_differences, equality_tests, play_parity
from nerathsim.policies import POLICIES, with_params

EVIL = (0, 2)   # Karkoth and Iron Circle sit in seats 1 and 3 of the published order


def _won(result, seat: int) -> bool:
    w = result.winner
    return w is not None and seat in (w if isinstance(w, tuple) else (w,))


def _games(lineup: list, seeds, jobs: int, parity: bool = False) -> list:
    """Each seed's game result with `lineup` (in order), on `jobs` worker processes; with `parity`, each
    seed's (result, `ParityStats`) of the same game."""
    if parity:
        return Parallel(n_jobs=jobs)(delayed(play_parity)(Rules(), lineup, x) for x in seeds)
    return Parallel(n_jobs=jobs)(delayed(play_game)(Rules(), lineup, seed=x) for x in seeds)


#: what `profile` reads of a realm per game: (label, record fields summed); units bought by type follow
PROFILE = (("attacks", ("attacks",)), ("attacks won", ("attacks_won",)), ("regions taken", ("conquests",)),
           ("regions lost", ("regions_lost",)), ("units lost", ("units_lost",)), ("units bought", ("units_bought",)),
           ("gold spent", ("gold_spent",)), ("dungeons explored", ("dungeons_explored",)),
           ("event cards played", ("events_played",)), ("VP", ("vp",)))


def profile(realm: str, games: list) -> dict:
    """Per game, what `realm` did in `games` ((result, ParityStats) pairs): the PROFILE figures, gold spent
    per unit type and the share of its capture capacity taken (that game's captured / capacity)."""
    q = REALMS.index(realm)
    records = [r.to_record() for r, _ in games]
    out = {label: np.array([sum(rec[f"{realm}_{k}"] for k in keys) for rec in records], float)
           for label, keys in PROFILE}
    spent = f"{realm}_spent_"
    for key in sorted(k for k in records[0] if k.startswith(spent)):
        out[f"gold on {key.removeprefix(spent)}"] = np.array([rec[key] for rec in records], float)
    out["capacity taken %"] = np.array([100 * st.captured[q] / st.capacity[q] if st.capacity[q] else np.nan
                                        for _, st in games], float)
    return out


def _show_profile(cand: dict, ref: dict, names: tuple) -> None:
    print(f"    {'per game':<22} {names[0]:>10} {names[1]:>10} {'difference [95% paired]':>30}")
    for label in cand:
        a, b = cand[label], ref[label]
        ok = ~(np.isnan(a) | np.isnan(b))
        d = a[ok] - b[ok]
        half = 1.959964 * d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else math.nan
        print(f"    {label:<22} {np.nanmean(a):10.2f} {np.nanmean(b):10.2f} {d.mean():+10.2f} "
              f"[{d.mean() - half:+.2f}, {d.mean() + half:+.2f}]")


def _params(text: str) -> dict:
    out = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        name, _, value = item.partition("=")
        out[name] = json.loads(value.lower()) if value.lower() in ("true", "false") else float(value)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="tuned", help="the candidate (default tuned)")
    ap.add_argument("--reference", default="balanced", help="the other seats' policy (default balanced)")
    ap.add_argument("--params", default="", help="candidate parameters to change, name=value,...")
    ap.add_argument("--games", type=int, default=80, help="seeds per realm (default 80)")
    ap.add_argument("--seed", type=int, default=1000, help="first seed (default 1000)")
    selfplay = ap.add_mutually_exclusive_group()
    selfplay.add_argument("--only-selfplay", action="store_true", help="only the candidate in every seat")
    selfplay.add_argument("--no-selfplay", action="store_true", help="leave out the candidate in every seat")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--realms", default=",".join(REALMS), help="the seats to play, comma-separated (default all)")
    ap.add_argument("--profile", action="store_true", help="how the candidate plays each realm differently")
    args = ap.parse_args(argv)
    realms = [r.strip() for r in args.realms.split(",") if r.strip()]
    if not realms or any(r not in REALMS for r in realms):
        ap.error(f"--realms: names from {', '.join(REALMS)}; got {args.realms!r}")
    try:
        candidate_spec, reference = resolve_policies(nerathsim, [args.policy, args.reference], 2)
    except ValueError as exc:
        ap.error(str(exc))
    if args.params and args.policy not in POLICIES:
        ap.error("--params changes a registered policy's parameters, not a search spec's")
    if args.games < 2:
        ap.error("--games must be at least 2")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    try:
        changes = _params(args.params)
        candidate = with_params(POLICIES[args.policy], changes, name="candidate") if changes else candidate_spec
    except ValueError as exc:
        ap.error(f"--params: {exc}")
    seeds = range(args.seed, args.seed + args.games)
    t0 = time.process_time()
    print("$ " + " ".join(["python", *sys.argv]))
    if not args.only_selfplay:
        print(f"{args.policy}{' with ' + args.params if args.params else ''} in one seat, {args.reference} in the "
              f"others, {args.games} seeds a realm")
        base_games = _games([reference] * 4, seeds, args.jobs, args.profile)
        base_results = [g[0] for g in base_games] if args.profile else base_games
        base = np.array([[_won(r, q) for q in range(4)] for r in base_results], float)
        gains = np.full_like(base, np.nan)
        shares = np.full_like(base, np.nan)     # with --profile: capacity taken %, candidate minus reference
        for seat, realm in enumerate(REALMS):
            if realm not in realms:
                continue
            lineup = [reference] * 4
            lineup[seat] = candidate
            played = _games(lineup, seeds, args.jobs, args.profile)
            won = np.array([_won(g[0] if args.profile else g, seat) for g in played], float)
            d = gains[:, seat] = won - base[:, seat]
            half = 1.959964 * d.std(ddof=1) / math.sqrt(len(d)) if d.std(ddof=1) > 0 else 0.0
            print(f"  {realm:<12} {100 * won.mean():5.1f}%  ({args.reference} {100 * base[:, seat].mean():5.1f}%)  gain "
                  f"{100 * d.mean():+5.1f} points [{100 * (d.mean() - half):+.1f}, {100 * (d.mean() + half):+.1f}]")
            if args.profile:
                mine, theirs = profile(realm, played), profile(realm, base_games)
                shares[:, seat] = mine["capacity taken %"] - theirs["capacity taken %"]
                _show_profile(mine, theirs, (args.policy[:10], args.reference[:10]))
        cols = [REALMS.index(r) for r in realms]
        if len(cols) < 2:
            return finish(args, candidate, seeds, t0, realms)
        test = equality_tests(gains[:, cols], np.ones((len(gains), len(cols))))   # one game a realm per seed
        holm = ", ".join(f"{r} p={q:.3g}" for r, q in zip(realms, test["vs_rest_holm"]))
        print(f"  every realm the same gain? Wald chi2 = {test['chi2']:.2f} on {test['df']} df, p = {test['p']:.3g}; "
              f"each against the rest (Holm): {holm} (clustered by seed: the gains of a seed share its "
              f"baseline game)")
        if args.profile:
            # a seed without capture capacity in a realm's game (either arm) carries no share (NaN)
            test = equal_differences(shares[:, cols])
            holm = ", ".join(f"{r} p={q:.3g}" for r, q in zip(realms, test["vs_rest_holm"]))
            print(f"  the candidate's capacity share minus the reference's, the same in every realm? Wald chi2 = "
                  f"{test['chi2']:.2f} on {test['df']} df, p = {test['p']:.3g}; each against the rest (Holm): {holm}")
    return finish(args, candidate, seeds, t0, realms)


def finish(args, candidate, seeds, t0: float, realms: list) -> None:
    """The evil alliance's rate with the candidate in every seat (unless --realms limits the seats or
    --no-selfplay leaves it out), and the CPU time."""
    if (set(realms) != set(REALMS) or args.no_selfplay) and not args.only_selfplay:
        print(f"CPU {time.process_time() - t0:.0f} s")
        return
    evil = [_won(r, EVIL[0]) for r in _games([candidate] * 4, seeds, args.jobs)]
    k, n = sum(evil), len(evil)
    print(f"4 x {args.policy}{' with ' + args.params if args.params else ''}: the evil alliance wins {100 * k / n:.1f}% "
          f"({k} of {n})")
    print(f"CPU {time.process_time() - t0:.0f} s")


if __name__ == "__main__":
    main()
