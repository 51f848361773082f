"""The turn: its start (actions, sleep paralysis), the turn actions, a card play from the
hand to its resolution, and the turn's end (the turn player tops up its hand).

A card play by the turn player goes: the card leaves the hand for `limbo` -> reaction
window (`reactions.ReactionWindow`, if anyone can answer) -> the play resolves unless it was
cancelled or intercepted (`Play`) -> cards that were played are replaced from the deck ->
trap window (`refill.PlayDone`) -> the next action of the turn.
"""
from __future__ import annotations

from bisect import insort

from .actions import (
    DISCARD,
    DUTCH_EXTRA,
    DUTCH_REDUCE,
    PARTNER,
    PASS,
    SET_TRAP,
    STAR,
    STEAL,
    VOP,
    Discard,
    DutchExtra,
    DutchReduce,
    Pass,
    SetTrap,
    Star,
    Steal,
    Vertigo,
    Walk,
)
from .activations import Activation, StarTrapWindow, Surplus
from .cards import (
    ACTIVATABLE,
    BLACK,
    BRIDGE,
    CATCHER,
    DREAMWALK,
    DUTCH,
    KIND_NAMES,
    RED,
    SUSPENSE_OF,
    TOWN_HALL,
)
from .cards import (
    STAR as STAR_CARD,
)
from .cards import (
    VERTIGO as VERTIGO_CARD,
)
from .reactions import _ASK, ReactionWindow
from .refill import PlayDone, Refill, _play_done, _refill
from .state import (
    P_DEXTRA,
    P_DREDUCE,
    P_STAR,
    P_STEAL,
    P_TRAP,
    P_VERT,
    P_WALK,
    PLAY_NAMES,
    RESOLVES,
    S_PLAIN,
    Frame,
    State,
    _apply_vop,
    _dec,
    _event,
    _moves_from,
    _names,
    _play_card,
    _shuffle_in_nightmares,
    _takeable,
    hand_limit,
    has_nightmare,
    seats_from,
)
from .traps import TrapWindow, window_opens

_SU_OPTS = tuple(tuple(SET_TRAP[k + 1] for k in range(5, 11) if (bits >> (k - 5)) & 1) for bits in range(64))
_DISCARD_OPTS = tuple(tuple(DISCARD[k] for k in range(11) if (bits >> k) & 1) for bits in range(2048))
_REDUCE_OPTS = {n: tuple(tuple(DUTCH_REDUCE[t] for t in range(n) if t != p) for p in range(n)) for n in range(1, 7)}
_OTHERS = {n: tuple(tuple(t for t in range(n) if t != p) for p in range(n)) for n in range(1, 7)}
#: hand key (the hand mask in bits 0-10, then may set a trap, may play a Dutch Angle, may discard,
#: the seat from bit 14, the players from bit 17: one int) -> the turn actions that depend on nothing else: Suspense traps,
#: Dutch Angles, discards (in the legal-list order). Keyed by value only (at most 2048 x 2 x 2 x 2
#: x 8 x 8 entries): a table filled on demand.
#: Kept as a plain dict on purpose: engine-side, a pure function of immutable values,
#: bounded by its key space (in practice a few thousand entries), and a dict look-up on this hot
#: path is cheaper than an lru_cache call; no policy reads or writes it.
_HAND_OPTS: dict = {}
#: a card kind's bit in a hand mask (a look-up is cheaper than a shift); a nightmare has none (the turn
#: actions read only the director cards, so the mask is a table key as it is)
_BIT = tuple(1 << k if k < RED else 0 for k in range(17))
_TRAP_OK, _DUTCH_OK, _DISCARD_OK, _SEAT_SHIFT, _PLAYERS_SHIFT = 1 << 11, 1 << 12, 1 << 13, 14, 17
#: _SEAT_KEYS[players][seat]: the seat and player-count bits of a hand key (one look-up instead of two shifts)
_SEAT_KEYS = tuple(tuple(p << _SEAT_SHIFT | n << _PLAYERS_SHIFT for p in range(n)) for n in range(7))


