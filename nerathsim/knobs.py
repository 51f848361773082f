"""Tunable knobs of Conquest of Nerath for automatic re-balancing (`analyses.rebalance`), as plain data.

Paths are dotted: ``battle.units.<unit>.cost`` is a unit's price in the unit table;
``map.realm_gold.<realm>`` and ``map.realm_income.<realm>`` are a realm's starting gold and
income on the map (reading ``map`` gives the loaded `Board`, see `RESOLVE`; tuples indexed by
realm are labelled by `LABELS`). The published value is the default of each.
"""
from __future__ import annotations

from .battle.units import UnitTable
from .maps import REALMS

#: reading this Rules field gives this attribute instead (the map name -> the loaded Board)
RESOLVE = {"map": "board"}
#: tuples indexed by realm: the label of each position
LABELS = {"realm_gold": REALMS, "realm_income": REALMS}

KNOBS = {
    **{f"battle.units.{u.name}.cost": {"type": "int", "low": 1, "high": max(8, 2 * u.cost), "step": 1}
       for u in UnitTable.published().units},
    **{f"map.realm_gold.{realm}": {"type": "int", "low": 0, "high": 30, "step": 1} for realm in REALMS},
    **{f"map.realm_income.{realm}": {"type": "int", "low": 0, "high": 30, "step": 1} for realm in REALMS},
}
