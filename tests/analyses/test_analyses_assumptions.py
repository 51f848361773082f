"""Each claim's robustness line: luck, skill and our readings of the rules (hand-built tables)."""
import types

import pandas as pd

from analyses.multiplicity import Family
from analyses.robustness import assumptions_line, robustness
from reports.sensitivity import readings_table, rungs_table, sensitivity_view


def _sens(rows, games=100):
    """A sensitivity table: (decision, field, alternative, quantity, default, diff, low, high, p_holm)."""
    table = pd.DataFrame(rows, columns=["decision", "field", "alternative", "quantity", "default", "diff", "ci_low",
                                        "ci_high", "p_holm"])
    table["value"] = table["default"] + table["diff"]
    table["games"], table["p_value"] = games, table["p_holm"]
    table.attrs = {"players": 4, "seat_order": "fixed"}
    return table


TABLE = _sens([("D-a", "fa", "x", "seat 1 win rate", 0.30, 0.14, 0.05, 0.23, 0.01),
               ("D-a", "fa", "x", "seat 2 win rate", 0.20, -0.02, -0.09, 0.05, 1.0),
               ("D-a", "fa", "x", "turns", 20.0, 4.1, 2.0, 6.2, 0.001),
               ("D-b", "fb", "'y'", "seat 1 win rate", 0.30, -0.22, -0.32, -0.12, 0.002),
               ("D-b", "fb", "'y'", "seat 2 win rate", 0.20, 0.05, -0.02, 0.12, 0.9),
               ("D-b", "fb", "'y'", "turns", 20.0, 0.1, -1.0, 1.2, 1.0),
               ("D-c", "fc", "1", "seat 1 win rate", 0.30, -0.03, -0.10, 0.04, 1.0),
               ("D-c", "fc", "1", "seat 2 win rate", 0.20, 0.09, 0.01, 0.17, 0.2),
               ("D-c", "fc", "1", "turns", 20.0, 0.0, -1.0, 1.0, 1.0)])

TEAMS = pd.DataFrame({"team": ["karkoth + iron_circle", "vailin + nerath"], "seats": ["0+2", "1+3"],
                      "win_rate": [0.3, 0.7]})


def _game(team=False):
    return types.SimpleNamespace(game="g", main_policy="greedy", team_game=team, teams=TEAMS if team else pd.DataFrame(),
                                 family=Family(9))


def _claim(source, key, status="confirmed"):
    return pd.Series({"source": source, "key": key, "status": status})


def test_a_claim_that_a_reading_moves_names_the_decision_the_shift_and_the_value_under_it():
    line = assumptions_line(_claim("fpa_seats", '{"lineup": "g", "seat": 0}'), _game(), TABLE)
    assert line.startswith("Assumptions: depends on D-b (fb = 'y'): -22.0 pts [-32.0, -12.0], 8.0% under it against 30.0%")
    assert "; D-a (fa = x): +14.0 pts [+5.0, +23.0], 44.0% under it against 30.0% (p = 0.01)" in line   # by size
    assert "Holm-adjusted over the 9 tests of the sensitivity table, 100 paired games an arm" in line
    assert "D-c" not in line


def test_a_claim_no_reading_moves_holds_and_shows_its_largest_shift():
    line = assumptions_line(_claim("fpa_seats", '{"lineup": "g", "seat": 1}'), _game(), TABLE)
    assert line.startswith("Assumptions: holds under every alternative reading (3 decisions, 3 alternatives, 100 "
                           "paired games each)")
    assert "the largest shift, D-c (fc = 1), is +9.0 pts [+1.0, +17.0] (p = 0.20" in line


def test_an_alliance_claim_reads_its_first_seat_and_other_claims_are_not_re_measured():
    team = assumptions_line(_claim("teams", '{"team": "karkoth + iron_circle"}'), _game(True), TABLE)
    assert "depends on D-b" in team
    policy = assumptions_line(_claim("by_policy", '{"policy": "a"}'), _game(), TABLE)
    assert policy.startswith("Assumptions: not re-measured")
    missing = assumptions_line(_claim("fpa_seats", '{"lineup": "g", "seat": 0}'), _game(), None)
    assert "no sensitivity run of this policy is shipped" in missing and "--policies greedy" in missing


def test_one_robustness_line_says_luck_then_skill_then_assumptions():
    claim = _claim("fpa_seats", '{"lineup": "g", "seat": 0}', status="not confirmed")
    line = robustness(claim, _game(), None, TABLE)
    assert line.startswith("Robustness — Luck: not confirmed on a fresh run (above). Skill: this game has no skill "
                           "ladder")
    assert line.index("Luck:") < line.index("Skill:") < line.index("Assumptions: depends on D-b")
    assert "Luck: confirmed on a fresh run" in robustness(_claim("fpa_seats", '{"seat": 0}'), _game(), None, TABLE)
    assert "Luck: not yet confirmed" in robustness(_claim("fpa_seats", '{"seat": 0}', "no confirmation run"),
                                                   _game(), None, TABLE)


