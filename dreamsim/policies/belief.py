"""A belief over the other hands for search: facts one seat infers from whom the engine asks.

`sample_state` deals the unseen cards uniformly over the deals consistent with ONE observation.
A player who watches the table knows more: the engine asks a seat in a reaction window exactly
when it holds a Dutch Angle or a Dreamcatcher (`reactions.ReactionWindow`, `turn._start_play`),
so after my card play

* a seat that is asked holds one of them (a *positive* fact, kept while it only answers Allow);
* a seat that is passed over (my play resolves without asking it) holds neither (a *negative*
  fact: the cards it held then contain no Dutch Angle and no Dreamcatcher).

`ReactionBelief` keeps such facts about the other seats from the observations its seat sees at
EVERY decision (`see`, which `dreamsim.play_game` calls through a chooser's `watch` for the
decisions of other seats) and its own actions (`acted`). Nothing else is read: only what that seat
may know. A fact is (seat, kinds R, m, positive): among m cards of that seat's current hand (the
"old" ones, still held since the fact was made; the others were drawn or received later) none
(negative) / at least one (positive) is of a kind in R. Between two observations the cards a seat
may have lost are bounded from what is public (its hand size, the deck size, the cards that left
my hand); m shrinks by that bound (a negative fact), or the fact is dropped (a positive one, or
anything the bound cannot account for: a reshuffle, a take at the Square or the Motel).

`sample_state(observation, rng)` draws `determinize.sample_state` deals and accepts one with
probability the product over facts of P(a uniformly chosen m-subset of that seat's sampled hand
avoids R) (negative: C(h - r, m) / C(h, m), r = cards of R in the hand of h) or 1 minus it
(positive): rejection sampling from the uniform deal conditioned on the facts, exact when every
fact has m = h (nothing drawn since), and treating which cards are old as unknown otherwise. After
`MAX_TRIES` refusals it returns the likeliest deal it drew. Every returned state is one of
`sample_state`'s, so it is consistent with the observation.

Limits: facts are kept in 2-player games only (with three or more, a Purple Nightmare may pass two
other seats' hands without any trace in my observation); in 2 players a Purple Nightmare that swaps
two hands of nearly the same cards can go unnoticed (its effect is public at the table but not in
the observation), so a fact may rarely be false: the sampler then keeps the likeliest of its deals.
Checked in `tests/dreamsim/test_dreamsim_belief.py` (no fact ever excludes the true hand in those
games; 1 fact false in 1,600 two-player games of heuristic, random, runner and trickster play).
It needs the observation at EVERY decision: fed only at its own (a game loop that does not call a
chooser's `watch`), it would take a seat that was asked and allowed for one passed over.
`dreamsim.play_game` (and so `analyses.simulate`) calls `watch`.
Measured: dreamsim/README.md, "Search".

    b = ReactionBelief(); b.see(obs0); b.acted(obs0, action); b.see(obs1)   # ... then
    state = b.sample_state(obs1, rng)
"""
from __future__ import annotations

from collections import Counter
from math import comb

from ..engine.actions import (
    Cancel,
    Discard,
    DutchExtra,
    DutchReduce,
    Give,
    Intercept,
    Mix,
    SetTrap,
    Star,
    Steal,
    Take,
    TrapPartner,
    VertigoOp,
    Walk,
)
from ..engine.actions import Vertigo as VertigoAction
from ..engine.cards import CATCHER, DREAMWALK, DUTCH, STAR, SUSPENSE_OF, VERTIGO
from ..engine.determinize import sample_state as uniform_sample_state
from ..engine.observation import Observation

__all__ = ["ReactionBelief", "Fact", "REACTION_KINDS", "MAX_TRIES", "fact_weight"]

