"""Discovery, then confirmation; one family of tests per game: hand-built frames and tables with known answers."""
import re
import types

import numpy as np
import pandas as pd
import pytest

from analyses.checks import game_warnings
from analyses.clusters import INDEPENDENT
from analyses.findings import NOT_CONFIRMED, _Collector, _policies, confirm, formatted_numbers
from analyses.ladder_stats import mark_robust
from analyses.multiplicity import Family, bh, holm, named_test, p_label
from analyses.plan import deal_seed
from analyses.replication import confirmation_seed, confirmed_findings, needed_runs
from analyses.robustness import skill_text
from analyses.study import analyse_game
from reports.build import headline

LABEL = re.compile(r"p (?:=|<) [0-9.]+, (?:Holm-adjusted over the \d+ tests of this game|Holm-adjusted over this "
                   r"game's \d+ confirmation test\(s\)), (?:two-sided|Pearson|Rao)")


def test_holm_and_bh_adjusted_values_match_the_hand_computed_ones():
    p = [0.01, 0.04, 0.03, 0.005, np.nan]
    # Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max 0.02, 0.03, 0.06, 0.06
    assert holm(p)[:4] == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # BH: p * 4 / rank = 0.02, 0.02, 0.04, 0.04 -> running min from the top: the same
    assert bh(p)[:4] == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert np.isnan(holm(p)[4]) and np.isnan(bh(p)[4])
    assert bh([0.5, 0.9]) == pytest.approx([0.9, 0.9]) and holm([0.6, 0.9]) == pytest.approx([1.0, 1.0])


def test_every_p_value_names_its_adjustment_and_its_test():
    assert p_label(0.0034, named_test(INDEPENDENT), Family(24)) == (
        "p = 0.003, Holm-adjusted over the 24 tests of this game, two-sided exact binomial test")
    assert p_label(0.2, "two-sided paired t test", None) == "p = 0.20, unadjusted, two-sided paired t test"
    assert Family(3, "bh").words() == "Benjamini–Hochberg-adjusted over the 3 tests of this game"
    assert named_test("independent games: Wilson, exact binomial; Pearson chi-square").startswith("Pearson χ² test")


def _games(wins_per_seat, name="handmade", seed=0, cards=0):
    """Hand-built results: seat s wins wins_per_seat[s] games (in a fixed interleaved order)."""
    winners = np.concatenate([np.full(k, s) for s, k in enumerate(wins_per_seat)])
    order = np.argsort(np.arange(len(winners)) % 7, kind="stable")       # deterministic mixing
    winners = winners[order]
    n = len(winners)
    df = pd.DataFrame({"winner": pd.array(winners, dtype="Int8"), "timed_out": np.zeros(n, bool),
                       "turns": 10 + np.arange(n) % 5, "decisions": 40 + np.arange(n) % 9})
    for s in range(len(wins_per_seat)):
        df[f"seat{s}_policy"] = "greedy"
        for k in range(cards):
            df[f"seat{s}_card{k}"] = (np.arange(n) + s + k) % 2
    df.attrs.update(game=name, seed=seed)
    return df


@pytest.fixture(scope="module")
def biased():
    return _games([140, 140, 140, 80])          # seat 4 wins 80 of 500: 16% against a fair 25%


def test_a_seat_finding_that_the_fresh_run_repeats_is_confirmed_with_both_numbers(biased):
    again = _games([130, 140, 145, 85], seed=1)
    f = confirmed_findings(biased, again)
    seat = f[f["kind"] == "seat"].iloc[0]
    assert seat["status"] == "confirmed" and seat["significant"] and seat["selected"]
    assert "Seat 4 of 4 (last to play) wins 16.0% [13.0, 19.5] of 500 games" in seat["text"]
    assert re.search(r"Confirmation run: 17\.0% \[[0-9.]+, [0-9.]+\] of 500 fresh games \(-8\.0 points, p < 0\.001",
                     seat["text"])
    assert seat["text"].endswith("— confirmed.")
    starts = [m.start() for m in re.finditer(r"\bp (?:=|<) ", seat["text"])]
    assert len(starts) == 2 and all(LABEL.match(seat["text"][i:]) for i in starts)   # discovery, confirmation
    assert f.iloc[0]["kind"] == "seat"


