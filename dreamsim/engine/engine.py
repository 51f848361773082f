"""The Midnighters engine: a new game, legal actions, and the one step that applies a decision.

One decision = one step (OpenSpiel style). Everything that needs no choice (dealing,
drawing, a nightmare's effect, resolving a card) runs inside `apply_action`; the state then
rests at the next decision, whose owner is `state.current_player` — which may be a player
reacting out of turn (Dutch Angle, Dreamcatcher), a trap owner, or the Stager.

Pending work lives on `state.stack`, a list of frames (`state.Frame`, on the shared protocol of
`simcore.frames`: one small slotted class per kind of pending work, with named fields).
`simcore.frames.drive` is the one loop that drives them: each top frame's `step` runs an
automatic frame, rests at a decision frame with a legal action, or finishes a decision frame
with nothing left to choose. The bottom of the stack is always the turn frame (`turn.Turn`) or the frame
that starts the next turn (`turn.NextTurn`).

Where each rule lives: `state.py` (the state, shared helpers, the board's moves), `turn.py`
(turn start and end, turn actions, card plays and their resolution), `reactions.py` (Dutch
Angle cancels, Dreamcatcher intercepts), `refill.py` (drawing back up), `traps.py` (the trap
window, sprung traps), `activations.py` (Midnight Star: Star traps and each location),
`nightmares.py` (nightmares and the Midnight Horror).
"""
from __future__ import annotations

from simcore.actions import shown
from simcore.frames import drive

from ..rules import Rules
from .actions import DutchReduce, SetTrap, Star, Steal, Target, Vertigo, Walk
from .activations import (
    Activation,
    ForestChoice,
    MotelTake,
    MotelTarget,
    RestaurantCount,
    RestaurantOption,
    SquareTake,
    StarTrapWindow,
    Surplus,
    TownHallDiscard,
)
from .cards import DIRECTION_NAMES, LOCATION_NAMES, director_cards, nightmare_cards
from .nightmares import NightmareWindow, Placement
from .reactions import ReactionWindow
from .refill import PlayDone, Refill
from .state import (
    STAT_NAMES,
    Frame,
    IllegalActionError,
    State,
    _apply_vop,  # noqa: F401  (tests and tools reach the board's moves through the engine)
    _event,
    _moves_from,  # noqa: F401
    _names,
    _shuffle_in_nightmares,
    as_generator,
    has_nightmare,
    shuffled,
)
from .traps import DutchTrap, TrapWindow, VertigoTrap, WalkTrapDestination, WalkTrapTarget
from .turn import NextTurn, PartnerChoice, Play, Turn, VertigoChoice

_DIRECTORS = tuple(director_cards())  # the 96 director cards in kind order, before the shuffle


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
    s.board_view = None
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
    s.deck = deck = shuffled(rng, _DIRECTORS)
    # dealt one card at a time from the top of the deck (the end of the list), round by round:
    # the k-th card dealt is top[k], and seat p gets cards p, p + n, p + 2n, ...
    rest = len(deck) - rules.hand_size * s.n
    top = deck[rest:][::-1]
    del deck[rest:]
    s.hands = [sorted(top[p::s.n]) for p in range(s.n)]  # a hand is kept in kind order (State.hands)
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
    s.turns = -1  # NextTurn counts the turn that ends; the first NextTurn starts turn 0
    s.decisions = 0
    s.stats = {k: [0] * s.n for k in STAT_NAMES}
    s.legal = None
    s.log is None or _event(s, "deal", hands=[h[:] for h in s.hands], where=s.where[:], grid=s.grid[:], rot=s.rot[:],
                            deck=_names(s.deck), reserve=_names(s.reserve))
    s.stack = [NextTurn()]
    drive(s, rng)
    return s


#: every kind of frame, decisions first (their `decision` is State.decision)
FRAME_TYPES = (Turn, VertigoChoice, PartnerChoice, ReactionWindow, StarTrapWindow, ForestChoice, SquareTake,
               MotelTarget, MotelTake, Surplus, RestaurantOption, RestaurantCount, TownHallDiscard, TrapWindow,
               WalkTrapTarget, WalkTrapDestination, VertigoTrap, DutchTrap, NightmareWindow, Placement,
               NextTurn, Play, PlayDone, Activation, Refill)
