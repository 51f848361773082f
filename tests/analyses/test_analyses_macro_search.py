"""The macro search for Nerath: it finds the one winning plan in a hand-built
position, is deterministic for a seed, resolves by name (`macro:N`, and `ismcts:N` for Nerath) and
refuses bad specs with a clear message."""
from __future__ import annotations

import numpy as np
import pytest

import nerathsim
import nightsim
from analyses.games import resolve_policies
from analyses.search import MacroSearchPolicy, parse_macro
from nerathsim import engine as E
from nerathsim import observe
from nerathsim.game import LegalActions
from nerathsim.rules import Rules
from nerathsim.scenario import build_state, region

#: the last round (round cap 1): a capture now is the only way to reach 13 VP before the game times out
LAST_ROUND = Rules(mode="free_for_all", max_rounds=1, events=False, dungeons=False)


def _last_round_position():
    """Karkoth at 12 VP, one footsoldier in Dreadgate (no castle) beside empty Seagate (Vailin's start area:
    1 VP). `balanced` never leaves a castle-less region empty (hold_regions), so it passes and the game
    times out; only the 'all-out' plan walks in, takes the 13th VP and wins at the end of the round."""
    return build_state(LAST_ROUND, units={"Dreadgate": {"karkoth": "1 footsoldier"}}, vp={"karkoth": 12},
                       realm="karkoth")


def _play_on(s, policies, rng):
    while not s.is_terminal:
        p = s.current_player
        obs = observe(s, p)
        E.apply_action(s, policies[p](obs, LegalActions.of(obs), rng), rng)
    return s


def test_the_search_finds_the_one_winning_plan_in_the_last_round():
    s = _last_round_position()
    assert _play_on(s.clone(), [nerathsim.BALANCED] * 4, np.random.default_rng(0)).timed_out
    search = MacroSearchPolicy("nerathsim", rollouts=8, cutoff=None)
    obs = observe(s, 0)
    cands = nerathsim.macro_candidates(nerathsim.BALANCED, obs, LegalActions.of(obs), np.random.default_rng(0))
    best, means = search.choose(obs, cands, np.random.default_rng(1))
    assert cands[0].plan == (nerathsim.EndPhase(),)
    assert cands[best].label == "all-out" and means[best][1] == 1.0 and means[0][1] == 0.5
    probe = observe(s.clone(), 0)            # a policy call writes its plan into the seat's notebook
    a = search(probe, LegalActions.of(probe), np.random.default_rng(2))
    assert a == nerathsim.Move(region(s, "Dreadgate"), region(s, "Seagate"), "footsoldier", 1)
    end = _play_on(s, [search] + [nerathsim.BALANCED] * 3, np.random.default_rng(3))
    assert end.winner == 0 and end.vp[0] == 13


def test_the_heuristics_own_choice_stands_when_nothing_is_better():
    """Every alternative equal (the capture leaves Karkoth last either way): the heuristic's own is kept."""
    s = build_state(LAST_ROUND, units={"Dreadgate": {"karkoth": "1 footsoldier"}}, realm="karkoth",
                    vp={"vailin": 5, "iron_circle": 5, "nerath": 5})
    search = MacroSearchPolicy("nerathsim", rollouts=4)
    obs = observe(s, 0)
    cands = nerathsim.macro_candidates(nerathsim.BALANCED, obs, LegalActions.of(obs), np.random.default_rng(0))
    assert len(cands) == 2
    best, means = search.choose(obs, cands, np.random.default_rng(1))
    assert best == 0 and means[0][1] == means[1][1]


def _mid_game(seed: int, phase):
    rules = Rules(mode="free_for_all")
    s = nerathsim.new_game(rules, seed)
    rng = np.random.default_rng(seed)
    while True:
        p = s.current_player
        obs = observe(s, p)
        legal = LegalActions.of(obs)
        if s.round >= 1 and obs.phase == phase and len(nerathsim.macro_candidates(
                nerathsim.BALANCED, obs, legal, np.random.default_rng(0))) > 2:
            return s
        E.apply_action(s, nerathsim.BALANCED(obs, legal, rng), rng)


