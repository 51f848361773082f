"""What one player may see: own hand, the board, everything public, counts of hidden things.

`observe(state, player)` copies what the seat may know into a plain value (tuples, ints,
dicts of ints): an observation holds no reference to the State, so a policy cannot
read other hands, face-down traps or the deck order through it. `play_game` builds one per
decision, for the seat that decides.

Hidden: other hands (only their sizes), the deck, the discard pile (its size and top card;
the whole pile only while you take from it at the Square), face-down traps (others' trap
counts only; your own traps with their cards), a trap's partner card and the location named by its Suspense card while it is being set
(the context of a "trap partner card" decision goes to the setter only).
Seen because the rules show them: the Motel target's hand while you take from it, the hand
of the Midnighter whose turn you play after springing a Dreamcatcher trap, the cards being
played (but a trap someone else sets).
"""
from __future__ import annotations

from operator import itemgetter

from .activations import MotelTake, SquareTake
from .board import adjacent_locations
from .cards import BRIDGE, SUSPENSE_OF
from .engine import FRAME_CODES
from .state import (  # the vocabulary of Observation.context, re-exported for policies
    CANCELLED,
    INTERCEPTED,
    P_DEXTRA,
    P_DREDUCE,
    P_STAR,
    P_STEAL,
    P_TRAP,
    P_VERT,
    P_WALK,
    PLAY_NAMES,
    RESOLVES,
    S_ANY,
    S_GIVE,
    S_PLAIN,
    Frame,
    State,
)
from .turn import PartnerChoice, Play

__all__ = ["Observation", "observe", "CANCELLED", "INTERCEPTED", "P_DEXTRA", "P_DREDUCE", "P_STAR", "P_STEAL",
           "P_TRAP", "P_VERT", "P_WALK", "PLAY_NAMES", "S_ANY", "S_GIVE", "S_PLAIN"]

_FIELDS = ("player", "decision", "turn_player", "controller", "acting_for", "actions_left", "context", "hand",
           "own_hand", "my_traps", "discard_pile", "motel_hand", "n_players", "hand_sizes", "trap_counts", "where",
           "board", "horror", "effects", "debt", "deck_size", "discard_size", "discard_top", "turns", "rules",
           # added for determinisation (dreamsim.sample_state); public, or the seat's own secrets
           "current_player", "limbo", "reserve_size", "owed", "frames")


class Observation(tuple):
    """What one seat may know at one moment, as plain values (see the module docstring): an
    immutable tuple of the fields below, each readable by name.

    decision / turn_player / controller (-1: none) / acting_for (the seat whose hand and avatar
    this decision is about) / actions_left / context (specifics of the decision) / hand (the
    hand acting_for holds, when that is you or the turn you play after a Dreamcatcher trap) /
    own_hand / my_traps ((location, partner kind) of your prepared traps) / discard_pile (only
    while you take from it at the Square) / motel_hand (only while you take from it) /
    n_players / hand_sizes / trap_counts / where / board ((rows, cols, grid, cell_of, rot,
    neighbours)) / near_bridge (computed from the board) / horror / effects (bit masks) / debt /
    deck_size / discard_size / discard_top / turns / rules /
    current_player (the seat deciding now) / limbo (the cards being played that this seat may
    see: a trap being set by someone else is face down) / reserve_size (nightmares not yet
    shuffled in) / owed (cards played this turn, per seat, to draw back) / frames (the pending
    work, bottom first, as plain tuples: `public_frames`; what this seat may not know is None).
    """

    __slots__ = ()

    def __new__(cls, *values):
        if len(values) != len(_FIELDS):
            raise ValueError(f"Observation needs {len(_FIELDS)} values: {', '.join(_FIELDS)}")
        return tuple.__new__(cls, values)

    @property
    def near_bridge(self) -> tuple[int, ...]:
        """Midnighters (not the Horror) on the Bridge or next to it (the Restaurant's reach)."""
        rows, cols, grid, cell_of, rot, nb = self.board
        zone = {BRIDGE, *adjacent_locations(grid, cell_of, nb, BRIDGE)}
        h = self.horror
        return tuple(q for q, w in enumerate(self.where) if q != h and w in zone)

    def to_dict(self) -> dict:
        return dict(zip(_FIELDS, self))

    def __repr__(self):
        return (f"Observation(player={self.player}, decision={self.decision!r}, hand={self.hand}, "
                f"where={self.where}, horror={self.horror})")


for _i, _name in enumerate(_FIELDS):
    setattr(Observation, _name, property(itemgetter(_i), doc=f"the observation's {_name}"))


def _acting_for(s: State, player: int) -> int:
    if s.controller == player and s.controller >= 0 and s.stack:
        f = s.stack[-1]
        if not f.out_of_turn:
            return f.acting_for(s)
    return player


def _context(s: State, player: int) -> dict:
    """Specifics of the current decision (which location, which target, the play reacted to)."""
    if not s.stack or s.is_terminal:
        return {}
    return s.stack[-1].context(player)


def _secret_from(s: State, f: Frame, player: int) -> bool:
    """Whether frame `f` holds a face-down trap (its location, its partner) hidden from `player`."""
    t = type(f)
    if t is PartnerChoice:
        return f.seat != player
    if t is Play and f.kind == P_TRAP:
        return player != f.actor and not (f.actor == s.turn_player and s.controller == player)
    return False


