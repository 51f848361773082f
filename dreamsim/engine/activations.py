"""Activations (Midnight Star): the Star trap window, what each location does, and the
surplus a hand may be left with (Square, Motel, a steal, an interception).

A location's decision frame has `actor` (the seat whose activation, hand or avatar it is) and
`seat` (the seat deciding for it: `actor`, or the Dreamcatcher trap's owner playing `actor`'s
captured turn, `state._dec`).
"""
from __future__ import annotations

from bisect import insort

from .actions import COUNT, DISCARD, GIVE, HOLD, MIX, SPRING, STOP, TAKE, TARGET, TO, Give, Hold, Mix, StopTaking
from .board import adjacent_locations
from .cards import (
    BLACK,
    BRIDGE,
    FOREST,
    KIND_NAMES,
    MOTEL,
    RED,
    RESTAURANT,
    SQUARE,
    TOWN_HALL,
)
from .cards import (
    STAR as STAR_CARD,
)
from .state import (
    S_ANY,
    S_GIVE,
    Frame,
    State,
    _affected,
    _consume_trap,
    _dec,
    _distinct,
    _event,
    _names,
    _neutralise,
    _takeable,
    _to_discard,
    _win,
    hand_limit,
    has_nightmare,
)


class Activation(Frame):
    """Automatic: `actor` activates `location` (its Midnight Star resolved; a Star trap's owner
    may have taken it over). Pushes the location's decision, or wins, or neutralises."""

    __slots__ = ("location", "actor", "remote")

    def __init__(self, location: int, actor: int, remote: bool = False):
        self.location, self.actor, self.remote = location, actor, remote

    def step(self, s: State, rng) -> bool:
        s.stack.pop()
        loc, b = self.location, self.actor
        dec = _dec(s, b)
        s.log is None or _event(s, "activate", seat=b, location=loc)
        stack = s.stack
        if loc == FOREST:
            stack.append(ForestChoice(dec, b))
        elif loc == SQUARE:
            stack.append(Surplus(dec, b, S_ANY, -1))
            stack.append(SquareTake(dec, b))
        elif loc == MOTEL:
            stack.append(MotelTarget(dec, b))
        elif loc == RESTAURANT:
            stack.append(RestaurantOption(dec, b))
        elif loc == TOWN_HALL:
            if b == s.horror:
                if not self.remote or s.rules.horror_remote_town_hall_wins:
                    _win(s, b, horror=True)
                    return False
            _neutralise(s)
            if s.rules.town_hall_discards == "all":
                hand = s.hands[b]
                for k in [k for k in hand if k >= RED and k != BLACK]:
                    hand.remove(k)
                    _to_discard(s, k)
                    s.log is None or _event(s, "th_discard", seat=b, card=KIND_NAMES[k])
            elif any(k >= RED and k != BLACK for k in s.hands[b]):
                stack.append(TownHallDiscard(dec, b))
        elif loc == BRIDGE:
            if b != s.horror and not has_nightmare(s.hands[b]):
                _win(s, b, horror=False)
            else:
                s.log is None or _event(s, "no_wake", seat=b)
        return False


class StarTrapWindow(Frame):
    """`actor` plays a Midnight Star on `location`: the owners of Midnight Star traps there
    (`ask`, clockwise after the actor; the one asked now at `pos`) may spring one and take the
    `activation` over."""

    __slots__ = ("seat", "location", "actor", "ask", "pos", "activation")
    decision = "Midnight Star trap"
    out_of_turn = True

    def __init__(self, location: int, actor: int, ask: list, activation: Activation):
        self.seat, self.location, self.actor, self.ask, self.pos = -1, location, actor, ask, 0
        self.activation = activation

    def legal(self, s: State) -> list:
        ask, loc = self.ask, self.location
        needs = s.rules.star_trap_needs_eligibility
        while self.pos < len(ask):
            q = ask[self.pos]
            if (loc, STAR_CARD) in s.traps[q] and not _affected(s.red, s, q) and (
                    not needs or _benefits(s, q, loc)):
                self.seat = q
                return [SPRING[loc][STAR_CARD], HOLD]
            self.pos += 1
        return []

    def apply(self, s: State, a, rng) -> None:
        if type(a) is Hold:
            self.pos += 1
            return
        q = self.seat
        _consume_trap(s, q, self.location, STAR_CARD)
        self.activation.actor = q
        s.stack.pop()
        s.log is None or _event(s, "star_trap", seat=q, location=self.location, victim=self.actor)

    def context(self, player: int) -> dict:
        return {"location": self.location, "actor": self.actor}


