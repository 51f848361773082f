"""The combat phase (seed phase 3): sea battles first, then the land stage (landings, battles and
walk-in conquests in the attacker's order), then the dungeons; each battle's card windows, casualty
choices, rounds, press-or-retreat and end (conquest, VP, monsters running amok); then the regroup.

Its frames: `BattleOrder` (PH_COMBAT), the combat phase's part of the turn, which stays beneath every
decision of its battles and resumes the battle under way (or the next battle) when the frame above it
is done; `PressOrRetreat` (PH_PRESS) and `AmokFrame` (PH_AMOK) pushed above it. A battle's combat card
windows (its `CombatWindow`s, opened as `windows.CardWindow`s), casualty choices and hits to place
(`fight.CasualtyChoice`, `fight.HitsToPlace`, pushed at once in the order they are resolved) lie above
it too."""
from __future__ import annotations

from ..battle import ingame as gb
from ..game_actions import Amok, Fight, Pass, PressOn, RetreatTo
from ..maps import REALMS
from .common import _enemies_at, _event, _named, _present_at, _with, ships_view
from .dungeons import _dungeon_round, _dungeon_sites, _finish_dungeon, _flee_dungeon, _open_dungeon
from .fight import (
    CasualtyChoice,
    HitsToPlace,
    _apply_survivors,
    _ask,
    _battle_over,
    _fight_round,
    _offer_windows,
    _place_hits,
    _roll_step,
    _set_fleet,
    _start_battle,
    _step_luck,
)
from .state import (
    M_MOVE,
    PASS,
    PH_AMOK,
    PH_COMBAT,
    PH_PRESS,
    PRESS_ON,
    ChangingFrame,
    Frame,
    IllegalActionError,
    State,
    next_part,
)
from .terrain import _mob_add, _mob_remove, _move_units_out, _refresh_terrain, _set_units, _terrain_at
from .windows import _open_window


def _start_combat(s: State, rng) -> None:
    """Seed phase 3: "Dog skal alle søslag afvikles inden landkampe (inklusiv forsøg på landgang)"."""
    b, p = s.board, s.realm
    s.phase = PH_COMBAT
    s.mode = M_MOVE
    s.stage = "sea"
    s.sites = [r for r in range(b.n) if b.is_sea[r] and s.hostile[r] and _present_at(s, r, p)]
    _next_battle(s, rng)


def _next_battle(s: State, rng) -> None:
    """The next battle of the combat phase, or the land stage, or the regroup phase (the part of the turn
    beneath `BattleOrder` on the stack)."""
    s.battle = None
    while True:
        if s.stage == "dungeon":
            while s.sites:
                r = s.sites.pop(0)
                if _start_dungeon(s, r, rng):
                    return
            next_part(s, rng)
            return
        if s.sites:
            if len(s.sites) == 1:
                if _start_site(s, s.sites.pop(), rng):
                    return
                s.battle = None
                continue
            s.phase = PH_COMBAT
            s.current_player, s.decider = s.seat_of[s.realm], s.realm
            return
        if s.stage == "sea":
            s.stage = "land"
            _start_land_stage(s)
            continue
        s.stage = "dungeon"
        s.sites = _dungeon_sites(s) if s.rules.dungeon_fights_last else []


def _start_dungeon(s: State, r: int, rng) -> bool:
    """The heroes at dungeon r fight its guardians (dungeons._open_dungeon), when any wait there.
    Returns True when the state rests at a decision."""
    return _open_dungeon(s, r) and _battle_continue(s, rng)


def _dungeon_over(s: State, rng) -> bool:
    """The dungeon fight is over (dungeons._finish_dungeon); an immediate treasure drawn is played at once,
    then the combat phase goes on. Returns True when the state rests at that card window."""
    p = s.battle.attacker
    _finish_dungeon(s, rng)
    return bool(s.must_play[p]) and _open_window(s, "immediate", p, -1, None)


