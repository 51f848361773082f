"""Team games (Conquest of Nerath's alliances): who wins, alliance against alliance.

In a team game several seats win together (the winner is ``"0+2"``), so "seat 0 against its
fair share" measures the *alliance* seat 0 belongs to, not the advantage of moving first. The
right questions are: does one alliance win more than its fair share (1 / number of teams), and,
where realms play apart, does one realm win more than another.

`teams(df)` finds the teams from the winners of decided games (seats that always win
together) and gives each team's win rate with its Wilson interval, n, the fair share, the
effect in points and the exact binomial p-value. Teams are labelled by their seats' factions
(``karkoth + iron_circle``) when the results record ``seat{i}_faction``. The deal is the unit:
with rotated seats (one deal, several games) the interval and test are cluster-robust over
deals (`analyses.clusters.rates`), with one game per deal Wilson and exact binomial.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from . import frames
from .clusters import cluster_ids, holm, rates


def is_team_game(df: pd.DataFrame) -> bool:
    """True when some decided game was won by more than one seat together."""
    if not len(df):
        return False
    won = frames.seat_wins(df)[frames.decided(df).to_numpy()]
    return bool(len(won)) and bool((won.sum(axis=1) > 1).any())


def teams(df: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """One row per team (per player count): team, seats, games, wins, win_rate, ci_low, ci_high,
    expected, effect_pp, p_value. Empty when no game was decided."""
    tables = []
    for n_players, games in df.groupby(frames.players(df), sort=True):
        keep = frames.decided(games).to_numpy()
        won = frames.seat_wins(games)[keep][:, :int(n_players)]
        if not len(won):
            continue
        groups = sorted({tuple(np.flatnonzero(row)) for row in won if row.any()})
        covered = {s for g in groups for s in g}
        groups += [(s,) for s in range(int(n_players)) if s not in covered]   # a seat that never won
        wins = np.column_stack([won[:, list(g)].all(axis=1) for g in groups])
        table = rates(wins, np.ones((len(won), 1)), cluster_ids(games)[keep], expected=1 / len(groups),
                      confidence=confidence)
        table["p_holm"] = holm(table["p_value"].to_numpy())
        labels = [_label(games, g) for g in groups]
        table = table.rename(columns={"n": "games", "rate": "win_rate"})
        table.insert(0, "seats", ["+".join(map(str, g)) for g in groups])
        table.insert(0, "team", labels)
        table.insert(0, "players", int(n_players))
        tables.append(table)
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()


def _label(games: pd.DataFrame, seats: tuple) -> str:
    names = []
    for s in seats:
        column = f"seat{s}_faction"
        if column in games and games[column].notna().any():
            names.append(str(games[column].mode().iloc[0]).replace("+", " + "))
        else:
            names.append(f"seat {s}")
    return " + ".join(names)
