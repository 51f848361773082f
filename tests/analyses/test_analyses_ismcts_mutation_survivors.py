"""SO-ISMCTS (analyses/search/ismcts.py) on tiny hand-built games whose every outcome is known: budgets,
determinisations, the value backed up, the exploration constant, legality and ties — behaviours that planted
bugs (mutants, see benchmarks/tools/mutation.py) slipped past, with exact visit counts and rewards."""
from __future__ import annotations

import sys
import types
from collections import namedtuple

import numpy as np
import pytest

from analyses.search import ismcts as M
from analyses.search.ismcts import ISMCTSPolicy, parse_ismcts

Obs = namedtuple("Obs", "player n_players history")


class Toy:
    """A game tree: `nodes` maps a history (tuple of actions) to (seat to move, legal actions), or to a callable
    hidden -> (seat, legal) when the legal actions depend on the hidden card; `outcome(history, hidden)` gives
    the winner (a seat, a tuple of seats, or None for a draw) of a history that is not a node."""

    def __init__(self, nodes, outcome, hiddens=(0,), n=2):
        self.nodes, self.outcome, self.hiddens, self.n = nodes, outcome, hiddens, n


class ToyState:
    def __init__(self, game: Toy, hidden, history=()):
        self.game, self.hidden, self.history = game, hidden, tuple(history)

    def _node(self):
        node = self.game.nodes.get(self.history)
        return node(self.hidden) if callable(node) else node

    @property
    def is_terminal(self):
        return self._node() is None

    @property
    def current_player(self):
        return self._node()[0]

    @property
    def winner(self):
        return self.game.outcome(self.history, self.hidden)

    def clone(self):
        return ToyState(self.game, self.hidden, self.history)


class First:
    """A rollout policy that plays the first legal action and counts its calls."""
    observes = True

    def __init__(self, pick=0):
        self.pick, self.calls = pick, 0

    def __call__(self, obs, legal, rng):
        self.calls += 1
        return legal[self.pick]

    def action_scores(self, obs, legal):
        return [-i for i in range(len(legal))]       # the first listed scores best


def _module(game: Toy, name: str) -> types.ModuleType:
    """A game module of the protocol (docs/GAME_PROTOCOL.md) for `game`, importable by `name`."""
    mod = types.ModuleType(name)
    mod.sampled = []

    def sample_state(obs, rng):
        hidden = game.hiddens[int(rng.integers(len(game.hiddens)))]
        mod.sampled.append(hidden)
        return ToyState(game, hidden, obs.history)

    mod.sample_state = sample_state
    mod.legal_actions = lambda s: list(s._node()[1])
    mod.observe = lambda s, p: Obs(p, game.n, s.history)

    def apply_action(s, a, rng):
        s.history = s.history + (a,)

    mod.apply_action = apply_action
    mod.POLICIES = {"first": First(0), "last": First(-1), "random": lambda obs, legal, rng: legal[int(rng.integers(len(legal)))]}
    mod.DEFAULT_POLICY = "first"
    return mod


@pytest.fixture
def toy(monkeypatch):
    """make(game, name='toy_...') -> the module, registered in sys.modules for the policy to import."""
    def make(game, name="ismcts_toy_game"):
        mod = _module(game, name)
        monkeypatch.setitem(sys.modules, name, mod)
        return mod
    return make


# one decision of seat 0: "win" wins, "lose" loses, "draw" has no winner
ONE = Toy({(): (0, ("lose", "draw", "win"))},
          lambda h, hidden: {"win": 0, "lose": 1, "draw": None}[h[0]])


def _root(mod, **kw):
    kw.setdefault("rollout", "first")
    policy = ISMCTSPolicy(mod.__name__, **kw)
    return policy, policy.search(Obs(0, 2, ()), np.random.default_rng(0), ["lose", "draw", "win"])


# --- the search's budget and the value it backs up -------------------------------------------------------------
def test_every_iteration_draws_one_determinisation_and_backs_up_the_winners_reward(toy):
    mod = toy(ONE)
    policy, root = _root(mod, iterations=10, c=0.0, bias=0.0)
    assert root.visits == 10 and len(mod.sampled) == 10
    ch = root.children
    # every action once (expansion), then with c = 0 the best mean only: the win, worth 1 each time
    assert {a: ch[a].visits for a in ch} == {"lose": 1, "draw": 1, "win": 8}
    assert ch["win"].reward == pytest.approx(8.0) and ch["draw"].reward == pytest.approx(0.5)
    assert ch["lose"].reward == 0.0
    # availability: every action was legal in every iteration from its expansion on (expanded in iterations 1-3)
    assert sorted(c.avail for c in ch.values()) == [8, 9, 10]
    assert policy(Obs(0, 2, ()), ["lose", "draw", "win"], np.random.default_rng(0)) == "win"


