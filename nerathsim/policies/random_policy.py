"""`RandomPolicy`: legal but aimless (the baseline every heuristic is measured against)."""
from __future__ import annotations


class RandomPolicy:
    """Legal but aimless.

    Default (`flat=False`): choose an action *kind* uniformly among the kinds that are legal
    (end the phase, move, embark, sail, unload, buy, fight, retreat, ...), then one action of
    that kind uniformly. A flat uniform choice over every legal action (`flat=True`) almost
    never ends a movement phase while a unit can still move — there are hundreds of moves and
    one EndPhase — so its games crawl through every possible step; the two-level choice keeps
    random games a few thousand decisions long, which makes random-vs-random studies cheap.
    """

    def __init__(self, flat: bool = False):
        self.flat = flat
        self.name = "uniform" if flat else "random"

    def __call__(self, obs, legal, rng):
        if self.flat:
            return legal[int(rng.random() * len(legal))]
        by_kind = getattr(legal, "by_kind", None)
        if by_kind is not None:
            groups = by_kind()
        else:
            kinds: dict = {}
            for a in legal:
                kinds.setdefault(type(a), []).append(a)
            groups = list(kinds.values())
        group = groups[int(rng.random() * len(groups))]
        return group[int(rng.random() * len(group))]

    def __repr__(self):
        return f"RandomPolicy(flat={self.flat})"