def _start_site(s: State, r: int, rng) -> bool:
    """Resolve the attack at r chosen by the attacker (seed: "Angriberen vælger, i hvilken rækkefølge
    kampene afvikles"): a battle where enemy troops stand, a fight with the guardians in a dungeon, or
    the conquest of an empty enemy region (seed: "Det er et angreb"), after which monsters may run amok.
    Returns True when the state rests at a decision."""
    b, p = s.board, s.realm
    if _enemies_at(s, r, p):
        _start_battle(s, r)
        return _battle_continue(s, rng)
    if b.is_dungeon[r]:
        return _start_dungeon(s, r, rng) if r not in s.explored else False
    if s.owner[r] not in s.friends[p] and _can_capture(s, s.units[r][p]):
        _capture(s, r, p, how="walk_in")
        _terrain_at(s, r)
        return _offer_amok(s, r)
    return False


def _offer_amok(s: State, r: int) -> bool:
    """Seed: "Hvis der er monstre i angriberens hær, kan de nu gå amok" — rest at the amok decision."""
    t, p = s.tab, s.realm
    monsters = sum(s.units[r][p][u] for u in range(t.U) if t.monster[u])
    if monsters:
        seat = s.seat_of[p]
        s.stack.append(AmokFrame(p, seat, r, monsters))
        if amok_targets(s):
            s.phase = PH_AMOK
            s.current_player, s.decider = seat, p
            s.battle = None
            return True
        s.stack.pop()
    return False


def _start_land_stage(s: State) -> None:
    b, p = s.board, s.realm
    _refresh_terrain(s)
    # landings from seas whose battle was won
    for sh in s.ships:
        if sh.owner == p and sh.landing >= 0:
            if not s.hostile[sh.region]:
                for u in sh.cargo:
                    s.units[sh.landing][p][u] += 1
                    _mob_add(s, sh.landing, u, 1, 0)
                s._touched.append(sh.landing)
                _event(s, "unload", realm=REALMS[p], ship=sh.id, sea=sh.region, dst=sh.landing, units=list(sh.cargo),
                       landing=True)
                sh.cargo = []
            sh.landing = -1
    sites = []
    for r in range(b.n):
        if b.is_sea[r]:
            continue
        mine = s.units[r][p]
        if not any(mine):
            continue
        if _enemies_at(s, r, p):
            sites.append(r)          # (a dungeon holding enemy troops too: they fight there)
        elif not b.is_dungeon[r] and s.owner[r] not in s.friends[p] and _can_capture(s, mine):
            if s.rules.walk_in_attack:
                sites.append(r)      # an attack like any other: in the attacker's order, monsters may run amok
            else:
                _capture(s, r, p, how="walk_in")
                _terrain_at(s, r)
    if not s.rules.dungeon_fights_last:
        sites += [r for r in _dungeon_sites(s) if r not in sites]
    s.sites = sorted(sites)


def _can_capture(s: State, counts: list) -> bool:
    t = s.tab
    return any(c and (t.land[u] or (t.flyer[u] and s.rules.flyers_capture)) for u, c in enumerate(counts))


def _capture(s: State, r: int, p: int, how: str) -> None:
    """Conquest of region r by realm p: ownership, captured castles, VP (seed step 5), alliance hand-over."""
    b, rules = s.board, s.rules
    old = s.owner[r]
    new = p
    ally = s.ally[p]
    if ally >= 0 and b.start_area[r] == ally:
        new = ally          # seed: "kontrollen over området overgår øjeblikkeligt til din alliancepartner"
    s.owner[r] = new
    cu = s.tab.castle_u
    for q in range(4):
        if q != new and s.units[r][q][cu]:
            s.units[r][new][cu] += s.units[r][q][cu]
            s.units[r][q][cu] = 0
            s._touched.append(r)
    if old >= 0:
        s.stats["regions_lost"][old] += 1
    s.stats["conquests"][p] += 1
    if how == "amok":
        s.stats["amok_conquests"][p] += 1
    gained = 0
    area = b.start_area[r]
    scores = area >= 0 and area not in s.friends[p] and (how != "amok" or rules.amok_scores_vp)
    if scores and not (rules.vp_once_per_region and r in s.conquered[p]):
        cap = b.capital_of[r]
        if cap >= 0 and cap not in s.friends[p]:
            gained = rules.capital_vp + (rules.region_vp if rules.capital_vp_stacks else 0)
        else:
            gained = rules.region_vp
        s.vp[p] += gained
    s.conquered[p].add(r)
    _event(s, "capture", realm=REALMS[p], region=r, from_realm=REALMS[old] if old >= 0 else None,
           to_realm=REALMS[new], vp=gained, how=how)


