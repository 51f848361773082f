"""Nerath's turn order as a categorical re-balancing knob (`nerathsim.knobs`, `analyses.knobs`).

The knob's choices are the orders in which evil and good realms alternate; the published order is
the choice "published" (so it costs nothing and is the search's first candidate); a choice the
game refuses is a clear error before any game; a search plays its candidates under the order set.
"""
from __future__ import annotations

import pytest

import nerathsim
from analyses import knobs as K
from analyses.io import read_results
from analyses.objectives import change_cost
from analyses.rebalance_search import FRAMES_DIR, rebalance
from balancelab.cli import main
from nerathsim.knobs import ALTERNATING_ORDERS, KNOBS
from nerathsim.rules import PUBLISHED_TURN_ORDER, TEAMS, TURN_ORDERS


def test_turn_order_is_a_declared_knob_of_every_alternating_order():
    assert KNOBS["turn_order"]["type"] == "categorical"
    orders = list(ALTERNATING_ORDERS.values())
    assert len(orders) == len(set(orders)) == 8                      # 2 (who starts) x 2 x 2 permutations
    evil = set(TEAMS[0])
    for order in orders:
        assert sorted(order) == sorted(nerathsim.REALMS)
        sides = [realm in evil for realm in order]
        assert all(a != b for a, b in zip(sides, sides[1:]))          # evil and good alternate
    for name, order in TURN_ORDERS.items():                           # every named variant is alternating
        assert ALTERNATING_ORDERS[name] == order
    (knob,) = K.resolve_knobs(nerathsim, nerathsim.Rules(), "turn_order")
    assert knob.kind == "categorical" and knob.choices == tuple(ALTERNATING_ORDERS)
    assert knob.published == "published"                              # the tuple, named by its choice
    assert change_cost([knob], {"turn_order": "published"}) == 0.0
    assert change_cost([knob], {"turn_order": "karkoth-nerath-iron_circle-vailin"}) == 2.0
    rules = K.set_values(nerathsim, nerathsim.Rules(), {"turn_order": "karkoth-nerath-iron_circle-vailin"})
    assert rules.turn_order == ("karkoth", "nerath", "iron_circle", "vailin") and rules.order == (0, 3, 2, 1)


def test_a_spelled_out_turn_order_is_a_rules_value_and_a_bad_one_is_refused():
    assert nerathsim.Rules(turn_order="nerath-karkoth-vailin-iron_circle").turn_order == TURN_ORDERS["nerath_first"]
    assert nerathsim.Rules().turn_order == PUBLISHED_TURN_ORDER
    with pytest.raises(ValueError, match=r"Rules.turn_order must name each realm once .*got 'nerath-karkoth-vailin'"):
        nerathsim.Rules(turn_order="nerath-karkoth-vailin")


@pytest.mark.parametrize("spec, message", [
    ("turn_order=published|backwards", r"knob 'turn_order': choice 'backwards' is not a valid value of "
                                       r"nerathsim.Rules.turn_order \(Rules.turn_order must name each realm once"),
    ("turn_order=published|karkoth-karkoth-vailin-nerath", r"choice 'karkoth-karkoth-vailin-nerath' is not a valid"),
    ("turn_order=published", r"knob 'turn_order': expected lo:hi:step"),
])
def test_a_bad_turn_order_choice_is_refused_naming_the_knob_and_the_choice(spec, message):
    with pytest.raises(ValueError, match=message):
        K.resolve_knobs(nerathsim, nerathsim.Rules(), spec)


def test_the_command_line_refuses_a_bad_turn_order_before_any_game(capsys):
    assert main(["rebalance", "nerath", "--knobs", "turn_order=published|sideways", "--budget", "2"]) == 2
    assert "knob 'turn_order': choice 'sideways' is not a valid value" in capsys.readouterr().err


def test_a_search_plays_each_candidate_under_the_turn_order_it_sets(tmp_path):
    store = tmp_path / "study"
    result = rebalance(nerathsim, "alliance_balance", knobs="turn_order=published|nerath_first", policies="random",
                       budget=2, first_games=4, rungs=1, confirm_games=4, seed=3, store=store)
    proposal = result.proposal.set_index("knob")
    assert proposal.loc["turn_order", "published"] == "published"
    assert proposal.loc["turn_order", "proposed"] in ("published", "nerath_first")
    assert list(result.trials["turn_order"]) == ["published", "nerath_first"]   # the published game first
    played = sorted(tuple(read_results(p).attrs["rules"]["turn_order"]) for p in (store / FRAMES_DIR).glob("*.parquet"))
    assert played == sorted([PUBLISHED_TURN_ORDER, TURN_ORDERS["nerath_first"]])
