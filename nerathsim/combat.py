"""The seed's procedure for one battle, step by step (the reference implementation).

Seed, "3. Kamp": "Kampen er opdelt i en række faser: 1. First strike, 2. Roll other attacks,
3. Take damage, 4. Press attack or retreat, 5. Determine battle results."

The full game reuses these pieces: `start_battle` checks the armies, `fight_round` plays
steps 1–3 with a `numpy.random.Generator` passed in, `press_or_retreat` is step 4 and
`battle_result` step 5. Who takes the hits (`CasualtyOrder` or any callable) and whether to
retreat (`Retreat` or any callable) are pluggable. `resolve_battle` plays a whole battle.

The calculators (`battle_exact`, `battle_mc`) implement the same rules for many battles at
once; the tests check all three against each other.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from .rules import BattleRules
from .units import Unit, UnitTable, format_army, hit_probability

ROLES = ("attacker", "defender")
OUTCOMES = ("attacker_wins", "defender_wins", "draw")
DAMAGE_PREFIX = "damage:"


# ----------------------------------------------------------------------------------------
# Armies
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Army:
    """One side's units: how many of each type have taken 0, 1, ... damage.

    `groups` holds (unit name, damage taken, count) with count > 0, sorted. A unit whose
    damage reaches its hits_to_kill is removed, except a captured-not-destroyed unit (a
    castle), which stays *silenced*: it no longer rolls or takes hits in this battle.
    """

    groups: tuple[tuple[str, int, int], ...] = ()

    def __post_init__(self):
        merged: dict[tuple[str, int], int] = {}
        for name, damage, count in self.groups:
            if count < 0 or damage < 0:
                raise ValueError(f"Army: negative count or damage in group {(name, damage, count)!r}")
            if count:
                merged[(name, damage)] = merged.get((name, damage), 0) + count
        object.__setattr__(self, "groups", tuple(sorted((n, d, c) for (n, d), c in merged.items())))

    @classmethod
    def of(cls, counts: Mapping[str, int], damaged: Mapping[str, int] | None = None) -> Army:
        """An army of undamaged units, with `damaged[name]` of them having taken one damage."""
        damaged = dict(damaged or {})
        groups = []
        for name, count in counts.items():
            d = damaged.pop(name, 0)
            if d > count:
                raise ValueError(f"Army: {d} damaged {name} but only {count} in the army")
            groups += [(name, 0, count - d), (name, 1, d)]
        if damaged:
            raise ValueError(f"Army: damaged units not in the army: {', '.join(damaged)}")
        return cls(tuple(groups))

    def count(self, name: str) -> int:
        """Units of this type present (damaged and silenced ones included)."""
        return sum(c for n, _, c in self.groups if n == name)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for n, _, c in self.groups:
            out[n] = out.get(n, 0) + c
        return out

    def damaged(self, name: str) -> int:
        return sum(c for n, d, c in self.groups if n == name and d > 0)

    @property
    def size(self) -> int:
        return sum(c for _, _, c in self.groups)

    def healed(self) -> Army:
        """Seed (dragons): "Ved kampens slutning heler den og rejses op igen"; castles are repaired too."""
        return Army(tuple((n, 0, c) for n, _, c in self.groups))

    def without(self, names) -> Army:
        return Army(tuple(g for g in self.groups if g[0] not in names))

    def _moved(self, name: str, damage: int, new_damage: int | None, count: int = 1) -> Army:
        """Move `count` units of (name, damage) to new_damage (None = removed)."""
        groups = list(self.groups)
        for i, (n, d, c) in enumerate(groups):
            if n == name and d == damage:
                if c < count:
                    break
                groups[i] = (n, d, c - count)
                if new_damage is not None:
                    groups.append((n, new_damage, count))
                return Army(tuple(groups))
        raise ValueError(f"Army has fewer than {count} {name} with {damage} damage")

    def __str__(self) -> str:
        counts = self.counts()
        parts = []
        for name, c in counts.items():
            dmg = self.damaged(name)
            parts.append(f"{c} {name}" + (f" ({dmg} damaged)" if dmg else ""))
        return ", ".join(parts) if parts else "nothing"


def as_army(spec, table: UnitTable, label: str) -> Army:
    """An `Army` from an Army, a {unit: count} dict or a '6 footsoldier, 2 siege_engine' string."""
    if isinstance(spec, Army):
        if not spec.groups:
            raise ValueError(f"{label} is empty: a battle needs at least one unit on each side")
        groups = []
        for name, damage, count in spec.groups:
            key = table.canonical(name)
            unit = table[key]
            if damage >= unit.hits_to_kill:
                raise ValueError(f"{label}: {name} with {damage} damage is already out of the battle")
            groups.append((key, damage, count))
        return Army(tuple(groups))
    return Army.of(table.parse_army(spec, label))


# ----------------------------------------------------------------------------------------
# Who fights, who takes hits
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Situation:
    """What a side's casualty choice may depend on: its role, the battlefield and the rules."""

    role: str
    at_sea: bool
    rules: BattleRules = field(default_factory=BattleRules)

    def unit(self, name: str) -> Unit:
        return self.rules.units[name]

    def fights(self, unit: Unit) -> bool:
        """Seed (sea): "Det er kun Warships, flyvende enheder og helte ... der kan kæmpe til søs"."""
        if self.at_sea:
            return unit.sea_attack_dice + unit.sea_defence_dice > 0
        return unit.domain != "sea"

    def takes_hits(self, unit: Unit) -> bool:
        """Units the owner may assign hits to: fighting units; a castle only in 'absorbs_hit' mode."""
        if not self.fights(unit):
            return False
        return not (unit.captured and self.rules.castle_mode == "never_hit")

    def is_cargo(self, unit: Unit) -> bool:
        """At sea every land unit is aboard a warship (heroes fight from the deck)."""
        return self.at_sea and unit.domain == "land"

    def strength(self, unit: Unit) -> float:
        """Expected hits per round of one such unit in this role and battlefield ('weaker dice')."""
        return unit.dice(self.role, self.at_sea) * unit.hit_probability(self.rules.threshold(self.role))


