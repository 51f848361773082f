"""Design variants of Midnighters that are not in the published game: per-seat compensation
(`Rules.extra_first_turn_seats`, `Rules.reduced_first_turn_last_seats`; RULES.md, "Design
variants"). Hand-built games with the exact actions of every turn, the deal left as published,
the checks on the fields, and the batch kernel refusing the variants (engine="auto" falls back
to the Python engine)."""
import dataclasses

import pytest

import analyses
import dreamsim
from dreamsim.engine import cards as C
from dreamsim.engine.actions import DUTCH_REDUCE, PASS, WALK
from dreamsim.engine.scenario import build_state, step
from dreamsim.kernel.play_batch import KERNEL

QUIET = dreamsim.Rules(nightmares="none")   # no nightmare can change a turn's actions
UP = 0


def turn_actions(rules, seed=3, turns=8):
    """(seat, actions) of the first `turns` turns of a game where every seat passes at once."""
    s = dreamsim.new_game(rules, seed, record=True)
    while len([e for e in s.log if e["event"] == "turn"]) < turns:
        assert s.decision == "turn action", s.decision
        step(s, PASS)
    return [(e["seat"], e["actions"]) for e in s.log if e["event"] == "turn"][:turns]


def test_the_extra_first_turn_reaches_the_first_seats_on_their_first_turn_only():
    assert turn_actions(QUIET) == [(0, 2), (1, 2), (2, 2), (3, 2)] * 2          # the published game
    assert turn_actions(dataclasses.replace(QUIET, extra_first_turn_seats=1)) == \
        [(0, 3), (1, 2), (2, 2), (3, 2)] + [(0, 2), (1, 2), (2, 2), (3, 2)]
    assert turn_actions(dataclasses.replace(QUIET, extra_first_turn_seats=2)) == \
        [(0, 3), (1, 3), (2, 2), (3, 2)] + [(0, 2), (1, 2), (2, 2), (3, 2)]
    three = dataclasses.replace(QUIET, players=3, actions_per_turn=3, extra_first_turn_seats=3)
    assert turn_actions(three, turns=6) == [(0, 4), (1, 4), (2, 4), (0, 3), (1, 3), (2, 3)]


def test_the_reduced_first_turn_reaches_the_last_seats_on_their_first_turn_only():
    assert turn_actions(dataclasses.replace(QUIET, reduced_first_turn_last_seats=1)) == \
        [(0, 2), (1, 2), (2, 2), (3, 1)] + [(0, 2), (1, 2), (2, 2), (3, 2)]
    assert turn_actions(dataclasses.replace(QUIET, reduced_first_turn_last_seats=3)) == \
        [(0, 2), (1, 1), (2, 1), (3, 1)] + [(0, 2), (1, 2), (2, 2), (3, 2)]
    both = dataclasses.replace(QUIET, extra_first_turn_seats=1, reduced_first_turn_last_seats=1)
    assert turn_actions(both) == [(0, 3), (1, 2), (2, 2), (3, 1)] + [(0, 2), (1, 2), (2, 2), (3, 2)]
    # every seat both: one more and one fewer, the published turns
    evened = dataclasses.replace(QUIET, extra_first_turn_seats=4, reduced_first_turn_last_seats=4)
    assert turn_actions(evened) == [(0, 2), (1, 2), (2, 2), (3, 2)] * 2


def test_the_compensation_uses_the_extra_action_and_leaves_the_deal_as_published():
    published = dreamsim.new_game(dreamsim.Rules(), 11)
    for rules in (dreamsim.Rules(extra_first_turn_seats=2), dreamsim.Rules(reduced_first_turn_last_seats=2)):
        s = dreamsim.new_game(rules, 11)
        assert (s.hands, s.deck, s.where, s.grid, s.rot) == (published.hands, published.deck, published.where,
                                                                  published.grid, published.rot)
    # seat 0 walks three times on its first turn: Corridor 4 -> Square -> Motel -> Town Hall
    s = dreamsim.new_game(dataclasses.replace(QUIET, extra_first_turn_seats=1), 11)
    for hand in s.hands:                    # hands of Dreamwalks only (swapped with the deck's): no answers
        for i, c in enumerate(hand):
            if c != C.DREAMWALK:
                j = s.deck.index(C.DREAMWALK)
                hand[i], s.deck[j] = C.DREAMWALK, c
    s.legal = None
    assert s.actions_left == 3
    step(s, WALK[UP], WALK[1], WALK[UP])
    assert s.where[0] == C.TOWN_HALL and s.turn_player == 1 and s.actions_left == 2


def test_the_first_turn_bonus_and_malus_stack_with_speed_effects_and_debts():
    rules = dataclasses.replace(QUIET, extra_first_turn_seats=2, reduced_first_turn_last_seats=1)
    # turn 0 of a built position is seat 0's; seat 1's first turn: the Multicoloured Nightmare's 3,
    # one more for the first seats, one less for a Dutch Angle debt = 3
    s = build_state(rules, where=["Corridor 4"] * 4, hands=[["dutch"], [], [], []], multi=0b0010)
    step(s, DUTCH_REDUCE[1])
    assert s.debt[1] == 1
    step(s, PASS)
    assert (s.turn_player, s.actions_left) == (1, 3)
    # the last seat under the Colourless Nightmare keeps its one action
    s = build_state(rules, where=["Corridor 4"] * 4, hands=[[], [], [], []], turn_player=2, slow=0b1000)
    step(s, PASS)
    assert (s.turn_player, s.actions_left) == (3, 1)
    # and without it, one fewer than the two published
    s = build_state(rules, where=["Corridor 4"] * 4, hands=[[], [], [], []], turn_player=2)
    step(s, PASS)
    assert (s.turn_player, s.actions_left) == (3, 1)


def test_the_compensation_fields_are_checked():
    for bad in (dict(extra_first_turn_seats=-1), dict(extra_first_turn_seats=5), dict(reduced_first_turn_last_seats=5),
                dict(players=3, reduced_first_turn_last_seats=4), dict(extra_first_turn_seats=True),
                dict(reduced_first_turn_last_seats=1, actions_per_turn=1)):
        with pytest.raises(ValueError, match="Rules.(extra_first_turn_seats|reduced_first_turn_last_seats)"):
            dreamsim.Rules(**bad)
    assert dreamsim.Rules(extra_first_turn_seats=1, actions_per_turn=1).extra_first_turn_seats == 1


def test_the_kernel_plays_the_compensation_and_auto_gives_the_python_frame():
    for field in ("extra_first_turn_seats", "reduced_first_turn_last_seats"):
        rules = dreamsim.Rules(**{field: 1})
        assert KERNEL.unsupported(rules, ["random"] * 4) is None
        kw = dict(rules={field: 1, "max_turns": 40}, policies=["random"] * 4, seed=5, progress=False)
        auto = analyses.simulate(dreamsim, 4, engine="auto", **kw)
        python = analyses.simulate(dreamsim, 4, engine="python", **kw)
        assert auto.attrs["engine"] == "kernel" and len(auto) == 4
        assert auto.reset_index(drop=True).equals(python.reset_index(drop=True))
