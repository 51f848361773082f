"""What every engine's actions share: `kinds_apart` (NamedTuple actions of different kinds never compare
equal), `IllegalActionError` (each game exports it as its own ``IllegalActionError``) and `shown`, an
action as a refusal names it."""
from __future__ import annotations


class IllegalActionError(ValueError):
    """A policy (or caller) chose an action that is not legal in the current state."""


def shown(action) -> str:
    """repr(action), or its type and fields when a malformed action cannot show itself (an index out
    of range breaks a readable repr)."""
    try:
        return repr(action)
    except Exception:  # noqa: BLE001
        fields = tuple(action) if isinstance(action, tuple) else ()
        return f"{type(action).__name__}{fields!r} (malformed)"


def _eq(self, other):
    return type(self) is type(other) and tuple.__eq__(self, other)


def _ne(self, other):
    return not _eq(self, other)


def _hash(self):
    return hash((type(self).__name__, tuple.__hash__(self)))


def kinds_apart(types) -> None:
    """Make the NamedTuple action classes `types` equal only to actions of their own kind with the same
    fields (plain tuples would make ``Draw() == Pass()``), hashed by kind name and fields."""
    for cls in types:
        cls.__eq__, cls.__ne__, cls.__hash__ = _eq, _ne, _hash