def test_a_seat_finding_the_fresh_run_does_not_repeat_stays_marked_not_confirmed(biased):
    fair = _games([125, 125, 125, 125], seed=1)
    f = confirmed_findings(biased, fair)
    seat = f[f["kind"] == "seat"]
    assert len(seat) == 1                                         # never dropped silently
    seat = seat.iloc[0]
    assert seat["status"] == NOT_CONFIRMED and not seat["significant"] and seat["selected"]
    assert "Seat 4 of 4 (last to play) wins 16.0% [13.0, 19.5] of 500 games" in seat["text"]
    assert "Confirmation run: 25.0% [21.4, 29.0] of 500 fresh games (+0.0 points, p = 1.00" in seat["text"]
    assert seat["text"].endswith("— not confirmed: read the first run's result as chance.")
    unconfirmed = confirmed_findings(biased)
    assert unconfirmed[unconfirmed["kind"] == "seat"].iloc[0]["status"] == "no confirmation run"


def test_the_confirmation_numbers_are_the_confirmation_tables_values():
    table = pd.DataFrame({"seat": [3], "lineup": ["g"], "win_rate": [0.11], "ci_low": [0.086], "ci_high": [0.14],
                          "games": [500], "effect_pp": [-14.0], "p_value": [2e-4], "test": ["two-sided exact binomial test"]})
    measured = types.SimpleNamespace(fpa_seats=table)
    findings = pd.DataFrame([{"kind": "seat", "text": "Seat 4 wins less.", "effect": -15.0, "source": "fpa_seats",
                              "row": 0, "significant": True, "selected": True, "status": "",
                              "key": '{"lineup": "g", "seat": 3}', "confirm_row": -1, "confirm_numbers": ""}])
    out = confirm(findings, measured).iloc[0]
    shown = formatted_numbers(table.loc[out["confirm_row"]], out["confirm_numbers"])
    assert all(s in out["text"] for s in shown) and out["status"] == "confirmed"
    flipped = confirm(findings, types.SimpleNamespace(fpa_seats=table.assign(effect_pp=14.0))).iloc[0]
    assert flipped["status"] == NOT_CONFIRMED and "point the other way" in flipped["text"]


def test_the_family_adjusts_every_sentence_test_together_and_the_headline_shows_the_same_value(biased):
    g = analyse_game("handmade", {"main": _games([140, 140, 140, 80], cards=2)})
    seats = g.fpa_seats
    raw = list(seats["p_value"]) + [g.fpa_summary.iloc[0]["chi2_p"]]
    assert g.family.size == len(raw) == 4 + 1
    # the in-game impact table is association: it never becomes a sentence, so it is not a member
    assert len(g.impact) and "p_family" not in g.impact.columns
    assert not (g.findings["source"] == "impact").any()
    assert list(seats["p_family"]) == pytest.approx(list(holm(raw)[:4]))
    assert set(seats["test"]) == {"two-sided exact binomial test"}
    seat = g.findings[g.findings["kind"] == "seat"].iloc[0]["text"]
    box = headline(g)["p_text"]
    assert box.startswith("p < 0.001, Holm-adjusted over the") and box in seat


def _policy_study(rates, games=150):
    bp = pd.DataFrame({"policy": [f"p{i}" for i in range(len(rates))], "win_rate": rates,
                       "ci_low": [r - 0.08 for r in rates], "ci_high": [r + 0.08 for r in rates],
                       "games": games, "expected": 0.5, "effect_pp": [100 * (r - 0.5) for r in rates],
                       "p_value": 1e-4, "p_family": 1e-3, "test": "two-sided exact binomial test"})
    return types.SimpleNamespace(game="g", title="G", team_game=True, by_policy=bp, matrix=pd.DataFrame(),
                                 ratings=pd.DataFrame(), family=Family(10))


def test_a_tie_at_the_mixed_table_names_no_winner_and_a_close_runner_up_is_not_separable():
    c = _Collector(_policy_study([2 / 3, 2 / 3, 0.2, 0.1]))
    _policies(c)
    text = c.rows[0]["text"]
    assert "no single policy is strongest: p0 and p1 are tied" in text and "the p0 policy is" not in text
    assert not c.rows[0]["selected"]
    c = _Collector(_policy_study([0.70, 0.65, 0.2, 0.1]))
    _policies(c)
    text = c.rows[0]["text"]
    assert "wins most often, but not separably" in text and "p1 wins 65.0%, inside that interval" in text
    c = _Collector(_policy_study([0.80, 0.50, 0.2, 0.1]))
    _policies(c)
    assert "the p0 policy is strongest" in c.rows[0]["text"] and c.rows[0]["selected"]


