"""Step 3 of the seed's battle procedure, "Take damage": who takes the hits (the reference
implementation; part 3 of 4, see `army`).

Seed: "Du bestemmer, hvilken af dine tropper, der rammes". A side's choice is a `CasualtyOrder`
(a priority list of unit names) resolved into a fixed `CasualtyPlan` for the whole battle, or
any callable(army, hits, situation) -> Army (`CasualtyChoice`).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .army import ROLES, Army, BattleState, Situation, carry_capacity, health
from .rules import BattleRules
from .units import Unit, UnitTable

DAMAGE_PREFIX = "damage:"

CasualtyChoice = Callable[[Army, int, Situation], Army]


# ----------------------------------------------------------------------------------------
# Step 3: take damage
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CasualtyOrder:
    """The owner's choice of casualties as a priority list (seed: "Du bestemmer, hvilken af dine
    tropper, der rammes").

    tokens: unit names, first to be hit first; ``"damage:dragon"`` places the non-lethal
    hits on undamaged dragons (by default they come first: a free hit). Empty = the
    documented default: free first hits on multi-hit units, then cheapest first, ties by
    weaker dice (expected hits per round in this battle). Types the list leaves out follow
    in default order; land units also drown in this order when their warships sink.
    """

    tokens: tuple[str, ...] = ()

    def __post_init__(self):
        tokens = self.tokens
        if isinstance(tokens, str):
            tokens = tuple(t for t in (s.strip() for s in tokens.split(",")) if t)
        object.__setattr__(self, "tokens", tuple(tokens))

    def plan(self, army: Army, situation: Situation) -> CasualtyPlan:
        """The complete order for one side of one battle (fixed for the whole battle)."""
        table = situation.rules.units
        present = [n for n in table.names if army.count(n)]
        default = default_plan(army, situation)
        hit_tokens: list[str] = []
        land_order: list[str] = []
        seen = set()
        for raw in self.tokens:
            token = _canonical_token(raw, table)
            if token in seen:
                raise ValueError(f"casualty order names {token!r} twice")
            seen.add(token)
            name = token[len(DAMAGE_PREFIX):] if token.startswith(DAMAGE_PREFIX) else token
            unit = table[name]
            if token.startswith(DAMAGE_PREFIX) and unit.hits_to_kill < 2:
                raise ValueError(f"casualty order: {token!r} — {name} dies to one hit; 'damage:' applies "
                                 f"only to units that take several hits")
            if name not in present:
                continue
            if situation.takes_hits(unit):
                hit_tokens.append(token)
            if unit.domain == "land" and name not in land_order:
                land_order.append(name)
        # free hits on multi-hit units come first unless the list places them
        lead = [t for t in default.hits if t.startswith(DAMAGE_PREFIX) and t not in seen]
        tail = [t for t in default.hits if t not in seen and t not in lead]
        drown = land_order + [n for n in default.drown if n not in land_order]
        return CasualtyPlan(tuple(lead + hit_tokens + tail), tuple(drown))

    def __call__(self, army: Army, hits: int, situation: Situation) -> Army:
        return self.plan(army, situation)(army, hits, situation)


def _canonical_token(token: str, table: UnitTable) -> str:
    if not isinstance(token, str):
        raise ValueError(f"casualty order entries must be unit names, got {token!r}")
    t = token.strip()
    if t.lower().startswith(DAMAGE_PREFIX):
        return DAMAGE_PREFIX + table.canonical(t[len(DAMAGE_PREFIX):])
    return table.canonical(t)


@dataclass(frozen=True)
class CasualtyPlan:
    """A resolved casualty order: `hits` = tokens in priority order, `drown` = land types,
    first to drown first. Callable as a casualty choice: plan(army, hits, situation) -> Army."""

    hits: tuple[str, ...]
    drown: tuple[str, ...] = ()

    def __call__(self, army: Army, hits: int, situation: Situation) -> Army:
        return assign_hits(army, hits, self, situation)


def default_plan(army: Army, situation: Situation) -> CasualtyPlan:
    """The documented default: free first hits on undamaged multi-hit units (dragons), then
    cheapest first, ties broken by weaker dice (expected hits per round in this battle), then
    table order. Land units aboard sinking warships drown cheapest first, ties by weaker dice
    at sea (so cargo that cannot fight drowns before heroes).

    At sea, when heroes are aboard, the warships come after the last hero (seed: "Du bestemmer,
    hvilken af dine tropper, der rammes": a player does not sink the ship and drown the wizard
    on it while the wizard could take the hit). A plan names each type once, so the fleet is
    kept whole until the heroes are gone; hit by hit (the full game's decision `Hit`) a player
    can do better, e.g. sink an empty warship first. Cargo that cannot fight changes nothing.
    """
    table = situation.rules.units
    present = [table[n] for n in table.names if army.count(n)]

    def key(u: Unit):
        return (u.cost, situation.strength(u), table.index(u.name))

    hit_takers = sorted((u for u in present if situation.takes_hits(u)), key=key)
    if situation.at_sea:
        heroes = [i for i, u in enumerate(hit_takers) if u.domain == "land"]
        if heroes:
            last = heroes[-1]
            ships = [u for u in hit_takers[:last] if u.capacity]
            rest = [u for u in hit_takers if u not in ships]
            at = rest.index(hit_takers[last]) + 1
            hit_takers = rest[:at] + ships + rest[at:]
    damage = [DAMAGE_PREFIX + u.name for u in hit_takers if u.hits_to_kill > 1]
    kills = [u.name for u in hit_takers]
    drown = [u.name for u in sorted((u for u in present if u.domain == "land"),
                                    key=lambda u: (situation.fights(u),) + key(u))]
    return CasualtyPlan(tuple(damage + kills), tuple(drown))


def assign_hits(army: Army, hits: int, plan: CasualtyPlan, situation: Situation) -> Army:
    """Seed step 3 "Take damage": apply `hits` one at a time, each to the first unit in the
    plan that can take it. When a warship sinks, the land units its fleet can no longer
    carry drown at once (seed: "Enheder om bord på et warship, der udslettes, drukner") and
    can take no further hits. Hits beyond what the side can take are lost.
    """
    if hits < 0:
        raise ValueError(f"hits must be non-negative, got {hits}")
    left = health(army, situation)
    for _ in range(hits):
        if left == 0:
            break
        army, sunk = _one_hit(army, plan, situation)
        left = health(army, situation) if sunk else left - 1   # a sinking ship may drown heroes too
    return army


def _one_hit(army: Army, plan: CasualtyPlan, situation: Situation) -> tuple[Army, bool]:
    """(army after one more hit, whether a carrier sank)."""
    for token in plan.hits:
        if token.startswith(DAMAGE_PREFIX):
            name = token[len(DAMAGE_PREFIX):]
            unit = situation.unit(name)
            # least damaged unit that survives one more hit
            for n, d, c in army.groups:
                if n == name and d <= unit.hits_to_kill - 2:
                    return army._moved(n, d, d + 1), False
            continue
        unit = situation.unit(token)
        if not situation.takes_hits(unit):
            continue
        candidates = [(d, c) for n, d, c in army.groups if n == token and d < unit.hits_to_kill]
        if not candidates:
            continue
        d = max(candidates)[0]  # the most damaged first: finish a wounded dragon
        new = d + 1
        if new < unit.hits_to_kill:
            return army._moved(token, d, new), False
        if unit.captured:
            return army._moved(token, d, new), False  # silenced, stays to be captured
        army = army._moved(token, d, None)
        if unit.capacity and situation.at_sea:
            return drown_cargo(army, plan, situation), True
        return army, False
    raise ValueError(f"casualty plan {plan.hits} leaves no unit to hit in {army}")


def drown_cargo(army: Army, plan: CasualtyPlan, situation: Situation) -> Army:
    """Land units beyond the surviving warships' capacity drown, in the plan's drown order."""
    if not situation.at_sea:
        return army
    aboard = sum(c for n, _, c in army.groups if situation.unit(n).domain == "land")
    excess = aboard - carry_capacity(army, situation)
    for name in plan.drown:
        if excess <= 0:
            break
        for n, d, c in sorted(army.groups, key=lambda g: -g[1]):
            if n == name and excess > 0:
                k = min(c, excess)
                army = army._moved(n, d, None, k)
                excess -= k
    return army


def resolve_casualties(casualty_order, state: BattleState, rules: BattleRules
                       ) -> tuple[CasualtyChoice, CasualtyChoice]:
    """(attacker's, defender's) casualty choice from None, a list of names, a CasualtyOrder,
    a callable, or {'attacker': ..., 'defender': ...}. Orders are resolved into fixed plans."""
    if isinstance(casualty_order, Mapping):
        bad = set(casualty_order) - set(ROLES)
        if bad:
            raise ValueError(f"casualty_order keys must be 'attacker' and/or 'defender', got {sorted(bad)}")
        per_role = [casualty_order.get(r) for r in ROLES]
    elif isinstance(casualty_order, tuple) and len(casualty_order) == 2 and not all(
            isinstance(x, str) for x in casualty_order):
        per_role = list(casualty_order)
    else:
        per_role = [casualty_order, casualty_order]
    out = []
    for role, spec in zip(ROLES, per_role):
        situation = state.situation(role, rules)
        army = state.army(role)
        if spec is None:
            out.append(default_plan(army, situation))
        elif isinstance(spec, CasualtyPlan):
            out.append(spec)
        elif isinstance(spec, CasualtyOrder):
            out.append(spec.plan(army, situation))
        elif isinstance(spec, str) or (isinstance(spec, (list, tuple)) and all(isinstance(t, str) for t in spec)):
            out.append(CasualtyOrder(tuple(spec) if not isinstance(spec, str) else spec).plan(army, situation))
        elif callable(spec):
            out.append(spec)
        else:
            raise ValueError(f"casualty order for the {role} must be a list of unit names, a CasualtyOrder or "
                             f"a callable, got {spec!r}")
    return out[0], out[1]
