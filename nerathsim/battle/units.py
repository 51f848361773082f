"""The units of Conquest of Nerath as data: `Unit`, `UnitTable`, army specs.

Seed: "Alle nationer har adgang til de samme tropper" (all nations have the same troops);
the price table under "5. Forstærkninger"; the dice under "Enhederne i spillet"; "Man
rammer ved at slå en 6'er eller mere med terningen" (a hit is a roll of 6 or more).
Move values and dice counts come from shared/data/nerath-facts.md §1.1 (fan wiki table).
Every number is a field, so designers can try other prices and dice:
``UnitTable.published().replace("dragon", cost=6)``.
"""
from __future__ import annotations

import numbers
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from dataclasses import replace as dc_replace

import pandas as pd

from ..frozen import FrozenDict
from .dice import hit_probability

DOMAINS = ("land", "sea", "flying")
#: units in one army given to the battle tools: far above what any solver takes (exact ~76 a side, Monte Carlo
#: 1000), low enough that the counts stay machine integers
MAX_ARMY = 1_000_000
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Unit:
    """One unit type. Dice counts are per unit and per battle round.

    attack_dice / defence_dice: dice rolled in a land battle (0 = does not roll there);
    sea_attack_dice / sea_defence_dice: dice rolled in a sea battle (0 for a land unit means
    it is only cargo at sea: it fights no part and drowns with its ship).
    """

    name: str
    cost: int                   # gold, seed table "Trop / Pris"
    die: int                    # sides of its die
    move: int                   # spaces per move (facts §1.1)
    attack_dice: int = 1
    defence_dice: int = 1
    sea_attack_dice: int = 0
    sea_defence_dice: int = 0
    hits_to_kill: int = 1       # seed: "Det kræver to hit at dræbe en drage"
    domain: str = "land"        # land | sea | flying
    first_strike: bool = False  # seed: "Alle troldmænd har first strike"
    hero: bool = False          # seed: fighters and wizards "kaldes også heroes"
    capacity: int = 0           # land units carried (seed: "Et warship kan transportere to landtropper")
    runs_amok: bool = False     # monster: "kan de nu gå amok" (a full-game effect, not a battle effect)
    heals: bool = False         # dragon: "Ved kampens slutning heler den"
    captured: bool = False      # castle: "Modstanderen kan erobre dem" (never destroyed)
    places_units: bool = False  # castle: "Bruges til at købe nye tropper"
    explores_dungeons: bool = False

    def __post_init__(self):
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ValueError(f"Unit.name must be a lower-case identifier like 'siege_engine', got {self.name!r}")
        for name in ("cost", "die", "move", "attack_dice", "defence_dice", "sea_attack_dice", "sea_defence_dice",
                     "hits_to_kill", "capacity"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"Unit {self.name!r}: {name} must be a non-negative integer, got {value!r}")
        if self.die < 1:
            raise ValueError(f"Unit {self.name!r}: die must have at least one side, got {self.die}")
        if self.hits_to_kill < 1:
            raise ValueError(f"Unit {self.name!r}: hits_to_kill must be at least 1, got {self.hits_to_kill}")
        if self.domain not in DOMAINS:
            raise ValueError(f"Unit {self.name!r}: domain must be one of {', '.join(DOMAINS)}, got {self.domain!r}")

    @property
    def carriable(self) -> bool:
        """A land unit that can board a warship (anything that moves; a castle does not)."""
        return self.domain == "land" and self.move > 0

    def dice(self, role: str, at_sea: bool) -> int:
        """Dice this unit rolls per round as 'attacker' or 'defender', on land or at sea."""
        if role == "attacker":
            return self.sea_attack_dice if at_sea else self.attack_dice
        if role == "defender":
            return self.sea_defence_dice if at_sea else self.defence_dice
        raise ValueError(f"role must be 'attacker' or 'defender', got {role!r}")

    def hit_probability(self, hit_threshold: int = 6) -> float:
        """P(one die scores a hit) = P(roll >= hit_threshold): d6 1/6, d8 3/8, d10 1/2, d12 7/12, d20 3/4."""
        return hit_probability(self.die, hit_threshold)