REACTION_KINDS = frozenset((DUTCH, CATCHER))
#: deals drawn for one sample before the likeliest of them is taken
MAX_TRIES = 64
#: decision names (Frame.decision) after which a seat's gains may come from the discard pile or a third
#: hand, which the bound on its lost cards cannot see: its facts are dropped
_OPAQUE = frozenset(("Square: take from the discard pile", "Motel: take a card", "Restaurant option"))
_REACTION = "reaction"
#: my actions that may bring cards into my hand from elsewhere than the deck, and how many at most
_NONDECK = {Steal: 1, Take: 1, Intercept: 2}


class Fact:
    """Among `m` cards of `seat`'s hand none (positive=False) / at least one (True) is of a kind in `kinds`."""

    __slots__ = ("seat", "kinds", "m", "positive")

    def __init__(self, seat: int, kinds: frozenset, m: int, positive: bool):
        self.seat, self.kinds, self.m, self.positive = seat, kinds, m, positive

    def __repr__(self):
        return f"Fact(seat={self.seat}, kinds={sorted(self.kinds)}, m={self.m}, positive={self.positive})"


def fact_weight(fact: Fact, hand) -> float:
    """P(the fact holds | the seat holds `hand`), the m old cards a uniform m-subset of the hand."""
    h = len(hand)
    m = min(fact.m, h)
    if m <= 0:
        return 0.0 if fact.positive else 1.0
    r = sum(1 for k in hand if k in fact.kinds)
    avoid = comb(h - r, m) / comb(h, m)
    return 1.0 - avoid if fact.positive else avoid


def _cards_out(action) -> tuple:
    """The cards `action` takes out of its chooser's own hand (the face-up or own-known ones)."""
    t = type(action)
    if t is Walk:
        return (DREAMWALK,)
    if t is Star:
        return (STAR,)
    if t is SetTrap:
        return (SUSPENSE_OF[action.location],)
    if t in (TrapPartner, Discard, Give):
        return (action.kind,)
    if t in (DutchExtra, DutchReduce, Cancel):
        return (DUTCH,)
    if t in (Steal, Intercept):
        return (CATCHER,)
    if t is VertigoAction:
        return (VERTIGO,)
    return ()


def _starts_play(action, obs: Observation) -> bool:
    """Whether `action` (chosen at `obs`) puts a card play into a reaction window right away."""
    t, decision = type(action), obs.decision
    if t in (Walk, Star, DutchExtra, DutchReduce, Steal):
        return decision == "turn action"
    if t is VertigoOp:   # the Vertigo card's operation (a sprung Vertigo trap's is no card play)
        return decision == "Vertigo operation"
    return t is TrapPartner and decision == "trap partner card" and obs.rules.cancel_trap_setting


