"""'did you mean ...?' for a mistyped name (a rules field, a policy, a command), from difflib."""
from __future__ import annotations

import difflib


def did_you_mean(word: str, choices, n: int = 2) -> str:
    """' — did you mean 'hand_size'?' (with a leading separator), or '' when nothing is close."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=n, cutoff=0.6)
    if not close:
        return ""
    return " — did you mean " + " or ".join(repr(c) for c in close) + "?"
