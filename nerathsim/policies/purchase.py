"""`Purchase`: the buying strategy of a WarPolicy (a weight per unit type), so analyses can compare
unit mixes in real games (`Purchase.without("dragon")`)."""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Purchase:
    """Which units to buy: `weights` = ((unit, weight), ...); each purchase draws a unit type with
    probability proportional to its weight among those affordable and placeable. A weight of 0
    means never. `ships` caps warships bought per turn; `castles` allows buying a castle while the
    realm holds fewer than this many."""

    weights: tuple = (("footsoldier", 4.0), ("siege_engine", 2.0), ("fighter", 1.5), ("wizard", 1.0),
                      ("monster", 1.5), ("storm_elemental", 0.5), ("dragon", 1.0), ("warship", 0.5))
    ships: int = 1
    castles: int = 0
    save: int = 0                  # gold kept back each turn

    def weight(self, unit: str) -> float:
        for name, w in self.weights:
            if name == unit:
                return float(w)
        return 0.0

    def without(self, unit: str) -> "Purchase":
        """The same strategy never buying `unit` (e.g. "never buys dragons")."""
        return replace(self, weights=tuple((n, 0.0 if n == unit else w) for n, w in self.weights))

    def with_weight(self, unit: str, weight: float) -> "Purchase":
        names = [n for n, _ in self.weights]
        if unit in names:
            return replace(self, weights=tuple((n, weight if n == unit else w) for n, w in self.weights))
        return replace(self, weights=self.weights + ((unit, weight),))
