"""Win rates: outcomes (timeouts apart), by seat, by policy, by faction, policy x policy, ratings.

Rates are over *decided* games (someone won); timeouts and games without a winner are
counted in `outcomes`. A group of seats (one seat, every seat of a policy, every seat of a
faction) is scored per game: the games where the group sits (G), the games it won (W) and
its seats per game (m). Its per-seat win rate is W / (m G) and the Wilson interval of W / G,
divided by m, gives the interval, so several seats of one policy at one table are not
counted as independent trials. Expected per-seat rate: winners per decided game / players
(1/players when one seat wins). When a whole team can share a policy (W may exceed G) the
seats are counted as trials instead, an approximation.

Paired designs: the games of one deal (``seat_order="rotate"``, shared seed) are one cluster, and
every interval and test uses the deal as the unit (`clusters.rates`: cluster-robust variance,
Wilson at the effective n; plain Wilson and exact binomial when each game is its own deal).
Each table says which in its ``method`` column and gives ``deals`` and ``design_effect``;
``p_holm`` is the p-value after Holm's family-wise correction over the rows of one family (the
seats of a player count, the policies of a lineup, the factions or pairs of a player count).
Bradley–Terry standard errors are cluster-robust (sandwich over deals).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import frames
from .clusters import cluster_ids, holm, rates
from .games import load_game
from .stats import InfiniteRatingError, bradley_terry, connected
from .tables import Tables, front, stack


@dataclass(frozen=True)
class WinRates(Tables):
    outcomes: pd.DataFrame   # per player count: games, decided, timeouts and their rates
    by_seat: pd.DataFrame
    by_policy: pd.DataFrame  # per player count and lineup
    by_faction: pd.DataFrame
    matrix: pd.DataFrame     # policy's per-seat win rate in games where opponent also sits
    ratings: pd.DataFrame    # Bradley–Terry from 'winner beat each other seat' comparisons


def win_rates(df: pd.DataFrame, factions=None, confidence: float = 0.95) -> WinRates:
    """All win-rate tables of a results DataFrame.

    factions: seat -> faction name (dict or sequence); by default the game's FACTIONS, if
    the game named in df.attrs has one.
    """
    module_factions = _game_factions(df) if factions is None else factions
    parts = {name: [] for name in WinRates.__dataclass_fields__}
    for n_players, games in df.groupby(frames.players(df), sort=True):
        view = GameView(games, int(n_players))
        factions = module_factions if factions is not None else (
            _recorded_factions(games, int(n_players)) or _fitting(module_factions, int(n_players)))
        parts["outcomes"].append(outcomes(games, confidence).assign(players=view.n_players).pipe(front, ["players"]))
        parts["by_seat"].append(view.by_seat(confidence))
        parts["by_policy"].append(view.by_policy(confidence))
        parts["matrix"].append(view.matrix(confidence))
        parts["ratings"].append(view.ratings(confidence))
        if factions:
            parts["by_faction"].append(view.by_faction(factions, confidence))
    return WinRates(**{name: stack(tables) for name, tables in parts.items()})


def outcomes(df: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Decided games, timeouts and games without a winner, each with its rate and interval."""
    n = len(df)
    timed_out = df["timed_out"].astype(bool)
    per_game = {"decided": frames.decided(df).to_numpy(), "timeout": timed_out.to_numpy(),
                "no_winner": (df["winner"].isna() & ~timed_out).to_numpy()}
    table = rates(np.column_stack(list(per_game.values())).astype(float), np.ones((n, 1)), cluster_ids(df),
                  confidence=confidence).rename(columns={"wins": "count"})
    return table.assign(outcome=list(per_game)).pipe(front, ["outcome"])