def health(army: Army, situation: Situation) -> int:
    """Hits the side can still take before it is wiped out."""
    total = 0
    for name, damage, count in army.groups:
        unit = situation.unit(name)
        if situation.takes_hits(unit) and damage < unit.hits_to_kill:
            total += (unit.hits_to_kill - damage) * count
    return total


def is_wiped_out(army: Army, situation: Situation) -> bool:
    """Seed: "samtlige tropper ... er blevet udslettet" — no unit left that can take a hit.

    A silenced castle does not count (it is captured); at sea the cargo has drowned with its
    ships; in castle_mode 'never_hit' a castle alone does not hold the territory.
    """
    return health(army, situation) == 0


def dice_pool(army: Army, situation: Situation, first_strike: bool) -> dict[int, int]:
    """{die sides: number of dice} rolled by this side in the first-strike or the other-attacks step.

    Seed: wizards roll in step 1 ("De slår med terningerne før alle andre tropper"), all other
    units in step 2. A damaged dragon still rolls unless rules.damaged_units_fight is False;
    a silenced castle does not; in 'never_hit' mode a castle rolls only while other units
    of its side remain.
    """
    rules = situation.rules
    side_alive = None
    pool: dict[int, int] = {}
    for name, damage, count in army.groups:
        unit = situation.unit(name)
        if unit.first_strike != first_strike or not situation.fights(unit):
            continue
        if damage >= unit.hits_to_kill:
            continue
        if damage > 0 and not rules.damaged_units_fight:
            continue
        if unit.captured and rules.castle_mode == "never_hit":
            if side_alive is None:
                side_alive = health(army, situation) > 0
            if not side_alive:
                continue
        n = unit.dice(situation.role, situation.at_sea) * count
        if n:
            pool[unit.die] = pool.get(unit.die, 0) + n
    return pool


def roll_hits(army: Army, situation: Situation, rng: np.random.Generator, first_strike: bool) -> int:
    """Seed: "Man rammer ved at slå en 6'er eller mere med terningen" — hits of one step's roll.

    One binomial draw per die size, smallest die first (so a seed replays the same battle).
    """
    pool = dice_pool(army, situation, first_strike)
    threshold = situation.rules.threshold(situation.role)
    return sum(int(rng.binomial(pool[die], hit_probability(die, threshold))) for die in sorted(pool))


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


def carry_capacity(army: Army, situation: Situation) -> int:
    """Land units the side's surviving warships can carry."""
    return sum(situation.unit(n).capacity * c for n, d, c in army.groups
               if situation.fights(situation.unit(n)) and d < situation.unit(n).hits_to_kill)


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


