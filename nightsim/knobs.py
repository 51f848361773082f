"""Tunable knobs of Nightmarium for automatic re-balancing (`analyses.rebalance`), as plain data.

Each entry names a `Rules` field (a dotted path for nested data) with its type, range and step;
the published value is the `Rules` default. `analyses.knobs` reads this table; the simulator
never imports `analyses`.
"""
from __future__ import annotations

KNOBS = {
    # per-seat compensation: cards dealt to the last seat after the published deal
    "last_seat_extra_cards": {"type": "int", "low": 0, "high": 3, "step": 1},
    # per-seat compensation: the starting player's first turn has fewer actions
    "first_turn_fewer_actions": {"type": "int", "low": 0, "high": 1, "step": 1},
    # per-seat compensation: the first k seats each take one action fewer on their first turn
    "reduced_first_turn_seats": {"type": "int", "low": 0, "high": 4, "step": 1},
    "hand_size": {"type": "int", "low": 3, "high": 7, "step": 1},
    "creatures_to_win": {"type": "int", "low": 4, "high": 7, "step": 1},
    "actions_per_turn": {"type": "int", "low": 1, "high": 3, "step": 1},
}