def _hand_opts(key: int) -> tuple:
    """The turn actions that depend on the hand and nothing else, in the legal-list order."""
    m, p, n = key & 0x7FF, (key >> _SEAT_SHIFT) & 7, key >> _PLAYERS_SHIFT
    out = []
    if key & _TRAP_OK and m & 0x7E0 and m & 31:  # a Suspense card and a partner for it
        out.extend(_SU_OPTS[(m >> 5) & 63])
    if key & _DUTCH_OK and m & 8:
        out.append(DUTCH_EXTRA)
        out.extend(_REDUCE_OPTS[n][p])
    if key & _DISCARD_OK:
        out.extend(_DISCARD_OPTS[m])
    return tuple(out)


class Turn(Frame):
    """The turn player's next action (`seat`: the turn player, or the Dreamcatcher trap's owner
    playing a captured turn) while actions are left; then the turn ends (`finish`)."""

    __slots__ = ("seat",)
    decision = "turn action"

    def __init__(self, seat: int):
        self.seat = seat

    def legal(self, s: State) -> list:
        al = s.actions_left
        if al <= 0:
            return []
        p = s.turn_player
        if s.horror >= 0 and p != s.horror and s.where[p] == s.where[s.horror] and s.rules.paralysis == "immediate":
            _paralysed_now(s, p)
            return []
        c = s.controller
        self.seat = c if c >= 0 else p
        m = 0  # the kinds in the hand, as bits
        for k in s.hands[p]:
            m |= _BIT[k]
        rules = s.rules
        key = m | _SEAT_KEYS[s.n][p]
        if al >= rules.trap_actions and (p == s.horror or not (s.red >> p) & 1):
            key |= _TRAP_OK
        if al >= rules.dutch_angle_actions:
            key |= _DUTCH_OK
        if rules.discard_action:
            key |= _DISCARD_OK
        opts = _HAND_OPTS.get(key)  # Suspense traps, Dutch Angles, discards
        if opts is None:
            opts = _HAND_OPTS[key] = _hand_opts(key)
        if m & 3:
            loc = s.where[p]
            walks, vertigos = s.geo[loc] or _moves_from(s, loc)
            if m & 3 == 3:
                out = [*walks, *vertigos]
            else:
                out = list(walks if m & 1 else vertigos)  # a Dreamwalk but no Vertigo, or the other way round
            if m & 4 and ACTIVATABLE[loc] and _can_activate(s, p, loc):  # never in a Corridor: no call
                out.append(STAR)
            out += opts
        elif m & 4 and ACTIVATABLE[s.where[p]] and _can_activate(s, p, s.where[p]):
            out = [STAR, *opts]
        else:
            out = list(opts)
        if m & 16 and al >= rules.steal_actions:  # Dreamcatcher: anyone with a card that may leave the hand
            hands = s.hands
            for t in _OTHERS[s.n][p]:
                h = hands[t]
                if h and (len(h) > 1 or h[0] != BLACK):
                    out.append(STEAL[t])
        out.append(PASS)
        return out

    def apply(self, s: State, a, rng) -> None:
        t = type(a)
        p = s.turn_player
        if t is Pass:
            s.actions_left = 0
            s.log is None or _event(s, "pass")
            self.finish(s, rng)
            return
        s.stats["actions"][p] += 1
        if t is Discard:  # Rules.discard_action: not a card play, so nothing to react to
            s.actions_left -= 1
            s.hands[p].remove(a.kind)
            s.owed[p] += 1
            s.discard.append(a.kind)  # a director card (_to_discard handles nightmares)
            s.stats["discards"][p] += 1
            s.log is None or _event(s, "discard_action", seat=p, card=KIND_NAMES[a.kind])
            _play_done(s, p, rng)
            return
        if t is Walk:
            s.actions_left -= 1
            _play_card(s, p, DREAMWALK)
            _start_play(s, p, [DREAMWALK], P_WALK, a.direction, 0, rng)
        elif t is Vertigo:
            s.actions_left -= 1
            _play_card(s, p, VERTIGO_CARD)
            s.stack.append(VertigoChoice(self.seat, p, a.location))
        elif t is Star:
            s.actions_left -= 1
            _play_card(s, p, STAR_CARD)
            _start_play(s, p, [STAR_CARD], P_STAR, s.where[p], 0, rng)
        elif t is SetTrap:
            s.actions_left -= s.rules.trap_actions
            _play_card(s, p, SUSPENSE_OF[a.location])
            s.stack.append(PartnerChoice(self.seat, p, a.location))
        elif t is DutchExtra:
            s.actions_left -= s.rules.dutch_angle_actions
            _play_card(s, p, DUTCH)
            _start_play(s, p, [DUTCH], P_DEXTRA, 0, 0, rng)
        elif t is DutchReduce:
            s.actions_left -= s.rules.dutch_angle_actions
            _play_card(s, p, DUTCH)
            _start_play(s, p, [DUTCH], P_DREDUCE, a.target, 0, rng)
        elif t is Steal:
            s.actions_left -= s.rules.steal_actions
            _play_card(s, p, CATCHER)
            _start_play(s, p, [CATCHER], P_STEAL, a.target, 0, rng)
        else:
            raise AssertionError(a)

    def finish(self, s: State, rng) -> None:
        """End of turn: the avatar tops up its hand, then the next turn starts."""
        stack = s.stack
        stack.pop()
        p = s.turn_player
        top = len(stack)
        if len(s.hands[p]) >= (s.rules.hand_size if p != s.horror else hand_limit(s, p)):  # nothing to draw
            s.owed[p] = 0
            _begin_turn(s, rng, self)
        elif _refill(s, p, rng):
            _begin_turn(s, rng, self)
        else:  # a nightmare drawn opened a decision: the refill and the next turn wait under it
            stack[top:top] = [NextTurn(), Refill(p)]


