"""A claim measured again, the order of the findings, the number formats and the robustness line: hand-built
tables with the exact sentences (the confirmation's sign rule, duel claims, the skill ladder, luck and the
readings of the rules)."""
import types

import numpy as np
import pandas as pd
import pytest

from analyses.findings import (
    NO_CONFIRMATION,
    NOT_CONFIRMED,
    confirm,
    formatted_numbers,
    p_column,
    sort_findings,
    study_findings,
    words,
)
from analyses.findings_confirm import _confirmed_first
from analyses.ladder_stats import MIN_RUNG_GAMES
from analyses.robustness import assumptions_line, luck_line, robustness, skill_text, with_ladders
from analyses.study import GameStudy, Study


def robustness_line(finding, ladder):
    """The skill part alone, as a line: 'Robustness — checked in self-play ...' (`skill_text`)."""
    checked, text = skill_text(finding, ladder)
    return ("Robustness — " if checked else "Robustness: ") + text


def _claims(*rows):
    """Selected claims (source, key, effect) as `game_findings` leaves them before the confirmation."""
    return pd.DataFrame([{"kind": "policy", "text": "Claim.", "effect": e, "source": s, "key": k, "selected": True,
                          "significant": True, "status": "", "confirm_row": -1, "confirm_numbers": ""}
                         for s, k, e in rows] + [{"kind": "trust", "text": "Trust.", "effect": np.nan, "source": "",
                                                  "key": "", "selected": False, "significant": False, "status": "",
                                                  "confirm_row": -1, "confirm_numbers": ""}])


def test_a_duel_claim_is_confirmed_only_when_every_fresh_duel_is_won_its_weakest_one_shown():
    duels = pd.DataFrame({"policy": ["greedy", "greedy", "random"], "opponent": ["random", "balanced", "greedy"],
                          "win_rate": [0.8, 0.45, 0.2], "ci_low": [0.75, 0.40, 0.15], "ci_high": [0.85, 0.5, 0.25],
                          "games": [300, 400, 300], "p_value": [1e-6, 0.02, 1e-6]})
    claims = _claims(("matrix", '{"policy": "greedy"}', 10.0))
    lost = confirm(claims, types.SimpleNamespace(matrix=duels))
    assert lost.loc[0, "text"] == (
        "Claim. Confirmation run: against balanced 45.0% [40.0, 50.0] of 400 fresh games (the largest of its duels' "
        "p = 0.02, Holm-adjusted over this game's 1 confirmation test(s)) — not confirmed: the fresh games point the "
        "other way.")
    assert lost.loc[0, "status"] == NOT_CONFIRMED and not lost.loc[0, "significant"] and lost.loc[0, "confirm_row"] == 1
    won = confirm(claims, types.SimpleNamespace(matrix=duels.assign(win_rate=[0.8, 0.55, 0.2])), method="bh")
    assert won.loc[0, "text"].endswith("of 400 fresh games (the largest of its duels' p = 0.02, Benjamini–Hochberg-"
                                       "adjusted over this game's 1 confirmation test(s)) — confirmed.")
    assert won.loc[0, "status"] == "confirmed" and won.loc[0, "significant"]
    assert won.loc[1, "status"] == "" and won.loc[1, "text"] == "Trust."
    even = confirm(claims, types.SimpleNamespace(matrix=duels.assign(win_rate=[0.8, 0.5, 0.2])))
    assert even.loc[0, "text"].endswith("— not confirmed: read the first run's result as chance.")   # a drawn duel


def test_a_claim_the_fresh_run_does_not_measure_leaves_the_next_one_measured():
    fresh = pd.DataFrame({"policy": ["a"], "win_rate": [0.3], "ci_low": [0.28], "ci_high": [0.32], "games": [900],
                          "effect_pp": [0.0], "p_value": [1e-9], "test": [np.nan]})
    claims = _claims(("fpa_seats", '{"seat": 0}', 5.0), ("by_policy", '{"nation": "a"}', 5.0),
                     ("by_policy", '{"policy": "a"}', 5.0))
    out = confirm(claims, types.SimpleNamespace(by_policy=fresh))
    assert list(out["status"]) == [NOT_CONFIRMED, NOT_CONFIRMED, NOT_CONFIRMED, ""]
    assert out.loc[0, "text"] == out.loc[1, "text"] == "Claim. Not confirmed: the confirmation run did not measure it."
    assert out.loc[2, "text"] == (              # a fresh estimate of exactly 0 points confirms nothing
        "Claim. Confirmation run: 30.0% [28.0, 32.0] of 900 fresh games (+0.0 points, p < 0.001, Holm-adjusted over "
        "this game's 3 confirmation test(s)) — not confirmed: read the first run's result as chance.")
    assert out.loc[2, "confirm_row"] == 0 and out.loc[0, "confirm_row"] == -1
    none = _claims(("fpa_seats", '{"seat": 0}', 5.0)).assign(selected=False)
    assert confirm(none, None).equals(none)


