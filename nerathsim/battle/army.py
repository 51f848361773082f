"""The armies on the battlefield: who is there, who fights, who can take hits, and the check
before round 1 (the reference implementation of the seed's battle, part 1 of 4).

Seed, "3. Kamp": "Kampen er opdelt i en række faser: 1. First strike, 2. Roll other attacks,
3. Take damage, 4. Press attack or retreat, 5. Determine battle results." The procedure is
split along those steps: `army` (the sides and `start_battle`), `steps` (steps 1, 2, 4 and 5 of
one round), `casualties` (step 3) and `combat` (`resolve_battle`, a whole battle).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .rules import BattleRules
from .units import Unit, UnitTable

ROLES = ("attacker", "defender")


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


def carry_capacity(army: Army, situation: Situation) -> int:
    """Land units the side's surviving warships can carry."""
    return sum(situation.unit(n).capacity * c for n, d, c in army.groups
               if situation.fights(situation.unit(n)) and d < situation.unit(n).hits_to_kill)


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