def _run_battle(s: State, rng) -> None:
    """Go on with the battle under way; when it ends (and no amok decision waits), the next one."""
    if not _battle_continue(s, rng):
        _next_battle(s, rng)


def _battle_continue(s: State, rng) -> bool:
    """The battle's card windows first, then its casualty choices (the frames on top), then rounds until
    a decision or the end of the battle.

    Returns True when the state rests at a decision (a card window, a casualty order, hits to place,
    press or retreat, run amok), False when the battle is over and the combat phase goes on."""
    bt = s.battle
    if _offer_windows(s):                    # when the window closes, the frame beneath goes on
        return True
    if bt.dungeon:
        s.current_player, s.decider = s.seat_of[s.realm], s.realm
        while True:
            _dungeon_round(s, rng)
            if bt.att.health == 0 or bt.defs[0].health == 0:
                return _dungeon_over(s, rng)
            if _can_retreat(s):
                _rest_press(s)
                return True
            if bt.round >= 10_000:
                raise RuntimeError(f"dungeon fight at region {bt.region} still undecided after {bt.round} rounds")
    top = s.stack[-1]
    if type(top) is CasualtyChoice:         # the next casualty choice (pushed when the battle started)
        _ask(s, top)
        return True
    s.current_player, s.decider = s.seat_of[s.realm], s.realm
    if s.rules.casualty_choice == "each_hit":
        return _battle_by_hits(s, rng)
    while True:
        _fight_round(s, rng)
        if _battle_over(s):
            return _finish_battle(s)
        if _can_retreat(s):
            _rest_press(s)
            return True
        if bt.round >= 10_000:
            raise RuntimeError(f"battle at region {bt.region} still undecided after {bt.round} rounds")


def _rest_press(s: State) -> None:
    """Rest at the attacker's press-or-retreat decision (seed step 4)."""
    s.stack.append(PressOrRetreat(s.realm, s.seat_of[s.realm]))
    s.phase = PH_PRESS


def _battle_by_hits(s: State, rng) -> bool:
    """Rounds of steps 1–3 where each side places its own hits (decision Hit), then step 4."""
    bt = s.battle
    while True:
        if type(s.stack[-1]) is HitsToPlace:   # the step's hits, pushed when it was rolled
            if _place_hits(s):
                return True
            _step_luck(s)
            s.current_player, s.decider = s.seat_of[s.realm], s.realm
        if bt.step == 2:
            bt.step = 0
            bt.round += 1
            if _battle_over(s):
                return _finish_battle(s)
            if _can_retreat(s):
                _rest_press(s)
                return True
            if bt.round >= 10_000:
                raise RuntimeError(f"battle at region {bt.region} still undecided after {bt.round} rounds")
            continue
        first = bt.step == 0
        bt.step += 1
        _roll_step(s, rng, first)


