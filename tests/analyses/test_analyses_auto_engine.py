"""engine='auto' across the lab: the same frames as the Python engine, loud fallbacks, and the entry
points (report, confirmation, sweeps, ladder, rebalance, sensitivity) that ask for it.

The card games' kernels play `play_game`'s games for the same seeds (their equality tests), so a run
through 'auto' must give exactly the Python engine's frame; only ``attrs["engine"]`` differs. A run
that asked for a kernel and played Python says why (``attrs["engine_fallback"]``). The fast paths
`simulate` takes to build a kernel run's frame (`plan.deal_seeds`, `frames._names_categorical`,
`frames._seat_winners`) are checked against the slow general ones they replace.
"""
from __future__ import annotations

import importlib
import inspect
import types

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analyses
import dreamsim
import nightsim
from analyses import frames, ladder, replication, study
from analyses.plan import deal_seed, deal_seeds
from analyses.rebalance_search import rebalance
from analyses.replay import example_replays, record_from_results
from analyses.runner import KERNEL_MAX_CHUNK, KERNEL_MIN_CHUNK, auto_chunk_size
from analyses.sensitivity import sensitivity
from balancelab.parser import build_parser
from balancelab.sensitivity import render as render_sensitivity
from reports.build import engine_text

import toygame

sweep_module = importlib.import_module("analyses.sweep")   # (the package's `sweep` attribute is the function)