def _benefits(s: State, q: int, loc: int) -> bool:
    if loc == BRIDGE:
        return q != s.horror and not has_nightmare(s.hands[q])
    return True


class ForestChoice(Frame):
    """Forest: `actor` teleports to any other location."""

    __slots__ = ("seat", "actor")
    decision = "Forest destination"

    def __init__(self, seat: int, actor: int):
        self.seat, self.actor = seat, actor

    def legal(self, s: State) -> list:
        here = s.where[self.actor]
        return [TO[loc] for loc in range(12) if loc != here]

    def apply(self, s: State, a, rng) -> None:
        s.stack.pop()
        s.where[self.actor] = a.location
        s.log is None or _event(s, "teleport", seat=self.actor, to=a.location)


class SquareTake(Frame):
    """Square: `actor` takes up to three cards from the discard pile (`taken` so far)."""

    __slots__ = ("seat", "actor", "taken")
    decision = "Square: take from the discard pile"

    def __init__(self, seat: int, actor: int):
        self.seat, self.actor, self.taken = seat, actor, 0

    def legal(self, s: State) -> list:
        if self.taken >= 3 or not s.discard:
            return []
        return [TAKE[k] for k in sorted(_distinct(s.discard))] + [STOP]

    def apply(self, s: State, a, rng) -> None:
        if type(a) is StopTaking:
            s.stack.pop()
            return
        s.discard.remove(a.kind)
        insort(s.hands[self.actor], a.kind)
        self.taken += 1
        s.log is None or _event(s, "square_take", seat=self.actor, card=KIND_NAMES[a.kind])

    def context(self, player: int) -> dict:
        return {"taken": self.taken}


class MotelTarget(Frame):
    """Motel: `actor` picks whose hand to look at (not the Horror's)."""

    __slots__ = ("seat", "actor")
    decision = "Motel: whose cards"

    def __init__(self, seat: int, actor: int):
        self.seat, self.actor = seat, actor

    def legal(self, s: State) -> list:
        b = self.actor
        return [TARGET[t] for t in range(s.n) if t != b and t != s.horror]

    def apply(self, s: State, a, rng) -> None:
        s.stack.pop()
        s.log is None or _event(s, "motel_look", seat=self.actor, target=a.seat, hand=s.hands[a.seat][:])
        s.stack.append(Surplus(self.seat, self.actor, S_GIVE, a.seat))
        s.stack.append(MotelTake(self.seat, self.actor, a.seat))


class MotelTake(Frame):
    """Motel: `actor` takes up to three cards from `target`'s hand (`taken` so far)."""

    __slots__ = ("seat", "actor", "target", "taken")
    decision = "Motel: take a card"

    def __init__(self, seat: int, actor: int, target: int):
        self.seat, self.actor, self.target, self.taken = seat, actor, target, 0

    def legal(self, s: State) -> list:
        if self.taken >= 3:
            return []
        pool = _takeable(s.hands[self.target])
        if not pool:
            return []
        return [TAKE[k] for k in sorted(_distinct(pool))] + [STOP]

    def apply(self, s: State, a, rng) -> None:
        if type(a) is StopTaking:
            s.stack.pop()
            return
        s.hands[self.target].remove(a.kind)
        insort(s.hands[self.actor], a.kind)
        self.taken += 1
        s.log is None or _event(s, "motel_take", seat=self.actor, target=self.target, card=KIND_NAMES[a.kind])

    def context(self, player: int) -> dict:
        return {"target": self.target, "taken": self.taken}


def near_bridge(s: State, horror: bool = False) -> list[int]:
    """Midnighters on the Bridge or in a location next to it (the Horror only if `horror`)."""
    b = BRIDGE
    zone = {b, *adjacent_locations(s.grid, s.cell_of, s.nb, b)}
    return [q for q in range(s.n) if (horror or q != s.horror) and s.where[q] in zone]


