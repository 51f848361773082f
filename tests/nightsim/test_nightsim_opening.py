"""`nightsim.opening`: the hands each seat is dealt, read from the engine's own deal, are the hands of
the recorded game for that seed, whatever the policies, and reading them changes nothing."""
from __future__ import annotations

import numpy as np
import pytest

from nightsim import Rules, play_game
from nightsim.engine.cards import ABILITIES, LEGIONS
from nightsim.opening import card_families, card_family, card_name, opening_hands


def _recorded_deal(rules, policies, seed):
    log = play_game(rules, policies, seed, record=True).log
    return tuple(tuple(h) for h in next(e for e in log if e["event"] == "deal")["hands"])


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 7), (4, 123), (5, 2**40 + 3)])
def test_the_opening_hands_are_the_dealt_hands_of_the_recorded_game(players, seed):
    rules = Rules(players=players)
    hands = opening_hands(rules, seed)
    assert hands == _recorded_deal(rules, ["random"] * players, seed)
    assert len(hands) == players and all(len(h) == rules.hand_size for h in hands)
    assert len({c for h in hands for c in h}) == players * rules.hand_size   # every card is dealt once


def test_the_deal_does_not_depend_on_the_policies_and_a_variant_deal_is_read_as_dealt():
    rules = Rules(players=3, last_seat_extra_cards=1)
    hands = opening_hands(rules, 11)
    assert hands == _recorded_deal(rules, ["greedy", "random", "greedy"], 11)
    assert [len(h) for h in hands] == [5, 5, 6]


def test_a_seed_sequence_gives_the_recorded_deal_and_is_not_spawned_from():
    rules = Rules(players=4)
    seed = np.random.SeedSequence(99)
    hands = opening_hands(rules, seed)
    assert seed.n_children_spawned == 0
    assert hands == _recorded_deal(rules, ["random"] * 4, np.random.SeedSequence(99))
    assert hands == opening_hands(rules, seed)


def test_names_and_legions_come_from_the_rules_card_table():
    rules = Rules()
    card = rules.table.cards[0]
    assert card_name(rules, 0) == f"card {card.number}: " + repr(card).split(" ", 1)[1]
    assert card_family(rules, 0) == LEGIONS[card.legion]
    cards = rules.table.cards
    with_ability = next(i for i, c in enumerate(cards) if c.ability >= 0)
    without = next(i for i, c in enumerate(cards) if c.ability < 0)
    assert card_families(rules, with_ability) == (LEGIONS[cards[with_ability].legion],
                                                  f"{ABILITIES[cards[with_ability].ability]} ability")
    assert card_families(rules, without) == (LEGIONS[cards[without].legion],)


@pytest.mark.parametrize("rules,seed", [(Rules(), -1), (Rules(), 1.5), (Rules(), True), ("rules", 0)])
def test_bad_rules_or_seeds_are_refused(rules, seed):
    with pytest.raises(ValueError, match="rules must be|seed must be"):
        opening_hands(rules, seed)
