"""The uniform random policy."""
from __future__ import annotations

_BATCH = 256  # random numbers drawn at a time by a seat's chooser (see RandomPolicy.for_game)


class RandomPolicy:
    """Uniform over the legal actions: `legal[int(u * len(legal))]` with u = rng.random().

    It reads no observation (`observes = False`: `play_game` hands it None). `for_game(rng)`
    gives one seat's chooser for one game: the same choices from the same stream, with the
    uniforms drawn `_BATCH` at a time (one numpy call instead of one per decision; the seat's
    stream is this policy's alone, so drawing ahead changes nothing else).
    """

    name = "random"
    observes = False

    def __call__(self, obs, legal, rng):
        return legal[int(rng.random() * len(legal))]

    def for_game(self, rng):
        """choose(obs, legal) -> action for one seat and one game, reading `rng` in batches."""
        buf = []
        pop = buf.pop

        def choose(obs, legal):
            if not buf:
                buf.extend(reversed(rng.random(_BATCH).tolist()))
            return legal[int(pop() * len(legal))]
        return choose

    def __repr__(self):
        return "RandomPolicy()"
