"""Objectives measured under conditions: one search scores several frames at once (e.g. Nerath's
alliances in the alliance game AND its realms in free-for-all), `analyses.objectives` conditions
('faction_balance@mode=free_for_all') and `analyses.rebalance_search`.

The toy game (tests/analyses/toygame.py) has exactly known win chances: `bias` multiplies seat 0's
odds, so bias = 0 is the one fair setting, both for the seats (teams=False) and for the teams
(teams=True: seats 0+2 against 1+3).
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import nerathsim
from analyses.knobs import set_values
from analyses.objectives import (
    conditions,
    make_objective,
    restrict,
    score_frames,
    side_effect_objectives,
)
from analyses.rebalance_search import (
    CONFIRM_DIR,
    CONFIRM_FILE,
    FRAMES_DIR,
    _Runner,
    _tag,
    rebalance,
    suggested_fixes,
)
from analyses.runner import simulate

TEAMS = (("teams", "true"),)


def test_a_condition_is_parsed_labelled_and_splits_a_combined_objective():
    obj = make_objective("seat_balance(tolerance=0.03)+0.5*alliance_balance(tolerance=0.02)@teams=true")
    assert conditions(obj) == [(), TEAMS]
    assert obj.label() == "seat_balance(tolerance=0.03) + 0.5 × alliance_balance(tolerance=0.02)@teams=true"
    assert restrict(obj, ()).name == "seat_balance" and restrict(obj, TEAMS).parts[0].weight == 0.5
    assert restrict(obj, (("players", "3"),)) is None
    two = make_objective("faction_balance@mode=free_for_all,players=4")
    assert two.condition == (("mode", "free_for_all"), ("players", "4"))
    # side effects are watched under every condition the objective is measured in, except its own terms
    watched = {(o.name, o.condition) for o in side_effect_objectives(None, obj)}
    assert ("seat_balance", ()) not in watched and ("alliance_balance", TEAMS) not in watched
    assert {("game_length", ()), ("game_length", TEAMS), ("seat_balance", TEAMS)} <= watched


@pytest.mark.parametrize("spec, message", [
    ("seat_balance@teams", r"a condition is FIELD=VALUE"),
    ("seat_balance@=1", r"a condition is FIELD=VALUE"),
    ("unit_value_parity@mode=free_for_all", r"plays no games, so it takes no condition"),
])
def test_bad_conditions_are_refused_when_parsed(spec, message):
    with pytest.raises(ValueError, match=message):
        make_objective(spec)


def test_a_condition_naming_an_unknown_field_is_refused_before_any_game(toy):
    with pytest.raises(ValueError, match=r"condition '@nope=1'.*nope"):
        rebalance(toy, "seat_balance+seat_balance@nope=1", knobs="bias=0:0.5:0.5", policies="random", budget=1)


def test_score_frames_scores_each_term_on_its_own_conditions_frame(toy):
    obj = make_objective("seat_balance+2*alliance_balance@teams=true")
    plain = simulate(toy, 400, rules=toy.Rules(bias=1.0), policies="random", seed=3, progress=False)
    team = simulate(toy, 400, rules=toy.Rules(bias=1.0, teams=True), policies="random", seed=3, progress=False)
    rules = {(): toy.Rules(bias=1.0), TEAMS: toy.Rules(bias=1.0, teams=True)}
    got = score_frames(obj, {(): plain, TEAMS: team}, rules)
    seat = make_objective("seat_balance").score(plain)
    alliance = make_objective("alliance_balance").score(team)
    assert got == pytest.approx(seat + 2 * alliance) and alliance > 0.05      # bias 1 favours team 0+2


def test_the_search_balances_two_conditions_at_once_and_the_confirmation_covers_the_truth_in_each(toy, tmp_path):
    # the seats of the plain game and the teams of the team game; bias = 0 is fair in both
    result = rebalance(toy, "seat_balance(tolerance=0.03)+alliance_balance(tolerance=0.03)@teams=true",
                       knobs="bias=-0.5:1:0.5", rules={"bias": 1.0}, policies="random", budget=12,
                       first_games=300, rungs=2, confirm_games=5000, seed=5, store=tmp_path / "s")
    assert result.proposal.set_index("knob").loc["bias", "proposed"] == 0.0      # the known best setting
    table = result.table.set_index("measure")
    seats = [f"seat {s} win rate" for s in range(4)]
    team_rows = [m for m in table.index if m.startswith("[teams=true] ")]
    assert set(seats) <= set(table.index) and len(team_rows) == 2                 # both frames in one table
    truth_seat, timeout = toy.win_probabilities(toy.Rules(bias=0.0), ["random"] * 4)
    truth_team, timeout_team = toy.win_probabilities(toy.Rules(bias=0.0, teams=True), ["random"] * 4)
    truth = {**{m: truth_seat[s] / (1 - timeout) for s, m in enumerate(seats)},
             **{m: truth_team[0] / (1 - timeout_team) for m in team_rows}}
    for measure, value in truth.items():
        assert table.loc[measure, "after_low"] <= value <= table.loc[measure, "after_high"], measure
        assert table.loc[measure, "n"] >= 4990
    assert result.meets and not table.loc["seat 0 win rate", "within_before"]
    assert not table.loc[team_rows, "within_before"].all()                     # bias 1: team 0+2 too strong
    assert result.confirm_sizes == {"": 5000, "teams=true": 5000}
    assert "5,000 as given, 5,000 [teams=true]" in result.to_text()
    side = result.side_effects
    assert {"game_length"} <= set(side["objective"])
    assert any(m.startswith("[teams=true] mean turns") for m in side["measure"])   # side effects in both frames
    stored = json.loads((tmp_path / "s" / CONFIRM_FILE).read_text(encoding="utf-8"))
    assert stored["confirm_sizes"] == {"": 5000, "teams=true": 5000} and stored["meets"]


def test_a_condition_may_change_the_player_count_and_the_lineup_follows(toy):
    result = rebalance(toy, "seat_balance(tolerance=0.05)@players=3", knobs="bias=0:0.5:0.5", rules={"bias": 0.5},
                       policies="random", budget=2, first_games=200, rungs=1, confirm_games=600, seed=1)
    measures = list(result.table["measure"])
    assert measures == [f"[players=3] seat {s} win rate" for s in range(3)]


def test_a_resumed_search_replays_no_saved_game_and_a_stopped_confirmation_resumes_from_its_chunks(toy, tmp_path):
    options = dict(objective="seat_balance(tolerance=0.03)+alliance_balance(tolerance=0.03)@teams=true",
                   knobs="bias=0:0.5:0.5", rules={"bias": 0.5}, policies="random", budget=2, first_games=100,
                   rungs=1, confirm_games=2500, seed=7, store=tmp_path / "s")
    first = rebalance(toy, **options)
    chunks = sorted((tmp_path / "s" / CONFIRM_DIR).glob("*.parquet"))
    assert len(chunks) == 2 * 2 * 3                     # 2 conditions x 2 sides x 3 chunks (1000, 1000, 500)
    chunks[-1].unlink()                                 # as if the run had been stopped before its last chunk
    again = rebalance(toy, **{**options, "resume": True})
    assert len(list((tmp_path / "s" / FRAMES_DIR).glob("*.parquet"))) == 2 * 2   # 2 settings x 2 conditions
    # the resumed run reads every search game from the store and plays only the missing chunk
    assert again.timing["games"] == 500
    cols = ["before", "after", "before_low", "after_high"]
    assert np.allclose(first.table[cols].to_numpy(float), again.table[cols].to_numpy(float))


def test_candidates_whose_rules_print_alike_are_kept_apart_by_their_knob_values():
    # Nerath's Board prints only its name and size: two starting golds give the same repr, so the
    # search keys its games by the knob values as well (the cache once served one frame to all)
    base = nerathsim.Rules()
    rich = set_values(nerathsim, base, {"map.realm_gold.karkoth": 30})
    poor = set_values(nerathsim, base, {"map.realm_gold.karkoth": 0})
    assert repr(rich) == repr(poor)
    run = _Runner(nerathsim, ("random",) * 4, 0, 1, None, None, "rotate", "python")
    a = run.frame(rich, 2, tag=_tag({"map.realm_gold.karkoth": 30}))
    b = run.frame(poor, 2, tag=_tag({"map.realm_gold.karkoth": 0}))
    assert run.played == 4
    assert (a["seat0_gold_spent"] != b["seat0_gold_spent"]).any()


def test_the_suggested_fixes_of_a_stored_study_read_dotted_knob_paths(tmp_path):
    # Nerath's knobs are dotted paths ('battle.units.monster.cost'), which are not attribute names
    rebalance(nerathsim, "unit_value_parity(units=monster)", knobs="battle.units.monster.cost=2:4:1", budget=3,
              store=tmp_path / "s")
    fixes = suggested_fixes(tmp_path / "s")
    assert len(fixes) == 3 and fixes["verdict"].str.startswith("proposal; exact").sum() == 1
    assert fixes["change"].str.contains("battle.units.monster.cost: 3 → ").sum() == 2
