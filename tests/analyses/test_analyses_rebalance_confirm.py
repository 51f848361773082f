"""The confirmation run of a re-balancing search is sized from the standard error, and the search
records its engine, games and time (analyses.rebalance_search.confirmation_size, Rebalance.timing).

The toy game (tests/analyses/toygame.py) has exactly known win chances: `bias` multiplies seat 0's
odds, so bias = 0 is the fair setting and every seat's true share is 1/4.
"""
from __future__ import annotations

import json

import pytest

import analyses
from analyses.objectives import make_objective
from analyses.rebalance_search import CONFIRM_FILE, STUDY_FILE, _optuna, confirmation_size, rebalance


def test_the_default_confirmation_is_sized_so_every_interval_is_narrow_enough_to_decide(toy, tmp_path):
    result = rebalance(toy, "seat_balance(tolerance=0.03)", knobs="bias=0:0.5:0.5", rules={"bias": 0.5},
                       policies="random", budget=2, first_games=300, rungs=1, seed=4, store=tmp_path / "s")
    assert result.proposal.set_index("knob").loc["bias", "proposed"] == 0.0
    # a 25% share, a band of +-3 points, half-width at most 0.4 x 3 points: n ~ 1.96^2 x 0.1875 / 0.012^2 ~ 5,000
    assert 4000 <= result.confirm_games <= 6500
    half = (result.table["after_high"] - result.table["after_low"]) / 2
    assert (half <= 1.1 * 0.4 * 0.03).all() and (result.table["n"] >= 0.99 * result.confirm_games).all()
    assert ((result.table["after_low"] <= 0.25) & (0.25 <= result.table["after_high"])).all()   # covers the truth
    assert result.meets
    stored = json.loads((tmp_path / "s" / CONFIRM_FILE).read_text(encoding="utf-8"))
    assert stored["confirm_games"] == result.confirm_games and stored["meets"]
    assert stored["timing"]["engine"] == "python" and stored["timing"]["games"] == result.timing["games"]
    assert {row["objective"] for row in stored["side_effects"]} >= {"game_length"}


def test_a_finer_precision_asks_for_more_games_and_the_cap_holds(toy):
    df = analyses.simulate(toy, 400, rules=toy.Rules(), policies="random", seed=1)
    obj = make_objective("seat_balance(tolerance=0.03)")
    coarse = confirmation_size(obj, df, toy.Rules(), precision=0.8)
    fine = confirmation_size(obj, df, toy.Rules(), precision=0.4)
    assert fine == pytest.approx(4 * coarse, rel=0.01)        # half the half-width: four times the games
    assert confirmation_size(obj, df, toy.Rules(), precision=0.4, cap=1000) == 1000
    assert confirmation_size(obj, df, toy.Rules(), precision=0.4, per_deal=4) % 4 == 0
    assert confirmation_size(obj, df, toy.Rules(), precision=1.0) >= len(df)      # never fewer than were played


def test_the_search_records_its_engine_games_and_time(toy):
    result = rebalance(toy, "seat_balance", knobs="bias=0:0.5:0.5", rules={"bias": 0.5}, policies="random",
                       budget=2, first_games=50, rungs=1, confirm_games=80, seed=2)
    timing = result.timing
    assert timing["engine"] == "python" and timing["budget"] == "2" and timing["n_jobs"] == 1
    # the published game (the reference, reused as candidate 0), the other candidate, then the
    # confirmation: the published game and, if it differs, the proposal
    sides = 2 if result.proposal["changed"].any() else 1
    assert timing["games"] == 50 + 50 + 80 * sides
    assert timing["wall_seconds"] > 0 and timing["cpu_seconds"] > 0
    assert f"engine python, {timing['games']:,} games played" in result.to_text()


def test_bad_confirmation_settings_and_an_engine_the_game_lacks_are_refused(toy):
    with pytest.raises(ValueError, match="confirm_games must be a positive integer"):
        rebalance(toy, knobs="bias=0:0.5:0.5", policies="random", budget=1, confirm_games=0)
    with pytest.raises(ValueError, match=r"confirm_precision must be in \(0, 1\]"):
        rebalance(toy, knobs="bias=0:0.5:0.5", policies="random", budget=1, confirm_precision=0)
    with pytest.raises(ValueError, match="has no batch kernel"):
        rebalance(toy, knobs="bias=0:0.5:0.5", policies="random", budget=1, first_games=10, rungs=1,
                  engine="kernel")


def test_a_setting_left_running_by_a_killed_search_is_played_on_resume(toy, tmp_path):
    options = dict(knobs="bias=0:1:0.25", rules={"bias": 0.5}, policies="random", first_games=40, rungs=1,
                   confirm_games=40, seed=1, store=tmp_path / "s")
    rebalance(toy, budget=2, **options)                                  # 2 of the 5 settings played
    optuna = _optuna()
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(tmp_path / "s" / STUDY_FILE)))
    study = optuna.load_study(study_name="rebalance", storage=storage)
    study.ask()                                                          # a search killed mid-setting
    killed = study.get_trials(states=(optuna.trial.TrialState.RUNNING,))[0]
    lost = killed.system_attrs["fixed_params"]["bias"]
    result = rebalance(toy, budget=10, resume=True, **options)
    trials = result.trials
    assert set(trials.loc[trials["state"] == "complete", "bias"]) == {0.0, 0.25, 0.5, 0.75, 1.0}
    assert trials.loc[trials["state"] == "fail", "bias"].isna().all() and lost in set(trials["bias"])
