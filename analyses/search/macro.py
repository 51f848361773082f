"""Macro search: choose among a heuristic's candidate plans by determinised rollouts (Nerath).

Nerath's turns are long (hundreds of unit moves), so the search does not walk the game unit by
unit. At a *macro decision* — where the heuristic offers whole alternatives (`game.macro_candidates`:
the movement phase's plan, the purchase mix, press on or retreat) — it evaluates each alternative
by rollouts and commits the best; every other decision is the heuristic's own (`base`).

One rollout of alternative i on sample j: a determinisation `game.sample_state(observation, rng_j)`
(the unseen cards, decks and guardians drawn at random), the alternative committed
(`game.commit_in_state`), then every seat played on by the rollout policy (`base` by default) to the
end, or for `cutoff` more rounds (default 2: to the end of the next round), with `game.playout`; its value is `game.standing(state)[seat]`
(1 for a win, 0 for a loss; at a cut-off each seat's share of VP and army worth). All alternatives
see the same samples and the same chance streams (common random numbers), so they are compared
in pairs on the same deals.

The budget (`rollouts` per decision) is spent by sequential halving (Karnin, Koren & Somekh 2013):
ceil(log2 K) rounds; in each, every surviving alternative gets the same fresh samples, and the
worse half (by mean value on all samples so far) is dropped; the heuristic's own choice is never
dropped, and another alternative replaces it only when its paired mean gain over it is larger than
`margin + z` standard errors (a small budget then plays like the heuristic rather than at random).
This is flat (one-level) IS-MCTS over macro actions, with halving instead of UCB at the root.

Deterministic for a given generator (the samples' seeds come from the policy's rng); `seconds`
(a budget per decision) makes it depend on the machine.

    from analyses.search.macro import MacroSearchPolicy
    nerathsim.play_game(rules, [MacroSearchPolicy("nerathsim", rollouts=24)] + ["balanced"] * 3, seed=1)
    # by name: "macro:24", or "ismcts:24" for Nerath (analyses.games.resolve_policies)
"""
from __future__ import annotations

import dataclasses
import importlib
import math
import time
import types
from typing import Any

import numpy as np

from .ismcts import spec_options

__all__ = ["MacroSearchPolicy", "parse_macro", "MACRO_HOOKS", "DEFAULT_ROLLOUTS"]

#: rollouts per macro decision when none is given (`MacroSearchPolicy`, and `macro:default` for a game
#: without its own `SEARCH_DEFAULT`)
DEFAULT_ROLLOUTS = 24

#: what a game module must offer for macro search
MACRO_HOOKS = ("sample_state", "macro_candidates", "commit_macro", "commit_in_state", "playout", "standing")


def _module(game) -> types.ModuleType:
    return game if isinstance(game, types.ModuleType) else importlib.import_module(game)


