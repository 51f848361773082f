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

`tuned` is `heuristic` with the weights `balancelab tune-policy dreamsim` found; they and their
provenance are stored in `data/tuned.json` (written by `analyses.tune`; `TUNING` declares the
search space, `with_params` applies a search point).
"""
from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from simcore.policies import weight_tuning

from ..engine import board
from .belief import ReactionBelief
from .context import Weights
from .heuristic import BALANCED, HORROR, RUNNER, TRICKSTER, HeuristicPolicy
from .random import RandomPolicy
from .value import PlanValue


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

# --- tuning (analyses/tune.py): the search space as data, and the stored `tuned` policy ----------
TUNING = MappingProxyType({   # read-only
    "start": "heuristic",   # the shipped heuristic a search starts from by default (BALANCED)
    "players": 2,           # head-to-head games, seats rotated
    "space": (
        {"name": "weights.progress", "low": 2.0, "high": 20.0, "step": 0.5},
        {"name": "weights.hinder", "low": 0.0, "high": 10.0, "step": 0.5},
        {"name": "weights.block_walk", "low": 0.0, "high": 10.0, "step": 0.5},
        {"name": "weights.respond_cost", "low": 0.0, "high": 16.0, "step": 0.5},
        {"name": "weights.shed", "low": 0.0, "high": 80.0, "step": 2.0},
        {"name": "weights.trap", "low": -2.0, "high": 6.0, "step": 0.5},
        {"name": "weights.trap_star_bridge", "low": 0.0, "high": 40.0, "step": 2.0},
        {"name": "weights.trap_walk_bridge", "low": 0.0, "high": 30.0, "step": 2.0},
        {"name": "weights.spring_min", "low": 0.0, "high": 12.0, "step": 0.5},
        {"name": "weights.dutch_extra", "low": -6.0, "high": 2.0, "step": 0.5},
        {"name": "weights.dutch_reduce", "low": 0.0, "high": 6.0, "step": 0.5},
        {"name": "weights.steal", "low": 0.0, "high": 4.0, "step": 0.5},
        {"name": "weights.capture", "low": 0.0, "high": 12.0, "step": 0.5},
        {"name": "weights.paralyse", "low": 0.0, "high": 20.0, "step": 0.5},
        {"name": "weights.avoid_horror", "low": 0.0, "high": 50.0, "step": 1.0},
        {"name": "weights.need_walk", "low": 0.0, "high": 3.0, "step": 0.25},
        {"name": "weights.need_star", "low": 0.0, "high": 5.0, "step": 0.25},
        {"name": "weights.need_vertigo", "low": 0.0, "high": 6.0, "step": 0.25},
        {"name": "weights.waste", "low": -8.0, "high": 0.0, "step": 0.5},
        {"name": "weights.star_value", "low": 0.0, "high": 12.0, "step": 0.5},
        {"name": "weights.walk_value", "low": 0.0, "high": 8.0, "step": 0.5},
        {"name": "weights.vertigo_value", "low": 0.0, "high": 6.0, "step": 0.5},
        {"name": "weights.dig", "low": 0.0, "high": 3.0, "step": 0.25},
    ),
})
TUNED_FILE = Path(__file__).parents[1] / "data" / "tuned.json"

#: with_params(policy, params, name=None): a HeuristicPolicy with {"weights.hinder": 5.0, ...} set;
#: load_tuned(path=TUNED_FILE): the stored tuned policy (simcore.policies.weight_tuning)
with_params, load_tuned = weight_tuning(HeuristicPolicy, "dreamsim", POLICIES, TUNED_FILE)
if TUNED_FILE.exists():
    POLICIES["tuned"] = load_tuned()

#: value estimates for a search's rollout cut-off, by name (`ismcts:N:cutoff=K:value=plan`): factories, so
#: that every search owns its estimate's caches
SEARCH_VALUES = MappingProxyType({"plan": PlanValue})
#: belief models for a search's determinisations, by name (`ismcts:N:belief=reactions`): factories, one belief
#: per seat and game (dreamsim/policies/belief.py: who was asked, or passed over, in a reaction window)
SEARCH_BELIEFS = MappingProxyType({"reactions": ReactionBelief})
#: the default search (`ismcts:default` in a policy list, analyses.search.ismcts.default_spec): the root's
#: top 3 actions by the heuristic's scores, compared on common random numbers over 200 rollouts of `tuned`
#: cut off after 6 decisions with the plan-cost value. On the same 52 deals against `heuristic`, seats rotated
#: (benchmarks/studies/bench_dreamsim_paired.py, README.md "Search"): 57.7% like the same search to the end at
#: 100 rollouts and like `tuned` alone, at a third of its CPU (1.1 s a game, max 6.1 s), where plain
#: `ismcts:100` won 29.8% (3.7 s, max 21.5 s); over 102 fresh deals 58.8% [52.0, 65.4] (`tuned` 58.3%).
#: With the belief `reactions` (dreamsim/policies/belief.py: the determinisations respect who was asked or passed over in
#: reaction windows), on deals 1000-1199 against `heuristic`, seats rotated: 244/400 = 61.0% [56.1, 65.7]
#: where the same search without it won 230/400 = 57.5% [52.6, 62.3] (paired per deal +0.035 [-0.012, +0.082],
#: not significant), CPU 1.17 s a game, max 8.1 s (README.md "Search"). The confirmation fixed in advance (
#: deals 9000-9199, 400 games): 253/400 = 63.2% [58.4, 67.8], CPU 1.78 s a game at load 6-9, max 17.7 s (1 game > 10 s).
#: `gamecap=80`: at most 80 searched decisions per game and seat, then `tuned`'s own choice, a
#: deterministic bound on a long game's CPU; it leaves every game of that confirmation as it was (88 heaviest
#: re-played, the rest cannot reach the cap) and its longest game 17.7 s -> 5.8 s (README.md "A bound on long games")
_SEARCH = "ismcts:200:paired=1:z=0:topk=3:rollout={}:cutoff=6:value=plan:gamecap=80:belief=reactions"
SEARCH_DEFAULT = _SEARCH.format("tuned" if "tuned" in POLICIES else "heuristic")

__all__ = ["RandomPolicy", "HeuristicPolicy", "Weights", "RUNNER", "TRICKSTER", "HORROR", "BALANCED", "POLICIES",
           "clear_caches", "TUNING", "with_params", "load_tuned", "SEARCH_DEFAULT", "SEARCH_VALUES", "SEARCH_BELIEFS",
           "PlanValue"]