def test_the_readings_table_has_the_published_values_then_one_row_per_alternative_with_marked_shifts():
    table = readings_table(_game(), TABLE)
    assert list(table.columns) == ["decision", "alternative", "seat 1 win rate", "seat 2 win rate", "game length"]
    assert table.iloc[0].tolist()[:3] == ["published reading", "(as played)", "30.0% [21.9, 39.6]"]
    assert table.iloc[0]["game length"] == "20.0 turns"
    b = table[table["decision"] == "D-b"].iloc[0]
    assert b["alternative"] == "fb = 'y'" and b["seat 1 win rate"] == "-22.0 pts [-32.0, -12.0] *"
    assert b["seat 2 win rate"] == "+5.0 pts [-2.0, +12.0]"
    alliances = readings_table(_game(True), TABLE)
    assert "karkoth + iron circle win rate" in alliances.columns and "seat 1 win rate" not in alliances.columns


def test_the_rungs_table_gives_the_weakest_alliance_at_every_policy_and_each_reading_on_it():
    other = TABLE.copy()
    other["default"], other["diff"] = 0.5, 0.0
    other.attrs = dict(TABLE.attrs)
    g = _game(True)
    frame = rungs_table(g, {"balanced": TABLE, "tuned": other})
    assert frame.attrs["unit"] == "karkoth + iron circle win rate"
    assert list(frame.columns) == ["decision", "alternative", "balanced (100 games an arm)", "tuned (100 games an arm)"]
    assert frame.iloc[0, 2:].tolist() == ["30.0% [21.9, 39.6]", "50.0% [40.4, 59.6]"]
    assert frame.set_index("decision").loc["D-b", "balanced (100 games an arm)"] == "-22.0 pts [-32.0, -12.0] *"
    assert rungs_table(g, {"balanced": TABLE}) is None
    view = sensitivity_view(types.SimpleNamespace(**vars(g), sensitivity={"tuned": other, "greedy": TABLE}), str)
    assert [t["title"] for t in view["tables"]] == ["greedy in every seat (the report's policy)",
                                                    "tuned in every seat (another policy)"]
    assert view["rungs"] is not None and "3 decisions, 3 alternatives, 100 paired games an arm" in view["summary"]
    assert sensitivity_view(types.SimpleNamespace(**vars(g), sensitivity={}), str) is None


def test_an_alliance_claim_is_checked_on_the_ladder_rows_of_its_alliance():
    ladder = pd.DataFrame([("seat 1 (karkoth + iron circle): win rate − fair share", "seat", "balanced", 0.0, 400,
                            -20.0, 1e-6, "two-sided exact binomial test"),
                           ("seat 2 (vailin + nerath): win rate − fair share", "seat", "balanced", 0.0, 400, 20.0,
                            1e-6, "two-sided exact binomial test")],
                          columns=["finding", "kind", "rung", "elo", "games", "estimate", "p_family", "test"])
    ladder["verdict"] = "significantly below 0"
    claim = _claim("teams", '{"team": "karkoth + iron_circle"}')
    line = robustness(claim, _game(True), ladder, TABLE)
    assert "Skill: checked in self-play at every rung" in line and "balanced (400 games) -20.0 points" in line
    assert "+20.0 points" not in line


def test_a_rung_without_a_decided_game_says_so_instead_of_a_number():
    ladder = pd.DataFrame([("seat 1 (karkoth + iron circle): win rate − fair share", "seat", "random", 0.0, 400,
                            float("nan"), float("nan"), ""),
                           ("seat 1 (karkoth + iron circle): win rate − fair share", "seat", "balanced", 900.0, 400,
                            -20.0, 1e-6, "two-sided exact binomial test")],
                          columns=["finding", "kind", "rung", "elo", "games", "estimate", "p_family", "test"])
    ladder["verdict"] = "significantly below 0"
    line = robustness(_claim("teams", '{"team": "karkoth + iron_circle"}'), _game(True), ladder, TABLE)
    assert "random (400 games): not measured (no game decided)" in line and "nan" not in line


def test_rotated_runs_show_the_published_rate_without_an_independent_games_interval():
    rotated = TABLE.copy()
    rotated.attrs = dict(TABLE.attrs, seat_order="rotate")
    assert readings_table(_game(), rotated).iloc[0]["seat 1 win rate"] == "30.0%"
