"""Seat rotation recognises identical policies by their parameters, not names.

nightsim's `heuristic` is an alias of `greedy` (same weights). Before, `rotate` counted
`heuristic,greedy,greedy,greedy` as four distinct seatings and replayed each deal four
times unchanged, which showed up as a spurious first-player effect.
"""
import dataclasses

import pytest

import analyses
import dreamsim
import nightsim
from analyses.plan import policy_key, policy_objects
from analyses.runner import prepare_run
from nightsim.policies.heuristic import AGGRESSOR, GREEDY, PURIST, HeuristicPolicy


def rotations(game, policies, players=4):
    _, spec = prepare_run(game, {"players": players}, policies, 0, "rotate")
    return spec.rotations


def test_nightsim_heuristic_is_an_alias_of_greedy():
    assert nightsim.POLICIES["heuristic"] == nightsim.POLICIES["greedy"]
    assert nightsim.POLICIES["heuristic"].weights == GREEDY
    assert nightsim.POLICIES["purist"] != nightsim.POLICIES["greedy"]


def test_heuristic_and_greedy_play_every_game_alike():
    rules = nightsim.Rules(players=3)
    for seed in range(3):
        a = nightsim.play_game(rules, ["heuristic", "greedy", "random"], seed)
        b = nightsim.play_game(rules, ["greedy", "greedy", "random"], seed)
        assert (a.winner, a.turns, a.decisions, a.scores) == (b.winner, b.turns, b.decisions, b.scores)


def test_rotate_plays_a_lineup_of_one_policy_under_two_names_once_per_deal():
    assert rotations("nightsim", "heuristic,greedy,greedy,greedy") == 1
    df = analyses.simulate("nightsim", 8, policies="heuristic,greedy,greedy,greedy", seed=3, progress=False)
    assert df["deal"].tolist() == list(range(8))  # eight deals, none replayed
    assert df.attrs["rotations"] == 1


def test_rotate_compares_policy_objects_by_their_parameters_not_their_names():
    # same weights, another name: the same policy
    assert rotations("nightsim", [HeuristicPolicy(GREEDY, "mine"), "greedy", "greedy", "greedy"]) == 1
    # same name, other weights: a different policy
    assert rotations("nightsim", [HeuristicPolicy(PURIST, "greedy"), "greedy", "greedy", "greedy"]) == 4
    assert rotations("nightsim", ["heuristic", "random", "greedy", "random"]) == 2
    assert rotations("nightsim", ["greedy", nightsim.RandomPolicy(), "random", "random"]) == 4
    assert rotations("nightsim", ["aggressor", HeuristicPolicy(AGGRESSOR, "x"), "aggressor", "aggressor"]) == 1
    # any game with dataclass policies: the name field is a label
    renamed = dataclasses.replace(dreamsim.POLICIES["heuristic"], name="renamed")
    assert rotations("dreamsim", [renamed, "heuristic", "heuristic", "heuristic"]) == 1


@pytest.mark.parametrize("policies", ["greedy,random,random,random", "heuristic,purist,greedy,aggressor",
                                      "heuristic,greedy,purist,purist"])
def test_no_two_games_of_a_deal_seat_equal_policies_the_same_way(policies):
    module, spec = prepare_run("nightsim", None, policies, 0, "rotate")
    for deal in range(2):
        games = range(deal * spec.rotations, (deal + 1) * spec.rotations)
        seatings = [tuple(policy_key(p) for p in policy_objects(spec.game, spec.seats(i))) for i in games]
        assert len(set(seatings)) == len(seatings)
