"""Helpers every part of the turn uses: the event log, names of unit counts, warships, and who
stands where. Imports only `state`."""
from __future__ import annotations

from ..maps import REALMS
from .state import Ship, State


def _event(s: State, kind: str, **data) -> None:
    if s.log is not None:
        s.log.append({"event": kind, "round": s.round + 1, "turn_realm": REALMS[s.realm], **data})


def _named(s: State, counts) -> dict:
    return {s.tab.names[u]: c for u, c in enumerate(counts) if c}


def ships_view(s: State, regions=None) -> list:
    """[{id, realm, region, unit, cargo}] of the warships (in `regions`, or all) — the log's picture of a fleet."""
    t = s.tab
    return [{"id": sh.id, "realm": REALMS[sh.owner], "region": sh.region, "unit": t.names[sh.utype],
             "cargo": [t.names[u] for u in sh.cargo]} for sh in s.ships if regions is None or sh.region in regions]


def _new_ship(s: State, p: int, u: int, r: int, moves: int = 0) -> Ship:
    ship = Ship(s.next_ship, p, u, r, moves)
    s.next_ship += 1
    s.ships.append(ship)
    return ship


def _with(counts: list, u: int, v: int) -> list:
    out = counts[:]
    out[u] = v
    return out


def _army_counts(s: State, r: int, q: int) -> list:
    """Realm q's army at r: units there, plus at sea its warships and their cargo."""
    counts = list(s.units[r][q])           # (a public copy's rows are tuples)
    if s.board.is_sea[r]:
        for sh in s.ships:
            if sh.region == r and sh.owner == q:
                counts[sh.utype] += 1
                for u in sh.cargo:
                    counts[u] += 1
    return counts


def _present_at(s: State, r: int, p: int) -> bool:
    if any(s.units[r][p]):
        return True
    return any(sh.region == r and sh.owner == p for sh in s.ships)


def _enemies_at(s: State, r: int, p: int) -> list:
    F = s.friends[p]
    out = [q for q in range(4) if q not in F and any(s.units[r][q])]
    for sh in s.ships:
        if sh.region == r and sh.owner not in F and sh.owner not in out:
            out.append(sh.owner)
    o = s.owner[r]
    out.sort(key=lambda q: (q != o, q))
    return out
