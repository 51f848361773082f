"""The opening hands of a game: what each seat is dealt for (rules, seed), read from the engine's own
deal without playing the game (a pure read: no game record changes).

`opening_hands` builds the chance stream as `game.play_game` does for that seed, runs `engine.new_game`
(the engine's setup) with a log, and reads the hands of its ``deal`` event (a logged field: a contract);
tests/nightsim/test_nightsim_opening.py checks them against the ``deal`` event of recorded games, so a
change of the random streams that forgets this file fails there. Analyses use it to measure what a card in the starting hand does to the win rate
(`analyses.card_impact.opening_hand_impact`): the deal randomises who holds it.
"""
from __future__ import annotations

import numpy as np

from .cards import LEGIONS
from .engine import new_game
from .rules import Rules

#: whether results played by the game's batch kernel (``engine="kernel"``) were dealt these hands: the kernel
#: draws its own random stream (see kernel.py), so the same seed deals other cards there
KERNEL_SAME_DEAL = False
from .seeding import spawn_generators


def opening_hands(rules: Rules, seed) -> tuple[tuple[int, ...], ...]:
    """The card ids (indices into ``rules.table.cards``) each seat holds before the first turn of
    `play_game(rules, policies, seed)`, for any policies (a seat's policy never changes the deal)."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nightsim.Rules, got {type(rules).__name__}")
    if isinstance(seed, np.random.SeedSequence):
        # play_game spawns from the seed itself; a copy leaves the caller's SeedSequence unspawned
        copy = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size,
                                      n_children_spawned=seed.n_children_spawned)
        chance = np.random.default_rng(copy.spawn(1 + rules.players)[0])
    elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer or a numpy SeedSequence, got {seed!r}")
    else:
        chance = spawn_generators(int(seed), 1 + rules.players)[0]
    return _dealt(new_game(rules, chance, record=True).log)


def _dealt(log: list) -> tuple[tuple[int, ...], ...]:
    """The hands of the log's ``deal`` event (what the seats hold before any turn starts: the engine
    may go on from its setup into the first turn)."""
    deal = next(e for e in log if e["event"] == "deal")
    return tuple(tuple(int(c) for c in hand) for hand in deal["hands"])


def card_name(rules: Rules, card: int) -> str:
    """The printed card: number, legion, body parts and ability (``#12 Insektoids head|legs Herald``)."""
    return repr(rules.table.cards[card])


def card_family(rules: Rules, card: int) -> str:
    """The card's legion."""
    return LEGIONS[rules.table.cards[card].legion]