def _paralysed_now(s: State, p: int) -> None:
    """Rules.paralysis="immediate": p stands with the Horror in its own turn, which ends at once (its
    actions left are lost; the end of the turn, refill included, follows as usual)."""
    s.log is None or _event(s, "paralysed_now", seat=p, actions_lost=s.actions_left)
    s.actions_left = 0


def _can_activate(s: State, p: int, loc: int) -> bool:
    """Midnight Star on `loc`: never a Corridor; the Blue Nightmare forbids all but the Town
    Hall; the Bridge needs a hand without nightmares and is never for the Horror."""
    if not ACTIVATABLE[loc]:
        return False
    if loc != TOWN_HALL and (s.blue >> p) & 1 and p != s.horror:
        return False
    if loc == BRIDGE:
        return p != s.horror and not has_nightmare(s.hands[p])
    return True


class VertigoChoice(Frame):
    """Vertigo played by `actor` on `location`: how the location moves or turns (`seat` decides:
    `actor`, or the Dreamcatcher trap's owner playing its captured turn)."""

    __slots__ = ("seat", "actor", "location")
    decision = "Vertigo operation"

    def __init__(self, seat: int, actor: int, location: int):
        self.seat, self.actor, self.location = seat, actor, location

    def legal(self, s: State) -> list:
        loc = self.location
        nb = s.nb[s.cell_of[loc]]
        out = [VOP[d] for d in range(4) if nb[d] >= 0]
        if s.rules.vertigo_rotation == "any":
            out += (VOP[4], VOP[5], VOP[6])
        else:
            out += (VOP[4], VOP[6])
        return out

    def apply(self, s: State, a, rng) -> None:
        s.stack.pop()
        _start_play(s, self.actor, [VERTIGO_CARD], P_VERT, self.location, a.op, rng)

    def context(self, player: int) -> dict:
        return {"location": self.location}


