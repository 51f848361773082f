"""Tuned heuristics (analyses/tune.py, `balancelab tune-policy`, each game's `tuned` policy).

The toy game (tests/analyses/toygame.py) has exactly known win chances, so a toy policy whose
parameter `aim` sets how often it picks the lucky die (always at aim = 0.6, less the further it is)
has a known best parameter and an exactly known win rate against the start policy.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pytest

import dreamsim
import dreamsim.policies.policies
import nerathsim
import nightsim
import nightsim.policies.heuristic
from analyses import games, tune
from analyses.tune import Param, check_provenance, param_value, parse_space, tune_policy

import toygame

BEST_AIM = 0.6
AIM_SPACE = [{"name": "aim", "low": 0.0, "high": 1.0, "step": 0.1}]
TOY_RULES = {"edge": 1.0}


@dataclass(frozen=True)
class AimPolicy:
    """Picks the lucky die with chance 1 - 2|aim - 0.6| (always at the best aim, 0.6)."""

    aim: float = 0.2
    name: str = "aim"

    def lucky_share(self) -> float:
        return max(0.0, 1.0 - 2.0 * abs(self.aim - BEST_AIM))

    def __call__(self, obs, legal, rng):
        if legal == toygame.DICE:
            return "lucky" if rng.random() < self.lucky_share() else "plain"
        return legal[0]


def _true_score(tuned, start) -> float:
    """Exact mean score of `tuned` against `start`, 2 players, each in both seats (a timeout counts 1/2)."""
    rules = toygame.Rules(players=2, **TOY_RULES)
    total = 0.0
    for seat in range(2):
        lineup = [start, start]
        lineup[seat] = tuned
        p, timeout = toygame.win_probabilities(rules, lineup)
        total += p[seat] + timeout / 2
    return total / 2


def test_the_search_finds_the_toy_policys_known_best_parameter_and_the_confirmation_covers_the_truth(toy):
    start = AimPolicy(aim=0.2)
    result = tune_policy(toy, start=start, space=AIM_SPACE, rules=TOY_RULES, budget=14, games_per_trial=400,
                         rungs=2, confirm_games=6000, seed=3)
    assert result.start_params == {"aim": 0.2}
    assert abs(result.params["aim"] - BEST_AIM) <= 0.1 + 1e-9              # the known best, to one grid step
    assert result.policy == AimPolicy(aim=result.params["aim"], name="tuned")
    truth = _true_score(result.policy, start)
    conf = result.confirmation.iloc[0]
    assert conf["games"] == 6000 and conf["deals"] == 3000
    assert conf["ci_low"] <= truth <= conf["ci_high"]
    # two sides, every seat rotated: the start scores exactly 1/2 against itself, so the gain is the win rate
    # less 1/2 and the target is the win rate >= 55% with the lower bound > 50%
    assert conf["baseline"] == pytest.approx(0.5, abs=1e-12)
    assert conf["gain"] == pytest.approx(conf["win_rate"] - 0.5, abs=1e-12)
    assert conf["gain_low"] == pytest.approx(conf["ci_low"] - 0.5, abs=1e-9)
    assert conf["meets_target"] == (conf["gain"] >= 0.05 and conf["gain_low"] > 0.0)
    assert conf["meets_target"] == (conf["win_rate"] >= 0.55 and conf["ci_low"] > 0.5)
    assert truth > 0.55 and result.meets                                    # a real improvement, and it shows
    assert result.provenance["confirmation"]["gain"] == pytest.approx(conf["gain"])
    trials = result.trials
    assert trials.loc[trials["trial"] == 0, "aim"].item() == 0.2            # the start is the first trial
    assert set(trials["state"]) <= {"complete", "pruned"} and (trials["state"] == "pruned").any()
    assert check_provenance(result.to_data()) == []
    assert "biased by selection" in result.to_text()


def test_every_trial_meets_the_same_deals_common_random_numbers(toy):
    start = AimPolicy(aim=0.2)
    a = tune_policy(toy, start=start, space=AIM_SPACE, rules=TOY_RULES, budget=3, games_per_trial=40, rungs=1,
                    confirm_games=20, seed=9)
    b = tune_policy(toy, start=start, space=AIM_SPACE, rules=TOY_RULES, budget=3, games_per_trial=40, rungs=1,
                    confirm_games=20, seed=9)
    assert a.trials.equals(b.trials) and a.params == b.params               # deterministic for a seed
    same = a.trials.groupby("aim")["score"].nunique()
    assert (same == 1).all()                                                # same parameters, same deals: same score


@pytest.mark.parametrize("space, words", [
    ([{"name": "aim", "low": 1.0, "high": 0.0}], "low must be below high"),
    ([{"name": "aim", "low": 0.0, "high": 1.0, "step": 0.1, "log": True}], "step or log=True"),
    ([{"name": "aim", "low": 0.0, "high": 1.0, "log": True}], "log scale needs low > 0"),
    ([{"name": "aim", "low": 0.0, "hi": 1.0}], "unknown key(s) hi"),
    ([{"name": "aim", "low": 0.0, "high": 1.0}, {"name": "aim", "low": 0, "high": 1}], "declared twice"),
    ([{"name": "aim", "choices": []}], "choices must be a non-empty list"),
    ([{"low": 0.0, "high": 1.0}], "needs a name"),
    ([], "at least one parameter"),
    ("aim=0:1", "must be a list"),
    ([{"name": "aim", "low": 0.0, "high": float("inf")}], "high must be a finite number"),
])
def test_a_bad_search_space_is_a_clear_value_error(space, words):
    with pytest.raises(ValueError) as info:
        parse_space(space)
    assert words in str(info.value)


def test_a_parameter_the_start_policy_lacks_and_a_bad_start_policy_are_clear_value_errors(toy):
    with pytest.raises(ValueError, match="has no tunable parameter 'bogus'"):
        tune_policy(toy, start=AimPolicy(), space=[{"name": "bogus", "low": 0, "high": 1}], budget=1)
    with pytest.raises(ValueError, match="unknown start policy 'nope'"):
        tune_policy("nightsim", start="nope", budget=1)
    with pytest.raises(ValueError, match="start policy 'random' has no tunable parameter 'weights.complete'"):
        tune_policy("nightsim", start="random", budget=1)
    with pytest.raises(ValueError, match="declares no search space"):
        tune_policy(toy, start=AimPolicy(), budget=1)
    with pytest.raises(ValueError, match="pool: unknown policy 'nope'"):
        tune_policy("nightsim", pool="greedy,nope", budget=1)
    with pytest.raises(ValueError, match="budget must be"):
        tune_policy(toy, start=AimPolicy(), space=AIM_SPACE, budget="soon")


def test_the_cli_tunes_with_a_tiny_budget_and_writes_a_file_the_game_loads(run, capsys, tmp_path):
    out = tmp_path / "tuned.json"
    code, stdout, err = run(capsys, "tune-policy", "nightsim", "--trials", "2", "--games-per-trial", "6",
                            "--rungs", "1", "--confirm-games", "4", "--seed", "2", "--out", str(out))
    assert code == 0, err
    assert "best parameters:" in stdout and "confirmation: tuned vs greedy" in stdout and "wrote" in stdout
    data = json.loads(out.read_text())
    assert check_provenance(data) == []
    assert data["start"] == "greedy" and data["provenance"]["pool"] == ["greedy", "purist", "aggressor"]
    assert data["provenance"]["command"].startswith("balancelab tune-policy nightsim --trials 2")
    policy = nightsim.policies.heuristic.load_tuned(out)
    for key, value in data["params"].items():
        assert param_value(nightsim, policy, key) == value
    code, _, err = run(capsys, "tune-policy", "nightsim", "--start", "random", "--trials", "1")
    assert code == 2 and "no tunable parameter" in err


# --- the shipped `tuned` policies ---------------------------------------------------------------

GAMES = [(nightsim, "greedy"), (dreamsim, "heuristic"), (nerathsim, "balanced")]
#: the module holding each game's `tuned` file
TUNED_MODULES = {"nightsim": nightsim.policies.heuristic, "dreamsim": dreamsim.policies.policies,
                 "nerathsim": nerathsim.policies}


@pytest.mark.parametrize("module, start", GAMES, ids=lambda v: getattr(v, "__name__", v))
def test_each_game_ships_a_tuned_policy_with_the_stored_parameters_usable_by_name(module, start):
    data = json.loads(TUNED_MODULES[module.__name__].TUNED_FILE.read_text(encoding="utf-8"))
    assert data["name"] == "tuned" and data["game"] == module.__name__ and data["start"] == start
    tuned = module.POLICIES["tuned"]
    assert tuned.name == "tuned" and type(tuned) is type(module.POLICIES[start])
    for key, value in data["params"].items():
        assert param_value(module, tuned, key) == value
    names = {d["name"] for d in module.TUNING["space"]}
    assert set(data["params"]) == names                               # one stored value per dimension
    players = data["provenance"]["players"]
    lineup = games.resolve_policies(module, ",".join(["tuned"] + [start] * (players - 1)), players)
    assert lineup[0] == "tuned"
    rules = module.Rules(players=players)
    first = module.play_game(rules, lineup, seed=11).to_record()
    again = module.play_game(rules, lineup, seed=11).to_record()
    assert first == again                                            # deterministic for a seed


@pytest.mark.parametrize("module", [m for m, _ in GAMES], ids=lambda m: m.__name__)
def test_each_tuned_policys_provenance_is_complete_and_consistent(module):
    data = json.loads(TUNED_MODULES[module.__name__].TUNED_FILE.read_text(encoding="utf-8"))
    assert check_provenance(data) == []
    prov = data["provenance"]
    conf = prov["confirmation"]
    assert prov["command"].startswith(f"balancelab tune-policy {module.__name__}") or \
        prov["command"].startswith("balancelab tune-policy")
    assert conf["ci_low"] <= conf["win_rate"] <= conf["ci_high"]
    if "gain" in conf:      # the gain over the start in the same seats on the same deals
        assert conf["meets_target"] == (conf["gain"] >= 0.05 and conf["gain_low"] > 0.0)
    else:                   # written before the gain was kept: two sides, every seat rotated
        assert conf["meets_target"] == (conf["win_rate"] >= 0.55 and conf["ci_low"] > 0.5)
    assert conf["games"] == conf["deals"] * prov["players"] and conf["unit"] == "deal"
    assert conf["seed"] != prov["search"]["seed"] and conf["engine"] == "python"
    assert prov["rules_version"] == module.RULES_VERSION
    assert np.isfinite(prov["search"]["best_score"]) and prov["optuna_version"]


def test_the_search_space_declarations_are_valid_and_contain_each_start_policy():
    for module, start in GAMES:
        dims = parse_space(module.TUNING["space"])
        assert module.TUNING["start"] == start
        policy = module.POLICIES[start]
        for d in dims:
            value = param_value(module, policy, d.name)
            if d.choices is None:
                assert d.low <= value <= d.high, (module.__name__, d.name)
            else:
                assert value in d.choices
        assert all(isinstance(d, Param) for d in dims)


# --- warm starts, and no games for a candidate equal to its opponent -------------

def test_warm_start_points_are_tried_right_after_the_start_on_the_spaces_grid(toy, tmp_path):
    stored = tmp_path / "previous.json"
    stored.write_text(json.dumps({"params": {"aim": 0.41}}))
    result = tune_policy(toy, start=AimPolicy(aim=0.2), space=AIM_SPACE, rules=TOY_RULES, budget=4,
                         games_per_trial=40, rungs=1, confirm_games=20, seed=5, warm_start=[{"aim": 0.63}, stored])
    trials = result.trials.set_index("trial")["aim"]
    assert [trials[0], trials[1], trials[2]] == [0.2, 0.6, 0.4]            # start, then the warm points, snapped
    assert result.provenance["search"]["warm_start"] == [{"source": "params", "params": {"aim": 0.6}},
                                                         {"source": str(stored), "params": {"aim": 0.4}}]
    with pytest.raises(ValueError, match="not in the search space"):
        tune_policy(toy, start=AimPolicy(), space=AIM_SPACE, budget=1, warm_start={"bogus": 1.0})
    with pytest.raises(ValueError, match="Reproduce with"):
        tune_policy(toy, start=AimPolicy(), space=AIM_SPACE, budget=1, warm_start=tmp_path / "missing.json")


class PlainGreedy:
    """nightsim's greedy behind a wrapper: plays greedy's games, but is not known to equal it."""

    name = "plain-greedy"

    def __call__(self, obs, legal, rng):
        return nightsim.POLICIES["greedy"](obs, legal, rng)


@pytest.mark.parametrize("players", [2, 3])
def test_an_opponent_that_plays_like_the_candidate_is_played_once_per_deal(monkeypatch, players):
    calls = []
    real = tune.simulate

    def counting(*args, **kwargs):
        calls.append(kwargs["policies"])
        return real(*args, **kwargs)

    monkeypatch.setattr(tune, "simulate", counting)
    arena = tune.Arena(nightsim, nightsim.Rules(players=players), players)
    equal = nightsim.HeuristicPolicy(nightsim.GREEDY, "candidate")           # == greedy (the name is a label)
    skipped = arena.scores(equal, ["greedy"], deals=40, seed=8)
    assert len(calls) == 1
    played = arena.scores(PlainGreedy(), ["greedy"], deals=40, seed=8)        # every rotation played
    assert len(calls) == 1 + players
    columns = ["seat", "deal", "won", "lost", "score"]
    assert skipped[columns].equals(played[columns])                           # the same rows
    assert skipped.groupby("deal")["score"].sum().eq(1.0).all()               # one winner per deal: 1/players
    assert skipped["score"].mean() == pytest.approx(1 / players)


# --- one seat's own weights -------------------------------------------------------------------

def test_seats_tune_one_seat_only_in_the_search_and_the_confirmation(toy):
    result = tune_policy(toy, start=AimPolicy(aim=0.2), space=AIM_SPACE, rules=TOY_RULES, budget=2,
                         games_per_trial=40, rungs=1, confirm_games=30, seed=4, seats=(1,))
    prov = result.provenance
    assert prov["seats"] == [1] and "seat 2 only" in prov["design"]
    assert result.confirmation.iloc[0]["games"] == 30 == result.confirmation.iloc[0]["deals"]   # one game a deal
    assert prov["search"]["games_per_trial"] == 40                        # one pool member x one seat per deal
    every = tune_policy(toy, start=AimPolicy(aim=0.2), space=AIM_SPACE, rules=TOY_RULES, budget=1,
                        games_per_trial=40, rungs=1, confirm_games=30, seed=4)
    assert every.provenance["seats"] == [0, 1] and every.confirmation.iloc[0]["games"] == 30


def test_one_seat_is_confirmed_against_the_starts_own_score_in_that_seat(toy):
    # seat 1 wins most games whoever plays it: the start itself there scores far above 55%, yet gains nothing
    rules = toy.Rules(players=2, edge=1.0, bias=-0.8)
    arena = tune.Arena(toy, rules, 2, seats=(1,))
    start, best = AimPolicy(aim=0.2), AimPolicy(aim=BEST_AIM)
    row, table = tune.confirm(arena, start, start, "aim", games=400, seed=5)
    assert row["win_rate"] > 0.55 and row["ci_low"] > 0.5                  # what the win-rate target would pass
    assert row["baseline"] == pytest.approx(row["win_rate"], abs=1e-12)    # the same games
    assert row["gain"] == pytest.approx(0.0, abs=1e-12) and not row["meets_target"]
    assert list(table.columns[-8:]) == ["ci_high", "baseline", "gain", "gain_low", "gain_high", "p_value",
                                        "target_gain", "meets_target"]
    # a real improvement in that seat: its exact gain lies in the interval, and it meets the target
    row, _ = tune.confirm(arena, best, start, "aim", games=4000, seed=6)
    truth = toy.win_probabilities(rules, [start, best])[0][1] - toy.win_probabilities(rules, [start, start])[0][1]
    assert truth > 0.05 and row["gain_low"] <= truth <= row["gain_high"] and row["meets_target"]
    assert row["p_value"] < 1e-6


def test_an_arena_with_seats_plays_the_candidate_only_there():
    arena = tune.Arena(nightsim, nightsim.Rules(players=3), 3, seats=(2,))
    rows = arena.scores(PlainGreedy(), ["greedy"], deals=12, seed=8)
    assert set(rows["seat"]) == {2} and len(rows) == 12
    full = tune.Arena(nightsim, nightsim.Rules(players=3), 3).scores(PlainGreedy(), ["greedy"], deals=12, seed=8)
    assert rows["score"].tolist() == full.loc[full["seat"] == 2, "score"].tolist()   # the same games


@pytest.mark.parametrize("seats", [(), (2,), (0, 0), (-1,), (True,), (0.5,)])
def test_bad_seats_are_a_clear_value_error(seats):
    with pytest.raises(ValueError, match="seats: distinct seat indices from 0 to 1"):
        tune.parse_seats(seats, 2)


def test_a_value_within_rounding_of_the_start_is_not_a_change():
    assert not tune.differs(0.8999999999999999, 0.9) and not tune.differs(3, 3.0)
    assert tune.differs(0.85, 0.9) and tune.differs(True, False) and tune.differs(1, 2)
    assert not tune.differs("a", "a") and tune.differs(None, 0.5)


def test_the_cli_tunes_one_seat_counted_from_one_and_refuses_a_bad_seat(run, capsys, tmp_path):
    out = tmp_path / "seat.json"
    code, stdout, err = run(capsys, "tune-policy", "nightsim", "--players", "3", "--seats", "3", "--pool", "greedy",
                            "--trials", "1", "--games-per-trial", "4", "--rungs", "1", "--confirm-games", "3",
                            "--out", str(out))
    assert code == 0, err
    data = json.loads(out.read_text())
    assert data["provenance"]["seats"] == [2] and "--seats 3" in data["provenance"]["command"]
    code, _, err = run(capsys, "tune-policy", "nightsim", "--players", "3", "--seats", "4", "--trials", "1")
    assert code == 2 and "1 to 3" in err and "Traceback" not in err
    code, _, err = run(capsys, "tune-policy", "nightsim", "--seats", "0", "--trials", "1")
    assert code == 2 and "positive integer" in err
