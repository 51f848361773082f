"""Report figures read cleanly: no overlapping labels, legends beside (not on) the data, whole
numbers on count axes, n in every heat-map cell, histograms clipped to the bulk with the tail
counted. Each figure is drawn from hand-built tables with the longest names the games use."""
import itertools

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from reports import figures

UNITS = ["dragon", "fighter", "footsoldier", "monster", "siege_engine", "storm_elemental", "wizard"]


@pytest.fixture
def drawn(monkeypatch):
    """Figures the report functions build, drawn, instead of PNG data URIs."""
    made = []

    def keep(fig):
        FigureCanvasAgg(fig).draw()
        made.append(fig)
        return "data:image/png;base64,"
    monkeypatch.setattr(figures, "to_data_uri", keep)
    return made


def _boxes(artists, renderer):
    return [a.get_window_extent(renderer) for a in artists if a.get_visible() and a.get_text().strip()]


def _overlapping(boxes, slack=0.5):
    for a, b in itertools.combinations(boxes, 2):
        if (min(a.x1, b.x1) - max(a.x0, b.x0) > slack) and (min(a.y1, b.y1) - max(a.y0, b.y0) > slack):
            return a, b
    return None


def check_layout(fig):
    """No two tick labels of an axis overlap, no two texts in a plot overlap, every legend sits
    outside the plot area it belongs to."""
    renderer = fig.canvas.get_renderer()
    whole = {ax: ax.get_tightbbox(renderer) for ax in fig.axes}      # a plot with its tick labels and titles
    for legend in fig.legends:
        for box in whole.values():
            assert _overlapping([legend.get_window_extent(renderer), box]) is None, "a figure legend covers a plot"
    for ax in fig.axes:
        assert _overlapping(_boxes(ax.get_xticklabels(), renderer)) is None, "x tick labels overlap"
        assert _overlapping(_boxes(ax.get_yticklabels(), renderer)) is None, "y tick labels overlap"
        assert _overlapping(_boxes(ax.texts, renderer)) is None, "texts in the plot overlap"
        legend = ax.get_legend()
        if legend is not None:
            box, area = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
            assert box.x0 >= area.x1 - 1 or box.y1 <= area.y0 + 1, "the legend covers the plot"
            for other, whole_box in whole.items():
                if other is not ax:
                    assert _overlapping([box, whole_box]) is None, "the legend covers another plot"
        for label in [*ax.get_xticklabels(), *ax.get_yticklabels()]:      # wrapped, never mid-word
            assert all(len(line) > 1 or line.isdigit() for line in label.get_text().split("\n")), label


def tick_texts(ax, axis="x"):
    labels = ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()
    return [t.get_text() for t in labels if t.get_text()]


def test_win_rate_bars_name_n_under_each_bar_and_keep_the_legend_outside(drawn):
    seats = pd.DataFrame({"seat": [1, 2, 3, 4], "games": [3000] * 4, "win_rate": [0.278, 0.27, 0.243, 0.209],
                          "ci_low": [0.263, 0.255, 0.228, 0.195], "ci_high": [0.295, 0.286, 0.259, 0.224],
                          "expected": [0.25] * 4})
    figures.rate_bars(seats, "seat", "Nightmarium: win rate by seat")
    realms = pd.DataFrame({"faction": ["karkoth", "vailin", "iron_circle", "nerath", "storm_elemental", "wizard"],
                           "games": [300] * 6, "win_rate": [0.27, 0.73, 0.27, 0.73, 0.5, 0.5],
                           "ci_low": [0.22] * 6, "ci_high": [0.78] * 6, "expected": [0.5] * 6})
    figures.rate_bars(realms, "faction", "Nerath: win rate by realm")
    for fig in drawn:
        check_layout(fig)
    assert tick_texts(drawn[0].axes[0]) == ["1\nn=3,000", "2\nn=3,000", "3\nn=3,000", "4\nn=3,000"]
    assert "iron circle\nn=300" in tick_texts(drawn[1].axes[0])


def test_heat_maps_show_n_in_every_cell_and_their_labels_do_not_overlap(drawn):
    pairs = [(a, b) for a in UNITS for b in UNITS if a != b]
    matrix = pd.DataFrame({"policy": [a for a, _ in pairs], "opponent": [b for _, b in pairs],
                           "win_rate": np.linspace(0.02, 0.98, len(pairs)), "games": [12] * len(pairs)})
    figures.heatmap(matrix, "Nerath: policy × policy")
    pivot = pd.DataFrame({"attacker": UNITS, **{u: np.linspace(0, 1, len(UNITS)) for u in UNITS}})
    figures.pivot_heatmap(pivot, "Equal-budget duels (12 gold)", "defender", "attacker")
    for fig in drawn:
        check_layout(fig)
    cells = [t.get_text() for t in drawn[0].axes[0].texts]
    assert len(cells) == len(pairs) and all(c.endswith("\nn=12") for c in cells)
    assert "storm\nelemental" in tick_texts(drawn[0].axes[0]) and "storm elemental" in tick_texts(drawn[0].axes[0], "y")
    assert all("\nn=" not in t.get_text() for t in drawn[1].axes[0].texts)   # exact odds: no n


