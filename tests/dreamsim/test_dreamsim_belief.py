"""dreamsim.policies.belief: the facts a seat infers from whom a reaction window asks, the sampler
that conditions the determinisation on them, the `belief=` option of the search and the `watch` hook
of `play_game` that feeds it."""
from __future__ import annotations

from math import comb

import numpy as np
import pytest

import dreamsim
from analyses.search.ismcts import BeliefChooser, ISMCTSPolicy, parse_ismcts
from dreamsim import Allow, Walk, apply_action, legal_actions, observe, sample_state
from dreamsim.engine.cards import CATCHER, DUTCH
from dreamsim.engine.determinize import check_consistent, unseen_cards
from dreamsim.engine.scenario import build_state
from dreamsim.policies.belief import REACTION_KINDS, Fact, ReactionBelief, fact_weight


def _reactions(hand) -> int:
    return sum(1 for k in hand if k in REACTION_KINDS)


def _walk_position(opponent_hand):
    """Seat 0 to act (two actions) in Corridor 1 with three Dreamwalks; seat 1 holds
    `opponent_hand`. Returns the state after seat 0's first Walk was chosen, and seat 0's belief fed
    with every observation seat 0 had (as play_game's chooser and watch would feed it)."""
    rules = dreamsim.Rules(players=2)
    s = build_state(rules, where=["Corridor 1", "Corridor 2"],
                    hands=[["walk", "walk", "walk", "vertigo", "su bridge"], opponent_hand], record=False)
    b = ReactionBelief()
    obs = observe(s, 0)
    b.see(obs)
    walk = next(a for a in legal_actions(s) if type(a) is Walk)
    b.acted(obs, walk)
    apply_action(s, walk, np.random.default_rng(0))
    return s, b


def test_a_seat_passed_over_by_the_reaction_window_is_never_dealt_a_dutch_angle_or_dreamcatcher():
    s, b = _walk_position(["walk", "walk", "vertigo", "star", "su square"])
    assert s.current_player == 0 and s.decision == "turn action"   # seat 1 was not asked: it holds neither
    obs = observe(s, 0)
    b.see(obs)
    assert [(f.seat, f.kinds, f.m, f.positive) for f in b.facts] == [(1, REACTION_KINDS, 5, False)]
    rng_b, rng_u = np.random.default_rng(1), np.random.default_rng(1)
    believed = [_reactions(b.sample_state(obs, rng_b).hands[1]) for _ in range(300)]
    uniform = [_reactions(sample_state(obs, rng_u).hands[1]) for _ in range(300)]
    assert max(believed) == 0
    # the uniform deal gives seat 1 one of them with probability 1 - C(N - K, 5) / C(N, 5) (about 0.6 here)
    pool = unseen_cards(obs)
    n, k = len(pool), sum(1 for c in pool if c in REACTION_KINDS)
    p_any = 1 - comb(n - k, 5) / comb(n, 5)
    hits = sum(1 for r in uniform if r)
    assert abs(hits / 300 - p_any) < 4 * (p_any * (1 - p_any) / 300) ** 0.5


def test_a_seat_asked_in_the_reaction_window_that_allows_is_always_dealt_one():
    s, b = _walk_position(["walk", "walk", "vertigo", "dutch", "su square"])
    assert s.current_player == 1 and s.decision == "reaction"   # seat 1 holds a Dutch Angle: it is asked
    b.see(observe(s, 0))                                            # what seat 0 sees (play_game's watch)
    apply_action(s, Allow(), np.random.default_rng(0))
    assert s.current_player == 0 and s.decision == "turn action"
    obs = observe(s, 0)
    b.see(obs)
    assert [(f.seat, f.kinds, f.m, f.positive) for f in b.facts] == [(1, REACTION_KINDS, 5, True)]
    rng_b, rng_u = np.random.default_rng(2), np.random.default_rng(2)
    believed = [_reactions(b.sample_state(obs, rng_b).hands[1]) for _ in range(300)]
    uniform = [_reactions(sample_state(obs, rng_u).hands[1]) for _ in range(300)]
    assert min(believed) >= 1
    assert min(uniform) == 0   # the uniform deal often gives none (probability about 0.4)


def test_a_positive_fact_is_dropped_once_the_seat_plays_its_answer():
    s, b = _walk_position(["walk", "walk", "vertigo", "dutch", "su square"])
    b.see(observe(s, 0))
    cancel = next(a for a in legal_actions(s) if type(a) is not Allow)
    apply_action(s, cancel, np.random.default_rng(0))   # seat 1 cancels the Walk with its Dutch Angle
    while s.current_player != 0:
        b.see(observe(s, 0))
        apply_action(s, legal_actions(s)[-1], np.random.default_rng(0))
    b.see(observe(s, 0))
    assert not [f for f in b.facts if f.positive]


def test_fact_weight_is_the_chance_that_the_old_cards_avoid_the_kinds():
    hand = [DUTCH, 0, 0, 1, 2]
    assert fact_weight(Fact(1, REACTION_KINDS, 5, False), hand) == 0.0
    assert fact_weight(Fact(1, REACTION_KINDS, 5, True), hand) == 1.0
    assert fact_weight(Fact(1, REACTION_KINDS, 4, False), hand) == pytest.approx(1 / 5)   # C(4,4)/C(5,4)
    assert fact_weight(Fact(1, REACTION_KINDS, 3, True), [DUTCH, CATCHER, 0, 0, 1]) == pytest.approx(1 - 1 / 10)
    assert fact_weight(Fact(1, REACTION_KINDS, 0, False), hand) == 1.0


