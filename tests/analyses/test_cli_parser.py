"""Every command's parser is built from argparse-level modules: `balancelab COMMAND --help` loads no
pandas, scipy, numba or matplotlib (the time is printed by benchmarks/speed/cli_help_time.py), each command
still runs its own function, and the facts the help quotes are those of the objects they describe."""
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from analyses import objectives, options, study
from balancelab import parser as cli_parser
from balancelab.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("pandas", "scipy", "numba", "matplotlib")

CHILD = """
import contextlib, io, sys
from balancelab.cli import COMMANDS, main
loaded = {}
for name, _ in COMMANDS:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = main([name, "--help"])
    assert code == 0 and "usage: balancelab " + name in out.getvalue(), (name, code)
    loaded[name] = sorted(m for m in %r if m in sys.modules)
print(loaded)
"""


def test_no_command_help_imports_a_heavy_package():
    """One fresh interpreter answers every `COMMAND --help` in turn; none of them (nor the parser they
    share) imports pandas, scipy, numba or matplotlib."""
    child = subprocess.run([sys.executable, "-c", CHILD % (HEAVY,)], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
    assert child.returncode == 0, child.stderr
    loaded = eval(child.stdout.strip().splitlines()[-1])    # a dict literal printed by CHILD
    assert set(loaded) == {name for name, _ in COMMANDS}
    assert loaded == {name: [] for name, _ in COMMANDS}


def test_the_check_would_see_a_heavy_import():
    """The child's check is not blind: importing a command's own module does load pandas."""
    code = ("import sys, balancelab.commands; "
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert child.returncode == 0, child.stderr
    assert "pandas" in child.stdout


def test_every_command_has_a_handler_that_is_its_function():
    parser = cli_parser.build_parser()
    commands = next(a for a in parser._actions if a.choices and "simulate" in a.choices).choices
    assert set(commands) == set(cli_parser.HANDLERS) == {name for name, _ in COMMANDS}
    for name, sub in commands.items():
        handler = sub.get_default("command")
        assert handler == cli_parser.handler(name)
        function = handler.resolve()
        assert inspect.isfunction(function) and function.__name__ == cli_parser.HANDLERS[name][1]
        assert list(inspect.signature(function).parameters) == ["args"]


def test_a_handler_imports_its_module_when_called(monkeypatch):
    calls = []
    monkeypatch.setattr("balancelab.info.run_games", lambda args: calls.append(args) or 7)
    handler = cli_parser.Handler("balancelab.info", "run_games")
    assert handler("the args") == 7 and calls == ["the args"]


def test_a_command_runs_through_its_handler(capsys):
    assert main(["rules", "nightsim"]) == 0
    assert "creatures_to_win" in capsys.readouterr().out


def test_the_quoted_plan_facts_are_the_plans():
    assert options.STUDY_PLANS == {name: (plan.title, plan.main, plan.weight) for name, plan in study.PLANS.items()}
    assert options.STUDY_GAMES == study.DEFAULT_GAMES


def test_the_quoted_objectives_are_the_objectives():
    assert options.OBJECTIVES == objectives.OBJECTIVES


@pytest.mark.parametrize("command, words", [
    ("report", "Nightmarium 1, Midnighters 0.5, D&D: Conquest of Nerath 0.1"),
    ("rebalance", "seat_balance, alliance_balance, faction_balance, game_length"),
    ("ladder", "nightsim 120, dreamsim 50, nerathsim 600"),
    ("simulate", "greedy for nightsim, heuristic for dreamsim, balanced for nerathsim"),
])
def test_the_help_shows_the_quoted_facts(capsys, command, words):
    assert main([command, "--help"]) == 0
    assert words in " ".join(capsys.readouterr().out.split())
