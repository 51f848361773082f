"""The command line's help texts: each command's examples (shown under `balancelab COMMAND --help`
and parsed by the tests) and the longer descriptions. Text only (argparse-level, as `balancelab.parser`, which registers them)."""
from __future__ import annotations

from analyses.options import OBJECTIVES

BATTLE_EXAMPLES = """\
examples:
  balancelab battle "6 footsoldier, 2 siege_engine" vs "8 footsoldier"
  balancelab battle "2 warship, 2 fighter" vs "1 warship, 1 storm_elemental" --sea
  balancelab battle "6 footsoldier, 2 siege_engine" vs "8 footsoldier" --method monte_carlo --n 1000000
  balancelab battle "6 footsoldier, 2 siege_engine" vs "8 footsoldier" --method monte_carlo --engine kernel --n 100000000
  balancelab battle "4 footsoldier, 1 dragon" vs "5 footsoldier, 1 castle" --retreat below:0.3
  balancelab battle "3 footsoldier, 1 dragon" vs "4 footsoldier" --order "dragon, footsoldier"

retreat rules: after:N (rounds), below:P (attacker's win chance), units:K (attacker units left);
combine with commas, e.g. after:3,units:1. LIMITS (checked before any work): exact takes at most
6000 pairs of casualty states ((hits side A can take + 1) x (same for B), e.g. 76 v 76 footsoldiers)
and 1000 per side; Monte Carlo at most 1000 units per side. Units: footsoldier, siege_engine, fighter, wizard,
monster, castle (defence only), storm_elemental, dragon, warship (sea only).
"""

REPLAY_EXAMPLES = """\
examples:
  balancelab replay nerath --seed 3 --out game.html
  balancelab replay dreamsim --seed 5 --players 4 --policies heuristic,runner,trickster,random --out game.html
  balancelab replay nightsim --seed 7 --rule seals=true --out game.html
  balancelab replay --from runs/study/nightsim/main.parquet --game-index 12 --out game.html
keys in the page: Right/Left one step, Down/Up one turn, Home/End the first/last step
"""

REBALANCE_DESCRIPTION = """`balancelab rebalance GAME`: search knobs for the smallest fix of an imbalance, then confirm it.

Prints the proposal as a diff against the published game, the before/after table from the
confirmation run on fresh seeds (95% intervals) and the side effects on the other objectives.
"""

TUNE_DESCRIPTION = """`balancelab tune-policy GAME`: search a heuristic's weights against a pool of opponents (optuna,
common random numbers, successive halving), then confirm the best on fresh seeds.

Prints the best parameters and the confirmation table (tuned vs the start policy, win rate with
its 95% interval, the deal as the unit). `--out FILE` writes the data file a game package loads
as its `tuned` policy (e.g. nightsim/data/tuned.json), with its provenance.
"""

REBALANCE_EXAMPLES = """\
examples:
  balancelab rebalance nightsim --policies greedy --objective seat_balance --max-knobs 2 --budget 30m \\
      --jobs 2 --store runs/rebalance-night
  balancelab rebalance nightsim ... --store runs/rebalance-night --resume      # continue a stopped search
  balancelab rebalance nightsim --knobs last_seat_extra_cards,hand_size=4:6:1 --budget 40
  balancelab rebalance nerath --objective unit_value_parity --knobs-file prices.toml --budget 200
  balancelab rebalance midnighters --policies heuristic --objective "seat_balance(tolerance=0.02)"
  balancelab rebalance nerath --policies tuned --objective "alliance_balance+faction_balance@mode=free_for_all" \
      --knobs map.realm_gold.karkoth,map.realm_gold.iron_circle --max-knobs 2 --store runs/rebalance-nerath
objectives: """ + ", ".join(OBJECTIVES) + """; weighted sums: "seat_balance+0.5*game_length";
conditions: a term after '@' is measured in games with those Rules fields set (its own frame):
"alliance_balance+faction_balance@mode=free_for_all" balances the alliances AND the realms in free-for-all
"""