def test_the_search_is_deterministic_for_a_seed():
    s = _mid_game(2, E.PH_MOVE)
    search = MacroSearchPolicy("nerathsim", rollouts=6, cutoff=1)
    obs = observe(s, s.current_player)
    runs = []
    for _ in range(2):
        rng = np.random.default_rng(11)
        cands = nerathsim.macro_candidates(nerathsim.BALANCED, obs, LegalActions.of(obs), rng)
        runs.append((cands, search.choose(obs, cands, rng)))
    assert runs[0] == runs[1]
    assert observe(s, s.current_player).memo == obs.memo        # searching leaves the real notebook alone


def test_a_game_with_a_search_seat_is_a_function_of_the_seed():
    rules = Rules(mode="free_for_all", max_rounds=1)
    seats = ["macro:2:cutoff=1", "balanced", "balanced", "balanced"]
    pols = resolve_policies(nerathsim, seats, 4)
    a = nerathsim.play_game(rules, pols, seed=4, record=True)
    b = nerathsim.play_game(rules, resolve_policies(nerathsim, seats, 4), seed=4, record=True)
    assert a.to_record() == b.to_record() and a.log == b.log
    assert a.seats[0] == "macro:2:cutoff=1"


def test_ismcts_resolves_to_the_macro_search_for_nerath():
    pol = resolve_policies(nerathsim, "ismcts:12,balanced,balanced,balanced", 4)[0]
    assert isinstance(pol, MacroSearchPolicy)
    assert (pol.rollouts, pol.base, pol.rollout, pol.cutoff, pol.name) == (12, "balanced", "balanced", 2, "ismcts:12")
    assert parse_macro(nerathsim, "macro:3:cutoff=0").cutoff is None          # 0: rollouts to the end
    pol = parse_macro(nerathsim, "macro:5:base=aggressive:cutoff=2:seconds=1.5:margin=0.05")
    assert (pol.rollouts, pol.base, pol.rollout, pol.cutoff, pol.seconds, pol.margin) == (
        5, "aggressive", "aggressive", 2, 1.5, 0.05)
    # the card games keep their own IS-MCTS
    assert type(resolve_policies(nightsim, "ismcts:5,greedy", 2)[0]).__name__ == "ISMCTSPolicy"


@pytest.mark.parametrize("spec,message", [
    ("macro:0", "must be a positive integer, got '0'"),
    ("macro:x", "must be a positive integer, got 'x'"),
    ("macro", "expected 'macro:N'"),
    ("macro:4:depth=3", "bad option 'depth=3'; options of the macro search: base=..."),
    ("ismcts:4:c=1.0", "bad option 'c=1.0'; options of the macro search \\(Nerath: ismcts is the macro search\\)"),
    ("macro:4:cutoff=soon", "option cutoff expects int, got 'soon'"),
    ("macro:4:cutoff=-1", "cutoff must be a number of rounds \\(0 or None: to the end\\), got -1"),
    ("macro:4:base=genius", "unknown base policy 'genius' for nerathsim; known: random, balanced"),
    ("macro:4:seconds=-1", "seconds must be positive"),
])
def test_a_bad_spec_is_refused_with_a_clear_message(spec, message):
    with pytest.raises(ValueError, match=message):
        resolve_policies(nerathsim, [spec, "balanced", "balanced", "balanced"], 4)


def test_a_game_without_macro_decisions_is_refused():
    with pytest.raises(ValueError, match="lacks macro_candidates.*only nerathsim offers macro decisions"):
        MacroSearchPolicy("nightsim")
    with pytest.raises(ValueError, match="expected 'macro:N'"):
        parse_macro(nerathsim, "ismcts")