def _same_run(python: pd.DataFrame, auto: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(python, auto)
    assert python.attrs["engine"] == "python" and auto.attrs["engine"] == "kernel"
    assert "engine_fallback" not in auto.attrs
    assert {k: v for k, v in python.attrs.items() if k != "engine"} == {
        k: v for k, v in auto.attrs.items() if k != "engine"}


@pytest.mark.parametrize("setup", [
    dict(policies="greedy,random,purist,aggressor", seat_order="rotate", n=160),
    dict(policies="greedy", seat_order="fixed", rules={"players": 3, "last_seat_extra_cards": 1}, n=200),
])
def test_nightsim_auto_gives_the_python_engines_frame(setup):
    setup = dict(setup)
    n = setup.pop("n")
    python = analyses.simulate("nightsim", n, seed=21, progress=False, engine="python", **setup)
    auto = analyses.simulate("nightsim", n, seed=21, progress=False, engine="auto", **setup)
    _same_run(python, auto)


def test_dreamsim_auto_gives_the_python_engines_frame():
    run = dict(policies="heuristic,random,runner,trickster", seed=8, progress=False)
    python = analyses.simulate("dreamsim", 200, engine="python", **run)
    auto = analyses.simulate("dreamsim", 200, engine="auto", **run)
    _same_run(python, auto)
    assert python["winner"].notna().any()   # games that someone won, not only timeouts


def test_a_run_the_kernel_refuses_says_why_it_played_python(toy):
    sealed = analyses.simulate("nightsim", 4, rules={"seals": True}, policies="greedy", engine="auto", progress=False)
    assert sealed.attrs["engine"] == "python"
    assert "Legions of Horrors" in sealed.attrs["engine_fallback"]
    refill = dreamsim.Rules(refill="end_of_turn")
    assert not dreamsim.KERNEL.supports(refill, ["random"] * refill.players)
    df = analyses.simulate("dreamsim", 2, rules=refill, policies="random", engine="auto", progress=False)
    assert df.attrs["engine"] == "python" and "refill" in df.attrs["engine_fallback"]
    toy_run = analyses.simulate("toygame", 2, engine="auto", progress=False)
    assert toy_run.attrs["engine_fallback"] == "game 'toygame' has no batch kernel"
    python = analyses.simulate("toygame", 2, engine="python", progress=False)
    assert "engine_fallback" not in python.attrs   # nothing was asked for that did not happen


def test_a_sensitivity_group_the_kernel_refuses_lists_the_refused_arms():
    table = sensitivity("nightsim", ["D-scavenger", "D-seal-target"], n_games=8, policies="random")
    baselines = {tuple(b["decisions"]): b for b in table.attrs["baselines"]}
    assert baselines[("D-scavenger",)]["engine"] == "kernel" and "engine_fallback" not in baselines[("D-scavenger",)]
    sealed = baselines[("D-seal-target",)]
    assert sealed["engine"] == "python"
    assert [t.split(":")[0] for t in sealed["engine_fallback"]] == ["the baseline", "D-seal-target='any'"]
    assert all("Legions of Horrors" in t for t in sealed["engine_fallback"])
    text = render_sensitivity(table)
    assert text.count("Python, not the kernel:") == 2 and "D-seal-target='any': the nightsim kernel" in text


def test_a_kernel_run_replays_like_a_python_run():
    """The report's "Watch a game" page replays game 0 of each main run, now a kernel run: the Python engine
    plays the row's seed again and must end as the row says; a row it does not match is refused, naming the kernel."""
    df = analyses.simulate("nightsim", 4, policies="greedy,random,random,random", engine="auto", progress=False)
    assert df.attrs["engine"] == "kernel"
    records, missing = example_replays({"nightsim": {"main": df}})
    assert not missing and records["nightsim"].result["row"]["turns"] == int(df["turns"][0])
    tampered = df.copy()
    tampered.attrs = dict(df.attrs)
    tampered.loc[1, "turns"] = tampered.loc[1, "turns"] + 1
    with pytest.raises(ValueError, match="replays differently .*batch kernel"):
        record_from_results(tampered, 1)


# --- the entry points ask for engine='auto' ------------------------------------------------------

@pytest.fixture
def engines_asked(monkeypatch):
    """The `engine` every `simulate` call of the study, confirmation, sweep and ladder modules asks for."""
    asked = []

    def spy(*args, **kwargs):
        asked.append(kwargs.get("engine", "python"))
        return analyses.simulate(*args, **kwargs)

    for module in (study, replication, sweep_module, ladder):
        monkeypatch.setattr(module, "simulate", spy)
    return asked


def test_the_report_and_its_confirmation_play_auto(engines_asked, monkeypatch):
    monkeypatch.setitem(study.PLANS, "toygame", study.StudyPlan("toygame", "Toy", "strong", ("strong", "random"),
                                                                  sweep_values=(2, 3), impact=False))
    runs, _ = study.simulate_study(16, games=["toygame"], progress=False)
    assert set(engines_asked) == {"auto"} and len(engines_asked) == len(runs["toygame"])
    assert {df.attrs["engine_fallback"] for df in runs["toygame"].values()} == {"game 'toygame' has no batch kernel"}
    g = study.analyse_game("toygame", runs["toygame"])
    assert set(g.engines.values()) == {"python"} and set(g.engine_fallbacks) == set(runs["toygame"])
    engines_asked.clear()
    fake = types.SimpleNamespace(games={"toygame": g})
    monkeypatch.setattr(replication, "needed_runs", lambda game: {"main": 8})
    replication.simulate_confirmation(fake, progress=False)
    assert engines_asked == ["auto"]


def test_sweeps_and_the_ladder_play_auto(engines_asked):
    analyses.sweep("toygame", "players", [2, 3], 4, progress=False)
    assert engines_asked == ["auto", "auto"]
    engines_asked.clear()
    result = ladder.skill_ladder(toygame, ["strong", "random"], games=4, findings_games=4, progress=False,
                                 bootstrap=20)
    assert engines_asked and set(engines_asked) == {"auto"}
    assert result.metadata["engine"] == "auto"
    assert set(result.metadata["engines"]) == {"strong vs random", "self-play strong", "self-play random"}
    assert all(e.startswith("python (game 'toygame' has no batch kernel") for e in result.metadata["engines"].values())


def test_a_rebalance_says_which_engine_played_and_why_not_the_kernel(toy):
    result = rebalance(toy, "seat_balance", knobs="bias=0:0.5:0.5", rules={"bias": 0.5}, policies="random",
                       budget=2, first_games=20, rungs=1, confirm_games=20, seed=2)
    assert result.timing["engine"] == "python"
    assert result.timing["engine_fallback"] == ["game 'toygame' has no batch kernel"]
    assert "Python instead of the kernel: game 'toygame' has no batch kernel" in str(result)


def test_the_commands_default_to_auto():
    parser = build_parser()
    assert parser.parse_args(["report"]).engine == "auto"
    assert parser.parse_args(["sweep", "nightsim", "--field", "players", "--values", "2,3"]).engine == "auto"
    assert parser.parse_args(["rebalance", "nightsim"]).engine == "auto"
    assert parser.parse_args(["sensitivity", "nightsim"]).engine == "auto"
    assert parser.parse_args(["simulate", "nightsim", "--out", "x.parquet"]).engine == "python"   # the reference, unless asked
    assert inspect.signature(rebalance).parameters["engine"].default == "auto"
    assert inspect.signature(sensitivity).parameters["engine"].default == "auto"


def test_the_report_says_which_engine_played_each_run():
    mixed = types.SimpleNamespace(engines={"main": "kernel", "mixed": "kernel", "fix-seals": "python"},
                                  engine_fallbacks={"fix-seals": "the nightsim kernel cannot play this run: seals"})
    text = engine_text(mixed)
    assert "kernel for main, mixed" in text and "Python for fix-seals (the nightsim kernel cannot play" in text
    assert engine_text(types.SimpleNamespace(engines={"main": "kernel"}, engine_fallbacks={})).startswith(
        "Engine: the compiled batch kernel")
    assert engine_text(types.SimpleNamespace(engines={}, engine_fallbacks={})) == ""   # runs stored before engines


# --- the fast paths of a kernel run's frame against the general ones ------------------------------

@settings(max_examples=60, deadline=None)
@given(seed=st.one_of(st.integers(0, 2 ** 32), st.integers(0, 2 ** 140)),
       deals=st.lists(st.one_of(st.integers(0, 2 ** 32 - 1), st.integers(2 ** 32 - 3, 2 ** 40)), max_size=12))
def test_deal_seeds_are_numpys_seed_sequence(seed, deals):
    expected = np.array([deal_seed(seed, d) for d in deals], dtype=np.int64)
    np.testing.assert_array_equal(deal_seeds(seed, np.array(deals, dtype=np.int64)), expected)


@pytest.mark.parametrize("values", [
    ["random", "greedy", "random"], ["b", None, "a", "b"], ["solo"], ["z"] * 3 + ["a"],
])
def test_policy_names_make_the_categorical_pandas_makes(values):
    fast = frames._names_categorical(values)
    expected = pd.Categorical(values)
    assert fast is not None and fast.dtype == expected.dtype
    pd.testing.assert_extension_array_equal(fast, expected)
    assert frames._names_categorical(["a", 1]) is None   # not names: pandas decides
    assert frames._names_categorical([None, None]) is None   # no name at all: pandas gives float categories


@pytest.mark.parametrize("values", [[0, None, 3, 1], [None, None], [2], [127, -128]])
def test_seat_winners_make_the_column_winner_column_makes(values):
    fast = frames._seat_winners(values)
    pd.testing.assert_extension_array_equal(fast, frames.winner_column(pd.Series(values, dtype=object)).array)
    assert frames._seat_winners(["0+2", None]) is None and frames._seat_winners([200]) is None


def test_kernel_chunks_are_large_enough_to_pay_for_their_frame():
    assert auto_chunk_size(3000, 2, progress=True, engine="kernel") == KERNEL_MIN_CHUNK
    assert auto_chunk_size(300, 2, progress=True, engine="kernel") == 150    # one chunk per worker
    assert auto_chunk_size(10 ** 6, 2, progress=True, engine="kernel") == KERNEL_MAX_CHUNK
    assert auto_chunk_size(10 ** 6, 1, progress=False, engine="kernel") == KERNEL_MAX_CHUNK
    assert auto_chunk_size(3000, 2, progress=True) == 188                    # the Python engine's as before
    df = analyses.simulate("nightsim", 40, policies="random", engine="auto", chunk_size=7, progress=False)
    one = analyses.simulate("nightsim", 40, policies="random", engine="auto", progress=False)
    pd.testing.assert_frame_equal(df, one)
    assert nightsim.KERNEL.supports(nightsim.Rules(), ["random"] * 4)
