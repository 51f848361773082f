"""A results file checked against the game it names, when it is read.

`check_metadata(attrs, where)`: the metadata block has the right shape (a dict; `rules` a dict,
`policies` a list of names, `seed` and `n_games` whole numbers, `data_hashes` a dict, ...).
`check_against_game(df, module, where)`: the rules are rules of that game with as many seats as the
file has, the content hashes of its data inputs are the ones these rules read, the columns are the
ones that game records (one game played under the file's rules gives them), the index and count
columns have their dtypes and ranges, and no (seed, deal, game) row is there twice.

Every refusal is a ValueError naming the file and the field: a file of another game, a doubled row
or a hand-edited column never reaches the statistics.
"""
from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from .games import make_rules, resolve_policies
from .metadata import data_hashes, jsonable, rules_dict

#: metadata key -> (accepted types, what to say)
METADATA_TYPES = {
    "game": (str, "a game name"),
    "rules": (dict, "a table of Rules fields"),
    "policies": (list, "a list of policy names"),
    "policy_reprs": (list, "a list"),
    "data_hashes": (dict, "a table of content hashes"),
    "seed": (int, "a whole number"),
    "n_games": (int, "a whole number"),
    "seat_order": (str, "a name"),
    "rotations": (int, "a whole number"),
    "engine": (str, "a name"),
    "engine_fallback": (str, "a text"),
    "rules_version": (str, "a version text"),
}
#: column -> the dtype kinds it may have ('i' int, 'b' bool) and its least value
INDEX_COLUMNS = {"game": ("iu", 0), "deal": ("iu", 0), "game_seed": ("iu", None), "turns": ("iu", 0),
                 "decisions": ("iu", 0), "timed_out": ("b", None)}


def check_metadata(attrs, where: str) -> None:
    if not isinstance(attrs, dict):
        raise ValueError(f"{where}: its metadata is {type(attrs).__name__}, not a table of fields")
    for key, (kind, words) in METADATA_TYPES.items():
        if key not in attrs:
            continue
        value = attrs[key]
        if isinstance(value, bool) or not isinstance(value, kind):
            raise ValueError(f"{where}: metadata field {key!r} is {value!r:.60}, not {words}")
    policies = attrs.get("policies")
    if isinstance(policies, list) and not all(isinstance(p, str) and p for p in policies):
        raise ValueError(f"{where}: metadata field 'policies' holds {policies!r:.60}, not policy names")
    hashes = attrs.get("data_hashes")
    if isinstance(hashes, dict) and not all(isinstance(v, str) for v in hashes.values()):
        raise ValueError(f"{where}: metadata field 'data_hashes' holds values that are not hashes")


def check_against_game(df: pd.DataFrame, module, seats: int, where: str) -> None:
    attrs = df.attrs
    rules = attrs.get("rules")
    if rules is None:
        raise ValueError(f"{where}: metadata field 'rules' is missing")
    published = rules_dict(module.Rules())
    unknown = sorted(set(rules) - set(published))
    if unknown:
        raise ValueError(f"{where}: metadata field 'rules' are not rules of {module.__name__} (unknown Rules field "
                         f"{unknown[0]!r}; fields: {', '.join(list(published)[:6])}, ...)")
    game_rules = _rebuilt(module, rules, published)
    players = rules.get("players")
    if isinstance(players, int) and not isinstance(players, bool) and players != seats:
        raise ValueError(f"{where}: metadata field 'rules' says {players} players, the file has {seats} seats")
    if game_rules is None:      # rules this lab cannot rebuild from the file (a custom map, ...): no replay checks
        _check_index(df, where)
        return
    if isinstance(attrs.get("policies"), list):
        try:
            resolve_policies(module, attrs["policies"], seats)
        except ValueError as exc:
            if "unknown" in str(exc) and all(isinstance(p, str) for p in attrs["policies"]):
                pass           # a policy of another version (e.g. a tuned file since removed): rows still count
            else:
                raise ValueError(f"{where}: metadata field 'policies': {_line(exc)}") from None
    recorded = attrs.get("data_hashes")
    if isinstance(recorded, dict):
        now = data_hashes(game_rules)
        changed = sorted(k for k in set(recorded) | set(now) if recorded.get(k) != now.get(k))
        if changed:
            raise ValueError(f"{where}: metadata field 'data_hashes.{changed[0]}' is "
                             f"{str(recorded.get(changed[0]))[:12]}, but these rules read data with "
                             f"{str(now.get(changed[0]))[:12]}: the file was played with other {changed[0]}")
    _check_columns(df, module, game_rules, rules, seats, where)
    _check_index(df, where)


