"""Upper limits on every size a user can ask for, checked before any work.

A command that would run out of memory or run for days is refused in a second with one line
naming the flag and the limit. Each limit comes from what a row, a worker or a draw costs on a
24 GiB, 2-core machine (figures measured with the commands in the comments), with room for the
biggest runs the documentation shows:

- games: a results table holds about 1 KiB per game while it is built and written (the Nerath
  row, the widest, is ~0.5 KiB in pandas plus its Arrow copy: `benchmarks/tools/fuzz_campaign.py`
  prints it), so 10 million games fill ~10 GiB; every per-run size (rungs, trials, ladders, report
  shares) is bounded by the same number of games.
- jobs: a worker process imports numpy, pandas and a game (~150 MiB resident), so 128 workers
  hold ~19 GiB.
- ismcts iterations: one iteration is one rollout (~1 ms for a Nightmarium game), so 20,000
  iterations are ~20 s per decision, ~100 x the shipped searches (ismcts:200); its `seconds`
  budget at most 600 per decision.
- Monte Carlo battles: `nerathsim.battle.monte_carlo.MAX_BATTLES` (the numpy engine keeps 8 bytes
  a battle).
- knob ranges: the search lists every value of a knob's grid, so at most 100,000 values a knob,
  and the values themselves at most 10^9 in size.
- input files (JSON or TOML: --knobs-file, --warm-start, --ladder, stored studies): at most
  64 MiB and nested at most 64 deep (Python's parsers recurse once per level).
"""
from __future__ import annotations

import json
import math
import numbers
import re
import tomllib
from pathlib import Path

import numpy as np

# the numbers live in analyses.options (standard library only, so every command's --help can show them
# without numpy) and are this module's names too (`limits.MAX_GAMES`)
from . import options

MAX_GAMES = options.MAX_GAMES
MAX_JOBS = options.MAX_JOBS
MAX_ISMCTS_ITERATIONS = options.MAX_ISMCTS_ITERATIONS
MAX_ISMCTS_SECONDS = options.MAX_ISMCTS_SECONDS
MAX_KNOB_VALUES = options.MAX_KNOB_VALUES
MAX_KNOB_MAGNITUDE = options.MAX_KNOB_MAGNITUDE
MAX_JSON_DEPTH = options.MAX_JSON_DEPTH
MAX_INPUT_BYTES = options.MAX_INPUT_BYTES
MAX_SEED = options.MAX_SEED
MAX_BOOTSTRAP = options.MAX_BOOTSTRAP
MAX_RUNGS = options.MAX_RUNGS
MAX_TRIALS = options.MAX_TRIALS
MAX_SWEEP_VALUES = options.MAX_SWEEP_VALUES
MAX_PLAYERS = options.MAX_PLAYERS
MAX_BUDGET_SECONDS = options.MAX_BUDGET_SECONDS


class LimitError(ValueError):
    """A size above its limit (a ValueError: bad input, exit code 2 on the command line)."""


def count(value, flag: str, limit: int, least: int = 1, what: str = "") -> int:
    """`value` as an int in least..limit, else LimitError naming `flag` and the limit."""
    value = _whole(value, flag)
    if value < least:
        raise LimitError(f"{flag} must be at least {least}, got {value}")
    if value > limit:
        raise LimitError(f"{flag} {_short(value)} is above the limit of {limit:,}{' ' + what if what else ''}")
    return value


