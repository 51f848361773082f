"""Fit and check `dreamsim.policies.value.PlanValue` (the search's rollout cut-off value).

Plays 2-player games of --policy against itself (seeds --seed..), takes every --every-th decision
of each game (state, whose turn, each seat's plan cost) and the game's winner, and fits the
softmax model P(seat wins) ~ exp(-beta * cost + tempo * [its turn]) by maximum likelihood.
Prints beta and tempo, the log-loss and Brier score of the fit, of the shipped constants
(dreamsim.policies.value.BETA / TEMPO) and of the constant 1/2, on the games and on --holdout games more,
and the number of decisions per game (to choose a rollout cut-off).

    PYTHONPATH=$PWD python benchmarks/studies/bench_dreamsim_value.py --games 200 --holdout 100
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np
from scipy.optimize import minimize

import dreamsim
from dreamsim.policies.value import BETA, TEMPO, PlanValue


def positions(policy: str, seeds, every: int, value: PlanValue):
    """(rows of (cost0, cost1, turn is seat 0), winner per row, decisions per game) of finished games."""
    pol = dreamsim.POLICIES[policy]
    rows, wins, lengths = [], [], []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        s = dreamsim.new_game(dreamsim.Rules(players=2), rng)
        mine, steps = [], 0
        while not s.is_terminal:
            if steps % every == 0:
                c = value.costs(s)
                mine.append((c[0], c[1], s.turn_player == 0))
            legal = dreamsim.legal_actions(s)
            p = s.current_player
            a = legal[0] if len(legal) == 1 else pol(dreamsim.observe(s, p), legal, rng)
            dreamsim.apply_action(s, a, rng)
            steps += 1
        lengths.append(steps)
        if s.winner in (0, 1):
            rows += mine
            wins += [s.winner == 0] * len(mine)
    return np.asarray(rows, dtype=float), np.asarray(wins, dtype=float), lengths


def p_seat0(x, beta, tempo):
    return 1.0 / (1.0 + np.exp(-(beta * (x[:, 1] - x[:, 0]) + tempo * (2 * x[:, 2] - 1))))


def scores(x, y, beta, tempo) -> str:
    p = np.clip(p_seat0(x, beta, tempo), 1e-9, 1 - 1e-9)
    return f"log-loss {-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)):.4f}, Brier {np.mean((p - y) ** 2):.4f}"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--holdout", type=int, default=100)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--every", type=int, default=5, help="take every k-th decision of a game")
    ap.add_argument("--policy", default="heuristic")
    args = ap.parse_args(argv)
    value = PlanValue()
    t0 = time.process_time()
    x, y, lengths = positions(args.policy, range(args.seed, args.seed + args.games), args.every, value)
    hx, hy, hl = positions(args.policy, range(args.seed + args.games, args.seed + args.games + args.holdout),
                           args.every, value)
    cpu = time.process_time() - t0

    def loss(v):
        p = np.clip(p_seat0(x, v[0], v[1]), 1e-9, 1 - 1e-9)
        return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    fit = minimize(loss, np.array([0.5, 0.0]), method="Nelder-Mead")
    beta, tempo = fit.x
    allx = np.concatenate([lengths, hl])
    print(f"dreamsim 2p, {args.policy} self-play, {args.games} + {args.holdout} games (seeds from {args.seed}), "
          f"every {args.every}th decision: {len(y)} + {len(hy)} positions; {cpu:.1f} CPU s; "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"decisions per game: mean {allx.mean():.0f}, median {np.median(allx):.0f}, "
          f"10th-90th percentile {np.percentile(allx, 10):.0f}-{np.percentile(allx, 90):.0f}")
    print(f"fit: beta {beta:.3f}, tempo {tempo:.3f}")
    for name, b, t in (("fit", beta, tempo), (f"shipped beta={BETA} tempo={TEMPO}", BETA, TEMPO),
                       ("constant 1/2", 0.0, 0.0)):
        print(f"  {name:32s} fitted games: {scores(x, y, b, t)}; holdout: {scores(hx, hy, b, t)}")


if __name__ == "__main__":
    main()
