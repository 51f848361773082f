"""The heuristic's context features (`Weights.win` ... `threat`, nightsim/policies/heuristic.py).

1. At their defaults they add nothing: `Weights()` reports them off, and scoring every action
   through `_Context` with the features forced on plays exactly greedy's games (records and logs).
2. Each feature has its exact value on hand-built positions.
3. The batch kernel scores them exactly like the engine: on the hand-built positions and at every
   decision of whole games played with every feature on (legal actions, scores, state after).
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import nightsim
from nightsim import GREEDY, POLICIES, Play, Rules, StartDiscard, Take, legal_actions, new_game, observe, play_game
from nightsim.engine.engine import apply_legal
from nightsim.engine.scenario import build_state, card_id
from nightsim.kernel import bridge as kb
from nightsim.kernel.play_batch import KERNEL, policy_row
from nightsim.policies.heuristic import EXTRA_FIELDS, TUNING, HeuristicPolicy, Weights, _Context, _pick

R2 = Rules(players=2)

#: every context feature on, with values that make each one matter
ALL_ON = dataclasses.replace(GREEDY, win=7.0, follow=1.25, pair=2.5, crowd=-0.75, mocker_ctx=1.5,
                             executioner_ctx=0.5, scavenger_ctx=0.75, devourer_ctx=-0.5, draw_hand=-0.25,
                             discard_dead=0.5, discard_extra=0.25, discard_value=0.3, fit_value=2.0, threat=3.0,
                             discard=0.0, draw=0.25)


def c(number: int) -> int:
    """Card id of a printed card number (published deck)."""
    return card_id(R2, number)


def only(name: str, value: float = 1.0) -> Weights:
    """Greedy with one context feature set (so a play's extras are that feature's value)."""
    return dataclasses.replace(GREEDY, **{name: value})


def extra(s, action, name: str) -> float:
    return _Context(observe(s, s.current_player), only(name)).play_extras(action)


def kernel_agrees(s, weights: Weights) -> list[float]:
    """The engine's scores of every legal action, after checking the kernel gives the same."""
    legal = legal_actions(s)
    scores = [_Context(observe(s, s.current_player), weights).score(a) for a in legal]
    assert kb.scores(kb.load_state(s), HeuristicPolicy(weights)) == scores
    return scores


# ----------------------------------------------------------------------- 1. defaults: greedy exactly
def test_the_defaults_turn_every_context_feature_off_and_any_change_turns_it_on():
    assert not Weights().extras() and not GREEDY.extras() and not POLICIES["greedy"]._extras
    defaults = Weights()
    for name in EXTRA_FIELDS:
        assert only(name, getattr(defaults, name) + 0.5).extras(), name
    names = {d["name"] for d in TUNING["space"]}
    assert {f"weights.{f}" for f in EXTRA_FIELDS} <= names           # every feature can be tuned
    assert POLICIES["tuned"].weights.extras()


class ForcedContext:
    """Greedy's weights, every action scored by `_Context` with the context features switched on."""

    name = "forced"

    def __call__(self, obs, legal, rng):
        if len(legal) == 1:
            return legal[0]
        ctx = _Context(obs, GREEDY)
        ctx.x = True
        return _pick(legal, ctx.score, rng)


@pytest.mark.parametrize("players", [2, 4])
def test_the_features_at_their_defaults_add_exactly_nothing_same_games_as_greedy(players):
    rules = Rules(players=players)
    for seed in range(60):
        greedy = play_game(rules, ["greedy"] * players, seed, record=True)
        forced = play_game(rules, [ForcedContext()] + ["greedy"] * (players - 1), seed, record=True)
        assert greedy.log == forced.log, f"seed {seed}"
        assert {k: v for k, v in greedy.to_record().items() if k != "seat0_policy"} == \
            {k: v for k, v in forced.to_record().items() if k != "seat0_policy"}, f"seed {seed}"


def test_the_kernels_switch_on_at_greedys_weights_gives_greedys_scores():
    s = new_game(R2, np.random.default_rng(3))
    rng = np.random.default_rng(4)
    for _ in range(120):
        if s.is_terminal:
            break
        ks = kb.load_state(s, 1)
        kind, row = policy_row(POLICIES["greedy"])
        row[-1] = 1.0                                                  # W_EXTRAS: the switch forced on
        n = kb._core().legal_actions(ks.st, ks.tb, ks.rs, ks.acts)
        q = int(ks.st[kb._core().G_CP])
        forced = [float(kb._play().score_action(ks.st, ks.tb, ks.rs, ks.acts, i, q, row)) for i in range(n)]
        assert forced == kb.scores(ks, POLICIES["greedy"])
        legal = legal_actions(s)
        apply_legal(s, legal[int(rng.integers(len(legal)))], rng)