# ----------------------------------------------------------------------------------------
# Battle state and steps
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BattleState:
    attacker: Army
    defender: Army
    at_sea: bool = False
    round: int = 0              # rounds fought so far
    retreated: bool = False     # step 4: the attacker withdrew

    def situation(self, role: str, rules: BattleRules) -> Situation:
        return Situation(role, self.at_sea, rules)

    def army(self, role: str) -> Army:
        return self.attacker if role == "attacker" else self.defender


CasualtyChoice = Callable[[Army, int, Situation], Army]


def validate_battle(attacker: Army, defender: Army, at_sea: bool, rules: BattleRules) -> None:
    """Reject armies the seed does not allow, with a message that says what is wrong."""
    table = rules.units
    for role, army in (("attacker", attacker), ("defender", defender)):
        if not army.groups:
            raise ValueError(f"{role} army is empty: a battle needs at least one unit on each side")
        situation = Situation(role, at_sea, rules)
        for name in army.counts():
            unit = table[name]
            if role == "attacker" and unit.captured:
                raise ValueError(f"{name} cannot attack: a {name} is used only in defence "
                                 f"(seed: 'kan kun bruges i forsvar')")
            if not at_sea and unit.domain == "sea":
                raise ValueError(f"{role}: {name} cannot fight in a land battle (it is a sea unit); "
                                 f"use at_sea=True for a sea battle")
            if at_sea and unit.domain == "land" and not unit.carriable:
                raise ValueError(f"{role}: {name} cannot be at sea (it cannot board a warship)")
            if role == "attacker" and situation.fights(unit) and unit.dice("attacker", at_sea) == 0:
                where = "at sea" if at_sea else "on land"
                raise ValueError(f"{name} cannot attack {where}: it has no attack dice there")
        if at_sea:
            land = sum(c for n, c in army.counts().items() if table[n].domain == "land")
            cap = carry_capacity(army, situation)
            if land > cap:
                raise ValueError(f"{role}: at sea its {land} land unit(s) must be aboard warships, which "
                                 f"carry {cap}; add warships (each carries "
                                 f"{max((u.capacity for u in table.units), default=0)})")


def start_battle(attacker, defender, at_sea: bool = False, rules: BattleRules | None = None) -> BattleState:
    """Check two armies (Army, dict or text) and return the state before round 1."""
    rules = rules or BattleRules()
    if not isinstance(at_sea, bool):
        raise ValueError(f"at_sea must be True or False, got {at_sea!r}")
    a = as_army(attacker, rules.units, "attacker army")
    d = as_army(defender, rules.units, "defender army")
    validate_battle(a, d, at_sea, rules)
    return BattleState(a, d, at_sea)


@dataclass(frozen=True)
class RoundReport:
    state: BattleState
    first_strike_hits: tuple[int, int]  # (scored by attacker, scored by defender)
    hits: tuple[int, int]               # step 2, same order


def fight_round(state: BattleState, rng: np.random.Generator, rules: BattleRules,
                casualties: tuple[CasualtyChoice, CasualtyChoice]) -> RoundReport:
    """Steps 1–3 of one round.

    1. First strike: "Hvis både forsvareren og angriberen har tropper med first strike, slår de
       samtidig", and "de tropper, de rammer, fjernes, inden de har mulighed for at slå tilbage".
    2. Roll other attacks: "Forsvareren og angriberen slår samtidig og tæller antallet af hits."
    3. Take damage: each owner assigns the hits it took (`casualties` = (attacker's, defender's)).
    """
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    a, d = state.attacker, state.defender
    fa = roll_hits(a, sa, rng, first_strike=True)
    fd = roll_hits(d, sd, rng, first_strike=True)
    a, d = _take(a, fd, casualties[0], sa), _take(d, fa, casualties[1], sd)
    ha = roll_hits(a, sa, rng, first_strike=False)
    hd = roll_hits(d, sd, rng, first_strike=False)
    a, d = _take(a, hd, casualties[0], sa), _take(d, ha, casualties[1], sd)
    new = BattleState(a, d, state.at_sea, state.round + 1, False)
    return RoundReport(new, (fa, fd), (ha, hd))


def _take(army: Army, hits: int, choice: CasualtyChoice, situation: Situation) -> Army:
    if hits == 0:
        return army
    if isinstance(choice, CasualtyPlan):
        return assign_hits(army, hits, choice, situation)
    before = health(army, situation)
    after_army = choice(army, hits, situation)
    after = health(after_army, situation)
    if after > max(0, before - hits) or after_army.size > army.size:
        raise ValueError(f"casualty choice did not assign {hits} hit(s) to {army}: got {after_army}")
    return after_army


