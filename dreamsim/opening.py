"""The opening hands of a game: the director cards each seat is dealt for (rules, seed), read from
the engine's own deal without playing the game (a pure read: no game record changes).

`opening_hands` reads the hands of the ``deal`` event that `engine.new_game` logs on the chance stream
`game.play_game` takes for that seed (`simcore.deal.dealt_hands`: a logged field, a contract);
tests/dreamsim/test_dreamsim_opening.py checks them against the ``deal`` event of recorded games.
Analyses use it to measure what a card in the starting hand does to the win rate
(`analyses.card_impact.opening_hand_impact`): the deal randomises who holds it.
"""
from __future__ import annotations

from simcore.deal import dealt_hands

from .engine.cards import IS_NIGHTMARE, IS_SUSPENSE, KIND_NAMES
from .engine.engine import new_game
from .rules import Rules

#: whether results played by the game's batch kernel (``engine="kernel"``) were dealt these hands: the kernel
#: draws the same simcore streams as play_game, so the same seed deals the same cards
KERNEL_SAME_DEAL = True
#: the level the report states opening-hand Findings at: each card kind and each family
FINDING_KINDS = ("card", "family")


def opening_hands(rules: Rules, seed) -> tuple[tuple[int, ...], ...]:
    """The card kinds each seat holds before the first turn of `play_game(rules, policies, seed)`, for
    any policies (a seat's policy never changes the deal), in the order dealt."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a dreamsim.Rules, got {type(rules).__name__}")
    return dealt_hands(new_game, rules, seed)   # play_game's chance stream; ValueError for a bad seed


def card_name(rules: Rules, card: int) -> str:
    """The card kind's printed name (``Dreamcatcher``)."""
    return KIND_NAMES[card]


def card_family(rules: Rules, card: int) -> str:
    """The card's family: Suspense, Nightmare or Trap (the five trap-partner kinds and the rest)."""
    return "Suspense" if IS_SUSPENSE[card] else "Nightmare" if IS_NIGHTMARE[card] else "Trap"