def _rebuilt(module, rules: dict, published: dict):
    """The game's Rules as the file records them, or None when they cannot be rebuilt exactly from the
    metadata (nested values come back from JSON as lists and tables): the fields that differ from the
    published game set one by one, kept only when they give back the recorded rules."""
    changed = {k: v for k, v in rules.items() if published.get(k) != v}
    for attempt in (changed, {k: v for k, v in changed.items() if not isinstance(v, (list, dict))}):
        try:
            candidate = make_rules(module, attempt or None)
        except (ValueError, TypeError):    # a value only its description was kept of ("108 custom cards")
            continue
        if jsonable(rules_dict(candidate)) == jsonable(rules):
            return candidate
    return None


def _check_columns(df, module, game_rules, rules, seats: int, where: str) -> None:
    expected = record_columns(module, game_rules, seats)
    if expected is None:
        return
    have = set(map(str, df.columns))
    missing = [c for c in expected if c not in have]
    if missing:
        raise ValueError(f"{where}: column {missing[0]!r} that every {module.__name__} results file has is missing "
                         f"({len(missing)} missing): not a {module.__name__} file, or an edited one")
    foreign = sorted(have - set(expected) - set(INDEX_COLUMNS))
    seat_foreign = [c for c in foreign if c.startswith("seat")]
    if seat_foreign:
        raise ValueError(f"{where}: column {seat_foreign[0]!r} is not one {module.__name__} records: not a "
                         f"{module.__name__} file")


_COLUMNS: dict = {}


def record_columns(module, rules, seats: int) -> tuple | None:
    """The columns one game of `module` under `rules` records (played with the default policies and
    seed 0; kept per process), or None when such a game cannot be played here (the check is skipped)."""
    key = (module.__name__, repr(rules), seats)
    if key not in _COLUMNS:
        try:
            result = module.play_game(rules, resolve_policies(module, None, seats), seed=0)
            _COLUMNS[key] = tuple(result.to_record())
        except Exception:  # noqa: BLE001  # a game that cannot be replayed here only skips this check
            _COLUMNS[key] = None
    return _COLUMNS[key]


def _check_index(df: pd.DataFrame, where: str) -> None:
    for column, (kinds, least) in INDEX_COLUMNS.items():
        if column not in df.columns:
            continue
        values = df[column]
        if values.dtype.kind not in kinds:
            raise ValueError(f"{where}: column {column!r} has dtype {values.dtype}, expected "
                             f"{'a whole number' if 'i' in kinds else 'true/false'} per game")
        if least is not None and len(values) and int(values.min()) < least:
            row = int(np.argmax(values.to_numpy() < least))
            raise ValueError(f"{where}: column {column!r} is {values.iloc[row]} in row {row}, below {least}")
    doubled = df["game"].duplicated()
    if doubled.any():
        row = int(np.argmax(doubled.to_numpy()))
        raise ValueError(f"{where}: column 'game': row {row} repeats game {df['game'].iloc[row]} (deal "
                         f"{df['deal'].iloc[row]}): a game counted twice")
    n = df.attrs.get("n_games")
    if isinstance(n, numbers.Integral) and "game" in df.columns and int(df["game"].max()) >= max(n, len(df)):
        raise ValueError(f"{where}: column 'game' goes up to {int(df['game'].max())}, but metadata field 'n_games' "
                         f"is {n}")


def _line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
