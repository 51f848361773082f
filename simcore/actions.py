"""What every engine says about an action it refuses: `IllegalActionError` (each game exports it as its
own ``IllegalActionError``) and `shown`, the action as an error message names it."""
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
