"""Conquest of Nerath: alliance and free-for-all balance at chosen knob settings (evidence run).

Each ``--point`` is a set of knob values (`nerathsim.knobs.KNOBS` paths, comma-separated
``path=value``; ``published`` for none). For each point it plays `--games` alliance games and
`--games` free-for-all games (common seeds across points) and prints the Karkoth + Iron Circle
alliance share and each realm's free-for-all share with their 95% intervals (the
`alliance_balance` / `faction_balance` tables of `analyses.objectives`), each realm's mean VP at
the end of the game in either mode, the mean turns and the CPU time.

    PYTHONPATH=$PWD python benchmarks/studies/nerath_resources_probe.py --games 200 \\
        --point published --point "map.realm_gold.karkoth=30,map.realm_gold.iron_circle=0"
"""
from __future__ import annotations

import argparse
import os
import time

from nerath_turn_orders import _cell, _evil_share  # the same table cells as the turn-order evidence script

import analyses
import nerathsim
from analyses.knobs import resolve_knobs, set_values
from analyses.objectives import make_objective
from nerathsim.knobs import KNOBS
from nerathsim.maps import REALMS


def parse_point(text: str) -> dict:
    """'a=1,b=x,c=20/24' -> {'a': 1, 'b': 'x', 'c': (20, 24)}; 'published' -> {}."""
    if text.strip() in ("", "published"):
        return {}
    out = {}
    for part in text.split(","):
        path, _, value = part.partition("=")
        value = value.strip()
        if "/" in value:                              # a tuple: 'team_vp_to_win=20/24'
            out[path.strip()] = tuple(int(v) for v in value.split("/"))
        else:
            out[path.strip()] = int(value) if value.lstrip("-").isdigit() else value
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per mode per point (default 200)")
    parser.add_argument("--policies", default="tuned")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--point", action="append", default=[], help="knob values 'path=v,path=v' (repeatable); "
                        "a plain Rules field too ('vp_to_win=25', 'team_vp_to_win=20/24')")
    parser.add_argument("--modes", default="alliance,free_for_all", help="modes to play (default both)")
    args = parser.parse_args(argv)
    points = args.point or ["published"]
    alliance, ffa = make_objective("alliance_balance"), make_objective("faction_balance")
    base = nerathsim.Rules()
    print(f"policies {args.policies}, {args.games} games per mode per point, seed {args.seed}, "
          f"load {os.getloadavg()[0]:.2f}; shares in % [95% interval]; VP = mean VP at the end (K V IC N)")
    for text in points:
        values = parse_point(text)
        declared = [k for k in values if k in KNOBS]
        resolve_knobs(nerathsim, base, declared) if declared else None      # checked against the published game
        fields = {k: v for k, v in values.items() if k not in KNOBS}          # plain Rules fields ('vp_to_win=25')
        rules = set_values(nerathsim, base, {k: values[k] for k in declared}) if declared else base
        rules = analyses.games.make_rules(nerathsim, rules, **fields) if fields else rules
        cpu = time.process_time()
        frames = {}
        for mode in args.modes.split(","):
            frames[mode] = analyses.simulate(nerathsim, args.games, rules=analyses.games.make_rules(
                nerathsim, rules, mode=mode), policies=args.policies, seed=args.seed, n_jobs=1, progress=False,
                engine="auto")
        line = [text, " "]
        if "alliance" in frames:
            at = alliance.table(frames["alliance"], rules).set_index("measure")
            line.append(f" alliance K+IC {_cell(_evil_share(at))} |")
        if "free_for_all" in frames:
            ft = ffa.table(frames["free_for_all"], rules).set_index("measure")
            realms = [ft.loc[f"{r} win rate"] for r in REALMS]
            worst = max(abs(r.value - (r.target_low + r.target_high) / 2) for r in realms)
            line.append(" FFA K V IC N: " + " ".join(_cell(r) for r in realms) + f" | worst FFA off {100 * worst:4.1f} |")
        vp = " | ".join(f"VP {m} " + " ".join(f"{frames[m][f'{r}_vp'].mean():4.1f}" for r in REALMS) for m in frames)
        turns = "/".join(f"{frames[m]['turns'].mean():.1f}" for m in frames)
        print(f"{line[0]}\n{''.join(line[1:])} {vp} | turns {turns} | CPU {time.process_time() - cpu:5.1f} s"
              f" | load {os.getloadavg()[0]:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