# ----------------------------------------------------------------------- 2. exact values, hand-built
def test_a_winning_completion_and_what_its_devourer_must_eat():
    # seat 0: four complete creatures and one of two cards; a head completes it and wins (5 of 5);
    # the Devourer head then has to eat a complete creature (cost 3 + 5); no other play follows
    s = build_state(R2, hands=[[c(40), c(52), c(87)], []],
                    creatures=[[[c(3), c(2), c(4)], [c(6), c(26), c(13)], [c(15), c(35), c(22)],
                                [c(27), c(80), c(37)], [c(30), c(98)]], [[c(39), c(71)]]], unused="remove")
    devour, plain = Play(c(40), 4, 2), Play(c(52), 4, 2)
    assert [a for a in legal_actions(s) if type(a) is Play] == [devour, plain]   # the limit: no new creature
    assert extra(s, devour, "win") == 1.0 and extra(s, plain, "win") == 1.0
    assert extra(s, devour, "devourer_ctx") == 8.0 and extra(s, plain, "devourer_ctx") == 0.0
    assert extra(s, devour, "pair") == 0.0                                      # nothing left to place
    s3 = build_state(R2, hands=[[c(40)], []], creatures=[[[c(3), c(2), c(4)], [c(30), c(98)]], []],
                     unused="remove")
    assert extra(s3, Play(c(40), 1, 2), "win") == 0.0                           # 2 of 5: no win
    scores = kernel_agrees(s, ALL_ON)
    assert scores[legal_actions(s).index(devour)] == pytest.approx(
        scores[legal_actions(s).index(plain)] + ALL_ON.devourer - 0.5 * 8.0)


def test_follow_pair_crowd_and_mocker_on_a_hand_built_turn():
    # seat 0: creature 0 = Homunculi legs, creature 1 = Homunculi legs + torso; hand: Homunculi legs,
    # Homunculi torso (Mocker), Homunculi head (Mocker), Chimeridae head
    hand = [c(33), c(32), c(31), c(97)]
    s = build_state(R2, hands=[hand, []], creatures=[[[c(30)], [c(39), c(35)]], []], unused="remove")
    start, torso, head = Play(c(33), None, 0), Play(c(32), 0, 1), Play(c(31), 1, 2)
    assert {start, torso, head} <= set(legal_actions(s))
    assert extra(s, start, "follow") == 1.0          # the torso can go on the new creature next
    assert extra(s, start, "crowd") == 2.0           # two incomplete creatures already
    assert extra(s, start, "pair") == 1.0            # another Homunculi card can be played this turn
    assert extra(s, torso, "follow") == 1.0          # a head in hand for the creature's next slot
    assert extra(s, torso, "crowd") == 0.0           # not a new creature
    assert extra(s, head, "mocker_ctx") == 1.0       # the Mocker it completes has a card to play
    assert extra(s, head, "follow") == 0.0 and extra(s, head, "win") == 0.0
    kernel_agrees(s, ALL_ON)
    # the turn's second action: no pair any more (one action left)
    s2 = build_state(R2, hands=[hand, []], creatures=[[[c(30)], [c(39), c(35)]], []], actions_left=1,
                     unused="remove")
    assert extra(s2, start, "pair") == 0.0 and extra(s2, start, "follow") == 1.0
    kernel_agrees(s2, ALL_ON)
    # a Mocker with nothing left to play: the hand holds only the completing head
    s3 = build_state(R2, hands=[[c(31)], []], creatures=[[[c(39), c(35)]], []], unused="remove")
    assert extra(s3, Play(c(31), 0, 2), "mocker_ctx") == 0.0
    kernel_agrees(s3, ALL_ON)


def test_executioner_and_scavenger_context_and_the_threat_of_a_victim_one_short_of_winning():
    # seat 0 can complete three Executioners or three Scavengers; seat 1 has four complete creatures
    # and an incomplete one of one card
    opp = [[c(99), c(98), c(97)], [c(87), c(86), c(85)], [c(69), c(71), c(70)], [c(72), c(80), c(79)], [c(81)]]
    s = build_state(R2, hands=[[c(94), c(1)], []], creatures=[[[c(96), c(95)], [c(9), c(8)]], opp],
                    deck=[c(3), c(4)], unused="remove")
    execs, scavs = Play(c(94), 0, 2), Play(c(1), 1, 2)
    assert extra(s, execs, "executioner_ctx") == 3 * 4.0     # three Executioners x 4 complete creatures
    assert extra(s, scavs, "scavenger_ctx") == 3 * 1.0       # three Scavengers x the 1-card creature
    assert extra(s, execs, "scavenger_ctx") == 0.0
    kernel_agrees(s, ALL_ON)
    apply_legal(s, execs, np.random.default_rng(0))          # the head's Executioner picks a victim
    takes = legal_actions(s)
    assert takes == [Take(1, k) for k in range(5)]
    ctx = _Context(observe(s, 0), only("threat", 3.0))
    plain = _Context(observe(s, 0), GREEDY)
    assert [ctx.score(a) - plain.score(a) for a in takes] == [3.0] * 5   # 4 >= 5 - 1: one short
    kernel_agrees(s, ALL_ON)


