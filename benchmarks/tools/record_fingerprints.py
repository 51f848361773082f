"""Fingerprints of seeded games: the gate for refactors and speed work that promise identical records.

Plays fixed seeds of every game under several line-ups and prints (or stores) one sha256 per
line-up over every game's `to_record()` row and, with --log, its event log. Store the figures of
a checkout, change the code, then compare:

    PYTHONPATH=$PWD python benchmarks/tools/record_fingerprints.py --out /tmp/before.json
    PYTHONPATH=$PWD python benchmarks/tools/record_fingerprints.py --compare /tmp/before.json

--games sets the seeds per line-up (defaults: nightsim 2000, dreamsim 2000, nerathsim 100);
--only limits the games. A mismatch names the line-up and the first seed whose record differs.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys

import dreamsim
import nerathsim
import nightsim

MODULES = {"nightsim": nightsim, "dreamsim": dreamsim, "nerathsim": nerathsim}
DEFAULT_GAMES = {"nightsim": 2000, "dreamsim": 2000, "nerathsim": 100}

# (label, rules kwargs, policies): the standard line-ups, every built-in policy at least once
LINEUPS = {
    "nightsim": [
        ("4xrandom", {"players": 4}, ["random"] * 4),
        ("4xgreedy", {"players": 4}, ["greedy"] * 4),
        ("mixed4", {"players": 4}, ["aggressor", "greedy", "purist", "random"]),
        ("2xgreedy", {"players": 2}, ["greedy", "greedy"]),
    ],
    "dreamsim": [
        ("4xrandom", {"players": 4}, ["random"] * 4),
        ("4xheuristic", {"players": 4}, ["heuristic"] * 4),
        ("mixed4", {"players": 4}, ["runner", "heuristic", "trickster", "horror"]),
        ("2xheuristic", {"players": 2}, ["heuristic", "heuristic"]),
    ],
    "nerathsim": [
        ("4xbalanced", {}, ["balanced"] * 4),
        ("mixed4", {}, ["balanced", "defensive", "aggressive", "random"]),
        ("ffa-4xaggressive", {"mode": "free_for_all"}, ["aggressive"] * 4),
    ],
}


def _digest_game(result, with_log: bool) -> bytes:
    row = json.dumps(result.to_record(), sort_keys=True, default=repr)
    if with_log:
        row += json.dumps(list(result.log), sort_keys=True, default=repr)
    return hashlib.sha256(row.encode()).digest()


def fingerprints(only=None, games=None, with_log=True, progress=False):
    """{game: {lineup: {"sha256": ..., "games": n, "per_seed": [short hashes]}}}"""
    games = {**DEFAULT_GAMES, **(games or {})}
    out = {}
    for name, module in MODULES.items():
        if only and name not in only:
            continue
        out[name] = {}
        for label, kwargs, policies in LINEUPS[name]:
            rules = module.Rules(**kwargs)
            total = hashlib.sha256()
            per_seed = []
            for seed in range(games[name]):
                r = module.play_game(rules, policies, seed, record=with_log)
                d = _digest_game(r, with_log)
                total.update(d)
                per_seed.append(d.hex()[:12])
            out[name][label] = {"sha256": total.hexdigest(), "games": games[name], "per_seed": per_seed}
            if progress:
                print(f"{name:10s} {label:18s} {games[name]:5d} games  {total.hexdigest()[:16]}",
                      file=sys.stderr, flush=True)
    return out


def compare(before: dict, after: dict) -> list[str]:
    problems = []
    for name, lineups in after.items():
        for label, fp in lineups.items():
            old = before.get(name, {}).get(label)
            if old is None:
                problems.append(f"{name} {label}: not in the stored fingerprints")
            elif old["sha256"] != fp["sha256"]:
                first = next((i for i, (a, b) in enumerate(zip(old["per_seed"], fp["per_seed"])) if a != b),
                             None)
                problems.append(f"{name} {label}: records differ (first differing seed: {first})")
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="store the fingerprints in this JSON file")
    ap.add_argument("--compare", help="compare against fingerprints stored with --out; exit 1 on a mismatch")
    ap.add_argument("--only", help="comma-separated games (nightsim,dreamsim,nerathsim)")
    ap.add_argument("--games", nargs="*", default=[], metavar="GAME=N", help="seeds per line-up")
    ap.add_argument("--no-log", action="store_true", help="records only (faster; logs not compared)")
    a = ap.parse_args(argv)
    only = set(a.only.split(",")) if a.only else None
    games = {k: int(v) for k, v in (g.split("=") for g in a.games)}
    fp = fingerprints(only, games, with_log=not a.no_log, progress=True)
    for name, lineups in fp.items():
        for label, f in lineups.items():
            print(f"{name:10s} {label:18s} {f['games']:5d} games  sha256 {f['sha256'][:16]}")
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(fp, fh)
    if a.compare:
        with open(a.compare) as fh:
            problems = compare(json.load(fh), fp)
        for p in problems:
            print("MISMATCH", p)
        print("identical" if not problems else f"{len(problems)} line-up(s) differ")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
