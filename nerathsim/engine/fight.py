"""One battle inside the game (seed steps 1–5 on battle.ingame's small integer arrays): its set-up with
the `CombatWindow`s and `CasualtyChoice`s it needs, the rounds (whole rounds, or step by step with
`HitsToPlace` frames when each side places its own hits), the luck figure, and the survivors put
back on the board (warships sunk, cargo drowned). The combat phase (`combat`) drives it.

A battle's decisions still to come are frames on the one stack, pushed at once above the combat phase's
`BattleOrder` in the order they are resolved (the next on top): the casualty choices when the battle
starts (its card windows, offered first, open above them), the hits each realm places when a step is
rolled (the attacker's on top, then each defender's). When one is done it pops itself and the frame
beneath resumes: the next casualty choice is asked, the next realm places its hits, or (none left) the
battle goes on (`BattleOrder.resume`)."""
from __future__ import annotations

import numpy as np

from ..battle import ingame as gb
from ..game_actions import Casualties, Hit
from ..maps import REALMS
from .common import _army_counts, _enemies_at, _event, _named
from .state import (
    PH_CASUALTY,
    PH_HIT,
    ArmyChain,
    Battle,
    ChangingFrame,
    CombatWindow,
    Frame,
    IllegalActionError,
    LuckBase,
    State,
    resume_below,
)
from .terrain import _set_units
from .windows import _open_window


class CasualtyChoice(Frame):
    """Frame (PH_CASUALTY): `realm` chooses the casualty order of its army at the start of the battle
    (`Rules.casualty_choice` "order"). Pushed when the battle starts, one per side with two or more kinds
    of units (the attacker's on top); the battle's card windows open above them. When the window or the
    choice above it is done it `resume`s: the battle's next card window, or this choice is asked. Once
    chosen it pops itself and the frame beneath resumes (the next choice, or the battle goes on). Never
    changed (a clone shares it)."""

    __slots__ = ()
    phase = PH_CASUALTY

    def legal(self, s: State) -> list:
        return [Casualties(o) for o in gb.CASUALTY_ORDERS]

    def is_legal(self, s: State, a) -> bool:
        return type(a) is Casualties and a.order in gb.CASUALTY_ORDERS

    def apply(self, s: State, a, rng) -> None:
        if type(a) is not Casualties:
            raise IllegalActionError(f"unknown action {a!r}")
        _chain_of(s.battle, self.realm).set_plan(a.order)
        _event(s, "casualty_order", realm=REALMS[self.realm], order=a.order)
        resume_below(s, rng)

    def resume(self, s: State, rng) -> None:
        if not _offer_windows(s):
            _ask(s, self)


class HitsToPlace(ChangingFrame):
    """Frame (PH_HIT): `realm` still places `hits` hits of the current step on its own army, one by one
    (`Rules.casualty_choice` "each_hit"). Pushed when the step is rolled, one per side (the attacker's on
    top, then each defender's); its owner is asked while the choice matters (`_place_hits`), otherwise
    the hits are placed by its plan. When its hits are placed it pops itself and the frame beneath
    resumes (the next realm's hits, or the battle goes on)."""

    __slots__ = ("hits",)
    phase = PH_HIT

    def __init__(self, realm: int, seat: int, hits: int):
        self.realm, self.seat, self.hits = realm, seat, hits

    def copy(self) -> "HitsToPlace":
        return HitsToPlace(self.realm, self.seat, self.hits)

    def legal(self, s: State) -> list:
        return hit_actions(s)

    def is_legal(self, s: State, a) -> bool:
        return type(a) is Hit and a in hit_actions(s)

    def apply(self, s: State, a, rng) -> None:
        if type(a) is not Hit:
            raise IllegalActionError(f"unknown action {a!r}")
        _do_hit(s, self, a)
        # when this realm's hits are all placed, `_place_hits` pops this frame and goes on: the next realm's
        # hits, or (the last) the step's luck figure and the battle goes on
        _go_on_placing(s, rng)

    def resume(self, s: State, rng) -> None:
        _go_on_placing(s, rng)

    def __repr__(self):
        return f"HitsToPlace(realm={self.realm}, hits={self.hits})"


