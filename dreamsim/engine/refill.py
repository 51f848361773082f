"""Refilling hands: after a play the players who played cards draw back up to their hand
limit (Rules.refill), a nightmare drawn takes effect at once (and may open a decision, under
which the rest of the refill waits), then the trap window opens.
"""
from __future__ import annotations

from bisect import insort

from .cards import KIND_NAMES, RED
from .nightmares import _nightmare_drawn
from .state import _ORDERS, Frame, State, _draw_card, _event, hand_limit
from .traps import TrapWindow, window_opens


class Refill(Frame):
    """Automatic: `actor` draws up to its hand limit; stays while a nightmare's decision it drew
    is open above it, and resumes drawing after it."""

    __slots__ = ("actor",)

    def __init__(self, actor: int):
        self.actor = actor

    def step(self, s: State, rng) -> bool:
        if _refill(s, self.actor, rng):
            s.stack.pop()  # else a decision was pushed above this frame; the refill resumes after it
        return False


class PlayDone(Frame):
    """Automatic: `actor`'s card play is settled: refill, then the trap window (`_play_done`)."""

    __slots__ = ("actor",)

    def __init__(self, actor: int):
        self.actor = actor

    def step(self, s: State, rng) -> bool:
        s.stack.pop()
        _play_done(s, self.actor, rng)
        return False


def _play_done(s: State, p: int, rng) -> None:
    """After p's play: the players who played cards draw back up to the hand size (from p,
    clockwise), then trap owners may act (a trap window, pushed only if someone can spring a trap)."""
    stack = s.stack
    # the trap window's owners are listed when it opens, after the refill below: a Purple Nightmare
    # drawn in the refill moves traps to new owners, and they are asked too
    window = s.n_traps
    top = len(stack)
    if s.rules.refill == "after_play":
        owed = s.owed
        if sum(owed) == owed[p]:  # the usual case: only p played cards
            if owed[p] and not _refill(s, p, rng):
                # a nightmare opened a decision: the refill, then the trap window wait under it
                stack[top:top] = [TrapWindow(False), Refill(p)] if window else [Refill(p)]
                return
        else:
            order = _ORDERS[s.n][p]
            i = 0
            for q in order:
                if owed[q] and not _refill(s, q, rng):
                    # a nightmare opened a decision: the rest of the refill, then the window wait under it
                    waiting = [Refill(r) for r in reversed(order[i:]) if owed[r]]
                    stack[top:top] = [TrapWindow(False), *waiting] if window else waiting
                    return
                i += 1
    # the refill is done (no frame pushed): the window would be listed and asked right now
    if window and window_opens(s, False):
        stack.append(TrapWindow(False))


def _refill(s: State, p: int, rng) -> bool:
    """Draw up to the hand size; a nightmare takes effect the moment it is drawn. False when
    a nightmare pushed a decision (the refill is not finished).

    The Horror's limit (`hand_limit`: nightmares need not count) is asked again after every
    nightmare drawn: a seat that becomes the Horror by drawing the Black, or a Horror that draws
    another nightmare, goes on drawing until it holds its full hand of other cards."""
    hand = s.hands[p]
    size = s.rules.hand_size if p != s.horror else hand_limit(s, p)
    deck = s.deck
    while len(hand) < size:
        if deck:
            c = deck.pop()
        else:
            c = _draw_card(s, rng)
            if c < 0:
                break
            deck = s.deck
        insort(hand, c)
        s.log is None or _event(s, "draw", seat=p, card=KIND_NAMES[c])
        if c >= RED:
            s.stats["nightmares_drawn"][p] += 1
            if _nightmare_drawn(s, p, c, rng):
                return False
            hand = s.hands[p]  # the Purple Nightmare hands p someone else's hand
            if p == s.horror:  # it may have just become the Horror: the nightmare need not count
                size = hand_limit(s, p)
    s.owed[p] = 0
    return True
