"""Macro decisions for search: Nerath turns are long, so a search chooses among the
heuristic's own candidate plans instead of unit by unit.

At three kinds of decision a `WarPolicy` can offer a short list of whole alternatives, each a
`MacroChoice` built from its own planner:

* the first decision of the movement phase: the phase plan (attacks, landings, dungeon raids,
  redeployment) made by variants of the policy's numbers (`MOVE_VARIANTS`: as is, cautious, bold,
  all-out, hold the line, no dungeons, raid dungeons);
* the first decision of the reinforcement purchase: the purchase made with other unit mixes
  (`BUY_VARIANTS`: as is, infantry, siege, heroes, monsters, fleet);
* press on or retreat in a battle (the policy's own retreat destination).

Candidates whose plans come out the same are merged; the policy's own choice is always first.
`commit_macro` makes the policy follow a choice (a plan goes into the seat's notebook, so the
policy emits it step by step, as it does its own plans); `commit_in_state` does the same on a
full state (a determinisation), and `playout` plays a state on with the given policies, to the end
or to a round. `standing(state)` is a rollout's value per seat (a win, and the share of seats finished
ahead of: `rank_share`), also for cut-off rollouts.

Search itself lives in `analyses.search.macro` (the simulators never import analyses).
"""
from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

from . import engine as E
from .game import LegalActions, run
from .game_actions import PressOn, RetreatTo
from .observation import Observation
from .phases import Phase
from .policies import WarPolicy
from .policies.decisions import press_or_retreat

__all__ = ["MacroChoice", "MOVE_VARIANTS", "BUY_VARIANTS", "macro_candidates", "commit_macro",
           "commit_in_state", "playout", "standing", "rank_share"]


class MacroChoice(NamedTuple):
    """One alternative at a macro decision: `plan` (the actions of a phase plan, in order) or
    `action` (a one-step decision such as PressOn / RetreatTo); `label` says which variant made it."""

    label: str
    plan: tuple | None = None
    action: Any = None

    def __repr__(self):
        what = f"{len(self.plan)} actions" if self.plan is not None else repr(self.action)
        return f"MacroChoice({self.label!r}, {what})"


def _clamp(x: float, lo: float = 0.05, hi: float = 1.01) -> float:
    return round(min(hi, max(lo, x)), 4)


#: movement-phase variants: (label, function of the policy -> changed fields)
MOVE_VARIANTS = (
    ("as is", lambda p: {}),
    ("cautious", lambda p: {"attack_threshold": _clamp(p.attack_threshold + 0.15)}),
    ("bold", lambda p: {"attack_threshold": _clamp(p.attack_threshold - 0.15), "max_attackers": p.max_attackers + 6}),
    ("all-out", lambda p: {"attack_threshold": _clamp(p.attack_threshold - 0.15), "garrison": 0, "defend": 0.0,
                           "hold_regions": False, "max_attackers": p.max_attackers + 6}),
    ("hold", lambda p: {"attack_threshold": _clamp(p.attack_threshold + 0.3), "defend": 0.8}),
    ("no dungeons", lambda p: {"explore": False}),
    ("raid dungeons", lambda p: {"explore": True, "explore_threshold": _clamp(p.explore_threshold - 0.2)}),
)

#: purchase variants: (label, function of the policy's Purchase -> the Purchase to use)
BUY_VARIANTS = (
    ("as is", lambda pu: pu),
    ("infantry", lambda pu: dataclasses.replace(pu, weights=(("footsoldier", 6.0), ("siege_engine", 2.0)))),
    ("siege", lambda pu: dataclasses.replace(pu, weights=(("siege_engine", 5.0), ("footsoldier", 2.0)))),
    ("heroes", lambda pu: dataclasses.replace(pu, weights=(("fighter", 3.0), ("wizard", 3.0), ("footsoldier", 1.0)))),
    ("monsters", lambda pu: dataclasses.replace(pu, weights=(("monster", 3.0), ("dragon", 2.0),
                                                             ("footsoldier", 1.0)))),
    ("fleet", lambda pu: dataclasses.replace(pu, ships=2, weights=(("warship", 3.0), ("footsoldier", 2.0),
                                                                   ("fighter", 1.0)))),
)


def _variant(policy: WarPolicy, changes: dict) -> WarPolicy:
    if not changes:
        return policy
    v = dataclasses.replace(policy, **changes)
    object.__setattr__(v, "odds_cache", policy.odds_cache)    # same answers, shared work
    return v