def test_significant_findings_come_first_by_size_then_the_rest_then_not_found_and_trust():
    t = pd.DataFrame({"kind": ["length", "event", "impact", "seat", "trust", "policy", "not_found", "impact"],
                      "effect": [np.nan, 0.5, -3.0, 3.0, np.nan, 1.0, 9.0, -0.2],
                      "significant": [False, False, True, True, False, False, False, False]})
    assert list(sort_findings(t)["kind"]) == ["seat", "impact", "policy", "event", "impact", "length", "not_found",
                                              "trust"]
    assert list(sort_findings(t)["effect"].fillna(0)) == [3.0, -3.0, 1.0, 0.5, -0.2, 0.0, 9.0, 0.0]
    assert sort_findings(t.iloc[:0]).empty


def test_a_confirmed_rule_change_follows_the_last_significant_imbalance():
    t = pd.DataFrame({"kind": ["seat", "seat", "impact", "seat", "fix"], "significant": [True, True, True, False, True],
                      "source": ["fpa_seats", "fpa_seats", "x", "fpa_seats", "extra:Confirmed rule change: r"]})
    assert list(_confirmed_first(t).index) == [0, 1, 2, 3, 4]
    assert list(_confirmed_first(t)["kind"]) == ["seat", "seat", "fix", "impact", "seat"]
    assert list(_confirmed_first(t.iloc[[2, 3, 4]])["kind"]) == ["fix", "impact", "seat"]
    assert _confirmed_first(t.iloc[:4]).equals(t.iloc[:4]) and _confirmed_first(t.iloc[:0]).empty


def test_every_number_format_reads_its_columns():
    row = pd.Series({"a": 0.2093, "lo": 0.195, "hi": 0.2243, "d": -4.06, "dl": -5.5, "dh": -2.25, "n": 12345.0,
                     "p": 0.0034, "x": 2.5, "m": 36.44, "r": 0.4567})
    spec = "a:pct,lo+hi:ci,dl+dh:ci_pts,d:pts,d:abs_pts,n:n,p:p,x:num,m:int,m:mean,r:ratio,"
    assert formatted_numbers(row, spec) == ["20.9%", "[19.5, 22.4]", "[-5.5, -2.2]", "-4.1 points", "4.1 points",
                                            "12,345", "p = 0.003", "2.5", "36", "36.4", "0.46"]
    assert formatted_numbers(row, "") == []
    with pytest.raises(TypeError):
        formatted_numbers(row, "a+lo:pct")          # one column for a rate, two for an interval
    assert p_column(pd.DataFrame({"p_value": [0.1], "p_holm": [0.2]})) == "p_holm"
    assert p_column(pd.DataFrame({"p_adjusted": [0.1], "p_family": [0.2]})) == "p_family"
    assert p_column(pd.DataFrame({"x": [0.1]})) == "p_value"
    assert words("('karkoth', 'iron_circle')") == "karkoth, iron circle" and words(["a_b", "c"]) == "a b, c"
    assert words("(not python") == "(not python" and words("x]") == "x]" and words("a_b") == "a b"
    assert words("-(1)") == "-(1)" and words(" ('a', 'b')") == " ('a', 'b')"     # only a bracketed text is read


