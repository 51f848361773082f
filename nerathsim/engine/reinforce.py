"""Reinforcements (seed phase 5): where new units may be placed (castles held since the start of the
turn, their limits, the fallback near the capital), buying them (`Buy`, after the reinforcements card
window): the `BuyUnits` frame (PH_BUY), whose EndPhase hands over to moving only the new units
(`movement.Reinforcements`, the part beneath it on the stack)."""
from __future__ import annotations

from ..game_actions import Buy, EndPhase
from ..maps import REALMS
from .common import _event, _new_ship
from .state import END_PHASE, M_REINFORCE, PH_BUY, Frame, IllegalActionError, State, next_part
from .terrain import _mob_add, _refresh_terrain
from .windows import _has_cards, _open_window


def placement_spots(s: State) -> dict:
    """Castle regions where the current realm may place new units this turn, each with its limit
    (None = unlimited), or the fallback regions nearest the capital when it holds no castle.

    Seed: held since the start of the turn (the capital also when just recaptured); unlimited in
    the capital, at most four elsewhere unless only one castle was held at the start of the turn.
    """
    if s.spots is not None:
        return s.spots
    b, t, p = s.board, s.tab, s.realm
    cu = t.castle_u
    cap = b.capitals[p]
    castles = [r for r in s.turn_castles if s.owner[r] == p and s.units[r][p][cu]]
    if not s.capital_held_start and s.owner[cap] == p and s.units[cap][p][cu] and cap not in castles:
        castles.append(cap)
    spots = {}
    if castles:
        unlimited = s.n_castles_start == 1
        for r in sorted(castles):
            spots[r] = None if (r == cap or unlimited) else s.rules.placement_limit
        s.spots = {"castles": spots, "fallback": []}
    else:
        dist = b.distances(cap)
        cand = [r for r in range(b.n) if not b.is_sea[r] and not b.is_dungeon[r] and s.owner[r] in s.friends[p]]
        if cand:
            best = min(dist[r] for r in cand)
            s.spots = {"castles": {}, "fallback": sorted(r for r in cand if dist[r] == best)}
        else:
            s.spots = {"castles": {}, "fallback": []}
    return s.spots


def _room(s: State, castle: int) -> int:
    lim = placement_spots(s)["castles"][castle]
    if lim is None:
        return 1 << 30
    return lim - s.placed.get(castle, 0)


def _charge_castle(s: State, at: int) -> int | None:
    """The castle a placement counts against: `at` itself, or for a sea the adjacent castle with
    most room (unlimited ones first)."""
    spots = placement_spots(s)["castles"]
    if at in spots:
        return at if _room(s, at) > 0 else None
    best, best_room = None, 0
    for x in s.board.adj[at]:
        if x in spots:
            room = _room(s, x)
            if room > best_room:
                best, best_room = x, room
    return best


def _castle_sites(s: State) -> list:
    """Where a bought castle goes (Rules.castle_placement): a land region without a castle, held since the
    start of the turn (and, for "next_to_castle", next to a castle the realm may place at)."""
    b, t, p = s.board, s.tab, s.realm
    cu = t.castle_u
    out = [r for r in b.land_regions if s.owner[r] == p and s.owner_start[r] == p
           and not any(s.units[r][q][cu] for q in range(4))]
    if s.rules.castle_placement == "next_to_castle":
        spots = placement_spots(s)["castles"]
        out = [r for r in out if any(x in spots for x in b.adj[r])]
    return out


def _buy_actions(s: State) -> list:
    b, t, p = s.board, s.tab, s.realm
    gold = s.gold[p]
    spots = placement_spots(s)
    castles, fallback = spots["castles"], spots["fallback"]
    land_spots = [r for r in castles if _room(s, r) > 0] + list(fallback)
    sea_spots = []
    seen = set()
    for r in castles:
        if _room(s, r) <= 0:
            continue
        for x in b.adj[r]:
            if b.is_sea[x] and not s.hostile[x] and x not in seen:
                seen.add(x)
                sea_spots.append(x)
    sea_spots.sort()
    ship_room = {x: sum(t.capacity[sh.utype] - len(sh.cargo) for sh in s.ships if sh.region == x and sh.owner == p)
                 for x in sea_spots}
    out = []
    names = t.names
    for u in range(t.U):
        if t.cost[u] > gold:
            continue
        if t.castle[u]:
            out += [Buy(names[u], r) for r in _castle_sites(s)]
        elif t.ship[u]:
            out += [Buy(names[u], x) for x in sea_spots]
        elif t.flyer[u]:
            out += [Buy(names[u], r) for r in land_spots]
            if t.sea_ender[u]:
                out += [Buy(names[u], x) for x in sea_spots]
        else:
            out += [Buy(names[u], r) for r in land_spots]
            out += [Buy(names[u], x) for x in sea_spots if ship_room[x] > 0]
    return out


