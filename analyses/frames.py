"""Results tables: compact dtypes for game records, and reading seats and winners back.

A results DataFrame has one row per game: ``game, deal, game_seed`` followed by the game's
`to_record()` columns (``winner, turns, decisions, timed_out, seat{i}_policy, seat{i}_score,
seat{i}_<stat>, <stat>``). Dtypes are compact so a million games fit in a few hundred MB:
policy names are categorical, winners nullable ``Int8`` (strings such as ``"0+2"`` when a
team won), counts the smallest signed integer of 16, 32 or 64 bits that holds them.
Choosing dtypes per chunk and concatenating gives the dtypes of the whole run, so the table
does not depend on chunking.
"""
from __future__ import annotations

import functools
import re

import numpy as np
import pandas as pd

from .worker import record_columns

FIXED_DTYPES = {"game": "int64", "deal": "int64", "game_seed": "int64", "turns": "int32", "decisions": "int32",
                "timed_out": "bool"}
_POLICY_COLUMN = re.compile(r"^seat(\d+)_policy$")


def records_frame(index_columns: dict, records: list[dict]) -> pd.DataFrame:
    """One compact DataFrame from the index columns and the games' `to_record()` rows."""
    return chunk_frame({**index_columns, **record_columns(records)})


def chunk_frame(columns: dict[str, list]) -> pd.DataFrame:
    """One compact DataFrame from plain columns (what `worker.play_chunk` sends back)."""
    return pd.DataFrame({name: _compact(name, values) for name, values in columns.items()}, copy=False)


def _compact(name: str, values: list):
    """The column `name` as a compact array (see the module docstring for the dtype rules)."""
    if name == "winner":
        seats = _seat_winners(values)
        return seats if seats is not None else winner_column(pd.Series(values, dtype=object)).array
    if name in FIXED_DTYPES:
        return np.asarray(values, dtype=FIXED_DTYPES[name])
    if _POLICY_COLUMN.match(name) and isinstance(values, list):
        names = _names_categorical(values)
        if names is not None:
            return names
    array = np.asarray(values)
    if _POLICY_COLUMN.match(name) or array.dtype.kind in "OUS":
        if array.dtype.kind == "O" and all(v is None or isinstance(v, (int, float)) for v in values):
            return pd.array(values, dtype="Float64").to_numpy(dtype="float64", na_value=np.nan)
        return pd.Categorical(values)
    if array.dtype.kind == "i":
        return array.astype(_small_int(array), copy=False)
    return array


def _seat_winners(values) -> pd.api.extensions.ExtensionArray | None:
    """`winner_column`'s Int8 array for a list of winning seats (int, None for no winner), built from a
    mask: the common case, without a pandas Series of objects. None for anything else (team winners,
    numpy values, a seat beyond Int8), which `winner_column` handles."""
    if not isinstance(values, list) or not all(type(v) is int or v is None for v in values):
        return None
    missing = np.fromiter((v is None for v in values), bool, len(values))
    seats = np.fromiter((0 if v is None else v for v in values), np.int64, len(values))
    if len(seats) and (seats.min() < -128 or seats.max() > 127):
        return None
    return pd.arrays.IntegerArray(seats.astype(np.int8), missing)


def _names_categorical(values: list) -> pd.Categorical | None:
    """`pd.Categorical(values)` for a list of names (str, None for an empty seat), built from codes: a
    results chunk repeats a few policy names, and pandas' own inference over the strings cost more
    than a kernel game. None when a value is not a str or None, or none is a name (then pandas decides)."""
    distinct = set(values)
    missing = None in distinct
    distinct.discard(None)
    if not distinct or not all(type(v) is str for v in distinct):   # (no name at all: pandas' float categories)
        return None
    categories = sorted(distinct)
    code = {c: i for i, c in enumerate(categories)}
    if missing:
        code[None] = -1
    codes = np.fromiter(map(code.__getitem__, values), np.int32, len(values))
    return pd.Categorical.from_codes(codes, dtype=_names_dtype(tuple(categories)))


@functools.lru_cache(maxsize=256)
def _names_dtype(categories: tuple) -> pd.CategoricalDtype:
    # one dtype per set of names: pandas checks a new dtype's categories, which costs more than the codes
    return pd.CategoricalDtype(list(categories))


def _small_int(array: np.ndarray) -> str:
    lo, hi = (int(array.min()), int(array.max())) if len(array) else (0, 0)
    for dtype in ("int16", "int32"):
        info = np.iinfo(dtype)
        if info.min <= lo and hi <= info.max:
            return dtype
    return "int64"


