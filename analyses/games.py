"""Finding a game module and turning user input into its `Rules` and policies.

Everything here relies only on the game-module protocol (docs/GAME_PROTOCOL.md):
`Rules`, `POLICIES`, `play_game`, `RULES_VERSION`. Bad input raises `ValueError` with a
message that names the offending game, field or policy.
"""
from __future__ import annotations

import ast
import collections.abc
import copy
import dataclasses
import importlib
import re
import types
import typing

from .search.ismcts import parse_ismcts
from .search.macro import MACRO_HOOKS, parse_macro
from .suggest import did_you_mean

#: registered names -> module; aliases are the published titles of the games.
KNOWN_GAMES = {
    "nightsim": "nightsim",
    "nightmarium": "nightsim",
    "dreamsim": "dreamsim",
    "midnighters": "dreamsim",
    "nerathsim": "nerathsim",
    "nerath": "nerathsim",
}
PROTOCOL = ("Rules", "POLICIES", "play_game", "RULES_VERSION")
#: a dotted module path (no file paths, no relative imports)
_MODULE_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def load_game(game) -> types.ModuleType:
    """Return the game module for a registered name or alias, a dotted module path, or a module.

    >>> load_game("nightmarium").__name__
    'nightsim'
    """
    if isinstance(game, types.ModuleType):
        return _checked(game, game.__name__)
    if not isinstance(game, str) or not game:
        raise ValueError(f"game must be a name or a module, got {game!r}")
    name = KNOWN_GAMES.get(game.lower(), game)
    if not _MODULE_PATH.fullmatch(name):
        raise ValueError(f"unknown game {game!r}; known games: {known_games_text()}")
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        missing = getattr(exc, "name", None) or ""
        if missing and name != missing and not name.startswith(missing + "."):
            raise  # the game exists but one of its own imports is broken: show it
        if game.lower() in KNOWN_GAMES:
            raise ValueError(f"game {game!r} is not installed (module {name!r} not found)") from None
        raise ValueError(f"unknown game {game!r}; known games: {known_games_text()}") from None
    return _checked(module, game)


def known_games_text() -> str:
    """'nightsim (nightmarium), dreamsim (midnighters), ...' for error messages."""
    parts = []
    for module in dict.fromkeys(KNOWN_GAMES.values()):
        aliases = [a for a, m in KNOWN_GAMES.items() if m == module and a != module]
        parts.append(f"{module} ({', '.join(aliases)})" if aliases else module)
    return ", ".join(parts) + ", or any importable module that follows docs/GAME_PROTOCOL.md"


def _checked(module: types.ModuleType, label: str) -> types.ModuleType:
    missing = [attr for attr in PROTOCOL if not hasattr(module, attr)]
    if missing:
        raise ValueError(
            f"game {label!r} is not available: module {module.__name__!r} lacks {', '.join(missing)} "
            "(see docs/GAME_PROTOCOL.md)"
        )
    return module


# --- rules ------------------------------------------------------------------------------

def make_rules(module, rules=None, **overrides):
    """`module.Rules` from None (the published game), a Rules instance or a dict of fields.

    `overrides` (field=value; values may be strings such as "3" or "true", converted to the
    field's type) are applied on top. Unknown fields and unconvertible values raise ValueError.
    """
    if rules is None:
        base = module.Rules()
    elif isinstance(rules, module.Rules):
        base = rules
    elif isinstance(rules, dict):
        base, overrides = module.Rules(), {**rules, **overrides}
    else:
        raise ValueError(f"rules must be None, a dict or a {module.__name__}.Rules, got {type(rules).__name__}")
    if not overrides:
        return base
    converted = {name: convert_field(base, name, value) for name, value in overrides.items()}
    return dataclasses.replace(base, **converted)


def rule_fields(rules) -> dict[str, dataclasses.Field]:
    """The dataclass fields of a Rules instance (or of any dataclass instance)."""
    return {f.name: f for f in dataclasses.fields(rules)}


def convert_field(obj, name: str, value):
    """`value` converted to the type of dataclass field `name` of `obj` (strings are parsed)."""
    fields = rule_fields(obj)
    if name not in fields:
        kind = type(obj).__name__
        raise ValueError(f"unknown {kind} field {name!r}{did_you_mean(name, fields)}; fields: {', '.join(fields)}")
    if not isinstance(value, str):
        return value
    hint = type_hints(type(obj)).get(name, type(getattr(obj, name)))
    return parse_value(hint, value, f"{type(obj).__name__}.{name}")


def parse_value(hint, text: str, label: str):
    """Parse command-line text as a value of type `hint` (bool, int, float, str, Optional, tuple...)."""
    options = typing.get_args(hint) if is_union(hint) else (hint,)
    if type(None) in options and text.strip().lower() in ("none", "null", ""):
        return None
    for option in (o for o in options if o is not type(None)):
        try:
            return _parse_one(option, text)
        except (ValueError, SyntaxError, TypeError):
            continue
    names = " or ".join("None" if o is type(None) else getattr(o, "__name__", str(o)) for o in options)
    raise ValueError(f"{label} expects {names}, got {text!r}")


