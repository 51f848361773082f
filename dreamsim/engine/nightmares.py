"""Nightmares and the Midnight Horror: a nightmare takes effect the moment it is drawn.

The Town Hall shields who stands in it; a Town Hall Midnight Star trap may answer the
nightmare first (`NightmareWindow`); the Colourless Nightmare's victims are placed by the
Horror or the Stager (`Placement`).
"""
from __future__ import annotations

from .actions import HOLD, SPRING, TO, Hold
from .cards import (
    BLACK,
    BLUE,
    COLOURLESS,
    CORRIDORS,
    KIND_NAMES,
    MULTI,
    PURPLE,
    RED,
    TOWN_HALL,
)
from .cards import (
    STAR as STAR_CARD,
)
from .state import (
    Frame,
    State,
    _consume_trap,
    _event,
    _names,
    _neutralise,
    _to_discard,
    _win,
    seats_from,
)

_TH_STAR = (TOWN_HALL, STAR_CARD)


class NightmareWindow(Frame):
    """A nightmare drawn by `drawer`: the owners of Town Hall Midnight Star traps, clockwise
    from the drawer (`ask`, the one asked now at `pos`), may spring one to neutralise it.
    When every owner holds, the nightmare takes effect on the seats of the bit mask `affected`."""

    __slots__ = ("seat", "drawer", "kind", "ask", "pos", "affected")
    decision = "Town Hall trap against a nightmare"
    out_of_turn = True

    def __init__(self, drawer: int, kind: int, ask: list, affected: int):
        self.seat, self.drawer, self.kind, self.ask, self.pos, self.affected = -1, drawer, kind, ask, 0, affected

    def legal(self, s: State) -> list:
        ask = self.ask
        while self.pos < len(ask):
            q = ask[self.pos]
            if _TH_STAR in s.traps[q]:
                self.seat = q
                return [SPRING[TOWN_HALL][STAR_CARD], HOLD]
            self.pos += 1
        return []

    def apply(self, s: State, a, rng) -> None:
        if type(a) is Hold:
            self.pos += 1
            return
        q, p, kind = self.seat, self.drawer, self.kind
        s.stack.pop()
        _consume_trap(s, q, TOWN_HALL, STAR_CARD)
        s.log is None or _event(s, "remote_town_hall", seat=q, drawer=p, card=KIND_NAMES[kind])
        if q == s.horror and s.rules.horror_remote_town_hall_wins:
            _win(s, q, horror=True)
            return
        _neutralise(s)
        if kind in s.hands[p]:
            s.hands[p].remove(kind)
            _to_discard(s, kind)
            s.log is None or _event(s, "th_discard", seat=p, card=KIND_NAMES[kind])

    def finish(self, s: State, rng) -> None:
        s.stack.pop()
        _apply_nightmare(s, self.drawer, self.kind, self.affected, rng)

    def context(self, player: int) -> dict:
        return {"drawer": self.drawer, "card": self.kind}


class Placement(Frame):
    """Colourless Nightmare: `seat` (the Horror or the Stager) puts each of `victims`, first
    one first, in a Corridor."""

    __slots__ = ("seat", "victims")
    decision = "Colourless placement"

    def __init__(self, seat: int, victims: list):
        self.seat, self.victims = seat, victims

    def legal(self, s: State) -> list:
        return [TO[c] for c in CORRIDORS]

    def apply(self, s: State, a, rng) -> None:
        q = self.victims.pop(0)
        s.where[q] = a.location
        s.log is None or _event(s, "placed", seat=q, to=a.location, by=self.seat)
        if not self.victims:
            s.stack.pop()

    def context(self, player: int) -> dict:
        return {"victim": self.victims[0]}


def _nightmare_drawn(s: State, p: int, kind: int, rng) -> bool:
    """A nightmare was drawn by p. Returns True if a decision frame was pushed."""
    s.log is None or _event(s, "nightmare", seat=p, card=KIND_NAMES[kind])
    where = s.where
    if where[p] == TOWN_HALL and not (kind == BLACK and s.rules.black_ignores_town_hall):
        s.log is None or _event(s, "nightmare_blocked", seat=p)
        return False
    if kind == BLACK:
        _apply_nightmare(s, p, kind, 0, rng)
        return False
    affected = 0
    for q in range(s.n):
        if q != s.horror and where[q] != TOWN_HALL:
            affected |= 1 << q
    ask = [q for q in seats_from(s, p) if _TH_STAR in s.traps[q]]
    if ask:
        s.stack.append(NightmareWindow(p, kind, ask, affected))
        return True
    return _apply_nightmare(s, p, kind, affected, rng)


def _apply_nightmare(s: State, p: int, kind: int, affected: int, rng) -> bool:
    """The effect of a nightmare drawn by p on the `affected` seats (bit mask)."""
    if kind == RED:
        s.red |= affected
    elif kind == BLUE:
        s.blue |= affected
    elif kind == PURPLE:
        group = [q for q in range(s.n) if (affected >> q) & 1]
        if len(group) >= 2:
            hands = [s.hands[q] for q in group]
            traps = [s.traps[q] for q in group]
            m = len(group)
            for i, q in enumerate(group):  # each passes to the counter-clockwise neighbour
                s.hands[q] = hands[(i + 1) % m]
                s.traps[q] = traps[(i + 1) % m]
            s.log is None or _event(s, "exchange", seat=p, seats=group, hands=[_names(s.hands[q]) for q in group])
    elif kind == BLACK:
        s.horror = p
        bit = ~(1 << p)
        s.red &= bit
        s.blue &= bit
        s.multi &= bit
        s.slow &= bit
        s.log is None or _event(s, "horror", seat=p)
    elif kind == MULTI:
        here = s.where[p]
        for q in range(s.n):
            if (affected >> q) & 1:
                s.where[q] = here
        s.log is None or _event(s, "gathered", seat=p, seats=[q for q in range(s.n) if (affected >> q) & 1], to=here)
        _speed(s, MULTI, affected)
    elif kind == COLOURLESS:
        _speed(s, COLOURLESS, affected)
        victims = [q for q in range(s.n) if (affected >> q) & 1]
        if victims:
            placer = s.horror
            if placer < 0:
                st = s.rules.stager
                placer = s.n - 1 if st == "last_seat" else 0 if st == "first_seat" else -1
            if placer < 0:
                for q in victims:
                    s.where[q] = CORRIDORS[int(rng.integers(6))]
                    s.log is None or _event(s, "placed", seat=q, to=s.where[q], by=-1)
            else:
                s.stack.append(Placement(placer, victims))
                s.log is None or _event(s, "nightmare_effect", seat=p, card=KIND_NAMES[kind], seats=victims[:])
                return True
    s.log is None or _event(s, "nightmare_effect", seat=p, card=KIND_NAMES[kind],
                            seats=[q for q in range(s.n) if (affected >> q) & 1])
    return False


def _speed(s: State, kind: int, affected: int) -> None:
    """Multicoloured / Colourless on the `affected` seats: each seat keeps its own speed effect.
    The new effect replaces the other one on the seats it reaches; a seat it does
    not reach (in the Town Hall) keeps what it had, unless Rules.speed_cancel_shielded."""
    if kind == MULTI:
        s.multi |= affected
        s.slow = 0 if s.rules.speed_cancel_shielded else s.slow & ~affected
    else:
        s.slow |= affected
        s.multi = 0 if s.rules.speed_cancel_shielded else s.multi & ~affected