def test_a_fresh_row_without_a_named_test_names_none_and_one_with_a_test_names_it():
    fresh = pd.DataFrame({"policy": ["a", "b"], "win_rate": [0.3, 0.3], "ci_low": [0.28, 0.28], "ci_high": [0.32, 0.32],
                          "games": [900, 900], "effect_pp": [5.0, 5.0], "p_value": [1e-9, 1e-9],
                          "test": [np.nan, "exact binomial test"]})
    out = confirm(_claims(("by_policy", '{"policy": "a"}', 5.0), ("by_policy", '{"policy": "b"}', 5.0)),
                  types.SimpleNamespace(by_policy=fresh))
    assert out.loc[0, "text"].endswith("Holm-adjusted over this game's 2 confirmation test(s)) — confirmed.")
    assert out.loc[1, "text"].endswith("Holm-adjusted over this game's 2 confirmation test(s), exact binomial test) "
                                       "— confirmed.")


LADDER = pd.DataFrame([("seat 1: win rate − fair share", "strong", 200.0, 3000, 4.0, 0.001, "exact binomial test"),
                       ("seat 1: win rate − fair share", "random", 0.0, np.nan, 1.0, 0.5, 1.0),
                       ("seat 10: win rate − fair share", "strong", 200.0, 3000, 9.0, 0.001, ""),
                       ("alliance karkoth, nerath: win rate − fair share", "strong", 200.0, 3000, -6.0, 0.01, ""),
                       ("played card: win-rate difference", "strong", 200.0, 10, 2.0, 0.2, "t test")],
                      columns=["finding", "rung", "elo", "games", "estimate", "p_value", "test"]).assign(verdict="V")


def _finding(source, key, status="confirmed"):
    return pd.Series({"source": source, "key": key, "status": status})


def test_the_skill_ladder_rows_of_a_claim_are_its_seats_its_alliances_or_its_cards():
    seat = robustness_line(_finding("fpa_seats", '{"seat": 0}'), LADDER)
    assert seat == ("Robustness — checked in self-play at every rung of the skill ladder (weakest to strongest): "
                    "random +1.0 points, p = 0.50, unadjusted; strong (3,000 games) +4.0 points, p = 0.001, unadjusted, "
                    "exact binomial test — V.")
    team = robustness_line(_finding("teams", '{"team": "(\'karkoth\', \'nerath\')"}'), LADDER)
    assert "strong (3,000 games) -6.0 points, p = 0.01, unadjusted — V." in team and "random" not in team
    card = robustness_line(_finding("impact", '{"stat": "played_card"}'), LADDER)
    assert "strong (10 games): too few games to tell — V." in card
    missing = "Robustness: the skill ladder does not measure this finding, so it was not checked against stronger players."
    for other in (_finding("by_policy", '{"policy": "a"}'), _finding("teams", '{"seat": 0}'),
                  _finding("fpa_seats", '{"team": "x"}'), _finding("impact", '{"item": "x"}'),
                  _finding("by_policy", '{"stat": "played_card"}'), _finding("fpa_seats", "")):
        assert robustness_line(other, LADDER) == missing
    none = "Robustness: this game has no skill ladder, so it was checked only with the report's own policies."
    assert robustness_line(_finding("fpa_seats", '{"seat": 0}'), LADDER.iloc[:0]) == none
    assert robustness_line(_finding("fpa_seats", '{"seat": 0}'), None) == none


def test_luck_reads_the_claims_status():
    assert luck_line(_finding("x", "", "confirmed")) == "Luck: confirmed on a fresh run (above)."
    assert luck_line(_finding("x", "", NOT_CONFIRMED)) == "Luck: not confirmed on a fresh run (above)."
    assert luck_line(_finding("x", "", NO_CONFIRMATION)) == "Luck: not yet confirmed (no fresh run)."
    assert luck_line(pd.Series({"status": None})) == luck_line(pd.Series({})) == "Luck: not measured again."
    game = types.SimpleNamespace(game="g", main_policy="greedy", family=None)
    line = robustness(_finding("fpa_seats", '{"seat": 0}'), game, LADDER, None)
    assert line.startswith("Robustness — Luck: confirmed on a fresh run (above). Skill: checked in self-play at every "
                           "rung of the skill ladder (weakest to strongest): random +1.0 points")
    assert line.endswith("— V. Assumptions: not checked, no sensitivity run of this policy is shipped (`balancelab "
                         "sensitivity g --policies greedy`).")
    unmeasured = robustness(_finding("by_policy", '{"policy": "a"}'), game, LADDER, None)
    assert unmeasured.startswith("Robustness — Luck: confirmed on a fresh run (above). Skill: the skill ladder does "
                                 "not measure this finding")


