"""`dreamsim.opening`: the director cards each seat is dealt, read from the engine's own deal, are the
hands of the recorded game for that seed, whatever the policies, and reading them changes nothing."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from dreamsim import Rules, play_game
from dreamsim.engine.cards import COMPOSITION, KIND_NAMES
from dreamsim.opening import card_family, card_name, opening_hands


def _recorded_deal(rules, policies, seed):
    log = play_game(rules, policies, seed, record=True).log
    return tuple(tuple(h) for h in next(e for e in log if e["event"] == "deal")["hands"])


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 7), (4, 123), (6, 2**40 + 3)])
def test_the_opening_hands_are_the_dealt_hands_of_the_recorded_game(players, seed):
    rules = Rules(players=players)
    hands = opening_hands(rules, seed)
    assert hands == _recorded_deal(rules, ["random"] * players, seed)
    assert len(hands) == players and all(len(h) == rules.hand_size for h in hands)
    dealt = Counter(c for h in hands for c in h)
    assert all(dealt[k] <= COMPOSITION.get(k, 0) for k in dealt)   # no more copies than the deck holds


def test_the_deal_does_not_depend_on_the_policies():
    rules = Rules(players=3, hand_size=4)
    assert opening_hands(rules, 11) == _recorded_deal(rules, ["heuristic", "random", "heuristic"], 11)


def test_a_seed_sequence_gives_the_recorded_deal_and_is_not_spawned_from():
    rules = Rules(players=4)
    seed = np.random.SeedSequence(99)
    hands = opening_hands(rules, seed)
    assert seed.n_children_spawned == 0
    assert hands == _recorded_deal(rules, ["random"] * 4, np.random.SeedSequence(99))


def test_names_and_families_of_the_kinds():
    rules = Rules()
    assert [card_name(rules, k) for k in (0, 4, 5, 11)] == [KIND_NAMES[0], "Dreamcatcher", "Suspense (Forest)",
                                                          "Red Nightmare"]
    assert [card_family(rules, k) for k in (0, 4, 5, 10, 11, 16)] == ["Trap", "Trap", "Suspense", "Suspense",
                                                                      "Nightmare", "Nightmare"]


@pytest.mark.parametrize("rules,seed", [(Rules(), -1), (Rules(), 1.5), (Rules(), True), ("rules", 0)])
def test_bad_rules_or_seeds_are_refused(rules, seed):
    with pytest.raises(ValueError, match="rules must be|seed must be"):
        opening_hands(rules, seed)
