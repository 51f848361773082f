"""Movement (seed phase 2), the regroup (phase 4) and the moves of new units (phase 5): the Move,
Embark, Sail and Unload actions of the realm whose turn it is, the turn-start card windows before the
moves (`_turn_windows`), and their frames `Movement` (PH_MOVE), `Regroup` (PH_REGROUP) and
`Reinforcements` (PH_REINFORCE): parts of the turn whose EndPhase (`finish`) hands over to the part
beneath them on the stack, and which `finish` by themselves (`step`) when nothing is left to move."""
from __future__ import annotations

from ..game_actions import Embark, EndPhase, Move, Sail, Unload
from ..maps import REALMS
from .common import _event, _with
from .dungeons import _place_guardians
from .state import (
    C_SHIP,
    END_PHASE,
    M_MOVE,
    M_REGROUP,
    M_REINFORCE,
    PH_MOVE,
    PH_REGROUP,
    PH_REINFORCE,
    Frame,
    IllegalActionError,
    State,
    next_part,
)
from .terrain import _cache_for, _mob_add, _reach, _refresh_terrain, _set_units, move_able
from .windows import _has_cards, _open_window


def _move_groups(s: State) -> list:
    """[(src, unit index, ((dst, able), ...), total)] for the current realm's mobile units, in listing order."""
    t = s.tab
    out = []
    mode = s.mode
    full = s.reach
    for src, groups in s.mob.items():
        skey = ("src", src, tuple(groups.items()), mode)
        got_src = full.get(skey)
        if got_src is None:
            got_src = []
            by_u: dict[int, list] = {}
            for (u, m), c in groups.items():
                if m > 0 and c > 0:
                    by_u.setdefault(u, []).append((m, c))
            for u, ms in by_u.items():
                ms.sort()
                most, _c = ms[-1]
                key = ("mg", src, u, t.cls[u], tuple(ms), mode)
                cache = _cache_for(s, t.cls[u], mode)
                got = cache.get(key)
                if got is None:
                    got = []
                    for dst, cost, _stop in _reach(s, src, t.cls[u], most, mode):
                        able = 0
                        for m, c in ms:
                            if m >= cost:
                                able += c
                        if able:
                            got.append((dst, able))
                    got = cache[key] = tuple(got)
                if got:
                    got_src.append((src, u, got, sum(a for _d, a in got)))
            got_src = full[skey] = tuple(got_src)
        out.extend(got_src)
    return out


class MoveList:
    """The Move actions of the current decision, decoded on demand (same order as legal_actions).
    The groups are listed on first use, so asking only whether moves exist costs nothing more."""

    __slots__ = ("_s", "_groups", "names", "_n")

    def __init__(self, state, names):
        self._s, self.names = state, names
        self._groups, self._n = None, None

    @property
    def groups(self) -> list:
        if self._groups is None:
            self._groups = _move_groups(self._s)
            self._n = sum(total for _src, _u, _dests, total in self._groups)
        return self._groups

    def __len__(self):
        if self._n is None:
            self.groups
        return self._n

    def __getitem__(self, i):
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        for src, u, dests, total in self.groups:
            if i >= total:
                i -= total
                continue
            for dst, able in dests:
                if i < able:
                    return Move(src, dst, self.names[u], i + 1)
                i -= able
        raise IndexError(i)

    def __iter__(self):
        names = self.names
        for src, u, dests, _total in self.groups:
            for dst, able in dests:
                for k in range(1, able + 1):
                    yield Move(src, dst, names[u], k)


def _has_moves(s: State) -> bool:
    """Is any Move legal? (stops at the first unit with somewhere to go)"""
    t = s.tab
    for src, groups in s.mob.items():
        for (u, m), c in groups.items():
            if m > 0 and c > 0 and _reach(s, src, t.cls[u], m, s.mode):
                return True
    return False


def _move_actions(s: State) -> list:
    moves, *others = _move_kinds(s)
    out = list(moves)
    for k in others:
        out += k
    return out


def _move_kinds(s: State) -> list:
    """[moves (a MoveList), embarks, sails, unloads] of the current movement-type decision."""
    t, b, p = s.tab, s.board, s.realm
    names = t.names
    moves = MoveList(s, names)
    embarks, sails, unloads = [], [], []
    if s.mode == M_REGROUP:
        return [moves, embarks, sails, unloads]
    for sh in s.ships:
        if sh.owner != p or sh.unloaded:
            continue
        r = sh.region
        cap = t.capacity[sh.utype] - len(sh.cargo)
        if sh.landing < 0 and not s.hostile[r] and cap > 0:
            for x in b.adj[r]:
                if not s.fr_land[x] or not s.mob.get(x):
                    continue
                for u in _boarders(s, x):
                    embarks.append(Embark(x, sh.id, names[u]))
        if sh.moves > 0 and (s.mode == M_MOVE or sh.new):
            for dst, _c, _st in _reach(s, r, C_SHIP, sh.moves, s.mode):
                sails.append(Sail(sh.id, dst))
        if sh.cargo and sh.landing < 0 and (s.mode == M_MOVE or sh.new):
            for x in b.adj[r]:
                if b.is_sea[x] or b.is_dungeon[x]:
                    continue
                if s.mode == M_REINFORCE and not s.fr_land[x]:
                    continue
                unloads.append(Unload(sh.id, x))
    return [moves, embarks, sails, unloads]


