"""Every size a user can ask for is bounded before any work (analyses/limits.py), with one line naming the
flag and the limit."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerathsim
from analyses import limits
from analyses.knobs import load_knobs_file, make_knob
from analyses.runner import Executor, simulate
from analyses.search.ismcts import ISMCTSPolicy, parse_ismcts
from balancelab.cli import main

HUGE = "99999999999999999999999999"


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("argv, words", [
    (["simulate", "nightsim", "--games", HUGE, "--out", "x.parquet"], ["--games", "10,000,000"]),
    (["fpa", "nightsim", "--jobs", "100000"], ["--jobs", "128"]),
    (["fpa", "nightsim", "--jobs", "-100000"], ["--jobs", "128"]),
    (["fpa", "nightsim", "--policies", "ismcts:99999999999999999999"], ["--policies", "20,000"]),
    (["fpa", "nightsim", "--seed", HUGE], ["--seed"]),
    (["battle", "6 footsoldier", "vs", "8 footsoldier", "--method", "monte_carlo", "--n", "1e9"],
     ["--n", "20,000,000"]),
    (["battle", "99999999999999999999999 dragon", "vs", "2 footsoldier"], ["attacker", "1,000,000"]),
    (["report", "--games", "99999999"], ["--games", "10,000,000"]),
    (["rebalance", "nightsim", "--first-games", "200", "--rungs", "12", "--reduction-factor", "30"],
     ["--first-games", "--rungs", "10,000,000"]),
    (["rebalance", "nightsim", "--budget", "99999999999"], ["budget", "100,000"]),
    (["rebalance", "nightsim", "--budget", "9999999h"], ["budget", "days"]),
    (["sweep", "nightsim", "--field", "players", "--values", "2,3,4", "--games", "9000000"], ["--games", "--values"]),
    (["ladder", "nightsim", "--bootstrap", HUGE], ["--bootstrap"]),
    (["tune-policy", "nightsim", "--games-per-trial", "2000000", "--rungs", "4"], ["--games-per-trial", "--rungs"]),
])
def test_oversized_command_lines_are_refused_in_one_line(tmp_path, monkeypatch, capsys, argv, words):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    line = _one_error_line(capsys)
    for word in words:
        assert word in line, line
    assert list(tmp_path.iterdir()) == []          # nothing written, no parts folder left behind


def test_every_command_help_states_the_limits(capsys):
    for command in ("simulate", "fpa", "report", "rebalance", "tune-policy", "ladder", "battle"):
        assert main([command, "--help"]) == 0
        out = capsys.readouterr().out
        assert "LIMITS" in out and "10,000,000" in out and "128" in out, command


def test_api_refuses_oversized_runs_before_any_game():
    with pytest.raises(ValueError, match="n_games .* above the limit"):
        simulate("nightsim", limits.MAX_GAMES + 1, progress=False)
    with pytest.raises(ValueError, match="n_jobs .* limit"):
        Executor(limits.MAX_JOBS + 1)
    with pytest.raises(ValueError, match="20,000"):
        ISMCTSPolicy("nightsim", iterations=limits.MAX_ISMCTS_ITERATIONS + 1)
    with pytest.raises(ValueError, match="seconds"):
        ISMCTSPolicy("nightsim", iterations=10, seconds=1e9)
    with pytest.raises(ValueError, match="above the limit"):
        parse_ismcts(__import__("nightsim"), "ismcts:" + HUGE)
    with pytest.raises(ValueError, match="above the limit"):
        nerathsim.battle_odds("6 footsoldier", "8 footsoldier", method="monte_carlo", n=10**12)
    assert ISMCTSPolicy("nightsim", iterations=limits.MAX_ISMCTS_ITERATIONS).iterations == limits.MAX_ISMCTS_ITERATIONS


def test_knob_ranges_are_bounded():
    nightsim = __import__("nightsim")
    rules = nightsim.Rules()
    with pytest.raises(ValueError, match="100,000 a knob"):
        make_knob(nightsim, rules, "hand_size", {"low": 1, "high": 10**6, "step": 1})
    with pytest.raises(ValueError, match="beyond the limit"):
        make_knob(nightsim, rules, "hand_size", {"low": 1, "high": 10**18, "step": 10**17})
    knob = make_knob(nightsim, rules, "hand_size", {"low": 3, "high": 7, "step": 1})
    assert knob.values() == [3, 4, 5, 6, 7]


def test_knob_file_with_a_huge_range_is_refused_by_the_cli(tmp_path, capsys):
    path = tmp_path / "knobs.toml"
    path.write_text("[knobs.hand_size]\nlow = 1\nhigh = 1000000000000000000\nstep = 1\n")
    assert main(["rebalance", "nightsim", "--knobs-file", str(path), "--budget", "2"]) == 2
    assert "hand_size" in _one_error_line(capsys)


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_deeply_nested_input_files_are_refused(tmp_path, suffix):
    path = tmp_path / f"deep{suffix}"
    path.write_text(("[" * 100_000 + "]" * 100_000) if suffix == ".json" else "x = " + "[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="100000 levels deep, above the limit of 64"):
        load_knobs_file(path)


def test_nesting_depth_ignores_brackets_inside_strings():
    assert limits.nesting_depth(json.dumps({"a": ["[[[[", {"b": "{{{"}]}).encode()) == 3
    assert limits.nesting_depth(b'"\\"[[["') == 0
    assert limits.nesting_depth(b"") == 0


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                    max_leaves=30))
def test_nesting_depth_matches_the_structure(value):
    def depth(v):
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        return 0
    assert limits.nesting_depth(json.dumps(value).encode()) == depth(value)


def test_count_names_the_flag_and_accepts_the_limit_itself():
    assert limits.count(10, "--x", 10) == 10
    with pytest.raises(limits.LimitError, match=r"^--x 11 is above the limit of 10"):
        limits.count(11, "--x", 10)
    with pytest.raises(limits.LimitError, match="at least 1"):
        limits.count(0, "--x", 10)
    with pytest.raises(limits.LimitError, match="whole number"):
        limits.count(1.5, "--x", 10)
