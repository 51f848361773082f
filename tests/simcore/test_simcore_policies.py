"""Policy resolution and tuning shared by the games (`simcore.policies`)."""
from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

import dreamsim
import nerathsim
import nightsim
from simcore.policies import policy_name, resolve_policies, tuned_from_file, weight_tuning


@dataclass(frozen=True)
class W:
    pure: float = 1.0
    greed: float = 2.0


@dataclass(frozen=True)
class Heur:
    weights: W
    name: str = "heur"

    def __call__(self, obs, legal, rng):
        return legal[0]


def first(obs, legal, rng):
    return legal[0]


REGISTRY = {"heur": Heur(W()), "first": first}


def with_weight_params(policy, params, name, policy_class, game):
    return weight_tuning(policy_class, game, REGISTRY, "unused.json")[0](policy, params, name)


def test_names_become_the_registered_policies_and_callables_stay():
    own = Heur(W(3.0), "own")
    assert resolve_policies(["heur", own, "first"], 3, REGISTRY) == [REGISTRY["heur"], own, first]


@pytest.mark.parametrize("policies, players, message", [
    ("heur", 1, "must be a list with one policy"),
    (b"heur", 1, "must be a list with one policy"),
    (iter(["heur"]), 1, "must be a list with one policy"),
    (["heur"], 2, "1 given for 2 players; give exactly one per seat"),
    (["heur", "nope"], 2, "unknown policy 'nope'; known: first, heur"),
    (["heur", 7], 2, "7 is neither a policy name nor callable"),
])
def test_bad_line_ups_are_refused_with_one_line_naming_the_problem(policies, players, message):
    with pytest.raises(ValueError, match=message) as err:
        resolve_policies(policies, players, REGISTRY)
    assert "\n" not in str(err.value)


def test_policy_name_is_the_name_attribute_or_the_repr():
    assert policy_name(Heur(W(), "bold")) == "bold"
    assert policy_name(Heur(W(), "")) == repr(Heur(W(), ""))
    assert policy_name(first) == repr(first)


def test_with_weight_params_sets_floats_and_keeps_or_replaces_the_name():
    base = Heur(W())
    got = with_weight_params(base, {"weights.greed": 5}, None, Heur, "toy")
    assert got == Heur(W(1.0, 5.0), "heur") and isinstance(got.weights.greed, float)
    assert with_weight_params(base, {}, "copy", Heur, "toy") == Heur(W(), "copy")
    assert base == Heur(W())   # the original is untouched


def test_with_weight_params_refuses_unknown_parameters_and_other_policies():
    with pytest.raises(ValueError, match=r"unknown toy policy parameter 'weights.nope'; parameters: "
                                         r"weights.pure, weights.greed"):
        with_weight_params(Heur(W()), {"weights.nope": 1.0}, None, Heur, "toy")
    with pytest.raises(ValueError, match="unknown toy policy parameter 'pure'"):
        with_weight_params(Heur(W()), {"pure": 1.0}, None, Heur, "toy")
    with pytest.raises(ValueError, match="only a toy Heur has tunable parameters"):
        with_weight_params(first, {}, None, Heur, "toy")


def test_tuned_from_file_applies_the_stored_parameters_to_the_start_policy(tmp_path):
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps({"start": "heur", "params": {"weights.pure": 0.5}, "extra": [1]}), encoding="utf-8")
    apply = lambda p, params, name: with_weight_params(p, params, name, Heur, "toy")   # noqa: E731
    tuned, data = tuned_from_file(path, REGISTRY, apply)
    assert tuned == Heur(W(0.5, 2.0), "tuned") and data["extra"] == [1]
    path.write_text(json.dumps({"start": "heur", "params": {}, "name": "mine"}), encoding="utf-8")
    assert tuned_from_file(path, REGISTRY, apply)[0].name == "mine"


@pytest.mark.parametrize("game", [nightsim, dreamsim, nerathsim])
def test_every_game_refuses_an_unknown_policy_naming_its_own(game):
    rules = game.Rules(players=2) if game is not nerathsim else game.Rules()
    with pytest.raises(ValueError, match=r"unknown policy 'nobody'; known: .*random"):
        game.play_game(rules, ["nobody"] * rules.players, 0)


@pytest.mark.parametrize("game, key", [(nightsim, "weights.pure"), (dreamsim, "weights.hinder")])
def test_the_games_with_params_name_their_game(game, key):
    pol = game.with_params(game.POLICIES["heuristic"], {key: 3.0}, name="x")
    assert pol.name == "x" and getattr(pol.weights, key.split(".")[1]) == pytest.approx(3.0)
    with pytest.raises(ValueError, match=f"unknown {game.__name__} policy parameter"):
        game.with_params(game.POLICIES["heuristic"], {"weights.zzz": 1.0})


def test_weight_tuning_gives_a_games_with_params_and_load_tuned(tmp_path):
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps({"start": "heur", "params": {"weights.greed": 4}, "name": "t"}), encoding="utf-8")
    with_params, load_tuned = weight_tuning(Heur, "toy", REGISTRY, path)
    assert with_params(Heur(W()), {"weights.pure": 2}) == Heur(W(2.0, 2.0), "heur")
    assert load_tuned() == Heur(W(1.0, 4.0), "t") == load_tuned(path)
    with pytest.raises(ValueError, match="unknown toy policy parameter"):
        with_params(Heur(W()), {"weights.x": 1})
