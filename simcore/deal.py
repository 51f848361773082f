"""The opening hands of a game's deal, read from the engine's own setup without playing the game.

A card game's engine logs a ``deal`` event with the hands (a logged field: a contract). `dealt_hands`
runs the game's `new_game(rules, chance, record=True)` on the chance stream `play_game` takes for that
seed (stream 0 of `stream.streams(seed, 1 + players)`) and reads that event, so the hands are exactly
the ones `play_game(rules, policies, seed)` deals, whatever the policies. Each game's ``opening``
module calls it with its own engine; this module imports no game.
"""
from __future__ import annotations

from .stream import streams


def dealt_hands(new_game, rules, seed) -> tuple[tuple[int, ...], ...]:
    """The card ids each seat holds before any turn: the hands of the ``deal`` event that
    `new_game(rules, chance, record=True)` logs (the engine may go on from its setup into the first turn).
    ValueError for a bad seed."""
    chance = streams(seed, 1 + rules.players)[0]
    log = new_game(rules, chance, record=True).log
    deal = next(e for e in log if e["event"] == "deal")
    return tuple(tuple(int(c) for c in hand) for hand in deal["hands"])