@dataclasses.dataclass(frozen=True)
class MacroSearchPolicy:
    """Macro search for one game (module or name), callable as policy(observation, legal, rng).

    rollouts: rollouts per macro decision, shared among the alternatives (>= 1); base: the
    heuristic (a policy name or object; None: the game's DEFAULT_POLICY) whose candidates are
    searched and who plays every other decision; rollout: the policy of every seat in rollouts
    (None: base); cutoff: stop a rollout after this many more rounds and use `standing` (None or 0: play
    to the end); seconds: optional time budget per decision; margin, z: another alternative replaces
    the heuristic's own choice only when its mean value on the same samples is higher by more than
    margin + z standard errors of the paired difference; skip: leave out the rollouts that cannot change
    the choice (`choose`; the same choices, fewer rollouts). `stats` counts the rollouts played and skipped
    (not a field: no part of the policy's identity); steps: search the one-step decisions too (alternatives
    that are single actions, Nerath's press on or retreat in a battle); False: the heuristic answers them
    (fewer rollouts, other choices).
    """

    game: str = "nerathsim"
    rollouts: int = DEFAULT_ROLLOUTS   # default budget: <= 60 s per Nerath short game on one core (benchmarks/studies/bench_ismcts.py)
    base: Any = None
    rollout: Any = None
    cutoff: int | None = 2   # rounds; 2 measured stronger and cheaper than to the end (benchmarks/studies/bench_ismcts.py)
    seconds: float | None = None
    margin: float = 0.0
    z: float = 1.0
    skip: bool = True
    steps: bool = True
    name: str = ""

    def __post_init__(self):
        module = _module(self.game)
        object.__setattr__(self, "game", module.__name__)
        missing = [h for h in MACRO_HOOKS if not hasattr(module, h)]
        if missing:
            raise ValueError(f"macro search: game {module.__name__!r} lacks {', '.join(missing)} "
                             f"(only nerathsim offers macro decisions)")
        if isinstance(self.rollouts, bool) or not isinstance(self.rollouts, int) or self.rollouts < 1:
            raise ValueError(f"macro search: rollouts must be a positive integer, got {self.rollouts!r}")
        if self.cutoff == 0 and not isinstance(self.cutoff, bool):
            object.__setattr__(self, "cutoff", None)
        if self.cutoff is not None and (isinstance(self.cutoff, bool) or not isinstance(self.cutoff, int)
                                        or self.cutoff < 1):
            raise ValueError(f"macro search: cutoff must be a number of rounds (0 or None: to the end), got {self.cutoff!r}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"macro search: seconds must be positive, got {self.seconds!r}")
        if not self.margin >= 0:
            raise ValueError(f"macro search: margin must be >= 0, got {self.margin!r}")
        if not self.z >= 0:
            raise ValueError(f"macro search: z must be >= 0, got {self.z!r}")
        for flag_name in ("skip", "steps"):
            if not isinstance(getattr(self, flag_name), bool):
                raise ValueError(f"macro search: {flag_name} must be True or False, got {getattr(self, flag_name)!r}")
        for field in ("base", "rollout"):
            value = getattr(self, field)
            if value is None:
                value = getattr(module, "DEFAULT_POLICY", None) if field == "base" else self.base
            if isinstance(value, str):
                if value not in module.POLICIES:
                    raise ValueError(f"macro search: unknown {field} policy {value!r} for {module.__name__}; "
                                     f"known: {', '.join(module.POLICIES)}")
            elif not callable(value):
                raise ValueError(f"macro search: {field} {value!r} is neither a policy name nor callable")
            object.__setattr__(self, field, value)
        if not self.name:
            object.__setattr__(self, "name", f"macro:{self.rollouts}")
        object.__setattr__(self, "stats", {"rollouts": 0, "skipped": 0})

    def __repr__(self):
        return (f"MacroSearchPolicy(game={self.game!r}, rollouts={self.rollouts}, base={self.base!r}, "
                f"rollout={self.rollout!r}, cutoff={self.cutoff}, seconds={self.seconds}, margin={self.margin}, "
                f"z={self.z}{'' if self.skip else ', skip=False'}{'' if self.steps else ', steps=False'})")

    def _policy(self, module, entry):
        return module.POLICIES[entry] if isinstance(entry, str) else entry

    # --- the policy ------------------------------------------------------------------------
    def __call__(self, observation, legal, rng):
        module = _module(self.game)
        base = self._policy(module, self.base)
        if len(legal) == 1:
            return legal[0]
        cands = module.macro_candidates(base, observation, legal, rng)
        if not cands:
            return base(observation, legal, rng)
        if len(cands) == 1 or (not self.steps and cands[0].plan is None):
            best = 0                      # nothing to choose, or a one-step decision left to the heuristic
        else:
            best = self.choose(observation, cands, rng)[0]
        return module.commit_macro(base, observation, cands[best], legal, rng)

    def choose(self, observation, cands: list, rng) -> tuple:
        """(index of the chosen alternative, {index: (rollouts, mean value)}) by sequential halving.

        With `skip` (and no time budget) a rollout that cannot change the choice is not played: when no
        surviving alternative could still beat the heuristic's own choice by the rule of `margin` and `z`,
        whatever values the rollouts still to come return (each in [0, 1], `standing`), the rest is
        skipped; in the last round, so is every such alternative's. The samples' seeds are still drawn,
        so the generator ends where it would have; the choice is the same, `means` counts only the
        rollouts played (`stats`: rollouts played and skipped)."""
        module = _module(self.game)
        base = self._policy(module, self.base)
        roll = self._policy(module, self.rollout)
        seat = observation.player
        n_seats = len(observation.rules.seating)
        rollers = [roll] * n_seats
        until = None if self.cutoff is None else observation.round + self.cutoff
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        K = len(cands)
        rounds = max(1, math.ceil(math.log2(K)))
        alive = list(range(K))
        values = [[] for _ in range(K)]   # values[i][j]: alternative i on sample j (all alive ones share j)
        total = [0.0] * K
        count = [0] * K
        budget = self.rollouts
        skip = self.skip and deadline is None
        plan = _schedule(K, self.rollouts) if skip else None
        settled = False                   # no alternative can replace the heuristic's choice any more
        dropped = set()                   # last round: alternatives that cannot replace it
        stats = self.stats
        for r in range(rounds):
            per = max(1, budget // (len(alive) * (rounds - r)))
            for j in range(per):
                if deadline is not None and time.perf_counter() > deadline and count[0] > 0:
                    break
                seed = int(rng.integers(2**63))
                if skip and not settled:
                    # samples an alternative still gets (this one included) if it survives every halving
                    left = per - j + sum(p for _, p in plan[r + 1:])
                    hopeful = [i for i in alive if i and i not in dropped
                               and self._can_pass(values[i], values[0], left, -1.0, 1.0)]
                    if not hopeful:
                        settled = True
                    elif r == rounds - 1:
                        dropped.update(i for i in alive if i and i not in hopeful)
                if settled:
                    stats["skipped"] += len(alive)
                    budget -= len(alive)
                    continue
                sample_ss, chance_ss = np.random.SeedSequence(seed).spawn(2)
                state = module.sample_state(observation, np.random.default_rng(sample_ss))
                for i in alive:
                    if i in dropped:
                        stats["skipped"] += 1
                        continue
                    if skip and i and r == rounds - 1 and j == per - 1 and not self._can_pass(
                            values[i], values[0][:-1], 1, -values[0][-1], 1.0 - values[0][-1]):
                        # the last sample, the heuristic's value on it known: this one cannot pass
                        dropped.add(i)
                        stats["skipped"] += 1
                        continue
                    s = state.clone()
                    crng = np.random.default_rng(chance_ss)   # the same chance for every alternative
                    module.commit_in_state(s, base, cands[i], crng)
                    module.playout(s, rollers, crng, until)
                    v = module.standing(s)[seat]
                    if skip and not 0.0 <= v <= 1.0:
                        raise ValueError(f"macro search: {module.__name__}.standing gave {v!r} for seat {seat}; "
                                         "skipping rollouts needs values in [0, 1] (skip=False to search without)")
                    values[i].append(v)
                    total[i] += v
                    count[i] += 1
                    stats["rollouts"] += 1
                budget -= len(alive)
            if len(alive) > 1 and r < rounds - 1:
                ranked = sorted(alive, key=lambda i: (-total[i] / max(1, count[i]), i))
                keep = ranked[:max(1, math.ceil(len(alive) / 2))]
                if 0 not in keep:
                    keep[-1] = 0          # the heuristic's own choice is never dropped
                alive = sorted(keep)
        means = {i: (count[i], total[i] / count[i]) for i in range(K) if count[i]}
        if settled:
            return 0, means
        best, best_gain = 0, 0.0
        for i in alive:                   # survivors, paired with the heuristic's choice on the same samples
            if not i or count[i] != count[0]:
                continue
            d = np.subtract(values[i], values[0])
            gain = float(d.mean())
            se = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else 0.0
            if gain > self.margin + self.z * se and gain > best_gain:
                best, best_gain = i, gain
        return best, means

    def _can_pass(self, mine: list, own: list, more: int, lo: float, hi: float) -> bool:
        """Whether an alternative with values `mine` (paired with the heuristic's `own`, the first
        len(own)) could still pass the final test (mean gain > margin + z SE, and > 0) after `more` further
        paired differences, each in [lo, hi] (the first of them in [lo, hi], the rest in [-1, 1] when
        more > 1: then [-1, 1] for all). Never False when it could: an upper bound with a small slack."""
        if more > 1:
            lo, hi = -1.0, 1.0
        d = [a - b for a, b in zip(mine, own)]
        return _best_final_score(d, more, lo, hi, self.margin, self.z) > -PASS_SLACK


#: `_can_pass` treats an alternative within this of the final test as one that could pass (rounding)
PASS_SLACK = 1e-12


def _best_final_score(d: list, more: int, lo: float, hi: float, margin: float, z: float) -> float:
    """max over t in [lo, hi] of mean(d + [t] * more) - z * SE - margin, SE the standard error of that mean
    (sample SD, ddof 1; 0 for one value). The score is concave in the new values and symmetric in them, so
    over the box [lo, hi]^more its maximum is on the diagonal (all equal to t): a concave function of one
    variable, maximised by ternary search (then the larger of that and both ends)."""
    n = len(d) + more
    s = math.fsum(d)
    q = math.fsum(x * x for x in d)

    def score(t: float) -> float:
        tot = s + more * t
        mean = tot / n
        if n < 2:
            return mean - margin
        var = max(0.0, (q + more * t * t - tot * tot / n) / (n - 1))
        return mean - z * math.sqrt(var / n) - margin

    a, b = lo, hi
    for _ in range(100):
        m1, m2 = a + (b - a) / 3, b - (b - a) / 3
        if score(m1) < score(m2):
            a = m1
        else:
            b = m2
    return max(score(lo), score(hi), score((a + b) / 2))


def _schedule(K: int, rollouts: int) -> list:
    """Sequential halving's plan without a time budget: per round, (alternatives alive, samples each)."""
    rounds = max(1, math.ceil(math.log2(K)))
    alive, budget, out = K, rollouts, []
    for r in range(rounds):
        per = max(1, budget // (alive * (rounds - r)))
        out.append((alive, per))
        budget -= alive * per
        if alive > 1 and r < rounds - 1:
            alive = max(1, math.ceil(alive / 2))
    return out


def flag(text: str) -> bool:
    """A yes/no option: 1/0, true/false, yes/no."""
    low = text.strip().lower()
    if low in ("1", "true", "yes"):
        return True
    if low in ("0", "false", "no"):
        return False
    raise ValueError(text)


_KEYS = {"base": str, "rollout": str, "cutoff": int, "seconds": float, "margin": float, "z": float, "skip": flag, "steps": flag}


def parse_macro(module, spec: str) -> MacroSearchPolicy:
    """`macro:N` or `macro:N:key=value:...` (keys: base, rollout, cutoff, seconds, margin, z, skip, steps) for `module`;
    for a game with macro decisions (Nerath) `ismcts:N[:...]` means the same search.
    `macro:default[:key=value...]` (or `ismcts:default[...]`) is the game's `SEARCH_DEFAULT` spec (else
    `macro:DEFAULT_ROLLOUTS`), its options overridden by the ones given, named as given.

    >>> parse_macro(importlib.import_module("nerathsim"), "macro:8:cutoff=2").cutoff
    2
    """
    head, *rest = spec.strip().split(":")
    head = head.strip().lower()
    if head not in ("macro", "ismcts") or not rest:
        raise ValueError(f"policy {spec!r}: expected 'macro:N' or 'macro:N:key=value' (N rollouts per decision)")
    if rest[0].strip().lower() == "default":
        base = getattr(module, "SEARCH_DEFAULT", None) or f"macro:{DEFAULT_ROLLOUTS}"
        policy = parse_macro(module, ":".join([base, *rest[1:]]))
        return dataclasses.replace(policy, name=spec.strip())
    count = rest[0].strip()
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"policy {spec!r}: the rollouts N in '{head}:N' must be a positive integer, got {count!r}")
    kwargs = spec_options(spec, rest[1:], _KEYS, "options of the macro search"
                          f"{' (Nerath: ismcts is the macro search)' if head == 'ismcts' else ''}")
    return MacroSearchPolicy(module.__name__, rollouts=int(count), name=spec.strip(), **kwargs)
