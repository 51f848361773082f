"""The setup choices of the reconstructed board as `Rules` fields, applied to the loaded map in one place.

The printed board, its starting forces and each realm's starting gold are not public (facts §8.1–8.2),
so the `nerath` map is the project's reconstruction (RULES.md §1, "What is known and what is chosen").
Some of its choices move the balance between the alliances; each is a field of `Rules` whose default
is the shipped map as it stands and whose other values are named variants (`nerathsim.DECISIONS`):

- ``starting_gold``: ``"map"`` (the map's realm gold: Karkoth 10, Vailin 12, Iron Circle 10, Nerath 14,
  so the evil alliance 20 against 26), ``"equal"`` (every realm the mean of the map's values, rounded
  half up: 12 each on `nerath`), or four whole numbers in realm order ("10-12-10-14").
- ``karkoth_start``: ``"front"`` (the map's stacks on both fronts: the rulebook's "aggressive starting
  position") or ``"capital"`` (the same pieces, but every Karkoth land region keeps at most one
  footsoldier and everything else starts on its capital).
- ``iron_circle_extra_monsters``: True (the monsters at Hobgoblin March and Warcamp, added when the
  footsoldiers were cut to the box's 20 so that the Iron Circle keeps the strongest armies; no text
  gives them) or False (without them, as on the board before the cut).
- ``footsoldier_box_cap``: True (every realm starts with the box's 20 footsoldiers) or False (each
  region of `nerath` gets the footsoldiers it had on `nerath_uncapped`, the board of 25–27 per realm).

A `Board` given as ``Rules.map`` is played as given (the fields act on a map loaded by name or path).
"""
from __future__ import annotations

import dataclasses

from .maps import REALMS, Board, _count_units, load_map

STARTING_GOLD = ("map", "equal")
KARKOTH_STARTS = ("front", "capital")
#: the shipped map the region-based variants name, and the board the uncapped footsoldiers come from
NERATH_MAP = "nerath"
UNCAPPED_MAP = "nerath_uncapped"
#: the Iron Circle's two monsters without a textual basis (build_maps.UNCAPPED_NO_MONSTER)
EXTRA_MONSTER_REGIONS = ("Hobgoblin March", "Warcamp")
#: a spelled-out starting gold joins the four realms' values with this ("10-12-10-14")
GOLD_SEPARATOR = "-"


class SetupError(ValueError):
    """A setup field that cannot act on the chosen map (the message names the field)."""


def normalise_gold(value):
    """"map", "equal" or a tuple of four whole numbers >= 0 (from a tuple, a list or "10-12-10-14");
    a clear error names the field otherwise."""
    if isinstance(value, str) and value in STARTING_GOLD:
        return value
    given = value
    if isinstance(value, str):
        parts = value.split(GOLD_SEPARATOR)
        value = tuple(int(v) if v.strip().isdigit() else v for v in parts)
    if isinstance(value, list):
        value = tuple(value)
    if (not isinstance(value, tuple) or len(value) != len(REALMS)
            or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value)):
        raise ValueError(f"Rules.starting_gold must be {' or '.join(repr(v) for v in STARTING_GOLD)} or four whole "
                         f"numbers >= 0 in realm order ({', '.join(REALMS)}; spelled "
                         f"'10{GOLD_SEPARATOR}12{GOLD_SEPARATOR}10{GOLD_SEPARATOR}14'), got {given!r}")
    return value


def starting_gold(board: Board, choice) -> tuple[int, ...]:
    """Each realm's starting gold under `choice` (see the module docstring)."""
    if choice == "map":
        return tuple(board.realm_gold)
    if choice == "equal":
        mean = (2 * sum(board.realm_gold) + len(REALMS)) // (2 * len(REALMS))     # rounded half up
        return (mean,) * len(REALMS)
    return tuple(choice)


def apply_setup(board: Board, rules) -> Board:
    """`board` with the setup fields of `rules` applied (the same Board when every field is its default)."""
    gold = starting_gold(board, rules.starting_gold)
    rows = [list(row) for row in board.units]
    if not rules.footsoldier_box_cap:
        _uncapped_footsoldiers(board, rows, rules)
    if not rules.iron_circle_extra_monsters:
        _without_extra_monsters(board, rows)
    if rules.karkoth_start == "capital":
        _mass_at_capital(board, rows, REALMS.index("karkoth"))
    units = tuple(tuple(row) for row in rows)
    if gold == tuple(board.realm_gold) and units == board.units:
        return board
    kinds = {realm: tuple(counts) for realm, counts in board.realm_units.items()}    # the same types, zeros kept
    counts = _count_units(units, board.owner, board.is_sea, kinds)
    return dataclasses.replace(board, units=units, realm_gold=gold,
                               realm_units={realm: dict(c) for realm, c in counts.items()})


def _needs_nerath(board: Board, field: str, value) -> None:
    if board.name != NERATH_MAP:
        raise SetupError(f"Rules.{field}={value!r} changes named regions of the shipped {NERATH_MAP!r} map; "
                         f"map {board.name!r} is not it (change its file instead)")


def _set(row: list, p: int, name: str, count: int) -> None:
    row[:] = [(q, u, c) for q, u, c in row if not (q == p and u == name)]
    if count:
        row.append((p, name, count))


def _held(row, p: int, name: str) -> int:
    return sum(c for q, u, c in row if q == p and u == name)


def _uncapped_footsoldiers(board: Board, rows: list, rules) -> None:
    _needs_nerath(board, "footsoldier_box_cap", False)
    old = load_map(UNCAPPED_MAP, rules.battle.units)
    for r in board.land_regions:
        name = board.names[r]
        if name not in old.index or old.is_dungeon[old.region(name)]:
            continue                 # the Nentir Vale: a dungeon on the old board, keeps its footsoldier
        p = board.owner[r]
        _set(rows[r], p, "footsoldier", _held(old.units[old.region(name)], p, "footsoldier"))


def _without_extra_monsters(board: Board, rows: list) -> None:
    _needs_nerath(board, "iron_circle_extra_monsters", False)
    p = REALMS.index("iron_circle")
    for name in EXTRA_MONSTER_REGIONS:
        r = board.region(name)
        _set(rows[r], p, "monster", max(0, _held(rows[r], p, "monster") - 1))


def _mass_at_capital(board: Board, rows: list, p: int) -> None:
    """Every land region of realm p keeps at most one footsoldier; the rest of its pieces there stand
    on p's capital (units at sea and castles are not moved)."""
    capital = board.capitals[p]
    moved: dict[str, int] = {}
    for r in board.land_regions:
        if r == capital or board.owner[r] != p:
            continue
        for q, name, c in list(rows[r]):
            if q != p:
                continue
            keep = min(c, 1) if name == "footsoldier" else 0
            if c > keep:
                moved[name] = moved.get(name, 0) + c - keep
                _set(rows[r], p, name, keep)
    for name, c in moved.items():
        _set(rows[capital], p, name, _held(rows[capital], p, name) + c)
