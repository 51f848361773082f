"""What `analyses.tune_policy` tunes: the search space (`Param`, `parse_space`: numbers on a grid
or a log scale, integers, or choices; a trust region with `Param.around`; warm-start points put on
the grid), and the policies (the start policy, its parameters, the pool of opponents).
"""
from __future__ import annotations

import dataclasses
import math
import numbers
from pathlib import Path

from . import limits
from .games import with_parameter
from .plan import policy_key

_SPACE_KEYS = {"name", "low", "high", "step", "log", "choices"}


@dataclasses.dataclass(frozen=True)
class Param:
    """One dimension of the search space: a number in [low, high] (on a `step` grid, or on a log
    scale), an integer (low, high and step all integers), or one of `choices`."""

    name: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    log: bool = False
    choices: tuple | None = None

    @property
    def integer(self) -> bool:
        return self.choices is None and all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                                            for v in (self.low, self.high, 1 if self.step is None else self.step))

    def suggest(self, trial):
        if self.choices is not None:
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.integer:
            return trial.suggest_int(self.name, int(self.low), int(self.high), step=int(self.step or 1), log=self.log)
        return trial.suggest_float(self.name, float(self.low), float(self.high), step=self.step, log=self.log)

    def snap(self, value):
        """`value` moved onto this dimension (clipped to the range, rounded to the grid)."""
        if self.choices is not None:
            return value if value in self.choices else self.choices[0]
        value = min(max(float(value), float(self.low)), float(self.high))
        if self.step is not None:
            value = float(self.low) + round((value - float(self.low)) / float(self.step)) * float(self.step)
            value = min(value, float(self.high))
        return int(round(value)) if self.integer else round(value, 10)

    def around(self, value, radius: float) -> Param:
        """This dimension cut to `value` ± `radius` × its range (on its grid; choices unchanged): a
        trust region, for a search that improves a good start rather than exploring everything."""
        if self.choices is not None:
            return self
        half = radius * (float(self.high) - float(self.low))
        if self.log:
            low, high = max(float(self.low), value / (1 + radius * 10)), min(float(self.high), value * (1 + radius * 10))
        else:
            low, high = max(float(self.low), value - half), min(float(self.high), value + half)
        if self.step is not None:
            step, base = float(self.step), float(self.low)
            low = base + math.floor((low - base) / step + 1e-9) * step
            high = base + math.ceil((high - base) / step - 1e-9) * step
            low, high = max(low, float(self.low)), min(high, float(self.high))
            low = base + round((low - base) / step) * step
            high = low + math.floor((high - low) / step + 1e-9) * step
        low, high = (int(round(low)), int(round(high))) if self.integer else (round(low, 10), round(high, 10))
        if not low < high:
            return self
        return dataclasses.replace(self, low=low, high=high)

    def spec(self) -> dict:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None and v is not False}


def parse_space(space) -> list[Param]:
    """Check a search space (a list of dicts or Params) and return Params; bad input raises ValueError."""
    if isinstance(space, (str, bytes, dict)) or not hasattr(space, "__iter__"):
        raise ValueError(f"space must be a list of {{'name', 'low', 'high', 'step'|'log'}} or {{'name', 'choices'}} "
                         f"entries, got {space!r}")
    out, seen = [], set()
    for entry in space:
        if isinstance(entry, Param):
            entry = dataclasses.asdict(entry)
        if not isinstance(entry, dict):
            raise ValueError(f"space: each entry must be a dict with name/low/high or name/choices, got {entry!r}")
        unknown = set(entry) - _SPACE_KEYS
        if unknown:
            raise ValueError(f"space: unknown key(s) {', '.join(sorted(unknown))} in {entry!r}; "
                             f"allowed: {', '.join(sorted(_SPACE_KEYS))}")
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(f"space: every entry needs a name (a parameter of the policy), got {entry!r}")
        if name in seen:
            raise ValueError(f"space: parameter {name!r} is declared twice")
        seen.add(name)
        out.append(_param(entry, name))
    if not out:
        raise ValueError("space: declare at least one parameter")
    return out


def _param(entry: dict, name: str) -> Param:
    choices = entry.get("choices")
    if choices is not None:
        if isinstance(choices, (str, bytes)) or not hasattr(choices, "__iter__") or not list(choices):
            raise ValueError(f"space: {name}: choices must be a non-empty list, got {choices!r}")
        if any(k in entry for k in ("low", "high", "step")):
            raise ValueError(f"space: {name}: give either choices or low/high, not both")
        return Param(name, choices=tuple(choices))
    low, high, step, log = entry.get("low"), entry.get("high"), entry.get("step"), entry.get("log", False)
    for label, v in (("low", low), ("high", high)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v):
            raise ValueError(f"space: {name}: {label} must be a finite number, got {v!r}")
    if not low < high:
        raise ValueError(f"space: {name}: low must be below high, got low={low!r} high={high!r}")
    if step is not None and (isinstance(step, bool) or not isinstance(step, numbers.Real) or not step > 0):
        raise ValueError(f"space: {name}: step must be a positive number, got {step!r}")
    if not isinstance(log, bool):
        raise ValueError(f"space: {name}: log must be True or False, got {log!r}")
    if log and step is not None:
        raise ValueError(f"space: {name}: give step or log=True, not both")
    if log and low <= 0:
        raise ValueError(f"space: {name}: a log scale needs low > 0, got {low!r}")
    return Param(name, low, high, step, log)