class RestaurantOption(Frame):
    """Restaurant: mix the hands of the Midnighters near the Bridge, or pick one of them to
    lose cards (then `RestaurantCount`)."""

    __slots__ = ("seat", "actor")
    decision = "Restaurant option"

    def __init__(self, seat: int, actor: int):
        self.seat, self.actor = seat, actor

    def legal(self, s: State) -> list:
        elig = near_bridge(s)
        out = []
        if len(elig) >= 2 and sum(len(s.hands[q]) for q in elig) > 0:
            out.append(MIX)
        if s.rules.restaurant_discard_horror and s.horror >= 0:
            elig = near_bridge(s, horror=True)  # only mixing spares the Horror's cards
        for q in elig:
            if _takeable(s.hands[q]):
                out.append(TARGET[q])
        return out

    def apply(self, s: State, a, rng) -> None:
        s.stack.pop()
        if type(a) is Mix:
            elig = near_bridge(s)
            pool, counts = [], []
            for q in elig:
                counts.append(len(s.hands[q]))
                pool += s.hands[q]
            rng.shuffle(pool)
            i = 0
            for q, c in zip(elig, counts):
                s.hands[q] = sorted(pool[i:i + c])
                i += c
            s.log is None or _event(s, "mix", seat=self.actor, seats=elig, hands=[_names(s.hands[q]) for q in elig])
        else:
            s.stack.append(RestaurantCount(self.seat, self.actor, a.seat))


class RestaurantCount(Frame):
    """Restaurant: how many cards (1-3) `target` discards at random."""

    __slots__ = ("seat", "actor", "target")
    decision = "Restaurant: how many cards"

    def __init__(self, seat: int, actor: int, target: int):
        self.seat, self.actor, self.target = seat, actor, target

    def legal(self, s: State) -> list:
        k = min(3, len(_takeable(s.hands[self.target])))
        return [COUNT[i] for i in range(1, k + 1)]

    def apply(self, s: State, a, rng) -> None:
        s.stack.pop()
        hand = s.hands[self.target]
        gone = []
        for _ in range(a.n):
            pool = [i for i, k in enumerate(hand) if k != BLACK]
            if not pool:
                break
            card = hand.pop(pool[int(rng.integers(len(pool)))])
            _to_discard(s, card)
            gone.append(KIND_NAMES[card])
        s.log is None or _event(s, "restaurant_discard", seat=self.actor, target=self.target, cards=gone)

    def context(self, player: int) -> dict:
        return {"target": self.target}


class TownHallDiscard(Frame):
    """Town Hall (Rules.town_hall_discards == "one"): the nightmare `actor` gets rid of."""

    __slots__ = ("seat", "actor")
    decision = "Town Hall: nightmare to get rid of"

    def __init__(self, seat: int, actor: int):
        self.seat, self.actor = seat, actor

    def legal(self, s: State) -> list:
        return [DISCARD[k] for k in _distinct(k for k in s.hands[self.actor] if k >= RED and k != BLACK)]

    def apply(self, s: State, a, rng) -> None:
        s.stack.pop()
        s.hands[self.actor].remove(a.kind)
        _to_discard(s, a.kind)
        s.log is None or _event(s, "th_discard", seat=self.actor, card=KIND_NAMES[a.kind])


class Surplus(Frame):
    """`actor` holds more than its hand limit allows: one card at a time goes, per `mode`
    (S_ANY any card but the Black; S_GIVE given to `other` or a director card discarded;
    S_PLAIN a director card discarded), until the hand fits."""

    __slots__ = ("seat", "actor", "mode", "other")
    decision = "surplus card"

    def __init__(self, seat: int, actor: int, mode: int, other: int):
        self.seat, self.actor, self.mode, self.other = seat, actor, mode, other

    def legal(self, s: State) -> list:
        p, mode = self.actor, self.mode
        hand = s.hands[p]
        if len(hand) <= hand_limit(s, p) - s.owed[p]:
            return []
        kinds = _distinct(hand)
        if mode == S_ANY:
            return [DISCARD[k] for k in kinds if k != BLACK]
        if mode == S_GIVE:
            return [GIVE[k] for k in kinds if k != BLACK] + [DISCARD[k] for k in kinds if k < RED]
        return [DISCARD[k] for k in kinds if k < RED]

    def apply(self, s: State, a, rng) -> None:
        hand = s.hands[self.actor]
        hand.remove(a.kind)
        if type(a) is Give:
            insort(s.hands[self.other], a.kind)
            s.log is None or _event(s, "give", seat=self.actor, target=self.other, card=KIND_NAMES[a.kind])
        else:
            _to_discard(s, a.kind)
            s.log is None or _event(s, "surplus_discard", seat=self.actor, card=KIND_NAMES[a.kind])

    def context(self, player: int) -> dict:
        return {"mode": self.mode, "other": self.other, "seat": self.actor}

    def acting_for(self, s: State) -> int:
        return self.actor