def _boarders(s: State, x: int) -> list:
    """Unit types at x that may go aboard now (seed: they must stand on the coast; they end their own move)."""
    t = s.tab
    after = s.rules.board_after_move
    out = []
    for (u, m), c in s.mob.get(x, {}).items():
        if c and t.land[u] and t.carriable[u] and (m >= 1 if after else m == t.move[u]) and u not in out:
            out.append(u)
    return out


def _may_end_regroup(s: State) -> bool:
    """Seed: heroes that explored a dungeon *must* leave it (when a friendly region is adjacent)."""
    p, t = s.realm, s.tab
    for r in s.explored:
        if any(s.units[r][p][u] for u in range(t.U) if t.hero[u]) and any(s.fr_land[x] for x in s.board.adj[r]):
            return False
    return True


def _anything_to_move(s: State) -> bool:
    for groups in s.mob.values():
        for (_u, m), c in groups.items():
            if m > 0 and c > 0:
                return True
    if s.mode == M_REGROUP:
        return False
    p = s.realm
    for sh in s.ships:
        if sh.owner == p and not sh.unloaded and (s.mode == M_MOVE or sh.new) and (sh.moves > 0 or sh.cargo):
            return True
    return False


def _do_move(s: State, a: Move) -> None:
    t = s.tab
    u = t.idx[a.unit]
    p = s.realm
    cost = stop = None
    groups = s.mob[a.src]
    budget = max(m for (uu, m), c in groups.items() if uu == u and c > 0)
    for dst, c, st in _reach(s, a.src, t.cls[u], budget, s.mode):
        if dst == a.dst:
            cost, stop = c, st
            break
    left = a.count
    for m in sorted(m for uu, m in groups if uu == u and m >= cost and groups[(uu, m)] > 0):
        if left <= 0:
            break
        key = (u, m)
        k = min(groups[key], left)
        groups[key] -= k
        if not groups[key]:
            del groups[key]
        left -= k
        _mob_add(s, a.dst, u, k, 0 if stop else m - cost)
    s.units[a.src][p][u] -= a.count
    s.units[a.dst][p][u] += a.count
    s._touched += (a.src, a.dst)
    if s.log is not None:
        _event(s, "move", realm=REALMS[p], src=a.src, dst=a.dst, unit=a.unit, count=a.count)


def _do_embark(s: State, a: Embark) -> None:
    t = s.tab
    u = t.idx[a.unit]
    p = s.realm
    sh = s.ship(a.ship)
    g = s.mob[a.src]
    if s.rules.board_after_move:
        key = (u, min(m for uu, m in g if uu == u and m >= 1 and g[(uu, m)]))
    else:
        key = (u, t.move[u])
    g[key] -= 1
    if not g[key]:
        del g[key]
    s.units[a.src][p][u] -= 1
    s._touched.append(a.src)
    sh.cargo.append(u)
    _event(s, "embark", realm=REALMS[p], src=a.src, ship=a.ship, unit=a.unit, sea=sh.region)


def _do_sail(s: State, a: Sail) -> None:
    sh = s.ship(a.ship)
    for dst, c, st in _reach(s, sh.region, C_SHIP, sh.moves, s.mode):
        if dst == a.dst:
            sh.moves = 0 if st else sh.moves - c
            break
    _event(s, "sail", realm=REALMS[s.realm], ship=a.ship, src=sh.region, dst=a.dst)
    sh.region = a.dst


def _do_unload(s: State, a: Unload) -> None:
    """Seed: "et skib [må] ikke flytte yderligere, når det har landsat tropper"; the landed troops
    stop. From a hostile sea the landing waits for the sea battle ("skal de dog først bekæmpe
    eventuelle fjender")."""
    sh = s.ship(a.ship)
    p = s.realm
    sh.unloaded, sh.moves = True, 0
    if s.hostile[sh.region]:
        sh.landing = a.dst
        _event(s, "landing_declared", realm=REALMS[p], ship=a.ship, sea=sh.region, dst=a.dst, units=list(sh.cargo))
        return
    for u in sh.cargo:
        s.units[a.dst][p][u] += 1
        _mob_add(s, a.dst, u, 1, 0)
    s._touched.append(a.dst)
    _event(s, "unload", realm=REALMS[p], ship=a.ship, sea=sh.region, dst=a.dst, units=list(sh.cargo))
    sh.cargo = []


