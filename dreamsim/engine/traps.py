"""Traps: the trap window after every play (and at the start of a turn) and what a sprung
trap does. Midnight Star traps answer activations (`activations.StarTrapWindow`) and
nightmares (`nightmares.NightmareWindow`), not here.
"""
from __future__ import annotations

from .actions import HOLD, NO_MOVE, NO_TURN, SPRING, TARGET, TO, VOP, Hold
from .cards import CATCHER, CORRIDORS, DREAMWALK, DUTCH, KIND_NAMES
from .cards import STAR as STAR_CARD
from .cards import VERTIGO as VERTIGO_CARD
from .state import _ORDERS, Frame, State, _apply_vop, _consume_trap, _event


class TrapWindow(Frame):
    """After a play (or at the start of a turn: `turn_start`), the seats with prepared traps,
    clockwise from the turn player (`ask`, listed when the window opens; the one asked now at
    `pos`), may each spring traps until they hold."""

    __slots__ = ("seat", "ask", "pos", "turn_start")
    decision = "trap window"
    out_of_turn = True

    def __init__(self, turn_start: bool):
        self.seat, self.ask, self.pos, self.turn_start = -1, None, 0, turn_start

    def legal(self, s: State) -> list:
        ask = self.ask
        if ask is None:
            ask = self.ask = _trap_owners(s, s.turn_player)
        while self.pos < len(ask):
            q = ask[self.pos]
            if s.traps[q]:
                opts = _springable(s, q, self.turn_start)
                if opts:
                    self.seat = q
                    opts.append(HOLD)
                    return opts
            self.pos += 1
        return []

    def apply(self, s: State, a, rng) -> None:
        if type(a) is Hold:
            self.pos += 1
            return
        q, loc, kind = self.seat, a.location, a.kind
        _consume_trap(s, q, loc, kind)
        s.log is None or _event(s, "spring", seat=q, location=loc, kind=KIND_NAMES[kind])
        if kind == DREAMWALK:
            s.stack.append(WalkTrapTarget(q, loc))
        elif kind == VERTIGO_CARD:
            s.stack.append(VertigoTrap(q, loc))
        elif kind == DUTCH:
            s.stack.append(DutchTrap(q, loc))
        elif kind == CATCHER:
            s.controller = q
            s.log is None or _event(s, "captured", seat=q, victim=s.turn_player)


def _springable(s: State, q: int, turnstart: bool) -> list:
    if (s.red >> q) & 1 and q != s.horror:
        return []
    out = []
    where = s.where
    self_to_trap = s.rules.dreamwalk_trap_self == "trap_location"
    for loc, kind in s.traps[q]:
        if kind == STAR_CARD:
            continue
        a = SPRING[loc][kind]
        if a in out:
            continue
        if kind == DREAMWALK:
            if not self_to_trap or where[q] != loc or any(where[t] == loc for t in range(s.n) if t != q):
                out.append(a)
        elif kind == VERTIGO_CARD:
            out.append(a)
        elif kind == DUTCH:
            if where[q] != loc and any(where[t] == loc for t in range(s.n) if t != q):
                out.append(a)
        elif kind == CATCHER:
            v = s.turn_player
            if turnstart and s.controller < 0 and v != q and where[v] == loc:
                out.append(a)
    return out


def window_opens(s: State, turn_start: bool) -> bool:
    """Whether a `TrapWindow(turn_start)` opened now would ask anyone (its `legal` not empty):
    a window nobody can spring a trap in is not pushed at all (it would only be finished
    unseen; no event, no decision, no random number)."""
    traps = s.traps
    for q in _ORDERS[s.n][s.turn_player]:
        if traps[q] and _springable(s, q, turn_start):
            return True
    return False


def _trap_owners(s: State, first: int) -> list:
    """Seats with prepared traps, clockwise from `first` (who a trap window asks)."""
    traps = s.traps
    out = []
    for q in _ORDERS[s.n][first]:
        if traps[q]:
            out.append(q)
    return out


