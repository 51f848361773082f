"""analyses: reproducible batch simulation and honest balance statistics for any game module.

    import analyses
    df = analyses.simulate("nightsim", 4000, policies="greedy,random,random,random", n_jobs=2)
    analyses.first_player_advantage(df).seats
    analyses.win_rates(df).by_policy

Works with every module that follows docs/GAME_PROTOCOL.md; see analyses/README.md.

The names below are imported on first use (PEP 562), not when the package is: a joblib worker
imports `analyses.worker` and with it this file, and must not pay for pandas, scipy and pyarrow
before its first game. `from analyses import simulate` works as before.
"""
from __future__ import annotations

import importlib
import sys
import types

_EXPORTS = {
    "simulate": "runner", "StopWhen": "runner", "simulate_to_file": "checkpoint",
    "load_game": "games", "KNOWN_GAMES": "games", "read_results": "io", "write_results": "io",
    "win_rates": "win_rates", "WinRates": "win_rates",
    "first_player_advantage": "first_player", "FirstPlayerAdvantage": "first_player",
    "game_length": "game_length", "GameLength": "game_length", "sweep": "sweep", "Sweep": "sweep",
    "rebalance": "rebalance_search", "Rebalance": "rebalance_search", "tune_policy": "tune", "Tuned": "tune", "Knob": "knobs", "make_objective": "objectives",
    "skill_ladder": "ladder", "Ladder": "ladder",
    "sensitivity": "sensitivity",
    "confirmed_findings": "replication", "confirmation_seed": "replication",
}
__all__ = list(_EXPORTS)


def __getattr__(name: str):
    """An exported name (imported from its module on first use), or a submodule (`analyses.runner`)."""
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        return importlib.import_module(f".{name}", __name__)
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}":
            raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """Keeps `analyses.win_rates` (and `game_length`, `sweep`) the function, as the eager imports
    did: importing a submodule binds its name on the package, which would hide the function."""

    def __setattr__(self, name, value):
        if _EXPORTS.get(name) == name and isinstance(value, types.ModuleType) and value.__name__ == f"{__name__}.{name}":
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
