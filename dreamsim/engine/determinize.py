"""Determinisation: a full state consistent with what one seat knows (for search).

`sample_state(observation, rng)` rebuilds everything public from the observation (board,
avatars, effects, debts, the pending frames, the cards being played, counts) and deals what
that seat cannot see at random with `rng`: the other hands, the deck order, the discard pile
under its top card, the others' face-down traps, and a trap another seat is setting now.

The unseen cards are the game's cards (a fresh deal's `State.all_cards()` under these rules)
minus every card the observation shows: this seat's hand and traps (Suspense + partner), the
discard top (the whole pile while taking from it at the Square), the visible cards being
played, the reserve, the hand the seat is shown (Motel, a captured turn). They are placed
uniformly over the consistent deals, with the constraints the rules make public: a trap is a
Suspense card and one of the partner kinds (Dreamwalk, Vertigo, Midnight Star, Dutch Angle,
Dreamcatcher); the Black Nightmare never leaves the hand it was drawn into, so it is in the
Midnight Horror's hand if there is one and in the deck if there is none. Who holds the other
nightmares is hidden, as in `tests/dreamsim/test_dreamsim_hidden.py` (only the Black is kept in place).

Limit: an observation is a snapshot. Cards the seat saw earlier and no longer sees (a
nightmare another seat drew, a hand it looked into at the Motel) are not remembered, so they
are dealt like any unseen card. A search can condition the deal on more of the seat's history with a
belief (`dreamsim/policies/belief.py`, `ismcts:N:belief=reactions`), which draws from this function.
"""
from __future__ import annotations

from functools import lru_cache

from ..rules import Rules
from .cards import BLACK, CATCHER, DREAMWALK, DUTCH, LOCATION_OF_SUSPENSE, RED, STAR, SUSPENSE_OF, VERTIGO
from .engine import FRAME_TYPES, new_game
from .observation import Observation, observe
from .state import P_TRAP, RESOLVES, STAT_NAMES, Frame, State
from .turn import PartnerChoice, Play

__all__ = ["sample_state", "unseen_cards"]

PARTNER_KINDS = (DREAMWALK, VERTIGO, STAR, DUTCH, CATCHER)
SUSPENSE_KINDS = frozenset(SUSPENSE_OF.values())


@lru_cache(maxsize=16)
def _all_cards(rules: Rules) -> tuple:
    return tuple(sorted(new_game(rules, 0).all_cards()))


def _visible_cards(obs: Observation) -> list:
    """Every card the observation shows in a definite place (the multiset)."""
    seen = list(obs.own_hand)
    for loc, kind in obs.my_traps:
        seen += (SUSPENSE_OF[loc], kind)
    if obs.acting_for != obs.player:
        seen += obs.hand
    if obs.motel_hand is not None:
        seen += obs.motel_hand
    if obs.discard_pile is not None:
        seen += obs.discard_pile
    elif obs.discard_size:
        seen.append(obs.discard_top)
    seen += obs.limbo
    if obs.reserve_size:
        seen += [k for k in _all_cards(obs.rules) if k >= RED]
    return seen


def unseen_cards(obs: Observation) -> list:
    """The multiset of cards the seat cannot place (sorted kind codes)."""
    pool = list(_all_cards(obs.rules))
    for k in _visible_cards(obs):
        try:
            pool.remove(k)
        except ValueError:
            raise ValueError(f"observation shows more {k} cards than the game has: {obs!r}. "
                             "Reproduce with dreamsim.observe(state, player) on that state") from None
    return pool


def _take(pool: list, kinds, rng) -> int:
    """Remove and return one card drawn uniformly from the cards of `pool` whose kind is in `kinds`."""
    idx = [i for i, k in enumerate(pool) if k in kinds]
    if not idx:
        raise ValueError(f"no unseen card of kinds {sorted(kinds)} left to deal")
    return pool.pop(idx[int(rng.integers(len(idx)))])


def _decode(x, stack: list):
    if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str):
        tag, v = x
        if tag == "R":
            return stack[v]
        if tag == "F":
            return _fill(_empty(v), v, stack)
        if tag == "L":
            return [_decode(e, stack) for e in v]
    return x


def _empty(t: tuple) -> Frame:
    cls = FRAME_TYPES[t[0]]
    return cls.__new__(cls)


def _fill(f: Frame, t: tuple, stack: list) -> Frame:
    for name, v in zip(type(f).__slots__, t[1:]):
        setattr(f, name, _decode(v, stack))
    return f


def _rebuild_stack(frames: tuple) -> tuple[list, list]:
    """The frames as objects (references between them restored) and those with secret fields."""
    stack = [_empty(t) for t in frames]
    for f, t in zip(stack, frames):
        _fill(f, t, stack)
    secrets = [f for f in stack if (type(f) is PartnerChoice and f.location is None)
               or (type(f) is Play and f.kind == P_TRAP and f.cards is None)]
    return stack, secrets


#: deals tried before giving up on one that rests at the observed decision
MAX_TRIES = 1000