def test_the_assumptions_of_a_claim_are_read_at_its_quantity_only():
    table = pd.DataFrame({"decision": ["D-a", "D-a"], "field": ["f", "f"], "alternative": ["x", "x"],
                          "quantity": ["seat 2 win rate", "seat 1 win rate"], "default": [0.25, 0.3],
                          "diff": [0.5, -0.01], "ci_low": [0.4, -0.03], "ci_high": [0.6, 0.01], "p_holm": [1e-5, 0.8],
                          "value": [0.75, 0.29], "games": [80, 120]})
    game = types.SimpleNamespace(game="g", main_policy="greedy", teams=pd.DataFrame())
    line = assumptions_line(_finding("fpa_seats", '{"seat": 0}'), game, table)
    assert line == ("Assumptions: holds under every alternative reading (1 decisions, 1 alternatives, 120 paired games "
                    "each); the largest shift, D-a (f = x), is -1.0 pts [-3.0, +1.0] (p = 0.80, Holm-adjusted over the "
                    "2 tests of the sensitivity table).")
    for other in (_finding("fpa_seats", ""), _finding("fpa_seats", '{"players": 3}'), _finding("teams", '{"team": "x"}')):
        assert assumptions_line(other, game, table).startswith("Assumptions: not re-measured")
    assert assumptions_line(_finding("fpa_seats", '{"seat": 0}'), game, table.iloc[:0]).startswith(
        "Assumptions: not checked")


def _seat_study():
    seats = pd.DataFrame({"lineup": "p+p", "seat": [0, 1], "players": 2, "win_rate": [0.6, 0.4], "ci_low": [0.57, 0.37],
                          "ci_high": [0.63, 0.43], "games": 1000, "expected": 0.5, "effect_pp": [10.0, -10.0],
                          "p_value": [1e-9, 1e-9], "method": "independent games; exact binomial test"})
    summary = pd.DataFrame({"lineup": ["p+p"], "players": [2], "games": [1000], "timeouts": [0]})
    empty = pd.DataFrame()
    g = GameStudy(game="toy", title="Toy", rules_version="toy-1", rules={}, policy_reprs={}, games_played=1000,
                  runs={"main": 1000}, fpa_summary=summary, fpa_seats=seats, outcomes=empty, by_policy=empty,
                  by_faction=empty, matrix=empty, ratings=empty, length=empty, turns=pd.Series(dtype=int),
                  sweep_field="", sweep=empty, sweep_seats=empty, impact=empty, impact_caveat="", team_game=False,
                  teams=empty, fixes=empty, fix_ideas=(), impact_outcomes=empty, main_policy="p", pool=("p",), extra={},
                  assumptions=empty, seed=0)
    return Study(games={"toy": g}, command="", seed=0, n_games=1000, created="", package_version="", git_commit="",
                 machine="", skipped={})


def test_with_ladders_adjusts_the_ladder_in_the_games_family_and_gives_each_claim_its_line():
    ladder_rows = pd.DataFrame({"finding": ["seat 1: win rate − fair share"] * 2, "kind": "seat",
                                "rung": ["weak", "strong"], "elo": [0.0, 100.0], "games": [2000, 2000],
                                "estimate": [9.0, 8.0], "p_value": [0.02, 0.03]})
    ladder = types.SimpleNamespace(findings=ladder_rows, metadata={"top": ["weak", "strong"]})
    sens = pd.DataFrame({"decision": ["D-a"], "field": ["f"], "alternative": ["x"], "quantity": ["seat 1 win rate"],
                         "default": [0.6], "diff": [-0.2], "ci_low": [-0.3], "ci_high": [-0.1], "p_holm": [0.001],
                         "value": [0.4], "games": [500]})
    study = with_ladders(_seat_study(), {"toy": ladder}, {"toy": {"p": sens, "q": sens.iloc[:0]}})
    g = study.games["toy"]
    assert g.family.size == 4 and list(g.ladder_findings["p_family"]) == pytest.approx([0.04, 0.04])
    assert list(g.ladder_findings["significant"]) == [True, True] and bool(g.ladder_findings["robust"].all())
    assert set(g.sensitivity) == {"p", "q"}
    lines = list(g.findings["robustness"])
    claim = lines[0]
    assert claim.startswith("Robustness — Luck: not yet confirmed (no fresh run). Skill: checked in self-play at "
                            "every rung of the skill ladder (weakest to strongest): weak (2,000 games) +9.0 points, "
                            "p = 0.04, Holm-adjusted over the 4 tests of this game")
    assert "Assumptions: depends on D-a (f = x)" in claim
    assert list(g.findings["kind"]) == ["seat", "seat", "trust"] and lines[2] == ""     # claims only
    assert lines[1] == ("Robustness — Luck: not yet confirmed (no fresh run). Skill: the skill ladder does not measure "
                        "this finding, so it was not checked against stronger players. Assumptions: not re-measured; "
                        "the sensitivity run measures the seats' and alliances' win rates and the game length, not "
                        "this.")
    assert study.findings.equals(study_findings(study.games))
    plain = with_ladders(_seat_study(), {"toy": types.SimpleNamespace(findings=pd.DataFrame(), metadata={})})
    assert plain.games["toy"].findings.loc[0, "robustness"].startswith(
        "Robustness — Luck: not yet confirmed (no fresh run). Skill: this game has no skill ladder")
    assert "Assumptions: not checked" in plain.games["toy"].findings.loc[0, "robustness"]