def winner_column(column: pd.Series) -> pd.Series:
    """Winners as nullable Int8 seats, or as strings ("0", "0+2") when any team won."""
    values = column.tolist()
    if any(isinstance(v, str) for v in values):
        return pd.Series([None if _missing(v) else str(v) for v in values], index=column.index,
                         dtype="string", name=column.name)
    return pd.Series([None if _missing(v) else int(v) for v in values], index=column.index,
                     dtype="Int8", name=column.name)


def _missing(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value))


def concat_frames(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate chunk frames in game order, uniting categories and winner types."""
    frames = sorted((f for f in frames if len(f)), key=lambda f: int(f["game"].iloc[0]))
    if not frames:
        return pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in FIXED_DTYPES.items()})
    united = _united_categories(frames)
    result = pd.concat([_recode(f, united) for f in frames], ignore_index=True)
    for name, dtype in result.dtypes.items():  # a column typed differently in some chunk
        if dtype == object:
            result[name] = winner_column(result[name]) if name == "winner" else result[name].astype("category")
    return result


def _recode(frame: pd.DataFrame, categories: dict[str, list]) -> pd.DataFrame:
    """`frame` with its categorical columns re-coded to the given (shared) categories."""
    dtypes = frame.dtypes
    stale = [name for name, values in categories.items()   # (most chunks of a run have the run's names already)
             if name in dtypes.index and isinstance(dtypes[name], pd.CategoricalDtype)
             and list(dtypes[name].categories) != values]
    if not stale:
        return frame
    frame = frame.copy(deep=False)
    for name in stale:
        frame[name] = frame[name].cat.set_categories(categories[name])
    return frame


def _united_categories(frames: list[pd.DataFrame]) -> dict[str, list]:
    """Sorted union of the categories of each categorical column over all frames."""
    united: dict[str, set] = {}
    for frame in frames:
        for name, dtype in frame.dtypes.items():
            if isinstance(dtype, pd.CategoricalDtype):
                united.setdefault(name, set()).update(dtype.categories)
    return {name: sorted(categories) for name, categories in united.items()}


# --- reading tables back ----------------------------------------------------------------

def seat_count(df: pd.DataFrame) -> int:
    """The largest number of seats in the table (columns seat{i}_policy)."""
    seats = [int(m.group(1)) for c in df.columns if (m := _POLICY_COLUMN.match(str(c)))]
    if not seats:
        raise ValueError("not a results table: no seat{i}_policy columns")
    return max(seats) + 1


def players(df: pd.DataFrame) -> pd.Series:
    """Number of seats in each game (non-missing seat{i}_policy columns)."""
    return df[policy_columns(df)].notna().sum(axis=1).astype("int16").rename("players")


def policy_columns(df: pd.DataFrame) -> list[str]:
    return [f"seat{i}_policy" for i in range(seat_count(df))]


def seat_wins(df: pd.DataFrame) -> np.ndarray:
    """Boolean (games x seats) matrix: did seat s win game g (a member of a winning team counts)."""
    n_seats = seat_count(df)
    if "winner" not in df.columns:
        raise ValueError("not a results table: no winner column")
    winner = df["winner"]
    if pd.api.types.is_integer_dtype(winner.dtype):
        seats = winner.to_numpy(dtype="float64", na_value=np.nan)
        outside = ~np.isnan(seats) & ((seats < 0) | (seats >= n_seats))
        if outside.any():
            raise ValueError(f"winner seat {int(seats[outside][0])} is outside the seats 0..{n_seats - 1}")
        return seats[:, None] == np.arange(n_seats)[None, :]
    wins = np.zeros((len(df), n_seats), dtype=bool)
    for g, value in enumerate(winner.tolist()):
        if not _missing(value):
            for seat in str(value).split("+"):
                if not seat.strip().isdigit() or int(seat) >= n_seats:
                    raise ValueError(f"winner {value!r} names seat {seat!r}, not one of the seats 0..{n_seats - 1}")
                wins[g, int(seat)] = True
    return wins


def decided(df: pd.DataFrame) -> pd.Series:
    """True for games that someone won (not timed out, not without a winner)."""
    return df["winner"].notna() & ~df["timed_out"].astype(bool)


def lineup(df: pd.DataFrame) -> pd.Series:
    """The policies at the table regardless of seat, e.g. 'greedy+random+random' (sorted)."""
    columns = policy_columns(df)
    table_id = df.groupby(columns, observed=True, dropna=False, sort=False).ngroup().to_numpy()
    _, first_row = np.unique(table_id, return_index=True)
    names = [df[columns].iloc[row].tolist() for row in first_row]
    keys = np.array(["+".join(sorted(v for v in row if isinstance(v, str))) for row in names], dtype=object)
    return pd.Series(pd.Categorical(keys[table_id]), index=df.index, name="lineup")
