"""The opening hands of a game: what each seat is dealt for (rules, seed), read from the engine's own
deal without playing the game (a pure read: no game record changes).

`opening_hands` reads the hands of the ``deal`` event that `engine.new_game` logs on the chance stream
`game.play_game` takes for that seed (`simcore.deal.dealt_hands`: a logged field, a contract);
tests/nightsim/test_nightsim_opening.py
checks them against the ``deal`` event of recorded games, so a change of the random streams that
forgets this file fails there. Analyses use it to measure what a card in the starting hand does to
the win rate (`analyses.card_impact.opening_hand_impact`): the deal randomises who holds it.
"""
from __future__ import annotations

from simcore.deal import dealt_hands

from .engine.cards import ABILITIES, LEGIONS
from .engine.engine import new_game
from .rules import Rules

#: whether results played by the game's batch kernel (``engine="kernel"``) were dealt these hands: the kernel
#: draws the same simcore streams as play_game, so the same seed deals the same cards
KERNEL_SAME_DEAL = True
#: the level the report states opening-hand Findings at: the legion and the ability (`card_families`; the 108
#: printed cards stay in their table: as tests of one family they would leave no power to find anything)
FINDING_KINDS = ("family",)


def opening_hands(rules: Rules, seed) -> tuple[tuple[int, ...], ...]:
    """The card ids (indices into ``rules.table.cards``) each seat holds before the first turn of
    `play_game(rules, policies, seed)`, for any policies (a seat's policy never changes the deal)."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nightsim.Rules, got {type(rules).__name__}")
    return dealt_hands(new_game, rules, seed)   # play_game's chance stream; ValueError for a bad seed


def card_name(rules: Rules, card: int) -> str:
    """The printed card: number, legion, body parts and ability (``card 12: Insektoids head|legs Herald``; the
    card's repr without its '#', which a report reader would take for a reference)."""
    return "card " + repr(rules.table.cards[card])[1:].replace(" ", ": ", 1)


def card_family(rules: Rules, card: int) -> str:
    """The card's legion."""
    return LEGIONS[rules.table.cards[card].legion]


def card_families(rules: Rules, card: int) -> tuple[str, ...]:
    """The groups a card counts in for opening-hand impact: its legion and, when it has one, its ability
    ("Scavenger ability"): a designer prices both."""
    c = rules.table.cards[card]
    return (LEGIONS[c.legion],) + ((f"{ABILITIES[c.ability]} ability",) if c.ability >= 0 else ())
