"""The Midnighters engine: state, legal actions, and the rules that advance the state.

One decision = one step (OpenSpiel style). Everything that needs no choice (dealing,
drawing, a nightmare's effect, resolving a card) runs inside `apply_action`; the state then
rests at the next decision, whose owner is `state.current_player` — which may be a player
reacting out of turn (Dutch Angle, Dreamcatcher), a trap owner, or the Stager.

Pending work lives on `state.stack`, a list of small frames (lists whose first item is the
frame kind). Decision frames have a `legal`, an `apply` and a `finish` function (finish runs
when the frame has no legal action left); automatic frames have a `run` function. The
bottom of the stack is always the turn frame (or the frame that starts the next turn).

A card play by the turn player goes: the card leaves the hand for `limbo` -> reaction
window (every other player who can cancel or intercept is asked, and every response can be
answered in turn) -> the play resolves unless it was cancelled/intercepted -> cards that
were played are replaced from the deck -> trap window (trap owners may spring traps) ->
the next action of the turn.
"""
from __future__ import annotations

import numpy as np

from .actions import (
    ALLOW, Allow, CANCEL, COUNT, DISCARD, DUTCH_EXTRA, DUTCH_REDUCE, GIVE, HOLD, INTERCEPT, MIX, NO_MOVE, NO_TURN,
    PARTNER, PASS, SET_TRAP, SPRING, STAR, STEAL, STOP, TAKE, TARGET, TO, VERTIGO, VOP, WALK,
    Cancel, Discard, DutchExtra, DutchReduce, Give, Hold, Mix, Pass, SetTrap, Star,
    Steal, StopTaking, Target, Vertigo, Walk,
)
from .board import adjacent_locations
from .cards import (
    ACTIVATABLE, ARROWS, BLACK, BLUE, BRIDGE, CATCHER, COLOURLESS, CORRIDORS, DREAMWALK, DUTCH, FOREST, KIND_NAMES,
    LOCATION_NAMES, MOTEL, MULTI, PURPLE, RED, RESTAURANT, SQUARE, STAR as STAR_CARD,
    SUSPENSE_OF, TOWN_HALL, VERTIGO as VERTIGO_CARD, director_cards, nightmare_cards,
)
from .rules import Rules

# frame kinds --------------------------------------------------------------------------------
(F_TURN, F_VOP, F_PARTNER, F_REACT, F_STARTRAP, F_FOREST, F_SQUARE, F_MOTEL_T, F_MOTEL_TAKE, F_SURPLUS,
 F_REST, F_REST_N, F_TH, F_TRAPS, F_WTRAP_T, F_WTRAP_TO, F_VTRAP, F_DTRAP, F_NIGHT, F_PLACE,
 F_NEXT, F_RESOLVE, F_PLAYDONE, F_ACT, F_REFILL) = range(25)

DECISION_NAMES = {
    F_TURN: "turn action", F_VOP: "Vertigo operation", F_PARTNER: "trap partner card",
    F_REACT: "reaction", F_STARTRAP: "Midnight Star trap", F_FOREST: "Forest destination",
    F_SQUARE: "Square: take from the discard pile", F_MOTEL_T: "Motel: whose cards",
    F_MOTEL_TAKE: "Motel: take a card", F_SURPLUS: "surplus card", F_REST: "Restaurant option",
    F_REST_N: "Restaurant: how many cards", F_TH: "Town Hall: nightmare to get rid of",
    F_TRAPS: "trap window", F_WTRAP_T: "Dreamwalk trap: whom", F_WTRAP_TO: "Dreamwalk trap: where",
    F_VTRAP: "Vertigo trap", F_DTRAP: "Dutch Angle trap: whom", F_NIGHT: "Town Hall trap against a nightmare",
    F_PLACE: "Colourless placement",
}

# play types (what a card play does once it resolves)
P_WALK, P_VERT, P_STAR, P_TRAP, P_DEXTRA, P_DREDUCE, P_STEAL = range(7)
PLAY_NAMES = ("Dreamwalk", "Vertigo", "Midnight Star", "trap setting", "Dutch Angle (extra action)",
              "Dutch Angle (reduce)", "Dreamcatcher (steal)")
# surplus modes
S_ANY, S_GIVE, S_PLAIN = range(3)

STAT_NAMES = ("played_dreamwalk", "played_vertigo", "played_star", "played_dutch", "played_catcher",
              "traps_set", "traps_sprung", "nightmares_drawn", "turns_skipped", "cancels", "intercepts",
              "activations", "actions", "discards")
_PLAYED_STAT = {DREAMWALK: "played_dreamwalk", VERTIGO_CARD: "played_vertigo", STAR_CARD: "played_star",
                DUTCH: "played_dutch", CATCHER: "played_catcher"}


class IllegalActionError(ValueError):
    """A policy (or caller) chose an action that is not legal in the current state."""


class State:
    """Full game state. Mutable; `clone()` is a cheap structural copy."""

    __slots__ = (
        "rules", "n", "rows", "cols", "nb", "grid", "cell_of", "rot", "where",
        "deck", "discard", "reserve", "hands", "traps", "limbo",
        "turn_player", "controller", "current_player", "actions_left", "debt", "owed",
        "horror", "red", "blue", "multi", "slow", "stack",
        "winner", "woke", "horror_won", "is_terminal", "timed_out", "turns", "decisions",
        "stats", "log", "legal", "n_traps",  # n_traps: traps other than Midnight Star ones (trap windows)
        "geo",  # geo[loc]: cached (Dreamwalk actions, Vertigo actions) from loc; see board_changed()
    )

    def clone(self) -> "State":
        s = State.__new__(State)
        for name in ("rules", "n", "rows", "cols", "nb", "turn_player", "controller", "current_player",
                     "actions_left", "horror", "red", "blue", "multi", "slow", "winner", "woke",
                     "horror_won", "is_terminal", "timed_out", "turns", "decisions", "n_traps"):
            setattr(s, name, getattr(self, name))
        s.grid, s.cell_of, s.rot, s.where = self.grid[:], self.cell_of[:], self.rot[:], self.where[:]
        s.deck, s.discard, s.reserve, s.limbo = self.deck[:], self.discard[:], self.reserve[:], self.limbo[:]
        s.hands = [h[:] for h in self.hands]
        s.traps = [t[:] for t in self.traps]
        s.debt, s.owed = self.debt[:], self.owed[:]
        memo = {}
        s.stack = [_copy_frame(f, memo) for f in self.stack]
        s.stats = {k: v[:] for k, v in self.stats.items()}
        s.log = None if self.log is None else self.log[:]
        s.legal = None
        s.geo = self.geo[:]
        return s

    def board_changed(self) -> None:
        """Forget the cached moves of the board; call it after editing `grid`, `cell_of` or `rot`."""
        self.geo = [None] * 12

    @property
    def decision(self) -> str:
        """What the current decision is about, in the rulebook's words."""
        if self.is_terminal:
            return "game over"
        return DECISION_NAMES.get(self.stack[-1][0], "automatic")

    def all_cards(self) -> list[int]:
        """Every card (kind code) wherever it is: deck, discard, nightmares not yet shuffled in,
        hands, prepared traps (Suspense + partner) and cards being played (limbo)."""
        out = self.deck + self.discard + self.reserve + self.limbo
        for h in self.hands:
            out += h
        for ts in self.traps:
            for loc, kind in ts:
                out.append(SUSPENSE_OF[loc])
                out.append(kind)
        return out

    def location_at(self, row: int, col: int) -> int:
        return self.grid[row * self.cols + col]

    def __repr__(self):
        return (f"State(turn={self.turns}, turn_player={self.turn_player}, player={self.current_player}, "
                f"decision={self.decision!r}, where={self.where}, hands={[len(h) for h in self.hands]}, "
                f"deck={len(self.deck)}, horror={self.horror}, terminal={self.is_terminal})")