def retreat_options(s: State) -> list:
    """Seed step 4: to an adjacent friendly land space; flyers also to a friendly sea; land units to
    warships in an adjacent friendly sea when no friendly land is adjacent. Sea battles: to an
    adjacent friendly sea (flyers alone also to friendly land). One destination for the whole army."""
    bt = s.battle
    if bt is None:
        return []
    b, t, p = s.board, s.tab, s.realm
    r = bt.region
    if bt.dungeon:
        return [x for x in b.adj[r] if not b.is_sea[x] and not b.is_dungeon[x] and s.owner[x] in s.friends[p]
                and not _enemies_at(s, x, p)]
    counts = gb.present(bt.att.t, bt.att.army)
    land_units = sum(c for u, c in enumerate(counts) if t.land[u])
    flyers_only = all(not c or t.flyer[u] for u, c in enumerate(counts))
    out = []
    if bt.at_sea:
        for x in b.adj[r]:
            if b.is_sea[x] and not s.hostile[x]:
                out.append(x)
            elif flyers_only and s.fr_land[x] and s.owner[x] in s.friends[p]:
                out.append(x)
        return out
    fr = [x for x in b.adj[r] if not b.is_sea[x] and not b.is_dungeon[x] and s.owner[x] in s.friends[p]]
    out = list(fr)
    for x in b.adj[r]:
        if not b.is_sea[x] or s.hostile[x]:
            continue
        if land_units == 0:
            out.append(x)
        elif not fr:
            room = sum(t.capacity[sh.utype] - len(sh.cargo) for sh in s.ships if sh.region == x and sh.owner == p)
            if room >= land_units:
                out.append(x)
    return out


def _can_retreat(s: State) -> bool:
    """`bool(retreat_options(s))`, without listing the options when one is plain to see (an adjacent friendly
    land region in a land battle, an adjacent friendly sea in a sea battle): after each round the battle
    only asks whether the attacker may retreat."""
    bt = s.battle
    if bt is not None and not bt.dungeon:
        b = s.board
        adj = b.adj[bt.region]
        if bt.at_sea:
            is_sea, hostile = b.is_sea, s.hostile
            if any(is_sea[x] and not hostile[x] for x in adj):
                return True
        else:
            is_sea, is_dun, owner, F = b.is_sea, b.is_dungeon, s.owner, s.friends[s.realm]
            if any(not is_sea[x] and not is_dun[x] and owner[x] in F for x in adj):
                return True
    return bool(retreat_options(s))


def _retreat(s: State, dst: int) -> None:
    """The attacker's surviving units (healed) withdraw to `dst`; the defender wins the battle."""
    bt = s.battle
    b, t, p = s.board, s.tab, s.realm
    r = bt.region
    bt.retreated = True
    survivors = gb.present(bt.att.t, bt.att.army)
    moved = []
    if bt.at_sea:
        ships = [sh for sh in s.ships if sh.region == r and sh.owner == p]
        _set_fleet(s, p, r, ships, survivors)
        for sh in s.ships:
            if sh.region == r and sh.owner == p:
                sh.region, sh.landing = dst, -1
                sh.moves = 0
        counts = s.units[r][p][:]
        for u in range(t.U):
            if t.flyer[u]:
                counts[u] = survivors[u]
        _set_units(s, r, p, counts)
        for u in range(t.U):
            if t.flyer[u] and survivors[u]:
                _move_units_out(s, r, dst, u, survivors[u])
                moved.append((u, survivors[u]))
    else:
        for u in range(t.U):
            lost = s.units[r][p][u] - survivors[u]
            if lost > 0:
                _set_units(s, r, p, _with(s.units[r][p], u, survivors[u]))
        to_sea = b.is_sea[dst]
        for u in range(t.U):
            c = survivors[u]
            if not c:
                continue
            if to_sea and t.land[u]:
                s.units[r][p][u] -= c
                s._touched.append(r)
                for _ in range(c):
                    sh = min((sh for sh in s.ships if sh.region == dst and sh.owner == p
                              and len(sh.cargo) < t.capacity[sh.utype]), key=lambda sh: (-len(sh.cargo), sh.id))
                    sh.cargo.append(u)
                _mob_remove(s, r, u, c)
            else:
                _move_units_out(s, r, dst, u, c)
            moved.append((u, c))
    _event(s, "retreat", realm=REALMS[p], region=r, dst=dst, units={t.names[u]: c for u, c in moved},
           ships_after=ships_view(s, (r, dst)) if s.log is not None else None)