def test_exploration_revisits_the_worse_actions(toy):
    mod = toy(ONE)
    _, greedy = _root(mod, iterations=30, c=0.0, bias=0.0)
    _, explore = _root(mod, iterations=30, c=1.0, bias=0.0)
    assert greedy.children["lose"].visits == 1 and greedy.children["draw"].visits == 1
    assert explore.children["lose"].visits > 1 and explore.children["draw"].visits > explore.children["lose"].visits
    assert explore.children["win"].visits > explore.children["draw"].visits
    assert sum(c.visits for c in explore.children.values()) == 30


def test_uct_scores_a_childs_mean_plus_the_exploration_of_its_availability(toy):
    # after one visit each (lose 0, draw 0.5, win 1), each score is mean + c sqrt(ln avail / visits): with c = 0.8
    # the win's better mean takes the fourth and the fifth iteration
    mod = toy(ONE)
    _, root = _root(mod, iterations=5, c=0.8, bias=0.0)
    assert {a: c.visits for a, c in root.children.items()} == {"lose": 1, "draw": 1, "win": 3}
    # a large constant spreads the visits: once the win has two visits the draw's exploration term outweighs it
    _, wide = _root(mod, iterations=5, c=4.0, bias=0.0)
    assert {a: c.visits for a, c in wide.children.items()} == {"lose": 1, "draw": 2, "win": 2}


def test_a_draw_or_a_timeout_is_worth_one_nth_to_each_seat_and_a_team_win_to_every_member():
    s = ToyState(Toy({}, lambda h, hidden: None, n=3), 0)
    assert M._rewards(s, 3) == pytest.approx([1 / 3] * 3)
    s.game.outcome = lambda h, hidden: (0, 2)
    assert M._rewards(s, 4) == [1.0, 0.0, 1.0, 0.0]
    s.game.outcome = lambda h, hidden: 1
    assert M._rewards(s, 2) == [0.0, 1.0]


# two decisions: seat 0 picks "a" or "b", then seat 1 picks "x" or "y"; seat 1 wins after "x", seat 0 after "y",
# except that "b" then "x" is a draw
TWO = Toy({(): (0, ("a", "b")), ("a",): (1, ("x", "y")), ("b",): (1, ("x", "y"))},
          lambda h, hidden: None if h == ("b", "x") else (1 if h[1] == "x" else 0))


def test_each_decision_in_the_tree_backs_up_the_reward_of_the_seat_that_chose_it(toy):
    mod = toy(TWO)
    policy = ISMCTSPolicy(mod.__name__, iterations=40, rollout="last", c=0.5, bias=0.0)
    root = policy.search(Obs(0, 2, ()), np.random.default_rng(1), ["a", "b"])
    a, b = root.children["a"], root.children["b"]
    # below "a" seat 1 wins with x (reward 1 to seat 1) and loses with y
    assert a.children["x"].reward == pytest.approx(a.children["x"].visits)
    assert a.children["y"].reward == 0.0
    # below "b" x is a draw: 1/2 to seat 1
    assert b.children["x"].reward == pytest.approx(0.5 * b.children["x"].visits)
    # seat 0's reward of "a" and "b": 1 for each y below it (the rollouts after expanding "a"/"b" play "y")
    assert a.reward == pytest.approx(a.children["y"].visits + 1)
    assert b.reward == pytest.approx(b.children["y"].visits + 1 + 0.5 * b.children["x"].visits)
    # seat 1 learns to answer with x, so seat 0 does better with "b" (a draw) than with "a" (a loss)
    assert b.visits > a.visits and policy(Obs(0, 2, ()), ["a", "b"], np.random.default_rng(1)) == "b"


def test_a_cutoff_stops_the_rollout_and_asks_the_value_estimate(toy):
    mod = toy(TWO)
    seen = []

    def value(s):
        seen.append(s.history)
        return [0.25, 0.75]

    policy = ISMCTSPolicy(mod.__name__, iterations=2, rollout="last", c=0.0, bias=0.0, cutoff=0, value=value)
    root = policy.search(Obs(0, 2, ()), np.random.default_rng(0), ["a", "b"])
    assert sorted(seen) == [("a",), ("b",)]            # right after the expansion, no rollout decision
    assert root.children["a"].reward == pytest.approx(0.25) and root.children["b"].reward == pytest.approx(0.25)
    plain = ISMCTSPolicy(mod.__name__, iterations=2, rollout="last", c=0.0, bias=0.0, cutoff=0)
    root = plain.search(Obs(0, 2, ()), np.random.default_rng(0), ["a", "b"])
    assert root.children["a"].reward == pytest.approx(0.5)    # no estimate: 1/n to each seat
    one = ISMCTSPolicy(mod.__name__, iterations=2, rollout="last", c=0.0, bias=0.0, cutoff=1)
    root = one.search(Obs(0, 2, ()), np.random.default_rng(0), ["a", "b"])
    assert root.children["a"].reward == pytest.approx(1.0)    # one rollout decision: seat 1 plays "y", seat 0 wins


