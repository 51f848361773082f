"""Automatic re-balancing (analyses.knobs, analyses.objectives, analyses.rebalance_search, `balancelab rebalance`).

The toy game (tests/analyses/toygame.py) has exactly known win chances: `bias` multiplies seat 0's
odds, so bias = 0 is the one fair setting. Nerath's unit-value parity is exact (no games).
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import analyses
import dreamsim
import nerathsim
import nightsim
from analyses import knobs as K
from analyses.objectives import change_cost, make_objective, unit_values
from analyses.rebalance_search import parse_budget, rebalance
from balancelab.cli import main
from nerathsim.battle.rules import BattleRules
from nerathsim.battle.units import Unit, UnitTable


def test_the_search_finds_the_fair_bias_of_the_toy_game_and_the_fresh_confirmation_covers_the_truth(toy):
    result = rebalance(toy, "seat_balance(tolerance=0.03)", knobs="bias=-0.5:1:0.25", rules={"bias": 0.75},
                       policies="random", budget=12, first_games=400, rungs=2, confirm_games=6000, seed=5)
    proposal = result.proposal.set_index("knob")
    assert proposal.loc["bias", "published"] == 0.75
    assert proposal.loc["bias", "proposed"] == 0.0                       # the known best setting
    truth, timeout = toy.win_probabilities(toy.Rules(bias=0.0), ["random"] * 4)
    truth = truth / (1 - timeout)                                        # rates over decided games
    table = result.table
    assert len(table) == 4 and (table["n"] >= 5990).all()
    assert ((table["after_low"] <= truth) & (truth <= table["after_high"])).all()
    assert result.meets and not table["within_before"].any()            # seat 0 was far above its share
    assert result.confirm_seed is not None and result.confirm_games == 6000
    assert "biased by selection" in result.to_text()
    assert {"game_length"} <= set(result.side_effects["objective"])     # side effects are reported
    trials = result.trials
    assert trials.loc[0, "bias"] == 0.75                                 # the published game is candidate 0
    assert (trials["state"] == "pruned").any()                           # successive halving spent fewer games


def test_common_random_numbers_every_candidate_plays_the_same_seeds(toy):
    result = rebalance(toy, "seat_balance", knobs="bias=0:0.5:0.5", rules={"bias": 0.5}, policies="random",
                       budget=2, first_games=50, rungs=1, confirm_games=50, seed=2)
    seen = {}
    for row in result.trials.itertuples():
        seen[row.bias] = row.games
    assert seen == {0.5: 50, 0.0: 50}
    run = analyses.rebalance_search._Runner(toy, ("random",) * 4, 2, 1, None, None, "rotate", None)
    a = run.frame(toy.Rules(bias=0.5), 50)
    b = run.frame(toy.Rules(bias=0.0), 50)
    assert (a["game_seed"].to_numpy() == b["game_seed"].to_numpy()).all()
    longer = run.frame(toy.Rules(bias=0.5), 120)                          # a promotion extends, never replays
    assert (longer["game_seed"].to_numpy()[:50] == a["game_seed"].to_numpy()).all() and len(longer) == 120


@pytest.mark.parametrize("spec, message", [
    ("nope=1:3:1", r"knob 'nope': unknown field of nightsim.Rules"),
    ("hand_size=3:7:0", r"knob 'hand_size': step must be positive"),
    ("hand_size=7:3:1", r"knob 'hand_size': low 7 is above high 3"),
    ("hand_size=a:7", r"knob 'hand_size': 'a' in 'a:7' is not a number"),
    ("hand_size=3:7:0.5", r"knob 'hand_size': step must be a whole number"),
    ("penalty_timing=1:2:1", r"knob 'penalty_timing': .*not numeric"),
    ("max_turns", r"knob 'max_turns': not declared by nightsim"),
    ("stager=a", r"knob 'stager': unknown field"),
    ("hand_size=5", r"knob 'hand_size': expected lo:hi:step"),
])
def test_bad_knobs_raise_a_value_error_naming_the_knob(spec, message):
    with pytest.raises(ValueError, match=message):
        K.resolve_knobs(nightsim, nightsim.Rules(), spec)


def test_bad_knobs_are_refused_before_any_game_and_by_the_command_line(toy, capsys):
    with pytest.raises(ValueError, match="knob 'bias': low 1.0 is above high 0.0"):
        rebalance(toy, knobs="bias=1:0:0.1", policies="random", budget=1)
    with pytest.raises(ValueError, match="a categorical knob needs at least two choices"):
        K.resolve_knobs(toy, toy.Rules(), {"teams": {"choices": [True]}})
    assert main(["rebalance", "nightsim", "--knobs", "nope=1:2:1", "--budget", "2"]) == 2
    assert "knob 'nope': unknown field" in capsys.readouterr().err
    with pytest.raises(ValueError, match="budget must be"):
        parse_budget("3 weeks")
    assert parse_budget("30m") == (None, 1800.0) and parse_budget(7) == (7, None)


def test_knobs_from_toml_and_json_files(tmp_path):
    toml = tmp_path / "k.toml"
    toml.write_text('[knobs.hand_size]\nlow = 4\nhigh = 6\nstep = 1\n[knobs]\nlast_seat_extra_cards = "0:2:1"\n')
    got = K.resolve_knobs(nightsim, nightsim.Rules(), K.load_knobs_file(toml))
    assert [(k.path, k.low, k.high, k.step, k.published) for k in got] == [
        ("hand_size", 4, 6, 1, 5), ("last_seat_extra_cards", 0, 2, 1, 0)]
    js = tmp_path / "k.json"
    js.write_text(json.dumps({"knobs": {"creatures_to_win": {"low": 4, "high": 6, "step": 0}}}))
    with pytest.raises(ValueError, match="knob 'creatures_to_win': step must be positive"):
        K.resolve_knobs(nightsim, nightsim.Rules(), K.load_knobs_file(js))
    bad = tmp_path / "bad.toml"
    bad.write_text("[knobs\n")
    with pytest.raises(ValueError, match="cannot parse"):
        K.load_knobs_file(bad)


def test_every_game_declares_knobs_that_exist_in_its_published_rules():
    for module in (nightsim, dreamsim, nerathsim):
        knobs = K.resolve_knobs(module, module.Rules())
        assert knobs and all(k.kind in K.KINDS for k in knobs)
        for k in knobs:
            assert k.kind == "categorical" and k.published in k.choices or k.low <= k.published <= k.high, k


def test_nerath_data_knobs_change_the_unit_table_and_the_starting_gold():
    rules = nerathsim.Rules()
    changed = K.set_values(nerathsim, rules, {"battle.units.dragon.cost": 6, "map.realm_gold.karkoth": 20})
    assert changed.battle.units["dragon"].cost == 6 and rules.battle.units["dragon"].cost == 5
    karkoth = nerathsim.REALMS.index("karkoth")
    assert changed.board.realm_gold[karkoth] == 20 and rules.board.realm_gold[karkoth] == 10
    assert nerathsim.new_game(changed, 1).gold[karkoth] == 20
    assert K.get_value(nerathsim, changed, "map.realm_income.vailin") == rules.board.realm_income[1]


def test_a_stored_study_resumes_where_it_stopped(toy, tmp_path):
    options = dict(knobs="bias=0:1:0.25", rules={"bias": 0.5}, policies="random", first_games=60, rungs=1,
                   confirm_games=60, seed=1, store=tmp_path / "study")
    first = rebalance(toy, budget=3, **options)
    assert len(first.trials) == 3
    with pytest.raises(ValueError, match="already holds a study; add --resume"):
        rebalance(toy, budget=2, **options)
    second = rebalance(toy, budget=2, resume=True, **options)
    assert len(second.trials) == 5
    assert second.trials.iloc[:3][["bias", "value"]].equals(first.trials[["bias", "value"]])
    with pytest.raises(ValueError, match="other settings"):
        rebalance(toy, budget=1, resume=True, **{**options, "seed": 2})
    with pytest.raises(ValueError, match="nothing to resume"):
        rebalance(toy, budget=1, resume=True, **{**options, "store": tmp_path / "empty"})


def test_unit_value_parity_of_a_footsoldier_twin_is_its_price_ratio():
    # a twin of the footsoldier fights `count` footsoldiers to a dead-even battle (the battle is
    # symmetric), so its value per gold is footsoldier cost / its cost, exactly
    foot = UnitTable.published()["footsoldier"]
    for cost, ratio in ((1, 1.0), (2, 0.5), (3, 1 / 3)):
        twin = Unit("twin", cost=cost, die=6, move=1)
        values = unit_values(BattleRules(units=UnitTable((foot, twin))))
        assert values["count"].tolist() == [12 // cost] * 2
        assert values["value_ratio"].to_numpy() == pytest.approx([ratio, ratio], abs=1e-6)
    hits = unit_values(BattleRules(), measure="hits", units=("siege_engine",)).set_index("role")["value_ratio"]
    assert hits["attack"] == pytest.approx((2 * 3 / 8 / 2) / (1 / 6))    # 2 d8 dice for 2 gold vs 1 d6 for 1
    assert hits["defence"] == pytest.approx((1 * 3 / 8 / 2) / (1 / 6))


def test_the_exact_parity_search_prices_the_monster_within_the_band_without_games():
    result = rebalance("nerathsim", "unit_value_parity(units=monster)", knobs="battle.units.monster.cost=1:6:1",
                       budget=8, seed=0)
    proposal = result.proposal.set_index("knob")
    assert proposal.loc["battle.units.monster.cost", "proposed"] == 2
    assert result.meets and result.confirm_seed is None
    assert not result.table["within_before"].any() and result.table["within_after"].all()


def test_objectives_parse_weighted_sums_and_change_cost_counts_moves():
    combined = make_objective("seat_balance+0.5*game_length(rel=0.2)")
    assert [p.name for p in combined.parts] == ["seat_balance", "game_length"]
    assert combined.parts[1].weight == 0.5 and combined.parts[1].param("rel") == 0.2
    with pytest.raises(ValueError, match="unknown objective 'fun'"):
        make_objective("fun")
    knobs = K.resolve_knobs(nightsim, nightsim.Rules(), "hand_size=3:7:1,last_seat_extra_cards=0:2:1")
    assert change_cost(knobs, {"hand_size": 5, "last_seat_extra_cards": 0}) == 0
    assert change_cost(knobs, {"hand_size": 7, "last_seat_extra_cards": 1}) == pytest.approx(2 + 0.5 + 0.5)


def test_the_command_line_prints_the_diff_the_table_and_the_side_effects(capsys):
    code = main(["rebalance", "toygame", "--knobs", "bias=0:0.5:0.5", "--rule", "bias=0.5", "--policies", "random",
                 "--budget", "2", "--first-games", "100", "--rungs", "1", "--confirm-games", "400"])
    out = capsys.readouterr().out
    assert code == 0
    assert "- bias = 0.5\n  + bias = 0.0" in out
    assert "before / after (confirmation run: 400 fresh games each" in out
    assert "side effects on the other objectives" in out and "game_length" in out
    assert np.isfinite(float(out.split("search score of the proposal: ")[1].split()[0]))


def test_a_large_space_is_sampled_by_tpe_on_the_knob_grid(toy):
    knobs = K.resolve_knobs(toy, toy.Rules(), "bias=0:1:0.0001,edge=0:1:0.5")
    assert analyses.rebalance_search.small_grid(knobs) == []            # 10,001 x 3 settings: too many to list
    result = rebalance(toy, "seat_balance", knobs=knobs, rules={"bias": 0.5}, policies="random", budget=6,
                       first_games=40, rungs=1, confirm_games=40, seed=3)
    trials = result.trials
    assert len(trials) == 6 and trials.loc[0, "bias"] == 0.5            # published first, then sampled
    assert trials["bias"].between(0, 1).all() and np.allclose(trials["bias"] * 10_000, (trials["bias"] * 10_000).round())
    assert set(trials["edge"]) <= {0.0, 0.5, 1.0}


def test_the_report_from_a_stored_study_shows_the_suggested_fixes(tmp_path):
    runs = tmp_path / "runs"
    assert main(["report", "--games", "8", "--only", "nightsim", "--jobs", "1", "--no-progress",
                 "--save", str(runs), "--out", str(tmp_path / "first.html")]) == 0
    result = rebalance("nightsim", "seat_balance", knobs="last_seat_extra_cards=0:1:1", policies="greedy", budget=2,
                       first_games=8, rungs=1, confirm_games=8, store=runs / "nightsim" / "rebalance")
    fixes = analyses.rebalance_search.suggested_fixes(runs / "nightsim" / "rebalance")
    assert len(fixes) == 2 and set(fixes["knobs_moved"]) == {0, 1}
    changed = result.proposal.loc[0, "proposed"] != 0
    row = fixes[fixes["knobs_moved"] == int(changed)].iloc[0]
    assert row["verdict"].startswith("proposal; confirmation run (8 fresh games)")
    assert main(["report", "--from", str(runs), "--out", str(tmp_path / "again.html"), "--no-stored"]) == 0
    html = (tmp_path / "again.html").read_text(encoding="utf-8")
    assert "Suggested fixes" in html and "last seat extra cards: 0 → 1" in html   # the report writes words


def test_with_max_knobs_the_sampler_chooses_which_knobs_move_and_wastes_no_candidate(toy):
    knobs = K.resolve_knobs(toy, toy.Rules(), "bias=0:1:0.0001,edge=0:1:0.5")
    assert analyses.rebalance_search.knob_subsets(knobs, 1) == ["none", "bias", "edge"]
    assert analyses.rebalance_search.knob_subsets(knobs, 2) is None      # every knob may move anyway
    result = rebalance(toy, "seat_balance", knobs=knobs, rules={"bias": 0.5, "edge": 0.5}, policies="random",
                       budget=10, first_games=40, rungs=1, confirm_games=40, seed=3, max_knobs=1)
    trials = result.trials
    moved = (trials["bias"] != 0.5).astype(int) + (trials["edge"] != 0.5).astype(int)
    assert len(trials) == 10 and (moved <= 1).all() and (moved == 1).sum() >= 5
    assert (trials["invalid"] == "").all() and (trials["state"] == "complete").all()
    assert int(result.proposal["changed"].sum()) <= 1
