"""The uniform random policy."""
from __future__ import annotations


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def __call__(self, obs, legal, rng):
        return legal[int(rng.random() * len(legal))]

    def __repr__(self):
        return "RandomPolicy()"
