"""The checks a game's `Rules._validate` makes of its fields, each a one-line ValueError that names the
field, the value and what is allowed (a bad `Rules` is refused when it is built, before any game)."""
from __future__ import annotations


def int_field(rules, name: str, lo: int, hi: int | None = None, none_ok: bool = False) -> None:
    """`rules.<name>` is an integer (not a bool) in lo..hi (no upper bound for hi=None), or None when
    `none_ok`."""
    v = getattr(rules, name)
    if v is None and none_ok:
        return
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"Rules.{name} must be an integer{' or None' if none_ok else ''}, got {v!r}")
    if v < lo or (hi is not None and v > hi):
        allowed = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise ValueError(f"Rules.{name}={v} is not allowed; allowed: {allowed}")


def choice_fields(rules, choices: dict) -> None:
    """Every `rules.<name>` is one of `choices[name]` (in the order of `choices`)."""
    for name, allowed in choices.items():
        if getattr(rules, name) not in allowed:
            raise ValueError(f"Rules.{name}={getattr(rules, name)!r} is not allowed; allowed: {', '.join(allowed)}")


def bool_fields(rules, names) -> None:
    """Every `rules.<name>` is True or False (not merely truthy)."""
    for name in names:
        if not isinstance(getattr(rules, name), bool):
            raise ValueError(f"Rules.{name} must be True or False, got {getattr(rules, name)!r}")
