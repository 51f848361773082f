"""Behaviours that planted bugs (mutants, see benchmarks/tools/mutation.py) slipped past: one exact
check each. Positions are hand-built with nightsim.engine.scenario.build_state."""
from __future__ import annotations

import nightsim
from nightsim import (
    Decline,
    Devour,
    DiscardCard,
    Draw,
    PenaltyDiscard,
    Play,
    PlaySeal,
    Reactivate,
    Rules,
    Scavenge,
    StartDiscard,
    StopDiscard,
    Take,
)
from nightsim.engine.engine import describe_action
from nightsim.engine.scenario import build_state, card_id, find_cards

RS = Rules(players=2, seals=True)
SEAL_N = find_cards(RS, legion=0, seal=True)[0]
K1 = [card_id(RS, n) for n in (18, 20, 19)]   # Necronauts legs/torso/head, Scavengers


def _position():
    return build_state(RS, hands=[[SEAL_N], []], creatures=[[], [K1]], deck=[], discard=[], unused="remove")


def test_a_card_id_names_its_printed_card():
    s = _position()
    assert s.card(K1[0]) is RS.table.cards[K1[0]]
    assert repr(s.card(K1[0])) == "#18 Necronauts legs Scavenger"
    assert repr(s.card(SEAL_N)) == "#109 Necronauts seal"


def test_every_action_is_described_as_a_rulebook_sentence():
    s = _position()
    card = "#18 Necronauts legs Scavenger"
    assert describe_action(s, Play(K1[0], None, 0)) == f"play {card} as legs on a new creature"
    assert describe_action(s, Play(K1[0], 2, 0)) == f"play {card} as legs on creature 2"
    assert describe_action(s, PlaySeal(SEAL_N, 1, 0)) == "seal creature 0 of player 1 with #109 Necronauts seal"
    assert describe_action(s, DiscardCard(K1[0])) == f"discard {card}"
    assert describe_action(s, PenaltyDiscard(K1[0])) == f"give up {card}"
    assert describe_action(s, Take(1, 0)) == "take the top card of creature 0 of player 1"
    assert describe_action(s, Scavenge(1, 0)) == "discard the uncompleted creature 0 of player 1"
    assert describe_action(s, Devour(0)) == "discard the top card of own creature 0"
    assert describe_action(s, Reactivate()) == "activate the sealed creature's parts of the seal's legion again"
    assert describe_action(s, Decline()) == "decline the Scavenger"  # no seal re-activation pending
    assert describe_action(s, Draw()) == "draw a card"
    assert describe_action(s, StartDiscard()) == "start discarding cards"
    assert describe_action(s, StopDiscard()) == "stop choosing: discard them and draw half"
    assert nightsim.engine.engine.describe_action is describe_action