def _ask(s: State, f: Frame) -> None:
    """Rest at battle decision `f` (the top of the stack)."""
    s.phase = f.phase
    s.current_player, s.decider = f.seat, f.realm


def _offer_windows(s: State) -> bool:
    """Offer the battle's combat card windows still to come, in order; True when one opens (the state rests
    there; when it closes, the frame beneath resumes and the next is offered)."""
    bt = s.battle
    while bt.windows:
        w = bt.windows.pop(0)
        if _open_window(s, "combat", w.realm, bt.region, w.role):
            return True
    return False


def _start_battle(s: State, r: int) -> None:
    b, p = s.board, s.realm
    br = s.rules.battle
    at_sea = b.is_sea[r]
    bt = Battle()
    bt.region, bt.at_sea, bt.attacker, bt.round, bt.retreated = r, at_sea, p, 0, False
    bt.owner0 = s.owner[r]
    ta, td = gb.side_table(br, "attacker", at_sea), gb.side_table(br, "defender", at_sea)
    per_ship = at_sea and s.rules.drowning == "per_ship"
    bt.att = ArmyChain(p, ta, _army_counts(s, r, p), loads=_fleet_loads(s, r, p) if per_ship else None)
    bt.defs = [ArmyChain(q, td, _army_counts(s, r, q), loads=_fleet_loads(s, r, q) if per_ship else None)
               for q in _enemies_at(s, r, p)]
    bt.luck = [0.0] * 4
    bt.step, bt.luck_base, bt.stack = 0, None, s.stack
    by_order = s.rules.casualty_choice == "order"
    choices = []
    for ch in [bt.att] + bt.defs:
        ch.set_plan("cheapest")      # each_hit: the yardstick of the luck figure and the order cargo drowns in
        kinds = sum(1 for u in ch.t.take_idx if sum(ch.states[0][u]))
        if kinds >= 2 and by_order:
            choices.append(CasualtyChoice(ch.realm, s.seat_of[ch.realm]))
    s.stack.extend(reversed(choices))       # the attacker's choice on top, then each defender's
    bt.dungeon = False
    bt.windows = [CombatWindow(p, "attack")] + [CombatWindow(d.realm, "defence") for d in bt.defs]
    s.battle = bt
    for ch in [bt.att] + bt.defs:
        s.stats["battles_fought"][ch.realm] += 1
    s.stats["attacks"][p] += 1
    if s.log is not None:
        _event(s, "battle", realm=REALMS[p], region=r, at_sea=at_sea,
               attacker=_named(s, gb.present(ta, bt.att.states[0], True)),
               defenders={REALMS[d.realm]: _named(s, gb.present(td, d.states[0], True)) for d in bt.defs})


def _sinking_order(s: State, ships: list) -> list:
    """The order in which a realm's warships go down (its owner's choice, gap G17): the least valuable
    cargo first (empty ships first), then fewer units aboard, then the ship id."""
    cost = s.tab.cost
    return sorted(ships, key=lambda sh: (sum(cost[u] for u in sh.cargo), len(sh.cargo), sh.id))


def _fleet_loads(s: State, r: int, q: int) -> tuple:
    """Cargo count vectors of q's carrying warships at sea region r, in sinking order (Rules.drowning "per_ship")."""
    t = s.tab
    out = []
    for sh in _sinking_order(s, [sh for sh in s.ships if sh.region == r and sh.owner == q]):
        if t.capacity[sh.utype]:
            load = [0] * t.U
            for u in sh.cargo:
                load[u] += 1
            out.append(tuple(load))
    return tuple(out)


