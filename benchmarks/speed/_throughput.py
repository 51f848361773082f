"""Shared by the card-game benchmarks: best-of-3 games/s and decisions/s of one game module."""
import time


def measure(play_game, rules, policies, seconds):
    """(games/s, decisions/s): the best of 3 rounds of seconds/3 each (machines here are shared;
    the best round is the least disturbed)."""
    best = None
    seed = 0
    for _ in range(3):
        t0 = time.perf_counter()
        games = decisions = 0
        while time.perf_counter() - t0 < seconds / 3:
            r = play_game(rules, policies, seed)
            seed += 1
            games += 1
            decisions += r.decisions
        dt = time.perf_counter() - t0
        rate = (games / dt, decisions / dt)
        best = rate if best is None or rate[1] > best[1] else best
    return best
