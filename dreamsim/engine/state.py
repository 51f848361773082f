"""The game state, the frame base class, and the small rules every part of the turn shares.

`State` holds everything on the table. Pending work lives on `State.stack`, a list of
*frames*: small slotted objects, one class per kind of pending work, each a `Frame` (the
shared protocol of `simcore.frames`). A decision frame names the seat that decides (`seat`),
the decision (`decision`), what is legal (`legal`), how a choice applies (`apply`) and what
happens when nothing is left to choose (`finish`, by default: the frame is done and the frame
beneath it resumes). An automatic frame (`decision` None) overrides `step`: it runs and
returns False. `simcore.frames.drive` drives the stack (`engine.new_game`, `engine.apply_legal`).
"""
from __future__ import annotations

from simcore.actions import IllegalActionError  # noqa: F401  (the engine's error, exported here)
from simcore.frames import Frame as _ProtocolFrame
from simcore.stream import chance_stream as as_generator  # noqa: F401  (the engine's name for it)

from .actions import VERTIGO, WALK
from .cards import (
    ARROWS,
    BLACK,
    BLUE,
    CATCHER,
    COLOURLESS,
    DREAMWALK,
    DUTCH,
    KIND_NAMES,
    MULTI,
    RED,
    SUSPENSE_OF,
)
from .cards import (
    STAR as STAR_CARD,
)
from .cards import (
    VERTIGO as VERTIGO_CARD,
)

# play kinds (what a card play does once it resolves); the reaction window's context names them
P_WALK, P_VERT, P_STAR, P_TRAP, P_DEXTRA, P_DREDUCE, P_STEAL = range(7)
PLAY_NAMES = ("Dreamwalk", "Vertigo", "Midnight Star", "trap setting", "Dutch Angle (extra action)",
              "Dutch Angle (reduce)", "Dreamcatcher (steal)")
# surplus modes: any card but the Black (Square), give or discard (Motel), a director card only
S_ANY, S_GIVE, S_PLAIN = range(3)
# what became of a card play in its reaction window
RESOLVES, CANCELLED, INTERCEPTED = 0, 1, 2

STAT_NAMES = ("played_dreamwalk", "played_vertigo", "played_star", "played_dutch", "played_catcher",
              "traps_set", "traps_sprung", "nightmares_drawn", "turns_skipped", "cancels", "intercepts",
              "activations", "actions", "discards")
_PLAYED_STAT = {DREAMWALK: "played_dreamwalk", VERTIGO_CARD: "played_vertigo", STAR_CARD: "played_star",
                DUTCH: "played_dutch", CATCHER: "played_catcher"}


class Frame(_ProtocolFrame):
    """One piece of pending work on `State.stack` (see the module docstring).

    Subclasses declare their named fields in `__slots__`; a decision frame has `seat` (the
    seat deciding, written by `legal` where the window asks seats in turn) and the class
    attributes `decision` (the decision in the rulebook's words, `State.decision`) and
    `out_of_turn` (a window any seat may be asked in: the observation's acting seat is then
    the asked seat itself, never the captured turn's). An automatic frame leaves `decision`
    None and overrides `step`.
    """

    __slots__ = ()
    out_of_turn = False

    def step(self, s: "State", rng) -> bool:
        """Rest at the decision if anything is legal (`s.legal` caches the list, `s.current_player`
        is the deciding seat); with nothing left to choose, `finish` and let the stack go on."""
        legal = self.legal(s)
        if legal:
            s.legal = legal
            s.current_player = self.seat
            return True
        self.finish(s, rng)
        return False

    def finish(self, s: "State", rng) -> None:
        """Nothing left to choose: the frame is done and the one beneath resumes."""
        s.stack.pop()

    def context(self, player: int) -> dict:
        """The specifics of this decision that `player` may see (Observation.context)."""
        return {}

    def acting_for(self, s: "State") -> int:
        """Whose hand and avatar the decision is about when the deciding seat plays a captured turn."""
        return s.turn_player

    def copy(self, memo: dict) -> "Frame":
        """A copy for State.clone(); frames that point at other frames (a reaction window at
        its play, a Star trap window at its activation) point at the copies."""
        key = id(self)
        f = memo.get(key)
        if f is not None:
            return f
        cls = type(self)
        f = memo[key] = cls.__new__(cls)
        for name in cls.__slots__:
            x = getattr(self, name)
            if isinstance(x, list):
                x = x[:]
            elif isinstance(x, Frame):
                x = x.copy(memo)
            setattr(f, name, x)
        return f

    def __repr__(self):
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in type(self).__slots__ if not isinstance(
            getattr(self, n), Frame))
        return f"{type(self).__name__}({fields})"


