"""A run says when it cannot end well: `ci_width` without a game budget is refused before any game
(a game that never decides would play forever), and a rotated run that ends inside a deal warns
in its attrs and on stderr (a run with `until` plays whole deals, so it never does)."""
from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import analyses
from analyses.runner import PartialDealWarning, StopWhen, headline_width

HERE = Path(__file__).parent
TOY = dict(rules={"players": 3}, policies="strong,random,random", seed=4, progress=False)


@pytest.mark.parametrize("until", [{"ci_width": 0.1}, StopWhen, {"ci_width": 0.1, "confidence": 0.9}])
def test_a_ci_width_without_a_game_budget_is_refused_in_one_line_before_any_game(until, played):
    with pytest.raises(ValueError, match=r"^until: ci_width=0\.1 needs max_games \(a game budget\)") as info:
        if until is StopWhen:
            StopWhen(ci_width=0.1)
        else:
            analyses.simulate("toygame", 30, until=until, **TOY)
    assert "\n" not in str(info.value) and played == []


def test_with_a_budget_a_game_that_never_decides_stops_at_the_budget():
    # a 1-round toy whose seats almost never roll a success: nearly every game is a timeout, so the
    # seats' intervals stay wide; the budget (rounded up to whole deals of 3) ends the run
    never = {"players": 3, "base": 1e-6, "max_rounds": 1}
    df = analyses.simulate("toygame", 30, rules=never, policies="strong,random,random", seed=1, progress=False,
                           until={"ci_width": 0.05, "max_games": 100})
    assert len(df) == 102 and df["timed_out"].all() and headline_width(df) == 1.0
    assert "warnings" not in df.attrs


def test_a_rotated_run_that_ends_inside_a_deal_warns_in_attrs():
    with pytest.warns(PartialDealWarning, match=r"10 games end inside deal 3 \(1 of its 3 rotations played\)"):
        df = analyses.simulate("toygame", 10, **TOY)
    assert len(df) == 10 and df.attrs["rotations"] == 3                  # played as asked
    assert df.attrs["warnings"] == [
        "seat_order='rotate': 10 games end inside deal 3 (1 of its 3 rotations played), so the policies did not "
        "sit equally often in every seat; play a multiple of 3 games (12) for whole deals"]


def test_the_warning_reaches_stderr_of_a_plain_python_process():
    code = ("import analyses, toygame; analyses.simulate(toygame, 11, rules={'players': 3}, "
            "policies='strong,random,random', progress=False)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), *sys.path])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "PartialDealWarning: seat_order='rotate': 11 games end inside deal 3 (2 of its 3" in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("kwargs", [dict(n_games=12), dict(n_games=10, seat_order="fixed"),
                                    dict(n_games=10, seat_order="random"), dict(n_games=10, policies="random")])
def test_whole_deals_fixed_random_and_single_rotation_runs_do_not_warn(kwargs):
    options = {**TOY, **kwargs}
    n_games = options.pop("n_games")
    with warnings.catch_warnings():
        warnings.simplefilter("error", PartialDealWarning)
        df = analyses.simulate("toygame", n_games, **options)
    assert "warnings" not in df.attrs


def test_a_results_file_ending_inside_a_deal_keeps_the_warning(tmp_path):
    with pytest.warns(PartialDealWarning):
        df = analyses.simulate_to_file("toygame", 5, tmp_path / "run.parquet", **TOY)
    assert df.attrs["warnings"][0].startswith("seat_order='rotate': 5 games end inside deal 1 (2 of its 3")
    assert analyses.read_results(tmp_path / "run.parquet").attrs["warnings"] == df.attrs["warnings"]
