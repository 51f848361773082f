"""toygame: a tiny dice race that follows docs/GAME_PROTOCOL.md, with exactly known odds.

Seats take turns in order. On its turn a player picks a die, ``"plain"`` or ``"lucky"``
(the lucky die takes a second decision, a face, which changes nothing), rolls it, and wins
on a success. The lucky die succeeds ``1 + edge`` times as often as the plain one. Later
seats get better dice so that, with every seat playing 'random' and ``bias=0``, each seat wins
a decided game with probability exactly 1/players; ``bias`` multiplies seat 0's odds by
``1 + bias``. After ``max_rounds`` rounds without a winner the game is a timeout. With
``teams=True`` seats s and s + players/2 win together.

`win_probabilities(rules, policies)` gives the exact chance of each seat winning and of a
timeout, which is what the statistical tests of `analyses` compare against.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import numpy as np

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
        if self.chances().max() > 1:
            raise ValueError("Rules.base/edge/bias: a success chance exceeds 1")

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
class GameResult:
    winner: int | tuple | None
    seats: tuple
    turns: int
    decisions: int
    timed_out: bool
    scores: tuple                                 # dice rolled per seat
    stats: dict = field(default_factory=dict)     # lucky: per seat; rounds: per game
    log: tuple | None = None

    def to_record(self) -> dict:
        winner = "+".join(map(str, self.winner)) if isinstance(self.winner, tuple) else self.winner
        row = {"winner": winner, "turns": self.turns, "decisions": self.decisions, "timed_out": self.timed_out}
        for i, name in enumerate(self.seats):
            row[f"seat{i}_policy"] = name
            row[f"seat{i}_score"] = self.scores[i]
        for stat, value in self.stats.items():
            if isinstance(value, tuple):
                row.update({f"seat{i}_{stat}": v for i, v in enumerate(value)})
            else:
                row[stat] = value
        return row


def resolve(policies, players: int) -> list:
    if isinstance(policies, str) or not hasattr(policies, "__len__") or len(policies) != players:
        raise ValueError(f"policies: give one policy per seat ({players} players)")
    out = []
    for p in policies:
        if isinstance(p, str):
            if p not in POLICIES:
                raise ValueError(f"policies: unknown policy {p!r}; known: {', '.join(POLICIES)}")
            p = POLICIES[p]
        elif not callable(p):
            raise ValueError(f"policies: {p!r} is neither a policy name nor callable")
        out.append(p)
    return out


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
    for rnd in range(rules.max_rounds):
        for seat in range(n):
            turns += 1
            die = pols[seat](Observation(seat, rnd), DICE, rng)
            decisions += 1
            if die == "lucky":
                pols[seat](Observation(seat, rnd), FACES, rng)
                decisions += 1
                lucky[seat] += 1
            rolls[seat] += 1
            if log is not None:
                log.append((rnd, seat, die))
            if rng.random() < chances[seat][die == "lucky"]:
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
    q = rules.chances()[:, 0] * (1 + share * rules.edge)
    first_success = q * np.concatenate([[1.0], np.cumprod(1 - q)[:-1]])
    none = float(np.prod(1 - q))
    timeout = none ** rules.max_rounds
    p = first_success * (1 - timeout) / (1 - none)
    if rules.teams:
        half = rules.players // 2
        team = p[:half] + p[half:]
        p = np.concatenate([team, team])
    return p, timeout