def sample_state(observation: Observation, rng) -> State:
    """A full state whose `observe(state, observation.player)` equals `observation`, the unseen
    cards dealt uniformly at random with `rng` (a numpy Generator).

    Whom the engine asks is public (`current_player`): a seat asked in a reaction window holds
    a Dutch Angle or Dreamcatcher, a seat asked in a trap window holds a trap it may spring.
    A deal where the decision on top of the stack would not rest with that seat is redrawn
    (rejection sampling: exact conditioning on that fact)."""
    obs = observation
    for _ in range(MAX_TRIES):
        s = _deal(obs, rng)
        top = s.stack[-1]
        legal = top.legal(s)
        if legal and getattr(top, "seat", obs.current_player) == obs.current_player:
            s.legal = legal
            s.current_player = obs.current_player
            return s
    raise ValueError(f"sample_state: no deal in {MAX_TRIES} rests at {obs.decision!r} with seat "
                     f"{obs.current_player}: {obs!r}. Reproduce with dreamsim.observe(state, player) on that state")


def _deal(obs: Observation, rng) -> State:
    if not isinstance(obs, Observation):
        raise ValueError(f"sample_state needs a dreamsim.Observation, got {type(obs).__name__}")
    if obs.decision == "game over":
        raise ValueError("sample_state: the game is over; nothing to search. "
                         "Reproduce with dreamsim.observe(state, player) on a live state")
    me, n, rules = obs.player, obs.n_players, obs.rules
    pool = unseen_cards(obs)
    stack, secrets = _rebuild_stack(obs.frames)

    s = State.__new__(State)
    rows, cols, grid, cell_of, rot, nb = obs.board
    s.rules, s.n, s.rows, s.cols, s.nb = rules, n, rows, cols, nb
    s.grid, s.cell_of, s.rot = list(grid), list(cell_of), list(rot)
    s.board_changed()
    s.where = list(obs.where)
    s.turn_player, s.controller, s.current_player = obs.turn_player, obs.controller, obs.current_player
    s.actions_left, s.horror = obs.actions_left, obs.horror
    e = obs.effects
    s.red, s.blue, s.multi, s.slow = e["red"], e["blue"], e["multi"], e["colourless"]
    s.debt, s.owed = list(obs.debt), list(obs.owed)
    s.winner, s.woke, s.horror_won, s.is_terminal, s.timed_out = None, -1, False, False, False
    s.turns, s.decisions = obs.turns, 0
    s.stats = {k: [0] * n for k in STAT_NAMES}
    s.log, s.legal = None, None
    s.stack = stack
    s.limbo = list(obs.limbo)

    # secrets on the stack: a trap being set by another seat (its Suspense card, its partner)
    for f in secrets:
        su = _take(pool, SUSPENSE_KINDS, rng)
        if type(f) is PartnerChoice:
            f.location = LOCATION_OF_SUSPENSE[su]
            s.limbo.append(su)
        elif f.outcome != RESOLVES:  # cancelled or intercepted: what it was no longer matters
            f.arg, f.arg2, f.cards = LOCATION_OF_SUSPENSE[su], DREAMWALK, []
            pool.append(su)
        else:
            partner = _take(pool, PARTNER_KINDS, rng)
            f.arg, f.arg2, f.cards = LOCATION_OF_SUSPENSE[su], partner, [su, partner]
            s.limbo += (su, partner)
    # face-down traps
    s.traps = [list(obs.my_traps) if q == me else [] for q in range(n)]
    for q in range(n):
        if q != me:
            for _ in range(obs.trap_counts[q]):
                su = _take(pool, SUSPENSE_KINDS, rng)
                s.traps[q].append((LOCATION_OF_SUSPENSE[su], _take(pool, PARTNER_KINDS, rng)))
    s.n_traps = sum(1 for t in s.traps for _, k in t if k != STAR)
    # hands: the known ones, the Black Nightmare with the Horror; then a uniform deal of the rest
    known = {me: list(obs.own_hand)}
    if obs.acting_for != me:
        known[obs.acting_for] = list(obs.hand)
    if obs.motel_hand is not None:
        known[s.stack[-1].target] = list(obs.motel_hand)
    hands = [list(known.get(q, ())) for q in range(n)]
    black_to_deck = False
    if BLACK in pool:
        pool.remove(BLACK)
        if obs.horror >= 0 and obs.horror not in known:
            hands[obs.horror].append(BLACK)
        else:
            black_to_deck = True
    rest = [pool[int(i)] for i in rng.permutation(len(pool))]
    for q in range(n):
        if q not in known:
            need = obs.hand_sizes[q] - len(hands[q])
            hands[q] += rest[:need]
            del rest[:need]
    s.hands = [sorted(h) for h in hands]  # hands (and traps) are kept sorted (State)
    s.traps = [sorted(t) for t in s.traps]
    if obs.discard_pile is not None:
        s.discard = list(obs.discard_pile)
    elif obs.discard_size:
        below = obs.discard_size - 1
        s.discard = rest[:below] + [obs.discard_top]
        del rest[:below]
    else:
        s.discard = []
    if black_to_deck:
        rest.insert(int(rng.integers(len(rest) + 1)), BLACK)
    s.deck = rest
    s.reserve = [k for k in _all_cards(rules) if k >= RED] if obs.reserve_size else []
    if len(s.deck) != obs.deck_size:
        raise ValueError(f"sample_state: {len(s.deck)} cards left for a deck of {obs.deck_size}: {obs!r}. "
                         "Reproduce with dreamsim.observe(state, player) on that state")
    return s


def check_consistent(state: State, observation: Observation) -> bool:
    """Whether `state` looks to the observation's seat exactly as `observation` (for tests)."""
    return observe(state, observation.player) == observation
