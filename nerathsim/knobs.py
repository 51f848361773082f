"""Tunable knobs of Conquest of Nerath for automatic re-balancing (`analyses.rebalance`), as plain data.

Paths are dotted: ``battle.units.<unit>.cost`` is a unit's price in the unit table;
``map.realm_gold.<realm>`` and ``map.realm_income.<realm>`` are a realm's starting gold and
income on the map (reading ``map`` gives the loaded `Board`, see `RESOLVE`; tuples indexed by
realm are labelled by `LABELS`). ``turn_order`` is categorical: every order in which evil and
good realms alternate (`ALTERNATING_ORDERS`: the published order and the TURN_ORDERS variants by
name, the other five spelled out, ``"karkoth-nerath-iron_circle-vailin"``). The published value
is the default of each.
"""
from __future__ import annotations

import itertools

from .battle.units import UnitTable
from .maps import REALMS
from .rules import ORDER_SEPARATOR, TEAMS, TURN_ORDERS

#: reading this Rules field gives this attribute instead (the map name -> the loaded Board)
RESOLVE = {"map": "board"}
#: tuples indexed by realm: the label of each position
LABELS = {"realm_gold": REALMS, "realm_income": REALMS}


def alternating_orders() -> dict:
    """name -> order for every turn order whose realms alternate between the two alliances (8 of
    the 24): the TURN_ORDERS names first (published, nerath_first, reversed), then the rest spelled
    out with `ORDER_SEPARATOR`, in lexicographic order."""
    evil, good = TEAMS
    found = []
    for first, second in ((evil, good), (good, evil)):
        for a, b in itertools.product(itertools.permutations(first), itertools.permutations(second)):
            found.append((a[0], b[0], a[1], b[1]))
    named = {name: order for name, order in TURN_ORDERS.items() if order in found}
    rest = sorted(o for o in found if o not in named.values())
    return {**named, **{ORDER_SEPARATOR.join(o): o for o in rest}}


ALTERNATING_ORDERS = alternating_orders()

KNOBS = {
    **{f"battle.units.{u.name}.cost": {"type": "int", "low": 1, "high": max(8, 2 * u.cost), "step": 1}
       for u in UnitTable.published().units},
    **{f"map.realm_gold.{realm}": {"type": "int", "low": 0, "high": 30, "step": 1} for realm in REALMS},
    **{f"map.realm_income.{realm}": {"type": "int", "low": 0, "high": 30, "step": 1} for realm in REALMS},
    "turn_order": {"type": "categorical", "choices": list(ALTERNATING_ORDERS)},
}