class GameView:
    """The games of one player count as arrays: who won, and which policy sits where."""

    def __init__(self, df: pd.DataFrame, n_players: int):
        self.n_players = n_players
        keep = frames.decided(df).to_numpy()
        self.df = df[keep]
        self.won = frames.seat_wins(df)[keep][:, :n_players]
        self.clusters = cluster_ids(df)[keep]
        self.lineups = frames.lineup(self.df).astype(str).to_numpy()
        policies = self.df[[f"seat{s}_policy" for s in range(n_players)]].astype(str).to_numpy()
        self.policy_names = sorted(set(policies.ravel()))
        self.policies = policies
        winners = self.won.sum(axis=1)
        self.expected = float(winners.mean() / n_players) if len(winners) else 1 / n_players

    def by_seat(self, confidence: float) -> pd.DataFrame:
        seats = list(range(self.n_players))
        rows = [self._group(np.arange(self.n_players) == s) for s in seats]
        return self._table(rows, {"seat": seats}, confidence)

    def by_policy(self, confidence: float) -> pd.DataFrame:
        keys, rows = [], []
        for lineup in sorted(set(self.lineups)):
            at_table = self.lineups == lineup
            for policy in sorted(set(lineup.split("+"))):
                keys.append((lineup, policy))
                rows.append(self._group(self.policies == policy, at_table))
        return self._table(rows, {"lineup": [k[0] for k in keys], "policy": [k[1] for k in keys]}, confidence,
                           family="lineup")

    def by_faction(self, factions, confidence: float) -> pd.DataFrame:
        names = np.array([factions[s] for s in range(self.n_players)])
        labels = sorted(set(names))
        rows = [self._group(names == label) for label in labels]
        return self._table(rows, {"faction": labels}, confidence)

    def matrix(self, confidence: float) -> pd.DataFrame:
        pairs = [(a, b) for a in self.policy_names for b in self.policy_names if a != b]
        rows = [self._group(self.policies == a, (self.policies == b).any(axis=1)) for a, b in pairs]
        return self._table(rows, {"policy": [a for a, _ in pairs], "opponent": [b for _, b in pairs]}, confidence)

    def ratings(self, confidence: float) -> pd.DataFrame:
        """Bradley–Terry over 'the winning seat beat each other seat' comparisons of distinct policies."""
        beats = self.beats_matrix()
        if len(self.policy_names) < 2 or not connected(beats.to_numpy() + beats.to_numpy().T):
            return pd.DataFrame()  # some policies were never compared: no common scale
        try:
            table, pseudo = bradley_terry(beats, confidence=confidence, comparisons=self.comparisons()), 0.0
        except InfiniteRatingError:
            table, pseudo = bradley_terry(beats, pseudo_wins=0.5, confidence=confidence,
                                          comparisons=self.comparisons()), 0.5
        table = table.reset_index().rename(columns={"index": "policy"})
        return table.assign(players=self.n_players, pseudo_wins=pseudo).pipe(front, ["players", "policy"])

    def beats_matrix(self) -> pd.DataFrame:
        """beats.loc[a, b]: times a seat of policy a won a game in which a seat of policy b lost."""
        size = len(self.policy_names)
        winner, loser, _ = self.comparisons()
        counts = np.zeros((size, size), dtype=np.int64)
        np.add.at(counts, (winner, loser), 1)
        np.fill_diagonal(counts, 0)
        return pd.DataFrame(counts, index=self.policy_names, columns=self.policy_names)

    def comparisons(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(winner policy code, loser policy code, cluster) of every 'winning seat beat losing seat'
        pair of distinct policies."""
        codes = pd.Categorical(self.policies.ravel(), categories=self.policy_names).codes.reshape(self.policies.shape)
        parts = []
        for winner_seat in range(self.n_players):
            for loser_seat in range(self.n_players):
                pair = self.won[:, winner_seat] & ~self.won[:, loser_seat]
                w, l = codes[pair, winner_seat], codes[pair, loser_seat]
                distinct = w != l
                parts.append((w[distinct], l[distinct], self.clusters[pair][distinct]))
        if not parts:
            return (np.zeros(0, np.int64),) * 3
        return tuple(np.concatenate([p[i] for p in parts]).astype(np.int64) for i in range(3))

    def _group(self, member: np.ndarray, games: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, int]:
        """(trials per game, wins per game, m) for the seats marked in `member` (per seat, or
        games x seats), over `games`: a game where the group sits is one trial of m seats."""
        member = np.broadcast_to(member, self.won.shape)
        member = member if games is None else member & games[:, None]
        seats_per_game = member.sum(axis=1)
        wins_per_game = (self.won & member).sum(axis=1)
        present = seats_per_game > 0
        m = int(seats_per_game.max()) if present.any() else 1
        if present.any() and (seats_per_game[present].min() != m or wins_per_game.max() > 1):
            return seats_per_game, wins_per_game, 1  # seats as trials (approximate)
        return present.astype(np.int64), wins_per_game, m

    def _table(self, rows, keys: dict, confidence: float, family: str | None = None) -> pd.DataFrame:
        if not rows:
            return pd.DataFrame()
        trials = np.column_stack([r[0] for r in rows])
        wins = np.column_stack([r[1] for r in rows])
        seats = np.array([r[2] for r in rows], dtype=np.int64)
        table = rates(wins, trials, self.clusters, expected=np.minimum(seats * self.expected, 1.0),
                      confidence=confidence)
        for column in ("rate", "ci_low", "ci_high", "expected", "effect_pp"):
            table[column] = table[column] / seats
        table = table.rename(columns={"n": "games", "rate": "win_rate"}).assign(seats=seats, **keys)
        groups = table[family] if family else pd.Series(0, index=table.index)
        table["p_holm"] = np.nan
        for _, index in table.groupby(groups, sort=False).groups.items():
            table.loc[index, "p_holm"] = holm(table.loc[index, "p_value"].to_numpy())
        table = table.assign(players=self.n_players).pipe(front, ["players", *keys, "seats"])
        table.attrs["method"] = str(table["method"].iloc[0])
        return table


def _recorded_factions(games: pd.DataFrame, n_players: int):
    """seat -> faction from the games' seat{i}_faction columns (the most common value per seat)."""
    columns = [f"seat{i}_faction" for i in range(n_players)]
    if not all(c in games.columns for c in columns):
        return None
    return [str(games[c].mode(dropna=True).iloc[0]) if games[c].notna().any() else f"seat {i}"
            for i, c in enumerate(columns)]


def _fitting(factions, n_players: int):
    """The game's FACTIONS when they name every seat of this player count, else None."""
    return factions if factions is not None and len(factions) == n_players else None


def _game_factions(df: pd.DataFrame):
    try:
        return getattr(load_game(df.attrs["game"]), "FACTIONS", None)
    except (KeyError, ValueError, ImportError):
        return None