class ReactionBelief:
    """Facts about the other seats' Dutch Angles and Dreamcatchers from one seat's observation history
    (module docstring). One object per seat and game (`ISMCTSPolicy.for_game` makes it)."""

    def __init__(self):
        self.facts: list[Fact] = []
        self.prev: Observation | None = None
        self.my_action = None       # my action at `prev`, when I decided there
        self.pending = None         # (observation, action): my card play whose reaction window is not seen yet

    # --- updating --------------------------------------------------------------------------
    def acted(self, obs: Observation, action) -> None:
        """My seat chose `action` at `obs` (call after `see(obs)`)."""
        self.my_action = action
        if obs.controller < 0 and _starts_play(action, obs):
            self.pending = (obs, action)

    def see(self, obs: Observation) -> None:
        """The seat's observation at the next decision of the game (any seat's)."""
        if obs.decision == "game over":
            return
        if obs.n_players != 2:   # with three or more, a Purple Nightmare may pass the others' hands unseen
            return
        prev, me = self.prev, obs.player
        if self.pending is not None:   # my card play at `prev`: who was asked to answer it
            pobs, _ = self.pending
            self.pending = None
            if pobs is prev or pobs == prev:
                asked = obs.current_player if obs.decision == _REACTION and not obs.context.get("responses") else -1
                for q in [(me + i) % obs.n_players for i in range(1, obs.n_players)]:
                    if q == asked:
                        break
                    self._add(Fact(q, REACTION_KINDS, prev.hand_sizes[q], False))
        if prev is not None and prev.player == me and prev.turns <= obs.turns:
            self._advance(prev, obs)   # ages the facts over the step from prev to obs (the new ones too)
        else:
            self.facts = []
        self.prev, self.my_action = obs, None
        q = obs.current_player
        if obs.decision == _REACTION and q != me:
            responses = obs.context.get("responses") or ()
            kinds = frozenset((responses[-1][1],)) if responses else REACTION_KINDS
            self._add(Fact(q, kinds, obs.hand_sizes[q], True))

    def _add(self, fact: Fact) -> None:
        if fact.m <= 0:
            return
        for f in self.facts:
            if f.seat == fact.seat and f.kinds == fact.kinds and f.positive == fact.positive:
                f.m = max(f.m, fact.m)
                return
        self.facts.append(fact)

    def _advance(self, prev: Observation, obs: Observation) -> None:
        """Age the facts over one step of the game (the decision at `prev` was taken)."""
        if not self.facts:
            return
        if obs.deck_size > prev.deck_size or obs.reserve_size != prev.reserve_size or prev.controller >= 0:
            self.facts = []   # a reshuffle or the nightmares shuffled in (the draws cannot be counted), or a
            return            # captured turn (its controller plays the victim's hand)
        me, decider = obs.player, prev.current_player
        drawn = prev.deck_size - obs.deck_size
        mine_before, mine_after = Counter(prev.own_hand), Counter(obs.own_hand)
        gained_mine = sum((mine_after - mine_before).values())
        lost_mine = mine_before - mine_after
        if decider == me and self.my_action is not None:
            if type(self.my_action) is Mix:
                self.facts = []   # the Restaurant mixed the hands
                return
            lost_mine -= Counter(_cards_out(self.my_action))
        if +lost_mine:   # my cards left my hand other than by my own play (taken, mixed, passed by a Purple
            self.facts = []  # Nightmare): the other hands may hold them now
            return
        # cards I may have gained from elsewhere than the deck (so that my draws are at least gained - nondeck)
        if decider == me:
            nondeck = _NONDECK.get(type(self.my_action), 0)
        else:
            nondeck = 1 if prev.decision == "surplus card" else 0   # a Motel surplus given to me
        keep = []
        for f in self.facts:
            q = f.seat
            if decider == q and prev.decision in _OPAQUE:
                continue
            draws = max(0, drawn - max(0, gained_mine - nondeck))   # at most: the deck draws that were not mine
            change = prev.hand_sizes[q] - obs.hand_sizes[q] + draws
            if f.positive:   # kept only while nothing of that seat's hand may have moved
                if change or draws or obs.owed[q] != prev.owed[q]:
                    continue
            else:   # a seat answering may take a card in play (an interception): it hides a loss
                taken = len(prev.limbo) if decider == q and prev.decision == _REACTION else 0
                f.m -= max(0, change + taken, obs.owed[q] - prev.owed[q])
            f.m = min(f.m, obs.hand_sizes[q])
            if f.m > 0:
                keep.append(f)
        self.facts = keep

    # --- sampling --------------------------------------------------------------------------
    def weight(self, state) -> float:
        w = 1.0
        for f in self.facts:
            w *= fact_weight(f, state.hands[f.seat])
        return w

    def sample_state(self, observation: Observation, rng):
        """A deal of `determinize.sample_state`, accepted with probability `weight` (the facts' likelihood)."""
        if not self.facts:
            return uniform_sample_state(observation, rng)
        best, best_w = None, -1.0
        for _ in range(MAX_TRIES):
            s = uniform_sample_state(observation, rng)
            w = self.weight(s)
            if w >= 1.0 or (w > 0 and rng.random() < w):
                return s
            if w > best_w:
                best, best_w = s, w
        return best
