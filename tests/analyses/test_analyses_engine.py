"""`simulate(..., engine=...)`: the optional batch-kernel hook of docs/GAME_PROTOCOL.md.

'python' (the default) plays `play_game`; 'kernel' the game's `KERNEL` (nightsim's numba
kernel), refused with a message naming what it lacks; 'auto' the kernel when it can (nightsim's
plays the Python engine's games: the same frame). The engine that ran is in `df.attrs["engine"]`
and in a run's identity, so a resume cannot mix them.
"""
from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

import analyses
import dreamsim
import nightsim
from analyses import frames
from analyses.checkpoint import _check_same_run, simulate_to_file
from analyses.io import read_results
from analyses.runner import resolve_engine
from balancelab.cli import main

SMALL = dict(policies="greedy,random,random,random", seed=3, progress=False)


def test_python_is_the_default_and_is_recorded():
    df = analyses.simulate("nightsim", 8, **SMALL)
    assert df.attrs["engine"] == "python"
    forced = analyses.simulate("nightsim", 8, engine="python", **SMALL)
    pd.testing.assert_frame_equal(df, forced)
    first = nightsim.play_game(nightsim.Rules(), ["greedy", "random", "random", "random"], int(df["game_seed"][0]))
    assert df["turns"][0] == first.turns     # the Python engine's own game


def test_auto_picks_the_kernel_for_supported_rules_and_policies():
    df = analyses.simulate("nightsim", 12, engine="auto", **SMALL)
    kernel = analyses.simulate("nightsim", 12, engine="kernel", chunk_size=5, **SMALL)
    assert df.attrs["engine"] == kernel.attrs["engine"] == "kernel"
    pd.testing.assert_frame_equal(df, kernel, check_like=False)   # chunking changes nothing
    python = analyses.simulate("nightsim", 12, **SMALL)
    assert list(df.columns) == list(python.columns)
    assert (df["deal"] == python["deal"]).all() and (df["game_seed"] == python["game_seed"]).all()
    assert list(df["seat0_policy"]) == list(python["seat0_policy"])   # the same seat rotation
    expected = nightsim.KERNEL.play_batch(nightsim.Rules(), [("greedy", "random", "random", "random")],
                                          [int(df["game_seed"][0])])[0]
    assert df["turns"][0] == expected["turns"] and df["winner"][0] == expected["winner"]


@pytest.mark.parametrize("rules", [None, {"players": 3, "hand_size": 6, "win_timing": "end_of_action"}])
def test_nightsims_kernel_gives_the_python_engines_frame(rules):
    """nightsim's kernel draws play_game's random streams: the same games, so the same frame whichever
    engine ran; only `df.attrs["engine"]` tells them apart."""
    policies = "greedy,random,purist" if rules else "greedy,random,purist,aggressor"
    run = dict(rules=rules, policies=policies, seed=11, progress=False)
    auto = analyses.simulate("nightsim", 24, engine="auto", **run)
    python = analyses.simulate("nightsim", 24, engine="python", **run)
    assert auto.attrs["engine"] == "kernel" and python.attrs["engine"] == "python"
    pd.testing.assert_frame_equal(auto, python)
    assert {k: v for k, v in auto.attrs.items() if k != "engine"} == {
        k: v for k, v in python.attrs.items() if k != "engine"}


def test_auto_falls_back_to_python_when_the_kernel_cannot_play():
    sealed = analyses.simulate("nightsim", 4, rules={"seals": True}, engine="auto", **SMALL)
    assert sealed.attrs["engine"] == "python"

    def first(obs, legal, rng):
        return legal[0]

    custom = analyses.simulate("nightsim", 2, policies=[first, "random", "random", "random"], seed=1,
                               engine="auto", progress=False, seat_order="fixed")
    assert custom.attrs["engine"] == "python"


def test_kernel_is_refused_with_a_clear_message():
    def first(obs, legal, rng):
        return legal[0]

    with pytest.raises(ValueError, match=r"engine='kernel'.*policy .* has no kernel.*engine='python'"):
        analyses.simulate("nightsim", 2, policies=[first, "random", "random", "random"], engine="kernel",
                          progress=False)
    with pytest.raises(ValueError, match=r"engine='kernel'.*Legions of Horrors.*seals"):
        analyses.simulate("nightsim", 2, rules={"seals": True}, engine="kernel", progress=False)
    with pytest.raises(ValueError, match=r"game 'toygame' has no batch kernel"):
        analyses.simulate("toygame", 2, engine="kernel", progress=False)
    with pytest.raises(ValueError, match=r"engine must be one of auto, python, kernel"):
        analyses.simulate("nightsim", 2, engine="fast", progress=False)