def _start_regroup(s: State) -> None:
    """Seed phase 4: heroes and flyers may move again (no new battles)."""
    b, t, p = s.board, s.tab, s.realm
    s.phase, s.mode = PH_REGROUP, M_REGROUP
    s.current_player, s.decider = s.seat_of[p], p
    _refresh_terrain(s)
    full = s.rules.regroup_move == "full"
    movers = [u for u in range(t.U) if (t.hero[u] or t.flyer[u]) and t.mobile[u]]   # who may move again
    nobody = [0] * t.U                      # a row of counts with no unit
    new_mob = {}
    for r in range(b.n):
        row = s.units[r][p]
        if row == nobody:                   # the realm has nothing here (most regions; compared in C)
            continue
        for u in movers:
            if not row[u]:
                continue
            if full or r in s.explored:
                new_mob.setdefault(r, {})[(u, t.move[u])] = row[u]
            else:
                g = s.mob.get(r, {})
                for (uu, m), c in g.items():
                    if uu == u and c:
                        new_mob.setdefault(r, {})[(u, m)] = new_mob.get(r, {}).get((u, m), 0) + c
    s.mob = new_mob


def _end_regroup(s: State) -> None:
    """Flyers must reach friendly land (storm elementals may end at a friendly sea), otherwise they die."""
    b, t, p = s.board, s.tab, s.realm
    _refresh_terrain(s)
    flyers = [u for u in range(t.U) if t.flyer[u]]
    nobody = [0] * t.U                      # a row of counts with no unit
    for r in range(b.n):
        row = s.units[r][p]
        if row == nobody:                   # the realm has nothing here (most regions; compared in C)
            continue
        for u in flyers:
            if not row[u]:
                continue
            ok = s.fr_land[r] or (t.sea_ender[u] and b.is_sea[r] and not s.hostile[r])
            if not ok:
                c = row[u]
                s.stats["flyers_lost"][p] += c
                _set_units(s, r, p, _with(row, u, 0))
                _event(s, "flyers_lost", realm=REALMS[p], region=r, unit=t.names[u], count=c)
    _event(s, "end_regroup", realm=REALMS[p])
    if s.rules.dungeons:
        cap = s.rules.treasures_per_dungeon
        for r in sorted(s.explored):
            if cap is not None and s.dungeon_given.get(r, 0) >= cap:
                _event(s, "dungeon_closed", realm=REALMS[p], region=r, treasures=s.dungeon_given[r])
                continue
            _place_guardians(s, r, s.rules.new_guardians)
            if s.log is not None:
                _event(s, "guardians_placed", realm=REALMS[p], region=r,
                       tokens=[s.cards.guardians[g].key for g in s.guardians.get(r, [])])


def _start_reinforce(s: State) -> None:
    """Seed: "Når du har købt dine nye tropper, må du straks efter flytte dem ... Du må dog ikke starte
    nogen kampe." Only the new units move; no hostile or dungeon destination."""
    s.phase = PH_REINFORCE
    s.mode = M_REINFORCE
    _refresh_terrain(s)


def _turn_windows(s: State) -> None:
    """Start of a turn: immediate cards drawn must be played, then kept movement cards may be; then phase 2.
    A window is pushed above `Movement`, which comes back here when it closes (`Movement.resume`)."""
    p = s.realm
    if _has_cards(s):
        if s.must_play[p] and _open_window(s, "immediate", p, -1, None):
            return
        if "movement" not in s.win_done:
            s.win_done.add("movement")
            if _open_window(s, "movement", p, -1, None):
                return
    s.phase = PH_MOVE
    s.current_player, s.decider = s.seat_of[p], p


# --- the frames ------------------------------------------------------------------------------
def _legal(s: State, end_ok: bool) -> list:
    out = _move_actions(s)
    if end_ok:
        out.append(END_PHASE)
    return out


def legal_by_kind(s: State, end_ok: bool = True) -> list:
    """The legal actions grouped by kind, kinds in order of first appearance in the listing
    and actions within a kind in listing order (moves as a lazily decoded MoveList)."""
    moves, *others = _move_kinds(s)
    out = [moves] if _has_moves(s) else []
    out += [k for k in others if k]
    if end_ok:
        out.append([END_PHASE])
    return out


