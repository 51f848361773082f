"""Policies as every game takes them: a seat's policy is a name in the game's ``POLICIES`` or a callable
``policy(observation, legal_actions, rng) -> action``; the tuning of a heuristic whose numbers are a
frozen ``weights`` dataclass, and its stored ``tuned`` policy (``data/tuned.json``)."""
from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path


def policy_name(policy) -> str:
    """The policy's `name` attribute, or its repr when it has none (or an empty one)."""
    return getattr(policy, "name", None) or repr(policy)


def resolve_policies(policies, players: int, registry) -> list:
    """The policy of each of `players` seats: a name from `registry` becomes the registered policy, a
    callable stays as it is. ValueError, before anything is played, for anything but a sequence of
    exactly one entry per seat, an unknown name, or an entry that is neither a name nor callable."""
    if isinstance(policies, (str, bytes)) or not hasattr(policies, "__len__"):
        raise ValueError("policies must be a list with one policy (name or object) per seat")
    if len(policies) != players:
        raise ValueError(f"policies: {len(policies)} given for {players} players; give exactly one per seat")
    out = []
    for p in policies:
        if isinstance(p, str):
            if p not in registry:
                raise ValueError(f"policies: unknown policy {p!r}; known: {', '.join(sorted(registry))}")
            out.append(registry[p])
        elif callable(p):
            out.append(p)
        else:
            raise ValueError(f"policies: {p!r} is neither a policy name nor callable")
    return out


def tuned_from_file(path, registry, with_params):
    """(the stored tuned policy, the file's data): the policy `registry[data["start"]]` with the stored
    ``params`` applied by the game's `with_params(policy, params, name)`, under the stored ``name``
    (default "tuned"). The data is returned for what a game stores besides (e.g. per-realm parameters)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return with_params(registry[data["start"]], data["params"], name=data.get("name", "tuned")), data


def weight_tuning(policy_class, game: str, registry, tuned_file):
    """A game's ``(with_params, load_tuned)`` when its tunable heuristic is `policy_class`, built as
    ``policy_class(weights, name)`` with its numbers in a ``weights`` dataclass: ``with_params(policy,
    params, name=None)`` a copy with ``{"weights.<field>": value}`` set (as floats; ValueError naming
    `game` for another policy or an unknown parameter), ``load_tuned(path=tuned_file)`` the stored one."""
    def with_params(policy, params: dict, name: str | None = None):
        if not isinstance(policy, policy_class):
            raise ValueError(f"only a {game} {policy_class.__name__} has tunable parameters, got {policy!r}")
        known = tuple(f.name for f in fields(policy.weights))
        changed = {}
        for key, value in params.items():
            head, _, weight = key.partition(".")
            if head != "weights" or weight not in known:
                raise ValueError(f"unknown {game} policy parameter {key!r}; parameters: "
                                 f"{', '.join('weights.' + f for f in known)}")
            changed[weight] = float(value)
        return policy_class(replace(policy.weights, **changed), policy.name if name is None else name)

    def load_tuned(path=tuned_file):
        return tuned_from_file(path, registry, with_params)[0]
    return with_params, load_tuned