def _whole(value, flag: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        raise LimitError(f"{flag} must be a whole number, got {value!r}")
    return int(value)


def games(value, flag: str = "--games", least: int = 1) -> int:
    return count(value, flag, MAX_GAMES, least, "games (~1 KiB of memory a game)")


def jobs(value, flag: str = "--jobs") -> int:
    """A worker count: 1..MAX_JOBS, or -1 .. -MAX_JOBS (joblib: all cores, all but one, ...)."""
    value = _whole(value, flag)
    if value == 0:
        raise LimitError(f"{flag} must be a positive number of workers or -1 (all cores), got 0")
    if abs(value) > MAX_JOBS:
        raise LimitError(f"{flag} {_short(value)} is beyond the limit of {MAX_JOBS} workers (~150 MiB each)")
    return value


def seed(value, flag: str = "--seed") -> int:
    return count(value, flag, MAX_SEED, 0)


def ismcts_iterations(value, label: str) -> None:
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and value > MAX_ISMCTS_ITERATIONS:
        raise LimitError(f"{label}: {_short(value)} iterations a decision is above the limit of "
                         f"{MAX_ISMCTS_ITERATIONS:,} (~1 ms each)")


def ismcts_seconds(value, label: str) -> None:
    if isinstance(value, numbers.Real) and value > MAX_ISMCTS_SECONDS:
        raise LimitError(f"{label}: seconds={value:g} a decision is above the limit of {MAX_ISMCTS_SECONDS:g}")


def knob_range(label: str, low: float, high: float, step: float) -> None:
    """A knob's grid low..high by step: bounded values, at most MAX_KNOB_VALUES of them."""
    for key, v in (("low", low), ("high", high), ("step", step)):
        if abs(v) > MAX_KNOB_MAGNITUDE:
            raise LimitError(f"{label}: {key} {_short(v)} is beyond the limit of ±{MAX_KNOB_MAGNITUDE:g}")
    n = math.floor((high - low) / step + 1e-9) + 1
    if n > MAX_KNOB_VALUES:
        raise LimitError(f"{label}: {low:g}..{high:g} by {step:g} is {n:,} values, above the limit of "
                         f"{MAX_KNOB_VALUES:,} a knob; take a larger step")


def rung_games(first: int, factor: int, rungs: int, flag: str) -> None:
    """Successive halving's last rung (first x factor^(rungs-1)) within MAX_GAMES."""
    count(rungs, "--rungs", MAX_RUNGS)
    total = first * factor ** (rungs - 1)
    if total > MAX_GAMES:
        raise LimitError(f"{flag} {first} x --reduction-factor {factor}^(--rungs {rungs} - 1) = {_short(total)} "
                         f"games at the last rung, above the limit of {MAX_GAMES:,}")


def _short(value) -> str:
    text = f"{value:,}" if isinstance(value, int) else f"{value:g}"
    return text if len(text) <= 24 else f"{text[:10]}...({len(str(abs(int(value))))} digits)"


# --- input files ---------------------------------------------------------------------------

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"' + rb"|'[^'\n]*'")
_OPEN, _CLOSE = np.frombuffer(b"[{", np.uint8), np.frombuffer(b"]}", np.uint8)


def nesting_depth(text: bytes) -> int:
    """The deepest nesting of [ and { outside strings (JSON; TOML's arrays and inline tables)."""
    stripped = np.frombuffer(_STRING.sub(b"", text), np.uint8)
    step = np.isin(stripped, _OPEN).astype(np.int64) - np.isin(stripped, _CLOSE).astype(np.int64)
    return int(np.cumsum(step).max(initial=0))


def read_input(path, label: str) -> bytes:
    """The bytes of an input file, refused (ValueError naming `label` and the file) when it is not a
    readable file or is larger than MAX_INPUT_BYTES."""
    path = Path(path)
    try:
        if not path.is_file():
            raise ValueError(f"{label} {str(path)!r}: no such file" if not path.exists()
                             else f"{label} {str(path)!r}: not a file")
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise LimitError(f"{label} {str(path)!r}: {size:,} bytes, above the limit of {MAX_INPUT_BYTES:,}")
        return path.read_bytes()
    except OSError as exc:
        raise ValueError(f"{label} {str(path)!r}: {exc.strerror or exc}") from None


def parse_text(text: bytes, label: str, path, toml: bool = False):
    """JSON (or TOML) from `text`, refused when nested deeper than MAX_JSON_DEPTH or unparsable."""
    depth = nesting_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise LimitError(f"{label} {str(path)!r}: nested {depth} levels deep, above the limit of {MAX_JSON_DEPTH}")
    try:
        return tomllib.loads(text.decode("utf-8")) if toml else json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ValueError(f"{label} {str(path)!r}: cannot parse: {_first_line(exc)}") from None


def load_json(path, label: str):
    """A JSON file read within the size and nesting limits (ValueError naming `label` and the file)."""
    return parse_text(read_input(path, label), label, path)


def load_json_or_toml(path, label: str):
    path = Path(path)
    return parse_text(read_input(path, label), label, path, toml=path.suffix.lower() != ".json")


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
