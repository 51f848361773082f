"""The balancelab command end to end, through balancelab.cli.main and one `python -m balancelab`."""
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from balancelab.cli import main

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SMALL = ["--games", "60", "--players", "3", "--policies", "strong,random,random", "--seed", "2", "--no-progress"]


@pytest.fixture(scope="module")
def results_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "runs" / "x.parquet"
    assert main(["simulate", "toygame", *SMALL, "--out", str(out)]) == 0
    return out


def test_simulate_writes_the_file_and_says_so(capsys, tmp_path, run):
    code, out, _ = run(capsys, "simulate", "toygame", *SMALL, "--out", str(tmp_path / "y.parquet"), "--csv",
                       "--rule", "max_rounds=5", "--seat-order", "fixed")
    assert code == 0 and (tmp_path / "y.csv").exists() and (tmp_path / "y.meta.json").exists()
    assert "wrote 60 games to" in out and "rules: players=3 max_rounds=5 (others as published)" in out


@pytest.mark.parametrize("command, expected", [
    ("fpa", ["Summary", "Win rate by seat (seat 1 plays first)", "win rate [95% CI]", "p (Holm)", "seats equal? p",
             "seat 1 rate"]),
    ("winrates", ["Win rate by policy", "Two-player duels", "Policy ratings", "timeout"]),
    ("length", ["Summary", "Game length by winning seat", "decisions", "median"]),
])
def test_questions_from_a_results_file(capsys, results_file, command, expected, run):
    code, out, _ = run(capsys, command, "--in", str(results_file))
    assert code == 0
    assert out.startswith("toygame (toygame-1): 60 games, 3 players, seats rotated over each deal, seed 2\n"
                          "line-up: seats 1 strong, 2 random, 3 random\n")
    for text in expected:
        assert text in out


def test_questions_simulated_on_the_spot_match_the_file(capsys, results_file, run):
    _, from_file, _ = run(capsys, "fpa", "--in", str(results_file))
    _, on_the_spot, _ = run(capsys, "fpa", "toygame", *SMALL, "--jobs", "2")
    assert on_the_spot == from_file


def test_sweep_command(capsys, run):
    code, out, _ = run(capsys, "sweep", "toygame", "--field", "bias", "--values", "0,0.5", *SMALL)
    assert code == 0 and "rules: bias swept over 0.0, 0.5 (the same deals for every value)" in out
    assert "seat 1 win rate" in out and "change [95% CI]" in out
    code, out, _ = run(capsys, "sweep", "toygame", "--policy-param", "strong", "--field", "lucky",
                       "--values", "0,1", *SMALL)
    assert code == 0 and "strong win rate" in out and "strong.lucky swept over" in out


def test_help_shows_examples(capsys, run):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "examples:" in out and "balancelab fpa nightsim --games 20000 --jobs 2" in out
    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0 and "--resume" in out and "examples:" in out


@pytest.mark.parametrize("argv, message", [
    (["fpa", "chess"], "unknown game 'chess'; known games: nightsim"),
    (["fpa", "toygame", "--policies", "random,bogus,random", "--players", "3"], "unknown policy 'bogus'"),
    (["fpa", "toygame", "--rule", "colour=red"], "unknown Rules field 'colour'"),
    (["fpa", "toygame", "--rule", "players=abc"], "Rules.players expects int, got 'abc'"),
    (["fpa", "toygame", "--players", "9"], "Rules.players=9 is not allowed"),
    (["fpa", "toygame", "--games", "0"], "argument --games: must be a positive integer, got '0'"),
    (["fpa", "toygame", "--games", "many"], "argument --games: expected an integer, got 'many'"),
    (["fpa", "toygame", "--rule", "players"], "expected FIELD=VALUE"),
    (["fpa"], "give either a GAME to simulate or --in RESULTS to read"),
    (["fpa", "--in", "no/such/file.parquet"], "no such file"),
    (["winrates", "--in", __file__], "not a Parquet file"),
    (["simulate", "toygame", "--out", "x.parquet", "--seat-order", "upside"], "invalid choice: 'upside'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_bad_input_is_one_line_and_exit_code_2(capsys, argv, message, run):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("balancelab")


def test_foreign_results_file(capsys, tmp_path, run):
    path = tmp_path / "foreign.parquet"
    pd.DataFrame({"x": [1]}).to_parquet(path)
    code, _, err = run(capsys, "length", "--in", str(path))
    assert code == 2 and "is not a balancelab results file" in err


def test_python_dash_m_analyses(results_file):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "balancelab", "winrates", "--in", str(results_file)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Win rate by seat" in done.stdout and "60 games" in done.stdout