# --- determinisations ----------------------------------------------------------------------------------------------
# seat 1 holds a hidden card: with card 1 it may also play "z" (a win for seat 1); seat 0 cannot see which
HID = Toy({(): (0, ("a", "b")), ("a",): (lambda h: (1, ("x", "z") if h else ("x",))), ("b",): (1, ("x",))},
          lambda h, hidden: 1 if h[-1] == "z" else 0, hiddens=(0, 1))


def test_a_childs_availability_counts_the_determinisations_where_its_action_was_legal(toy):
    mod = toy(HID)
    order = iter([1, 1, 0, 1, 0, 0, 1, 1])
    sample = lambda obs, rng: ToyState(HID, next(order), obs.history)   # noqa: E731
    policy = ISMCTSPolicy(mod.__name__, iterations=8, rollout="first", c=0.0, bias=0.0)
    root = policy.search(Obs(0, 2, ()), np.random.default_rng(0), ["a", "b"], sample)
    assert root.visits == 8 and mod.sampled == []        # the given sampler, not the game's
    a, b = root.children["a"], root.children["b"]
    # iterations 1-2 expand "b" and "a" (each a win: seat 1's rollout plays "x"); 3 (card 0) goes down "a", the
    # first of two equal means, and expands "x"; 4 (card 1) goes down "a" again, where "x" is available once more
    # and "z", seat 1's win, is expanded; from then on "b" (mean 1 against 2/3) takes every iteration
    assert (a.visits, a.reward, b.visits, b.reward) == (3, pytest.approx(2.0), 5, pytest.approx(5.0))
    assert (a.children["x"].visits, a.children["x"].avail, a.children["x"].reward) == (1, 2, 0.0)
    assert (a.children["z"].visits, a.children["z"].avail, a.children["z"].reward) == (1, 1, pytest.approx(1.0))
    assert (b.avail, a.avail) == (8, 7)
    assert policy(Obs(0, 2, ()), ["a", "b"], np.random.default_rng(0), sample=lambda o, r: ToyState(HID, 1, o.history)) == "b"


def test_the_choice_is_a_real_legal_action_even_when_a_determinisation_offers_more(toy):
    # the determinisations wrongly offer "cheat", which always wins: the search may visit it, never choose it
    game = Toy({(): (0, ("a", "b", "cheat"))}, lambda h, hidden: 0 if h[0] == "cheat" else (1 if h[0] == "a" else None))
    mod = toy(game)
    policy = ISMCTSPolicy(mod.__name__, iterations=20, rollout="first", c=0.5, bias=0.0)
    root = policy.search(Obs(0, 2, ()), np.random.default_rng(0), ["a", "b"])
    ch = root.children
    assert ch["cheat"].visits > ch["b"].visits > ch["a"].visits       # "a" loses, "b" draws
    assert policy(Obs(0, 2, ()), ["a", "b"], np.random.default_rng(0)) == "b"


# --- ties, the bias and the rollout policy's choice ------------------------------------------------------------------
def test_ties_go_to_the_rollout_policys_choice_else_the_first_listed(toy):
    game = Toy({(): (0, ("p", "q", "r"))}, lambda h, hidden: None)          # every action a draw
    mod = toy(game)
    legal = ["p", "q", "r"]
    plain = ISMCTSPolicy(mod.__name__, iterations=3, rollout="last", c=0.0, bias=0.0)
    assert plain(Obs(0, 2, ()), legal, np.random.default_rng(0)) == "p"     # one visit each: the first listed
    biased = ISMCTSPolicy(mod.__name__, iterations=3, rollout="last", c=0.0, bias=1.0)
    root = biased.search(Obs(0, 2, ()), np.random.default_rng(0), legal)
    assert root.hint == "r" and all(c.visits == 1 for c in root.children.values())
    assert biased(Obs(0, 2, ()), legal, np.random.default_rng(0)) == "r"    # the rollout policy's choice wins ties


def test_the_bias_expands_the_rollout_policys_choice_first_and_favours_it(toy):
    mod = toy(ONE)
    rollout = First(0)                       # plays "lose"
    policy = ISMCTSPolicy(mod.__name__, iterations=1, rollout=rollout, c=0.0, bias=1.0)
    root = policy.search(Obs(0, 2, ()), np.random.default_rng(0), ["lose", "draw", "win"])
    assert list(root.children) == ["lose"] and root.hint == "lose"
    # with a large bias the rollout policy's choice keeps most visits however it does
    big = ISMCTSPolicy(mod.__name__, iterations=12, rollout=First(0), c=0.0, bias=50.0)
    root = big.search(Obs(0, 2, ()), np.random.default_rng(0), ["lose", "draw", "win"])
    assert root.children["lose"].visits > root.children["win"].visits
    # bias / (1 + visits): after 3 expansions "lose" scores 0 + 1.5 / 2 = 0.75 against the draw's 0.5 and the
    # win's 1 — the win; with bias 2.5 (1.25) the rollout policy's choice
    small = ISMCTSPolicy(mod.__name__, iterations=4, rollout=First(0), c=0.0, bias=1.5)
    root = small.search(Obs(0, 2, ()), np.random.default_rng(0), ["lose", "draw", "win"])
    assert root.children["win"].visits == 2 and root.children["lose"].visits == 1
    more = ISMCTSPolicy(mod.__name__, iterations=4, rollout=First(0), c=0.0, bias=2.5)
    root = more.search(Obs(0, 2, ()), np.random.default_rng(0), ["lose", "draw", "win"])
    assert root.children["lose"].visits == 2 and root.children["win"].visits == 1