#: field values copied as they are (the observation is built every decision: keep this lean)
_PLAIN = frozenset((int, bool, str, float, tuple, type(None)))


def _encode(x, stack: list):
    """A field value that is not plain: a frame on the stack as ("R", its index), another frame
    as ("F", its tuple), a list as ("L", its items encoded); anything else as it is."""
    if isinstance(x, Frame):
        for i, g in enumerate(stack):
            if g is x:
                return ("R", i)
        return ("F", _ENCODERS[type(x)](x, stack))
    if isinstance(x, list):
        return ("L", tuple([v if type(v) in _PLAIN else _encode(v, stack) for v in x]))
    return x


def _make_encoder(cls: type, hidden=()):
    """`encode(frame, stack)` -> the frame's public tuple: its kind code (engine.FRAME_CODES), then
    its fields in `__slots__` order, each plain value as it is, any other through `_encode`, a
    field in `hidden` as None. Generated per frame type (the observation is built at every
    decision: a loop over the field names with getattr cost about twice as much)."""
    items = [str(FRAME_CODES[cls])] + ["None" if n in hidden else f"x if type(x := f.{n}) in P else E(x, stack)"
                                       for n in cls.__slots__]
    src = f"def encode(f, stack):\n    return ({', '.join(items)},)\n"
    env = {"P": _PLAIN, "E": _encode}
    exec(compile(src, f"<dreamsim.engine.observation encoder of {cls.__name__}>", "exec"), env)
    return env["encode"]


#: per secret frame type, the fields a seat that may not know them sees as None
SECRET_FIELDS = {PartnerChoice: ("location",), Play: ("arg", "arg2", "cards")}
#: frame type -> encode(frame, stack), and for the secret types the encoding with SECRET_FIELDS hidden
_ENCODERS = {t: _make_encoder(t) for t in FRAME_CODES}
_HIDDEN_ENCODERS = {t: _make_encoder(t, SECRET_FIELDS[t]) for t in SECRET_FIELDS}


def public_frames(s: State, player: int) -> tuple:
    """The stack, bottom first, as plain tuples (kind code = engine.FRAME_CODES, then the fields
    in `__slots__` order; a list field as ("L", items); a field pointing at a frame on the stack
    as ("R", its index), at another frame as ("F", its tuple)). A trap being set by another
    seat has its location, partner and cards as None."""
    return _frames_and_limbo(s, player)[0]


def public_limbo(s: State, player: int) -> tuple:
    """The cards being played that `player` may see (a face-down trap being set is left out)."""
    return _frames_and_limbo(s, player)[1]


def _frames_and_limbo(s: State, player: int) -> tuple[tuple, tuple]:
    """(public_frames, public_limbo) in one walk of the stack."""
    stack = s.stack
    out = []
    secrets = None
    for f in stack:
        t = type(f)
        if t in _HIDDEN_ENCODERS and _secret_from(s, f, player):
            out.append(_HIDDEN_ENCODERS[t](f, stack))
            if secrets is None:
                secrets = []
            secrets.append(f)
        else:
            out.append(_ENCODERS[t](f, stack))
    if secrets is None:
        return tuple(out), tuple(s.limbo)
    limbo = list(s.limbo)
    for f in secrets:
        if type(f) is PartnerChoice:
            limbo.remove(SUSPENSE_OF[f.location])
        elif f.outcome == RESOLVES:  # else cancelled or intercepted: its cards already left limbo
            for k in f.cards:
                limbo.remove(k)
    return tuple(out), tuple(limbo)


def observe(state: State, player: int) -> Observation:
    """A copy of what `player` may know now (built at every decision: the helpers above inlined)."""
    s = state
    if not 0 <= player < s.n:   # a negative seat would index from the end: another seat's view
        raise ValueError(f"observe: seat {player!r} is not a seat of this {s.n}-player game (0..{s.n - 1})")
    stack = s.stack
    f = stack[-1] if stack else None
    actor = player
    if s.controller == player and player >= 0 and f is not None and not f.out_of_turn:
        actor = f.acting_for(s)  # _acting_for
    if s.is_terminal or f is None:
        top, deciding, context = None, False, {}
        decision = s.decision
    else:
        top, deciding, context = type(f), s.current_player == player, f.context(player)
        decision = f.decision  # State.decision
    m, c = s.multi, s.slow
    speed = 0 if not (m | c) else (15 if m.bit_count() >= c.bit_count() else 16)
    discard, hands = s.discard, s.hands
    board = s.board_view
    if board is None:
        board = s.board_view = (s.rows, s.cols, tuple(s.grid), tuple(s.cell_of), tuple(s.rot), s.nb)
    frames, limbo = _frames_and_limbo(s, player)
    return tuple.__new__(Observation, (
        player, decision, s.turn_player, s.controller, actor, s.actions_left, context,
        tuple(hands[actor]), tuple(hands[player]), tuple(s.traps[player]),
        tuple(discard) if top is SquareTake and deciding else None,
        tuple(hands[f.target]) if top is MotelTake and deciding else None,
        s.n, tuple(map(len, hands)), tuple(map(len, s.traps)), tuple(s.where), board, s.horror,
        {"red": s.red, "blue": s.blue, "multi": m, "colourless": c, "speed_mask": m | c, "speed": speed},
        tuple(s.debt), len(s.deck), len(discard), discard[-1] if discard else -1, s.turns, s.rules,
        s.current_player, limbo, len(s.reserve), tuple(s.owed), frames,
    ))
