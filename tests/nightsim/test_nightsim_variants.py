"""Design variants of Nightmarium (not in the published game): hand-built checks of the deal and
of the reduced first turns, in the Python engine and the batch kernel."""
import numpy as np
import pytest

import nightsim
from nightsim import Rules
from nightsim.kernel import bridge as kb
from nightsim.kernel import play_batch as kernel


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


def _first_round_actions(state, draw):
    """Actions each turn player has at the start of its turn, for the first five turns (every
    action a Draw, so a turn ends when its actions are spent)."""
    seen = []
    while len(seen) < 5:
        view = state()
        seen.append((view["turn_player"], view["actions_left"]))
        for _ in range(view["actions_left"]):
            draw()
    return seen


@pytest.mark.parametrize("fields, expected", [
    ({"first_turn_fewer_actions": 1}, [(0, 1), (1, 2), (2, 2), (3, 2), (0, 2)]),
    ({"reduced_first_turn_seats": 1}, [(0, 1), (1, 2), (2, 2), (3, 2), (0, 2)]),
    ({"reduced_first_turn_seats": 2}, [(0, 1), (1, 1), (2, 2), (3, 2), (0, 2)]),
    ({"reduced_first_turn_seats": 4}, [(0, 1), (1, 1), (2, 1), (3, 1), (0, 2)]),
    ({"reduced_first_turn_seats": 3, "first_turn_fewer_actions": 1, "actions_per_turn": 3},
     [(0, 1), (1, 2), (2, 2), (3, 3), (0, 3)]),
])
def test_the_reduced_first_turn_reaches_the_first_seats_in_engine_and_kernel(fields, expected):
    rules = Rules(**fields)
    s = nightsim.new_game(rules, 7)
    rng = np.random.default_rng(0)
    engine = _first_round_actions(lambda: {"turn_player": s.turn_player, "actions_left": s.actions_left},
                                  lambda: nightsim.apply_action(s, nightsim.Draw(), rng))
    assert engine == expected
    # the kernel: its own deal (new_game) and its own turn ends (kernel.core._end_turn)
    play = kernel._play()
    st, rs, acts, ties = play.new_buffers()
    tb = kernel.tables(rules)
    play.new_game(st, tb, rs, np.uint64(7))
    ks = kb.KernelState(st, tb, rs, acts, ties, rules.players)
    assert _first_round_actions(lambda: kb.view(ks), lambda: kb.apply(ks, nightsim.Draw())) \
        == expected
    assert kernel.refusal(rules, ["greedy"] * 4) is None                    # analyses plays it with the kernel


def test_the_reduced_first_turn_seats_are_checked():
    assert Rules().reduced_first_turn_seats == 0
    with pytest.raises(ValueError, match="reduced_first_turn_seats=5 is not allowed; allowed: 0..4"):
        Rules(reduced_first_turn_seats=5)
    with pytest.raises(ValueError, match="reduced_first_turn_seats=3 is not allowed; allowed: 0..2"):
        Rules(players=2, reduced_first_turn_seats=3)
    with pytest.raises(ValueError, match="leaves seat 0 no action on its first turn"):
        Rules(first_turn_fewer_actions=1, reduced_first_turn_seats=1)
    with pytest.raises(ValueError, match="leaves seat 0 no action on its first turn"):
        Rules(actions_per_turn=1, reduced_first_turn_seats=2)
