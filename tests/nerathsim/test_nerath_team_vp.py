"""An asymmetric victory condition for the alliance game (`Rules.team_vp_to_win`, a re-balancing
variant, not the seed): each alliance needs its own VP, the free-for-all game is untouched,
the published game (None) decides every position as before, and the re-balancing knob
``team_vp_to_win`` offers it spelled out ("20-24"; "table" = None).
"""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerathsim
from analyses import knobs as K
from analyses.objectives import change_cost
from nerathsim.engine.turn import _victory_check
from nerathsim.knobs import TEAM_VP_CHOICES
from nerathsim.rules import REALMS, Rules
from nerathsim.scenario import build_state

ALLY = Rules(map="small", mode="alliance", events=False, dungeons=False)
EVIL, GOOD = (0, 2), (1, 3)        # Karkoth + Iron Circle, Vailin + Nerath as realm indices


def _decide(rules, vp: dict):
    s = build_state(rules, vp=vp, realm="nerath")
    return _victory_check(s), s.winner


def test_each_alliance_needs_its_own_vp_and_free_for_all_keeps_the_table():
    rules = dataclasses.replace(ALLY, team_vp_to_win=(20, 24))
    assert rules.vp_target_of(EVIL) == 20 and rules.vp_target_of(GOOD) == 24
    assert ALLY.vp_target_of(EVIL) == ALLY.vp_target_of(GOOD) == 20 == ALLY.vp_target
    ffa = dataclasses.replace(rules, mode="free_for_all")
    assert all(ffa.vp_target_of((p,)) == 13 for p in range(4))
    # Vailin + Nerath at 22: enough for the published 20, not for 24
    assert _decide(ALLY, {"vailin": 19, "nerath": 3}) == (True, (1, 3))
    assert _decide(rules, {"vailin": 19, "nerath": 3}) == (False, None)
    assert _decide(rules, {"vailin": 20, "nerath": 4}) == (True, (1, 3))
    # Karkoth + Iron Circle at 20 win although the other alliance has more VP (23 < its 24)
    assert _decide(rules, {"karkoth": 10, "iron_circle": 10, "vailin": 20, "nerath": 3}) == (True, (0, 2))


def test_both_alliances_over_their_lines_the_larger_margin_wins_and_equal_margins_play_on():
    rules = dataclasses.replace(ALLY, team_vp_to_win=(20, 24))
    # evil 21 (1 over), good 26 (2 over): good wins though a symmetric count would compare 21 and 26 anyway
    assert _decide(rules, {"karkoth": 21, "vailin": 26}) == (True, (1, 3))
    # evil 23 (3 over), good 25 (1 over): evil wins with fewer VP
    assert _decide(rules, {"karkoth": 23, "vailin": 25}) == (True, (0, 2))
    # evil 22 (2 over), good 26 (2 over): a tie, one more round
    s = build_state(rules, vp={"karkoth": 22, "vailin": 26}, realm="nerath", record=True)
    assert _victory_check(s) is False and s.winner is None
    assert s.log[-1]["event"] == "tie" and s.log[-1]["vp"] == [[1, 3], [0, 2]]


@settings(max_examples=60, deadline=None)
@given(vp=st.lists(st.integers(0, 30), min_size=4, max_size=4))
def test_equal_team_targets_decide_every_position_as_the_published_game(vp):
    values = dict(zip(REALMS, vp))
    same = dataclasses.replace(ALLY, team_vp_to_win=(20, 20))
    assert _decide(same, values) == _decide(ALLY, values)


@pytest.mark.parametrize("value", [(20,), (0, 20), (20, True), "20", (20, 2.5), (20, 20, 20)])
def test_a_bad_team_target_is_refused(value):
    with pytest.raises(ValueError, match="Rules.team_vp_to_win must be None or two positive whole numbers"):
        Rules(team_vp_to_win=value)
    assert Rules(team_vp_to_win=[18, 22]).team_vp_to_win == (18, 22)


def test_the_team_target_is_a_categorical_knob_whose_published_choice_is_the_table():
    (knob,) = K.resolve_knobs(nerathsim, Rules(), "team_vp_to_win")
    assert knob.kind == "categorical" and knob.published == "table" and knob.choices == tuple(TEAM_VP_CHOICES)
    assert change_cost([knob], {"team_vp_to_win": "table"}) == 0.0
    rules = K.set_values(nerathsim, Rules(), {"team_vp_to_win": "20-24"})
    assert rules.team_vp_to_win == (20, 24) and rules.vp_target_of(GOOD) == 24 and rules.vp_target_of(EVIL) == 20
    assert Rules(team_vp_to_win="table").team_vp_to_win is None
    assert repr(Rules(team_vp_to_win="table")) == repr(Rules())          # the published game, the same cache keys
    with pytest.raises(ValueError, match="Rules.team_vp_to_win must be None .* got '20-x'"):
        Rules(team_vp_to_win="20-x")
