"""What the nightsim batch kernel decides, per game: decisions by kind (the main phase and each
frame kind) and their mean number of legal actions, and at main-phase decisions the mean hand
size, creatures of the deciding seat and how often the turn's legion is already set.

    PYTHONPATH=$PWD python benchmarks/studies/kernel_decision_mix.py [--policy greedy] [--games 2000]

A profile aid for the kernel (where a decision's time can go), not a speed figure: it replays the
kernel's own loop (`nightsim.kernel.play.play_out`) with counters, so the games are the kernel's games.
Compiles its loop on each run (~1 min; not cached).
"""
from __future__ import annotations

import argparse

import numpy as np
from numba import njit

import nightsim
from nightsim.kernel import core as kc
from nightsim.kernel import play as kp
from nightsim.kernel import play_batch as nk

KINDS = ("discard", "activation", "herald", "mocker", "executioner", "scavenger", "devourer", "penalty", "main")
MAIN = len(KINDS) - 1   # the frame kinds F_* are 0..7; a decision with no frame pending is the main phase


@njit(_nrt=False)
def count(st, tb, rs, seat_kind, seat_w, acts, ties, seeds, decisions, actions, main):
    """play_out with counters: decisions[kind] += 1, actions[kind] += legal actions; main = (hand,
    creatures, turn legion set, main decisions) summed over main-phase decisions."""
    for s in seeds:
        kp.new_game(st, tb, rs, s)
        while not st[kc.G_TERM]:
            q = st[kc.G_CP]
            n = kc.legal_actions(st, tb, rs, acts)
            kind = MAIN if st[kc.G_FR_N] == 0 else st[kc.FR + (st[kc.G_FR_N] - 1) * kc.FW + kc.FR_KIND]
            decisions[kind] += 1
            actions[kind] += n
            if kind == MAIN:
                main[0] += st[kc.HAND_N + q]
                main[1] += st[kc.CRN + q]
                main[2] += st[kc.G_TL] >= 0
                main[3] += 1
            i = kp.choose(st, tb, rs, acts, n, q, seat_kind[q], seat_w[q], ties)
            kc.apply_action(st, tb, rs, acts, i)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2000)
    args = ap.parse_args()
    rules = nightsim.Rules(players=args.players)
    tb = nk.tables(rules)
    st, rs, acts, ties = kp.new_buffers()
    kind, w = nk.policy_row(nk._policy(args.policy))
    seat_kind = np.full(args.players, kind, np.int64)
    seat_w = np.tile(w, (args.players, 1))
    decisions, actions, main_sums = np.zeros(len(KINDS), np.int64), np.zeros(len(KINDS), np.int64), np.zeros(4, np.int64)
    seeds = np.arange(1000, 1000 + args.games, dtype=np.uint64)
    count(st, tb, rs, seat_kind, seat_w, acts, ties, seeds, decisions, actions, main_sums)
    print(f"{args.players} x {args.policy}, {args.games} games: {decisions.sum() / args.games:.1f} decisions per game")
    print(f"{'decision':12} {'per game':>9} {'legal actions':>14}")
    for k, name in enumerate(KINDS):
        if decisions[k]:
            print(f"{name:12} {decisions[k] / args.games:9.2f} {actions[k] / decisions[k]:14.2f}")
    m = max(main_sums[3], 1)
    print(f"main phase: hand {main_sums[0] / m:.2f} cards, {main_sums[1] / m:.2f} creatures, "
          f"turn legion set at {main_sums[2] / m:.0%} of the decisions")


if __name__ == "__main__":
    main()
