"""Tunable knobs of Midnighters for automatic re-balancing (`analyses.rebalance`), as plain data.

Each entry names a `Rules` field with its type and range (or its choices); the published value
is the `Rules` default. The nightmare effects are knobs through the action counts they set
(Multicoloured / Colourless); the composition of the deck (how many of each nightmare) is code
(`cards.COMPOSITION`), not a `Rules` field, so it is not a knob yet. Per-seat compensation: the
design variants `extra_first_turn_seats` and `reduced_first_turn_last_seats` (RULES.md, "Design
variants"), and, indirectly, who is the Stager and where each Midnighter starts.
"""
from __future__ import annotations

KNOBS = {
    # per-seat compensation: the first k seats each take one action more on their first turn
    "extra_first_turn_seats": {"type": "int", "low": 0, "high": 3, "step": 1},
    # per-seat compensation: the last k seats each take one action fewer on their first turn
    "reduced_first_turn_last_seats": {"type": "int", "low": 0, "high": 3, "step": 1},
    "hand_size": {"type": "int", "low": 3, "high": 8, "step": 1},
    "actions_per_turn": {"type": "int", "low": 1, "high": 4, "step": 1},
    "multicolour_actions": {"type": "int", "low": 2, "high": 5, "step": 1},   # the Multicoloured Nightmare
    "colourless_actions": {"type": "int", "low": 1, "high": 2, "step": 1},    # the Colourless Nightmare
    "trap_actions": {"type": "int", "low": 1, "high": 3, "step": 1},
    "stager": {"type": "categorical", "choices": ["last_seat", "first_seat", "chance"]},
    "start": {"type": "categorical", "choices": ["same_corridor", "own_corridor"]},
}