class PartnerChoice(Frame):
    """`actor` sets a trap with the Suspense card of `location`: its partner card (face down;
    the location is the setter's secret; `seat` decides, as in `VertigoChoice`)."""

    __slots__ = ("seat", "actor", "location")
    decision = "trap partner card"

    def __init__(self, seat: int, actor: int, location: int):
        self.seat, self.actor, self.location = seat, actor, location

    def legal(self, s: State) -> list:
        hand = s.hands[self.actor]
        return [PARTNER[k] for k in (DREAMWALK, VERTIGO_CARD, STAR_CARD, DUTCH, CATCHER) if k in hand]

    def apply(self, s: State, a, rng) -> None:
        s.stack.pop()
        p = self.actor
        s.hands[p].remove(a.kind)
        s.limbo.append(a.kind)
        s.log is None or _event(s, "card_played", seat=p, card=KIND_NAMES[a.kind])
        s.owed[p] += 1
        _start_play(s, p, [SUSPENSE_OF[self.location], a.kind], P_TRAP, self.location, a.kind, rng,
                    s.rules.cancel_trap_setting)

    def context(self, player: int) -> dict:
        return {"location": self.location} if player == self.seat else {}


class Play(Frame):
    """Automatic: a card play by `actor` resolves — `kind` (P_WALK ... P_STEAL) with its
    arguments `arg`, `arg2`, the `cards` played — unless its reaction window made the
    `outcome` CANCELLED or INTERCEPTED."""

    __slots__ = ("actor", "kind", "arg", "arg2", "cards", "outcome")

    def __init__(self, actor: int, kind: int, arg: int, arg2: int, cards: list):
        self.actor, self.kind, self.arg, self.arg2, self.cards, self.outcome = actor, kind, arg, arg2, cards, RESOLVES

    def step(self, s: State, rng) -> bool:
        s.stack.pop()
        _resolve(s, self, rng)
        return False


def _start_play(s: State, p: int, cards: list, ptype: int, a1, a2, rng, reactable: bool = True) -> None:
    """A card play: the reaction window if anyone can answer it, then the resolution and the
    play's end (refill, trap window). With nobody to answer, it resolves at once."""
    s.log is None or _event(s, "play", actor=p, play=PLAY_NAMES[ptype], arg=a1, arg2=a2)
    stack = s.stack
    if reactable:
        hands, c = s.hands, s.controller
        ask = _ASK[s.n][p]
        if c >= 0:
            ask = tuple(q for q in ask if q != c)
        for q in ask:
            h = hands[q]
            if DUTCH in h or CATCHER in h:
                res = Play(p, ptype, a1, a2, cards)
                stack.append(PlayDone(p))
                stack.append(res)
                stack.append(ReactionWindow(ask, res))
                return
    top = len(stack)
    _resolve_play(s, p, ptype, a1, a2, cards, rng)
    if len(stack) == top:  # the resolution asked for nothing more
        _play_done(s, p, rng)
    else:  # the play ends (refill, trap window) once what the resolution opened is done
        stack.insert(top, PlayDone(p))


def _resolve(s: State, f: Play, rng) -> None:
    """What a card play does (unless it was cancelled or intercepted)."""
    if not f.outcome:  # else cancelled or intercepted: its cards are already gone
        _resolve_play(s, f.actor, f.kind, f.arg, f.arg2, f.cards, rng)


