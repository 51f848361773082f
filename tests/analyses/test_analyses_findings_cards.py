"""Card findings come from the opening hand (causal), never from the in-game association table: hand-built tables."""
import types

import numpy as np
import pandas as pd

from analyses.findings import ALPHA, _Collector, _impact, confirm, formatted_numbers
from analyses.multiplicity import Family, game_family


def _opening(diffs, p_values, kinds=None, finding=None):
    n = len(diffs)
    kinds = kinds or ["family"] * n
    return pd.DataFrame({
        "item": [f"G{i}" for i in range(n)], "kind": kinds, "n_with": 400 + np.arange(n), "win_with": 0.3,
        "n_without": 600 - np.arange(n), "win_without": 0.25, "diff_pp": diffs,
        "diff_low": [d - 3 for d in diffs], "diff_high": [d + 3 for d in diffs], "p_value": p_values,
        "p_family": p_values, "test": "two-sided paired t test over deals", "deals": 300 + np.arange(n),
        "finding": finding if finding is not None else [True] * n})


def _study(opening, impact=None):
    impact = impact if impact is not None else pd.DataFrame(
        {"stat": ["played_x"], "split": ["> 0"], "win_with": [0.9], "win_without": [0.1], "diff_pp": [80.0],
         "diff_low": [70.0], "diff_high": [90.0], "n_with": [500], "n_without": [500], "p_value": [1e-30],
         "method": ["ratio difference, deal as the unit (cluster-robust t)"]})
    return types.SimpleNamespace(game="g", title="G", family=Family(12), opening_impact=opening, impact=impact)


def test_the_three_largest_significant_groups_become_findings_largest_first():
    diffs = [2.0, -9.0, 5.0, 7.5, -4.0, 1.0]
    ps = [0.04, 1e-5, 0.001, 1e-4, 0.01, 0.5]
    c = _Collector(_study(_opening(diffs, ps)))
    _impact(c)
    claims = [r for r in c.rows if r["kind"] == "impact" and r["selected"]]
    assert [r["effect"] for r in claims] == [-9.0, 7.5, 5.0]          # by size, not by p or by sign
    assert all(r["source"] == "opening_impact" for r in claims)
    assert "at least one G1 card in their opening hand" in claims[0]["text"]
    assert "causal: the deal decides who holds it" in claims[0]["text"]
    more = [r for r in c.rows if r["kind"] == "impact" and not r["selected"]]
    assert len(more) == 1 and more[0]["text"].startswith("2 more") and "G4" in more[0]["text"] and "G0" in more[0]["text"]
    assert "unconfirmed" in more[0]["text"] and not more[0]["significant"]
    nothing = [r for r in c.rows if r["kind"] == "not_found"]
    assert len(nothing) == 1 and "1 of the 6 card groups" in nothing[0]["text"] and "G5" in nothing[0]["text"]


def test_the_association_table_never_becomes_a_finding_however_strong():
    c = _Collector(_study(_opening([1.0], [0.6])))
    _impact(c)
    assert not any(r["source"] == "impact" for r in c.rows)
    assert not any(r["selected"] for r in c.rows)
    empty = _Collector(_study(pd.DataFrame()))
    _impact(empty)
    assert empty.rows == []


def test_rows_below_the_finding_level_are_neither_findings_nor_family_members():
    table = _opening([12.0, 3.0], [1e-6, 1e-3], kinds=["card", "family"], finding=[False, True])
    c = _Collector(_study(table))
    _impact(c)
    claims = [r for r in c.rows if r["selected"]]
    assert [r["row"] for r in claims] == [1]                           # the card row, however strong, is not stated
    g = types.SimpleNamespace(fpa_seats=pd.DataFrame(), fpa_summary=pd.DataFrame(), teams=pd.DataFrame(),
                              by_policy=pd.DataFrame(), by_faction=pd.DataFrame(), matrix=pd.DataFrame(),
                              impact=_study(table).impact, sweep_seats=pd.DataFrame(), fixes=pd.DataFrame(),
                              opening_impact=table.assign(method="x"), team_game=False)
    family = game_family(g)
    assert list(family["source"]) == ["opening_impact"] and list(family["row"]) == [1]


def test_an_opening_hand_finding_is_measured_again_on_the_fresh_run():
    c = _Collector(_study(_opening([-9.0, 1.0], [1e-5, 0.7])))
    _impact(c)
    findings = pd.DataFrame(c.rows)
    again = _opening([-6.0, 0.5], [0.002, 0.8])
    out = confirm(findings, types.SimpleNamespace(opening_impact=again))
    claim = out[out["selected"]].iloc[0]
    assert claim["status"] == "confirmed" and claim["significant"]
    shown = formatted_numbers(again.loc[claim["confirm_row"]], claim["confirm_numbers"])
    assert all(s in claim["text"] for s in shown) and "-6.0 points [-9.0, -3.0]" in claim["text"]
    flipped = confirm(findings, types.SimpleNamespace(opening_impact=again.assign(diff_pp=[6.0, 0.5])))
    assert flipped[flipped["selected"]].iloc[0]["status"] == "not confirmed"
    weak = confirm(findings, types.SimpleNamespace(opening_impact=again.assign(p_value=[0.2, 0.8])))
    assert weak[weak["selected"]].iloc[0]["status"] == "not confirmed" and ALPHA < 0.2
