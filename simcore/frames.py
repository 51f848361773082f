"""The frame protocol every engine's stack follows, and its one driver.

An engine keeps its pending work on `State.stack`, a list of frames (top = `stack[-1]`). A frame
is one small object with named fields; the three games share one vocabulary for it:

- `seat`: the seat that decides at this frame (an instance field of a decision frame);
- `decision`: the rulebook's name of the decision at this frame, `None` for a frame that never
  rests (it only runs);
- `legal(s)`: the legal actions of its decision; `apply(s, a, rng)` carries one out;
- `step(s, rng)`: called by `drive` while the frame is on top. It returns True to rest at its
  decision (`s.current_player` is then the seat asked), or runs what needs no choice and returns
  False, popping itself when it is done so that the frame beneath goes on.

A game's own frames add the hooks its rules need (Nerath's turn parts `enter` and `resume`, a
Midnighters frame's `finish`), but the driver knows only `step`. After a chosen action the engine
calls `apply` on the top frame and then `drive`: one loop, the same in every game.
"""

from __future__ import annotations


class Frame:
    """One pending piece of work on a game's `State.stack` (see the module docstring)."""

    __slots__ = ()
    decision: str | None = None

    def step(self, s, rng) -> bool:
        """Rest at this frame's decision (the default for a frame that only waits for a choice)."""
        s.current_player = self.seat
        return True

    def legal(self, s) -> list:
        raise AssertionError(f"no decision at frame {type(self).__name__}")

    def apply(self, s, a, rng) -> None:
        raise AssertionError(f"{type(self).__name__} takes no action ({a!r})")


def drive(s, rng) -> None:
    """Step the top frame until one rests at a decision or the game is over."""
    while not s.is_terminal and not s.stack[-1].step(s, rng):
        pass
