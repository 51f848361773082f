"""The heuristic policies: one `HeuristicPolicy` scoring each legal action with a `Weights`
record (see `dreamsim.policies.policies` for the model), and the shipped weight sets.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..engine.actions import (
    Allow,
    Discard,
    Intercept,
    Pass,
)
from .context import Weights, _Public
from .plan import Memo
from .scoring import _CYCLES, _SCORE, _Context, play_threat


@dataclass(frozen=True)
class HeuristicPolicy:
    """Scores each legal action with `weights` and plays the best (random tie-break)."""

    weights: Weights = field(default_factory=Weights)
    name: str = "heuristic"

    def __post_init__(self):
        # (card values, mean value of a card drawn, this policy's own caches): nothing is shared
        # with another policy object or kept at module level
        object.__setattr__(self, "_tables", self.weights.card_values() + (Memo(),))

    @property
    def memo(self) -> Memo:
        """This policy's caches (boards, plan keys); `memo.clear()` forgets them."""
        return self._tables[2]

    def __getstate__(self):  # pickled (joblib workers) without the caches (up to ~80 MB)
        return {"weights": self.weights, "name": self.name}

    def __setstate__(self, state):
        for k, v in state.items():
            object.__setattr__(self, k, v)
        self.__post_init__()

    def __call__(self, obs, legal, rng):
        if len(legal) == 1:
            return legal[0]
        best, best_score = [], None
        if type(legal[-1]) is Allow:  # a reaction window: only the play being answered matters
            score = self._reaction_scorer(obs)
            for a in legal:
                sc = score(a)
                if best_score is None or sc > best_score:
                    best, best_score = [a], sc
                elif sc == best_score:
                    best.append(a)
            return best[0] if len(best) == 1 else best[int(rng.integers(len(best)))]
        ctx = _Context(obs, self.weights, *self._tables)
        dig, dig_score = None, None  # the best discard action, else the best card play (a card cycles)
        cycle, cycle_score = None, None
        for a in legal:
            t = type(a)
            sc = _SCORE[t](ctx, a)
            if best_score is None or sc > best_score:
                best, best_score = [a], sc
            elif sc == best_score:
                best.append(a)
            if t is Discard:
                if dig_score is None or sc > dig_score:
                    dig, dig_score = a, sc
            elif t in _CYCLES and (cycle_score is None or sc > cycle_score):
                cycle, cycle_score = a, sc
        if dig is None:
            dig = cycle
        if dig is not None and type(best[0]) is Pass and ctx.stuck():
            # passing never changes a hand: a plan that lacks cards digs for them instead,
            # even at the price of a card it needs now (it comes back when drawn again): with
            # the discard action (Rules.discard_action) by discarding, without it by the least
            # harmful card play (a played card is replaced from the deck)
            return dig
        return best[0] if len(best) == 1 else best[int(rng.integers(len(best)))]

    def action_scores(self, obs, legal) -> list:
        """The score of each action of `legal` (what `__call__` maximises before its tie-break and
        its digging rule); search uses it to keep only the heuristic's best few candidates."""
        if type(legal[-1]) is Allow:
            score = self._reaction_scorer(obs)
            return [score(a) for a in legal]
        ctx = _Context(obs, self.weights, *self._tables)
        return [_SCORE[type(a)](ctx, a) for a in legal]

    def _reaction_scorer(self, obs):
        """Scores for Cancel / Intercept / Allow, without building a _Context: the threat may need
        who leads (a _Public, built only then)."""
        w = self.weights
        me, horror = obs.player, obs.horror
        ctx = obs.context
        full = []

        def leader_ctx():  # who leads: the board and where everyone stands
            if not full:
                full.append(_Public(obs, self._tables[2]))
            return full[0]

        threat = play_threat(obs, w, me, horror, ctx, leader_ctx)
        resolves = len(ctx["responses"]) % 2 == 0
        answer = not (resolves == (threat < 0) or abs(threat) < 1e-9)
        gain = abs(threat) - w.respond_cost

        def score(a):
            t = type(a)
            if t is Allow:
                return 0.0
            if not answer:
                return -w.respond_cost
            return gain + (1.0 if t is Intercept else 0.0)
        return score

    def __repr__(self):
        return f"HeuristicPolicy(name={self.name!r}, weights={self.weights!r})"





RUNNER = Weights()
TRICKSTER = replace(RUNNER, progress=8.0, hinder=6.0, block_walk=6.0, trap=4.0, trap_star_bridge=40.0,
                    trap_walk_bridge=25.0, dutch_reduce=4.0, steal=2.0, capture=10.0, spring_min=4.0,
                    suspense_value=2.0)
HORROR = replace(RUNNER, paralyse=15.0, block_walk=4.0, hinder=5.0)
BALANCED = replace(RUNNER, hinder=4.0, block_walk=3.0, trap=1.0, trap_star_bridge=20.0, trap_walk_bridge=10.0,
                   dutch_reduce=2.0, capture=5.0)
