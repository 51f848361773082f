"""toygame: a tiny dice race that follows docs/GAME_PROTOCOL.md, with exactly known odds.

Seats take turns in order. On its turn a player picks a die, ``"plain"`` or ``"lucky"``
(the lucky die takes a second decision, a face, which changes nothing), rolls it, and wins
on a success. The lucky die succeeds ``1 + edge`` times as often as the plain one. Later
seats get better dice so that, with every seat playing 'random' and ``bias=0``, each seat wins
a decided game with probability exactly 1/players; ``bias`` multiplies seat 0's odds by
``1 + bias``. After ``max_rounds`` rounds without a winner the game is a timeout. With
``teams=True`` seats s and s + players/2 win together. With ``seat_luck > 0`` the deal first
hands the game, with that chance, to one seat drawn uniformly (luck that belongs to the seat:
every rotation of a deal is won by the same seat), which keeps the seats fair. With
``die_luck > 0`` the deal, with that chance, decides the lucky die: in half of those deals it
always succeeds, in the other half never (luck that belongs to the policy that picks it, in
whatever seat: every rotation of a deal favours the same policy).

`paired_runs(...)` draws many runs of clustered games straight from an exact model (deals of
k rotations whose seat luck or policy luck repeats within the deal), with the true seat
rates, for the coverage tests of paired designs.

`win_probabilities(rules, policies)` gives the exact chance of each seat winning and of a
timeout, which is what the statistical tests of `analyses` compare against.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
import pandas as pd

import simcore.result
from simcore.policies import resolve_policies

RULES_VERSION = "toygame-1"
DICE = ("plain", "lucky")
FACES = ("high", "low")


@dataclass(frozen=True)
class Rules:
    players: int = 4          # 2..5
    base: float = 0.1         # a random player's chance per turn in seat 0 (fair compensation for the others)
    edge: float = 0.5         # the lucky die succeeds (1 + edge) times as often as the plain die
    bias: float = 0.0         # seat 0's chances are multiplied by (1 + bias)
    max_rounds: int = 100     # rounds before the game ends as a timeout
    teams: bool = False       # seats s and s + players/2 win together
    seat_luck: float = 0.0    # chance that the deal hands the game to a uniformly drawn seat before any roll
    die_luck: float = 0.0     # chance that the deal decides the lucky die (half: always succeeds, half: never)

    def __post_init__(self):
        for name in ("base", "edge", "bias"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ValueError(f"Rules.{name} must be a number, got {v!r}")
        if not isinstance(self.teams, bool):
            raise ValueError(f"Rules.teams must be True or False, got {self.teams!r}")
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not 2 <= self.players <= 5:
            raise ValueError(f"Rules.players={self.players!r} is not allowed; allowed: 2..5")
        if not isinstance(self.max_rounds, int) or self.max_rounds < 1:
            raise ValueError(f"Rules.max_rounds must be a positive integer, got {self.max_rounds!r}")
        if self.teams and self.players % 2:
            raise ValueError("Rules.teams needs an even number of players")
        if not 0 < self.base * self.players < 1:
            raise ValueError(f"Rules.base={self.base!r} is not allowed; need 0 < base * players < 1")
        if self.edge < 0:
            raise ValueError(f"Rules.edge={self.edge!r} is not allowed; need edge >= 0")
        if self.bias <= -1:
            raise ValueError(f"Rules.bias={self.bias!r} is not allowed; need bias > -1")
        if isinstance(self.seat_luck, bool) or not isinstance(self.seat_luck, (int, float)) \
                or not 0 <= self.seat_luck <= 1:
            raise ValueError(f"Rules.seat_luck must be in [0, 1], got {self.seat_luck!r}")
        if isinstance(self.die_luck, bool) or not isinstance(self.die_luck, (int, float)) \
                or not 0 <= self.die_luck <= 1:
            raise ValueError(f"Rules.die_luck must be in [0, 1], got {self.die_luck!r}")
        if self.chances().max() > 1:
            raise ValueError("Rules.base/edge/bias: a success chance exceeds 1")

    def to_dict(self) -> dict:
        """Every field as a plain value (run metadata); `die_luck` only when it is set, so a run
        without it keeps the metadata (and the run identity a resume checks) it had before the field."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if not self.die_luck:
            del fields["die_luck"]
        return fields

    @cached_property
    def chance_table(self) -> tuple:
        """`chances()` as nested tuples, computed once per Rules (fast to index in the game loop)."""
        return tuple(tuple(float(x) for x in row) for row in self.chances())

    def chances(self) -> np.ndarray:
        """(players x 2) success chance of the plain and lucky die for each seat."""
        seats = np.arange(self.players)
        plain = self.base / ((1 - seats * self.base) * (1 + self.edge / 2))
        plain[0] *= 1 + self.bias
        return np.column_stack([plain, plain * (1 + self.edge)])


