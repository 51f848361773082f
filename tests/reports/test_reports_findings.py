"""Findings, team framing, impact and plain words: hand-built tables with exact expected text."""
import re
import types

import numpy as np
import pandas as pd
import pytest

import nightsim
from analyses.card_impact import card_impact, split_outcomes
from analyses.findings import _Collector, _fixes, ci, p_text, pct, sort_findings, study_findings
from analyses.fixes import Fix, fix_effects
from analyses.study import PARTNER_ORDERS, PLANS, _run_setup, describe_sizes, run_sizes, simulate_study
from analyses.teams import teams
from reports.words import policy_parameters, present


def test_p_values_read_as_words():
    assert p_text(1e-40) == "p < 0.001"
    assert p_text(0.0034) == "p = 0.003"
    assert p_text(0.21) == "p = 0.21"
    assert pct(0.2093) == "20.9%" and ci(0.195, 0.2243) == "[19.5, 22.4]"


def test_findings_are_sorted_significant_first_by_effect_size_and_not_found_last():
    t = pd.DataFrame({"kind": ["trust", "impact", "seat", "not_found", "policy", "length"],
                      "effect": [np.nan, 2.0, -4.1, 0.5, 15.0, np.nan],
                      "significant": [False, True, True, False, True, False]})
    assert list(sort_findings(t)["kind"]) == ["policy", "seat", "impact", "length", "not_found", "trust"]


def _team_games(winners, n_players=4):
    rows = {"winner": pd.Series(winners, dtype="string"), "timed_out": [False] * len(winners)}
    for s in range(n_players):
        rows[f"seat{s}_policy"] = "balanced"
        rows[f"seat{s}_faction"] = ["karkoth", "vailin", "iron_circle", "nerath"][s]
    return pd.DataFrame(rows)


def test_alliances_not_seats_are_the_unit_of_a_team_game():
    df = _team_games(["0+2"] * 3 + ["1+3"] * 7)
    t = teams(df).set_index("team")
    assert list(t.index) == ["karkoth + iron_circle", "vailin + nerath"]
    assert t.loc["karkoth + iron_circle", "win_rate"] == pytest.approx(0.3)
    assert t.loc["vailin + nerath", "games"] == 10 and t.loc["vailin + nerath", "expected"] == 0.5


def test_the_nerath_mixed_table_gives_every_policy_every_partner():
    plan = PLANS["nerathsim"]
    sizes = run_sizes(plan, 3000)
    mixed = [r for r in sizes if r.startswith("mixed")]
    assert len(mixed) == len(PARTNER_ORDERS)
    partners = {p: set() for p in plan.pool}
    for run in mixed:
        _, lineup = _run_setup(plan, run, 4)
        for a, b in ((0, 2), (1, 3)):                       # seats 0+2 and 1+3 are allies
            partners[lineup[a]].add(lineup[b])
            partners[lineup[b]].add(lineup[a])
    assert all(others == set(plan.pool) - {p} for p, others in partners.items())


def test_a_game_without_teams_keeps_one_mixed_run():
    assert [r for r in run_sizes(PLANS["nightsim"], 400) if r.startswith("mixed")] == ["mixed"]


def _impact_frame():
    """4 seats x 40 games: 'completed' decides the winner; 'catch' and 'intercepts' are the same seats."""
    rng = np.random.default_rng(1)
    rows = []
    for game in range(40):
        winner = game % 4
        row = {"winner": winner, "timed_out": False}
        for s in range(4):
            row[f"seat{s}_policy"] = "heuristic"
            row[f"seat{s}_completed"] = 5 if s == winner else int(rng.integers(0, 5))
            flag = int((game + s) % 3 == 0)
            row[f"seat{s}_played_catcher"] = flag
            row[f"seat{s}_intercepts"] = 2 * flag
            row[f"seat{s}_discards"] = int(rng.integers(0, 3))
        rows.append(row)
    df = pd.DataFrame(rows)
    df["winner"] = df["winner"].astype("Int8")
    return df


def test_outcome_like_stats_are_shown_apart_and_duplicate_rows_merge():
    impact = card_impact(_impact_frame()).impact
    causes, outcomes = split_outcomes(impact)
    assert list(outcomes["stat"]) == ["completed"]
    assert "played_catcher = intercepts" in set(causes["stat"])
    assert "intercepts" not in set(causes["stat"])


def test_tables_read_in_plain_words():
    df = pd.DataFrame({"players": [4, 4], "lineup": ["g+g", "g+g"], "seat": [0, 3], "seats": [1, 1],
                       "games": [3000, 3000], "win_rate": [0.2093, 0.3], "ci_low": [0.195, 0.28],
                       "ci_high": [0.2243, 0.32], "expected": [0.25, 0.25], "effect_pp": [-4.07, 5.0],
                       "p_value": [7.884e-40, 0.21]})
    shown = present(df)
    assert list(shown.columns) == ["seat", "games", "win rate [95% interval]", "fair share",
                                   "difference from fair share", "p-value (unadjusted)"]
    assert shown.iloc[0].tolist() == ["1", "3,000", "20.9% [19.5, 22.4]", "25.0%", "-4.1 points", "< 0.001"]
    assert shown.iloc[1]["p-value (unadjusted)"] == "0.21"


