"""Results files: Parquet (default) or CSV, with the run's metadata kept alongside the rows.

Parquet files carry `df.attrs` as JSON under the schema-metadata key ``balancelab``; CSV
files get a sidecar ``<name>.meta.json`` with the attrs and the column dtypes. `read_results`
restores both, and refuses files that were not written by balancelab or that the analyses
cannot use (`validate_results`: no rows, unknown game, missing columns, inconsistent seats).
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from . import safe_io
from .games import load_game
from .metadata import FORMAT
from .validate import check_against_game, check_metadata

META_KEY = b"balancelab"


def write_results(df: pd.DataFrame, path, csv: bool | None = None) -> Path:
    """Write a results table atomically; CSV when `csv` is True or the path ends in .csv."""
    path = Path(path)
    csv = path.suffix.lower() == ".csv" if csv is None else csv
    path.parent.mkdir(parents=True, exist_ok=True)
    if csv:
        atomic_write(path, lambda tmp: df.to_csv(tmp, index=False))
        sidecar = {"format": FORMAT, "attrs": df.attrs, "dtypes": {c: str(t) for c, t in df.dtypes.items()}}
        atomic_write(sidecar_path(path), lambda tmp: tmp.write_text(json.dumps(sidecar, indent=1)))
    else:
        atomic_write(path, lambda tmp: write_parquet(df, tmp, df.attrs))
    return path


def write_parquet(df: pd.DataFrame, path, attrs: dict | None = None) -> None:
    """Write `df` as Parquet, with `attrs` (if given) as balancelab metadata."""
    table = pa.Table.from_pandas(df, preserve_index=False)
    if attrs is not None:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), META_KEY: json.dumps(attrs)})
    pq.write_table(table, path)


def read_results(path) -> pd.DataFrame:
    """Read a results file written by balancelab, with its metadata restored to `df.attrs`."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"cannot read results file {str(path)!r}: no such file")
    if path.suffix.lower() == ".csv":
        return _read_csv(path)
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as exc:
        raise ValueError(f"cannot read results file {str(path)!r}: not a Parquet file ({_first_line(exc)})") from None
    metadata = table.schema.metadata or {}
    if META_KEY not in metadata:
        raise ValueError(f"{str(path)!r} is not a balancelab results file (no balancelab metadata)")
    try:
        attrs = json.loads(metadata[META_KEY])
    except ValueError:
        raise ValueError(f"{str(path)!r}: its balancelab metadata is not JSON") from None
    check_metadata(attrs, repr(str(path)))
    df = table.to_pandas()
    df.attrs = attrs
    return validate_results(df, path)


def read_parquet_part(path) -> pd.DataFrame:
    """Read one part file of an unfinished run."""
    return pq.read_table(path).to_pandas()


def _read_csv(path: Path) -> pd.DataFrame:
    sidecar = sidecar_path(path)
    try:
        meta = json.loads(sidecar.read_text())
        dtypes, attrs = meta["dtypes"], meta["attrs"]
    except (OSError, ValueError, KeyError, TypeError):
        raise ValueError(f"{str(path)!r} is not a balancelab results file (missing or bad {sidecar.name})") from None
    if not isinstance(dtypes, dict) or not all(isinstance(t, str) for t in dtypes.values()):
        raise ValueError(f"{str(path)!r}: field 'dtypes' of {sidecar.name} is not a table of column -> dtype")
    check_metadata(attrs, repr(str(path)))
    try:
        df = pd.read_csv(path)
        df = df.astype({c: t for c, t in dtypes.items() if c in df.columns})
    except (ValueError, TypeError, pd.errors.ParserError) as exc:
        raise ValueError(f"cannot read results file {str(path)!r}: {_first_line(exc)}") from None
    df.attrs = attrs
    return validate_results(df, path)


#: columns every results table has (runner index columns + every game's to_record())
REQUIRED_COLUMNS = ("game", "deal", "winner", "turns", "decisions", "timed_out")
_SEAT_COLUMN = re.compile(r"^seat(\d+)_policy$")


