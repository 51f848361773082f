"""Policies: `policy(observation, legal_actions, rng) -> action`.

`RandomPolicy` picks uniformly. Every heuristic is one `HeuristicPolicy` scoring each legal
action with a frozen `Weights` record; `runner`, `trickster`, `horror` and `heuristic` are
weight sets, and analyses can sweep any weight (`dataclasses.replace(RUNNER, progress=5.0)`).

The heuristic's model of the game is a *plan cost*: the number of actions a player still
needs to win, counted from the board and the hand:

* a Midnighter walks to the Bridge (or to the Forest, then a Midnight Star teleports it) and
  plays a Midnight Star there; holding a nightmare (or under the Blue Nightmare) it first goes
  to a place that gets rid of it — the Town Hall, the Square, the Motel — and activates it;
* the Midnight Horror walks to the Town Hall and plays a Midnight Star there;
* where an arrow is missing, a Vertigo turns the location first (one more action);
* every Dreamwalk, Midnight Star or Vertigo the plan needs and the hand lacks costs
  `need_walk` / `need_star` / `need_vertigo` actions more (digging for it).

An action is worth the change it makes to `value()`: `progress` per action of my plan saved,
`hinder` per action of the leading rival's route lost (the rival closest to winning, from
what is public: the board and where everyone stands), plus small terms (standing with the
Horror, card values). Drawing is valued by its expectation over the deck. Distances come
from the policy's own `Memo` (a `board.Boards` table), which builds each board's breadth-first
distances once and keeps them, so scoring every candidate of a decision costs a few table
look-ups. Every cache belongs to one policy object (`policy.memo`); none is module-level.
"""
from __future__ import annotations

from . import board
from .policy_context import _P_DRAW, Weights
from .policy_heuristic import BALANCED, HORROR, RUNNER, TRICKSTER, HeuristicPolicy
from .policy_plan import (
    _BLOCKED,
    _INF,
    Memo,
    key_add,
    key_free,
    key_id,
    key_strict,
    lead_cost,
    plan_cost,
    public_cost,
    route,
)
from .policy_random import RandomPolicy
from .policy_scoring import _CYCLES, _SCORE, _Context, play_threat


def clear_caches() -> None:
    """Forget every board, plan cost and hand profile the shipped heuristics (`POLICIES`) keep in
    their memos, and the boards `board.walk_graph` keeps (memory; tests). Each HeuristicPolicy
    owns its caches (`policy.memo`); other policy objects clear theirs with `policy.memo.clear()`."""
    board._GRAPHS.clear()
    for pol in POLICIES.values():
        if isinstance(pol, HeuristicPolicy):
            pol.memo.clear()


POLICIES = {
    "random": RandomPolicy(),
    "runner": HeuristicPolicy(RUNNER, "runner"),
    "trickster": HeuristicPolicy(TRICKSTER, "trickster"),
    "horror": HeuristicPolicy(HORROR, "horror"),
    "heuristic": HeuristicPolicy(BALANCED, "heuristic"),
}

__all__ = ["RandomPolicy", "HeuristicPolicy", "Weights", "RUNNER", "TRICKSTER", "HORROR", "BALANCED", "POLICIES",
           "clear_caches", "route", "plan_cost", "public_cost", "lead_cost", "play_threat", "key_id", "key_add",
           "key_strict", "key_free", "Memo"]
# the heuristic's internals, importable from here as before the split (tests and tools reach them)
_INTERNALS = (_P_DRAW, _Context, _CYCLES, _SCORE, _BLOCKED, _INF)