def test_policies_are_named_with_their_parameters_in_words():
    text = "WarPolicy(name='balanced', attack_threshold=0.6, retreat_below=0.25)"
    assert policy_parameters(text) == "attack threshold 0.6, retreat below 0.25"


def _seat_games(winners, players=4):
    df = pd.DataFrame({"winner": pd.array(winners, dtype="Int8"), "timed_out": [False] * len(winners)})
    for s in range(players):
        df[f"seat{s}_policy"] = "greedy"
    return df


def test_a_rule_change_is_measured_on_the_same_deals_against_the_fair_share():
    before = _seat_games([3 if i < 2 else i % 3 for i in range(60)])          # seat 4 wins 2 of 60
    after = _seat_games([3 if i < 15 else i % 3 for i in range(60)])          # ... and 15 of 60 after
    fix = Fix("last_seat", "last_seat_extra_cards", 1, "deal the last seat one extra card")
    row = fix_effects(before, {fix.run: after}, [fix]).iloc[0]
    assert (row["measure"], row["games"], row["expected"]) == ("seat 4 of 4 wins", 60, 0.25)
    assert row["before"] == pytest.approx(2 / 60) and row["after"] == pytest.approx(15 / 60)
    assert row["diff_pp"] == pytest.approx(100 * 13 / 60) and row["p_value"] < 0.001 and row["closer"]
    worse = fix_effects(after, {fix.run: before}, [fix]).iloc[0]
    assert not worse["closer"] and worse["diff_pp"] == pytest.approx(-100 * 13 / 60)
    assert fix_effects(before, {}, [fix]).empty                                # not played: no row


def _fix_study(fixes):
    return types.SimpleNamespace(game="nightsim", title="Nightmarium", fixes=fixes, fix_ideas=())


def test_a_rule_change_finding_says_whether_it_helps_with_the_tables_numbers():
    fixes = pd.DataFrame([{"change": "deal the last seat one extra card", "field": "last_seat_extra_cards",
                           "value": "1", "trigger": "last_seat", "measure": "seat 4 of 4 wins", "games": 1500,
                           "expected": 0.25, "before": 0.217, "before_low": 0.197, "before_high": 0.239,
                           "after": 0.265, "after_low": 0.243, "after_high": 0.288, "diff_pp": 4.7,
                           "diff_low": 1.8, "diff_high": 7.7, "p_value": 0.002, "closer": True}])
    c = _Collector(_fix_study(fixes))
    _fixes(c)
    assert c.rows[0]["text"] == (
        "Rule change tried — deal the last seat one extra card: seat 4 of 4 wins 21.7% [19.7, 23.9] before, "
        "26.5% [24.3, 28.8] after, over the same 1,500 deals (+4.7 points [1.8, 7.7], p = 0.002, unadjusted); it helps: "
        "closer to a fair 25.0%.")
    c = _Collector(_fix_study(fixes.assign(p_value=0.4, closer=False)))
    _fixes(c)
    assert c.rows[0]["text"].endswith("p = 0.40, unadjusted); no clear change against a fair 25.0%.")
    assert not c.rows[0]["significant"]


def test_across_games_the_verdicts_come_first_then_the_rule_changes_tried_then_the_largest_effects():
    def f(kind, effect, significant=True, source="x"):
        return {"game": "g", "title": "G", "kind": kind, "text": f"{kind} {effect}", "effect": effect,
                "source": source, "row": 0, "numbers": "", "significant": significant}
    findings = pd.DataFrame([f("impact", 30.0), f("seat", -4.1, source="fpa_seats"), f("fix", 4.7, source="fixes"),
                             f("policy", 10.0), f("trust", np.nan, False)])
    g = types.SimpleNamespace(title="G", team_game=False, findings=findings, warnings=pd.DataFrame())
    across = study_findings({"g": g})
    assert list(across["kind"]) == ["verdict", "fix", "impact", "policy"]
    assert across.iloc[0]["text"] == "G: not balanced by seat — seat -4.1"
    assert across.iloc[1]["text"] == "G: fix 4.7"


def test_while_the_study_runs_each_game_has_one_stage_line_and_one_labelled_bar(capsys):
    simulate_study(n_games=8, games=["nightsim"], seed=0, progress=True)
    err = capsys.readouterr().err
    sizes = run_sizes(PLANS["nightsim"], 8, nightsim)
    total = sum(sizes.values())
    assert len(re.findall(r"\[1/1\] Nightmarium: [\d,]+ games — ", err)) == 1   # the stage line, once
    assert f"[1/1] Nightmarium: {total:,} games — {describe_sizes(sizes)}" in err
    assert describe_sizes(sizes) == ("main 8 · mixed 8 · fix-last_seat_extra_cards=1 8 · 6 duels × 4 · "
                                     "players 2–5: 4 × 4")
    totals = set(re.findall(r"\| *\d+/(\d+) \[", err))
    assert totals == {str(total)}                                          # one bar for the whole stage
    for label in ("main: greedy, greedy, greedy, greedy", "duel: greedy vs purist", "players=5 (greedy in every seat)",
                  "rule change: last_seat_extra_cards=1 (greedy in every seat)", "done"):
        assert label in err