class WalkTrapTarget(Frame):
    """A sprung Dreamwalk trap: its owner `seat` picks a Midnighter in the trap's `location`
    (or itself); then `WalkTrapDestination`."""

    __slots__ = ("seat", "location")
    decision = "Dreamwalk trap: whom"

    def __init__(self, seat: int, location: int):
        self.seat, self.location = seat, location

    def legal(self, s: State) -> list:
        q, loc = self.seat, self.location
        out = [TARGET[t] for t in range(s.n) if s.where[t] == loc]
        if TARGET[q] not in out and (s.rules.dreamwalk_trap_self == "corridor" or s.where[q] != loc):
            out.append(TARGET[q])
        return out

    def apply(self, s: State, a, rng) -> None:
        s.stack.pop()
        s.stack.append(WalkTrapDestination(self.seat, a.seat, self.location))

    def context(self, player: int) -> dict:
        return {"location": self.location}


class WalkTrapDestination(Frame):
    """A sprung Dreamwalk trap: where `target` goes (a Corridor; the trap owner itself goes to
    the trap's location under Rules.dreamwalk_trap_self == "trap_location")."""

    __slots__ = ("seat", "target", "location")
    decision = "Dreamwalk trap: where"

    def __init__(self, seat: int, target: int, location: int):
        self.seat, self.target, self.location = seat, target, location

    def legal(self, s: State) -> list:
        q, t, loc = self.seat, self.target, self.location
        if t == q and s.rules.dreamwalk_trap_self == "trap_location" and s.where[q] != loc:
            return [TO[loc]]
        return [TO[c] for c in CORRIDORS if c != s.where[t]] or [TO[s.where[t]]]

    def apply(self, s: State, a, rng) -> None:
        s.stack.pop()
        s.where[self.target] = a.location
        s.log is None or _event(s, "trap_move", seat=self.seat, target=self.target, to=a.location)

    def context(self, player: int) -> dict:
        return {"target": self.target, "location": self.location}


class VertigoTrap(Frame):
    """A sprung Vertigo trap: stage 0 moves the trap's location, stage 1 rotates it."""

    __slots__ = ("seat", "location", "stage")
    decision = "Vertigo trap"

    def __init__(self, seat: int, location: int):
        self.seat, self.location, self.stage = seat, location, 0

    def legal(self, s: State) -> list:
        loc = self.location
        # "переместить локацию ловушки и повернуть её": move and rotate; leaving either out only
        # with Rules.vertigo_trap_optional (or when the location has no cell to move to)
        optional = s.rules.vertigo_trap_optional
        if self.stage == 0:
            nb = s.nb[s.cell_of[loc]]
            moves = [VOP[d] for d in range(4) if nb[d] >= 0]
            return moves + [VOP[NO_MOVE]] if optional or not moves else moves
        turns = [VOP[4], VOP[5], VOP[6]] if s.rules.vertigo_rotation == "any" else [VOP[4], VOP[6]]
        return turns + [VOP[NO_TURN]] if optional else turns

    def apply(self, s: State, a, rng) -> None:
        _apply_vop(s, self.location, a.op)
        s.log is None or _event(s, "trap_vertigo", seat=self.seat, location=self.location, op=a.op)
        if self.stage == 0:
            self.stage = 1
        else:
            s.stack.pop()

    def context(self, player: int) -> dict:
        return {"location": self.location, "stage": self.stage}


class DutchTrap(Frame):
    """A sprung Dutch Angle trap: its owner swaps places with a Midnighter in the trap's location."""

    __slots__ = ("seat", "location")
    decision = "Dutch Angle trap: whom"

    def __init__(self, seat: int, location: int):
        self.seat, self.location = seat, location

    def legal(self, s: State) -> list:
        q, loc = self.seat, self.location
        return [TARGET[t] for t in range(s.n) if t != q and s.where[t] == loc]

    def apply(self, s: State, a, rng) -> None:
        s.stack.pop()
        q, t = self.seat, a.seat
        s.where[q], s.where[t] = s.where[t], s.where[q]
        s.log is None or _event(s, "trap_swap", seat=q, target=t)

    def context(self, player: int) -> dict:
        return {"location": self.location}
