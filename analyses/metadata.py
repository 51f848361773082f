"""The run metadata kept in `df.attrs` and in every results file.

Everything is normalised to JSON values (tuples become lists, unknown objects their repr),
so the attrs read back from a file compare equal to the attrs of the run that wrote it.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib.metadata
import json
import platform

from .games import policy_repr

FORMAT = "balancelab-results/1"
LIBRARIES = ("numpy", "pandas", "scipy", "joblib", "pyarrow")


@functools.cache
def package_version() -> str:
    """The installed balancelab version, or 'unknown' when running from a bare checkout."""
    try:
        return importlib.metadata.version("balancelab")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


@functools.cache
def _library_versions() -> tuple:
    versions = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return tuple(versions.items())


def library_versions() -> dict:
    """Versions of python and the libraries that shape the results (looked up once)."""
    return dict(_library_versions())


def rules_dict(rules) -> dict:
    """Plain-value view of a Rules instance (its own `to_dict()` when it has one)."""
    if hasattr(rules, "to_dict"):
        return jsonable(rules.to_dict())
    return jsonable({f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)})


def data_hashes(rules) -> dict:
    """{input: sha256 of its content} for every data file the rules read (cards, maps, unit
    tables, event files), from the game's `Rules.data_hashes()`; {} for a game without one."""
    method = getattr(rules, "data_hashes", None)
    return dict(method()) if callable(method) else {}


def partial_deal(spec, n_games: int) -> str | None:
    """The warning for a rotated run that ends inside a deal (not every rotation of its last deal
    played, so the seats are not equally often in every position), else None."""
    rotations = spec.rotations if spec.seat_order == "rotate" else 1
    played = n_games % rotations
    if not played:
        return None
    return (f"seat_order='rotate': {n_games} games end inside deal {n_games // rotations} ({played} of its "
            f"{rotations} rotations played), so the policies did not sit equally often in every seat; "
            f"play a multiple of {rotations} games ({(n_games // rotations + 1) * rotations}) for whole deals")


def run_metadata(module, spec, n_games: int) -> dict:
    """The attrs of a run: game, RULES_VERSION, rules, policies, seed, n_games, versions, and
    ``warnings`` (a list of one-line texts) when there is something to warn about: a rotated run
    that ends inside a deal (`partial_deal`); ``engine_fallback`` (why) when engine='auto' could not
    take the game's batch kernel and the Python engine played."""
    warning = partial_deal(spec, n_games)
    return jsonable({
        "format": FORMAT,
        "game": module.__name__,
        "rules_version": module.RULES_VERSION,
        "rules": rules_dict(spec.rules),
        "data_hashes": data_hashes(spec.rules),
        "policies": [p if isinstance(p, str) else repr(p) for p in spec.lineup],
        "policy_reprs": [policy_repr(module, p) for p in spec.lineup],
        "seed": int(spec.seed),
        "n_games": int(n_games),
        "seat_order": spec.seat_order,
        "rotations": spec.rotations,
        "engine": spec.engine,
        **({"engine_fallback": spec.engine_fallback} if getattr(spec, "engine_fallback", None) else {}),
        "balancelab_version": package_version(),
        "versions": {module.__name__: _module_version(module), **library_versions()},
        **({"warnings": [warning]} if warning else {}),
    })


def _module_version(module) -> str | None:
    return getattr(module, "__version__", None) or module.RULES_VERSION


def jsonable(value):
    """`value` as it reads back from JSON (tuples -> lists, other objects -> repr)."""
    return json.loads(json.dumps(value, default=repr))