def _copy_frame(frame: list, memo: dict) -> list:
    """Copy a frame; frames that reference other frames (reaction -> play, Star trap ->
    activation) keep pointing at the copies."""
    key = id(frame)
    if key in memo:
        return memo[key]
    f = list(frame)
    memo[key] = f
    for i, x in enumerate(f):
        if isinstance(x, list):
            if x and isinstance(x[0], int) and len(x) > 1 and x is not frame and _looks_like_frame(x):
                f[i] = _copy_frame(x, memo)
            else:
                f[i] = [(_copy_frame(y, memo) if isinstance(y, list) else y) for y in x]
    return f


def _looks_like_frame(x) -> bool:
    return x[0] in (F_RESOLVE, F_ACT)


# -------------------------------------------------------------------------------------------
# Setup
# -------------------------------------------------------------------------------------------
def as_generator(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def new_game(rules: Rules, seed, record: bool = False) -> State:
    """Deal the game: the Stager's board (Rules.layout), Midnighters in the Corridors, hands
    of `hand_size` director cards, then the nightmares per Rules.nightmares.

    `seed` is an int, a SeedSequence or a Generator; seat 0 is the starting player.
    """
    rng = as_generator(seed)
    rows, cols, grid, rot, start, nb = rules.board
    s = State.__new__(State)
    s.rules, s.n, s.rows, s.cols, s.nb = rules, rules.players, rows, cols, nb
    s.grid, s.rot = grid[:], rot[:]
    s.geo = [None] * 12
    if rules.shuffle_layout:
        cells = [c for c in range(len(grid)) if grid[c] >= 0]
        locs = [grid[c] for c in cells]
        perm = rng.permutation(len(locs))
        for c, i in zip(cells, perm):
            s.grid[c] = locs[int(i)]
    s.cell_of = [0] * 12
    for c, loc in enumerate(s.grid):
        if loc >= 0:
            s.cell_of[loc] = c
    corridor_cells = [c for c in range(len(s.grid)) if 0 <= s.grid[c] < 6]
    if rules.start == "same_corridor":
        start_loc = s.grid[start] if not rules.shuffle_layout else s.grid[corridor_cells[-1]]
        s.where = [start_loc] * s.n
    else:  # own Corridor: seat i in the i-th Corridor, bottom row first, left to right
        order = sorted(corridor_cells, key=lambda c: (-(c // cols), c % cols))
        s.where = [s.grid[order[i]] for i in range(s.n)]
    directors = director_cards()
    s.deck = rng.permutation(directors).tolist()
    s.hands = [[] for _ in range(s.n)]
    for _ in range(rules.hand_size):
        for p in range(s.n):
            s.hands[p].append(s.deck.pop())
    s.reserve = nightmare_cards()
    s.log = [] if record else None
    s.turns = -1
    s.current_player = 0
    if rules.nightmares == "after_deal":
        _shuffle_in_nightmares(s, rng)
    s.discard, s.limbo = [], []
    s.traps = [[] for _ in range(s.n)]
    s.n_traps = 0
    s.turn_player, s.controller, s.current_player = 0, -1, 0
    s.actions_left = 0
    s.debt, s.owed = [0] * s.n, [0] * s.n
    s.horror, s.red, s.blue, s.multi, s.slow = -1, 0, 0, 0, 0
    s.winner, s.woke, s.horror_won = None, -1, False
    s.is_terminal = s.timed_out = False
    s.turns = -1  # F_NEXT counts the turn that ends; the first F_NEXT starts turn 0
    s.decisions = 0
    s.stats = {k: [0] * s.n for k in STAT_NAMES}
    s.legal = None
    s.log is None or _event(s, "deal", hands=[h[:] for h in s.hands], where=s.where[:], grid=s.grid[:], rot=s.rot[:],
                            deck=_names(s.deck), reserve=_names(s.reserve))
    s.stack = [[F_NEXT]]
    _advance(s, rng)
    return s


def _shuffle_in_nightmares(s: State, rng) -> None:
    deck = s.deck + s.reserve
    s.deck = rng.permutation(deck).tolist()
    s.reserve = []
    s.log is None or _event(s, "nightmares_in", deck=len(s.deck), order=_names(s.deck))


def _names(cards) -> list:
    """Card kinds as names, for the log (a deck: the top card last)."""
    return [KIND_NAMES[k] for k in cards]


def _event(s: State, what: str, **data) -> None:
    if s.log is not None:
        data.update(event=what, turn=s.turns, player=s.current_player)
        s.log.append(data)


# -------------------------------------------------------------------------------------------
# Small helpers
# -------------------------------------------------------------------------------------------
def _dec(s: State, p: int) -> int:
    """Who decides for seat p's hand/avatar: the Dreamcatcher trap's owner during a captured turn."""
    return s.controller if (p == s.turn_player and s.controller >= 0) else p


def _affected(mask: int, s: State, p: int) -> bool:
    return p != s.horror and (mask >> p) & 1 == 1


def has_nightmare(hand) -> bool:
    for k in hand:
        if k >= RED:
            return True
    return False


def hand_limit(s: State, p: int) -> int:
    """The hand size seat p draws up to (and keeps at a surplus): Rules.hand_size, plus, for
    the Midnight Horror, the nightmares that do not count toward it (Rules.horror_hand_limit):
    with every card counting, a Horror holding the Black and four other nightmares has no
    card to play, never draws, and freezes everyone in its location for good (issue 13)."""
    size = s.rules.hand_size
    if p != s.horror:
        return size
    mode = s.rules.horror_hand_limit
    if mode == "nightmares_free":
        return size + sum(1 for k in s.hands[p] if k >= RED)
    return size + 1 if mode == "black_free" else size


def _takeable(hand) -> list:
    """Cards that may leave a hand (the Black Nightmare never does)."""
    return [k for k in hand if k != BLACK]


def _to_discard(s: State, kind: int) -> None:
    s.discard.append(kind)
    if kind >= RED and s.rules.effect_ends_with_card:
        if kind == RED:
            s.red = 0
        elif kind == BLUE:
            s.blue = 0
        elif kind == MULTI:
            s.multi = 0
        elif kind == COLOURLESS:
            s.slow = 0


def _neutralise(s: State) -> None:
    """Town Hall: neutralise the effects of all nightmares except the Black one."""
    s.red = s.blue = s.multi = s.slow = 0
    s.log is None or _event(s, "neutralised")


def _win(s: State, seat: int, horror: bool) -> None:
    s.winner = seat
    s.is_terminal = True
    if horror:
        s.horror_won = True
        s.log is None or _event(s, "horror_wins", winner=seat)
    else:
        s.woke = seat
        s.log is None or _event(s, "wake", winner=seat)


def _draw_card(s: State, rng) -> int:
    """The top card of the deck; an empty deck is refilled from the shuffled discard pile
    (Rules.deck_exhaustion). -1 when nothing can be drawn."""
    if not s.deck:
        if s.rules.deck_exhaustion == "stop" or not s.discard:
            return -1
        pile = s.discard
        s.deck = rng.permutation(pile).tolist()
        s.discard = []
        s.log is None or _event(s, "reshuffle", cards=len(s.deck), order=_names(s.deck))
    return s.deck.pop()


_ORDERS = {n: tuple(tuple((first + i) % n for i in range(n)) for first in range(n)) for n in range(1, 7)}


def seats_from(s: State, first: int) -> tuple[int, ...]:
    """Seats in turn order (clockwise) starting with `first`."""
    return _ORDERS[s.n][first % s.n]


# -------------------------------------------------------------------------------------------
# Turn actions
# -------------------------------------------------------------------------------------------
_SU_OPTS = tuple(tuple(SET_TRAP[k + 1] for k in range(5, 11) if (bits >> (k - 5)) & 1) for bits in range(64))
_DISCARD_OPTS = tuple(tuple(DISCARD[k] for k in range(11) if (bits >> k) & 1) for bits in range(2048))
_REDUCE_OPTS = {n: tuple(tuple(DUTCH_REDUCE[t] for t in range(n) if t != p) for p in range(n)) for n in range(1, 7)}
_OTHERS = {n: tuple(tuple(t for t in range(n) if t != p) for p in range(n)) for n in range(1, 7)}
#: who may answer p's play: the others, clockwise from the one after p
_ASK = {n: tuple(tuple((p + i) % n for i in range(1, n)) for p in range(n)) for n in range(1, 7)}
#: (hand mask, may set a trap, may play a Dutch Angle, may discard, seat, players) -> the turn actions
#: that depend on nothing else: Suspense traps, Dutch Angles, discards (in the legal-list order)
_HAND_OPTS: dict = {}


def _moves_from(s: State, loc: int) -> tuple:
    """(Dreamwalk actions, Vertigo actions) from `loc` on the current board; cached in s.geo
    until the board changes (Vertigo, a Vertigo trap)."""
    nb, grid, rot = s.nb[s.cell_of[loc]], s.grid, s.rot
    ret = s.rules.dreamwalk_return_arrow
    walks = []
    for d in ARROWS[loc][rot[loc]]:  # along the arrows of your location
        c2 = nb[d]
        if c2 >= 0:
            t = grid[c2]
            if t >= 0 and (not ret or (d + 2) % 4 in ARROWS[t][rot[t]]):
                walks.append(WALK[d])
    vertigos = [VERTIGO[loc]]  # your location or an adjacent one
    for c2 in nb:
        if c2 >= 0 and grid[c2] >= 0:
            vertigos.append(VERTIGO[grid[c2]])
    g = s.geo[loc] = (tuple(walks), tuple(vertigos))
    return g


def _hand_opts(m: int, trap_ok: bool, dutch_ok: bool, discard_ok: bool, p: int, n: int) -> tuple:
    """The turn actions that depend on the hand and nothing else, in the legal-list order."""
    out = []
    if trap_ok and m & 0x7E0 and m & 31:  # a Suspense card and a partner for it
        out.extend(_SU_OPTS[(m >> 5) & 63])
    if dutch_ok and m & 8:
        out.append(DUTCH_EXTRA)
        out.extend(_REDUCE_OPTS[n][p])
    if discard_ok:
        out.extend(_DISCARD_OPTS[m & 0x7FF])
    return tuple(out)


def _turn_legal(s: State, f: list) -> list:
    al = s.actions_left
    if al <= 0:
        return []
    p = s.turn_player
    f[1] = s.controller if s.controller >= 0 else p
    rules = s.rules
    m = 0  # the kinds in the hand, as bits
    for k in s.hands[p]:
        m |= 1 << k
    loc = s.where[p]
    if m & 3:
        walks, vertigos = s.geo[loc] or _moves_from(s, loc)
        if not m & 1:  # no Dreamwalk
            walks = ()
        if not m & 2:  # no Vertigo
            vertigos = ()
    else:
        walks = vertigos = ()
    star = (STAR,) if m & 4 and _can_activate(s, p, loc) else ()
    key = (m & 0x7FF, al >= rules.trap_actions and not (p != s.horror and (s.red >> p) & 1),
           al >= rules.dutch_angle_actions, rules.discard_action, p, s.n)
    opts = _HAND_OPTS.get(key)  # Suspense traps, Dutch Angles, discards
    if opts is None:
        opts = _HAND_OPTS[key] = _hand_opts(*key)
    if m & 16 and al >= rules.steal_actions:  # Dreamcatcher: anyone with a card that may leave the hand
        steals = []
        hands = s.hands
        for t in _OTHERS[s.n][p]:
            h = hands[t]
            if h and (len(h) > 1 or h[0] != BLACK):
                steals.append(STEAL[t])
    else:
        steals = ()
    return [*walks, *vertigos, *star, *opts, *steals, PASS]


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


def _play_card(s: State, p: int, kind: int) -> None:
    s.hands[p].remove(kind)
    s.limbo.append(kind)
    s.log is None or _event(s, "card_played", seat=p, card=KIND_NAMES[kind])
    s.owed[p] += 1
    stat = _PLAYED_STAT.get(kind)
    if stat:
        s.stats[stat][p] += 1


def _turn_apply(s: State, f: list, a, rng) -> None:
    t = type(a)
    p = s.turn_player
    if t is Pass:
        s.actions_left = 0
        s.log is None or _event(s, "pass")
        _turn_finish(s, f, rng)
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
        s.stack.append([F_VOP, f[1], p, a.location])
    elif t is Star:
        s.actions_left -= 1
        _play_card(s, p, STAR_CARD)
        _start_play(s, p, [STAR_CARD], P_STAR, s.where[p], 0, rng)
    elif t is SetTrap:
        s.actions_left -= s.rules.trap_actions
        _play_card(s, p, SUSPENSE_OF[a.location])
        s.stack.append([F_PARTNER, f[1], p, a.location])
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


def _start_play(s: State, p: int, cards: list, ptype: int, a1, a2, rng, reactable: bool = True) -> None:
    """A card play: the reaction window if anyone can answer it, then the resolution and the
    play's end (refill, trap window). With nobody to answer, it resolves at once."""
    s.log is None or _event(s, "play", actor=p, play=PLAY_NAMES[ptype], arg=a1, arg2=a2)
    stack = s.stack
    done = [F_PLAYDONE, p]
    stack.append(done)
    res = [F_RESOLVE, p, ptype, a1, a2, cards, 0]
    if reactable:
        hands, c = s.hands, s.controller
        ask = _ASK[s.n][p]
        if c >= 0:
            ask = tuple(q for q in ask if q != c)
        for q in ask:
            h = hands[q]
            if DUTCH in h or CATCHER in h:
                stack.append(res)
                stack.append([F_REACT, -1, [], ask, 0, res])
                return
    _resolve(s, res, rng)
    if stack[-1] is done:  # the resolution asked for nothing more
        stack.pop()
        _play_done(s, p, rng)


def _vop_legal(s: State, f: list) -> list:
    loc = f[3]
    nb = s.nb[s.cell_of[loc]]
    out = [VOP[d] for d in range(4) if nb[d] >= 0]
    if s.rules.vertigo_rotation == "any":
        out += (VOP[4], VOP[5], VOP[6])
    else:
        out += (VOP[4], VOP[6])
    return out


def _vop_apply(s: State, f: list, a, rng) -> None:
    s.stack.pop()
    _start_play(s, f[2], [VERTIGO_CARD], P_VERT, f[3], a.op, rng)


def _partner_legal(s: State, f: list) -> list:
    hand = s.hands[f[2]]
    return [PARTNER[k] for k in (DREAMWALK, VERTIGO_CARD, STAR_CARD, DUTCH, CATCHER) if k in hand]


def _partner_apply(s: State, f: list, a, rng) -> None:
    s.stack.pop()
    p = f[2]
    s.hands[p].remove(a.kind)
    s.limbo.append(a.kind)
    s.log is None or _event(s, "card_played", seat=p, card=KIND_NAMES[a.kind])
    s.owed[p] += 1
    _start_play(s, p, [SUSPENSE_OF[f[3]], a.kind], P_TRAP, f[3], a.kind, rng, s.rules.cancel_trap_setting)


def _turn_finish(s: State, f: list, rng) -> None:
    """End of turn: the avatar tops up its hand, then the next turn starts."""
    stack = s.stack
    stack.pop()
    p = s.turn_player
    top = len(stack)
    if len(s.hands[p]) >= hand_limit(s, p):  # nothing to draw
        s.owed[p] = 0
        _begin_turn(s, rng)
    elif _refill(s, p, rng):
        _begin_turn(s, rng)
    else:  # a nightmare drawn opened a decision: the refill and the next turn wait under it
        stack[top:top] = [[F_NEXT], [F_REFILL, p]]


def _next_run(s: State, f: list, rng) -> None:
    s.stack.pop()
    _begin_turn(s, rng)


def _begin_turn(s: State, rng) -> None:
    """Start the next turn: turn cap, nightmares entering, actions, sleep paralysis, traps."""
    rules = s.rules
    while True:
        if s.turns >= 0:
            s.turn_player = (s.turn_player + 1) % s.n
        s.turns += 1
        if s.turns >= rules.max_turns:
            s.is_terminal = s.timed_out = True
            s.log is None or _event(s, "timeout")
            return
        if s.reserve and s.turns == s.n and rules.nightmares == "after_first_round":
            _shuffle_in_nightmares(s, rng)
        p = s.turn_player
        s.controller = -1
        s.current_player = p
        base = rules.actions_per_turn
        if p != s.horror and ((s.multi | s.slow) >> p) & 1:  # a speed effect on this seat
            base = rules.multicolour_actions if (s.multi >> p) & 1 else rules.colourless_actions
        d = s.debt[p]
        if d:
            s.actions_left = base - d if d < base else 0
            s.debt[p] = (d - base if d > base else 0) if rules.debt_carries_over else 0
        else:
            s.actions_left = base
        if s.horror >= 0 and p != s.horror and s.where[p] == s.where[s.horror]:
            s.stats["turns_skipped"][p] += 1  # sleep paralysis: the turn is skipped
            s.actions_left = 0
            s.log is None or _event(s, "paralysed", seat=p)
            continue
        break
    s.log is None or _event(s, "turn", seat=p, actions=s.actions_left)
    s.stack.append([F_TURN, p])
    if s.n_traps:
        s.stack.append([F_TRAPS, -1, None, 0, True])  # who is asked: built when the window opens


# -------------------------------------------------------------------------------------------
# Reactions: Dutch Angle cancels, Dreamcatcher intercepts, and answers to them
# -------------------------------------------------------------------------------------------
def _react_legal(s: State, f: list) -> list:
    chain, ask, hands = f[2], f[3], s.hands
    if chain:
        top_kind = chain[-1][1]
        act = CANCEL if top_kind == DUTCH else INTERCEPT
        # a Dreamcatcher intercepts "не в свой ход" (not on your turn): the turn player may not
        # answer an interception with one (Rules.intercept_own_turn); a Dutch Angle may answer
        barred = -1 if act is CANCEL or s.rules.intercept_own_turn else s.turn_player
        while f[4] < len(ask):
            q = ask[f[4]]
            if top_kind in hands[q] and q != barred:
                f[1] = q
                return [act, ALLOW]
            f[4] += 1
        return []
    while f[4] < len(ask):
        q = ask[f[4]]
        h = hands[q]
        da, dc = DUTCH in h, CATCHER in h
        if da or dc:
            f[1] = q
            if da and dc:
                return [CANCEL, INTERCEPT, ALLOW]
            return [CANCEL, ALLOW] if da else [INTERCEPT, ALLOW]
        f[4] += 1
    return []


def _react_apply(s: State, f: list, a, rng) -> None:
    if type(a) is Allow:
        f[4] += 1
        return
    q = f[1]
    kind = DUTCH if type(a) is Cancel else CATCHER
    _play_card(s, q, kind)
    if kind == DUTCH:
        s.debt[q] += s.rules.cancel_debt
        s.stats["cancels"][q] += 1
    else:
        s.debt[q] += 1
        s.stats["intercepts"][q] += 1
    target = f[2][-1][0] if f[2] else f[5][1]
    s.log is None or _event(s, "cancel" if kind == DUTCH else "intercept", seat=q, against=target)
    f[2].append((q, kind))
    f[3] = _ASK[s.n][q]
    f[4] = 0


def _react_finish(s: State, f: list, rng) -> None:
    """Resolve the chain from its top: an answer that is not itself neutralised neutralises
    what it answers — a Dutch Angle cancels it (its cards are discarded), a Dreamcatcher
    intercepts it (takes its card into hand)."""
    s.stack.pop()
    chain, play = f[2], f[5]
    if not chain:
        return
    m = len(chain)
    neutral = [False] * (m + 1)
    takes = {}
    hand_mode = s.rules.intercept_takes == "hand"
    for i in range(m, 0, -1):
        if neutral[i]:
            continue
        seat, kind = chain[i - 1]
        if kind == CATCHER:
            if i == 1 and hand_mode:
                takes[0] = seat  # takes a card from the hand; the play itself goes ahead
                continue
            takes[i - 1] = seat
        neutral[i - 1] = True
    limbo, hands = s.limbo, s.hands
    takers = []
    for i in range(1, m + 1):
        seat, kind = chain[i - 1]
        limbo.remove(kind)
        if i in takes:
            hands[takes[i]].append(kind)
            takers.append(takes[i])
        else:
            _to_discard(s, kind)
        s.log is None or _event(s, "cards_settled", cards=[KIND_NAMES[kind]], to=takes.get(i, -1))
    if neutral[0]:
        cards = play[5]
        for c in cards:
            limbo.remove(c)
        if 0 in takes:
            play[6] = 2
            hands[takes[0]].append(cards[-1])  # the played card; of a trap, the partner card
            for c in cards[:-1]:
                _to_discard(s, c)
            takers.append(takes[0])
            if s.log is not None:
                cards[:-1] and _event(s, "cards_settled", cards=_names(cards[:-1]), to=-1)
                _event(s, "cards_settled", cards=[KIND_NAMES[cards[-1]]], to=takes[0])
            s.log is None or _event(s, "intercepted", seat=takes[0], victim=play[1], card=KIND_NAMES[cards[-1]])
        else:
            play[6] = 1
            for c in cards:
                _to_discard(s, c)
            s.log is None or _event(s, "cards_settled", cards=_names(cards), to=-1)
            s.log is None or _event(s, "cancelled", victim=play[1])
    elif 0 in takes:
        victim, seat = play[1], takes[0]
        pool = _takeable(hands[victim])
        if pool:
            card = pool[int(rng.random() * len(pool))]
            hands[victim].remove(card)
            hands[seat].append(card)
            takers.append(seat)
            s.log is None or _event(s, "intercepted_hand_card", seat=seat, victim=victim, card=KIND_NAMES[card])
    for seat in dict.fromkeys(takers):
        s.stack.append([F_SURPLUS, _dec(s, seat), seat, S_PLAIN, -1])


# -------------------------------------------------------------------------------------------
# Resolving a play
# -------------------------------------------------------------------------------------------
def _move_location(s: State, loc: int, d: int) -> None:
    """Vertigo move: the location swaps cells with its neighbour in direction d (a location
    or an empty cell); Midnighters and traps travel with their location."""
    c1 = s.cell_of[loc]
    c2 = s.nb[c1][d]
    other = s.grid[c2]
    s.grid[c1], s.grid[c2] = other, loc
    s.cell_of[loc] = c2
    if other >= 0:
        s.cell_of[other] = c1
    _forget_moves(s, (c1, c2))


def _forget_moves(s: State, cells) -> None:
    """The cached moves (s.geo) from the locations in and next to `cells` are stale."""
    geo, grid, nb = s.geo, s.grid, s.nb
    for c in cells:
        loc = grid[c]
        if loc >= 0:
            geo[loc] = None
        for c2 in nb[c]:
            if c2 >= 0 and grid[c2] >= 0:
                geo[grid[c2]] = None


def _apply_vop(s: State, loc: int, op: int) -> None:
    if op < 4:
        if s.nb[s.cell_of[loc]][op] >= 0:
            _move_location(s, loc, op)
    elif op < 7:
        s.rot[loc] = (s.rot[loc] + op - 3) % 4
        if s.rules.dreamwalk_return_arrow:  # walks into it need its arrows too
            _forget_moves(s, (s.cell_of[loc],))
        else:
            s.geo[loc] = None


def _resolve_run(s: State, f: list, rng) -> None:
    s.stack.pop()
    _resolve(s, f, rng)


def _resolve(s: State, f: list, rng) -> None:
    """What a card play does (unless it was cancelled or intercepted)."""
    if f[6]:
        return  # cancelled or intercepted: its cards are already gone
    p, ptype, a1, a2, cards = f[1], f[2], f[3], f[4], f[5]
    limbo = s.limbo
    for c in cards:
        limbo.remove(c)
    if ptype == P_TRAP:
        s.traps[p].append((a1, a2))
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
        act = [F_ACT, a1, p, False]
        s.stack.append(act)
        if a1 != TOWN_HALL:
            ask = [q for q in seats_from(s, p + 1) if q != p and (a1, STAR_CARD) in s.traps[q]]
            if ask:
                s.stack.append([F_STARTRAP, -1, a1, p, ask, 0, act])
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
            card = pool[int(rng.random() * len(pool))]
            s.hands[a1].remove(card)
            s.hands[p].append(card)
            s.log is None or _event(s, "steal", seat=p, victim=a1, card=KIND_NAMES[card])
            s.stack.append([F_SURPLUS, _dec(s, p), p, S_PLAIN, -1])


def _playdone_run(s: State, f: list, rng) -> None:
    s.stack.pop()
    _play_done(s, f[1], rng)


def _play_done(s: State, p: int, rng) -> None:
    """After p's play: the players who played cards draw back up to the hand size (from p,
    clockwise), then trap owners may act."""
    stack = s.stack
    if s.n_traps:
        # the owners are listed when the window opens, after the refill below: a Purple Nightmare
        # drawn in the refill moves traps to new owners, and they are asked too (issue 13, item 2)
        stack.append([F_TRAPS, -1, None, 0, False])
    if s.rules.refill == "after_play":
        owed = s.owed
        if sum(owed) == owed[p]:  # the usual case: only p played cards
            if owed[p]:
                top = len(stack)
                if not _refill(s, p, rng):  # a nightmare opened a decision: the refill waits under it
                    stack.insert(top, [F_REFILL, p])
            return
        order = _ORDERS[s.n][p]
        i = 0
        for q in order:
            if owed[q]:
                top = len(stack)
                if not _refill(s, q, rng):
                    # a nightmare opened a decision: the rest of the refill waits under it
                    stack[top:top] = [[F_REFILL, r] for r in reversed(order[i:]) if owed[r]]
                    return
            i += 1


def _refill_run(s: State, f: list, rng) -> None:
    if _refill(s, f[1], rng):
        s.stack.pop()  # else a decision was pushed above this frame; the refill resumes after it


def _refill(s: State, p: int, rng) -> bool:
    """Draw up to the hand size; a nightmare takes effect the moment it is drawn. False when
    a nightmare pushed a decision (the refill is not finished)."""
    hand = s.hands[p]
    size = hand_limit(s, p)
    deck = s.deck
    while len(hand) < size:
        if deck:
            c = deck.pop()
        else:
            c = _draw_card(s, rng)
            if c < 0:
                break
            deck = s.deck
        hand.append(c)
        s.log is None or _event(s, "draw", seat=p, card=KIND_NAMES[c])
        if c >= RED:
            s.stats["nightmares_drawn"][p] += 1
            if _nightmare_drawn(s, p, c, rng):
                return False
            hand = s.hands[p]  # the Purple Nightmare hands p someone else's hand
    s.owed[p] = 0
    return True


# -------------------------------------------------------------------------------------------
# Activations (Midnight Star)
# -------------------------------------------------------------------------------------------
def _startrap_legal(s: State, f: list) -> list:
    ask, loc = f[4], f[2]
    needs = s.rules.star_trap_needs_eligibility
    while f[5] < len(ask):
        q = ask[f[5]]
        if (loc, STAR_CARD) in s.traps[q] and not _affected(s.red, s, q) and (
                not needs or _benefits(s, q, loc)):
            f[1] = q
            return [SPRING[loc][STAR_CARD], HOLD]
        f[5] += 1
    return []


def _benefits(s: State, q: int, loc: int) -> bool:
    if loc == BRIDGE:
        return q != s.horror and not has_nightmare(s.hands[q])
    return True


def _startrap_apply(s: State, f: list, a, rng) -> None:
    if type(a) is Hold:
        f[5] += 1
        return
    q = f[1]
    _consume_trap(s, q, f[2], STAR_CARD)
    f[6][2] = q
    s.stack.pop()
    s.log is None or _event(s, "star_trap", seat=q, location=f[2], victim=f[3])


def _act_run(s: State, f: list, rng) -> None:
    s.stack.pop()
    loc, b, remote = f[1], f[2], f[3]
    dec = _dec(s, b)
    s.log is None or _event(s, "activate", seat=b, location=loc)
    stack = s.stack
    if loc == FOREST:
        stack.append([F_FOREST, dec, b])
    elif loc == SQUARE:
        stack.append([F_SURPLUS, dec, b, S_ANY, -1])
        stack.append([F_SQUARE, dec, b, 0])
    elif loc == MOTEL:
        stack.append([F_MOTEL_T, dec, b])
    elif loc == RESTAURANT:
        stack.append([F_REST, dec, b])
    elif loc == TOWN_HALL:
        if b == s.horror:
            if not remote or s.rules.horror_remote_town_hall_wins:
                _win(s, b, horror=True)
                return
        _neutralise(s)
        if s.rules.town_hall_discards == "all":
            hand = s.hands[b]
            for k in [k for k in hand if k >= RED and k != BLACK]:
                hand.remove(k)
                _to_discard(s, k)
                s.log is None or _event(s, "th_discard", seat=b, card=KIND_NAMES[k])
        elif any(k >= RED and k != BLACK for k in s.hands[b]):
            stack.append([F_TH, dec, b])
    elif loc == BRIDGE:
        if b != s.horror and not has_nightmare(s.hands[b]):
            _win(s, b, horror=False)
        else:
            s.log is None or _event(s, "no_wake", seat=b)


def _forest_legal(s: State, f: list) -> list:
    here = s.where[f[2]]
    return [TO[l] for l in range(12) if l != here]


def _forest_apply(s: State, f: list, a, rng) -> None:
    s.stack.pop()
    s.where[f[2]] = a.location
    s.log is None or _event(s, "teleport", seat=f[2], to=a.location)


def _distinct(cards) -> list:
    seen = 0
    out = []
    for k in cards:
        if not (seen >> k) & 1:
            seen |= 1 << k
            out.append(k)
    return out


def _square_legal(s: State, f: list) -> list:
    if f[3] >= 3 or not s.discard:
        return []
    return [TAKE[k] for k in sorted(_distinct(s.discard))] + [STOP]


def _square_apply(s: State, f: list, a, rng) -> None:
    if type(a) is StopTaking:
        s.stack.pop()
        return
    s.discard.remove(a.kind)
    s.hands[f[2]].append(a.kind)
    f[3] += 1
    s.log is None or _event(s, "square_take", seat=f[2], card=KIND_NAMES[a.kind])


def _motel_t_legal(s: State, f: list) -> list:
    b = f[2]
    return [TARGET[t] for t in range(s.n) if t != b and t != s.horror]


def _motel_t_apply(s: State, f: list, a, rng) -> None:
    s.stack.pop()
    s.log is None or _event(s, "motel_look", seat=f[2], target=a.seat, hand=s.hands[a.seat][:])
    s.stack.append([F_SURPLUS, f[1], f[2], S_GIVE, a.seat])
    s.stack.append([F_MOTEL_TAKE, f[1], f[2], a.seat, 0])


def _motel_take_legal(s: State, f: list) -> list:
    if f[4] >= 3:
        return []
    pool = _takeable(s.hands[f[3]])
    if not pool:
        return []
    return [TAKE[k] for k in sorted(_distinct(pool))] + [STOP]


def _motel_take_apply(s: State, f: list, a, rng) -> None:
    if type(a) is StopTaking:
        s.stack.pop()
        return
    s.hands[f[3]].remove(a.kind)
    s.hands[f[2]].append(a.kind)
    f[4] += 1
    s.log is None or _event(s, "motel_take", seat=f[2], target=f[3], card=KIND_NAMES[a.kind])


def near_bridge(s: State, horror: bool = False) -> list[int]:
    """Midnighters on the Bridge or in a location next to it (the Horror only if `horror`)."""
    b = BRIDGE
    zone = {b, *adjacent_locations(s.grid, s.cell_of, s.nb, b)}
    return [q for q in range(s.n) if (horror or q != s.horror) and s.where[q] in zone]


def _rest_legal(s: State, f: list) -> list:
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


def _rest_apply(s: State, f: list, a, rng) -> None:
    s.stack.pop()
    if type(a) is Mix:
        elig = near_bridge(s)
        pool, counts = [], []
        for q in elig:
            counts.append(len(s.hands[q]))
            pool += s.hands[q]
        perm = rng.permutation(len(pool))
        pool = [pool[int(i)] for i in perm]
        i = 0
        for q, c in zip(elig, counts):
            s.hands[q] = pool[i:i + c]
            i += c
        s.log is None or _event(s, "mix", seat=f[2], seats=elig, hands=[_names(s.hands[q]) for q in elig])
    else:
        s.stack.append([F_REST_N, f[1], f[2], a.seat])


def _rest_n_legal(s: State, f: list) -> list:
    k = min(3, len(_takeable(s.hands[f[3]])))
    return [COUNT[i] for i in range(1, k + 1)]


def _rest_n_apply(s: State, f: list, a, rng) -> None:
    s.stack.pop()
    hand = s.hands[f[3]]
    gone = []
    for _ in range(a.n):
        pool = [i for i, k in enumerate(hand) if k != BLACK]
        if not pool:
            break
        card = hand.pop(pool[int(rng.random() * len(pool))])
        _to_discard(s, card)
        gone.append(KIND_NAMES[card])
    s.log is None or _event(s, "restaurant_discard", seat=f[2], target=f[3], cards=gone)


def _th_legal(s: State, f: list) -> list:
    return [DISCARD[k] for k in _distinct(k for k in s.hands[f[2]] if k >= RED and k != BLACK)]


def _th_apply(s: State, f: list, a, rng) -> None:
    s.stack.pop()
    s.hands[f[2]].remove(a.kind)
    _to_discard(s, a.kind)
    s.log is None or _event(s, "th_discard", seat=f[2], card=KIND_NAMES[a.kind])


def _surplus_legal(s: State, f: list) -> list:
    p, mode = f[2], f[3]
    hand = s.hands[p]
    if len(hand) <= hand_limit(s, p) - s.owed[p]:
        return []
    kinds = _distinct(hand)
    if mode == S_ANY:
        return [DISCARD[k] for k in kinds if k != BLACK]
    if mode == S_GIVE:
        return [GIVE[k] for k in kinds if k != BLACK] + [DISCARD[k] for k in kinds if k < RED]
    return [DISCARD[k] for k in kinds if k < RED]


def _surplus_apply(s: State, f: list, a, rng) -> None:
    hand = s.hands[f[2]]
    hand.remove(a.kind)
    if type(a) is Give:
        s.hands[f[4]].append(a.kind)
        s.log is None or _event(s, "give", seat=f[2], target=f[4], card=KIND_NAMES[a.kind])
    else:
        _to_discard(s, a.kind)
        s.log is None or _event(s, "surplus_discard", seat=f[2], card=KIND_NAMES[a.kind])


# -------------------------------------------------------------------------------------------
# Traps
# -------------------------------------------------------------------------------------------
def _consume_trap(s: State, q: int, loc: int, kind: int) -> None:
    s.traps[q].remove((loc, kind))
    if kind != STAR_CARD:
        s.n_traps -= 1
    _to_discard(s, SUSPENSE_OF[loc])
    _to_discard(s, kind)
    s.stats["traps_sprung"][q] += 1


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


def _trap_owners(s: State, first: int) -> list:
    """Seats with prepared traps, clockwise from `first` (who a trap window asks)."""
    traps = s.traps
    out = []
    for q in _ORDERS[s.n][first]:
        if traps[q]:
            out.append(q)
    return out


def _traps_legal(s: State, f: list) -> list:
    ask = f[2]
    if ask is None:
        ask = f[2] = _trap_owners(s, s.turn_player)
    while f[3] < len(ask):
        q = ask[f[3]]
        if s.traps[q]:
            opts = _springable(s, q, f[4])
            if opts:
                f[1] = q
                opts.append(HOLD)
                return opts
        f[3] += 1
    return []


def _traps_apply(s: State, f: list, a, rng) -> None:
    if type(a) is Hold:
        f[3] += 1
        return
    q, loc, kind = f[1], a.location, a.kind
    _consume_trap(s, q, loc, kind)
    s.log is None or _event(s, "spring", seat=q, location=loc, kind=KIND_NAMES[kind])
    if kind == DREAMWALK:
        s.stack.append([F_WTRAP_T, q, loc])
    elif kind == VERTIGO_CARD:
        s.stack.append([F_VTRAP, q, loc, 0])
    elif kind == DUTCH:
        s.stack.append([F_DTRAP, q, loc])
    elif kind == CATCHER:
        s.controller = q
        s.log is None or _event(s, "captured", seat=q, victim=s.turn_player)


def _wtrap_t_legal(s: State, f: list) -> list:
    q, loc = f[1], f[2]
    out = [TARGET[t] for t in range(s.n) if s.where[t] == loc]
    if TARGET[q] not in out and (s.rules.dreamwalk_trap_self == "corridor" or s.where[q] != loc):
        out.append(TARGET[q])
    return out


def _wtrap_t_apply(s: State, f: list, a, rng) -> None:
    s.stack.pop()
    s.stack.append([F_WTRAP_TO, f[1], a.seat, f[2]])


def _wtrap_to_legal(s: State, f: list) -> list:
    q, t, loc = f[1], f[2], f[3]
    if t == q and s.rules.dreamwalk_trap_self == "trap_location" and s.where[q] != loc:
        return [TO[loc]]
    return [TO[c] for c in CORRIDORS if c != s.where[t]] or [TO[s.where[t]]]


def _wtrap_to_apply(s: State, f: list, a, rng) -> None:
    s.stack.pop()
    s.where[f[2]] = a.location
    s.log is None or _event(s, "trap_move", seat=f[1], target=f[2], to=a.location)


def _vtrap_legal(s: State, f: list) -> list:
    loc = f[2]
    # "переместить локацию ловушки и повернуть её": move and rotate; leaving either out only
    # with Rules.vertigo_trap_optional (or when the location has no cell to move to)
    optional = s.rules.vertigo_trap_optional
    if f[3] == 0:
        nb = s.nb[s.cell_of[loc]]
        moves = [VOP[d] for d in range(4) if nb[d] >= 0]
        return moves + [VOP[NO_MOVE]] if optional or not moves else moves
    turns = [VOP[4], VOP[5], VOP[6]] if s.rules.vertigo_rotation == "any" else [VOP[4], VOP[6]]
    return turns + [VOP[NO_TURN]] if optional else turns


def _vtrap_apply(s: State, f: list, a, rng) -> None:
    _apply_vop(s, f[2], a.op)
    s.log is None or _event(s, "trap_vertigo", seat=f[1], location=f[2], op=a.op)
    if f[3] == 0:
        f[3] = 1
    else:
        s.stack.pop()


def _dtrap_legal(s: State, f: list) -> list:
    q, loc = f[1], f[2]
    return [TARGET[t] for t in range(s.n) if t != q and s.where[t] == loc]


def _dtrap_apply(s: State, f: list, a, rng) -> None:
    s.stack.pop()
    q, t = f[1], a.seat
    s.where[q], s.where[t] = s.where[t], s.where[q]
    s.log is None or _event(s, "trap_swap", seat=q, target=t)


# -------------------------------------------------------------------------------------------
# Nightmares
# -------------------------------------------------------------------------------------------
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
    key = (TOWN_HALL, STAR_CARD)
    ask = [q for q in seats_from(s, p) if key in s.traps[q]]
    if ask:
        s.stack.append([F_NIGHT, -1, p, kind, ask, 0, affected])
        return True
    return _apply_nightmare(s, p, kind, affected, rng)


def _night_legal(s: State, f: list) -> list:
    ask = f[4]
    key = (TOWN_HALL, STAR_CARD)
    while f[5] < len(ask):
        q = ask[f[5]]
        if key in s.traps[q]:
            f[1] = q
            return [SPRING[TOWN_HALL][STAR_CARD], HOLD]
        f[5] += 1
    return []


def _night_apply(s: State, f: list, a, rng) -> None:
    if type(a) is Hold:
        f[5] += 1
        return
    q, p, kind = f[1], f[2], f[3]
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


def _night_finish(s: State, f: list, rng) -> None:
    s.stack.pop()
    _apply_nightmare(s, f[2], f[3], f[6], rng)


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
                    s.where[q] = CORRIDORS[int(rng.random() * 6)]
                    s.log is None or _event(s, "placed", seat=q, to=s.where[q], by=-1)
            else:
                s.stack.append([F_PLACE, placer, victims])
                s.log is None or _event(s, "nightmare_effect", seat=p, card=KIND_NAMES[kind], seats=victims[:])
                return True
    s.log is None or _event(s, "nightmare_effect", seat=p, card=KIND_NAMES[kind],
                            seats=[q for q in range(s.n) if (affected >> q) & 1])
    return False


def _speed(s: State, kind: int, affected: int) -> None:
    """Multicoloured / Colourless on the `affected` seats: each seat keeps its own speed effect
    (issue 13). The new effect replaces the other one on the seats it reaches; a seat it does
    not reach (in the Town Hall) keeps what it had, unless Rules.speed_cancel_shielded."""
    if kind == MULTI:
        s.multi |= affected
        s.slow = 0 if s.rules.speed_cancel_shielded else s.slow & ~affected
    else:
        s.slow |= affected
        s.multi = 0 if s.rules.speed_cancel_shielded else s.multi & ~affected


def _place_legal(s: State, f: list) -> list:
    return [TO[c] for c in CORRIDORS]


def _place_apply(s: State, f: list, a, rng) -> None:
    q = f[2].pop(0)
    s.where[q] = a.location
    s.log is None or _event(s, "placed", seat=q, to=a.location, by=f[1])
    if not f[2]:
        s.stack.pop()


# -------------------------------------------------------------------------------------------
# Dispatch
# -------------------------------------------------------------------------------------------
def _pop(s: State, f: list, rng) -> None:
    s.stack.pop()


_N = 25
LEGAL = [None] * _N
APPLY = [None] * _N
FINISH = [_pop] * _N
AUTO = [None] * _N
for _k, _l, _a in (
    (F_TURN, _turn_legal, _turn_apply), (F_VOP, _vop_legal, _vop_apply), (F_PARTNER, _partner_legal, _partner_apply),
    (F_REACT, _react_legal, _react_apply), (F_STARTRAP, _startrap_legal, _startrap_apply),
    (F_FOREST, _forest_legal, _forest_apply), (F_SQUARE, _square_legal, _square_apply),
    (F_MOTEL_T, _motel_t_legal, _motel_t_apply), (F_MOTEL_TAKE, _motel_take_legal, _motel_take_apply),
    (F_SURPLUS, _surplus_legal, _surplus_apply), (F_REST, _rest_legal, _rest_apply),
    (F_REST_N, _rest_n_legal, _rest_n_apply), (F_TH, _th_legal, _th_apply), (F_TRAPS, _traps_legal, _traps_apply),
    (F_WTRAP_T, _wtrap_t_legal, _wtrap_t_apply), (F_WTRAP_TO, _wtrap_to_legal, _wtrap_to_apply),
    (F_VTRAP, _vtrap_legal, _vtrap_apply), (F_DTRAP, _dtrap_legal, _dtrap_apply),
    (F_NIGHT, _night_legal, _night_apply), (F_PLACE, _place_legal, _place_apply),
):
    LEGAL[_k], APPLY[_k] = _l, _a
FINISH[F_TURN] = _turn_finish
FINISH[F_REACT] = _react_finish
FINISH[F_NIGHT] = _night_finish
AUTO[F_NEXT] = _next_run
AUTO[F_RESOLVE] = _resolve_run
AUTO[F_PLAYDONE] = _playdone_run
AUTO[F_ACT] = _act_run
AUTO[F_REFILL] = _refill_run


def _advance(s: State, rng, AUTO=AUTO, LEGAL=LEGAL, FINISH=FINISH) -> None:
    """Run everything that needs no decision; stop at the next decision or the game's end."""
    stack = s.stack
    while not s.is_terminal:
        f = stack[-1]
        k = f[0]
        auto = AUTO[k]
        if auto is not None:
            auto(s, f, rng)
            continue
        legal = LEGAL[k](s, f)
        if legal:
            s.legal = legal
            s.current_player = f[1]
            return
        FINISH[k](s, f, rng)
    s.legal = []


def legal_actions(s: State) -> list:
    """Every legal action of the current decision (empty only when the game is over)."""
    if s.is_terminal:
        return []
    if s.legal is None:
        f = s.stack[-1]
        s.legal = LEGAL[f[0]](s, f)
    return list(s.legal)


def apply_action(s: State, action, rng) -> None:
    """Validate `action` against the legal actions, apply it, and advance to the next decision."""
    legal = legal_actions(s)
    if action not in legal:
        raise IllegalActionError(
            f"illegal action {action!r} for player {s.current_player} at decision "
            f"{s.decision!r}; legal: {legal!r}"
        )
    apply_legal(s, action, as_generator(rng))


def apply_legal(s: State, a, rng) -> None:
    """Apply an action already known to be legal (the game loop's fast path). With a log the
    decision is logged first (event `decision`), as `play_game` does."""
    if s.log is not None:
        log_decision(s, a)
    s.decisions += 1
    f = s.stack[-1]
    APPLY[f[0]](s, f, a, rng)
    s.legal = None
    _advance(s, rng)


def log_decision(s: State, a) -> None:
    """Event `decision`: who chose what at which decision (before it is applied)."""
    s.log.append({"event": "decision", "turn": s.turns, "player": s.current_player, "decision": s.decision,
                  "turn_player": s.turn_player, "action": repr(a), "text": describe_action(s, a)})


def describe_action(s: State, a) -> str:
    """A rulebook-like sentence for an action in state s (for logs and errors)."""
    t = type(a)
    if t is Walk:
        from .cards import DIRECTION_NAMES
        return f"Dreamwalk {DIRECTION_NAMES[a.direction]}"
    if t is Vertigo:
        return f"Vertigo on the {LOCATION_NAMES[a.location]}"
    if t is Star:
        return f"Midnight Star: activate the {LOCATION_NAMES[s.where[s.turn_player]]}"
    if t is SetTrap:
        return f"Suspense: prepare a trap on the {LOCATION_NAMES[a.location]}"
    if t is DutchReduce:
        return f"Dutch Angle: seat {a.target} has one action fewer next turn"
    if t is Steal:
        return f"Dreamcatcher: blindly take a card from seat {a.target}"
    if t is Target:
        return f"choose seat {a.seat}"
    return repr(a)


__all__ = ["State", "IllegalActionError", "new_game", "legal_actions", "apply_action", "apply_legal",
           "describe_action", "log_decision", "STAT_NAMES", "has_nightmare", "near_bridge"]