def test_a_rung_with_a_few_games_does_not_overturn_a_finding_a_large_rung_proves():
    table = pd.DataFrame([("seat 1", "big", 2000, -4.0, True), ("seat 1", "tiny", 4, 25.0, False),
                          ("seat 2", "big", 2000, -4.0, True), ("seat 2", "huge", 3000, -1.0, False)],
                         columns=["finding", "rung", "games", "estimate", "significant"])
    out = mark_robust(table[table["finding"] == "seat 1"], ["tiny", "big"]).iloc[0]
    assert not out["robust"] and "not significant" not in out["verdict"]
    assert out["verdict"] == "significantly below 0 at big (2,000 games); too few games at tiny (4) to tell"
    out = mark_robust(table[table["finding"] == "seat 2"], ["huge", "big"]).iloc[0]
    assert out["verdict"] == "not significant at huge"


def test_no_warning_when_a_heuristic_wins_every_duel_against_random_play():
    matrix = pd.DataFrame({"policy": ["greedy", "random", "greedy", "purist"],
                           "opponent": ["random", "greedy", "purist", "greedy"],
                           "win_rate": [1.0, 0.0, 1.0, 0.0], "games": [40] * 4})
    empty = pd.DataFrame()
    g = types.SimpleNamespace(fpa_seats=empty, teams=empty, by_policy=empty, by_faction=empty, matrix=matrix,
                              sweep_seats=empty, sweep=empty, fixes=empty, impact=empty, extra={},
                              turns=pd.Series([5]), fpa_summary=empty, ratings=empty)
    w = game_warnings(g)
    assert set(w.loc[w["kind"] == "extreme_rate", "row"]) == {2, 3}          # greedy vs purist only


def test_the_confirmation_seeds_are_a_different_branch_and_deterministic():
    fresh = confirmation_seed(0)
    assert fresh == confirmation_seed(0) and fresh != confirmation_seed(1) and fresh != 0
    assert not {deal_seed(0, d) for d in range(2000)} & {deal_seed(fresh, d) for d in range(2000)}


def test_only_the_runs_the_selected_claims_need_are_played_again():
    findings = pd.DataFrame({"selected": [True, True, False], "source": ["impact", "by_policy", "matrix"],
                             "key": ['{"stat": "x"}', '{"policy": "a"}', '{"policy": "a"}']})
    runs = {"main": 3000, "mixed": 1500, "duel-a-b": 250, "sweep-players=2": 750}
    g = types.SimpleNamespace(findings=findings, runs=runs, fixes=pd.DataFrame(), fix_ideas=())
    assert needed_runs(g) == {"main": 3000, "mixed": 1500}
    g.findings = findings.assign(selected=False)
    assert needed_runs(g) == {}


def test_each_claim_gets_a_robustness_line_naming_the_rungs_their_games_and_labelled_p_values():
    ladder = pd.DataFrame([("seat 4: win rate − fair share", "seat", "tiny", 900.0, 4, 25.0, 0.6, "two-sided exact binomial test"),
                           ("seat 4: win rate − fair share", "seat", "big", 100.0, 2000, -4.0, 1e-5, "two-sided exact binomial test")],
                          columns=["finding", "kind", "rung", "elo", "games", "estimate", "p_family", "test"])
    ladder["verdict"] = "significantly below 0 at big (2,000 games); too few games at tiny (4) to tell"
    claim = pd.Series({"source": "fpa_seats", "key": '{"lineup": "g", "seat": 3}'})
    checked, line = skill_text(claim, ladder, Family(7))
    assert checked
    assert ("big (2,000 games) -4.0 points, p < 0.001, Holm-adjusted over the 7 tests of this game, two-sided exact "
            "binomial test") in line
    assert "tiny (4 games): too few games to tell" in line and line.index("big") < line.index("tiny")   # by rating
    assert line.endswith("too few games at tiny (4) to tell.")
    other = pd.Series({"source": "fpa_seats", "key": '{"lineup": "g", "seat": 0}'})
    assert "does not measure this finding" in skill_text(other, ladder, Family(7))[1]
    assert "no skill ladder" in skill_text(claim, None)[1]