class _Clock:
    """time.perf_counter for the search: each reading one second after the last."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        self.now += 1.0
        return self.now


def test_a_search_whose_time_budget_is_spent_before_the_first_iteration_plays_the_rollout_policys_choice(toy, monkeypatch):
    mod = toy(ONE)
    monkeypatch.setattr(M, "time", _Clock())
    legal = ["lose", "draw", "win"]
    for bias in (0.0, 1.0):
        policy = ISMCTSPolicy(mod.__name__, iterations=50, seconds=0.5, rollout="last", bias=bias)
        root = policy.search(Obs(0, 2, ()), np.random.default_rng(0), legal)
        assert root.visits == 0 and root.children == {} and mod.sampled == []
        # no search at all: what the rollout policy plays (not the first listed action)
        assert policy(Obs(0, 2, ()), legal, np.random.default_rng(0)) == "win"
    assert ISMCTSPolicy(mod.__name__, iterations=50, seconds=0.5, rollout=First(1), bias=0.0)(
        Obs(0, 2, ()), legal, np.random.default_rng(0)) == "draw"


def test_a_time_budget_caps_the_iterations(toy, monkeypatch):
    mod = toy(ONE)
    monkeypatch.setattr(M, "time", _Clock())
    # the deadline is read at 1 s (+ 3.5 s): the checks at 2, 3 and 4 s pass, the one at 5 s stops the search
    policy = ISMCTSPolicy(mod.__name__, iterations=50, seconds=3.5, rollout="first", bias=0.0)
    assert policy.search(Obs(0, 2, ()), np.random.default_rng(0), ["lose", "draw", "win"]).visits == 3
    capped = ISMCTSPolicy(mod.__name__, iterations=2, seconds=100.0, rollout="first", bias=0.0)
    assert capped.search(Obs(0, 2, ()), np.random.default_rng(0), ["lose", "draw", "win"]).visits == 2


def test_a_single_legal_action_is_played_without_searching(toy):
    mod = toy(ONE)
    policy = ISMCTSPolicy(mod.__name__, iterations=5, rollout="first")
    assert policy(Obs(0, 2, ()), ["draw"], np.random.default_rng(0)) == "draw" and mod.sampled == []
    paired = ISMCTSPolicy(mod.__name__, iterations=5, rollout="first", paired=True)
    assert paired(Obs(0, 2, ()), ["lose"], np.random.default_rng(0)) == "lose" and mod.sampled == []


# --- paired mode -------------------------------------------------------------------------------------------------
def test_paired_mode_plays_every_root_action_on_each_determinisation(toy):
    mod = toy(ONE)
    policy = ISMCTSPolicy(mod.__name__, iterations=7, rollout="first", paired=True, z=0.0)
    choice, table = policy.choose_paired(Obs(0, 2, ()), np.random.default_rng(0), ["lose", "draw", "win"])
    # 7 rollouts over 3 actions: 2 determinisations, each played after every action
    assert choice == "win" and len(mod.sampled) == 2
    assert table == [("lose", 0.0, 2), ("draw", 0.5, 2), ("win", 1.0, 2)]


def test_paired_mode_keeps_the_rollout_policys_choice_unless_the_gain_is_beyond_z_standard_errors(toy):
    # a coin decides "risky" (hidden 1: a win, 0: a loss); "safe" is a draw
    game = Toy({(): (0, ("safe", "risky"))},
               lambda h, hidden: None if h[0] == "safe" else (0 if hidden else 1), hiddens=(0, 1))
    mod = toy(game)
    cycle = iter([1, 1, 1, 0] * 10)
    sample = lambda obs, rng: ToyState(game, next(cycle), obs.history)   # noqa: E731
    legal = ["safe", "risky"]
    # 8 rollouts over 2 actions: 4 determinisations (cards 1, 1, 1, 0); z = 0 takes the best mean
    best, table = ISMCTSPolicy(mod.__name__, iterations=8, rollout="first", paired=True, z=0.0).choose_paired(
        Obs(0, 2, ()), np.random.default_rng(0), legal, sample)
    assert best == "risky" and table == [("safe", 0.5, 4), ("risky", 0.75, 4)]
    # differences 0.5, 0.5, 0.5, -0.5: mean 0.25, sd 0.5, se 0.25; z = 0.9 keeps "risky" (0.25 > 0.225), z = 1 not
    cycle = iter([1, 1, 1, 0] * 10)
    assert ISMCTSPolicy(mod.__name__, iterations=8, rollout="first", paired=True, z=0.9).choose_paired(
        Obs(0, 2, ()), np.random.default_rng(0), legal, sample)[0] == "risky"
    cycle = iter([1, 1, 1, 0] * 10)
    assert ISMCTSPolicy(mod.__name__, iterations=8, rollout="first", paired=True, z=1.0).choose_paired(
        Obs(0, 2, ()), np.random.default_rng(0), legal, sample)[0] == "safe"


# --- options checked before any work --------------------------------------------------------------------------------
@pytest.mark.parametrize("kw, message", [
    (dict(iterations=0), "iterations must be a positive integer"), (dict(iterations=True), "iterations must be"),
    (dict(iterations=2.0), "iterations must be"), (dict(cutoff=-1), "cutoff must be None or a non-negative"),
    (dict(cutoff=True), "cutoff must be"), (dict(cutoff=1.5), "cutoff must be"),
    (dict(seconds=0.0), "seconds must be positive"), (dict(c=-0.1), "c must be >= 0"),
    (dict(bias=-1.0), "bias must be >= 0"), (dict(z=-0.5), "z must be >= 0"),
    (dict(topk=-1), "topk must be a non-negative"), (dict(topk=True), "topk must be"),
    (dict(eps=-0.1), r"eps must be in \[0, 1\]"), (dict(eps=1.5), r"eps must be in \[0, 1\]"),
    (dict(belief=3), "belief must be a factory"), (dict(rollout="nobody"), "unknown rollout policy 'nobody'"),
    (dict(rollout=3), "neither a policy name nor callable"), (dict(orollout="nobody"), "unknown orollout policy"),
    (dict(orollout=3), "orollout 3 is neither"), (dict(gamecap=-1), "gamecap must be a non-negative"),
    (dict(gamecap=True), "gamecap must be"), (dict(topk=2, rollout="random"), "topk needs a rollout policy"),
])
def test_a_bad_option_is_a_clear_value_error(toy, kw, message):
    mod = toy(ONE)
    with pytest.raises(ValueError, match=message):
        ISMCTSPolicy(mod.__name__, **kw)


def test_the_smallest_allowed_options_are_accepted(toy):
    mod = toy(ONE)
    p = ISMCTSPolicy(mod.__name__, iterations=1, cutoff=0, c=0.0, bias=0.0, z=0.0, topk=0, eps=0.0, gamecap=0)
    assert (p.iterations, p.cutoff, p.rollout, p.name) == (1, 0, "first", "ismcts:1")
    assert ISMCTSPolicy(mod.__name__, eps=1.0, topk=1, rollout="first").eps == 1.0
    assert ISMCTSPolicy(mod, iterations=2).game == mod.__name__
    with pytest.raises(ValueError, match="lacks sample_state"):
        ISMCTSPolicy(types.ModuleType("ismcts_no_game"))


def test_the_default_rollout_is_the_heuristic_else_the_games_default_else_random():
    assert M.default_rollout(types.SimpleNamespace(POLICIES={"heuristic": 1, "x": 2}, DEFAULT_POLICY="x")) == "heuristic"
    assert M.default_rollout(types.SimpleNamespace(POLICIES={"x": 2}, DEFAULT_POLICY="x")) == "x"
    assert M.default_rollout(types.SimpleNamespace(POLICIES={"x": 2})) == "random"
    game = types.ModuleType("ismcts_spec_game")
    assert M.default_spec(game) == f"ismcts:{M.DEFAULT_ITERATIONS}"
    game.SEARCH_DEFAULT = "ismcts:7"
    assert M.default_spec(game) == "ismcts:7"


def test_topk_searches_only_the_rollout_policys_best_scored_actions_and_keeps_its_choice(toy):
    mod = toy(ONE)
    legal = ["lose", "draw", "win"]
    top1 = ISMCTSPolicy(mod.__name__, iterations=6, rollout="first", topk=1, bias=0.0)
    assert top1.candidates(Obs(0, 2, ()), legal) == ["lose"]
    assert top1.candidates(Obs(0, 2, ()), legal, hint="win") == ["win"]
    root = top1.search(Obs(0, 2, ()), np.random.default_rng(0), legal)
    assert list(root.children) == ["lose"] and root.children["lose"].visits == 6
    top2 = ISMCTSPolicy(mod.__name__, iterations=6, rollout="first", topk=2)
    assert top2.candidates(Obs(0, 2, ()), legal) == ["lose", "draw"]
    assert top2.candidates(Obs(0, 2, ()), legal, hint="win") == ["lose", "win"]
    assert top2.candidates(Obs(0, 2, ()), legal[:2]) == ["lose", "draw"]      # no more than k: all of them
    assert ISMCTSPolicy(mod.__name__, rollout="first").candidates(Obs(0, 2, ()), legal) == legal


def test_eps_plays_random_rollout_moves_with_its_probability(toy):
    mod = toy(TWO)
    rollout = First(0)
    never = ISMCTSPolicy(mod.__name__, iterations=20, rollout=rollout, eps=0.0, bias=0.0)
    never.search(Obs(0, 2, ()), np.random.default_rng(0), ["a", "b"])
    assert rollout.calls > 0
    always_rollout = First(0)
    always = ISMCTSPolicy(mod.__name__, iterations=20, rollout=always_rollout, eps=1.0, bias=0.0)
    always.search(Obs(0, 2, ()), np.random.default_rng(0), ["a", "b"])
    assert always_rollout.calls == 0        # every rollout move random


def test_a_spec_string_reads_every_option(toy):
    mod = toy(ONE)
    p = parse_ismcts(mod, "ismcts:12:rollout=last:c=0.25:cutoff=3:seconds=2:bias=0:paired=1:z=0.5:topk=2:eps=0.5:gamecap=4")
    assert (p.iterations, p.rollout, p.c, p.cutoff, p.seconds, p.bias, p.paired, p.z, p.topk, p.eps, p.gamecap) == (
        12, "last", 0.25, 3, 2.0, 0.0, True, 0.5, 2, 0.5, 4)
    assert parse_ismcts(mod, "ismcts:3:paired=0").paired is False
    for bad, message in [("ismcts", "expected 'ismcts:N'"), ("mcts:5", "expected"), ("ismcts:0", r"the iterations N in 'ismcts:N' must be a positive integer, got '0'"),
                         ("ismcts:x", r"the iterations N in 'ismcts:N' must be a positive integer, got 'x'"), ("ismcts:5:paired=2", "paired expects 0 or 1"),
                         ("ismcts:5:c=abc", "option c expects float"), ("ismcts:5:nope=1", "bad option"),
                         ("ismcts:5:c", "bad option"), ("ismcts:5:value=plan", "unknown value estimate"),
                         ("ismcts:5:belief=reactions", "unknown belief")]:
        with pytest.raises(ValueError, match=message):
            parse_ismcts(mod, bad)
    mod.SEARCH_DEFAULT = "ismcts:9:c=0.1"
    d = parse_ismcts(mod, "ismcts:default:bias=0")
    assert (d.iterations, d.c, d.bias, d.name) == (9, 0.1, 0.0, "ismcts:default:bias=0")


# a line of three decisions, seat 0 then 1 then 0, one action each after the first; seat 0 wins at the end
LINE = Toy({(): (0, ("go", "stop")), ("go",): (1, ("on",)), ("go", "on"): (0, ("on",))},
           lambda h, hidden: 0 if h[0] == "go" else 1)


def test_a_cutoff_counts_the_rollout_decisions_even_forced_ones(toy):
    mod = toy(LINE)
    seen = []

    def value(s):
        seen.append(s.history)
        return [0.0, 1.0]

    for cutoff, expected in [(1, ("go", "on")), (2, None)]:
        seen.clear()
        policy = ISMCTSPolicy(mod.__name__, iterations=1, rollout="first", bias=1.0, cutoff=cutoff, value=value)
        root = policy.search(Obs(0, 2, ()), np.random.default_rng(0), ["go", "stop"])
        if expected is None:        # the game ends within the cutoff: its real result, no estimate
            assert seen == [] and root.children["go"].reward == pytest.approx(1.0)
        else:
            assert seen == [expected] and root.children["go"].reward == 0.0


def test_a_bias_of_one_still_favours_the_rollout_policys_choice(toy):
    game = Toy({(): (0, ("p", "q", "r"))}, lambda h, hidden: None)          # every action a draw
    mod = toy(game)
    # after one visit each, all at 0.5: the rollout policy's "r" scores 0.5 + 1 / 2 and takes the fourth visit
    root = ISMCTSPolicy(mod.__name__, iterations=4, rollout="last", c=0.0, bias=1.0).search(
        Obs(0, 2, ()), np.random.default_rng(0), ["p", "q", "r"])
    assert {a: c.visits for a, c in root.children.items()} == {"p": 1, "q": 1, "r": 2}
    plain = ISMCTSPolicy(mod.__name__, iterations=4, rollout="last", c=0.0, bias=0.0).search(
        Obs(0, 2, ()), np.random.default_rng(0), ["p", "q", "r"])
    assert plain.children["p"].visits == 2                                  # without: the first listed


def test_paired_mode_with_one_determinisation_takes_the_best_mean_at_z_zero(toy):
    mod = toy(ONE)
    policy = ISMCTSPolicy(mod.__name__, iterations=3, rollout="first", paired=True, z=0.0)   # plays "lose" itself
    choice, table = policy.choose_paired(Obs(0, 2, ()), np.random.default_rng(0), ["lose", "draw", "win"])
    assert choice == "win" and [n for _, _, n in table] == [1, 1, 1]
    # with z > 0 one determinisation cannot show a significant gain: the rollout policy's own choice
    assert ISMCTSPolicy(mod.__name__, iterations=3, rollout="first", paired=True, z=0.5)(
        Obs(0, 2, ()), ["lose", "draw", "win"], np.random.default_rng(0)) == "lose"


def test_paired_mode_gives_each_determinisation_its_own_rollout_stream(toy):
    # seat 1 answers at random in the rollouts: "x" wins for it, "y" loses; the same stream would answer alike
    mod = toy(TWO)
    policy = ISMCTSPolicy(mod.__name__, iterations=40, rollout="random", paired=True, z=0.0)
    _, table = policy.choose_paired(Obs(0, 2, ()), np.random.default_rng(3), ["a", "b"])
    assert [n for _, _, n in table] == [20, 20]
    (_, mean_a, _), (_, mean_b, _) = table
    assert 0.0 < mean_a < 1.0                    # after "a": seat 0 won some rollouts and lost others
    # common random numbers: after "b" seat 1 answers as it did after "a" on the same determinisation, so every
    # win ("y") after "a" is one after "b", and every loss ("x") a draw
    assert mean_b == pytest.approx(mean_a + 0.5 * (1 - mean_a))
    assert mean_a == pytest.approx(0.35)         # the rollout streams, fixed by the generator: 7 "y" in 20


def test_a_game_gets_a_plain_chooser_a_capped_one_or_one_with_a_belief(toy):
    mod = toy(ONE)
    legal = ["lose", "draw", "win"]
    plain = ISMCTSPolicy(mod.__name__, iterations=6, rollout="first", bias=0.0)
    chooser = plain.for_game(np.random.default_rng(0))
    assert not isinstance(chooser, M.CappedChooser)
    assert chooser(Obs(0, 2, ()), legal) == plain(Obs(0, 2, ()), legal, np.random.default_rng(0)) == "win"
    capped = ISMCTSPolicy(mod.__name__, iterations=6, rollout="first", bias=0.0, gamecap=1).for_game(
        np.random.default_rng(0))
    assert type(capped) is M.CappedChooser
    assert capped(Obs(0, 2, ()), legal) == "win" and capped(Obs(0, 2, ()), legal) == "lose"   # then its own choice
    assert capped(Obs(0, 2, ()), ["draw"]) == "draw" and capped.searched == 1                 # not a decision


class _Belief:
    """A belief model that deals card 0 and records what it was shown."""

    def __init__(self):
        self.seen, self.acts = [], []

    def see(self, obs):
        self.seen.append(obs.history)

    def acted(self, obs, action):
        self.acts.append(action)

    def sample_state(self, obs, rng):
        return ToyState(HID, 0, obs.history)


def test_a_belief_chooser_feeds_its_model_and_samples_from_it(toy):
    mod = toy(HID)
    policy = ISMCTSPolicy(mod.__name__, iterations=6, rollout="first", bias=0.0, belief=_Belief)
    chooser = policy.for_game(np.random.default_rng(0))
    assert type(chooser) is M.BeliefChooser
    chooser.watch(Obs(0, 2, ("x",)))
    action = chooser(Obs(0, 2, ()), ["a", "b"])
    b = chooser.belief
    assert b.seen == [("x",), ()] and b.acts == [action] and mod.sampled == []   # never the game's sampler


def test_a_spec_names_the_games_value_estimate_and_belief_and_makes_a_fresh_estimate(toy):
    mod = toy(ONE)
    made = []

    def half():
        made.append(lambda s: [0.5, 0.5])
        return made[-1]

    mod.SEARCH_VALUES, mod.SEARCH_BELIEFS = {"half": half}, {"mine": _Belief}
    p = parse_ismcts(mod, "ismcts:4:value=half:belief=mine")
    assert p.value is made[0] and p.belief is _Belief
    assert parse_ismcts(mod, "ismcts:4:value=half").value is made[1]


def test_without_a_bias_the_first_expansion_is_drawn_even_when_the_rollout_choice_is_known(toy):
    mod = toy(ONE)
    # topk asks the rollout policy for its choice ("lose") to keep it among the candidates; with bias 0 it is
    # not expanded first: the generator draws among the untried actions
    policy = ISMCTSPolicy(mod.__name__, iterations=1, rollout="first", topk=3, bias=0.0)
    root = policy.search(Obs(0, 2, ()), np.random.default_rng(0), ["lose", "draw", "win"])
    assert root.hint == "lose" and list(root.children) == ["win"]


def test_budgets_above_the_limits_are_refused_before_any_work(toy):
    mod = toy(ONE)
    with pytest.raises(ValueError, match="20,001 iterations a decision is above the limit of 20,000"):
        ISMCTSPolicy(mod.__name__, iterations=20_001)
    with pytest.raises(ValueError, match="seconds=601 a decision is above the limit of 600"):
        ISMCTSPolicy(mod.__name__, seconds=601.0)
    assert ISMCTSPolicy(mod.__name__, iterations=20_000, seconds=600.0).iterations == 20_000


class _Spy:
    """A rollout policy that records the seats (from the observation) it plays for, and plays the first action."""

    def __init__(self):
        self.seats = []

    def __call__(self, obs, legal, rng):
        self.seats.append(obs.player)
        return legal[0]


# seat 0, then seat 1, then seat 0 again, each with a real choice; seat 0 wins at the end
CHOICES = Toy({(): (0, ("go", "stop")), ("go",): (1, ("x", "y")), ("go", "x"): (0, ("p", "q")),
               ("go", "y"): (0, ("p", "q"))}, lambda h, hidden: 0)


def test_the_rollouts_read_each_seats_observation_and_an_opponent_model_plays_the_others(toy):
    mod = toy(CHOICES)
    mine, other = _Spy(), _Spy()
    ISMCTSPolicy(mod.__name__, iterations=2, rollout=mine, orollout=other, bias=0.0).search(
        Obs(0, 2, ()), np.random.default_rng(0), ["go", "stop"])
    # after "go" the rollout plays for seat 1, then for seat 0
    assert set(mine.seats) == {0} and set(other.seats) == {1} and len(other.seats) == len(mine.seats) == 1
    alone = _Spy()
    ISMCTSPolicy(mod.__name__, iterations=2, rollout=alone, bias=0.0).search(
        Obs(0, 2, ()), np.random.default_rng(0), ["go", "stop"])
    assert alone.seats == [1, 0]


def test_epsilon_noise_mixes_random_and_rollout_policy_moves(toy):
    mod = toy(CHOICES)
    rollout = _Spy()
    ISMCTSPolicy(mod.__name__, iterations=40, rollout=rollout, eps=0.5, c=2.0, bias=0.0).search(
        Obs(0, 2, ()), np.random.default_rng(0), ["go", "stop"])
    # "go" is expanded and revisited: each visit's rollout has two decisions, about half of them the policy's
    assert 0 < len(rollout.seats) < 2 * 40


def test_the_choice_is_the_most_visited_real_action_even_when_the_first_listed_was_never_tried(toy):
    # the determinisations offer "b" and "cheat" but never "a": "a" has no visits, "b" one
    game = Toy({(): (0, ("b", "cheat"))}, lambda h, hidden: None)
    mod = toy(game)
    policy = ISMCTSPolicy(mod.__name__, iterations=2, rollout="first", bias=0.0)
    assert policy(Obs(0, 2, ()), ["a", "b"], np.random.default_rng(0)) == "b"


def test_paired_mode_plays_the_first_determinisation_whatever_the_time_budget_and_stops_at_the_deadline(toy, monkeypatch):
    mod = toy(ONE)
    legal = ["lose", "draw", "win"]
    monkeypatch.setattr(M, "time", _Clock())
    tight = ISMCTSPolicy(mod.__name__, iterations=9, seconds=0.5, rollout="first", paired=True, z=0.0)
    assert [n for _, _, n in tight.choose_paired(Obs(0, 2, ()), np.random.default_rng(0), legal)[1]] == [1, 1, 1]
    # the deadline is read at 1 s (+ 2.5 s): the checks at 2 and 3 s pass, the one at 4 s stops
    timed = ISMCTSPolicy(mod.__name__, iterations=30, seconds=2.5, rollout="first", paired=True, z=0.0)
    assert [n for _, _, n in timed.choose_paired(Obs(0, 2, ()), np.random.default_rng(0), legal)[1]] == [3, 3, 3]
    roomy = ISMCTSPolicy(mod.__name__, iterations=9, seconds=100.0, rollout="first", paired=True, z=0.0)
    assert [n for _, _, n in roomy.choose_paired(Obs(0, 2, ()), np.random.default_rng(0), legal)[1]] == [3, 3, 3]


class _Blind(First):
    """A rollout policy that does not read the observation."""
    observes = False


def test_an_opponent_model_needs_rollout_policies_that_read_the_observation(toy):
    mod = toy(CHOICES)
    for rollout, orollout in [(_Blind(), "first"), ("first", _Blind())]:
        policy = ISMCTSPolicy(mod.__name__, iterations=2, rollout=rollout, orollout=orollout)
        with pytest.raises(ValueError, match="orollout needs rollout policies that read the observation"):
            policy.search(Obs(0, 2, ()), np.random.default_rng(0), ["go", "stop"])
    blind = _Blind()
    ISMCTSPolicy(mod.__name__, iterations=2, rollout=blind, bias=0.0).search(
        Obs(0, 2, ()), np.random.default_rng(0), ["go", "stop"])
    assert blind.calls > 0          # without an opponent model a blind rollout policy is fine
