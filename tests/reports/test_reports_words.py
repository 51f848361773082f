"""The report's words: plain values, seats from 1, no development history, turn steps, dodged markers,
and the confirmed rule change stated beside the imbalance it fixes."""
import pandas as pd
import pytest

from analyses.confirmed import confirmed_table, knob_words
from analyses.findings import _confirmed_first, words
from analyses.shipped import shipped_studies
from reports import figures
from reports.words import interval_cell, people_seats, plain_value, policy_parameters, present


def test_values_are_plain_text_never_python_literals():
    assert plain_value(("karkoth", "iron_circle")) == "karkoth, iron_circle"
    assert plain_value("('R B T F', 'C S M C')") == "R B T F, C S M C"
    assert plain_value({"hero": {"cost": 3, "first_strike": False}}) == "hero: cost 3, first strike no"
    assert plain_value(None) == "none" and plain_value("(none: the published game)") == "(none: the published game)"
    assert words("('karkoth', 'iron_circle')") == "karkoth, iron circle"
    text = policy_parameters("WarPolicy(name='balanced', amphibious=True, purchase=Purchase(weights=(('footsoldier', "
                             "4.0), ('siege_engine', 2.0)), ships=1))")
    assert text == "amphibious yes, purchase (weights (footsoldier 4, siege engine 2), ships 1)"


def test_seats_are_numbered_from_1():
    assert people_seats("Seat 0 starts; seats 0 and 2; seats 0+2; 3 players") == \
        "Seat 1 starts; seats 1 and 3; seats 1+3; 3 players"
    teams = pd.DataFrame({"team": ["a", "b"], "seats": ["0+2", "1+3"], "games": [40, 40]})
    assert list(present(teams)["seats (1 = first to play)"]) == ["1 + 3", "2 + 4"]


def test_an_interval_from_fewer_than_30_games_is_marked():
    assert interval_cell(0.5, 0.5, 0.5, "rate", n=4).endswith("⚠ few games")
    assert "⚠" not in interval_cell(0.5, 0.4, 0.6, "rate", n=30)
    shown = present(pd.DataFrame({"win_rate": [0.5, 0.3], "ci_low": [0.2, 0.25], "ci_high": [0.8, 0.35],
                                  "games": [4, 400]}))
    assert [("⚠" in c) for c in shown["win rate [95% interval]"]] == [True, False]


def test_game_length_in_rounds_of_four_turns_gets_one_bar_per_step_and_markers_are_dodged():
    assert figures.step([12, 16, 20, 24, 16]) == 4 and figures.step([3, 4, 7]) == 1 and figures.step([]) == 1
    offsets = [figures.dodge(k, 4) for k in range(4)]
    assert offsets == sorted(offsets) and min(b - a for a, b in zip(offsets, offsets[1:])) > 0.1
    assert figures.dodge(0, 1) == 0.0


def test_the_shipped_confirmation_is_read_with_seats_from_1():
    store = next(s.path for s in shipped_studies("nightsim"))
    table = confirmed_table(store)
    assert table.attrs["code"] == "reduced_first_turn_seats=3, hand_size=7"
    assert list(table["measure"][:4]) == [f"seat {i} win rate" for i in (1, 2, 3, 4)]
    assert table.loc[0, "before"] == pytest.approx(9875 / 36000) and table.loc[0, "n"] == 36000
    assert knob_words("extra_first_turn_seats", 1) == "the first player takes one action more on the first turn"
    assert knob_words("hand_size", 7) == "every player is dealt 7 cards"


def test_a_confirmed_change_follows_the_imbalance_it_fixes():
    def row(kind, source="", significant=True):
        return {"game": "g", "title": "G", "kind": kind, "text": kind, "effect": 1.0, "source": source, "row": 0,
                "numbers": "", "significant": significant}
    table = pd.DataFrame([row("seat", "fpa_seats"), row("impact", "impact"), row("fix", "extra:Confirmed rule change: x"),
                          row("not_found", "", False)])
    assert list(_confirmed_first(table)["kind"]) == ["seat", "fix", "impact", "not_found"]
    balanced = table[table["kind"] != "seat"].reset_index(drop=True)
    assert list(_confirmed_first(balanced)["kind"]) == ["fix", "impact", "not_found"]
