"""Option values, defaults and limits shared by the library and the command line's parser.

Standard library only: `balancelab COMMAND --help` builds every command's parser from this module
and `balancelab.parser` without importing numpy, pandas, scipy, numba or a game. The modules that
use these values (runner, plan, limits, study, ladder, ...) import them from here, so a command's
help and its code cannot disagree. The last section holds the few facts of richer objects the help
quotes (the report's plans, the objectives' names); a test keeps them equal to the objects.
"""
from __future__ import annotations

# --- runs ---------------------------------------------------------------------------------------
BACKENDS = ("loky", "threading", "dask")  # joblib backends that can stream results back unordered
ENGINES = ("auto", "python", "kernel")
SEAT_ORDERS = ("rotate", "random", "fixed")
#: `balancelab sensitivity`: the seats stay fixed, or every policy plays every seat (the deal paired)
SENSITIVITY_SEAT_ORDERS = ("fixed", "rotate")
#: `balancelab fpa|winrates|length|sweep --format`
TABLE_FORMATS = ("table", "csv", "json", "parquet")
#: `balancelab sensitivity --format`
SENSITIVITY_FORMATS = ("text", "csv", "json")

# --- sizes --------------------------------------------------------------------------------------
STUDY_GAMES = 3000  # `balancelab report --games`: the study's size (see analyses.study.run_sizes)
#: default games per pairing and self-play games per rung: the default ladder in <= 30 min on 2 cores
LADDER_GAMES = {"nightsim": 120, "dreamsim": 50, "nerathsim": 600}
LADDER_FINDINGS_GAMES = {"nightsim": 120, "dreamsim": 100, "nerathsim": 400}
#: at most this many games for a pairing with a search rung, and self-play games of a search rung (games
#: where not listed: the same counts as every pairing). Nerath: 100, the fewest on which a pairing or a
#: self-play verdict may rest (a search game costs ~8 CPU s: benchmarks/speed/bench_ladder_costs.py).
LADDER_SEARCH_GAMES = {"nerathsim": 100}
LADDER_SEARCH_FINDINGS_GAMES = {"nerathsim": 100}
CONFIRM_PRECISION = 0.4   # the confirmation's 95% half-width: at most this share of the band's half-width

# --- limits (why each is what it is: analyses/limits.py) -----------------------------------------
MAX_GAMES = 10_000_000
MAX_JOBS = 128
MAX_ISMCTS_ITERATIONS = 20_000
MAX_ISMCTS_SECONDS = 600.0
MAX_KNOB_VALUES = 100_000
MAX_KNOB_MAGNITUDE = 1e9
MAX_JSON_DEPTH = 64
MAX_INPUT_BYTES = 64 * 2**20
MAX_SEED = 2**63 - 1
MAX_BOOTSTRAP = 100_000
MAX_RUNGS = 12
MAX_TRIALS = 100_000
MAX_SWEEP_VALUES = 1_000
MAX_PLAYERS = 64
MAX_BUDGET_SECONDS = 30 * 24 * 3600.0

#: the line shown under each command's --help
LIMITS_HELP = (
    f"LIMITS (checked before any work): --games and every other count of games at most {MAX_GAMES:,} "
    f"(~1 KiB of memory a game), --jobs at most {MAX_JOBS} workers (~150 MiB each), ismcts:N at most "
    f"{MAX_ISMCTS_ITERATIONS:,} iterations a decision (seconds=S at most {MAX_ISMCTS_SECONDS:g}), "
    f"--seed at most 2^63-1, a knob at most {MAX_KNOB_VALUES:,} values of size at most {MAX_KNOB_MAGNITUDE:g}, "
    f"input JSON/TOML files at most {MAX_INPUT_BYTES // 2**20} MiB and {MAX_JSON_DEPTH} levels deep.")

# --- facts of richer objects quoted by the help (a test keeps them equal to the objects) --------
#: game -> (title, main policy, share of the study's games) of `analyses.study.PLANS`
STUDY_PLANS = {
    "nightsim": ("Nightmarium", "greedy", 1.0),
    "dreamsim": ("Midnighters (Полуночники)", "heuristic", 0.5),
    "nerathsim": ("D&D: Conquest of Nerath", "balanced", 0.1),
}
#: the names of `analyses.objectives.OBJECTIVES`
OBJECTIVES = ("seat_balance", "alliance_balance", "faction_balance", "game_length", "policy_dominance",
              "unit_value_parity")
