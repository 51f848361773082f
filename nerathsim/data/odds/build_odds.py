"""Rebuild solved.json.gz, the table of solved battle odds shipped with the package
(run: PYTHONPATH=$PWD python nerathsim/data/odds/build_odds.py [--games N]).

The file is only a cache: every entry is what the exact solvers answer (`battle.odds_table`), keyed
by the battle rules' key, so a fresh process reads its answers instead of solving them. This script
is how it was made: it plays seeded games of the shipped line-ups (seeds from 1,000,000 on, which no
benchmark, fingerprint or test plays) with the process-wide table starting empty, and writes every
battle and dungeon fight the policies asked the solvers about. Rebuild it after a change of the battle
rules' RULES_VERSION or of `odds_table.TABLE_VERSION` (until then, the old entries are simply never
read), or of the published units.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import nerathsim as api
from nerathsim.battle import odds_table as OT

HERE = Path(__file__).parent
FIRST_SEED = 1_000_000


def lineups() -> list:
    """(rules, policies) of the games the table is built from: the short free-for-all game with the
    balanced policy (the speed benchmark's), with the aggressive one, and the default (alliance) game."""
    ffa = api.Rules(mode="free_for_all")
    return [(ffa, ["balanced"] * 4), (ffa, ["aggressive"] * 4), (api.Rules(), ["balanced"] * 4)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300, help="seeded games per line-up")
    ap.add_argument("--out", type=Path, default=HERE / "solved.json.gz")
    a = ap.parse_args()
    table = OT.SHARED
    table.shipped = None                      # start empty: only what these games ask goes in
    table.clear()
    t0 = time.process_time()
    for rules, policies in lineups():
        for seed in range(FIRST_SEED, FIRST_SEED + a.games):
            api.play_game(rules, policies, seed)
        print(f"{policies[0]} x {len(policies)}, {rules.mode}: {len(table.entries)} battles, "
              f"{len(table.fights)} fights so far", flush=True)
    table.save(a.out)
    print(f"wrote {a.out} ({a.out.stat().st_size:,} bytes, {len(table.entries)} battles, {len(table.fights)} fights, "
          f"{time.process_time() - t0:.0f} s CPU)")


if __name__ == "__main__":
    main()
