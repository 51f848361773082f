"""analyses on the real game: nightsim through simulate, the questions, the CLI and the benchmark."""
import importlib
import importlib.util
from pathlib import Path

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import analyses
import nightsim
from balancelab.cli import main


def nightsim_ready() -> bool:
    """True once the (concurrently written) nightsim exposes the game protocol."""
    try:
        module = importlib.import_module("nightsim")
    except Exception:  # a half-written module may fail in any way
        return False
    return all(hasattr(module, name) for name in ("Rules", "POLICIES", "play_game", "RULES_VERSION"))


pytestmark = pytest.mark.skipif(not nightsim_ready(), reason="nightsim does not expose the game protocol yet")
LINEUP = "greedy,random,random,random"


@pytest.fixture(scope="module")
def games():
    return analyses.simulate("nightmarium", 16, policies=LINEUP, seed=3, n_jobs=2, progress=False)


def test_nightsim_runs_identically_on_one_or_two_workers(games):
    assert_frame_equal(analyses.simulate("nightsim", 16, policies=LINEUP, seed=3, chunk_size=3, progress=False), games)
    assert games.attrs["game"] == "nightsim" and games.attrs["rules"]["players"] == 4
    assert {"seat0_policy", "seat3_score", "turns", "decisions"} <= set(games.columns)


def test_a_nightsim_game_replays_from_its_recorded_seed(games):
    row = games.iloc[5]
    seats = [row[f"seat{s}_policy"] for s in range(4)]
    record = nightsim.play_game(nightsim.Rules(), seats, seed=int(row["game_seed"])).to_record()
    winner = None if pd.isna(row["winner"]) else row["winner"]
    assert (record["turns"], record["decisions"], record["winner"]) == (row["turns"], row["decisions"], winner)


def test_questions_on_nightsim(games):
    assert len(analyses.first_player_advantage(games).seats) == 4
    assert set(analyses.win_rates(games).by_policy["policy"]) == {"greedy", "random"}
    assert list(analyses.game_length(games).summary["metric"]) == ["turns", "decisions"]


def test_nightsim_policy_parameter_sweep():
    result = analyses.sweep("nightsim", "weights.pure", ["0", "5"], 8, policies=LINEUP, policy_param="greedy",
                            seed=1, progress=False)
    assert list(result.runs) == [0.0, 5.0]
    assert result.runs[5.0].attrs["policy_reprs"][0].startswith("HeuristicPolicy(name='greedy'")


def test_cli_fpa_on_nightsim(capsys):
    assert main(["fpa", "nightsim", "--games", "12", "--jobs", "2", "--players", "3",
                 "--rule", "creatures_to_win=4", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "nightsim (" in out and "12 games" in out and "win rate [95% CI]" in out and "p (Holm)" in out
    assert "rules: players=3 creatures_to_win=4 (others as published)" in out


def test_cli_simulate_nightsim_to_csv(tmp_path, capsys):
    out = tmp_path / "n.parquet"
    assert main(["simulate", "nightsim", "--games", "8", "--policies", "greedy", "--out", str(out), "--csv",
                 "--no-progress"]) == 0
    df = analyses.read_results(tmp_path / "n.csv")
    assert len(df) == 8 and df.attrs["policies"] == ["greedy"] * 4
    assert isinstance(df["seat0_policy"].dtype, pd.CategoricalDtype)


def test_benchmark_runs_on_nightsim(capsys):
    pytest.importorskip("psutil")
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "speed" / "bench_runner.py"
    spec = importlib.util.spec_from_file_location("bench_runner", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.main(["--games", "16", "--overhead-games", "8", "--memory-games", "16", "--repeat", "1",
                "--ceiling-loops", "1000", "--assembly-chunks", "3", "--assembly-chunk-games", "4"])
    out = capsys.readouterr().out
    assert "(a) overhead" in out and "(b) speedup" in out and "(c) memory" in out and "12 rows" in out