def _any_buy(s: State) -> bool:
    """Is any Buy legal? (cheap checks first; the full list only when they cannot tell)"""
    t = s.tab
    gold = s.gold[s.realm]
    if gold < min(t.cost):
        return False
    spots = placement_spots(s)
    land_costs = [t.cost[u] for u in range(t.U) if t.land[u]]
    if land_costs and gold >= min(land_costs):
        if spots["fallback"] or any(_room(s, r) > 0 for r in spots["castles"]):
            return True
    return bool(_buy_actions(s))


def _buy_ok(s: State, a) -> bool:
    """Is Buy `a` legal? (the same answer as `a in _buy_actions(s)`)"""
    t, b = s.tab, s.board
    u = t.idx.get(a.unit) if isinstance(a.unit, str) else None
    at = a.at
    if u is None or isinstance(at, bool) or not isinstance(at, int) or not 0 <= at < b.n:
        return False
    if t.cost[u] > s.gold[s.realm]:
        return False
    if t.castle[u]:
        return at in _castle_sites(s)
    spots = placement_spots(s)
    castles = spots["castles"]
    if not b.is_sea[at]:
        if t.ship[u]:
            return False
        return (at in castles and _room(s, at) > 0) or at in spots["fallback"]
    if s.hostile[at] or not any(x in castles and _room(s, x) > 0 for x in b.adj[at]):
        return False
    if t.ship[u] or t.sea_ender[u]:
        return True
    if t.land[u]:
        p = s.realm
        return any(sh.region == at and sh.owner == p and len(sh.cargo) < t.capacity[sh.utype] for sh in s.ships)
    return False


def _start_buy(s: State) -> None:
    s.phase = PH_BUY
    s.mode = M_REINFORCE
    s.mob = {}
    s.spots = None
    s.placed = {}
    _refresh_terrain(s)
    for sh in s.ships:
        if sh.owner == s.realm:
            sh.moves, sh.unloaded, sh.landing = 0, False, -1
    if _has_cards(s):
        _open_window(s, "reinforcements", s.realm, -1, None)


def _resume_buy(s: State, rng) -> None:
    """After the reinforcements card window: the realm buys."""
    s.phase = PH_BUY
    s.current_player, s.decider = s.seat_of[s.realm], s.realm


def _do_buy(s: State, a: Buy) -> None:
    b, t, p = s.board, s.tab, s.realm
    u = t.idx[a.unit]
    s.gold[p] -= t.cost[u]
    s.stats["gold_spent"][p] += t.cost[u]
    s.stats["units_bought"][p] += 1
    s.spent[p][u] += t.cost[u]
    at = a.at
    if not t.castle[u]:
        castle = _charge_castle(s, at) if placement_spots(s)["castles"] else None
        if castle is not None:
            s.placed[castle] = s.placed.get(castle, 0) + 1
    ship = -1
    if t.ship[u]:
        sh = _new_ship(s, p, u, at, t.move[u])
        sh.new = True
        ship = sh.id
    elif b.is_sea[at] and t.land[u]:
        sh = min((sh for sh in s.ships if sh.region == at and sh.owner == p and len(sh.cargo) < t.capacity[sh.utype]),
                 key=lambda sh: (-len(sh.cargo), sh.id))
        sh.cargo.append(u)
        ship = sh.id
    else:
        s.units[at][p][u] += 1
        s._touched.append(at)
        if t.mobile[u]:
            _mob_add(s, at, u, 1, t.move[u])
    if s.log is not None:
        _event(s, "buy", realm=REALMS[p], unit=a.unit, at=at, gold=s.gold[p], cost=t.cost[u], ship=ship)


class BuyUnits(Frame):
    """Frame (PH_BUY): seed phase 5, the realm whose turn it is buys new units (`Buy`), after the
    reinforcements card window (pushed above it: `resume` rests here when it closes); EndPhase: the new
    units move (`movement.Reinforcements`)."""

    __slots__ = ()
    phase = PH_BUY

    def legal(self, s: State) -> list:
        return _buy_actions(s) + [END_PHASE]

    def is_legal(self, s: State, a) -> bool:
        ty = type(a)
        return ty is EndPhase or (ty is Buy and _buy_ok(s, a))

    def apply(self, s: State, a, rng) -> None:
        ty = type(a)
        if ty is Buy:
            _do_buy(s, a)
        elif ty is EndPhase:
            self.finish(s, rng)
        else:
            raise IllegalActionError(f"unknown action {a!r}")

    def step(self, s: State, rng) -> bool:
        if _any_buy(s):
            return True
        self.finish(s, rng, auto=True)           # nothing to buy: EndPhase would be the only legal action
        return False

    def enter(self, s: State, rng) -> None:
        _start_buy(s)

    def resume(self, s: State, rng) -> None:
        _resume_buy(s, rng)

    def finish(self, s: State, rng, auto: bool = False) -> None:
        next_part(s, rng)