# The published table. Seed: the unit list and the price table; facts §1.1 for move and the
# dice-count exceptions (siege engine: two dice on attack; storm elemental: two at sea).
_PUBLISHED = (
    Unit("footsoldier", cost=1, die=6, move=1),
    Unit("siege_engine", cost=2, die=8, move=1, attack_dice=2, defence_dice=1),
    Unit("fighter", cost=2, die=10, move=2, sea_attack_dice=1, sea_defence_dice=1, hero=True,
         explores_dungeons=True),
    Unit("wizard", cost=3, die=10, move=2, sea_attack_dice=1, sea_defence_dice=1, hero=True, first_strike=True,
         explores_dungeons=True),
    Unit("monster", cost=3, die=12, move=2, runs_amok=True),
    Unit("castle", cost=4, die=20, move=0, attack_dice=0, defence_dice=1, captured=True, places_units=True),
    Unit("storm_elemental", cost=3, die=8, move=2, sea_attack_dice=2, sea_defence_dice=2, domain="flying"),
    Unit("dragon", cost=5, die=20, move=3, sea_attack_dice=1, sea_defence_dice=1, hits_to_kill=2,
         domain="flying", heals=True),
    Unit("warship", cost=2, die=8, move=2, attack_dice=0, defence_dice=0, sea_attack_dice=1, sea_defence_dice=1,
         domain="sea", capacity=2),
)


