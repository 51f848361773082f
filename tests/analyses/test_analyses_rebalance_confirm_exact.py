"""`analyses.rebalance_confirm` with exact expected values: the confirmation size from hand-set
intervals, the before/after table from hand-set measure tables, and `confirm` on the toy game (what it
plays, on which seed, rules and folder, and what it tables), with a recording stand-in for the search's
runner."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import analyses
from analyses.frames import decided, seat_wins
from analyses.objectives import make_objective
from analyses.rebalance_confirm import (
    CONFIRM_DIR,
    CONFIRM_MAX,
    CONFIRM_PRECISION,
    before_after,
    before_after_many,
    confirm,
    confirmation_size,
)
from analyses.rebalance_games import _tag, fresh_seed


class Fixed:
    """An objective whose table is given per frame (looked up by the frame's `name` attr)."""

    def __init__(self, tables: dict):
        self.tables = tables
        self.calls = []

    def table(self, df, rules):
        self.calls.append((df.attrs["name"], rules))
        return self.tables[df.attrs["name"]].copy()


def frame(name: str, n: int = 100) -> pd.DataFrame:
    df = pd.DataFrame({"x": np.arange(n)})
    df.attrs["name"] = name
    return df


def rows(*measures):
    """Measure rows: (measure, value, ci_low, ci_high, target_low, target_high, n, within)."""
    return pd.DataFrame([{"objective": "o", "measure": m, "value": v, "ci_low": lo, "ci_high": hi,
                          "target_low": tl, "target_high": th, "n": n, "within": w}
                         for m, v, lo, hi, tl, th, n, w in measures])


# -- confirmation_size ------------------------------------------------------------------------------
def test_the_size_makes_the_widest_interval_narrow_enough_for_its_band():
    obj = Fixed({"f": rows(("a", 0.25, 0.23, 0.27, 0.22, 0.28, 100, True),      # half 0.02, band 0.03
                           ("b", 0.25, 0.24, 0.26, 0.22, 0.28, 100, True))})     # half 0.01
    # need = ceil(100 * (0.02 / (0.4 * 0.03))^2) = ceil(277.8) = 278
    assert confirmation_size(obj, frame("f"), "R") == 278
    assert obj.calls == [("f", "R")]
    assert confirmation_size(obj, frame("f"), "R", per_deal=4) == 280            # whole deals
    assert confirmation_size(obj, frame("f"), "R", per_deal=3) == 279
    assert confirmation_size(obj, frame("f"), "R", precision=0.2) == 1112         # ceil(1111.1)
    assert confirmation_size(obj, frame("f"), "R", cap=250) == 250
    assert confirmation_size(obj, frame("f"), "R", cap=250, per_deal=4) == 252    # the cap in whole deals
    assert confirmation_size(obj, frame("f", 300), "R") == 834                    # ceil(300 * 2.778)


def test_the_size_is_never_below_the_games_played_and_skips_intervals_that_cannot_decide():
    narrow = Fixed({"f": rows(("a", 0.25, 0.249, 0.251, 0.22, 0.28, 100, True))})
    assert confirmation_size(narrow, frame("f"), "R") == 100
    assert confirmation_size(narrow, frame("f", 0), "R") == 1                      # at least one game
    skipped = Fixed({"f": rows(("nan", 0.25, np.nan, 0.3, 0.22, 0.28, 100, True),
                               ("zero band", 0.25, 0.1, 0.4, 0.25, 0.25, 100, True),
                               ("inverted", 0.25, 0.4, 0.1, 0.22, 0.28, 100, True),
                               ("open band", 0.25, 0.1, 0.4, 0.22, np.inf, 100, True),
                               ("zero width", 0.25, 0.25, 0.25, 0.22, 0.28, 100, True))})
    assert confirmation_size(skipped, frame("f"), "R") == 100
    assert CONFIRM_PRECISION == 0.4 and CONFIRM_MAX == 200_000
    wide = Fixed({"f": rows(("a", 0.25, 0.0, 1.0, 0.249, 0.251, 100, True))})
    assert confirmation_size(wide, frame("f"), "R") == 200_000


# -- before_after ---------------------------------------------------------------------------------------
def test_before_and_after_are_matched_by_measure_in_the_after_tables_order():
    obj = Fixed({"before": rows(("m2", 0.3, 0.2, 0.4, 0.0, 1.0, 50, True), ("m3", 0.9, 0.8, 1.0, 0.0, 0.5, 50, False)),
                 "after": rows(("m1", 0.5, 0.45, 0.55, 0.4, 0.6, 80, True), ("m2", 0.7, 0.6, 0.8, 0.0, 0.5, 80, False))})
    out = before_after(obj, frame("before"), frame("after"), "B", "A")
    assert obj.calls == [("before", "B"), ("after", "A")]
    assert list(out.columns) == ["objective", "measure", "target_low", "target_high", "before", "before_low",
                                 "before_high", "after", "after_low", "after_high", "n", "within_before", "within_after"]
    assert out["measure"].tolist() == ["m1", "m2"] and list(out.index) == [0, 1]
    assert np.isnan(out.loc[0, "before"]) and out.loc[1, ["before", "before_low", "before_high"]].tolist() == [0.3, 0.2, 0.4]
    assert out["after"].tolist() == [0.5, 0.7] and out["after_low"].tolist() == [0.45, 0.6]
    assert out["after_high"].tolist() == [0.55, 0.8] and out["n"].tolist() == [80, 80]
    assert out["target_high"].tolist() == [0.6, 0.5]
    assert out["within_before"].tolist() == [False, True] and out["within_after"].tolist() == [True, False]
    assert out["within_before"].dtype == bool and out["within_after"].dtype == bool


def test_an_objective_with_nothing_to_measure_after_gives_an_empty_table_and_is_dropped():
    empty = Fixed({"before": rows(("m", 0.3, 0.2, 0.4, 0.0, 1.0, 5, True)), "after": rows()})
    out = before_after(empty, frame("before"), frame("after"), "B", "A")
    assert isinstance(out, pd.DataFrame) and out.empty
    one = Fixed({"before": rows(("m", 0.3, 0.2, 0.4, 0.0, 1.0, 5, True)),
                 "after": rows(("m", 0.5, 0.4, 0.6, 0.0, 1.0, 5, True))})
    many = before_after_many([empty, one, empty, one], frame("before"), frame("after"), "B", "A")
    assert many["measure"].tolist() == ["m", "m"] and list(many.index) == [0, 1]
    none = before_after_many([empty], frame("before"), frame("after"), "B", "A")
    assert isinstance(none, pd.DataFrame) and none.empty
    assert before_after_many([], frame("before"), frame("after"), "B", "A").empty


# -- confirm on the toy game ------------------------------------------------------------------------------
class Run:
    """The search's runner as `confirm` uses it: its frames are toy runs, and every call is recorded."""

    def __init__(self, toy, per_deal: int = 1):
        self.toy, self.per_deal, self.calls = toy, per_deal, []

    def _play(self, rules, n, seed):
        return analyses.simulate(self.toy, n, rules=rules, policies="random", seed=seed, seat_order="fixed",
                                 progress=False)

    def frame(self, rules, n, tag):
        self.calls.append(("frame", rules, n, tag))
        return self._play(rules, n, 5)

    def confirm_frame(self, rules, n, seed, folder, tag):
        self.calls.append(("confirm", rules, n, seed, folder, tag))
        return self._play(rules, n, seed)


def shares(df):
    won = seat_wins(df[decided(df)])
    return won.mean(axis=0)


def test_confirm_plays_the_published_game_and_the_proposal_on_a_fresh_seed(toy, tmp_path):
    before_rules, after_rules = toy.Rules(bias=0.5), toy.Rules(bias=0.0)
    run = Run(toy)
    obj = make_objective("seat_balance(tolerance=0.03)")
    table, sides, seed, games, sizes = confirm(toy, obj, {(): run}, [()], {(): before_rules}, after_rules,
                                               {"bias": 0.0}, {"bias": 0.5}, None, [50], 4, 120, 0.4, tmp_path)
    assert seed == fresh_seed(4) and seed != 4 and games == 120 and sizes == {"": 120}
    folder = Path(tmp_path) / CONFIRM_DIR
    assert run.calls == [("confirm", before_rules, 120, seed, folder, _tag({"bias": 0.5})),
                         ("confirm", after_rules, 120, seed, folder, _tag({"bias": 0.0}))]
    assert table["measure"].tolist() == [f"seat {s} win rate" for s in range(4)]
    assert table["before"].to_numpy() == pytest.approx(shares(run._play(before_rules, 120, seed)))
    assert table["after"].to_numpy() == pytest.approx(shares(run._play(after_rules, 120, seed)))
    assert (table["n"] == 120).all() and (table["objective"] == "seat_balance").all()
    # the side effects: every other objective the toy can measure, not the alliances of a game without teams
    assert set(sides["objective"]) == {"game_length"}
    assert (sides["before"] != sides["after"]).any()


def test_an_unchanged_proposal_is_played_once_and_a_team_game_watches_its_alliances(toy):
    rules = toy.Rules(teams=True, players=4)
    run = Run(toy)
    obj = make_objective("seat_balance(tolerance=0.03)")
    table, sides, seed, games, sizes = confirm(toy, obj, {(): run}, [()], {(): rules}, rules, {"bias": 0.0},
                                               {"bias": 0.0}, None, [50], 7, 80, 0.4, None)
    assert run.calls == [("confirm", rules, 80, fresh_seed(7), None, _tag({"bias": 0.0}))]
    assert table["before"].tolist() == table["after"].tolist()
    assert set(sides["objective"]) == {"game_length", "alliance_balance"}


TWO = (("players", "2"),)     # a condition as parsed from 'objective@players=2'


def test_without_a_set_size_each_condition_is_sized_from_the_proposals_search_games(toy):
    base, after = toy.Rules(bias=0.5), toy.Rules(bias=0.0)
    runs = {(): Run(toy, per_deal=4), TWO: Run(toy, per_deal=1)}
    obj = make_objective("seat_balance(tolerance=0.05)+game_length@players=2")
    conds = [(), TWO]
    base_at = {(): base, TWO: toy.Rules(bias=0.5, players=2)}
    table, sides, seed, games, sizes = confirm(toy, obj, runs, conds, base_at, after, {"bias": 0.0},
                                               {"bias": 0.5}, None, [30, 60], 2, None, 0.9, None)
    two = toy.Rules(bias=0.0, players=2)
    first = runs[()].calls[0]
    assert first == ("frame", after, 60, _tag({"bias": 0.0}))
    want = confirmation_size(make_objective("seat_balance(tolerance=0.05)"), runs[()]._play(after, 60, 5), after, 0.9, 4)
    assert sizes[""] == want and want % 4 == 0
    assert runs[TWO].calls[0] == ("frame", two, 60, _tag({"bias": 0.0}))
    assert set(sizes) == {"", "players=2"} and games == max(sizes.values())
    assert [c[2] for c in runs[()].calls[1:]] == [sizes[""]] * 2
    assert [c[1] for c in runs[TWO].calls[1:]] == [toy.Rules(bias=0.5, players=2), two]
    measures = table["measure"].tolist()
    assert measures[:4] == [f"seat {s} win rate" for s in range(4)]
    assert all(m.startswith("[players=2]") for m in measures[4:]) and len(measures) > 4
    assert set(sides["objective"]) >= {"game_length", "seat_balance"}
    # each condition watches its own side effects, on its own frames: no measure twice
    assert sides["measure"].is_unique and sides["measure"].str.startswith("[players=2]").any()
