"""Build positions by hand for tests and for exploring a rule.

    from dreamsim.engine.scenario import build_state, step, loc
    s = build_state(where=[loc("Bridge"), loc("Corridor 1")], hands=[["Midnight Star"], []])
    step(s, dreamsim.Star())          # seat 0 wakes
    assert s.winner == 0

Cards and locations may be given by kind code / location id or by name ("Dreamwalk",
"Suspense (Bridge)", "Red Nightmare", "Town Hall"; "star", "walk" etc. as short names).
Every card not placed explicitly goes to the bottom of the deck, so card conservation holds.
"""
from __future__ import annotations

import numpy as np

from simcore.frames import drive

from ..rules import Rules
from . import cards as C
from .engine import State, Turn, apply_action, new_game

_SHORT = {
    "walk": C.DREAMWALK, "dreamwalk": C.DREAMWALK, "vertigo": C.VERTIGO, "star": C.STAR, "midnight star": C.STAR,
    "dutch": C.DUTCH, "dutch angle": C.DUTCH, "catcher": C.CATCHER, "dreamcatcher": C.CATCHER,
    "red": C.RED, "blue": C.BLUE, "purple": C.PURPLE, "black": C.BLACK, "multi": C.MULTI,
    "multicolour": C.MULTI, "colourless": C.COLOURLESS,
}


def card(x) -> int:
    """A kind code from a code or a name."""
    if isinstance(x, int):
        return x
    key = x.strip().lower()
    if key in _SHORT:
        return _SHORT[key]
    for i, name in enumerate(C.KIND_NAMES):
        if name.lower() == key:
            return i
    if key.startswith("su ") or key.startswith("suspense "):
        return C.SUSPENSE_OF[loc(key.split(" ", 1)[1].strip("() "))]
    raise ValueError(f"unknown card {x!r}")


def loc(x) -> int:
    """A location id from an id or a name ("Bridge", "Corridor 3", "Town Hall")."""
    if isinstance(x, int):
        return x
    key = x.strip().lower()
    for i, name in enumerate(C.LOCATION_NAMES):
        if name.lower() == key:
            return i
    raise ValueError(f"unknown location {x!r}")


def build_state(rules: Rules | None = None, *, where=None, hands=None, deck=(), discard=(), traps=None,
                turn_player: int = 0, actions_left: int | None = None, horror: int = -1, red: int = 0,
                blue: int = 0, speed: int = 0, speed_mask: int = 0, multi: int = 0, slow: int = 0, debt=None, grid=None, rot=None,
                record: bool = True, seed: int = 0) -> State:
    """A state resting at `turn_player`'s turn action.

    where: location per seat; hands: list of card lists per seat; deck: cards on top of the
    deck, first drawn first; discard: the discard pile (bottom first); traps: per seat a list
    of (location, partner card); grid/rot: replace the board (grid = location per cell).
    """
    rules = rules or Rules(players=len(where) if where is not None else 4)
    s = new_game(rules, seed, record=record)
    n = s.n
    if grid is not None:
        s.grid = [loc(g) if g != -1 else -1 for g in grid]
        s.cell_of = [0] * 12
        for c, l in enumerate(s.grid):
            if l >= 0:
                s.cell_of[l] = c
    if rot is not None:
        s.rot = list(rot)
    s.board_changed()
    if where is not None:
        s.where = [loc(w) for w in where]
    # hands in kind order, traps in (location, partner) order, as the engine keeps them (State)
    s.hands = [sorted(card(c) for c in h) for h in (hands or [[] for _ in range(n)])]
    s.traps = [sorted((loc(l), card(k)) for l, k in t) for t in (traps or [[] for _ in range(n)])]
    s.n_traps = sum(1 for t in s.traps for _, k in t if k != C.STAR)
    s.discard = [card(c) for c in discard]
    s.limbo, s.reserve = [], []
    top = [card(c) for c in deck]
    rest = list(C.director_cards()) + list(C.NIGHTMARES)
    for c in top + s.discard + [c for h in s.hands for c in h] + \
            [c for t in s.traps for l, k in t for c in (C.SUSPENSE_OF[l], k)]:
        if c not in rest:
            raise ValueError(f"build_state: more {C.KIND_NAMES[c]} cards placed than the game has")
        rest.remove(c)
    nightmares = [c for c in rest if c >= C.RED]
    rest = nightmares + [c for c in rest if c < C.RED]  # nightmares at the very bottom
    s.deck = rest + top[::-1]
    s.turn_player = s.current_player = turn_player
    s.controller = -1
    s.actions_left = rules.actions_per_turn if actions_left is None else actions_left
    s.debt = list(debt) if debt is not None else [0] * n
    s.owed = [0] * n
    s.horror, s.red, s.blue = horror, red, blue
    # speed/speed_mask (one effect on the seats of the mask) or per seat: multi/slow masks
    s.multi = multi | (speed_mask if speed == C.MULTI else 0)
    s.slow = slow | (speed_mask if speed == C.COLOURLESS else 0)
    s.turns = 0
    s.stack = [Turn(turn_player)]
    s.legal = None
    if s.log is not None:
        s.log.clear()
    drive(s, np.random.default_rng(seed))
    return s


def step(s: State, *actions, seed: int = 0) -> State:
    """Apply actions one by one (each validated) with a fixed chance stream."""
    rng = np.random.default_rng(seed)
    for a in actions:
        apply_action(s, a, rng)
    return s