def _finish_battle(s: State) -> bool:
    """Seed step 5: survivors (healed), captured castles, conquest and VP, then running amok.

    Returns True when monsters may run amok (the state rests at that decision)."""
    bt = s.battle
    b, t, p = s.board, s.tab, s.realm
    r = bt.region
    att, defs = bt.att, bt.defs
    a_out = att.health == 0
    d_out = all(d.health == 0 for d in defs)
    if bt.retreated:
        outcome = "defender_wins"
    elif a_out and d_out:
        outcome = "draw"
    elif d_out:
        outcome = "attacker_wins"
    else:
        outcome = "defender_wins"
    # defenders' survivors
    for d in defs:
        surv = gb.present(d.t, d.army, keep_silenced=True)
        if d_out:
            surv = [c if t.castle[u] else 0 for u, c in enumerate(surv)]
        if outcome == "attacker_wins":
            surv = [c if t.castle[u] else 0 for u, c in enumerate(surv)]   # castles are captured below
        _apply_survivors(s, r, d.realm, surv, bt.at_sea)
    if not bt.retreated:
        surv = [0] * t.U if a_out else gb.present(att.t, att.army)
        _apply_survivors(s, r, p, surv, bt.at_sea)
    s.stats["luck"] = [x + y for x, y in zip(s.stats["luck"], bt.luck)]
    if outcome == "attacker_wins":
        s.stats["attacks_won"][p] += 1
        s.stats["battles_won"][p] += 1
    else:
        for d in defs:
            s.stats["battles_won"][d.realm] += 1
    if s.log is not None:
        _event(s, "battle_end", realm=REALMS[p], region=r, outcome=outcome, rounds=bt.round,
               attacker=_named(s, gb.present(att.t, att.army)) if not a_out else {},
               luck=round(bt.luck[p], 3),
               after={REALMS[q]: _named(s, s.units[r][q]) for q in range(4) if any(s.units[r][q])},
               ships_after=ships_view(s, (r,)), lucks={REALMS[q]: round(bt.luck[q], 3) for q in range(4)
                                                       if q == p or any(d.realm == q for d in defs)})
    _terrain_at(s, r)
    if (outcome == "attacker_wins" and b.is_dungeon[r] and s.stage == "land" and not s.rules.dungeon_fights_last
            and r in _dungeon_sites(s)):
        s.sites.append(r)            # the heroes left face the guardians too, when the attacker chooses
    if outcome == "attacker_wins" and not bt.at_sea and not b.is_dungeon[r]:
        if _can_capture(s, s.units[r][p]):
            _capture(s, r, p, how="battle")
            _terrain_at(s, r)
            s.battle = None
            if _offer_amok(s, r):
                return True
    s.battle = None
    return False


def amok_targets(s: State) -> list:
    """Seed: monsters "må rykke ind i et tilstødende fjendtlig felt uden modstandere og straks erobre feltet"."""
    if s.amok is None:
        return []
    r = s.amok.region
    b, p = s.board, s.realm
    F = s.friends[p]
    out = []
    for x in b.adj[r]:
        if b.is_sea[x] or b.is_dungeon[x] or s.owner[x] in F or s.owner[x] < 0:
            continue
        if any(any(s.units[x][q]) for q in range(4)):
            continue
        out.append(x)
    return out


def _do_amok(s: State, dst: int) -> bool:
    """One monster runs amok; returns True when running amok is over for this battle."""
    t, p = s.tab, s.realm
    r = s.amok.region
    u = next(u for u in range(t.U) if t.monster[u] and s.units[r][p][u])
    s.units[r][p][u] -= 1
    s.units[dst][p][u] += 1
    s._touched += (r, dst)
    _mob_remove(s, r, u, 1)
    _mob_add(s, dst, u, 1, 0)
    _event(s, "amok", realm=REALMS[p], src=r, dst=dst, unit=t.names[u])
    _capture(s, dst, p, how="amok")
    _terrain_at(s, dst)
    s.amok.monsters -= 1
    if s.amok.monsters <= 0 or not s.units[r][p][u] or not amok_targets(s):
        s.stack.pop()                       # running amok is over: the AmokFrame leaves the stack
        return True
    return False