def test_a_game_without_a_kernel_runs_python_under_auto(toy):
    df = analyses.simulate("toygame", 6, engine="auto", progress=False)
    assert df.attrs["engine"] == "python"
    assert resolve_engine(toy, toy.Rules(), ("random",) * 3, "auto") == "python"


def test_resume_refuses_an_engine_change(tmp_path):
    out = tmp_path / "run.parquet"
    done = simulate_to_file("nightsim", 6, out, engine="kernel", **SMALL)
    assert read_results(out).attrs["engine"] == "kernel"
    again = simulate_to_file("nightsim", 6, out, engine="auto", resume=True, **SMALL)   # resolves to kernel
    pd.testing.assert_frame_equal(again, done)
    with pytest.raises(ValueError, match=r"cannot resume .*engine is 'kernel', this run's is 'python'"):
        simulate_to_file("nightsim", 6, out, engine="python", resume=True, **SMALL)


def test_runs_recorded_before_the_engine_key_resume_as_python(tmp_path):
    df = analyses.simulate("nightsim", 2, **SMALL)
    old = {k: v for k, v in df.attrs.items() if k != "engine"}
    _check_same_run(old, df.attrs, tmp_path)
    with pytest.raises(ValueError, match="engine is 'python'"):
        _check_same_run(old, {**df.attrs, "engine": "kernel"}, tmp_path)


def test_sweep_passes_the_engine_to_every_value():
    result = analyses.sweep("nightsim", "weights.pure", [1.0, 5.0], 4, rules={"players": 2},
                            policies="greedy,random", policy_param="greedy", engine="auto", progress=False)
    assert {df.attrs["engine"] for df in result.runs.values()} == {"kernel"}


def test_cli_engine_flag(tmp_path, capsys):
    out = tmp_path / "k.parquet"
    argv = ["simulate", "nightsim", "--games", "4", "--players", "2", "--policies", "greedy,random",
            "--no-progress", "--out", str(out), "--engine", "kernel"]
    assert main(argv) == 0
    assert read_results(out).attrs["engine"] == "kernel"
    assert main(["simulate", "nightsim", "--games", "2", "--rule", "seals=true", "--no-progress",
                 "--out", str(tmp_path / "s.parquet"), "--engine", "kernel"]) == 2
    assert "seals" in capsys.readouterr().err


def test_a_kernel_run_plays_the_rules_it_is_given():
    rules = dataclasses.replace(nightsim.Rules(players=2), max_turns=2)
    df = analyses.simulate("nightsim", 6, rules=rules, policies="random", engine="kernel", progress=False)
    assert df["timed_out"].all() and (df["turns"] == 2).all() and df["winner"].isna().all()


def test_kernel_columns_make_the_frame_records_would():
    lineups = [("greedy", "random"), ("random", "greedy")] * 3
    seeds = list(range(100, 106))
    index = {"game": list(range(6)), "deal": [0, 0, 1, 1, 2, 2], "game_seed": seeds}
    rules = nightsim.Rules(players=2)
    by_columns = frames.chunk_frame({**index, **nightsim.KERNEL.play_columns(rules, lineups, seeds)})
    by_records = frames.records_frame(index, nightsim.KERNEL.play_batch(rules, lineups, seeds))
    pd.testing.assert_frame_equal(by_columns, by_records)
    assert (by_columns.dtypes == by_records.dtypes).all()


def test_dreamsim_kernel_columns_make_the_frame_records_would():
    lineups = [("heuristic", "random", "random"), ("random", "random", "heuristic")] * 3
    seeds = list(range(200, 206))
    index = {"game": list(range(6)), "deal": [0, 0, 1, 1, 2, 2], "game_seed": seeds}
    for rules in (dreamsim.Rules(players=3), dreamsim.Rules(players=3, max_turns=3)):  # winners, then timeouts
        columns = dreamsim.KERNEL.play_columns(rules, lineups, seeds)
        records = dreamsim.KERNEL.play_batch(rules, lineups, seeds)
        assert list(columns) == list(records[0])
        by_columns = frames.chunk_frame({**index, **columns})
        by_records = frames.records_frame(index, records)
        pd.testing.assert_frame_equal(by_columns, by_records)
        assert (by_columns.dtypes == by_records.dtypes).all()
    assert by_records["timed_out"].all() and by_records["winner"].isna().all()