class Observation(NamedTuple):
    seat: int
    round: int


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def __call__(self, obs, legal, rng):
        return legal[int(rng.random() * len(legal))]

    def __repr__(self):
        return "RandomPolicy()"

    def lucky_share(self) -> float:
        return 0.5


@dataclass(frozen=True)
class StrongPolicy:
    """Picks the lucky die with probability `lucky` (always, by default)."""

    lucky: float = 1.0
    name: str = "strong"

    def __call__(self, obs, legal, rng):
        if legal == DICE:
            return "lucky" if rng.random() < self.lucky else "plain"
        return legal[0]

    def lucky_share(self) -> float:
        return self.lucky


@dataclass(frozen=True)
class ExplodingPolicy:
    """Not registered: raises ValueError on its first decision (tests of error propagation)."""

    name: str = "exploding"

    def __call__(self, obs, legal, rng):
        raise ValueError(f"policy exploded at seat {obs.seat}")


POLICIES = {"random": RandomPolicy(), "strong": StrongPolicy()}


@dataclass(frozen=True)
class GameResult(simcore.result.GameResult):
    """One dice race: `scores` the dice rolled per seat; `stats` lucky (per seat) and rounds (per game)."""

    format_events = staticmethod(lambda log, rules, seats: "\n".join(
        f"round {rnd + 1}: seat {seat} ({seats[seat]}) rolls the {die} die" for rnd, seat, die in log))


def resolve(policies, players: int) -> list:
    return resolve_policies(policies, players, POLICIES)