def warm_points(warm_start, dims, start_params: dict) -> tuple[list[dict], list]:
    """(points on the space's grid, what each came from) for `tune_policy(warm_start=...)`."""
    if warm_start is None:
        return [], []
    entries = [warm_start] if isinstance(warm_start, (str, Path, dict)) else list(warm_start)
    points, sources = [], []
    for entry in entries:
        if isinstance(entry, (str, Path)):
            try:
                params = limits.load_json(entry, "warm_start")["params"]
            except limits.LimitError:
                raise
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"warm_start: {entry} is not a tuned data file with 'params' ({exc}). Reproduce "
                                 f"with json.load(open({str(entry)!r}))['params']") from None
            sources.append(str(entry))
        elif isinstance(entry, dict):
            params = entry
            sources.append("params")
        else:
            raise ValueError(f"warm_start: give data file paths or {{parameter: value}} dicts, got {entry!r}")
        names = {d.name for d in dims}
        unknown = sorted(set(params) - names)
        if unknown:
            raise ValueError(f"warm_start: parameter(s) {', '.join(unknown)} are not in the search space")
        points.append({d.name: d.snap(params.get(d.name, start_params[d.name])) for d in dims})
    return points, sources


# --- policies ------------------------------------------------------------------------------

def apply_params(module, policy, params: dict, name: str | None = None):
    """`policy` with `params` set: the game's `with_params` when it has one, else dataclass fields
    by dotted path (`analyses.games.with_parameter`)."""
    hook = getattr(module, "with_params", None)
    if hook is not None:
        return hook(policy, params, name=name)
    for key, value in params.items():
        policy = with_parameter(policy, key, value)
    if name is not None and dataclasses.is_dataclass(policy) and "name" in {f.name for f in dataclasses.fields(policy)}:
        policy = dataclasses.replace(policy, name=name)
    return policy


def param_value(module, policy, name: str):
    """The current value of parameter `name` of `policy` (the game's `param_value`, else attributes)."""
    hook = getattr(module, "param_value", None)
    if hook is not None:
        return hook(policy, name)
    value = policy
    for part in name.split("."):
        value = getattr(value, part)
    return value


def _label(entry) -> str:
    return entry if isinstance(entry, str) else str(getattr(entry, "name", None) or repr(entry))


def resolve_start(module, start):
    """(label, policy object) of the start policy; ValueError for an unknown or non-policy entry."""
    tuning = getattr(module, "TUNING", {}) or {}
    if start is None:
        start = tuning.get("start")
        if start is None:
            raise ValueError(f"game {module.__name__!r} declares no start policy (TUNING['start']); give start=NAME")
    if isinstance(start, str):
        if start not in module.POLICIES:
            raise ValueError(f"unknown start policy {start!r} for {module.__name__}; known: "
                             f"{', '.join(module.POLICIES)}")
        return start, module.POLICIES[start]
    if not callable(start):
        raise ValueError(f"start policy {start!r} is neither a registered name nor a policy object")
    return _label(start), start


def default_pool(module, start_label: str, start) -> list:
    """The start policy plus every other shipped policy of its kind that plays differently
    (aliases such as nightsim's `heuristic` = `greedy`, `random` and `tuned` left out)."""
    pool, keys = [start_label if start_label in module.POLICIES else start], [policy_key(start)]
    for name, policy in module.POLICIES.items():
        if name in ("random", "tuned") or type(policy) is not type(start):
            continue
        if policy_key(policy) not in keys:
            pool.append(name)
            keys.append(policy_key(policy))
    return pool


def resolve_pool(module, pool, start_label: str, start) -> list:
    if pool is None:
        return default_pool(module, start_label, start)
    if isinstance(pool, str):
        pool = [p.strip() for p in pool.split(",") if p.strip()]
    elif callable(pool):
        pool = [pool]
    pool = list(pool)
    if not pool:
        raise ValueError("pool: give at least one opponent")
    for entry in pool:
        if isinstance(entry, str) and entry not in module.POLICIES:
            raise ValueError(f"pool: unknown policy {entry!r} for {module.__name__}; known: {', '.join(module.POLICIES)}")
        if not isinstance(entry, str) and not callable(entry):
            raise ValueError(f"pool: {entry!r} is neither a registered name nor a policy object")
    return pool