class State:
    """Full game state. Mutable; `clone()` is a cheap structural copy. Each hand is a list kept in kind
    order and each seat's traps in (location, partner) order (a hand is a set of cards: the order they
    came in is no information the rules use; the batch kernel keeps counts and lists them this way)."""

    __slots__ = (
        "rules", "n", "rows", "cols", "nb", "grid", "cell_of", "rot", "where",
        "deck", "discard", "reserve", "hands", "traps", "limbo",
        "turn_player", "controller", "current_player", "actions_left", "debt", "owed",
        "horror", "red", "blue", "multi", "slow", "stack",
        "winner", "woke", "horror_won", "is_terminal", "timed_out", "turns", "decisions",
        "stats", "log", "legal", "n_traps",  # n_traps: traps other than Midnight Star ones (trap windows)
        "geo",  # geo[loc]: cached (Dreamwalk actions, Vertigo actions) from loc; see board_changed()
        "board_view",  # Observation.board of the current board (plain tuples), or None; see board_changed()
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
        s.stack = [f.copy(memo) for f in self.stack]
        s.stats = {k: v[:] for k, v in self.stats.items()}
        s.log = None if self.log is None else self.log[:]
        s.legal = None
        s.geo = self.geo[:]
        s.board_view = self.board_view  # a tuple of tuples: shared as it is
        return s

    def board_changed(self) -> None:
        """Forget the cached moves and view of the board; call it after editing `grid`, `cell_of` or `rot`."""
        self.geo = [None] * 12
        self.board_view = None

    @property
    def decision(self) -> str:
        """What the current decision is about, in the rulebook's words."""
        if self.is_terminal:
            return "game over"
        return self.stack[-1].decision

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


# -------------------------------------------------------------------------------------------
# Small helpers
# -------------------------------------------------------------------------------------------


def _names(cards) -> list:
    """Card kinds as names, for the log (a deck: the top card last)."""
    return [KIND_NAMES[k] for k in cards]


def _event(s: State, what: str, **data) -> None:
    if s.log is not None:
        data.update(event=what, turn=s.turns, player=s.current_player)
        s.log.append(data)


def shuffled(rng, cards) -> list:
    """A shuffled copy of a list of card kinds (`Stream.shuffle`: Fisher-Yates from the top, as the
    kernel's `simcore.stream_kernel.shuffle`)."""
    out = list(cards)
    rng.shuffle(out)
    return out


def _shuffle_in_nightmares(s: State, rng) -> None:
    deck = s.deck + s.reserve
    s.deck = shuffled(rng, deck)
    s.reserve = []
    s.log is None or _event(s, "nightmares_in", deck=len(s.deck), order=_names(s.deck))


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
    card to play, never draws, and freezes everyone in its location for good."""
    size = s.rules.hand_size
    if p != s.horror:
        return size
    mode = s.rules.horror_hand_limit
    if mode == "nightmares_free":
        for k in s.hands[p]:  # a plain loop: a hand is short, a generator's set-up costs more than it
            if k >= RED:
                size += 1
        return size
    return size + 1 if mode == "black_free" else size


def _takeable(hand) -> list:
    """Cards that may leave a hand (the Black Nightmare never does)."""
    return [k for k in hand if k != BLACK]


def _distinct(cards) -> list:
    seen = 0
    out = []
    for k in cards:
        if not (seen >> k) & 1:
            seen |= 1 << k
            out.append(k)
    return out


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
    s.legal = []  # the game is over: nothing is legal
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
        pile = sorted(s.discard)  # gathered in kind order: the pile's order is no information the rules use
        s.deck = shuffled(rng, pile)
        s.discard = []
        s.log is None or _event(s, "reshuffle", cards=len(s.deck), order=_names(s.deck))
    return s.deck.pop()


_ORDERS = {n: tuple(tuple((first + i) % n for i in range(n)) for first in range(n)) for n in range(1, 7)}


def seats_from(s: State, first: int) -> tuple[int, ...]:
    """Seats in turn order (clockwise) starting with `first`."""
    return _ORDERS[s.n][first % s.n]


def _play_card(s: State, p: int, kind: int) -> None:
    """p plays a card of `kind`: it leaves the hand for limbo until its play is settled."""
    s.hands[p].remove(kind)
    s.limbo.append(kind)
    s.log is None or _event(s, "card_played", seat=p, card=KIND_NAMES[kind])
    s.owed[p] += 1
    stat = _PLAYED_STAT.get(kind)
    if stat:
        s.stats[stat][p] += 1


def _consume_trap(s: State, q: int, loc: int, kind: int) -> None:
    """A trap springs: its Suspense card and its partner go to the discard pile."""
    s.traps[q].remove((loc, kind))
    if kind != STAR_CARD:
        s.n_traps -= 1
    _to_discard(s, SUSPENSE_OF[loc])
    _to_discard(s, kind)
    s.stats["traps_sprung"][q] += 1


# -------------------------------------------------------------------------------------------
# The board: moves from a location (cached), Vertigo operations
# -------------------------------------------------------------------------------------------
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
    s.board_view = None
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
        s.board_view = None
        if s.rules.dreamwalk_return_arrow:  # walks into it need its arrows too
            _forget_moves(s, (s.cell_of[loc],))
        else:
            s.geo[loc] = None
