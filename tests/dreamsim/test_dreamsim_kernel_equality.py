"""The batch kernel plays the Python engine's games: for the same seed, `KERNEL.play_batch` gives
exactly the records `[play_game(rules, policies, seed).to_record() for seed in seeds]` gives, field for
field, for random, heuristic and mixed line-ups of 2-5 players and under every rule set the lab varies
that the kernel plays. The seeds here are few, to keep the suite quick (~20 s on a quiet machine):
`benchmarks/tools/dreamsim_kernel_equality.py` checks 5,000 seeds per case.

The first test to run compiles the kernel (or loads it from numba's cache)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import analyses
import dreamsim
from dreamsim.decisions import DECISIONS
from dreamsim.kernel.bridge import first_divergence
from dreamsim.kernel.play_batch import KERNEL, PARAMETERS
from dreamsim.knobs import KNOBS
from dreamsim.policies.policies import POLICIES
from dreamsim.rules import Rules
from simcore.equality import check_equal
from simcore.stream import streams

HINDER = dreamsim.HeuristicPolicy(dataclasses.replace(POLICIES["heuristic"].weights, hinder=7.5, need_walk=0.25,
                                                      avoid_horror=12.0, dig=2.0, block_walk=4.0), name="hinder")

#: (players, line-up, seeds): random, heuristic and mixed line-ups under the default rules
LINEUPS = [
    (2, ("random", "random"), 60),
    (3, ("heuristic", "heuristic", "heuristic"), 60),
    (4, ("heuristic", "random", "tuned", "random"), 40),
    (5, ("random", "trickster", "random", "horror", "runner"), 30),
]
MIXED = ("heuristic", "random", "tuned")
#: rule sets the lab varies (rebalance knobs, sensitivity decisions, parameters): a mixed 3-player line-up each
RULE_SETS = [
    {"discard_action": False, "hand_size": 6},
    {"hand_size": 3, "actions_per_turn": 3, "trap_actions": 1, "multicolour_actions": 5, "colourless_actions": 2},
    {"actions_per_turn": 1, "trap_actions": 3, "multicolour_actions": 2, "hand_size": 8},
    {"steal_actions": 0, "dutch_angle_actions": 1, "cancel_debt": 2, "debt_carries_over": False},
    {"layout": ("R B T F .", "C S M C .", "C C* C C ."), "multicolour_actions": 4},
    {"layout": ("R1 B2 T F3", "C S M1 C", "C C C* C2")},
    {"extra_first_turn_seats": 2, "reduced_first_turn_last_seats": 1, "start": "own_corridor", "stager": "first_seat"},
    {"stager": "chance", "black_ignores_town_hall": False, "horror_hand_limit": "black_free",
     "nightmares": "after_first_round"},
    {"paralysis": "immediate", "horror_hand_limit": "all_cards", "nightmares": "none", "extra_first_turn_seats": 3,
     "reduced_first_turn_last_seats": 3},
]


def assert_same_games(rules, lineup, seeds):
    """The kernel's records are play_game's, seed for seed (the first that differs is named, with
    what differs and the decision where the two part, from dreamsim.kernel.bridge)."""
    check_equal(dreamsim.play_game, batch, rules, lineup, seeds, divergence=first_divergence)


def batch(rules, lineup, seeds) -> list:
    return KERNEL.play_batch(rules, list(lineup), seeds)


@pytest.mark.parametrize("players, lineup, n", LINEUPS)
def test_the_kernel_plays_the_engines_games(players, lineup, n):
    assert_same_games(Rules(players=players), lineup, list(range(n)))


@pytest.mark.parametrize("change", RULE_SETS)
def test_the_kernel_plays_the_engines_games_under_the_rules_the_lab_varies(change):
    rules = dataclasses.replace(Rules(players=3), **change)
    assert KERNEL.supports(rules, MIXED), KERNEL.refusal(rules, MIXED)
    assert_same_games(rules, MIXED, list(range(15)))


def test_every_field_the_lab_varies_is_played_or_refused_by_name():
    """A rebalance knob or a sensitivity reading the kernel does not play is refused loudly (and
    analyses' engine="auto" then plays Python); every other value is played (above: the same games)."""
    values = [(d.field, alt) for d in DECISIONS for alt in d.alternatives]
    for field, knob in KNOBS.items():
        values += [(field, v) for v in knob.get("choices", (knob.get("low"), knob.get("high")))]
    played = set()
    for field, value in values:
        rules = dataclasses.replace(Rules(players=4), **{field: value})
        if field in PARAMETERS:
            assert KERNEL.supports(rules, ["random"] * 4), (field, value, KERNEL.refusal(rules, ["random"] * 4))
            played.add(field)
        else:
            with pytest.raises(ValueError, match=f"Rules.{field}="):
                KERNEL.play_batch(rules, ["random"] * 4, [0])
    assert played == {f for f, _ in values} - {"refill", "intercept_takes", "town_hall_discards"}


def test_swept_weights_and_large_and_sequence_seeds_play_the_engines_games():
    seeds = [2 ** 64 - 1, 2 ** 63 + 5, np.random.SeedSequence(9), 12345678901234567]
    assert_same_games(Rules(players=4), (HINDER, "random", "heuristic", HINDER), seeds)
    assert_same_games(Rules(players=4), (HINDER, "heuristic", HINDER, "runner"), list(range(15)))
    with pytest.raises(ValueError, match="seed must be an integer"):
        KERNEL.play_batch(Rules(players=2), ["random"] * 2, [2 ** 64])
    with pytest.raises(ValueError, match="seed must be an integer"):
        dreamsim.play_game(Rules(players=2), ["random"] * 2, 2 ** 64)


def test_hands_and_traps_stay_in_the_order_the_kernel_lists_them():
    """The kernel keeps counts; the engine keeps each hand in kind order and each seat's traps in
    (location, partner) order, so the legal lists and blind picks of both read cards alike."""
    rules = Rules(players=4)
    checked = 0
    for seed in range(6):
        chance, *seats = streams(seed, 5)
        s = dreamsim.new_game(rules, chance)
        while not s.is_terminal:
            assert all(h == sorted(h) for h in s.hands) and all(t == sorted(t) for t in s.traps)
            checked += 1
            a = POLICIES["random"](None, tuple(s.legal), seats[s.current_player])
            dreamsim.engine.engine.apply_legal(s, a, chance)
    assert checked > 1000


def test_analyses_auto_gives_the_python_engines_frame():
    for policies in ("random", "heuristic"):
        kw = dict(policies=policies, seed=5, progress=False)
        auto = analyses.simulate("dreamsim", 12, engine="auto", **kw)
        python = analyses.simulate("dreamsim", 12, engine="python", **kw)
        assert auto.attrs["engine"] == "kernel" and python.attrs["engine"] == "python"
        assert auto.reset_index(drop=True).equals(python.reset_index(drop=True))
