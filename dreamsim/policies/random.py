"""The uniform random policy."""
from __future__ import annotations


class RandomPolicy:
    """Uniform over the legal actions: `legal[rng.integers(len(legal))]`, one draw per decision
    (`Stream.below(len(legal))` from the seat's stream, the draw the batch kernel makes too).

    It reads no observation (`observes = False`: `play_game` hands it None).
    """

    name = "random"
    observes = False

    def __call__(self, obs, legal, rng):
        return legal[int(rng.integers(len(legal)))]

    def __repr__(self):
        return "RandomPolicy()"