def _parse_one(kind, text: str):
    text = text.strip()
    origin = typing.get_origin(kind) or kind
    if kind is typing.Any:
        return _literal_or_text(text)
    if origin is bool:
        lowered = text.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise ValueError(text)
    if origin in (int, float, str):
        return origin(text)
    if origin is typing.Literal:
        for choice in typing.get_args(kind):
            if str(choice) == text:
                return choice
        raise ValueError(text)
    value = ast.literal_eval(text)
    if isinstance(origin, type) and not isinstance(value, origin):
        value = origin(value)
    return value


def _literal_or_text(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def is_union(hint) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def type_hints(cls) -> dict:
    """typing.get_type_hints(cls), or {} when a forward reference does not resolve."""
    try:
        return typing.get_type_hints(cls)
    except Exception:  # unresolved forward references: fall back to the defaults' types
        return {}


# --- policies ---------------------------------------------------------------------------

def resolve_policies(module, policies, players: int) -> list:
    """One policy entry (a name from POLICIES or a policy object) per seat.

    `policies` may be None (every seat plays the game's DEFAULT_POLICY if it names one, else
    'random', else the first registered policy),
    a comma-separated string, a single name or object (fills every seat), or a list.
    A name `ismcts:N` or `ismcts:N:key=value:...` becomes an `analyses.search.ISMCTSPolicy`
    for this game (N iterations per decision; keys rollout, c, cutoff, seconds, bias, paired, z, topk, eps); in a game
    with macro decisions (Nerath) it and `macro:N[:key=value...]` become an
    `analyses.search.MacroSearchPolicy` (N rollouts per macro decision; keys base, rollout, cutoff,
    seconds, margin, z, skip, steps).
    """
    if policies is None:
        policies = getattr(module, "DEFAULT_POLICY", None) or (
            "random" if "random" in module.POLICIES else next(iter(module.POLICIES)))
    if isinstance(policies, str):
        policies = [p.strip() for p in policies.split(",")]
    elif callable(policies):
        policies = [policies]
    elif not isinstance(policies, collections.abc.Iterable) or isinstance(policies, (bytes, dict)):
        raise ValueError(f"policies must be a name, a comma-separated string, a policy object or a list of them, "
                         f"got {policies!r}")
    policies = [_search_policy(module, p) for p in policies]
    if not policies:
        raise ValueError("policies: give at least one policy")
    for entry in policies:
        check_policy(module, entry)
    if len(policies) == 1:
        return policies * players
    if len(policies) != players:
        raise ValueError(f"policies: {len(policies)} given for {players} players; give one, or one per seat")
    return policies


def _search_policy(module, entry):
    if not isinstance(entry, str) or entry in module.POLICIES:
        return entry
    if entry.strip().lower() == "ismcts":      # plain `ismcts`: the game's default search budget
        entry = "ismcts:default"
    head = entry.strip().lower().split(":")[0]
    if head == "macro" or (head == "ismcts" and has_macro_search(module)):
        return parse_macro(module, entry)      # Nerath: IS-MCTS over the heuristic's macro decisions
    if head == "ismcts":
        return parse_ismcts(module, entry)
    return entry


def has_macro_search(module) -> bool:
    """Whether the game offers macro decisions (Nerath), so that `ismcts:N` means the macro search."""
    return all(hasattr(module, h) for h in MACRO_HOOKS)


def check_policy(module, entry) -> None:
    """Raise ValueError unless `entry` is a registered policy name or a callable policy."""
    if isinstance(entry, str):
        if entry not in module.POLICIES:
            known = [*module.POLICIES, "ismcts"]
            raise ValueError(
                f"unknown policy {entry!r} for {module.__name__}{did_you_mean(entry, known)}; known: "
                f"{', '.join(module.POLICIES)}, and the search players ismcts:N, ismcts:default "
                "(`balancelab policies GAME`)"
            )
    elif not callable(entry):
        raise ValueError(f"policy {entry!r} is neither a registered name nor callable")


def policy_repr(module, entry) -> str:
    """The readable repr of a policy entry (the registered object's repr for a name)."""
    return repr(module.POLICIES[entry]) if isinstance(entry, str) else repr(entry)


def with_parameter(policy, path: str, value):
    """A copy of `policy` with parameter `path` (dotted for nested dataclasses) set to `value`.

    String values are converted to the current value's type, e.g.
    `with_parameter(GREEDY, "weights.pure", "5")`.
    """
    head, _, rest = path.partition(".")
    if not hasattr(policy, head):
        raise ValueError(f"policy {policy!r} has no parameter {head!r}")
    if rest:
        value = with_parameter(getattr(policy, head), rest, value)
    elif isinstance(value, str) and not isinstance(getattr(policy, head), str):
        current = getattr(policy, head)
        hint = type_hints(type(policy)).get(head, type(current))
        value = parse_value(hint, value, f"{type(policy).__name__}.{head}")
    if dataclasses.is_dataclass(policy):
        return dataclasses.replace(policy, **{head: value})
    changed = copy.copy(policy)
    setattr(changed, head, value)
    return changed
