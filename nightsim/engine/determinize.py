"""Determinisation: a full state consistent with what one seat knows (for search).

`sample_state(observation, rng)` rebuilds everything public from the observation (every
creature and seal, the discard pile, the turn, the pending frames, a Herald's turned-over
cards) and deals what that seat cannot see uniformly at random with `rng`: the other hands
(their sizes are public) and the order of the deck. The unseen cards are every card of the
deck (`Rules.table`) minus this seat's hand, the discard pile, the cards in creatures and
seals, and the cards a frame holds in the open. Cards another seat has picked so far in a
discard action under way are a random subset of that seat's dealt hand.

Whom the engine asks is public (`Observation.current_player`): a deal where the decision on
top of the stack would not rest with that seat is redrawn (rejection sampling).

Limit: an observation is a snapshot; cards the seat saw earlier and no longer sees (a card
another seat drew from a known place) are not remembered.
"""
from __future__ import annotations

from .observation import FRAME_TYPES, Observation
from .state import Creature, State
from .turn import Discard, blank_state

__all__ = ["sample_state", "unseen_cards"]

#: deals tried before giving up on one that rests at the observed decision
MAX_TRIES = 1000


def _open_cards(obs: Observation) -> list:
    """Every card the observation shows in a definite place."""
    seen = list(obs.hand) + list(obs.discard_pile)
    for crs in obs.creatures:
        for cards, seal in crs:
            seen += cards
            if seal >= 0:
                seen.append(seal)
    for t in obs.frames:
        cls = FRAME_TYPES[t[0]]
        seen += _held(cls, t)
    return seen


def _held(cls, t: tuple) -> list:
    """Cards a frame holds in the open (a Herald's turned-over cards)."""
    if cls.__name__ != "HeraldPlacement":
        return []
    names = list(_field_names(cls))
    v = t[1 + names.index("revealed")]
    return list(v[1])


def _field_names(cls) -> tuple:
    return tuple(name for c in reversed(cls.__mro__) for name in getattr(c, "__slots__", ()))


def unseen_cards(obs: Observation) -> list:
    """The card ids the seat cannot place (sorted)."""
    pool = set(range(len(obs.rules.table.cards)))
    for c in _open_cards(obs):
        if c not in pool:
            raise ValueError(f"observation shows card {c} twice or out of range: {obs!r}. "
                             "Reproduce with nightsim.observe(state, player) on that state")
        pool.remove(c)
    return sorted(pool)


def sample_state(observation: Observation, rng) -> State:
    """A full state whose `observe(state, observation.player)` equals `observation`, the unseen
    cards dealt uniformly at random with `rng` (a numpy Generator)."""
    obs = observation
    if not isinstance(obs, Observation):
        raise ValueError(f"sample_state needs a nightsim.Observation, got {type(obs).__name__}")
    if obs.decision == "game over":
        raise ValueError("sample_state: the game is over; nothing to search. "
                         "Reproduce with nightsim.observe(state, player) on a live state")
    pool = unseen_cards(obs)
    for _ in range(MAX_TRIES):
        s = _deal(obs, pool, rng)
        top = s.stack[-1]
        # (the turn frame alone rests with the turn player whatever the deal: a draw is always legal)
        if len(s.stack) > 1 and (top.seat != obs.current_player or not top.legal(s)):
            continue
        s.current_player = obs.current_player
        return s
    raise ValueError(f"sample_state: no deal in {MAX_TRIES} rests at {obs.decision!r} with seat "
                     f"{obs.current_player}: {obs!r}. Reproduce with nightsim.observe(state, player) on that state")


def _deal(obs: Observation, pool: list, rng) -> State:
    me, rules = obs.player, obs.rules
    n = obs.n_players
    s = blank_state(rules, False, obs.turn_player)
    s.current_player = obs.current_player
    s.actions_left, s.turn_legion, s.turns = obs.actions_left, obs.turn_legion, obs.turns
    s.creatures = [[Creature(list(cards), seal) for cards, seal in crs] for crs in obs.creatures]
    s.creatures_changed()
    s.discard = list(obs.discard_pile)
    rest = [pool[int(i)] for i in rng.permutation(len(pool))]
    for q in range(n):
        if q == me:
            s.hands[q] = list(obs.hand)
        else:
            k = obs.hand_sizes[q]
            s.hands[q] = rest[:k]
            del rest[:k]
    if len(rest) != obs.deck_size:
        raise ValueError(f"sample_state: {len(rest)} cards left for a deck of {obs.deck_size}: {obs!r}. "
                         "Reproduce with nightsim.observe(state, player) on that state")
    s.deck = rest
    s.stack += [_frame(s, t, rng) for t in obs.frames]
    return s


def _decode(s: State, x):
    if isinstance(x, tuple) and x and isinstance(x[0], str):
        tag = x[0]
        if tag == "C":
            return s.creatures[x[1]][x[2]]
        if tag == "K":
            return Creature(list(x[1]), x[2])
        if tag == "L":
            return list(x[1])
    return x


def _frame(s: State, t: tuple, rng):
    cls = FRAME_TYPES[t[0]]
    f = object.__new__(cls)
    for name, v in zip(_field_names(cls), t[1:]):
        if cls is Discard and name == "picked" and isinstance(v, tuple) and v and v[0] == "H":
            hand = s.hands[f.seat]  # another seat's picks: a random subset of its hand, in random order
            v = [hand[int(i)] for i in rng.permutation(len(hand))[:v[1]]]
        setattr(f, name, _decode(s, v))
    return f