def _resolve_play(s: State, p: int, ptype: int, a1, a2, cards: list, rng) -> None:
    """What p's card play of kind `ptype` does; it may push frames (an activation, a surplus)."""
    limbo = s.limbo
    for c in cards:
        limbo.remove(c)
    if ptype == P_TRAP:
        insort(s.traps[p], (a1, a2))  # kept in (location, partner) order, as the kernel lists them
        if a2 != STAR_CARD:
            s.n_traps += 1
        s.stats["traps_set"][p] += 1
        s.log is None or _event(s, "trap_set", seat=p, location=a1, card=KIND_NAMES[a2])
        return
    s.discard += cards  # director cards
    s.log is None or _event(s, "cards_settled", cards=_names(cards), to=-1)
    if ptype == P_WALK:
        # the arrow was checked when the Walk was offered; no answer to a play moves the board
        c2 = s.nb[s.cell_of[s.where[p]]][a1]
        t = s.grid[c2] if c2 >= 0 else -1
        if t >= 0:
            s.where[p] = t
            s.log is None or _event(s, "walk", seat=p, to=t)
    elif ptype == P_VERT:
        _apply_vop(s, a1, a2)
        s.log is None or _event(s, "vertigo", seat=p, location=a1, op=a2)
    elif ptype == P_STAR:
        s.stats["activations"][p] += 1
        act = Activation(a1, p)
        s.stack.append(act)
        if a1 != TOWN_HALL:
            ask = [q for q in seats_from(s, p + 1) if q != p and (a1, STAR_CARD) in s.traps[q]]
            if ask:
                s.stack.append(StarTrapWindow(a1, p, ask, act))
    elif ptype == P_DEXTRA:
        s.actions_left += 1
        s.debt[p] += 1
        s.log is None or _event(s, "extra_action", seat=p)
    elif ptype == P_DREDUCE:
        s.debt[a1] += 1
        s.debt[p] += 1
        s.log is None or _event(s, "reduce", seat=p, target=a1)
    elif ptype == P_STEAL:
        pool = _takeable(s.hands[a1])
        if pool:
            card = pool[int(rng.integers(len(pool)))]
            s.hands[a1].remove(card)
            insort(s.hands[p], card)
            s.log is None or _event(s, "steal", seat=p, victim=a1, card=KIND_NAMES[card])
            s.stack.append(Surplus(_dec(s, p), p, S_PLAIN, -1))


class NextTurn(Frame):
    """Automatic: the next turn starts (the bottom frame between turns)."""

    __slots__ = ()

    def step(self, s: State, rng) -> bool:
        s.stack.pop()
        _begin_turn(s, rng)
        return False


def _begin_turn(s: State, rng, turn: Turn | None = None) -> None:
    """Start the next turn: turn cap, nightmares entering, actions, sleep paralysis, traps.
    `turn`: the Turn frame that just ended and left the stack, reused for the new turn (a Turn
    holds nothing but `seat`; one allocation less per turn)."""
    rules = s.rules
    n, horror = s.n, s.horror  # neither changes while turns are skipped
    p, turns = s.turn_player, s.turns
    while True:
        if turns >= 0:
            p = s.turn_player = (p + 1) % n
        turns = s.turns = turns + 1
        if turns >= rules.max_turns:
            s.is_terminal = s.timed_out = True
            s.legal = []  # the game is over: nothing is legal
            s.log is None or _event(s, "timeout")
            return
        if turns == n and s.reserve and rules.nightmares == "after_first_round":
            _shuffle_in_nightmares(s, rng)
        s.controller = -1
        s.current_player = p
        base = rules.actions_per_turn
        if p != horror and ((s.multi | s.slow) >> p) & 1:  # a speed effect on this seat
            base = rules.multicolour_actions if (s.multi >> p) & 1 else rules.colourless_actions
        if turns < n:  # each seat's first turn (design variants: per-seat compensation, RULES.md)
            if p < rules.extra_first_turn_seats:
                base += 1
            if p >= n - rules.reduced_first_turn_last_seats and base > 1:  # keeps at least one action
                base -= 1
        debt = s.debt
        d = debt[p]
        if d:
            s.actions_left = base - d if d < base else 0
            debt[p] = (d - base if d > base else 0) if rules.debt_carries_over else 0
        else:
            s.actions_left = base
        if horror >= 0 and p != horror and s.where[p] == s.where[horror]:
            s.stats["turns_skipped"][p] += 1  # sleep paralysis: the turn is skipped
            s.actions_left = 0
            s.log is None or _event(s, "paralysed", seat=p)
            continue
        break
    s.log is None or _event(s, "turn", seat=p, actions=s.actions_left)
    if turn is None:
        turn = Turn(p)
    else:
        turn.seat = p
    s.stack.append(turn)
    if s.n_traps and window_opens(s, True):  # a window nobody can spring a trap in is not pushed
        s.stack.append(TrapWindow(True))  # who is asked: listed when the window opens
