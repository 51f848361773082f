"""Dungeons (seed "Udforsk dungeons", RULES.md Part III): guardian tokens, the fight of the heroes
against every guardian on a dungeon (a `Battle` on dungeons.dungeon_rules, driven by the combat
phase: `combat._start_dungeon`), victory (gold, a treasure card) and flight."""
from __future__ import annotations

from .. import dungeons as dg
from ..battle import ingame as gb
from ..maps import REALMS
from .common import _enemies_at, _event, _named
from .fight import _dice_log, _roll_event
from .state import ArmyChain, Battle, CombatWindow, State
from .terrain import _move_units_out, _set_units
from .windows import _draw_treasure


def _dungeon_sites(s: State) -> list:
    """Dungeons where the current realm's explorers stand with no enemy troops: fights with the guardians."""
    b, p, t = s.board, s.realm, s.tab
    return [r for r in range(b.n) if b.is_dungeon[r] and any(s.units[r][p][u] for u in range(t.U) if t.explorer[u])
            and not _enemies_at(s, r, p)]


def _place_guardians(s: State, r: int, n: int) -> None:
    """Guardian tokens from the supply onto dungeon r (face down)."""
    g = s.guardians.setdefault(r, [])
    for _ in range(n):
        if not s.supply:
            break
        g.append(s.supply.pop())
    if not g:
        del s.guardians[r]
    s.revealed.discard(r)


def _open_dungeon(s: State, r: int) -> bool:
    """Seed "Udforsk dungeons": the heroes turn the token over and fight every guardian there at once
    (a battle on dungeons.dungeon_rules, set up as `s.battle`). False when no guardian waits."""
    p, t = s.realm, s.tab
    heroes = {t.names[u]: s.units[r][p][u] for u in range(t.U) if t.explorer[u] and s.units[r][p][u]}
    gids = s.guardians.get(r) if s.rules.dungeons else None
    if not gids:
        _event(s, "dungeon_empty", realm=REALMS[p], region=r, heroes=heroes)
        return False
    s.revealed.add(r)
    s.stats["dungeons_explored"][p] += 1
    G = s.cards.guardians
    explorers = None if t.explorer == t.hero else tuple(t.names[u] for u in range(t.U) if t.explorer[u])
    brules = dg.dungeon_rules(s.rules.battle, tuple(G[g] for g in gids), explorers)
    ta, td = gb.side_table(brules, "attacker", False), gb.side_table(brules, "defender", False)
    names = brules.units.names
    army = dg.guardian_army(G[g] for g in gids)
    bt = Battle()
    bt.region, bt.at_sea, bt.attacker, bt.round, bt.retreated = r, False, p, 0, False
    bt.owner0, bt.dungeon, bt.luck = -1, True, [0.0] * 4
    bt.step, bt.luck_base, bt.stack = 0, None, s.stack
    bt.att = ArmyChain(p, ta, [heroes.get(n, 0) for n in names])
    bt.defs = [ArmyChain(-1, td, [army.get(n, 0) for n in names])]
    bt.att.set_plan("cheapest")
    bt.defs[0].set_plan("cheapest")
    bt.windows = [CombatWindow(p, "attack")]
    s.battle = bt
    _event(s, "dungeon", realm=REALMS[p], region=r, heroes=heroes, guardians=[G[g].key for g in gids])
    return True


def _dungeon_round(s: State, rng) -> None:
    """One round of the fight: first strike, then the other dice; each hit on a guardian removes a die."""
    bt = s.battle
    att, g = bt.att, bt.defs[0]
    G = s.cards.guardians
    guardians = tuple(G[x] for x in s.guardians.get(bt.region, ()))
    plan = dg.wound_plan(g.t.names, g.t.cost, guardians) if dg.mixed_wounds(s.rules.battle, guardians) else None
    for first in (True, False):
        if s.log is not None:
            dice = _dice_log(bt, first)
        if plan is None:
            ha = gb.roll(att.t, att.army, rng, first)
            by_wound = None
        else:            # per-monster wound values (gap D1): each hit reaches a level, placed by dg.place_level_hits
            levels, order = plan
            by_level = dg.roll_levels(att.t, att.army, rng, first, levels)
            ha = sum(by_level)
            by_wound = {str(w): c for w, c in zip(levels, by_level)}
        hd = gb.roll(g.t, g.army, rng, first)
        if s.log is not None and (ha or hd or any(dice.values())):
            _roll_event(s, first, dice, [ha, hd], by_wound)
        att.k = att.at(att.k + hd)
        if plan is None:
            g.k = g.at(g.k + ha)
        elif ha:
            army = gb.copy_army(g.army)
            left = dg.place_level_hits([row[0] for row in army], by_level, levels, order)
            for u, c in enumerate(left):
                army[u][0] = c
            g.rebase(army)
    bt.round += 1


def _hero_survivors(s: State) -> list:
    """The heroes left, per unit type of the game's table."""
    bt, t = s.battle, s.tab
    left = gb.present(bt.att.t, bt.att.army)
    names = bt.att.t.names
    out = s.units[bt.region][bt.attacker][:]
    for u in range(t.U):
        if t.explorer[u]:
            out[u] = left[names.index(t.names[u])] if t.names[u] in names else out[u]
    return out


def _finish_dungeon(s: State, rng) -> None:
    """Victory (every guardian die removed, even in the round the last hero falls): the guardians' gold
    bonus, a treasure card, the dungeon counts as explored (surviving heroes must leave in the regroup;
    two new guardians follow). Otherwise the guardians stay (healed)."""
    bt = s.battle
    r, p = bt.region, bt.attacker
    _set_units(s, r, p, _hero_survivors(s))
    won = bt.defs[0].health == 0         # the last die removed: killed, even if the last hero fell too (gap D3)
    G = s.cards.guardians
    gids = s.guardians.get(r, [])
    if won:
        gold = sum(G[g].gold for g in gids)
        s.gold[p] += gold
        s.stats["guardian_gold"][p] += gold
        s.stats["dungeons_won"][p] += 1
        for g in gids:                       # defeated tokens go back into the supply (gap D4)
            s.supply.insert(int(rng.integers(len(s.supply) + 1)), g)
        del s.guardians[r]
        s.revealed.discard(r)
        s.dungeon_given[r] = s.dungeon_given.get(r, 0) + 1
        s.explored.add(r)
        _event(s, "dungeon_won", realm=REALMS[p], region=r, rounds=bt.round, gold=gold,
               heroes=_named(s, s.units[r][p]))
        _draw_treasure(s, p)
    else:
        _event(s, "dungeon_lost", realm=REALMS[p], region=r, rounds=bt.round, heroes=_named(s, s.units[r][p]))
    s.battle = None


def _flee_dungeon(s: State, dst: int) -> None:
    """Seed: "Hvis din helt flygter, bliver monstrene på feltet" — the heroes left go to `dst`."""
    bt = s.battle
    r, p, t = bt.region, bt.attacker, s.tab
    surv = _hero_survivors(s)
    _set_units(s, r, p, surv)
    moved = {}
    for u in range(t.U):
        if t.explorer[u] and s.units[r][p][u]:
            c = s.units[r][p][u]
            moved[t.names[u]] = c
            _move_units_out(s, r, dst, u, c)
    _event(s, "dungeon_fled", realm=REALMS[p], region=r, dst=dst, rounds=bt.round, units=moved,
           after=_named(s, s.units[r][p]))
    s.battle = None