def test_a_fresh_effect_of_one_point_with_the_claims_sign_confirms_it():
    fresh = pd.DataFrame({"policy": ["a"], "win_rate": [0.26], "ci_low": [0.255], "ci_high": [0.265], "games": [90000],
                          "effect_pp": [1.0], "p_value": [1e-6]})
    out = confirm(_claims(("by_policy", '{"policy": "a"}', 5.0)), types.SimpleNamespace(by_policy=fresh))
    assert out.loc[0, "status"] == "confirmed" and out.loc[0, "text"].endswith("(+1.0 points, p < 0.001, Holm-adjusted "
                                                                                "over this game's 1 confirmation test(s)) — confirmed.")
    against = confirm(_claims(("by_policy", '{"policy": "a"}', -5.0)), types.SimpleNamespace(by_policy=fresh))
    assert against.loc[0, "status"] == NOT_CONFIRMED
    assert against.loc[0, "text"].endswith("— not confirmed: the fresh games point the other way.")


def test_a_ladder_finding_at_exactly_alpha_after_adjustment_is_not_significant():
    ladder_rows = pd.DataFrame({"finding": ["seat 1: win rate − fair share"] * 2, "kind": "seat",
                                "rung": ["weak", "strong"], "elo": [0.0, 100.0], "games": [2000, 2000],
                                "estimate": [9.0, 8.0], "p_value": [0.025, 0.025]})
    ladder = types.SimpleNamespace(findings=ladder_rows, metadata={"top": ["weak", "strong"]})
    g = with_ladders(_seat_study(), {"toy": ladder}).games["toy"]
    assert list(g.ladder_findings["p_family"]) == pytest.approx([0.05, 0.05])     # Holm: 2 x 0.025 over 4 tests
    assert not g.ladder_findings["significant"].any() and not g.ladder_findings["robust"].any()


def test_a_rung_of_exactly_the_minimum_games_is_read_and_an_alliance_is_read_at_its_first_seat():
    rung = LADDER.iloc[[0]].assign(games=MIN_RUNG_GAMES)
    line = robustness_line(_finding("fpa_seats", '{"seat": 0}'), rung)
    assert f"strong ({MIN_RUNG_GAMES:,} games) +4.0 points" in line
    table = pd.DataFrame({"decision": ["D-a", "D-a"], "field": ["f", "f"], "alternative": ["x", "x"],
                          "quantity": ["seat 1 win rate", "seat 3 win rate"], "default": [0.5, 0.5],
                          "diff": [-0.01, 0.3], "ci_low": [-0.03, 0.2], "ci_high": [0.01, 0.4], "p_holm": [0.7, 1e-4],
                          "value": [0.49, 0.8], "games": [100, 100]})
    game = types.SimpleNamespace(game="g", main_policy="greedy",
                                 teams=pd.DataFrame({"team": ["karkoth + iron_circle"], "seats": ["0+2"]}))
    line = assumptions_line(_finding("teams", '{"team": "karkoth + iron_circle"}'), game, table)
    assert line.startswith("Assumptions: holds under every alternative reading (1 decisions, 1 alternatives")