def _roll_step(s: State, rng, first: bool) -> None:
    """Step 1 (first strike) or 2 (other attacks): every side rolls; the hits each side must place are
    pushed as `HitsToPlace` frames (the attacker's on top, then the defenders', allied shares split as
    the seed says)."""
    bt = s.battle
    att, defs = bt.att, bt.defs
    # each side's dice, worked out once for the hit distributions and the rolls (the armies do not change
    # in between)
    pools = [gb.side_pool(att.t, att.army, first)] + [gb.side_pool(d.t, d.army, first) for d in defs]
    pa = gb.pool_distribution(pools[:1])
    pd = gb.pool_distribution(pools[1:])
    if len(pa) <= 1 and len(pd) <= 1:
        return
    e_def = _expected_def_loss(s, pa)
    e_att = _expected_att_loss(bt, pd)
    bt.luck_base = LuckBase(e_def, e_att, att.lost[att.k], [d.lost[d.k] for d in defs])
    ha, hd = _roll_sides(s, rng, first, pools)
    seat_of = s.seat_of
    placing = [HitsToPlace(att.realm, seat_of[att.realm], hd)] + [
        HitsToPlace(d.realm, seat_of[d.realm], h) for d, h in zip(defs, _defender_allot(s, ha))]
    s.stack.extend(reversed(placing))


def _roll_sides(s: State, rng, first: bool, pools: list | None = None) -> tuple[int, int]:
    """Every side of the battle rolls (attacker first, then each defender, in that order of draws);
    logs the roll when recording. `pools`: the sides' dice in that order (`gb.side_pool`) when already
    worked out. Returns (the attacker's hits, the defenders' hits together)."""
    bt = s.battle
    att, defs = bt.att, bt.defs
    if s.log is not None:
        dice = _dice_log(bt, first)
    if pools is None:
        pools = [gb.side_pool(att.t, att.army, first)] + [gb.side_pool(d.t, d.army, first) for d in defs]
    ha = gb.roll_pool(pools[0], rng)
    hd = 0
    rolled = [ha]
    for pl in pools[1:]:
        rolled.append(gb.roll_pool(pl, rng))
        hd += rolled[-1]
    if s.log is not None:
        _roll_event(s, first, dice, rolled)
    return ha, hd


def _dice_log(bt: Battle, first: bool) -> dict:
    return {(REALMS[ch.realm] if ch.realm >= 0 else "guardians"): gb.dice_by_unit(ch.t, ch.army, first)
            for ch in [bt.att] + bt.defs}


def _roll_event(s: State, first: bool, dice: dict, rolled: list, by_wound: dict | None = None) -> None:
    """Event `roll`: the dice each side rolled in step 1 (first strike) or 2 and the hits they scored;
    in a dungeon fight with per-monster wound values also the heroes' hits by the wound value they reach."""
    bt = s.battle
    names = list(dice)
    extra = {} if by_wound is None else {"hits_by_wound": by_wound}
    _event(s, "roll", realm=REALMS[bt.attacker], region=bt.region, battle_round=bt.round + 1,
           step="first_strike" if first else "other", dice=dice, hits=dict(zip(names, rolled)),
           dungeon=bool(bt.dungeon), **extra)


def _chain_of(bt: Battle, realm: int) -> ArmyChain:
    return bt.att if bt.att.realm == realm else next(d for d in bt.defs if d.realm == realm)


def _place_hits(s: State) -> bool:
    """Place the hits of the `HitsToPlace` frames on top of the stack, the top first (each popped when its
    hits are placed); rest at one whose owner has a real choice (two or more places and fewer hits than
    it can take — otherwise every unit that can take a hit is lost anyway)."""
    bt, stack = s.battle, s.stack
    while type(stack[-1]) is HitsToPlace:
        frame = stack[-1]
        realm, n = frame.realm, frame.hits
        ch = _chain_of(bt, realm)
        while n > 0 and ch.health > 0:
            opts = gb.hit_options(ch.t, ch.army)
            if len(opts) > 1 and n < ch.health:
                frame.hits = n
                _ask(s, frame)
                return True
            dmg, u = opts[0] if len(opts) == 1 else _plan_choice(ch)
            _hit(s, ch, dmg, u)
            n -= 1
        stack.pop()
    return False


