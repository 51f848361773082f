"""How much can a searcher gain over Midnighters' heuristic at all? (diagnosis only)

A CHEATING measurement, not a policy: the same IS-MCTS (`analyses.search.ISMCTSPolicy`, any
`ismcts:N:key=value` options) whose every "determinisation" is the TRUE state of the game (the
other hand, the deck order, the face-down traps: perfect information, clairvoyant about future
draws). It plays 2-player games against `heuristic` (or --opponent) with seats rotated, on the
same seeds and streams as `dreamsim.play_game`, next to the honest search (`--honest`) so the two
can be compared deal by deal. If even the cheat stays far below the 60% target, the target is out
of reach for this game at this budget: much of a game is decided by the deal.

    PYTHONPATH=$PWD python benchmarks/studies/bench_dreamsim_ceiling.py --deals 15 --spec ismcts:100:paired=1:z=0
    PYTHONPATH=$PWD python benchmarks/studies/bench_dreamsim_ceiling.py --deals 15 --spec ismcts:100:paired=1:z=0 --honest

Prints the win rate with its 95% Wilson interval and n, and CPU seconds per game (process time, one core).

Measured 2026-12-02 (load 8-12), spec ismcts:100:paired=1:z=0 vs heuristic, seeds from 100:
cheat (true state) 10/10 [0.72, 1.00]; --hands-only 9/16 = 0.56 [0.33, 0.77]; the honest search
of the same spec 48.7% [38.1, 59.5] (n=80).
On more deals (benchmarks/studies/bench_dreamsim_paired.py, deals 1000-1051, seats rotated, load ~8), spec
ismcts:100:paired=1:z=0:topk=3:rollout=tuned: hands-only 67/102 = 65.7% [56.1, 74.2], the honest
search 60/104 = 57.7% [48.1, 66.7], `tuned` alone 57.7% [48.1, 66.7]; hands-only minus honest per deal
+0.078 [-0.035, +0.192]. Knowing the other hand is worth some 8 points; the honest search adds nothing
over its rollout policy.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import types

from scipy.stats import binomtest

import dreamsim
from analyses.search.ismcts import parse_ismcts
from dreamsim.engine.engine import apply_legal, new_game
from dreamsim.engine.observation import observe
from dreamsim.game import _seat_chooser
from simcore.stream import streams

CHEAT = "_dreamsim_true_state_cheat"   # a module name of its own: never a registered policy


def cheat_module(holder: dict, shuffle_deck: bool = False) -> types.ModuleType:
    """dreamsim's protocol with `sample_state` replaced by a copy of the true state (holder['s']);
    shuffle_deck: the deck order redrawn (the cheat then knows the hands and traps, not the future draws)."""
    m = types.ModuleType(CHEAT)
    for name in ("legal_actions", "apply_action", "observe", "POLICIES", "Rules", "DEFAULT_POLICY"):
        if hasattr(dreamsim, name):
            setattr(m, name, getattr(dreamsim, name))

    def sample_state(observation, rng):  # the cheat: no sampling, the real hands and deck order
        s = holder["s"].clone()
        if shuffle_deck:
            s.deck = [s.deck[int(i)] for i in rng.permutation(len(s.deck))]
        return s
    m.sample_state = sample_state
    sys.modules[CHEAT] = m
    return m


def play_cheat(rules, cheat_policy, opponent, seat: int, seed: int, holder: dict):
    """One game with dreamsim.play_game's streams, the cheating searcher in `seat`."""
    chance, *prngs = streams(seed, 1 + rules.players)
    s = new_game(rules, chance)
    pols = [opponent, opponent]
    choose = [_seat_chooser(dreamsim.POLICIES[opponent], r)[0] for r in prngs]
    rng = prngs[seat]

    def cheat(obs, legal):
        holder["s"] = s
        return cheat_policy(obs, legal, rng)
    choose[seat] = cheat
    pols[seat] = "cheat"
    while not s.is_terminal:
        p = s.current_player
        legal = tuple(s.legal)
        a = choose[p](observe(s, p), legal)
        apply_legal(s, next(x for x in legal if x == a), chance)
    return s.winner


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10, help="deals; each played with seats rotated (2 games)")
    ap.add_argument("--spec", default="ismcts:100:paired=1:z=0", help="the search, as in --policies")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hands-only", action="store_true",
                    help="a weaker cheat: the true hands and traps, the deck order redrawn per determinisation")
    ap.add_argument("--honest", action="store_true", help="the honest search instead (dreamsim.play_game)")
    args = ap.parse_args(argv)
    rules = dreamsim.Rules(players=2)
    holder: dict = {}
    if args.honest:
        policy = parse_ismcts(dreamsim, args.spec)
    else:
        policy = parse_ismcts(cheat_module(holder, args.hands_only), args.spec)
    wins = games = 0
    cpu = []
    per_deal = []
    for deal in range(args.deals):
        w = 0
        for seat in (0, 1):
            t0 = time.process_time()
            if args.honest:
                seats = [policy, args.opponent] if seat == 0 else [args.opponent, policy]
                winner = dreamsim.play_game(rules, seats, seed=args.seed + deal).winner
            else:
                winner = play_cheat(rules, policy, args.opponent, seat, args.seed + deal, holder)
            cpu.append(time.process_time() - t0)
            games += 1
            w += winner == seat
        wins += w
        per_deal.append(w)
        ci = binomtest(wins, games).proportion_ci(method="wilson")
        print(f"  deal {args.seed + deal}: {w}/2; after {games} games {wins / games:.3f} "
              f"[{ci.low:.3f}, {ci.high:.3f}]", flush=True)
    ci = binomtest(wins, games).proportion_ci(method="wilson")
    kind = ("HONEST" if args.honest else "CHEAT (true hands and traps, deck order redrawn)" if args.hands_only
            else "CHEAT (true state as the determinisation)")
    print(f"dreamsim 2p: {kind} {args.spec} vs {args.opponent}, seats rotated, seeds {args.seed}.."
          f"{args.seed + args.deals - 1}")
    print(f"win rate {wins / games:.3f} (95% Wilson [{ci.low:.3f}, {ci.high:.3f}], n={games}); deals won "
          f"2/2: {per_deal.count(2)}, 1/2: {per_deal.count(1)}, 0/2: {per_deal.count(0)}")
    print(f"CPU s per game: mean {sum(cpu) / games:.2f}, max {max(cpu):.2f}; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