def play_game(rules: Rules, policies, seed, record: bool = False) -> GameResult:
    """One game; a pure function of (rules, policies, seed)."""
    if not isinstance(rules, Rules):
        raise ValueError("rules must be a toygame.Rules")
    pols = resolve(policies, rules.players)
    if not isinstance(seed, np.random.SeedSequence) and (
            isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or a numpy SeedSequence, got {seed!r}")
    rng = np.random.default_rng(seed)
    chances = rules.chance_table
    n = rules.players
    rolls, lucky = [0] * n, [0] * n
    turns = decisions = 0
    log = [] if record else None
    if rules.seat_luck > 0:
        lucky_draw, lucky_seat = rng.random(), int(rng.integers(n))
        if lucky_draw < rules.seat_luck:
            return _result(rules, pols, lucky_seat, turns, decisions, rolls, lucky, 0, log)
    die = None            # the lucky die's chance in this deal: None = each seat's own, 1.0 or 0.0 when decided
    if rules.die_luck > 0:
        die_draw = rng.random()
        if die_draw < rules.die_luck:
            die = 1.0 if die_draw < rules.die_luck / 2 else 0.0
    for rnd in range(rules.max_rounds):
        for seat in range(n):
            turns += 1
            choice = pols[seat](Observation(seat, rnd), DICE, rng)
            decisions += 1
            if choice == "lucky":
                pols[seat](Observation(seat, rnd), FACES, rng)
                decisions += 1
                lucky[seat] += 1
            rolls[seat] += 1
            if log is not None:
                log.append((rnd, seat, choice))
            chance = chances[seat][choice == "lucky"] if die is None or choice != "lucky" else die
            if rng.random() < chance:
                return _result(rules, pols, seat, turns, decisions, rolls, lucky, rnd + 1, log)
    return _result(rules, pols, None, turns, decisions, rolls, lucky, rules.max_rounds, log)


def _result(rules, pols, seat, turns, decisions, rolls, lucky, rounds, log) -> GameResult:
    winner = seat
    if seat is not None and rules.teams:
        half = rules.players // 2
        winner = tuple(sorted((seat % half, seat % half + half)))
    return GameResult(winner=winner, seats=tuple(p.name for p in pols), turns=turns, decisions=decisions,
                      timed_out=seat is None, scores=tuple(rolls),
                      stats={"lucky": tuple(lucky), "rounds": rounds},
                      log=tuple(log) if log is not None else None)


def win_probabilities(rules: Rules, policies) -> tuple[np.ndarray, float]:
    """Exact P(seat s wins) for each seat (team members each count the team's win) and P(timeout)."""
    pols = resolve(policies, rules.players)
    share = np.array([p.lucky_share() for p in pols])
    plain = rules.chances()[:, 0]
    p, timeout = _race(plain * (1 + share * rules.edge), rules.max_rounds)
    if rules.die_luck > 0:          # the deal decides the lucky die: always (half) or never (half) a success
        always = _race(plain * (1 - share) + share, rules.max_rounds)
        never = _race(plain * (1 - share), rules.max_rounds)
        half = rules.die_luck / 2
        p = (1 - rules.die_luck) * p + half * always[0] + half * never[0]
        timeout = (1 - rules.die_luck) * timeout + half * always[1] + half * never[1]
    p, timeout = rules.seat_luck / rules.players + (1 - rules.seat_luck) * p, (1 - rules.seat_luck) * timeout
    if rules.teams:
        half = rules.players // 2
        team = p[:half] + p[half:]
        p = np.concatenate([team, team])
    return p, timeout


def _race(q: np.ndarray, max_rounds: int) -> tuple[np.ndarray, float]:
    """(P(seat s succeeds first), P(nobody succeeds in max_rounds rounds)) when seat s succeeds
    with chance q[s] on each of its turns."""
    first_success = q * np.concatenate([[1.0], np.cumprod(1 - q)[:-1]])
    none = float(np.prod(1 - q))
    timeout = none ** max_rounds
    if none >= 1:
        return np.zeros_like(q), 1.0
    return first_success * (1 - timeout) / (1 - none), timeout


# --- exact clustered model for the coverage tests of paired designs ---------------------------------

def rotation(lineup: tuple, r: int) -> tuple:
    """Rotation r of a lineup as analyses.plan does it: base seat s plays in seat (s + r) % players."""
    return tuple(lineup[-r:] + lineup[:-r]) if r else tuple(lineup)


def paired_runs(shares, n_runs: int, n_games: int, design: str, rng, seat_luck: float = 0.0,
                policy_luck: float = 0.0, rot=None):
    """Winners of `n_runs` runs of `n_games` games drawn from an exact clustered model.

    shares: (players x players) array, row r = P(seat s wins) in rotation r of the lineup
    (decided games). design: 'rotate' (deals of `players` games, rotation i % players),
    'random' (each game its own deal, a uniformly drawn rotation) or 'fixed' (rotation 0).
    Per deal, with chance `seat_luck` one uniformly drawn seat wins every game of the deal; else
    with chance `policy_luck` the seat holding the lineup's first policy (seat r in rotation r)
    wins every game; else each game is an independent draw from its rotation's shares.
    Returns (winners (runs x games), deal (games), rotation (runs x games), truth (players)) where
    truth is each seat's expected win rate under the design. Give `rot` (runs x games) to replay
    the seat orders of an earlier call (a second variant under common random numbers).
    """
    shares = np.asarray(shares, dtype=float)
    n = shares.shape[1]
    k = n if design == "rotate" else 1
    if n_games % k:
        raise ValueError("n_games must be whole deals")
    deals = n_games // k
    deal = np.repeat(np.arange(deals), k)
    if rot is not None:
        rot = np.asarray(rot)
    elif design == "rotate":
        rot = np.broadcast_to(np.arange(n_games) % n, (n_runs, n_games))
    elif design == "random":
        rot = rng.integers(n, size=(n_runs, n_games))
    else:
        rot = np.zeros((n_runs, n_games), dtype=np.int64)
    cdf = np.cumsum(shares, axis=1)
    draws = (rng.random((n_runs, n_games))[..., None] > cdf[rot]).sum(axis=-1).clip(max=n - 1)
    kind = rng.random((n_runs, deals))
    lucky_seat = rng.integers(n, size=(n_runs, deals))
    kind, lucky_seat = kind[:, deal], lucky_seat[:, deal]
    winners = np.where(kind < seat_luck, lucky_seat, np.where(kind < seat_luck + policy_luck, rot, draws))
    weights = np.full(n, 1 / n) if design != "fixed" else np.eye(n)[0]
    truth = seat_luck / n + policy_luck * weights + (1 - seat_luck - policy_luck) * weights @ shares
    return winners, deal, rot, truth


def results_frame(winners, deal, rot, lineup: tuple):
    """A results table (as analyses.simulate gives) for one run of `paired_runs`."""

    seats = np.array([rotation(tuple(lineup), r) for r in range(len(lineup))], dtype=object)[rot]
    columns = {"game": np.arange(len(winners)), "deal": deal, "game_seed": deal + 10_000,
               "winner": pd.array(winners, dtype="Int8"), "turns": np.ones(len(winners), np.int32),
               "decisions": np.ones(len(winners), np.int32), "timed_out": np.zeros(len(winners), bool)}
    columns.update({f"seat{s}_policy": pd.Categorical(seats[:, s]) for s in range(len(lineup))})
    return pd.DataFrame(columns)