@dataclass(frozen=True)
class UnitTable:
    """The unit types of a game, in table order. Replace it to try other prices and dice."""

    units: tuple[Unit, ...]

    def __post_init__(self):
        units = tuple(self.units)
        object.__setattr__(self, "units", units)
        if not units:
            raise ValueError("UnitTable needs at least one unit")
        for u in units:
            if not isinstance(u, Unit):
                raise ValueError(f"UnitTable.units must hold Unit values, got {u!r}")
        names = [u.name for u in units]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"UnitTable has duplicate unit names: {', '.join(dupes)}")
        object.__setattr__(self, "_by_name", FrozenDict({u.name: u for u in units}))
        object.__setattr__(self, "_names", tuple(names))

    @classmethod
    def published(cls) -> UnitTable:
        """The nine units of the published game (seed + facts §1.1)."""
        return cls(_PUBLISHED)

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    def __getitem__(self, name: str) -> Unit:
        unit = self._by_name.get(name)
        return unit if unit is not None else self._by_name[self.canonical(name)]

    def __contains__(self, name) -> bool:
        try:
            self.canonical(name)
        except ValueError:
            return False
        return True

    def index(self, name: str) -> int:
        if type(name) is str and name in self._by_name:      # the table's own name (canonical already)
            return self._names.index(name)
        return self.names.index(self.canonical(name))

    def canonical(self, name: str) -> str:
        """The table's name for `name`: case, spaces and hyphens are ignored; a plural 's' is dropped.

        >>> UnitTable.published().canonical("Siege Engines")
        'siege_engine'
        """
        if not isinstance(name, str):
            raise ValueError(f"unit name must be a string, got {name!r}")
        key = re.sub(r"[\s\-]+", "_", name.strip().lower())
        names = self._names
        if key in names:
            return key
        if key.endswith("s") and key[:-1] in names:
            return key[:-1]
        raise ValueError(f"unknown unit {name!r}; known units: {', '.join(names)}")

    def replace(self, name: str, **changes) -> UnitTable:
        """A new table with unit `name` changed, e.g. ``table.replace("dragon", cost=6)``."""
        key = self.canonical(name)
        allowed = {f.name for f in fields(Unit)} - {"name"}
        bad = sorted(set(changes) - allowed)
        if bad:
            raise ValueError(f"unknown Unit field(s) {', '.join(bad)}; fields: {', '.join(sorted(allowed))}")
        return UnitTable(tuple(dc_replace(u, **changes) if u.name == key else u for u in self.units))

    def with_unit(self, unit: Unit) -> UnitTable:
        """A new table with `unit` added (or replacing the unit of the same name)."""
        if unit.name in self.names:
            return UnitTable(tuple(unit if u.name == unit.name else u for u in self.units))
        return UnitTable(self.units + (unit,))

    def to_frame(self) -> pd.DataFrame:
        """One row per unit, every field as a column (index: unit name)."""
        rows = [{f.name: getattr(u, f.name) for f in fields(Unit)} for u in self.units]
        return pd.DataFrame(rows).set_index("name")

    def cost(self, army: Mapping[str, int]) -> int:
        """Gold value of an army ({unit: count})."""
        return sum(self[name].cost * count for name, count in army.items())

    def parse_army(self, spec, label: str = "army") -> dict[str, int]:
        """Normalise an army: ``{"footsoldier": 6, "siege_engine": 2}`` or ``"6 footsoldier, 2 siege_engine"``.

        Returns {canonical name: count} in table order. Counts must be positive integers
        ("0 dragon" and "-1 dragon" are errors, not no-ops); the army must not be empty.
        """
        if isinstance(spec, str):
            items = _parse_army_text(spec, label)
        elif isinstance(spec, Mapping):
            items = list(spec.items())
        else:
            raise ValueError(f"{label} must be a dict like {{'footsoldier': 6}} or a string like "
                             f"'6 footsoldier, 2 siege_engine', got {spec!r}")
        counts: dict[str, int] = {}
        for name, count in items:
            key = self.canonical(name)
            if isinstance(count, bool) or not isinstance(count, numbers.Integral):
                raise ValueError(f"{label}: count of {key!r} must be a positive integer, got {count!r}")
            count = int(count)
            if count <= 0:
                raise ValueError(f"{label}: count of {key!r} must be a positive integer, got {count}")
            counts[key] = counts.get(key, 0) + count
        if not counts:
            raise ValueError(f"{label} is empty: a battle needs at least one unit on each side")
        if sum(counts.values()) > MAX_ARMY:
            raise ValueError(f"{label}: {sum(counts.values()):,} units is above the limit of {MAX_ARMY:,} an army "
                             f"(the solvers take far fewer: see their limits)")
        return {n: counts[n] for n in self.names if n in counts}


def _parse_army_text(text: str, label: str) -> list[tuple[str, int]]:
    parts = [p.strip() for p in re.split(r"[,+;]", text)]
    items = []
    for part in parts:
        if not part:
            continue
        number = re.fullmatch(r"(-?[\d.]*\d[\d.]*(?:[eE][+-]?\d+)?)\s*[x*×]?\s*([A-Za-z].*)", part)
        if number and not re.fullmatch(r"-?\d+", number.group(1)):
            raise ValueError(f"{label}: count of {number.group(2).strip()!r} must be a whole number, "
                             f"got {number.group(1)!r} in {part!r}")
        m = re.fullmatch(r"(-?\d+)\s*[x*×]?\s*(.+)", part)
        if m:
            items.append((m.group(2).strip(), int(m.group(1))))
        elif re.fullmatch(r"[A-Za-z][A-Za-z0-9_\- ]*", part):
            items.append((part, 1))
        else:
            raise ValueError(f"{label}: cannot read {part!r}; write e.g. '6 footsoldier, 2 siege_engine'")
    return items


def format_army(army: Mapping[str, int]) -> str:
    """'6 footsoldier, 2 siege_engine' (empty army: 'nothing')."""
    parts = [f"{c} {n}" for n, c in army.items() if c]
    return ", ".join(parts) if parts else "nothing"
