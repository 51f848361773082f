"""A value estimate of a full Midnighters state for search: each seat's chance to win
from the heuristics' *plan cost* (the actions a player still needs to win, `plan`).

`PlanValue()(state)` -> one reward per seat in [0, 1] summing to 1: a softmax of
-beta * plan cost, plus `tempo` for the seat whose turn it is (it moves first). The search
(`analyses.search.ISMCTSPolicy`, option `value=plan` with a `cutoff`) calls it on its own
determinised states, never on the real game: it reads every hand, as a rollout would.
beta and tempo were fitted by logistic regression of the winner on the cost difference in
heuristic-vs-heuristic 2-player games (`benchmarks/studies/bench_dreamsim_value.py`).

Each PlanValue owns its caches (a `Memo`, as a HeuristicPolicy does); none is module-level.
"""
from __future__ import annotations

import math

from ..engine.observation import observe
from .context import Weights
from .plan import _BLOCKED, Memo, _plan_cost, public_cost
from .scoring import _Context

BETA = 0.13   # per action of plan cost (fitted, benchmarks/studies/bench_dreamsim_value.py)
TEMPO = 0.04  # the seat whose turn it is


class PlanValue:
    """callable(state) -> per-seat win chances from the plan costs (see the module)."""

    __slots__ = ("beta", "tempo", "weights", "_tables")

    def __init__(self, beta: float = BETA, tempo: float = TEMPO, weights: Weights | None = None):
        if not beta >= 0:
            raise ValueError(f"PlanValue: beta must be >= 0, got {beta!r}")
        self.beta, self.tempo = float(beta), float(tempo)
        self.weights = Weights() if weights is None else weights
        self._tables = self.weights.card_values() + (Memo(),)

    @property
    def __name__(self) -> str:   # how ISMCTSPolicy's repr names a value
        return "plan"

    def __repr__(self):
        return f"PlanValue(beta={self.beta}, tempo={self.tempo})"

    def __eq__(self, other):   # the same estimate whatever its caches hold
        return type(other) is PlanValue and (self.beta, self.tempo, self.weights) == (
            other.beta, other.tempo, other.weights)

    def __hash__(self):
        return hash((PlanValue, self.beta, self.tempo, self.weights))

    def __getstate__(self):   # pickled (joblib workers) without the caches, as a HeuristicPolicy is
        return {"beta": self.beta, "tempo": self.tempo, "weights": self.weights}

    def __setstate__(self, state):
        self.__init__(**state)

    def costs(self, state) -> list:
        """Each seat's plan cost in `state` (its own hand; capped at the blocked cost)."""
        out = []
        for q in range(state.n):
            ctx = _Context(observe(state, q), self.weights, *self._tables)
            if ctx.actor == q:
                c = _plan_cost(ctx.g, ctx.k, state.where[q])
            else:  # q plays for another seat right now: its public route
                c = public_cost(ctx.g, state.where[q], q == state.horror)
            out.append(min(float(c), _BLOCKED))
        return out

    def __call__(self, state) -> list:
        if state.is_terminal:
            w = state.winner
            seats = () if w is None else (w if isinstance(w, tuple) else (w,))
            n = state.n
            return [1.0 if q in seats else 0.0 for q in range(n)] if seats else [1.0 / n] * n
        logits = [-self.beta * c for c in self.costs(state)]
        t = state.turn_player
        if 0 <= t < len(logits):
            logits[t] += self.tempo
        top = max(logits)
        e = [math.exp(x - top) for x in logits]
        total = sum(e)
        return [x / total for x in e]