# --- the frames -------------------------------------------------------------------------------
class BattleOrder(Frame):
    """Frame (PH_COMBAT): the combat phase (seed phase 3), the realm whose turn it is choosing which
    attack to resolve next (`Fight`, offered while two or more remain). It stays beneath every decision
    of its battles: when the frame above it is done it `resume`s the battle under way, or goes on to
    the next battle; when no fight is left, the regroup (the part beneath it) begins."""

    __slots__ = ()
    phase = PH_COMBAT

    def legal(self, s: State) -> list:
        return [Fight(r) for r in s.sites]

    def is_legal(self, s: State, a) -> bool:
        return type(a) is Fight and a.region in s.sites

    def apply(self, s: State, a, rng) -> None:
        if type(a) is not Fight:
            raise IllegalActionError(f"unknown action {a!r}")
        s.sites.remove(a.region)
        if not _start_site(s, a.region, rng):
            _next_battle(s, rng)

    def enter(self, s: State, rng) -> None:
        _start_combat(s, rng)

    def resume(self, s: State, rng) -> None:
        """After a card window, or the battle's last queued decision (its last casualty choice, the last
        realm's hits placed): the battle goes on; after a dungeon's treasure card window (the fight is
        over): the next battle."""
        if s.battle is not None:
            _run_battle(s, rng)
        else:
            _next_battle(s, rng)


class PressOrRetreat(Frame):
    """Frame (PH_PRESS): after a round, the attacker (`realm`, the turn's realm) presses on or retreats
    (seed step 4; in a dungeon: flees)."""

    __slots__ = ()
    phase = PH_PRESS

    def legal(self, s: State) -> list:
        return [PRESS_ON] + [RetreatTo(r) for r in retreat_options(s)]

    def is_legal(self, s: State, a) -> bool:
        return type(a) is PressOn or (type(a) is RetreatTo and a.dst in retreat_options(s))

    def apply(self, s: State, a, rng) -> None:
        ty = type(a)
        if ty is PressOn:
            s.stack.pop()
            _event(s, "press_on", realm=REALMS[s.realm], region=s.battle.region)
            _run_battle(s, rng)
        elif ty is RetreatTo:
            s.stack.pop()
            if s.battle.dungeon:
                _flee_dungeon(s, a.dst)
                _next_battle(s, rng)
            else:
                _retreat(s, a.dst)
                _finish_battle(s)
                _next_battle(s, rng)
        else:
            raise IllegalActionError(f"unknown action {a!r}")


class AmokFrame(ChangingFrame):
    """Frame (PH_AMOK): up to `monsters` monsters of `realm` (the turn's realm) may run amok from `region`."""

    __slots__ = ("region", "monsters")
    phase, slot = PH_AMOK, "amok"

    def __init__(self, realm: int, seat: int, region: int, monsters: int):
        self.realm, self.seat, self.region, self.monsters = realm, seat, region, monsters

    def copy(self) -> "AmokFrame":
        return AmokFrame(self.realm, self.seat, self.region, self.monsters)

    def legal(self, s: State) -> list:
        return [Amok(r) for r in amok_targets(s)] + [PASS]

    def is_legal(self, s: State, a) -> bool:
        return type(a) is Pass or (type(a) is Amok and a.dst in amok_targets(s))

    def apply(self, s: State, a, rng) -> None:
        ty = type(a)
        if ty is Amok:
            if _do_amok(s, a.dst):
                _next_battle(s, rng)
        elif ty is Pass:
            s.stack.pop()
            _event(s, "amok_declined", realm=REALMS[s.realm])
            _next_battle(s, rng)
        else:
            raise IllegalActionError(f"unknown action {a!r}")

    def __repr__(self):
        return f"AmokFrame(realm={self.realm}, region={self.region}, monsters={self.monsters})"