def macro_candidates(policy, obs: Observation, legal, rng) -> list:
    """The alternatives `policy` offers at this decision ([] when it is not a macro decision, or the
    policy is not a WarPolicy). The first is the policy's own choice; plans that come out the same
    are merged (the first label kept)."""
    if not isinstance(policy, WarPolicy) or len(legal) < 1:
        return []
    policy = policy.for_realm(obs.realm)
    ph = obs.phase
    if ph == Phase.PRESS:
        return _press_candidates(policy, obs, legal)
    if ph not in (Phase.MOVE, Phase.BUY) or not policy.planning(obs):
        return []
    if ph == Phase.MOVE:
        variants = [(label, _variant(policy, f(policy))) for label, f in MOVE_VARIANTS]
    else:
        variants = [(label, _variant(policy, {"purchase": f(policy.purchase)} if label != "as is" else {}))
                    for label, f in BUY_VARIANTS]
    out, seen = [], set()
    for label, pol in variants:
        plan = tuple(pol.phase_plan(obs, rng))
        if plan in seen:
            continue
        seen.add(plan)
        out.append(MacroChoice(label, plan=plan))
    return out


def _press_candidates(policy, obs, legal) -> list:
    retreats = [a for a in legal if isinstance(a, RetreatTo)]
    presses = [a for a in legal if isinstance(a, PressOn)]
    if not retreats or not presses:
        return []
    own = press_or_retreat(policy, obs, legal)
    if isinstance(own, PressOn):
        fleeing = dataclasses.replace(policy, retreat_below=1.01, flee_below=1.01)
        other = press_or_retreat(fleeing, obs, legal)
        return [MacroChoice("press on", action=own), MacroChoice("retreat", action=other)]
    return [MacroChoice("retreat", action=own), MacroChoice("press on", action=presses[0])]


def commit_macro(policy, obs: Observation, choice: MacroChoice, legal, rng):
    """Make `policy` follow `choice` from this decision on (this phase) and return this decision's action."""
    if choice.plan is not None:
        policy.adopt_plan(obs, choice.plan)
        return policy(obs, legal, rng)
    return choice.action


def commit_in_state(state: E.State, policy, choice: MacroChoice, rng) -> None:
    """Apply `choice` to a full state at the decision it was made for (seat `state.current_player`,
    played by `policy`): the plan goes into that seat's notebook and its first action is applied."""
    p = state.current_player
    obs = Observation(state, p)
    a = commit_macro(policy, obs, choice, LegalActions.of(obs), rng)
    E.apply_action(state, a, rng)


def playout(state: E.State, policies, rng, until_round: int | None = None) -> E.State:
    """Play `state` on (in place) with one policy per seat until the game ends or, with `until_round`,
    until `state.round` reaches it (rounds completed). Chance and the policies share `rng`. The game's
    own loop (`game.run`), so a rollout plays exactly as `play_game` does, at its speed."""
    return run(state, list(policies), rng, [rng] * len(policies), until_round)


def standing(state: E.State) -> list:
    """A value per seat in [0, 1]: half for winning, half for the share of the other seats it
    finishes ahead of (`rank_share`). In a game not yet over (a cut-off rollout) the rank share alone,
    by VP plus the gold worth of the units on the board (10 gold counted as 1 VP)."""
    w = state.winner
    seats = () if w is None else (w if isinstance(w, tuple) else (w,))
    if state.is_terminal:
        return [0.5 * (q in seats) + 0.5 * r for q, r in enumerate(rank_share(state))]
    return rank_share(state)


def rank_share(state: E.State) -> list:
    """Per seat: the share of the other seats it finishes ahead of (ties count half). The winner(s)
    first; then by VP, and in a game not yet over by VP plus army worth (10 gold = 1 VP)."""
    w = state.winner
    won = () if w is None else (w if isinstance(w, tuple) else (w,))
    cost = state.tab.cost
    seating = state.rules.seating
    worth = [0.0] * 4
    if not state.is_terminal:
        for p in range(4):
            worth[p] = 0.1 * sum(c * cost[u] for u, c in enumerate(state.total_units(p)))
    key = [(q in won, sum(state.vp[p] + worth[p] for p in realms)) for q, realms in enumerate(seating)]
    n = len(key)
    if n < 2:
        return [1.0] * n
    return [(sum(1.0 if key[q] > key[o] else 0.5 if key[q] == key[o] else 0.0 for o in range(n) if o != q))
            / (n - 1) for q in range(n)]