def _go_on_placing(s: State, rng) -> None:
    """The hit frames on top place their hits (`_place_hits`); when none waits for its owner, the step's
    luck figure, and the battle goes on (the frame beneath them, `BattleOrder`, resumes)."""
    if _place_hits(s):
        return
    _step_luck(s)
    s.stack[-1].resume(s, rng)


def _plan_choice(ch: ArmyChain) -> tuple:
    """Where the side's plan puts the next hit (used when the choice cannot matter)."""
    opts = gb.hit_options(ch.t, ch.army)
    for tok in ch.plan.hits:
        if tok in opts:
            return tok
    return opts[0]


def _hit(s: State, ch: ArmyChain, dmg: bool, u: int, chosen: bool = False) -> None:
    army = gb.copy_army(ch.army)
    before = gb.present(ch.t, army) if s.log is not None else None      # only the event reads it
    gb.apply_hit(ch.t, army, dmg, u, ch.plan.drown, ch.plan.loads)
    ch.rebase(army)
    if s.log is not None:
        after = gb.present(ch.t, army)
        t = ch.t
        lost = {t.names[x]: before[x] - after[x] for x in range(t.U) if before[x] > after[x] and x != u}
        _event(s, "hit", realm=REALMS[ch.realm], region=s.battle.region, unit=gb.hit_token(t, dmg, u),
               killed=before[u] > after[u], drowned=lost, chosen=chosen)


def hit_actions(s: State) -> list:
    """PH_HIT: one Hit per distinct place the deciding realm's next hit may go (the `HitsToPlace` on top)."""
    ch = _chain_of(s.battle, s.stack[-1].realm)
    return [Hit(gb.hit_token(ch.t, dmg, u)) for dmg, u in gb.hit_options(ch.t, ch.army)]


def _do_hit(s: State, frame: HitsToPlace, a: Hit) -> bool:
    """`frame`'s owner places one hit where `a` says; True when its hits are all placed (or its army is gone)."""
    ch = _chain_of(s.battle, frame.realm)
    for dmg, u in gb.hit_options(ch.t, ch.army):
        if gb.hit_token(ch.t, dmg, u) == a.unit:
            _hit(s, ch, dmg, u, chosen=True)
            break
    frame.hits -= 1
    return frame.hits <= 0 or ch.health == 0


def _step_luck(s: State) -> None:
    """After a step's hits are placed: the luck figure (gold destroyed against what the roll was
    expected to destroy, both under the sides' default plans)."""
    bt = s.battle
    base = bt.luck_base
    if base is None:
        return
    e_def, e_att, lost_a0, lost_d0 = base.e_def, base.e_att, base.lost_att, base.lost_defs
    bt.luck_base = None
    att, defs = bt.att, bt.defs
    act_att = lost_a0 - att.lost[att.k]
    act_def = sum(l0 - d.lost[d.k] for l0, d in zip(lost_d0, defs))
    swing = (act_def - e_def) - (act_att - e_att)
    bt.luck[att.realm] += swing
    total = sum(d.start_gold for d in defs) or 1
    for d in defs:
        bt.luck[d.realm] -= swing * (d.start_gold / total if len(defs) > 1 else 1.0)


def _battle_over(s: State) -> bool:
    bt = s.battle
    return bt.att.health == 0 or all(d.health == 0 for d in bt.defs)


def _defender_allot(s: State, hits: int) -> list:
    bt = s.battle
    defs = bt.defs
    if len(defs) == 1:
        return [hits]
    owner_i = next((i for i, d in enumerate(defs) if d.realm == bt.owner0), 0)
    return gb.split_hits(hits, [d.health for d in defs], [d.troops() for d in defs], owner_i,
                         s.rules.ally_damage_split)


def _take_hits_att(bt: Battle, hits: int) -> None:
    ch = bt.att
    ch.k = ch.at(ch.k + hits)


def _take_hits_def(s: State, hits: int) -> None:
    bt = s.battle
    for d, h in zip(bt.defs, _defender_allot(s, hits)):
        if h:
            d.k = d.at(d.k + h)


