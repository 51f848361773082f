"""`GameResult`, the plain-data record of one finished game that every game's `play_game` returns (each
game subclasses it as a frozen dataclass, with fields of its own and its log formatter `format_events`).
`log` and `rules` are left out of ``==`` and ``repr``: a game is equal whether or not it was recorded."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class GameResult:
    """One finished game. `winner`: the winning seat, a tuple of seats (a team: ``"0+2"`` in the
    record), or None on a timeout."""

    winner: int | tuple | None
    seats: tuple[str, ...]
    turns: int
    decisions: int
    timed_out: bool
    scores: tuple
    stats: dict = field(default_factory=dict)   # name -> tuple (one value per seat) or a per-game value
    seed: object = None
    log: tuple | None = field(default=None, repr=False, compare=False)
    rules: object = field(default=None, repr=False, compare=False)   # kept with the log only

    #: the game's `format_events(log, rules, seats) -> str` (a class attribute of each game's subclass)
    format_events = None

    def seat_columns(self, seat: int) -> dict:
        """Columns of seat `seat` a game adds between its policy and its score (``{"faction": ...}``
        becomes ``seat{i}_faction``); none here."""
        return {}

    def to_record(self) -> dict:
        """One flat row: winner, turns, decisions, timed_out, seat{i}_policy, seat{i}_<seat column>,
        seat{i}_score, seat{i}_<stat> for a per-seat statistic and <stat> for a per-game one."""
        w = "+".join(map(str, self.winner)) if isinstance(self.winner, tuple) else self.winner
        row = {"winner": w, "turns": self.turns, "decisions": self.decisions, "timed_out": self.timed_out}
        for i, name in enumerate(self.seats):
            row[f"seat{i}_policy"] = name
            for key, value in self.seat_columns(i).items():
                row[f"seat{i}_{key}"] = value
            row[f"seat{i}_score"] = self.scores[i]
        for stat, values in self.stats.items():
            if isinstance(values, tuple):
                for i, v in enumerate(values):
                    row[f"seat{i}_{stat}"] = v
            else:
                row[stat] = values
        return row

    def format_log(self, rules=None) -> str:
        """The event log as text a person can follow turn by turn (needs record=True)."""
        if self.log is None:
            raise ValueError(f"this {type(self).__name__} has no log; play it with record=True")
        if self.format_events is None:
            raise ValueError(f"{type(self).__name__} names no log formatter (format_events)")
        return type(self).format_events(self.log, rules or self.rules, self.seats)


def seed_repr(seed):
    """The seed as a result keeps it and a message names it (so a game can be played again): a
    SeedSequence as a readable string, an integer of any integer type as an int."""
    if isinstance(seed, np.random.SeedSequence):
        return f"SeedSequence(entropy={seed.entropy}, spawn_key={seed.spawn_key})"
    return int(seed) if isinstance(seed, np.integer) else seed
