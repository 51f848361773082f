"""Tuning a WarPolicy (analyses/tune.py): the search space as data, `with_params`, and the stored
`tuned` policy (`data/tuned.json`: the start policy, the parameters found and their provenance).

Parameter names are WarPolicy fields (`attack_threshold`, `garrison`, `naval`, ...) and, for the
buying strategy, `purchase.<unit>` (that unit's weight) or `purchase.ships` / `purchase.castles` /
`purchase.save`. Values are converted to the field's type (int, float or bool).
"""
from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path
from types import MappingProxyType

from simcore.policies import tuned_from_file

from ..maps import REALMS
from .war import WarPolicy

UNITS = ("footsoldier", "siege_engine", "fighter", "wizard", "monster", "storm_elemental", "dragon", "warship")
TUNING = MappingProxyType({   # read-only: the policy modules hold no mutable module state
    "start": "balanced",   # the shipped heuristic a search starts from by default
    "players": 4,          # 1-vs-3: the candidate in one seat, the opponent in the other three, rotated over realms
    "space": (
        {"name": "attack_threshold", "low": 0.3, "high": 0.9, "step": 0.05},
        {"name": "retreat_below", "low": 0.0, "high": 0.6, "step": 0.05},
        {"name": "garrison", "low": 0, "high": 3, "step": 1},
        {"name": "defend", "low": 0.0, "high": 1.0, "step": 0.05},
        {"name": "max_attackers", "low": 6, "high": 20, "step": 1},
        {"name": "capital_hold", "low": 0.0, "high": 0.95, "step": 0.05},
        {"name": "castle_hold", "low": 0.0, "high": 0.95, "step": 0.05},
        {"name": "explore_threshold", "low": 0.3, "high": 0.9, "step": 0.05},
        {"name": "flee_below", "low": 0.0, "high": 0.6, "step": 0.05},
        {"name": "hold_regions", "choices": (True, False)},
        {"name": "amphibious", "choices": (True, False)},
        {"name": "naval", "choices": (True, False)},
        {"name": "explore", "choices": (True, False)},
        *({"name": f"purchase.{u}", "low": 0.0, "high": 6.0, "step": 0.5} for u in UNITS),
        {"name": "purchase.ships", "low": 0, "high": 3, "step": 1},
        {"name": "purchase.save", "low": 0, "high": 4, "step": 1},
    ),
})
TUNED_FILE = Path(__file__).resolve().parent.parent / "data" / "tuned.json"
_FIELDS = tuple(f.name for f in fields(WarPolicy) if f.name not in ("name", "purchase", "by_realm"))
_PURCHASE = ("ships", "castles", "save")


def _typed(current, value, key: str):
    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
        raise ValueError(f"nerathsim policy parameter {key!r} expects True or False, got {value!r}")
    if isinstance(current, int):
        if float(value) != int(value):
            raise ValueError(f"nerathsim policy parameter {key!r} expects an integer, got {value!r}")
        return int(value)
    return float(value)


def with_params(policy, params: dict, name: str | None = None) -> WarPolicy:
    """A copy of the WarPolicy `policy` with `params` ({"attack_threshold": 0.5, "purchase.dragon": 2.0}).
    A policy with realms of their own (`by_realm`) gets `params` in every realm's policy too."""
    if not isinstance(policy, WarPolicy):
        raise ValueError(f"only a nerathsim WarPolicy has tunable parameters, got {policy!r}")
    if policy.by_realm:
        realms = tuple(None if p is None else with_params(p, params) for p in policy.by_realm)
        return replace(with_params(replace(policy, by_realm=()), params, name), by_realm=realms)
    top, purchase = {}, policy.purchase
    for key, value in params.items():
        head, _, rest = key.partition(".")
        if head == "purchase" and rest in _PURCHASE:
            purchase = replace(purchase, **{rest: _typed(getattr(purchase, rest), value, key)})
        elif head == "purchase" and rest in UNITS:
            purchase = purchase.with_weight(rest, float(value))
        elif not rest and head in _FIELDS:
            top[head] = _typed(getattr(policy, head), value, key)
        else:
            raise ValueError(f"unknown nerathsim policy parameter {key!r}; parameters: {', '.join(_FIELDS)}, "
                             f"purchase.<unit> ({', '.join(UNITS)}), {', '.join('purchase.' + p for p in _PURCHASE)}")
    return replace(policy, name=policy.name if name is None else name, purchase=purchase, **top)


def param_value(policy, key: str):
    """The current value of parameter `key` of the WarPolicy `policy` (names as `with_params` takes them)."""
    head, _, rest = key.partition(".")
    if head == "purchase" and rest in UNITS:
        return policy.purchase.weight(rest)
    if head == "purchase" and rest in _PURCHASE:
        return getattr(policy.purchase, rest)
    if not rest and head in _FIELDS:
        return getattr(policy, head)
    raise ValueError(f"unknown nerathsim policy parameter {key!r}")


def with_realm_params(policy: WarPolicy, by_realm: dict) -> WarPolicy:
    """`policy` with a realm's own parameters on top of its own ({"vailin": {"naval": True}, ...}): the
    realms named play `with_params(policy, theirs)`, the others `policy` itself."""
    unknown = sorted(set(by_realm) - set(REALMS))
    if unknown:
        raise ValueError(f"unknown realm(s) {', '.join(map(repr, unknown))}; realms: {', '.join(REALMS)}")
    base = replace(policy, by_realm=())
    if not by_realm:
        return base
    return replace(base, by_realm=tuple(
        with_params(base, by_realm[r], name=f"{base.name}:{r}") if r in by_realm else None for r in REALMS))


def load_tuned(policies: dict, path=TUNED_FILE) -> WarPolicy:
    """The `tuned` policy stored in `path`: its start policy (from `policies`) with the stored parameters,
    and each realm's own parameters ("by_realm", where one set of weights does not suit every realm)."""
    tuned, data = tuned_from_file(path, policies, with_params)
    return with_realm_params(tuned, data.get("by_realm", {}))


__all__ = ["TUNING", "TUNED_FILE", "UNITS", "with_params", "with_realm_params", "param_value", "load_tuned"]
