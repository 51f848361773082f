"""A heuristic policy's caches belong to the policy object. Two policy objects
never share mutable state, a policy reused across games chooses as a fresh one, and a pickled
policy travels without its caches."""
import pickle

import dreamsim
from dreamsim.policies import context, plan
from dreamsim.policies.plan import Memo
from dreamsim.policies.policies import BALANCED, POLICIES, RUNNER, HeuristicPolicy, clear_caches

RULES = dreamsim.Rules()
SEEDS = range(4)


def _memo_sizes(memo: Memo) -> tuple:
    return (len(memo.graphs), len(memo.key_ids), len(memo.added), len(memo.strict), len(memo.free),
            len(memo.profiles), len(memo.last), sum(len(g.memo) for g in memo.graphs.values()))


def test_each_policy_object_owns_its_memo():
    a, b = HeuristicPolicy(BALANCED, "a"), HeuristicPolicy(BALANCED, "b")
    assert a.memo is not b.memo
    assert a.memo.is_empty() and b.memo.is_empty()
    dreamsim.play_game(RULES, [a, a, a, a], seed=3)
    assert not a.memo.is_empty()
    assert a.memo.key_ids and a.memo.graphs
    # the other policy (same weights, same name) saw nothing of it
    assert b.memo.is_empty()
    assert _memo_sizes(b.memo) == (0,) * 8
    # the boards a policy built point back to its own table, never to another's
    assert all(g.boards is a.memo for g in a.memo.graphs.values())


def test_policy_modules_hold_no_cache():
    for mod in (context, plan):
        for name in ("_TOKENS", "_PROFILES", "_KEY_IDS", "_NEXT_ID", "_ADDED", "_STRICT", "_FREE"):
            assert not hasattr(mod, name), f"{mod.__name__}.{name}"


def test_a_policy_reused_across_games_plays_as_fresh_ones():
    reused = HeuristicPolicy(RUNNER, "runner")
    warm = [dreamsim.play_game(RULES, [reused, "random", reused, "random"], seed) for seed in SEEDS]
    fresh = []
    for seed in SEEDS:
        p = HeuristicPolicy(RUNNER, "runner")
        fresh.append(dreamsim.play_game(RULES, [p, "random", p, "random"], seed))
    # reversed order: what one game leaves in the memo never changes another's choices
    backwards = [dreamsim.play_game(RULES, [reused, "random", reused, "random"], seed) for seed in reversed(SEEDS)]
    assert warm == fresh == backwards[::-1]


def test_forgetting_half_or_all_of_a_memo_never_changes_a_choice():
    p = HeuristicPolicy(BALANCED, "heuristic")
    first = [dreamsim.play_game(RULES, [p] * 4, seed) for seed in SEEDS]
    p.memo.forget_older_half()
    half = [dreamsim.play_game(RULES, [p] * 4, seed) for seed in SEEDS]
    p.memo.clear()
    assert p.memo.is_empty()
    cold = [dreamsim.play_game(RULES, [p] * 4, seed) for seed in SEEDS]
    assert first == half == cold


def test_clear_caches_empties_the_shipped_policies_memos():
    dreamsim.play_game(RULES, ["heuristic", "runner", "horror", "trickster"], seed=1)
    assert not POLICIES["heuristic"].memo.is_empty()
    clear_caches()
    for name in ("heuristic", "runner", "horror", "trickster"):
        assert POLICIES[name].memo.is_empty()


def test_a_pickled_policy_travels_without_its_memo_and_plays_the_same():
    p = HeuristicPolicy(BALANCED, "heuristic")
    before = dreamsim.play_game(RULES, [p] * 4, seed=2)
    q = pickle.loads(pickle.dumps(p))
    assert q == p and q.name == p.name
    assert q.memo.is_empty() and q.memo is not p.memo
    assert len(pickle.dumps(p)) < 2_000  # the caches stay behind
    assert dreamsim.play_game(RULES, [q] * 4, seed=2) == before


def test_tables_filled_and_emptied_mid_game_never_change_a_choice_and_stay_bounded(monkeypatch):
    """The bounds (board.GRAPH_CACHE_SIZE, plan.TABLE_LIMIT) set memory, never a decision:
    with a few entries per table, every table fills and empties many times a game."""
    lineup = [HeuristicPolicy(RUNNER, "runner"), HeuristicPolicy(BALANCED, "heuristic"), "random", "random"]
    roomy = [dreamsim.play_game(RULES, lineup, seed) for seed in SEEDS]
    tight = [HeuristicPolicy(RUNNER, "runner"), HeuristicPolicy(BALANCED, "heuristic"), "random", "random"]
    monkeypatch.setattr(dreamsim.engine.board, "GRAPH_CACHE_SIZE", 6)
    monkeypatch.setattr(plan, "TABLE_LIMIT", 5)
    monkeypatch.setattr(context, "TABLE_LIMIT", 5)
    assert [dreamsim.play_game(RULES, tight, seed) for seed in SEEDS] == roomy
    for policy in tight[:2]:
        memo = policy.memo
        assert len(memo.graphs) <= 6
        assert max(len(memo.key_ids), len(memo.added), len(memo.profiles), len(memo.hands)) <= 5
