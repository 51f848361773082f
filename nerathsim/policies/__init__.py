"""Policies: `policy(observation, legal_actions, rng) -> action`.

`RandomPolicy` picks uniformly among the legal actions (aimless; its games end at the round cap
or when someone stumbles to the VP target). Every war-game heuristic is one `WarPolicy`, a
frozen record of numbers analyses can sweep (`dataclasses.replace(BALANCED, attack_threshold=0.6)`):

* it plans a whole phase at its first decision (movement: which regions to attack with which
  units, where the rest go, which warships carry whom; reinforcements: what to buy and where)
  and emits the plan step by step from `observation.memo`;
* it picks fights and retreats with battle odds: a calibrated cheap estimate (the Lanchester
  ratio of expected hits x hits to absorb, through a logistic fitted to the exact solver: mean
  error 3 points) screens every candidate, and `battle_odds` (exact, remembered by army
  composition in the policy object's own `odds_cache`) decides the borderline ones;
* `Purchase` is the buying strategy: a weight per unit type (0 = never buys it), so analyses can
  compare unit mixes in real games (`Purchase.without("dragon")`).

`aggressive`, `defensive` and `balanced` differ only in their numbers.

A policy sees only its observation and the legal actions: nothing here imports the engine; the
phase is `observation.phase` (a `nerathsim.phases.Phase`). Battle maths is not the engine and is
used freely (`battle.ingame` side tables, `dungeons` fight chances, `battle.odds.battle_odds`).

Modules: `war` (WarPolicy: dispatch and plans), `decisions` (hits, fight order, press/retreat,
amok, cards), `planner` (what the board says: front, threat, defence), `movement` and
`reinforcements` (the phase plans), `estimates` (battle odds and the policy's `OddsCache`),
`purchase` (Purchase), `random_policy` (RandomPolicy), `tuning` (the search space of
`balancelab tune-policy`, `with_params`, and the stored `tuned` policy, `data/tuned.json`).

Caches: none in these modules. Each WarPolicy keeps its exact odds in its own `odds_cache`
(bounded, emptied when pickled). The battle maths they call keep bounded `functools.lru_cache`s
on pure functions of immutable values (`dungeons.fight_chance`, `expected_chance`,
`dungeon_rules`; the exact solver's tables in `battle.exact`) and `battle.ingame`'s per-BattleRules
side tables (derived data of a frozen rules object, held by weak reference): the same answer for
the same arguments whatever was asked before, so they change no decision.
"""
from __future__ import annotations

from .decisions import take_hit
from .estimates import OddsCache, exact_odds, quick_odds
from .purchase import Purchase
from .random_policy import RandomPolicy
from .tuning import TUNED_FILE, TUNING, load_tuned, param_value, with_params, with_realm_params
from .war import WarPolicy

RANDOM = RandomPolicy()
BALANCED = WarPolicy(name="balanced")
AGGRESSIVE = WarPolicy(name="aggressive", attack_threshold=0.55, retreat_below=0.15, garrison=0, defend=0.2,
                       max_attackers=16,
                       purchase=Purchase(weights=(("footsoldier", 3.0), ("siege_engine", 3.0), ("fighter", 1.0),
                                                  ("wizard", 1.0), ("monster", 2.0), ("storm_elemental", 0.5),
                                                  ("dragon", 1.5), ("warship", 0.5))))
DEFENSIVE = WarPolicy(name="defensive", attack_threshold=0.85, retreat_below=0.45, garrison=2, defend=0.8,
                      amphibious=False, naval=False,
                      purchase=Purchase(weights=(("footsoldier", 6.0), ("siege_engine", 1.0), ("fighter", 1.0),
                                                 ("wizard", 1.0), ("monster", 1.0), ("dragon", 0.5)), ships=0))

POLICIES = {
    "random": RANDOM,
    "balanced": BALANCED,
    "aggressive": AGGRESSIVE,
    "defensive": DEFENSIVE,
}
if TUNED_FILE.exists():  # `tuned`: balanced with the parameters `balancelab tune-policy nerath` found
    POLICIES["tuned"] = load_tuned(POLICIES)

#: the default search (`ismcts:default` / `macro:default` in a policy list; analyses.search.macro.parse_macro):
#: the macro search at 16 rollouts per macro decision over `tuned`'s candidate plans, `tuned` in the
#: rollouts, cut off at the end of the next round. 16 keeps a short game within 60 s of CPU on one core with
#: margin in both modes (benchmarks/studies/bench_ismcts.py; README.md "Search": ismcts:24 took up to 68 s in a
#: free-for-all game on a loaded machine, CPU cost is about linear in the rollouts)
SEARCH_DEFAULT = "ismcts:16:base=tuned" if "tuned" in POLICIES else "ismcts:16:base=balanced"

__all__ = [
    "POLICIES", "RANDOM", "BALANCED", "AGGRESSIVE", "DEFENSIVE", "WarPolicy", "Purchase", "RandomPolicy",
    "OddsCache", "quick_odds", "exact_odds", "take_hit", "TUNING", "with_params", "with_realm_params",
    "param_value", "SEARCH_DEFAULT",
]
