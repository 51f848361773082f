"""Battle size limits are checked before any work, and army text
with a fractional count names the count, not a unit.

"Before any work" is tested by making the expensive steps fail if they are reached at all
(no timed assertions): a battle refused by its size never builds casualty states or alias
tables, and a unit-cost table refuses a too-large budget before it solves any battle.
"""
import argparse
import json

import pytest

import nerathsim
from analyses import unit_cost
from balancelab import parser as cli_parser
from nerathsim.battle import exact as battle_exact
from nerathsim.battle import monte_carlo as battle_mc
from nerathsim.battle.exact import BattleTooLarge


def run(argv):
    parser = argparse.ArgumentParser(prog="balancelab")
    cli_parser.add_battle_units(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture
def no_work(monkeypatch):
    """Any casualty-state building, hit distribution, alias table or battle solve fails the test."""
    def reached(*args, **kwargs):
        raise AssertionError("size limit checked too late: the expensive work started")
    for module, name in ((battle_exact, "side_states"), (battle_exact, "hits_pmf"), (battle_mc, "compile_side"),
                         (battle_mc, "alias_tables"), (unit_cost, "battle")):
        monkeypatch.setattr(module, name, reached)


def test_exact_refuses_a_hundred_billion_footsoldiers_before_any_work(no_work):
    # an army beyond what any method could take is refused by its size alone
    with pytest.raises(ValueError, match=r"99,999,999,999 units is above the limit of 1,000,000 an army"):
        nerathsim.battle_odds({"footsoldier": 99_999_999_999}, {"footsoldier": 1})
    with pytest.raises(BattleTooLarge, match=r"at least 1000000 x 2 casualty states.*monte_carlo"):
        nerathsim.battle_odds({"footsoldier": 999_999}, {"footsoldier": 1})


def test_exact_refuses_one_side_beyond_its_state_limit_even_against_one_unit(no_work):
    with pytest.raises(BattleTooLarge, match="limit 1000 per side"):
        nerathsim.battle_odds({"footsoldier": 2999}, {"footsoldier": 1})


@pytest.mark.parametrize("army", [1000, 3000])
def test_exact_refuses_big_equal_armies_before_any_work(no_work, army):
    with pytest.raises(BattleTooLarge, match="too large for the exact solver"):
        nerathsim.battle_odds({"footsoldier": army}, {"footsoldier": army})


def test_the_exact_limit_is_the_documented_pair_count():
    # 76 v 76 footsoldiers: 77 x 77 = 5929 pairs fit; 77 v 77: 78 x 78 = 6084 do not
    state = nerathsim.start_battle({"footsoldier": 76}, {"footsoldier": 76})
    battle_exact.check_exact_size(state, nerathsim.BattleRules())
    with pytest.raises(BattleTooLarge, match="78 x 78"):
        battle_exact.check_exact_size(nerathsim.start_battle({"footsoldier": 77}, {"footsoldier": 77}),
                                      nerathsim.BattleRules())


def test_monte_carlo_refuses_more_than_its_unit_limit_before_any_work(no_work):
    with pytest.raises(ValueError, match="too large for Monte Carlo: the attacker has 3,000 units, limit 1,000"):
        nerathsim.battle_odds({"footsoldier": 3000}, {"footsoldier": 3000}, method="monte_carlo", n=10)


def test_cli_battle_too_large_for_exact_falls_back_to_monte_carlo_with_a_message(capsys):
    assert run(["battle", "200 footsoldier", "vs", "200 footsoldier", "--n", "2000"]) == 0
    captured = capsys.readouterr()
    assert "too large for the exact solver" in captured.err and "using Monte Carlo (2,000 battles)" in captured.err
    assert "Monte Carlo, 2,000 battles, seed 0" in captured.out


def test_cli_battle_with_method_exact_refuses_a_too_large_battle(capsys):
    assert run(["battle", "200 footsoldier", "vs", "200 footsoldier", "--method", "exact"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "too large for the exact solver" in err


def test_cli_battle_too_large_for_both_methods_is_refused_at_once(no_work, capsys):
    assert run(["battle", "999999 footsoldier", "vs", "1 footsoldier"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "exact solver" in err and "the attacker has 999,999 units, limit 1,000 per side" in err


def test_cli_duels_refuse_a_budget_too_large_before_solving_any_duel(no_work, capsys):
    assert run(["units", "--table", "duels", "--budgets", "6,100000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "duel at budget 100000" in err and "use smaller budgets" in err


def test_best_army_refuses_a_budget_with_too_many_armies_before_solving_any(no_work):
    assert unit_cost.count_armies(30, unit_cost._unit_names(None, nerathsim.BattleRules(), False, "attack"),
                                  nerathsim.BattleRules()) == 9301
    with pytest.raises(ValueError, match="9,301 armies to rank, limit 3,000"):
        unit_cost.best_army(30)
    with pytest.raises(ValueError, match="astronomically many"):
        unit_cost.best_army(10**12)


def test_count_armies_equals_the_listed_armies():
    rules = nerathsim.BattleRules()
    for role in ("attack", "defence"):
        names = unit_cost._unit_names(None, rules, False, role)
        for budget in (1, 5, 6, 12, 17):
            assert unit_cost.count_armies(budget, names, rules) == len(unit_cost.armies_for_budget(budget, names, rules))


def test_break_even_refuses_a_budget_too_large_before_solving_any_battle(no_work):
    with pytest.raises(ValueError, match="break-even at budget 100000"):
        unit_cost.break_even_prices(budget=100_000)


@pytest.mark.parametrize("text, count", [("2.5 footsoldier", "2.5"), (".5 footsoldier", ".5"),
                                         ("1e3 footsoldier", "1e3"), ("6 dragon, 2.0 footsoldier", "2.0")])
def test_a_fractional_count_is_named_as_the_problem_not_an_unknown_unit(text, count):
    with pytest.raises(ValueError, match="must be a whole number") as info:
        nerathsim.UnitTable.published().parse_army(text)
    assert f"got {count!r}" in str(info.value) and "unknown unit" not in str(info.value)


# --- item 8: maps no game can play are refused at load time ------------------------------------

def small_map() -> dict:
    return json.loads(nerathsim.maps.map_path("small").read_text("utf-8"))


def test_a_map_with_a_trillion_footsoldiers_is_refused():
    data = small_map()
    data["regions"][0]["units"] = {"footsoldier": 10**12}
    with pytest.raises(ValueError, match=r"region 'Kar'.*1,000,000,000,000 footsoldier is above the limit of 1,000"):
        nerathsim.maps.parse_map(data)


@pytest.mark.parametrize("where", ["realm", "region", "income"])
def test_a_map_with_a_quadrillion_gold_is_refused(where):
    data = small_map()
    if where == "realm":
        data["realms"]["karkoth"]["gold"] = 10**15
    elif where == "income":
        data["realms"]["karkoth"]["income"] = 10**15
    else:
        data["regions"][0]["gold"] = 10**15
    with pytest.raises(ValueError, match=r"1,000,000,000,000,000, above the limit of 1,000"):
        nerathsim.maps.parse_map(data)


def test_the_map_limits_are_inclusive():
    data = small_map()
    data["regions"][0]["units"] = {"footsoldier": nerathsim.maps.MAX_UNIT_COUNT}
    data["realms"]["karkoth"]["gold"] = nerathsim.maps.MAX_GOLD
    board = nerathsim.maps.parse_map(data)
    assert board.realm_gold[0] == 1000 and (0, "footsoldier", 1000) in board.units[0]