def _is_legal(s: State, a, end_ok, ships: bool) -> bool:
    """Same answer as `a in _legal(s, end_ok(s))`; `ships`: warship actions exist in this decision."""
    ty = type(a)
    if ty is EndPhase:
        return end_ok(s)
    if ty is Move:
        if not isinstance(a.count, int) or isinstance(a.count, bool) or a.count < 1:
            return False
        if not isinstance(a.unit, str) or a.unit not in s.tab.idx or a.src not in s.mob:
            return False
        return a.count <= move_able(s, a.src, s.tab.idx[a.unit], a.dst)      # 0: dst is not a destination
    if not ships or ty not in (Embark, Sail, Unload):
        return False
    sh = s.ship(a.ship)
    if sh is None or sh.owner != s.realm or sh.unloaded:
        return False
    b = s.board
    if ty is Embark:
        t = s.tab
        if a.unit not in t.idx or sh.landing >= 0 or s.hostile[sh.region]:
            return False
        if len(sh.cargo) >= t.capacity[sh.utype] or a.src not in b.adj[sh.region] or not s.fr_land[a.src]:
            return False
        return t.idx[a.unit] in _boarders(s, a.src)
    if not (s.mode == M_MOVE or sh.new):
        return False
    if ty is Sail:
        return sh.moves > 0 and any(dst == a.dst for dst, _c, _st in _reach(s, sh.region, C_SHIP, sh.moves, s.mode))
    # Unload
    x = a.dst
    if not sh.cargo or sh.landing >= 0 or not isinstance(x, int) or not 0 <= x < b.n:
        return False
    if x not in b.adj[sh.region] or b.is_sea[x] or b.is_dungeon[x]:
        return False
    return s.mode != M_REINFORCE or s.fr_land[x]


def _always(s: State) -> bool:
    return True


class _Moving(Frame):
    """A part of the turn in which the realm whose turn it is moves (the mode, `s.mode`, sets the
    rules: seed phases 2, 4 and 5); EndPhase (`finish`) hands over to the part beneath it, and so does
    `step` when nothing is left to move (EndPhase would be the only legal action)."""

    __slots__ = ()
    ships = True                    # Embark, Sail and Unload exist in this decision
    end_ok = staticmethod(_always)  # may the realm end this part now?

    def legal(self, s: State) -> list:
        return _legal(s, self.end_ok(s))

    def by_kind(self, s: State) -> list:
        return legal_by_kind(s, self.end_ok(s))

    def is_legal(self, s: State, a) -> bool:
        return _is_legal(s, a, self.end_ok, self.ships)

    def apply(self, s: State, a, rng) -> None:
        ty = type(a)
        if ty is Move:
            _do_move(s, a)
        elif ty is Embark:
            _do_embark(s, a)
        elif ty is Sail:
            _do_sail(s, a)
        elif ty is Unload:
            _do_unload(s, a)
        elif ty is EndPhase:
            self.finish(s, rng)
        else:
            raise IllegalActionError(f"unknown action {a!r}")

    def step(self, s: State, rng) -> bool:
        if _anything_to_move(s):
            return True
        self.finish(s, rng, auto=True)
        return False

    def finish(self, s: State, rng, auto: bool = False) -> None:
        next_part(s, rng)


class Movement(_Moving):
    """Frame (PH_MOVE): seed phase 2, after the turn-start card windows (pushed above it; when one
    closes, `resume` offers the next one or rests here). EndPhase: the combat phase (`combat.BattleOrder`)."""

    __slots__ = ()
    phase = PH_MOVE

    def resume(self, s: State, rng) -> None:
        _turn_windows(s)

    def finish(self, s: State, rng, auto: bool = False) -> None:
        if auto:
            _event(s, "end_movement", realm=REALMS[s.realm], auto=True)
        else:
            _event(s, "end_movement", realm=REALMS[s.realm])
        next_part(s, rng)


class Regroup(_Moving):
    """Frame (PH_REGROUP): seed phase 4, heroes and flyers move again (no warships); EndPhase only once
    no hero must still leave an explored dungeon; then flyers away from friendly land die, guardians
    return, and buying (`reinforce.BuyUnits`) begins."""

    __slots__ = ()
    phase = PH_REGROUP
    ships = False
    end_ok = staticmethod(_may_end_regroup)

    def step(self, s: State, rng) -> bool:
        if _anything_to_move(s) or not _may_end_regroup(s):
            return True
        self.finish(s, rng, auto=True)
        return False

    def enter(self, s: State, rng) -> None:
        _start_regroup(s)

    def finish(self, s: State, rng, auto: bool = False) -> None:
        _end_regroup(s)
        next_part(s, rng)


class Reinforcements(_Moving):
    """Frame (PH_REINFORCE): seed phase 5 after buying, only the new units move; EndPhase: income and
    the next realm (`turn.Income`)."""

    __slots__ = ()
    phase = PH_REINFORCE

    def enter(self, s: State, rng) -> None:
        _start_reinforce(s)