@dataclass(frozen=True)
class Retreat:
    """Step 4, the attacker's rule for pressing on: retreat as soon as any trigger fires.

    after_rounds: retreat after this many rounds;
    below_win_chance: retreat when the attacker's exact chance of winning by fighting on to
      the end (from the current casualties) is below this;
    at_units: retreat when the attacker has this many units or fewer.
    All None = never retreat.
    """

    after_rounds: int | None = None
    below_win_chance: float | None = None
    at_units: int | None = None

    def __post_init__(self):
        for name in ("after_rounds", "at_units"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < (1 if name == "after_rounds" else 0)):
                low = 1 if name == "after_rounds" else 0
                raise ValueError(f"Retreat.{name} must be an integer >= {low} or None, got {v!r}")
        w = self.below_win_chance
        if w is not None and (isinstance(w, bool) or not isinstance(w, (int, float)) or not 0 <= w <= 1):
            raise ValueError(f"Retreat.below_win_chance must be a probability in [0, 1] or None, got {w!r}")

    @classmethod
    def parse(cls, spec) -> Retreat:
        """None/'never', a Retreat, or text like 'after:3', 'below:0.4', 'units:2', 'after:3,units:1'."""
        if spec is None or isinstance(spec, Retreat):
            return spec or cls()
        if not isinstance(spec, str):
            raise ValueError(f"retreat must be None, a Retreat or text like 'after:3', got {spec!r}")
        if spec.strip().lower() in ("", "never", "none"):
            return cls()
        keys = {"after": "after_rounds", "below": "below_win_chance", "units": "at_units"}
        values = {}
        for part in spec.split(","):
            key, _, value = part.strip().partition(":")
            field_name = keys.get(key.strip().lower())
            if field_name is None or not value.strip():
                raise ValueError(f"cannot read retreat rule {part.strip()!r}; use after:N, below:P or units:K")
            try:
                values[field_name] = float(value) if field_name == "below_win_chance" else int(value)
            except ValueError:
                raise ValueError(f"cannot read retreat rule {part.strip()!r}: {value.strip()!r} is not a number") from None
        return cls(**values)

    @property
    def never(self) -> bool:
        return self.after_rounds is None and self.below_win_chance is None and self.at_units is None

    def triggered(self, state: BattleState, win_chance: Callable[[], float] | None = None) -> bool:
        """Does the attacker retreat now (after a round, both sides still standing)?"""
        if self.after_rounds is not None and state.round >= self.after_rounds:
            return True
        if self.at_units is not None and state.attacker.size <= self.at_units:
            return True
        if self.below_win_chance is not None:
            if win_chance is None:
                raise ValueError("Retreat.below_win_chance needs the attacker's win chance")
            return win_chance() < self.below_win_chance
        return False

    def __str__(self) -> str:
        if self.never:
            return "never"
        parts = []
        if self.after_rounds is not None:
            parts.append(f"after {self.after_rounds} round(s)")
        if self.below_win_chance is not None:
            parts.append(f"win chance < {self.below_win_chance:.0%}")
        if self.at_units is not None:
            parts.append(f"at {self.at_units} unit(s) or fewer")
        return " or ".join(parts)


def both_standing(state: BattleState, rules: BattleRules) -> bool:
    return not (is_wiped_out(state.attacker, state.situation("attacker", rules))
                or is_wiped_out(state.defender, state.situation("defender", rules)))


def press_or_retreat(state: BattleState, retreat: bool) -> BattleState:
    """Step 4: "Hvis begge sider fortsat har enheder tilbage ... bestemmer angriberen nu, om kampen
    fortsætter, eller om han trækker sig tilbage." (The caller asks only while both stand.)"""
    return BattleState(state.attacker, state.defender, state.at_sea, state.round, bool(retreat))


def battle_result(state: BattleState, rules: BattleRules) -> str | None:
    """Step 5, or None while the battle goes on.

    "Forsvareren vinder, hvis angriberen trækker sig, eller samtlige tropper på feltet er blevet
    udslettet. Angriberen vinder, hvis samtlige forsvarens tropper er blevet udslettet, og
    angriberen har mindst en trop tilbage." Both sides wiped out is reported as 'draw'.
    """
    if state.retreated:
        return "defender_wins"
    a_out = is_wiped_out(state.attacker, state.situation("attacker", rules))
    d_out = is_wiped_out(state.defender, state.situation("defender", rules))
    if a_out and d_out:
        return "draw"
    if d_out:
        return "attacker_wins"
    if a_out:
        return "defender_wins"
    return None


