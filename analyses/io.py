"""Results files: Parquet (default) or CSV, with the run's metadata kept alongside the rows.

Parquet files carry `df.attrs` as JSON under the schema-metadata key ``balancelab``; CSV
files get a sidecar ``<name>.meta.json`` with the attrs and the column dtypes. `read_results`
restores both, and refuses files that were not written by balancelab.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .metadata import FORMAT

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
    df = table.to_pandas()
    df.attrs = json.loads(metadata[META_KEY])
    return df


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
    try:
        df = pd.read_csv(path)
        df = df.astype({c: t for c, t in dtypes.items() if c in df.columns})
    except (ValueError, TypeError, pd.errors.ParserError) as exc:
        raise ValueError(f"cannot read results file {str(path)!r}: {_first_line(exc)}") from None
    df.attrs = attrs
    return df


def sidecar_path(csv_path) -> Path:
    """runs/x.csv -> runs/x.meta.json"""
    csv_path = Path(csv_path)
    return csv_path.with_name(csv_path.stem + ".meta.json")


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Write through a temporary file in the same folder and rename it into place."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