#: decision frame type -> the decision in the rulebook's words
DECISION_NAMES = {t: t.decision for t in FRAME_TYPES if t.decision is not None}
#: frame type -> its kind code in the positional frame lists of dreamsim-1.4's engine (F_TURN = 0 ...
#: F_REFILL = 24, the order of FRAME_TYPES)
FRAME_CODES = {t: i for i, t in enumerate(FRAME_TYPES)}


def frame_as_list(f: Frame) -> list:
    """`f` in the positional layout the engine's frames had before they were named (its kind code,
    then its fields in `__slots__` order; a frame a field points at, as such a list): for mirrors
    that lay frames out in arrays, such as a batch kernel's frame table. The engine never reads it."""
    out = [FRAME_CODES[type(f)]]
    for name in type(f).__slots__:
        x = getattr(f, name)
        out.append(frame_as_list(x) if isinstance(x, Frame) else x)
    return out


def legal_actions(s: State) -> list:
    """Every legal action of the current decision (empty only when the game is over)."""
    if s.is_terminal:
        return []
    if s.legal is None:
        s.legal = s.stack[-1].legal(s)
    return list(s.legal)


def find_legal(s: State, action):
    """The engine's own item of the legal list that `action` names, or None if it is not legal.
    The engine interns its actions, so a choice taken from the list is found by identity
    (no Python-level `__eq__`); an equal value built elsewhere is found by equality."""
    legal = s.legal
    if legal is None:
        legal = s.legal = [] if s.is_terminal else s.stack[-1].legal(s)
    for x in legal:
        if x is action:
            return x
    for x in legal:
        if x == action:
            return x
    return None


def apply_action(s: State, action, rng) -> None:
    """Validate `action` against the legal actions, apply it, and advance to the next decision."""
    try:
        a = find_legal(s, action)
    except Exception:  # noqa: BLE001  # an action that cannot even be compared is not legal
        a = None
    if a is None:
        text = shown(action)
        raise IllegalActionError(
            f"illegal action {text} for player {s.current_player} at decision "
            f"{s.decision!r}; legal: {legal_actions(s)!r}. Reproduce with the same state and "
            f"apply_action(state, {text}, rng)"
        )
    apply_legal(s, a, as_generator(rng))


def apply_legal(s: State, a, rng) -> None:
    """The engine's step for an action already validated (`find_legal`): apply it to the
    decision on top of the stack and drive the stack to the next decision (`simcore.frames.drive`).
    With a log the decision is logged first (event `decision`)."""
    if s.log is not None:
        log_decision(s, a)
    s.decisions += 1
    s.legal = None  # the legal list of the next decision (`Frame.step`; [] once the game is over)
    s.stack[-1].apply(s, a, rng)
    drive(s, rng)


def log_decision(s: State, a) -> None:
    """Event `decision`: who chose what at which decision (before it is applied)."""
    s.log.append({"event": "decision", "turn": s.turns, "player": s.current_player, "decision": s.decision,
                  "turn_player": s.turn_player, "action": repr(a), "text": describe_action(s, a)})


def describe_action(s: State, a) -> str:
    """A rulebook-like sentence for an action in state s (for logs and errors)."""
    t = type(a)
    if t is Walk:
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


__all__ = [
    "State", "Frame", "IllegalActionError", "new_game", "legal_actions", "find_legal", "apply_action", "apply_legal",
    "describe_action", "log_decision", "STAT_NAMES", "has_nightmare",
    "as_generator", "FRAME_TYPES", "DECISION_NAMES", "FRAME_CODES", "frame_as_list",
    "Turn", "VertigoChoice", "PartnerChoice", "ReactionWindow", "StarTrapWindow", "ForestChoice", "SquareTake",
    "MotelTarget", "MotelTake", "Surplus", "RestaurantOption", "RestaurantCount", "TownHallDiscard", "TrapWindow",
    "WalkTrapTarget", "WalkTrapDestination", "VertigoTrap", "DutchTrap", "NightmareWindow", "Placement",
    "NextTurn", "Play", "PlayDone", "Activation", "Refill",
]
