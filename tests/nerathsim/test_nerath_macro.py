"""Macro decisions (nerathsim side): the heuristic's candidate plans, committing one,
playing on, and the rollout value."""
from __future__ import annotations

import numpy as np

import nerathsim
from nerathsim import engine as E
from nerathsim import observe
from nerathsim.game import LegalActions
from nerathsim.game_actions import PressOn, RetreatTo
from nerathsim.macro import commit_in_state, commit_macro, macro_candidates, playout, rank_share, standing
from nerathsim.phases import Phase
from nerathsim.rules import Rules
from nerathsim.scenario import build_state

B = nerathsim.BALANCED
FFA = Rules(mode="free_for_all")


def _walk(seed: int, want, rules=FFA):
    """The first state of a balanced game where want(state, observation, legal) holds."""
    s = nerathsim.new_game(rules, seed)
    rng = np.random.default_rng(seed)
    while not s.is_terminal:
        obs = observe(s, s.current_player)
        legal = LegalActions.of(obs)
        if want(s, obs, legal):
            return s
        E.apply_action(s, B(obs, legal, rng), rng)
    raise AssertionError(f"no such state in game {seed}")


def test_the_first_candidate_is_the_heuristics_own_plan_and_the_others_differ():
    for phase in (Phase.MOVE, Phase.BUY):
        s = _walk(1, lambda s, o, legal, ph=phase: s.round >= 1 and o.phase == ph)
        obs = observe(s, s.current_player)
        legal = LegalActions.of(obs)
        cands = macro_candidates(B, obs, legal, np.random.default_rng(5))
        own = tuple(B.phase_plan(obs, np.random.default_rng(5)))
        assert cands[0].label == "as is" and cands[0].plan == own
        assert len({c.plan for c in cands}) == len(cands) >= 2
        assert all(c.plan[-1] == nerathsim.EndPhase() for c in cands)


def test_only_the_first_decision_of_a_planned_phase_is_a_macro_decision():
    s = _walk(2, lambda s, o, legal: o.phase == Phase.MOVE)
    obs = observe(s, s.current_player)
    legal = LegalActions.of(obs)
    cands = macro_candidates(B, obs, legal, np.random.default_rng(0))
    choice = cands[-1]
    a = commit_macro(B, obs, choice, legal, np.random.default_rng(0))
    assert a == next(x for x in choice.plan if x in legal)
    E.apply_action(s, a, np.random.default_rng(0))
    if s.phase == E.PH_MOVE and s.current_player == obs.player:
        obs2 = observe(s, s.current_player)
        assert macro_candidates(B, obs2, LegalActions.of(obs2), np.random.default_rng(0)) == []
    hit = _walk(3, lambda s, o, legal: o.phase == Phase.HIT)
    o = observe(hit, hit.current_player)
    assert macro_candidates(B, o, LegalActions.of(o), np.random.default_rng(0)) == []
    assert macro_candidates(nerathsim.POLICIES["random"], o, LegalActions.of(o), np.random.default_rng(0)) == []


def test_a_committed_plan_is_followed_to_the_end_of_the_phase():
    """After commit_in_state the seat's balanced policy emits the chosen plan's actions in order."""
    s = _walk(4, lambda s, o, legal: s.round >= 1 and o.phase == Phase.BUY)
    seat = s.current_player
    obs = observe(s, seat)
    cands = macro_candidates(B, obs, LegalActions.of(obs), np.random.default_rng(1))
    choice = cands[1]
    rng = np.random.default_rng(2)
    commit_in_state(s, B, choice, rng)
    bought = [choice.plan[0]]
    while s.phase == E.PH_BUY and s.current_player == seat:
        o = observe(s, seat)
        a = B(o, LegalActions.of(o), rng)
        bought.append(a)
        E.apply_action(s, a, rng)
    # the purchase ends by itself once nothing is affordable, before the plan's closing EndPhase
    assert tuple(bought) == choice.plan[:len(bought)] and len(bought) >= len(choice.plan) - 1
    assert sum(type(a).__name__ == "Buy" for a in bought) == sum(type(a).__name__ == "Buy" for a in choice.plan) > 0


def test_press_or_retreat_offers_both():
    s = _walk(0, lambda s, o, legal: o.phase == Phase.PRESS and len(legal) > 1)
    obs = observe(s, s.current_player)
    legal = LegalActions.of(obs)
    cands = macro_candidates(B, obs, legal, np.random.default_rng(0))
    kinds = sorted(type(c.action).__name__ for c in cands)
    assert kinds == ["PressOn", "RetreatTo"] and all(c.action in legal for c in cands)
    assert cands[0].action == B(obs, legal, np.random.default_rng(0))
    assert isinstance(cands[0].action, (PressOn, RetreatTo))


def test_playout_stops_at_the_round_asked_or_the_end():
    s = nerathsim.new_game(FFA, 7)
    rng = np.random.default_rng(7)
    t = playout(s.clone(), [B] * 4, rng, until_round=1)
    assert t.round == 1 and not t.is_terminal and t.realm == FFA.order[0]
    end = playout(t, [B] * 4, rng)
    assert end.is_terminal


def test_standing_gives_the_winner_one_and_the_others_half_their_rank():
    rules = Rules(mode="free_for_all", events=False, dungeons=False)
    s = build_state(rules, units={"Dreadgate": {"karkoth": "1 footsoldier"}},
                    vp={"karkoth": 9, "vailin": 4, "iron_circle": 4, "nerath": 1}, realm="karkoth")
    assert not s.is_terminal
    assert rank_share(s) == [1.0, 0.5, 0.5, 0.0]
    assert standing(s) == [1.0, 0.5, 0.5, 0.0]             # not over: the rank share alone
    s.is_terminal, s.winner = True, 1
    assert rank_share(s) == [2 / 3, 1.0, 1 / 3, 0.0]
    assert standing(s) == [1 / 3, 1.0, 1 / 6, 0.0]
    s.winner = None                                         # a timeout: half the rank share
    assert standing(s) == [0.5, 0.25, 0.25, 0.0]


def test_the_army_counts_in_an_unfinished_game():
    rules = Rules(mode="free_for_all", events=False, dungeons=False)
    s = build_state(rules, units={"Dreadgate": {"karkoth": "2 footsoldier"}}, vp={"vailin": 0}, realm="karkoth")
    assert rank_share(s) == [1.0, 1 / 3, 1 / 3, 1 / 3]
