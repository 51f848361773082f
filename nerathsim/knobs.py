"""Tunable knobs of Conquest of Nerath for automatic re-balancing (`analyses.rebalance`), as plain data.

Paths are dotted: ``battle.units.<unit>.cost`` is a unit's price in the unit table;
``map.realm_gold.<realm>`` and ``map.realm_income.<realm>`` are a realm's starting gold and
income on the map (reading ``map`` gives the loaded `Board`, see `RESOLVE`; tuples indexed by
realm are labelled by `LABELS`). ``map.realm_units.<realm>.<unit>`` is how many units of a type a
realm has on its own land at the start (`Board.realm_units`; every land or flying type but the
castle; range 0 .. max(6, 2 x the published count), step 1): extra units stand on the realm's
capital, fewer are taken from its region holding the most of that type (`maps.place_realm_units`;
units at sea, warships and their cargo, are not counted and not moved). ``team_vp_to_win`` is
categorical: the alliance game's VP target per alliance (`TEAM_VP_CHOICES`, "table" = the seed's
table for both; a rule variant, not a resource: it acts on the alliance game only). ``turn_order`` is categorical: every order in which evil and
good realms alternate (`ALTERNATING_ORDERS`: the published order and the TURN_ORDERS variants by
name, the other five spelled out, ``"karkoth-nerath-iron_circle-vailin"``). The published value
is the default of each.
"""
from __future__ import annotations

import itertools

from .battle.units import UnitTable
from .maps import REALMS, load_map
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


#: the alliance game's VP target per alliance (Rules.team_vp_to_win; "table" = the seed's 20 for both):
#: Vailin + Nerath need 21..28 while Karkoth + Iron Circle keep 20, or the evil alliance needs 16..19
TEAM_VP_CHOICES = ["table", *(f"20{ORDER_SEPARATOR}{good}" for good in range(21, 29)),
                   *(f"{evil}{ORDER_SEPARATOR}20" for evil in range(16, 20))]


def realm_unit_knobs() -> dict:
    """``map.realm_units.<realm>.<unit>`` for every realm and every type the published map counts:
    int, 0 .. max(6, 2 x the published count), step 1."""
    counts = load_map("nerath").realm_units
    return {f"map.realm_units.{realm}.{unit}": {"type": "int", "low": 0, "high": max(6, 2 * n), "step": 1}
            for realm in REALMS for unit, n in counts[realm].items()}


KNOBS = {
    **{f"battle.units.{u.name}.cost": {"type": "int", "low": 1, "high": max(8, 2 * u.cost), "step": 1}
       for u in UnitTable.published().units},
    **{f"map.realm_gold.{realm}": {"type": "int", "low": 0, "high": 30, "step": 1} for realm in REALMS},
    **{f"map.realm_income.{realm}": {"type": "int", "low": 0, "high": 30, "step": 1} for realm in REALMS},
    **realm_unit_knobs(),
    "turn_order": {"type": "categorical", "choices": list(ALTERNATING_ORDERS)},
    "team_vp_to_win": {"type": "categorical", "choices": TEAM_VP_CHOICES},
}