TUNE_EXAMPLES = """\
examples:
  balancelab tune-policy nightsim --start greedy --budget 12m --games-per-trial 600 --rungs 3 --engine auto \\
      --out nightsim/data/tuned.json
  balancelab tune-policy midnighters --trials 30 --games-per-trial 64 --storage sqlite:///runs/tune-dream.db
  balancelab tune-policy nerath --start balanced --pool balanced --trials 20 --games-per-trial 48 --jobs 2
"""

LADDER_EXAMPLES = """\
examples:
  balancelab ladder nightsim --jobs 2 --out runs/ladders/nightsim.json
  balancelab ladder dreamsim --jobs 2 --out runs/ladders/dreamsim.json
  balancelab ladder nerath --jobs 2 --out runs/ladders/nerathsim.json      # search rungs: 4 games per pairing
  balancelab ladder nerath --jobs 2 --search-games 20 --search-findings-games 20  # ~3.5 h of CPU: tighter search rungs
  balancelab ladder nightsim --games 40 --findings-games 40 --ladder random,greedy,ismcts:10
  balancelab ladder nightsim --findings-players 4 --findings-games 100     # the 4-player seats
  balancelab ladder nightsim --backend dask --scheduler tcp://host:8786    # on a dask cluster
then: balancelab report --from runs/study --ladder runs/ladders
"""

SENSITIVITY_EXAMPLES = """\
examples:
  balancelab sensitivity dreamsim --games 1000 --policies heuristic --jobs 2
  balancelab sensitivity nightsim --games 2000 --policies greedy --only D-scavenger,D-win-timing
  balancelab sensitivity nightsim --games 500 --format csv > sensitivity.csv
  balancelab sensitivity nerath --games 200 --policies balanced --only D-flyer-capture,D-starting-gold
  balancelab sensitivity nerath --games 100 --policies tuned --out runs/sensitivity/nerathsim-tuned.json
"""

COMMAND_EXAMPLES = {
    "simulate": """\
  balancelab simulate nightsim --games 100000 --jobs 2 --out runs/night.parquet
  balancelab simulate nightsim --games 100000 --jobs 2 --out runs/night.parquet --resume   # after Ctrl-C
  balancelab simulate dreamsim --games 20000 --players 3 --policies heuristic,random,random --out runs/d3.parquet
  balancelab simulate nerath --games 2000 --rule mode=free_for_all --csv --out runs/nerath.csv""",
    "fpa": """\
  balancelab fpa nightsim --games 20000 --jobs 2 --policies greedy
  balancelab fpa dreamsim --games 4000 --players 3 --policies heuristic
  balancelab fpa --in runs/night.parquet""",
    "winrates": """\
  balancelab winrates --in runs/night.parquet
  balancelab winrates nightsim --games 4000 --policies greedy,purist,aggressor,random --by policy,seat
  balancelab winrates nerath --games 400 --jobs 2 --by faction""",
    "length": """\
  balancelab length nightsim --games 2000 --policies greedy --rule creatures_to_win=6
  balancelab length dreamsim --games 2000 --policies heuristic
  balancelab length --in runs/night.parquet""",
    "sweep": """\
  balancelab sweep nightsim --field players --values 2,3,4,5 --games 4000 --jobs 2 --policies greedy
  balancelab sweep nightsim --policy-param greedy --field weights.pure --values 0,2,5 \\
      --policies greedy,random,random,random --games 4000
  balancelab sweep nerath --field events --values on,off --games 2000 --jobs 2 --rule mode=free_for_all""",
    "battle": BATTLE_EXAMPLES.removeprefix("examples:\n").rstrip("\n"),   # one text with `battle`'s own help
    "units": """\
  balancelab units
  balancelab units --table duels --budgets 6,12
  balancelab units --table best --best-budgets 12 --top 3""",
    "report": """\
  balancelab report
  balancelab report --games 8000 --jobs 2 --out balance-report.html --save runs/study
  balancelab report --games 500 --only nightsim,dreamsim
  balancelab report --from runs/study --out again.html
  balancelab report --from runs/study --out balance-report.html --force   # replace the old report""",
    "games": """\
  balancelab games""",
    "compile": """\
  balancelab compile
  balancelab compile dreamsim""",
    "policies": """\
  balancelab policies nightsim
  balancelab policies nerath""",
    "rules": """\
  balancelab rules nightsim
  balancelab rules midnighters""",
}