def test_a_partial_fact_reweights_the_uniform_deal_exactly():
    """A negative fact on 4 of seat 1's 5 cards (one drawn since): P(r reaction cards) is the uniform
    (hypergeometric) probability times C(5 - r, 4) / C(5, 4), normalised; checked within 4 standard errors."""
    rules = dreamsim.Rules(players=2)
    s = build_state(rules, where=["Corridor 1", "Corridor 2"],
                    hands=[["walk", "walk", "walk", "vertigo", "su bridge"], ["walk"] * 5], record=False)
    obs = observe(s, 0)
    b = ReactionBelief()
    b.facts = [Fact(1, REACTION_KINDS, 4, False)]
    pool = unseen_cards(obs)
    n, k = len(pool), sum(1 for c in pool if c in REACTION_KINDS)
    prior = [comb(k, r) * comb(n - k, 5 - r) / comb(n, 5) for r in range(6)]
    post = [prior[r] * comb(5 - r, 4) / 5 for r in range(6)]
    p0 = post[0] / sum(post)
    rng = np.random.default_rng(3)
    draws = 2000
    counts = np.bincount([_reactions(b.sample_state(obs, rng).hands[1]) for _ in range(draws)], minlength=6)
    assert counts[2:].sum() == 0
    assert abs(counts[0] / draws - p0) < 4 * (p0 * (1 - p0) / draws) ** 0.5


@pytest.mark.parametrize("seed", range(6))
def test_the_belief_never_rules_out_the_true_hand_and_samples_consistent_states(seed):
    """Heuristic 2-player play, both seats keeping a belief from every observation: every fact holds for the
    true hand (its weight is positive), and every sampled state looks to the seat like its observation."""
    rules = dreamsim.Rules(players=2)
    s = dreamsim.new_game(rules, 500 + seed)
    rng = np.random.default_rng(seed)
    beliefs = [ReactionBelief(), ReactionBelief()]
    pol = dreamsim.POLICIES["heuristic"]
    facts = 0
    while not s.is_terminal:
        p = s.current_player
        obs = [observe(s, q) for q in range(2)]
        for q in range(2):
            beliefs[q].see(obs[q])
            for f in beliefs[q].facts:
                facts += 1
                assert fact_weight(f, s.hands[f.seat]) > 0, (seed, q, f, s.hands[f.seat])
        if beliefs[p].facts and rng.random() < 0.3:
            assert check_consistent(beliefs[p].sample_state(obs[p], rng), obs[p])
        a = pol(obs[p], tuple(s.legal), rng)
        beliefs[p].acted(obs[p], a)
        apply_action(s, a, rng)
    assert facts > 0


def test_the_belief_option_of_the_search_spec():
    policy = parse_ismcts(dreamsim, "ismcts:default:belief=reactions")
    assert policy.belief is ReactionBelief
    assert isinstance(policy.for_game(np.random.default_rng(0)), BeliefChooser)
    assert parse_ismcts(dreamsim, "ismcts:200").belief is None and ISMCTSPolicy("dreamsim").belief is None  # off
    # the default search uses it (measured: dreamsim/README.md "Search")
    assert dreamsim.SEARCH_DEFAULT.endswith(":belief=reactions")
    assert parse_ismcts(dreamsim, "ismcts:default").belief is ReactionBelief
    with pytest.raises(ValueError, match="unknown belief"):
        parse_ismcts(dreamsim, "ismcts:10:belief=psychic")
    with pytest.raises(ValueError, match="belief"):
        ISMCTSPolicy("dreamsim", belief="reactions")


def test_the_default_search_bounds_a_long_game_at_80_searched_decisions_a_seat():
    """At most ~10 s a game: the default caps its searched decisions per game and seat (`gamecap`),
    after which the seat plays its rollout policy's own choice (README.md "A bound on long games")."""
    policy = parse_ismcts(dreamsim, "ismcts:default")
    assert policy.gamecap == 80 and policy.rollout == "tuned"
    assert not parse_ismcts(dreamsim, "ismcts:200").gamecap            # off (0) unless named


def test_a_search_with_a_belief_plays_legal_deterministic_games():
    spec = "ismcts:12:paired=1:z=0:topk=3:rollout=heuristic:cutoff=4:value=plan:belief=reactions"
    rules = dreamsim.Rules(players=2)
    results = [dreamsim.play_game(rules, [parse_ismcts(dreamsim, spec), "heuristic"], seed=7, record=True)
               for _ in range(2)]
    assert results[0].winner == results[1].winner and results[0].log == results[1].log


class _Watching:
    """A policy whose chooser counts its own decisions and the observations shown to `watch`."""

    def __init__(self):
        self.own, self.watched = 0, []

    def __call__(self, obs, legal, rng):
        return legal[0]

    def for_game(self, rng):
        policy = self

        class Chooser:
            def __call__(self, obs, legal):
                policy.own += 1
                return legal[0]

            def watch(self, obs):
                policy.watched.append(obs)
        return Chooser()


def test_play_game_shows_a_watching_chooser_its_observation_at_every_other_decision():
    w = _Watching()
    r = dreamsim.play_game(dreamsim.Rules(players=2), ["heuristic", w], seed=3)
    assert w.own + len(w.watched) == r.decisions
    assert w.watched and all(o.player == 1 and o.current_player == 0 for o in w.watched)