def _expected_att_loss(bt: Battle, pmf: tuple) -> float:
    """E[gold the attacker loses] when it takes hits ~ pmf (a tuple of floats, `gb.hit_distribution`)."""
    n = len(pmf)
    if n <= 1:
        return 0.0
    return _expected_chain_loss(bt.att, pmf, n)


def _expected_chain_loss(ch: ArmyChain, pmf: tuple, n: int) -> float:
    kept = _kept_values(ch, n)
    base = kept[0]
    e = 0.0
    for h in range(1, n):
        e += pmf[h] * (base - kept[h])
    return np.float64(e)      # the type (and value) the numpy pmf gave: `round` of the luck stat keeps its digits


#: the gold a side keeps after 0, 1, ... n-1 more hits under its casualty plan from an army state (the
#: wiped-out state's value once it is wiped out): the luck figure's yardstick, by (side table, plan, the
#: state as tuples, n). A pure function of its key (the table and plan are never changed and are held
#: by the key), so a module-level cache, keyed by value, holding maths only.
_KEPT: dict = {}


def _kept_values(ch: ArmyChain, n: int) -> tuple:
    """`ch.lost` of the chain's states k, k+1, ... k+n-1 as `ArmyChain.at` would make them (each state one
    hit of the plan after the one before, none after the wiped-out one), remembered by army state in
    `_KEPT` instead of growing the chain: a side that places its own hits starts a new chain at every
    hit, so the states made for the yardstick were never used again."""
    army = ch.army
    key = (ch.t, ch.plan, tuple(map(tuple, army)), n)
    got = _KEPT.get(key)
    if got is None:
        t, plan, k = ch.t, ch.plan, ch.k
        kept = [ch.lost[k]]
        alive = ch.healths[k] > 0
        a = army
        for _h in range(1, n):
            if alive:
                a = gb.copy_army(a)
                gb._one_hit(t, a, plan)
                kept.append(gb.lost_value(t, a))
                alive = gb.health(t, a) > 0
            else:
                kept.append(kept[-1])
        got = tuple(kept)
        if len(_KEPT) >= 16384:           # ~1 kB an entry: a bounded table
            _KEPT.clear()
        _KEPT[key] = got
    return got


def _expected_def_loss(s: State, pmf: tuple) -> float:
    """E[gold the defenders lose] when they take hits ~ pmf, allied shares split as the seed says."""
    bt = s.battle
    n = len(pmf)
    if n <= 1:
        return 0.0
    if len(bt.defs) == 1:
        return _expected_chain_loss(bt.defs[0], pmf, n)
    e = 0.0
    for h in range(1, n):
        loss = 0
        for d, share in zip(bt.defs, _defender_allot(s, h)):
            j = d.at(d.k + share)
            loss += d.lost[d.k] - d.lost[j]
        e += pmf[h] * loss
    return np.float64(e)


def _fight_round(s: State, rng) -> None:
    """Seed steps 1–3 (combat.fight_round), with the exact expected losses of each roll for the luck figure."""
    bt = s.battle
    att, defs = bt.att, bt.defs
    for first in (True, False):
        pools = [gb.side_pool(att.t, att.army, first)] + [gb.side_pool(d.t, d.army, first) for d in defs]
        pa = gb.pool_distribution(pools[:1])
        pd = gb.pool_distribution(pools[1:])
        if len(pa) <= 1 and len(pd) <= 1:
            continue
        e_def = _expected_def_loss(s, pa)
        e_att = _expected_att_loss(bt, pd)
        lost_a0 = att.lost[att.k]
        lost_d0 = [d.lost[d.k] for d in defs]
        ha, hd = _roll_sides(s, rng, first, pools)
        _take_hits_att(bt, hd)
        _take_hits_def(s, ha)
        act_att = lost_a0 - att.lost[att.k]
        act_def = sum(l0 - d.lost[d.k] for l0, d in zip(lost_d0, defs))
        swing = (act_def - e_def) - (act_att - e_att)
        bt.luck[att.realm] += swing
        total = sum(d.start_gold for d in defs) or 1
        for d in defs:
            bt.luck[d.realm] -= swing * (d.start_gold / total if len(defs) > 1 else 1.0)
    bt.round += 1


