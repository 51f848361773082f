"""The heuristic's shortcuts (a decision's facts read once and shared by every scored
action, the actor's plan key kept per hand, the board table read under rotations already masked,
who leads worked out without a whole decision's facts) give what the plain computation gives."""
import numpy as np

import dreamsim
from dreamsim.engine.actions import Allow
from dreamsim.engine.board import Boards
from dreamsim.engine.cards import BRIDGE, FOREST, RED, TOWN_HALL
from dreamsim.engine.engine import apply_legal, new_game
from dreamsim.engine.observation import observe
from dreamsim.policies.context import _Public
from dreamsim.policies.plan import Memo
from dreamsim.policies.policies import BALANCED, TRICKSTER, HeuristicPolicy
from dreamsim.policies.scoring import _SCORE, _Context


def _decisions(seeds, players=4, weights=BALANCED):
    """(observation, legal actions) at every decision of engine games the heuristic plays."""
    for seed in seeds:
        rng = np.random.default_rng(seed)
        s = new_game(dreamsim.Rules(players=players), rng)
        policy = HeuristicPolicy(weights)
        while not s.is_terminal:
            legal = tuple(s.legal)
            obs = observe(s, s.current_player)
            yield obs, legal
            apply_legal(s, policy(obs, legal, rng), rng)


def test_one_shared_context_scores_every_action_as_a_fresh_policy_alone_would():
    # shared: one _Context per decision, its lazy facts (base, the Vertigo facts, rests) reused by
    # every action, with a memo warm from the earlier decisions; alone: each action scored by a
    # context of its own from a new policy (nothing kept, nothing shared)
    for weights in (BALANCED, TRICKSTER):
        warm = HeuristicPolicy(weights)
        checked = 0
        for obs, legal in _decisions(range(3), weights=weights):
            if len(legal) == 1 or type(legal[-1]) is Allow:
                continue
            ctx = _Context(obs, weights, *warm._tables)
            shared = [_SCORE[type(a)](ctx, a) for a in legal]
            alone = []
            for a in legal:
                fresh = HeuristicPolicy(weights)
                alone.append(_SCORE[type(a)](_Context(obs, weights, *fresh._tables), a))
            assert shared == alone, (obs, legal)
            checked += 1
        assert checked > 50


def test_reaction_scores_with_a_warm_memo_are_a_fresh_policys():
    warm = HeuristicPolicy(BALANCED)
    reactions = 0
    for obs, legal in _decisions(range(4, 10)):
        if len(legal) > 1:
            assert warm.action_scores(obs, legal) == HeuristicPolicy(BALANCED).action_scores(obs, legal)
            reactions += type(legal[-1]) is Allow
    assert reactions > 20


def test_the_hand_table_gives_the_plan_key_and_card_values_of_the_hand():
    policy = HeuristicPolicy(BALANCED)
    cv = policy._tables[0]
    kept = nightmares = 0
    for obs, legal in _decisions(range(3)):
        if len(legal) == 1 or type(legal[-1]) is Allow:
            continue
        ctx = _Context(obs, BALANCED, *policy._tables)
        hand = obs.hand
        assert ctx.cs == sum(cv[k] for k in hand)
        plain = ctx._profile(hand, 0, False)
        assert ctx.k[1] == plain[1] and ctx.k[0] == plain[0]
        kept += (hand, ctx.actor == ctx.horror) in policy.memo.hands
        if any(k >= RED for k in hand) and ctx.actor != ctx.horror:
            assert (hand, False) not in policy.memo.hands  # a nightmare's key reads more than the hand
            nightmares += 1
        for gone, blue_gone in ((0, False), (1, True), (99, True)):  # kept profiles (twice: the second is kept)
            for _ in range(2):
                assert ctx.profile(hand, gone, blue_gone) == ctx._profile(hand, gone, blue_gone)
    assert kept > 50 and nightmares > 5
    policy.memo.clear()
    assert not policy.memo.hands and policy.memo.is_empty()


def test_who_leads_from_the_public_facts_is_the_decisions_leader():
    policy = HeuristicPolicy(BALANCED)
    for obs, legal in _decisions(range(3)):
        ctx = _Context(obs, BALANCED, *policy._tables)
        pub = _Public(obs, policy.memo)
        assert pub.g is ctx.g
        assert pub.leader() == ctx.leader()
        assert [pub.closeness(q) for q in range(obs.n_players)] == [ctx.closeness(q) for q in range(obs.n_players)]


def test_the_memo_finds_a_board_under_any_rotations_as_a_plain_table_does():
    rng = np.random.default_rng(5)
    s = new_game(dreamsim.Rules(players=4), rng)
    memo, plain = Memo(), Boards()
    g = memo.get(s.rows, s.cols, tuple(s.grid), tuple(s.rot), False)
    for loc in range(12):
        for op in range(7):
            b = g.after(loc, op)
            for turn in range(4):  # the same board given with each rotation of `loc`, masked or not
                rot = list(b.rot)
                rot[loc] = (rot[loc] + turn) % 4
                rot = tuple(rot)
                found = memo.get(b.rows, b.cols, b.grid, rot, False)
                ref = plain.get(b.rows, b.cols, b.grid, rot, False)
                assert found is Boards.get(memo, b.rows, b.cols, b.grid, rot, False)
                assert found.rot == ref.rot and found.grid == ref.grid
                for goal in (BRIDGE, FOREST, TOWN_HALL):
                    assert found.dist_to(goal) == ref.dist_to(goal)
