"""Design variants of Nightmarium (not in the published game): hand-built checks of the deal."""
import numpy as np
import pytest

import nightsim
from nightsim import Rules, kernel


@pytest.mark.parametrize("players, extra", [(2, 1), (4, 1), (5, 3)])
def test_the_last_seat_can_be_dealt_extra_cards_and_the_other_hands_stay_the_same(players, extra):
    published = nightsim.new_game(Rules(players=players), 7, record=True)
    varied = nightsim.new_game(Rules(players=players, last_seat_extra_cards=extra), 7, record=True)
    assert [len(h) for h in varied.hands] == [5] * (players - 1) + [5 + extra]
    assert varied.hands[:-1] == published.hands[:-1]                  # same deal for every other seat
    assert varied.hands[-1][:5] == published.hands[-1]
    assert varied.hands[-1][5:] == published.deck[::-1][:extra]        # the next cards off the deck
    assert len(varied.deck) == len(published.deck) - extra
    assert varied.log[0]["hands"] == varied.hands
    result = nightsim.play_game(Rules(players=players, last_seat_extra_cards=extra), ["greedy"] * players, seed=7)
    assert result.winner is not None or result.timed_out


def test_the_extra_cards_must_be_in_the_deck():
    with pytest.raises(ValueError, match="last_seat_extra_cards=-1 is not allowed; allowed: >= 0"):
        Rules(last_seat_extra_cards=-1)
    with pytest.raises(ValueError, match="too few to deal"):
        Rules(players=5, hand_size=21, last_seat_extra_cards=4)
    assert Rules().last_seat_extra_cards == 0


def test_a_reduced_first_turn_takes_actions_from_the_first_turn_only():
    published = nightsim.new_game(Rules(), 7)
    varied = nightsim.new_game(Rules(first_turn_fewer_actions=1), 7)
    assert (published.actions_left, varied.actions_left) == (2, 1)
    assert varied.hands == published.hands and varied.deck == published.deck      # same deal, same stream
    nightsim.apply_action(varied, nightsim.Draw(), np.random.default_rng(0))      # the one action of seat 0
    assert (varied.turn_player, varied.actions_left) == (1, 2)                    # seat 1 has a full turn
    while varied.turn_player != 0:                                               # ... and so has seat 0 later
        nightsim.apply_action(varied, nightsim.Draw(), np.random.default_rng(0))
    assert varied.actions_left == 2
    result = nightsim.play_game(Rules(first_turn_fewer_actions=1), ["greedy"] * 4, seed=7)
    assert result.winner is not None or result.timed_out


def test_the_first_turn_keeps_at_least_one_action():
    with pytest.raises(ValueError, match="first_turn_fewer_actions=2 is not allowed; allowed: 0..1"):
        Rules(first_turn_fewer_actions=2)
    assert Rules(actions_per_turn=3, first_turn_fewer_actions=2).actions_per_turn == 3
    assert Rules().first_turn_fewer_actions == 0


def test_the_batch_kernel_refuses_a_reduced_first_turn():
    assert kernel.refusal(Rules(), ["greedy"] * 4) is None
    assert "first_turn_fewer_actions" in kernel.refusal(Rules(first_turn_fewer_actions=1), ["greedy"] * 4)
