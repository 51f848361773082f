"""`analyses.sensitivity` and `balancelab sensitivity`: each alternative reading against the default
on the same seeds, the game (or deal) as the paired unit, Holm over the whole table.

The toy game (tests/analyses/toygame.py) has no DECISIONS, so the tests hand `sensitivity` decision
objects of their own: ``bias`` at its default (the same rules twice: every difference is exactly 0)
and ``bias`` raised (seat 1's chances multiplied: detected on a small run with fixed seeds).
"""
from __future__ import annotations

import io
import shlex
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import analyses
import nerathsim
from analyses import clusters, frames
from analyses.sensitivity import load, per_game, sensitivity, verdicts
from balancelab import parser as cli_parser
from balancelab.cli import build_parser

import toygame as toy

RULES = {"players": 3, "max_rounds": 6}


@dataclass(frozen=True)
class ToyDecision:
    id: str
    field: str
    alternatives: tuple


SAME = ToyDecision("D-same", "bias", (0.0,))
BIAS = ToyDecision("D-bias", "bias", (2.0,))


def test_the_same_rules_in_both_arms_give_differences_of_exactly_zero():
    table = sensitivity(toy, [SAME], n_games=300, policies="random", seed=4, rules=RULES)
    assert list(table["quantity"]) == ["seat 1 win rate", "seat 2 win rate", "seat 3 win rate", "turns", "timeouts"]
    assert (table["games"] == 300).all() and (table["decision"] == "D-same").all()
    assert np.abs(table["diff"].to_numpy()).max() == 0.0
    assert np.abs(table[["ci_low", "ci_high"]].to_numpy()).max() == 0.0
    assert (table["p_value"] == 1.0).all() and (table["p_holm"] == 1.0).all()
    assert table["value"].to_numpy() == pytest.approx(table["default"].to_numpy(), abs=0)
    assert verdicts(table)["verdict"].tolist() == ["holds"]


def test_differences_are_the_paired_per_game_figures_by_hand():
    table = sensitivity(toy, [SAME, BIAS], n_games=400, policies="random", seed=7, rules=RULES)
    run = dict(policies="random", seed=7, seat_order="fixed", progress=False)
    base = analyses.simulate(toy, 400, rules={**RULES}, **run)
    alt = analyses.simulate(toy, 400, rules={**RULES, "bias": 2.0}, **run)
    rows = table[table["decision"] == "D-bias"].set_index("quantity")
    # seat 1's win rate over decided games in each arm
    for df, column in ((base, "default"), (alt, "value")):
        decided = frames.decided(df).to_numpy()
        assert rows.loc["seat 1 win rate", column] == pytest.approx((df["winner"][decided] == 0).mean(), abs=1e-12)
    # the mean game length: a plain paired t test over the 400 games
    d = alt["turns"].to_numpy(float) - base["turns"].to_numpy(float)
    half = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    turns = rows.loc["turns"]
    assert turns["diff"] == pytest.approx(d.mean(), abs=1e-12)
    assert (turns["ci_low"], turns["ci_high"]) == pytest.approx((d.mean() - half, d.mean() + half), abs=1e-9)
    assert turns["p_value"] == pytest.approx(stats.ttest_rel(alt["turns"], base["turns"]).pvalue, rel=1e-9)
    # Holm over the whole table: 2 decisions x 5 quantities, one family
    p = table["p_value"].to_numpy()
    assert table["p_holm"].to_numpy() == pytest.approx(clusters.holm(p), nan_ok=True)
    assert (table["p_holm"].to_numpy() >= p - 1e-15).all()


def test_a_rule_that_really_moves_a_seat_is_detected_and_the_verdict_says_by_how_much():
    table = sensitivity(toy, [BIAS], n_games=400, policies="random", seed=11, rules=RULES)
    seat1 = table.set_index("quantity").loc["seat 1 win rate"]
    assert seat1["diff"] > 0.1 and seat1["ci_low"] > 0 and seat1["p_holm"] < 0.001
    verdict = verdicts(table)["verdict"].iloc[0]
    assert verdict.startswith("moves seat 1 win rate by +") and "pts [" in verdict


def test_under_rotated_seats_the_deal_is_the_paired_unit_and_the_run_is_whole_deals():
    table = sensitivity(toy, [BIAS], n_games=10, policies="strong,random,random", seed=3, rules=RULES,
                        seat_order="rotate")
    assert (table["games"] == 12).all()              # 10 games rounded up to 4 deals of 3 rotations
    assert (table["deals"] == 4).all()
    rows = table.set_index("quantity")
    run = dict(policies="strong,random,random", seed=3, seat_order="rotate", progress=False)
    base = analyses.simulate(toy, 12, rules=RULES, **run)
    alt = analyses.simulate(toy, 12, rules={**RULES, "bias": 2.0}, **run)
    # the turns difference per deal: a paired t test over the 4 deals (deals of equal size)
    per_deal = (alt["turns"].to_numpy(float) - base["turns"].to_numpy(float)).reshape(4, 3).mean(axis=1)
    assert rows.loc["turns", "diff"] == pytest.approx(per_deal.mean(), abs=1e-12)
    assert rows.loc["turns", "p_value"] == pytest.approx(stats.ttest_1samp(per_deal, 0).pvalue, rel=1e-9)


