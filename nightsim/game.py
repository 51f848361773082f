"""`play_game`, the only game loop, and `GameResult`, its plain-data record."""
from __future__ import annotations

from dataclasses import dataclass

import simcore.policies
import simcore.result
from simcore.policies import policy_name
from simcore.result import seed_repr
from simcore.stream import streams

from .engine.cards import ABILITIES, LEGIONS
from .engine.engine import IllegalActionError, apply_legal, legal_actions, new_game
from .engine.log import format_events
from .engine.observation import observe
from .policies.heuristic import POLICIES
from .rules import Rules

RULES_VERSION = "nightsim-1.5"  # 1.5: the random streams of simcore.stream, shared with the kernel (the same
#                                games for the same seed in both; other games than 1.4's for a seed);
#                                1.4: variant reduced_first_turn_seats (kernel plays the reduced first turns);
#                                1.3: variant first_turn_fewer_actions; 1.2: variant last_seat_extra_cards,
#                                hand_size >= 1 (published game unchanged by both)


@dataclass(frozen=True)
class GameResult(simcore.result.GameResult):
    """One finished game (`simcore.result.GameResult`). `winner` is the winning seat, or None on a
    timeout; `turns` the turns played, the winning turn included (= the log's last "turn N");
    `scores` the complete creatures per seat at the end; `stats` name -> tuple per seat."""

    format_events = staticmethod(format_events)


def resolve_policies(policies, players: int) -> list:
    """Names from POLICIES or policy objects, one per seat (`simcore.policies.resolve_policies`)."""
    return simcore.policies.resolve_policies(policies, players, POLICIES)


_ABILITY_STATS = tuple(f"ability_{ab.lower()}" for ab in ABILITIES)
_LEGION_STATS = tuple(f"played_{lg.lower()}" for lg in LEGIONS)


def play_game(rules: Rules, policies, seed, record: bool = False) -> GameResult:
    """Play one game. A pure function of (rules, policies, seed).

    The seed (an int in 0..2**64-1, or a SeedSequence) gives `1 + players` random streams
    (`simcore.stream.streams`): stream 0 for chance (the deal, every reshuffle) and stream 1 + i for
    seat i's policy, so changing one seat's policy never changes the cards the others are dealt. The
    batch kernel (`nightsim.kernel.play_batch`) draws the same numbers in the same order: the same records, seed
    for seed.

    At each decision the deciding seat's policy gets its observation, the legal actions (a tuple of its
    own: nothing it does to them reaches the check) and its stream; its choice is checked against the
    legal actions, then applied.
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nightsim.Rules, got {type(rules).__name__}")
    pols = resolve_policies(policies, rules.players)
    chance, *rngs = streams(seed, 1 + rules.players)   # ValueError for a seed that is neither
    s = new_game(rules, chance, record=record)
    while not s.is_terminal:
        p = s.current_player
        legal = legal_actions(s)
        a = pols[p](observe(s, p), tuple(legal), rngs[p])
        if a not in legal:
            raise IllegalActionError(
                f"policy {policy_name(pols[p])!r} (seat {p}) chose {a!r} at decision {s.decision!r} "
                f"(turn {s.turns}, decision #{s.decisions}); legal: {legal!r}. "
                f"Reproduce with play_game(rules, policies, seed={seed_repr(seed)})"
            )
        apply_legal(s, a, chance)
    return _result(s, rules, pols, seed, record)


def _result(s, rules: Rules, pols, seed, record: bool) -> GameResult:
    """The GameResult of the finished game in state `s`."""
    stats = {k: tuple(v) for k, v in s.stats.items()}
    stats.update(zip(_ABILITY_STATS, zip(*s.abilities)))       # ability_<name>: per seat
    stats.update(zip(_LEGION_STATS, zip(*s.legion_played)))    # played_<legion>: per seat
    return GameResult(
        winner=s.winner,
        seats=tuple(policy_name(p) for p in pols),
        turns=turns_played(s),
        decisions=s.decisions,
        timed_out=s.timed_out,
        scores=tuple(s.complete_count(p) for p in range(s.n)),
        stats=stats,
        seed=seed_repr(seed),
        log=tuple(s.log) if record else None,
        rules=rules if record else None,
    )


def turns_played(s) -> int:
    """Turns played: the completed turns, plus the turn in which the game was won."""
    return s.turns + (1 if s.winner is not None else 0)
