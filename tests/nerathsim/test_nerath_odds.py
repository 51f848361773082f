"""BattleOdds: fields, frames, text and HTML, intervals."""
import math

import pandas as pd
import pytest

import nerathsim

ISSUE = ({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8})


@pytest.fixture(scope="module")
def exact():
    return nerathsim.battle_odds(*ISSUE)


@pytest.fixture(scope="module")
def sampled():
    return nerathsim.battle_odds(*ISSUE, method="monte_carlo", n=50_000, seed=1)


def test_fields(exact):
    assert exact.attacker == {"footsoldier": 6, "siege_engine": 2} and exact.defender == {"footsoldier": 8}
    assert (exact.method, exact.n, exact.seed, exact.intervals, exact.at_sea) == ("exact", None, None, None, False)
    assert exact.retreat == "never" and exact.rules_version == nerathsim.battle.rules.RULES_VERSION  # the battle rules; the package adds the game
    assert nerathsim.battle.rules.RULES_VERSION in nerathsim.RULES_VERSION
    assert exact.casualty_orders == ("footsoldier, siege_engine", "footsoldier")
    assert exact.tuv_swing == pytest.approx(exact.defender_gold_lost - exact.attacker_gold_lost)
    # expected survivors: overall = sum over outcomes of P(outcome) x E[survivors | outcome]
    for side, unit in (("attacker", "footsoldier"), ("attacker", "siege_engine"), ("defender", "footsoldier")):
        total = sum(getattr(exact, k) * exact.expected_survivors[k][side][unit]
                    for k in ("attacker_wins", "defender_wins", "draw"))
        assert exact.expected_survivors["overall"][side][unit] == pytest.approx(total, abs=1e-12)
    assert exact.expected_survivors["draw"]["attacker"]["footsoldier"] == 0.0
    # gold lost = cost of the army minus the expected value of its survivors
    e = exact.expected_survivors["overall"]["attacker"]
    assert exact.attacker_gold_lost == pytest.approx(10 - e["footsoldier"] - 2 * e["siege_engine"], abs=1e-12)


def test_given_an_impossible_outcome_is_nan():
    o = nerathsim.battle_odds({"wizard": 1}, {"footsoldier": 1})   # no draw is possible
    assert o.draw == 0.0
    assert math.isnan(o.expected_survivors["draw"]["attacker"]["wizard"])


def test_frames(exact):
    ends = exact.to_frame()
    assert list(ends.columns) == ["outcome", "attacker_footsoldier", "attacker_siege_engine", "defender_footsoldier",
                                  "probability"]
    assert ends["probability"].sum() == pytest.approx(1.0, abs=1e-12)
    assert set(ends["outcome"]) == {"attacker_wins", "defender_wins", "draw"}
    won = ends[ends["outcome"] == "attacker_wins"]
    assert (won["defender_footsoldier"] == 0).all() and (won[["attacker_footsoldier", "attacker_siege_engine"]].sum(axis=1) > 0).all()
    rounds = exact.to_frame("rounds")
    assert rounds["rounds"].iloc[0] == 1 and rounds["cumulative"].iloc[-1] == pytest.approx(1.0, abs=1e-10)
    expected = exact.to_frame("expected")
    assert list(expected.columns) == ["overall", "attacker_wins", "defender_wins", "draw"]
    assert expected.loc[("attacker", "siege_engine"), "overall"] == exact.expected_survivors["overall"]["attacker"]["siege_engine"]
    summary = exact.to_frame("summary")
    assert len(summary) == 1 and summary["attacker_wins"].iloc[0] == exact.attacker_wins
    with pytest.raises(ValueError, match="kind must be one of survivors, rounds, expected, summary"):
        exact.to_frame("everything")


def test_text_reads_like_a_battle_calculator(exact, sampled):
    text = str(exact)
    for line in ("Attacker: 6 footsoldier, 2 siege_engine  (10 gold)", "Defender: 8 footsoldier  (8 gold)",
                 f"Attacker wins:           {100 * exact.attacker_wins:.2f}%", "Draw (both destroyed):",
                 "TUV swing (defender loss - attacker loss): +", "Average battle rounds:", "att siege_engine"):
        assert line in text
    assert "[" in str(sampled) and "Monte Carlo, 50,000 battles, seed 1" in str(sampled)
    assert repr(exact).startswith("BattleOdds('6 footsoldier, 2 siege_engine' vs '8 footsoldier'")
    html = exact._repr_html_()
    assert html.startswith("<div>") and "<table" in html and "TUV swing" in html and "siege_engine" in html


def test_sampled_intervals_cover_their_estimates(sampled):
    for key in ("attacker_wins", "defender_wins", "draw", "attacker_retreats", "attacker_gold_lost",
                "defender_gold_lost", "tuv_swing", "expected_rounds"):
        lo, hi = sampled.intervals[key]
        assert lo <= getattr(sampled, key) <= hi, key
    assert sampled.n == 50_000 and sampled.seed == 1 and sampled.pruned is None
    ends = sampled.to_frame()
    assert ends["count"].sum() == 50_000
    assert ends["probability"].sum() == pytest.approx(1.0)


def test_retreat_columns():
    o = nerathsim.battle_odds({"footsoldier": 2}, {"footsoldier": 2}, retreat="units:1")
    ends = o.to_frame()
    assert "attacker_retreats" in set(ends["outcome"])
    assert ends.loc[ends["outcome"] == "attacker_retreats", "probability"].sum() == pytest.approx(o.attacker_retreats)
    assert o.retreat == "at 1 unit(s) or fewer"
    assert "of which attacker retreats" in str(o)


def test_text_armies_and_case_insensitive_names():
    a = nerathsim.battle_odds("6 Footsoldiers, 2 siege engines", "8 footsoldier")
    b = nerathsim.battle_odds(*ISSUE)
    assert a.attacker_wins == b.attacker_wins and isinstance(a.to_frame(), pd.DataFrame)
