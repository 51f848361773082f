"""`battle` and `units` subcommands (parser: balancelab/parser.py, code: balancelab/nerath.py) on a
parser built here."""
import argparse

import pytest

import nerathsim
from balancelab import nerath as cli_nerath
from balancelab import parser as cli_parser


def run(argv):
    parser = argparse.ArgumentParser(prog="balancelab")
    subparsers = parser.add_subparsers()
    cli_parser.add_battle_units(subparsers)
    args = parser.parse_args(argv)
    assert args.func is args.command
    return args.func(args)


def test_battle_prints_the_exact_odds(capsys):
    assert run(["battle", "6 footsoldier, 2 siege_engine", "vs", "8 footsoldier"]) == 0
    out = capsys.readouterr().out
    odds = nerathsim.battle_odds({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8})
    assert out.strip() == str(odds).strip()
    assert "exact" in out and f"{100 * odds.attacker_wins:.2f}%" in out


def test_battle_monte_carlo_sea_retreat_and_extras(capsys):
    assert run(["battle", "2 warship, 2 fighter", "vs", "1 warship, 1 storm_elemental", "--sea",
                "--method", "monte_carlo", "--n", "20_000", "--seed", "4", "--retreat", "units:1",
                "--survivors", "3", "--rounds"]) == 0
    out = capsys.readouterr().out
    assert "sea battle — Monte Carlo, 20,000 battles, seed 4" in out
    assert "Retreat: at 1 unit(s) or fewer" in out
    assert "3 most likely ends:" in out and "Rounds:" in out


def test_battle_accepts_unquoted_words_and_orders(capsys):
    assert run(["battle", "3", "footsoldier,", "1", "dragon", "vs", "4", "footsoldier",
                "--attacker-order", "dragon, damage:dragon"]) == 0
    out = capsys.readouterr().out
    expected = nerathsim.battle_odds({"footsoldier": 3, "dragon": 1}, {"footsoldier": 4},
                                     casualty_order={"attacker": ["dragon", "damage:dragon"]})
    assert f"{100 * expected.attacker_wins:.2f}%" in out
    assert cli_nerath.split_armies(["6 footsoldier vs 8 footsoldier"]) == ("6 footsoldier", "8 footsoldier")
    assert cli_nerath.split_armies(["6 footsoldier", "8 footsoldier"]) == ("6 footsoldier", "8 footsoldier")


@pytest.mark.parametrize("argv,message", [
    (["battle", "6 goblin", "vs", "8 footsoldier"], "unknown unit 'goblin'"),
    (["battle", "0 footsoldier", "vs", "8 footsoldier"], "count of 'footsoldier' must be a positive integer, got 0"),
    (["battle", "6 footsoldier", "vs", "1 warship"], "warship cannot fight in a land battle"),
    (["battle", "1 castle", "vs", "2 footsoldier"], "castle cannot attack"),
    (["battle", "6 footsoldier", "8 footsoldier", "2 dragon"], "ATTACKER vs DEFENDER"),
    (["battle", "1 footsoldier", "vs", "1 footsoldier", "--method", "guess"], "method must be one of"),
    (["battle", "1 footsoldier", "vs", "1 footsoldier", "--method", "mc", "--n", "lots"], "--n must be a whole number"),
    (["battle", "1 footsoldier", "vs", "1 footsoldier", "--retreat", "whenever"], "cannot read retreat rule"),
    (["units", "--table", "prices"], "--table must be all or one of"),
    (["units", "--table", "duels", "--budgets", "6,x"], "--budgets must be a whole number"),
    (["units", "--table", "best", "--top", "0"], "--top must be at least 1"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(capsys, argv, message):
    assert run(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"balancelab {argv[0]}: error: ") and message in lines[0]


def test_units_single_tables(capsys):
    assert run(["units", "--table", "efficiency"]) == 0
    out = capsys.readouterr().out
    assert "hits absorbed per gold" in out and "storm_elemental" in out
    assert run(["units", "--table", "duels", "--budgets", "6"]) == 0
    out = capsys.readouterr().out
    assert "Equal-gold duels, 6 gold" in out and "30 gold" not in out
    assert run(["units", "--table", "best", "--best-budgets", "4", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "Best 4-gold army on attack (against 4 footsoldier)" in out and "on defence" in out


@pytest.mark.slow
def test_units_prints_every_table(capsys):
    assert run(["units"]) == 0
    out = capsys.readouterr().out
    for title in ("Hits per round", "Equal-gold duels, 6 gold", "Equal-gold duels, 12 gold", "Equal-gold duels, 30 gold",
                  "Best 6-gold army on attack", "Best 12-gold army on defence", "Break-even price",
                  "Lanchester exponent"):
        assert title in out