def _apply_survivors(s: State, r: int, q: int, surv: list, at_sea: bool) -> None:
    t = s.tab
    if at_sea:
        ships = [sh for sh in s.ships if sh.region == r and sh.owner == q]
        _set_fleet(s, q, r, ships, surv)
        counts = s.units[r][q][:]
        for u in range(t.U):
            if not t.ship[u] and not t.land[u]:
                counts[u] = surv[u]
        _set_units(s, r, q, counts)
    else:
        _set_units(s, r, q, surv)


def _set_fleet(s: State, q: int, r: int, ships: list, survivors: list) -> None:
    """After a sea battle: keep as many of q's warships at r as survived (those with cargo first)
    and put the surviving cargo back aboard (each ship keeps what it carried where possible);
    sunk ships and drowned cargo are recorded as losses."""
    t = s.tab
    if s.rules.drowning == "per_ship":
        _set_fleet_per_ship(s, q, ships, survivors)
        return
    by_type: dict[int, list] = {}
    for sh in ships:
        by_type.setdefault(sh.utype, []).append(sh)
    keep = []
    cargo_before: dict[int, int] = {}
    for sh in ships:
        for u in sh.cargo:
            cargo_before[u] = cargo_before.get(u, 0) + 1
    for ut, group in by_type.items():
        group.sort(key=lambda sh: (-len(sh.cargo), sh.id))
        n = survivors[ut]
        lost = group[n:]
        for sh in lost:
            s.ships.remove(sh)
        s.stats["units_lost"][q] += len(lost)
        s.stats["gold_lost"][q] += len(lost) * t.cost[ut]
        keep += group[:n]
    pool = {u: min(survivors[u], c) for u, c in cargo_before.items()}
    for u, c in cargo_before.items():
        d = c - pool[u]
        s.stats["units_lost"][q] += d
        s.stats["gold_lost"][q] += d * t.cost[u]
    leftovers = []
    for sh in keep:
        new = []
        for u in sh.cargo:
            if pool.get(u, 0) > 0:
                pool[u] -= 1
                new.append(u)
        sh.cargo = new
    for u, c in pool.items():
        leftovers += [u] * c
    for sh in keep:
        while leftovers and len(sh.cargo) < t.capacity[sh.utype]:
            sh.cargo.append(leftovers.pop())
    assert not leftovers, "surviving cargo without room aboard"


def _set_fleet_per_ship(s: State, q: int, ships: list, survivors: list) -> None:
    """Seed: "Enheder om bord på et warship, der udslettes, drukner": the warships sunk are the first
    of the sinking order (the battle sank them in that order), and their cargo drowns with them;
    units hit in the battle are taken from the cargo of the ships afloat, first ships first."""
    t = s.tab
    order = _sinking_order(s, ships)
    lost = {}
    for ut in {sh.utype for sh in order}:
        group = [sh for sh in order if sh.utype == ut]
        n_sunk = max(0, len(group) - survivors[ut])
        for sh in group[:n_sunk]:
            s.ships.remove(sh)
            lost[ut] = lost.get(ut, 0) + 1
            for u in sh.cargo:
                lost[u] = lost.get(u, 0) + 1
    afloat = [sh for sh in order if sh in s.ships]
    left = {}
    for sh in afloat:
        for u in sh.cargo:
            left[u] = left.get(u, 0) + 1
    for u, c in left.items():
        extra = c - min(c, survivors[u])
        lost[u] = lost.get(u, 0) + extra
        for sh in afloat:
            while extra and u in sh.cargo:
                sh.cargo.remove(u)
                extra -= 1
    for u, c in lost.items():
        s.stats["units_lost"][q] += c
        s.stats["gold_lost"][q] += c * t.cost[u]
