"""`analyses.card_impact.opening_hand_impact`: the win rate of seats dealt a card against seats not
dealt it, paired within deals, is exact on a hand-built table, finds a planted effect with an interval
that covers it, holds its level on a null (seat luck repeating through a deal's rotations), and reads
its hands from the game's own deal; association tables stay labelled association."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import analyses
import nightsim.opening
from analyses.card_impact import (
    ASSOCIATION,
    CAUSAL,
    IN_GAME_BIAS,
    OPENING_TEST,
    card_impact,
    hand_impact,
    in_game_impact,
    is_causal,
    opening_hand_impact,
    seat_hands,
)
from dreamsim import Rules as DreamRules
from dreamsim.engine.cards import KIND_NAMES
from dreamsim.opening import opening_hands as dream_hands
from nightsim import Rules
from nightsim.opening import card_families, card_name, opening_hands


def _rows(deal, held, won):
    return [{"deal": deal, "cards": frozenset(h), "won": w} for h, w in zip(held, won)]


def tiny() -> pd.DataFrame:
    """Three deals pair X (d = 0.5, 0, 0.25), a fourth has only X holders and pairs nothing."""
    rows = (_rows("a", ["X", "", "Y"], [True, False, True])                        # 1/1 vs 1/2
            + _rows("b", ["X", "X", "Y", ""], [True, False, False, True])          # 1/2 vs 1/2
            + _rows("c", ["X", "Y", "Y", "", ""], [True, True, True, True, False])  # 1/1 vs 3/4
            + _rows("d", ["X", "X"], [True, False]))
    return pd.DataFrame(rows)


def test_the_paired_difference_on_a_hand_built_table_is_exact():
    table = hand_impact(tiny())
    x = table.set_index("item").loc["X"]
    # d = (0.5, 0, 0.25): mean 0.25, sd 0.25, se 0.25 / sqrt 3, t = sqrt 3 on 2 df: p = 1 - t / sqrt(t^2 + 2)
    se = 0.25 / math.sqrt(3)
    assert x.diff_pp == pytest.approx(25.0)
    assert x.p_value == pytest.approx(1 - math.sqrt(3) / math.sqrt(5), rel=1e-9)
    half = 100 * 4.302652729749464 * se
    assert (x.diff_low, x.diff_high) == pytest.approx((25.0 - half, 25.0 + half), rel=1e-9)
    assert (x.deals, x.n_with, x.n_without) == (3, 6, 8)
    assert x.win_with == pytest.approx(4 / 6) and x.win_without == pytest.approx(5 / 8)
    assert x.with_low < 4 / 6 < x.with_high
    assert (x.test, x.kind, x.evidence) == (OPENING_TEST, "card", CAUSAL)
    # Y: deals a (1/1 vs 1/2), b (0/1 vs 2/3), c (2/2 vs 2/3): d = (0.5, -2/3, 1/3)
    y = table.set_index("item").loc["Y"]
    d = np.array([0.5, -2 / 3, 1 / 3])
    assert y.diff_pp == pytest.approx(100 * d.mean())
    assert y.p_value == pytest.approx(stats.ttest_1samp(d, 0).pvalue, rel=1e-9)
    assert list(table["item"]) == ["X", "Y"]              # sorted by the difference, largest first
    assert is_causal(table) and table.attrs["evidence"] == CAUSAL and table.attrs["causal"] is True


def test_items_with_too_few_paired_deals_are_left_out_and_bad_input_is_refused():
    assert list(hand_impact(tiny(), min_deals=4)["item"]) == []
    with pytest.raises(ValueError, match="'won' column"):
        hand_impact(tiny().drop(columns="won"))
    with pytest.raises(ValueError, match="min_deals"):
        hand_impact(tiny(), min_deals=1)
    with pytest.raises(ValueError, match="confidence"):
        hand_impact(tiny(), confidence=1.0)


def toy_seats(rng, effect: float, deals: int = 150, rotations: int = 2, seat_luck: float = 0.3) -> pd.DataFrame:
    """Two seats per game, one winner; each seat is dealt one of the cards A, B, C, D (no repeats). The seat
    holding A wins with probability 0.5 + effect against a seat without it; `seat_luck` of the deals hand
    every rotation to one seat (luck that repeats through the deal, as a dealt hand does)."""
    rows = []
    for deal in range(deals):
        hands = rng.permutation(4)[:2]
        lucky = rng.integers(2) if rng.random() < seat_luck else -1
        p0 = 0.5 + effect * (int(hands[0] == 0) - int(hands[1] == 0))
        for _ in range(rotations):
            seat0_wins = (lucky == 0) if lucky >= 0 else rng.random() < p0
            for seat in (0, 1):
                rows.append({"deal": deal, "cards": frozenset({"ABCD"[hands[seat]]}),
                             "won": bool(seat0_wins) == (seat == 0)})
    return pd.DataFrame(rows)


def test_a_card_that_truly_helps_is_found_and_its_interval_covers_the_effect():
    rng = np.random.default_rng(np.random.SeedSequence(5))
    # with A in one hand, d = won(A) - won(other) has mean 2 * effect * (1 - seat_luck) = 2 * 0.2 * 0.7 = 0.28
    table = hand_impact(toy_seats(rng, effect=0.2, deals=300)).set_index("item")
    a = table.loc["A"]
    assert a.p_value < 1e-3 and a.diff_low < 28.0 < a.diff_high and a.diff_pp > 15
    assert all(table.loc[c, "diff_pp"] < 0 for c in "BCD")   # the others lose to A's holder


def test_on_a_null_the_false_positive_rate_and_coverage_are_nominal():
    rng = np.random.default_rng(np.random.SeedSequence(11))
    runs = 300
    rejected = covered = 0
    for _ in range(runs):
        row = hand_impact(toy_seats(rng, effect=0.0, deals=60)).set_index("item").loc["A"]
        rejected += row.p_value < 0.05
        covered += row.diff_low <= 0 <= row.diff_high
    se = math.sqrt(0.05 * 0.95 / runs)
    assert abs(rejected / runs - 0.05) < 3 * se + 0.01
    assert covered == runs - rejected                       # the interval and the test agree


@pytest.fixture(scope="module")
def night():
    return analyses.simulate("nightsim", 48, policies=["random", "greedy", "random"], rules=Rules(players=3),
                             seed=3, seat_order="rotate", progress=False, engine="python")


def test_the_hands_are_read_from_the_games_own_deal(night):
    seats = seat_hands(night)
    assert len(seats) == 3 * len(night)
    games = night.reset_index(drop=True)
    rules = Rules(players=3)
    for g in (0, 5, 47):
        seed = int(games.loc[g, "game_seed"])
        dealt = opening_hands(rules, seed)
        for seat in range(3):
            row = seats[(seats["seat"] == seat)].iloc[g]
            assert row.cards == frozenset(card_name(rules, c) for c in dealt[seat])
            assert row.families == frozenset(f for c in dealt[seat] for f in card_families(rules, c))
            legions = {card_families(rules, c)[0] for c in dealt[seat]}
            assert legions <= row.families and legions <= {"Necronauts", "Homunculi", "Insektoids", "Chimeridae"}
    # a rotated deal's games share the seed, so each seat keeps its hand through the rotations
    first = seats[seats["seat"] == 0].reset_index(drop=True)
    assert first.loc[0, "cards"] == first.loc[1, "cards"] == first.loc[2, "cards"]


def test_opening_hand_impact_of_a_real_run_is_a_causal_table_with_holm(night):
    table = opening_hand_impact(night)
    assert set(table["kind"]) == {"card", "family"} and is_causal(table)
    assert (table["evidence"] == CAUSAL).all() and table.attrs["in_game_bias"] == IN_GAME_BIAS
    assert (table["p_holm"] >= table["p_value"] - 1e-12).all() and (table["p_holm"] <= 1).all()
    m = len(table)
    smallest = table["p_value"].idxmin()
    assert table.loc[smallest, "p_holm"] == pytest.approx(min(1.0, m * table.loc[smallest, "p_value"]))
    families = table[table["kind"] == "family"]
    abilities = {f"{a} ability" for a in ("Herald", "Weeper", "Mocker", "Executioner", "Scavenger", "Devourer")}
    assert set(families["item"]) <= {"Necronauts", "Homunculi", "Insektoids", "Chimeridae"} | abilities
    assert set(families["item"]) & abilities
    assert ((families["n_with"] + families["n_without"]) == 3 * len(night)).all()
    greedy = opening_hand_impact(night, policy="greedy", families=False)
    assert set(greedy["kind"]) <= {"card"} and (greedy["n_with"] + greedy["n_without"] <= len(night)).all()


def test_association_tables_are_labelled_and_the_in_game_rate_names_its_bias(night):
    impact = card_impact(night)
    assert impact.impact.attrs["evidence"] == ASSOCIATION and not is_causal(impact.impact)
    assert not is_causal(impact.means)
    played = in_game_impact(night)
    assert not is_causal(played) and played.attrs["bias"] == IN_GAME_BIAS
    assert all(s.startswith("played_") for s in played["stat"])


def test_games_whose_deal_cannot_be_read_are_refused(night, monkeypatch):
    kernel = night.copy()
    kernel.attrs = {**night.attrs, "engine": "kernel"}
    assert len(opening_hand_impact(kernel)) == len(opening_hand_impact(night))   # the kernel deals as play_game
    monkeypatch.setattr(nightsim.opening, "KERNEL_SAME_DEAL", False)
    with pytest.raises(ValueError, match="batch kernel"):
        opening_hand_impact(kernel)
    bare = night.copy()
    bare.attrs = {}
    with pytest.raises(ValueError, match="names no game"):
        opening_hand_impact(bare)
    with pytest.raises(ValueError, match="sat in no decided game"):
        opening_hand_impact(night, policy="nobody")
    nerath = night.copy()
    nerath.attrs = {**night.attrs, "game": "nerathsim"}
    with pytest.raises(ValueError, match="no opening hands"):
        opening_hand_impact(nerath)
    assert not is_causal(pd.DataFrame({"evidence": [CAUSAL, ASSOCIATION]}))


def test_midnighters_opening_hands_are_read_from_its_deal_too():
    df = analyses.simulate("dreamsim", 16, policies=["random", "heuristic", "random", "heuristic"], seed=2,
                           seat_order="rotate", progress=False, engine="python")
    seats = seat_hands(df)
    rules = DreamRules()
    first = seats.iloc[0]
    dealt = dream_hands(rules, int(df["game_seed"].iloc[0]))[0]
    assert first.cards == frozenset(KIND_NAMES[k] for k in dealt)
    table = opening_hand_impact(df)
    assert is_causal(table) and set(table["item"]) <= set(KIND_NAMES) | {"Trap", "Suspense", "Nightmare"}
    assert ((table["n_with"] + table["n_without"]) == len(seats)).all()