def test_the_horror_share_is_a_headline_quantity_when_the_game_records_it():
    df = pd.DataFrame({"game": range(4), "deal": range(4), "winner": pd.array([0, 1, None, 0], dtype="Int8"),
                       "turns": [3, 4, 9, 5], "timed_out": [False, False, True, False],
                       "seat0_policy": "a", "seat1_policy": "b", "horror_won": [True, False, False, False]})
    values = per_game(df, 2)
    y, n = values["Horror win share"]
    assert y.tolist() == [1, 0, 0, 0] and n.tolist() == [1, 1, 0, 1]
    assert values["timeouts"][0].tolist() == [0, 0, 1, 0] and values["seat 1 win rate"][0].tolist() == [1, 0, 0, 1]


@pytest.mark.parametrize("kwargs, message", [
    (dict(game="dreamsim", decisions=["D-nope"]), r"^unknown decision id\(s\) D-nope; known: D-black-town-hall, "),
    (dict(game="nightsim", decisions="D-scavenger,D-zzz"), r"^unknown decision id\(s\) D-zzz; known: D-scavenger"),
    (dict(game="toygame"), r"^game 'toygame' lists no DECISIONS"),
    (dict(game="nightsim", decisions=["D-scavenger"], seat_order="random"), r"^seat_order must be one of fixed"),
    (dict(game="nightsim", decisions=["D-scavenger", "D-scavenger"]), r"D-scavenger given twice"),
    (dict(game="nightsim", n_games=0), r"n_games must be a positive integer"),
])
def test_bad_input_is_refused_in_one_line_before_any_game(kwargs, message, played):
    with pytest.raises(ValueError, match=message) as info:
        sensitivity(**kwargs)
    assert "\n" not in str(info.value) and played == []


def test_the_cli_prints_a_compact_table_with_one_based_seats_and_a_verdict_per_decision(run, capsys):
    code, out, err = run(capsys, "sensitivity", "nightsim", "--games", "12", "--policies", "random",
                         "--engine", "python", "--only", "D-scavenger,D-win-timing")
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100
    header = next(line for line in lines if line.startswith("decision"))
    assert header.split()[2:] == ["seat", "1", "seat", "2", "seat", "3", "seat", "4", "turns", "timeout"]
    assert "seat 0" not in out
    verdict_lines = [line for line in lines if line.startswith(("D-scavenger (", "D-win-timing ("))]
    assert len(verdict_lines) == 2
    assert all(line.split(": ", 1)[1].startswith(("holds", "moves ")) for line in verdict_lines)


def test_the_cli_writes_the_tidy_table_as_csv_and_refuses_a_bad_id_in_one_line(run, capsys):
    code, out, err = run(capsys, "sensitivity", "nightsim", "--games", "6", "--policies", "random",
                         "--engine", "python", "--only", "D-scavenger", "--format", "csv")
    assert code == 0, err
    assert out.splitlines()[0].startswith("decision,field,alternative,quantity,games,deals,default,value,diff,")
    assert len(out.splitlines()) == 1 + 6                  # 4 seats, turns, timeouts
    code, out, err = run(capsys, "sensitivity", "nightsim", "--only", "D-nope")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--only: unknown decision id(s) D-nope; known: D-scavenger" in err


def test_the_help_shows_examples_that_parse_and_the_function_is_exported(run, capsys):
    code, out, _ = run(capsys, "sensitivity", "--help")
    assert code == 0 and "examples:" in out and "--only IDS" in out
    parser = build_parser()
    for line in cli_parser.SENSITIVITY_EXAMPLES.splitlines()[1:]:
        words = shlex.split(line.split(">")[0])
        assert words[:2] == ["balancelab", "sensitivity"]
        parser.parse_args(words[1:])
    assert analyses.sensitivity is sensitivity


def test_nerath_lists_its_decisions_and_the_cli_plays_the_flyer_and_setup_readings(run, capsys):
    ids = [d.id for d in nerathsim.DECISIONS]
    assert "D-flyer-capture" in ids and "D-starting-gold" in ids
    code, out, err = run(capsys, "sensitivity", "nerath", "--games", "2", "--rule", "max_rounds=1",
                         "--only", "D-flyer-capture,D-starting-gold", "--format", "csv")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert list(dict.fromkeys(table["decision"])) == ["D-flyer-capture", "D-starting-gold"]
    assert set(table["alternative"]) == {"False", "'equal'"}
    assert set(table["quantity"]) == {"seat 1 win rate", "seat 2 win rate", "seat 3 win rate", "seat 4 win rate",
                                      "turns", "timeouts"}
    assert (table["games"] == 2).all()
    turns = table[table["quantity"] == "turns"]
    assert np.allclose(turns["default"], 4.0) and np.allclose(turns["value"], 4.0)   # one round: four realms' turns


def test_out_stores_the_table_with_its_settings_and_never_overwrites_without_force(run, capsys, tmp_path):
    path = tmp_path / "night.json"
    args = ("sensitivity", "nightsim", "--games", "6", "--policies", "random", "--engine", "python",
            "--only", "D-scavenger", "--format", "csv", "--out", str(path))
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert path.exists()
    table = load(path)
    printed = pd.read_csv(io.StringIO(out.split("wrote ")[0]))
    assert list(table["quantity"]) == list(printed["quantity"]) and len(table) == 6
    assert table["diff"].to_numpy() == pytest.approx(printed["diff"].to_numpy(), nan_ok=True)
    assert table.attrs["game"] == "nightsim" and table.attrs["games"] == 6 and table.attrs["policies"] == ["random"] * 4
    before = path.read_bytes()
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and "exists" in err and "--force" in err and len(err.strip().splitlines()) == 1
    assert path.read_bytes() == before
    code, _, err = run(capsys, *args, "--force")
    assert code == 0, err
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": 3}')
    with pytest.raises(ValueError, match="not a sensitivity file"):
        load(bad)