@dataclass(frozen=True)
class BattleReport:
    """The end of one battle: outcome, rounds and the armies left afterwards (healed)."""

    outcome: str
    rounds: int
    retreated: bool
    attacker: dict          # survivors {unit: count}, healed
    defender: dict          # survivors still the defender's
    captured: dict          # defender's units taken over by the attacker (castles)
    state: BattleState      # the final state, damage still marked
    log: tuple = ()         # RoundReports when record=True
    start: BattleState | None = None   # the state before round 1

    def gold_lost(self, role: str, rules: BattleRules) -> int:
        """Price of the side's army before the battle minus that of what it still has (a captured
        castle is the defender's loss; healed dragons cost nothing)."""
        if role not in ROLES:
            raise ValueError(f"role must be 'attacker' or 'defender', got {role!r}")
        table = rules.units
        before = table.cost(self.start.army(role).counts())
        return before - table.cost(self.attacker if role == "attacker" else self.defender)


def end_of_battle(state: BattleState, outcome: str, rules: BattleRules) -> tuple[dict, dict, dict]:
    """Survivors after the battle: dragons heal, silenced castles are repaired, and a castle
    whose defenders lost is captured (seed: "Modstanderen kan erobre dem")."""
    table = rules.units
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    attacker = {} if is_wiped_out(state.attacker, sa) else _present(state.attacker, table)
    defender = _present(state.defender, table, keep_captured=True)
    if is_wiped_out(state.defender, sd):
        defender = {n: c for n, c in defender.items() if table[n].captured}
    captured = {}
    if outcome == "attacker_wins":
        captured = {n: c for n, c in defender.items() if table[n].captured}
        defender = {}
    return attacker, defender, captured


def _present(army: Army, table: UnitTable, keep_captured: bool = False) -> dict:
    out = {}
    for n in table.names:
        c = sum(cnt for name, d, cnt in army.groups if name == n and (d < table[n].hits_to_kill or keep_captured))
        if c:
            out[n] = c
    return out


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


def resolve_battle(attacker, defender, rng: np.random.Generator, *, at_sea: bool = False,
                   rules: BattleRules | None = None, casualty_order=None, retreat=None,
                   record: bool = False, max_rounds: int = 100_000) -> BattleReport:
    """Play one whole battle: rounds of steps 1–4 until step 5 gives a result.

    retreat: None (never), a `Retreat`, text like 'after:3', or a callable(state) -> bool.
    Randomness only from `rng`.
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    rules = rules or BattleRules()
    state = start = start_battle(attacker, defender, at_sea, rules)
    choices = resolve_casualties(casualty_order, state, rules)
    if retreat is None or isinstance(retreat, (str, Retreat)):
        rule = Retreat.parse(retreat)
        plans = choices

        def decide(s: BattleState) -> bool:
            def chance() -> float:
                from .battle_exact import attacker_win_chance
                return attacker_win_chance(s, rules, plans)
            return rule.triggered(s, chance)
    elif callable(retreat):
        decide = retreat
    else:
        raise ValueError(f"retreat must be None, a Retreat, text like 'after:3' or a callable, got {retreat!r}")
    log = []
    outcome = battle_result(state, rules)
    while outcome is None:
        if state.round >= max_rounds:
            raise RuntimeError(f"battle still undecided after {max_rounds} rounds")
        report = fight_round(state, rng, rules, choices)
        state = report.state
        if record:
            log.append(report)
        if both_standing(state, rules):
            state = press_or_retreat(state, decide(state))
        outcome = battle_result(state, rules)
    a, d, captured = end_of_battle(state, outcome, rules)
    return BattleReport(outcome, state.round, state.retreated, a, d, captured, state, tuple(log), start)


__all__ = [
    "Army", "Situation", "BattleState", "CasualtyOrder", "CasualtyPlan", "Retreat", "RoundReport", "BattleReport",
    "health", "is_wiped_out", "dice_pool", "roll_hits", "assign_hits", "drown_cargo", "default_plan",
    "validate_battle", "start_battle", "fight_round", "press_or_retreat", "battle_result", "end_of_battle",
    "resolve_battle", "resolve_casualties", "as_army", "format_army",
]