def validate_results(df: pd.DataFrame, source="results") -> pd.DataFrame:
    """`df` if it is a results table the analyses can use, else ValueError naming the problem:
    at least one row, a known game in the metadata, the required columns, seat columns
    seat0..seat{n-1}, a policy per seat in the metadata, winners that are seats of that game."""
    where = repr(str(source))
    if len(df) == 0:
        raise ValueError(f"{where} holds no games (zero rows): nothing to analyse")
    game = df.attrs.get("game")
    if not isinstance(game, str) or not game:
        raise ValueError(f"{where} names no game in its metadata (attrs['game'] is {game!r})")
    try:
        load_game(game)
    except ValueError as exc:
        raise ValueError(f"{where} is a run of game {game!r}, which is not known here ({exc})") from None
    missing = [c for c in REQUIRED_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{where} lacks the column(s) {', '.join(missing)} that every results file has")
    seats = sorted(int(m.group(1)) for c in df.columns if (m := _SEAT_COLUMN.match(str(c))))
    if not seats:
        raise ValueError(f"{where} has no seat{{i}}_policy columns")
    if seats != list(range(len(seats))):
        gap = next(i for i in range(len(seats) + 1) if i not in seats)
        raise ValueError(f"{where} has seat columns {', '.join(f'seat{i}_policy' for i in seats)} but no seat{gap}_policy")
    policies = df.attrs.get("policies")
    if isinstance(policies, list) and len(policies) != len(seats):
        raise ValueError(f"{where}: its metadata lists {len(policies)} policies for {len(seats)} seats")
    check_metadata(df.attrs, where)
    check_against_game(df, load_game(game), len(seats), where)
    check_winners(df, where)
    return df


def check_winners(df: pd.DataFrame, where: str = "results") -> None:
    """ValueError unless every winner is missing or a seat (or '+'-joined seats) of its game."""
    occupied = df[[f"seat{i}_policy" for i in range(_seat_total(df))]].notna().to_numpy()
    winner = df["winner"]
    if pd.api.types.is_integer_dtype(winner.dtype):  # one seat per game: checked at once
        seat = winner.to_numpy(dtype="float64", na_value=-1.0).astype("int64")
        known = winner.notna().to_numpy()
        inside = (seat >= 0) & (seat < occupied.shape[1])
        ok = ~known | (inside & occupied[np.arange(len(df)), np.clip(seat, 0, occupied.shape[1] - 1)])
        if ok.all():
            return
        rows = np.flatnonzero(~ok)[:1]
    else:
        rows = range(len(df))
    for row in rows:
        value = winner.iloc[row]
        if value is None or value is pd.NA or (isinstance(value, float) and value != value):
            continue
        try:
            team = [int(v) for v in str(value).split("+")] if isinstance(value, str) else [_whole(value)]
        except (TypeError, ValueError):
            raise ValueError(f"{where}: game {df['game'].iloc[row]} has winner {value!r}, not a seat number") from None
        for seat in team:
            if not 0 <= seat < occupied.shape[1] or not occupied[row, seat]:
                n = int(occupied[row].sum())
                raise ValueError(f"{where}: game {df['game'].iloc[row]} names seat {seat} as its winner, outside "
                                 f"its seats 0..{n - 1}")


def _whole(value) -> int:
    if isinstance(value, bool) or float(value) != int(value):
        raise ValueError(value)
    return int(value)


def _seat_total(df: pd.DataFrame) -> int:
    return max(int(m.group(1)) for c in df.columns if (m := _SEAT_COLUMN.match(str(c)))) + 1


def sidecar_path(csv_path) -> Path:
    """runs/x.csv -> runs/x.meta.json"""
    csv_path = Path(csv_path)
    return csv_path.with_name(csv_path.stem + ".meta.json")


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Write through an exclusively created temporary file in the same folder and rename it into place
    (`safe_io.atomic_write`: a link planted at a predictable temporary name is never followed)."""
    safe_io.atomic_write(path, write)


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