def test_a_long_tailed_histogram_is_clipped_to_the_bulk_and_the_tail_is_counted(drawn):
    turns = pd.Series(np.concatenate([np.arange(1, 41).repeat(25), [150, 220, 300, 400, 400, 400, 400, 400,
                                                                     400, 400, 400]]))
    edge, tail = figures.histogram_bulk(turns)
    assert edge == int(np.floor(np.percentile(turns, 99))) and tail == int((turns > edge).sum()) and tail >= 10
    figures.histogram(turns, "Midnighters: game length")
    fig = drawn[0]
    check_layout(fig)
    ax = fig.axes[0]
    assert ax.get_xlim()[1] < edge + 5                     # the x axis ends at the bulk, not at 400 turns
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"{tail:,} longer games (over {edge:,} turns) not drawn;\nthe longest: 400 turns" in labels
    assert all(float(t).is_integer() for t in ax.get_yticks()) and all(float(t).is_integer() for t in ax.get_xticks())


def test_nerath_sweep_lines_keep_the_long_legend_off_both_plots(drawn):
    groups = ["karkoth + iron circle", "vailin + nerath", "iron circle", "karkoth", "nerath", "vailin"]
    lines = pd.DataFrame([{"group": g, "value": v, "y": 20.0 + 10 * k, "low": 10.0 + 10 * k, "high": 30.0 + 10 * k}
                          for k, g in enumerate(groups) for v in (2, 3, 4)])
    turns = pd.DataFrame({"value": [2, 3, 4], "estimate": [17.0, 17.2, 16.7], "ci_low": [16.4, 16.4, 16.0],
                          "ci_high": [17.6, 18.0, 17.4]})
    figures.sweep_lines(lines, turns, "players", "Nerath: players", "win rate (%)")
    check_layout(drawn[0])


def test_sweep_lines_have_whole_number_players_and_a_legend_off_the_data(drawn):
    values = [2, 3, 4, 5]
    lines = pd.DataFrame([{"group": f"seat {s}", "value": v, "y": 2.0 * s - v, "low": 2.0 * s - v - 4,
                           "high": 2.0 * s - v + 4} for v in values for s in range(1, v + 1)])
    turns = pd.DataFrame({"value": values, "estimate": [24.0, 38.0, 49.0, 55.0], "ci_low": [23.0, 37.0, 48.0, 54.0],
                          "ci_high": [25.0, 39.0, 50.0, 56.0]})
    figures.sweep_lines(lines, turns, "players", "Nightmarium: players", "win rate − fair share (points)")
    fig = drawn[0]
    check_layout(fig)
    for ax in fig.axes:
        assert tick_texts(ax) == ["2", "3", "4", "5"]


def test_impact_bars_show_every_row_with_plain_split_labels(drawn):
    stats = ["played_star", "traps_sprung", "bridge_distance", "played_catcher = intercepts", "turns_skipped",
             "nightmares_drawn", "ability_executioner", "cards_discarded"]
    impact = pd.DataFrame({"stat": stats, "split": ["> 0", "> 0 (median)", "> 4 (median)"] + ["> 0"] * 5,
                           "diff_pp": np.linspace(30, -17, len(stats))})
    impact["diff_low"], impact["diff_high"] = impact["diff_pp"] - 2, impact["diff_pp"] + 2
    figures.impact_bars(impact, "Midnighters: card and ability impact")
    fig = drawn[0]
    check_layout(fig)
    labels = tick_texts(fig.axes[0], "y")
    assert len(labels) == len(stats)
    assert "traps sprung (> 0, the median)" in labels and "bridge distance (> 4, the median)" in labels


def test_unit_efficiency_bars_keep_the_legend_outside(drawn):
    eff = pd.DataFrame({"unit": UNITS + ["castle", "warship"], "attack_hits_per_gold": [0.15] * 9,
                        "defence_hits_per_gold": [0.2] * 9, "hits_absorbed_per_gold": [0.5] * 9})
    figures.hits_per_gold(eff, "Unit cost efficiency")
    check_layout(drawn[0])
