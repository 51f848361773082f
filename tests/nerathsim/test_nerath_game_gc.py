"""`play_game` raises the garbage collector's young threshold while a game is played and gives the
caller's settings back afterwards (a game makes no cyclic garbage, so young
collections during it free nothing and promote the game's own state, which triggers full collections
of the whole heap; `nerathsim.game.quiet_gc`). The speed is measured by benchmarks/speed/bench_all.py, not
here; these tests pin the behaviour every caller gets."""
from __future__ import annotations

import gc
import threading

import pytest

import nerathsim as api
from nerathsim.game import GAME_GC_THRESHOLD, quiet_gc
from nerathsim.policies import POLICIES

RULES = api.Rules(map="small", mode="free_for_all")


class Watcher:
    """The balanced policy, noting the collector's thresholds at every decision."""

    name = "watcher"

    def __init__(self):
        self.inner = POLICIES["balanced"]
        self.seen = set()

    def __call__(self, obs, legal, rng):
        self.seen.add(gc.get_threshold())
        return self.inner(obs, legal, rng)


@pytest.fixture
def thresholds():
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def test_a_game_runs_with_the_raised_young_threshold_and_gives_the_callers_back(thresholds):
    gc.set_threshold(500, 7, 9)
    w = Watcher()
    api.play_game(RULES, [w, "balanced", "balanced", "balanced"], 3)
    assert w.seen == {(GAME_GC_THRESHOLD, 7, 9)}
    assert gc.get_threshold() == (500, 7, 9)


def test_the_callers_thresholds_come_back_when_a_policy_fails(thresholds):
    gc.set_threshold(600, 10, 10)

    def bad(obs, legal, rng):
        return "not an action"
    with pytest.raises(api.IllegalActionError):
        api.play_game(RULES, [bad] * 4, 1)
    assert gc.get_threshold() == (600, 10, 10)


def test_a_game_inside_a_game_keeps_the_outer_games_threshold_until_the_outer_one_ends(thresholds):
    gc.set_threshold(700, 10, 10)
    inner_played = []
    w = Watcher()

    def nested(obs, legal, rng):
        if not inner_played:                 # a search policy playing a game of its own
            inner_played.append(api.play_game(RULES, ["balanced"] * 4, 11).turns)
        return w(obs, legal, rng)
    api.play_game(RULES, [nested, "balanced", "balanced", "balanced"], 5)
    assert inner_played and w.seen == {(GAME_GC_THRESHOLD, 10, 10)}
    assert gc.get_threshold() == (700, 10, 10)


def test_a_caller_who_turned_collection_off_or_set_a_higher_threshold_keeps_it(thresholds):
    for setting in ((0, 10, 10), (GAME_GC_THRESHOLD * 2, 10, 10)):
        gc.set_threshold(*setting)
        w = Watcher()
        api.play_game(RULES, [w, "balanced", "balanced", "balanced"], 2)
        assert w.seen == {setting} and gc.get_threshold() == setting


def test_games_in_threads_give_the_callers_thresholds_back(thresholds):
    gc.set_threshold(700, 10, 10)
    start = threading.Barrier(3)
    results = []

    def play(seed):
        start.wait()
        results.append(api.play_game(RULES, ["balanced"] * 4, seed).turns)
    threads = [threading.Thread(target=play, args=(seed,)) for seed in (1, 2, 3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(results) == 3 and gc.get_threshold() == (700, 10, 10)
    with quiet_gc():
        assert gc.get_threshold()[0] == GAME_GC_THRESHOLD
    assert gc.get_threshold() == (700, 10, 10)


def test_the_quiet_collector_changes_no_record():
    """The same seed gives the same record whether or not the caller's collector runs at all."""
    before = api.play_game(RULES, ["balanced"] * 4, 9, record=True)
    gc.disable()
    try:
        again = api.play_game(RULES, ["balanced"] * 4, 9, record=True)
    finally:
        gc.enable()
    assert before.to_record() == again.to_record() and before.log == again.log


class Sentinel:
    """Notes the collector's young threshold when it is freed."""

    def __init__(self, seen: list):
        self.seen = seen

    def __del__(self):
        self.seen.append(gc.get_threshold()[0])


class Keeper:
    """The balanced policy, keeping a Sentinel in its notebook (which lives as long as the game's state)."""

    name = "keeper"

    def __init__(self):
        self.inner = POLICIES["balanced"]
        self.seen = []

    def __call__(self, obs, legal, rng):
        if "sentinel" not in obs.memo:
            obs.memo["sentinel"] = Sentinel(self.seen)
        return self.inner(obs, legal, rng)


def test_the_games_state_is_freed_before_the_callers_threshold_comes_back(thresholds):
    """A young collection run after the threshold is restored walks only what outlives the game (its caches'
    new entries), not the whole state that is about to be freed (`game._play` returns inside `quiet_gc`)."""
    gc.set_threshold(700, 10, 10)
    k = Keeper()
    result = api.play_game(RULES, [k, "balanced", "balanced", "balanced"], 4)
    assert result.turns > 0 and k.seen == [GAME_GC_THRESHOLD]
    assert gc.get_threshold() == (700, 10, 10)