def test_hand_size_dead_cards_and_the_discard_choice():
    # no creatures: the head and the torso fit nothing now (dead), the legs can start one
    s = build_state(R2, hands=[[c(4), c(2), c(3)], []], deck=[c(6), c(15)], unused="remove")
    w = dataclasses.replace(GREEDY, draw_hand=-0.5, discard_dead=2.0)
    ctx = _Context(observe(s, 0), w)
    assert ctx.score(nightsim.Draw()) == GREEDY.draw - 0.5 * 3
    assert ctx.score(StartDiscard()) == GREEDY.discard + 2.0 * 2
    kernel_agrees(s, w)
    apply_legal(s, StartDiscard(), np.random.default_rng(0))
    w = dataclasses.replace(GREEDY, discard_extra=0.5, discard_value=0.25, fit_value=3.0)
    for pick in (c(4), c(2)):                                 # the first two picks score 1 - 0.25 x value
        ctx = _Context(observe(s, 0), w)
        value = ctx.card_value(pick)
        assert value == 0.0                                   # dead, no ability
        assert ctx.score(nightsim.DiscardCard(pick)) == 1.0 - 0.25 * value
        kernel_agrees(s, w)
        apply_legal(s, nightsim.DiscardCard(pick), np.random.default_rng(0))
    ctx = _Context(observe(s, 0), w)                          # the third pick: discard_extra
    assert ctx.card_value(c(3)) == 3.0                        # legs start a creature: fit_value
    assert ctx.score(nightsim.DiscardCard(c(3))) == 0.5 - 0.25 * 3.0
    kernel_agrees(s, w)


# ----------------------------------------------------------------------- 3. kernel = engine, whole games
WALKS = [Rules(players=2), Rules(), Rules(players=3, win_timing="end_of_action", scavenger_optional=True,
                                          penalty_timing="after_abilities")]


@pytest.mark.parametrize("rules", WALKS, ids=lambda r: f"{r.players}p")
def test_kernel_agrees_with_the_engine_at_every_decision_with_every_feature_on(rules):
    policy = HeuristicPolicy(ALL_ON, "all-on")
    compared = 0
    for seed in range(3):
        children = np.random.SeedSequence(seed).spawn(1 + rules.players)
        chance = np.random.default_rng(children[0])
        prngs = [np.random.default_rng(ch) for ch in children[1:]]
        s = new_game(rules, chance)
        while not s.is_terminal:
            ks = kb.load_state(s, seed)
            legal = legal_actions(s)
            assert kb.legal_actions(ks) == legal
            p = s.current_player
            scores = [_Context(observe(s, p), ALL_ON).score(a) for a in legal]
            assert kb.scores(ks, policy) == scores
            action = policy(observe(s, p), legal, prngs[p])
            assert scores[legal.index(action)] == max(scores)
            assert _Context(observe(s, p), ALL_ON).score(kb.choose(ks, policy)) == max(scores)
            kb.apply(ks, action)
            apply_legal(s, action, chance)
            if ks.reshuffles == 0:
                assert kb.view(ks) == kb.engine_view(s)
                compared += 1
    assert compared > 200


def test_the_tuned_policy_loads_and_plays_in_both_engines():
    tuned = POLICIES["tuned"]
    assert tuned.name == "tuned" and tuned.weights.extras() and KERNEL.supports(R2, [tuned, "greedy"])
    record = play_game(R2, ["tuned", "greedy"], 5).to_record()
    assert record["winner"] in (0, 1) and record["seat0_policy"] == "tuned"
    n = 2000                                    # deals, each in both seatings
    arrays = KERNEL.play_columns(R2, [("tuned", "greedy")] * n + [("greedy", "tuned")] * n, list(range(n)) * 2)
    winner = np.array([-1 if w is None else w for w in arrays["winner"]])
    assert (winner >= 0).all()
    rate = ((winner[:n] == 0).sum() + (winner[n:] == 1).sum()) / (2 * n)
    assert rate > 0.5 + 3 * 0.5 / np.sqrt(2 * n)   # stronger than greedy, beyond 3 standard errors (~0.534)
