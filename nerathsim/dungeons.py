"""Dungeon guardians as battle armies: the fight of heroes against the guardians of a dungeon.

Seed, "Udforsk dungeons": only heroes (fighters and wizards) explore; "I kampfasen kæmper din helt
mod monstret på brikken efter de normale kampregler. Er der flere monstre på feltet, skal din
helt/dine helte kæmpe mod dem alle samtidig. Bemærk, at nogle monstre kræver flere hits for at
blive besejret. Hvert hit fjerner en angrebsterning fra monstret, som er dræbt, hvis den sidste
terning fjernes. Du kan også møde monstre med first strike (medusaer) eller monstre, der er
særligt stærke og derfor kræver 7+ eller 8+ på terningen for at blive såret."

So a guardian with `dice` dice is `dice` one-die units of its own type (each hit removes one
die), and the fight is an ordinary battle — heroes attacking, guardians defending — on a unit
table made of the heroes and the guardians present (`dungeon_rules`), fought by the same code
as every other battle (battle.ingame in the engine, battle.exact for the odds a policy may ask
for: `fight_odds`). The hero side assigns its hits to the most dangerous guardian dice first.

Wound values are per monster (the text: a monster "kræver 7+ eller 8+ med terningen for at blive
såret"; gap D1, `BattleRules.guardian_wounds="per_monster"`): when guardians of different wound
values share a fight, every hero die's roll counts — a 6 is a hit only on a 6+ guardian, a 7 also
on a 7+ one, an 8 on every one. The heroes roll each die into a *level* (the highest wound value
it reaches, `roll_levels`), and the hits are placed weakest level first, each on the most
dangerous guardian die it can wound (`place_level_hits`: as many dice removed as the rolls allow,
the dangerous ones first); a hit that can wound nothing left is lost. Such a fight is not one
battle of the generic solvers (a hit is not a number but a vector of levels), so `level_fight`
computes it exactly by its own forward recursion (same casualty plan for the heroes, same
rounds) and `fight_odds`/`fight_chance` use it. With equal wound values (or the variant
"strongest": every hero die needs the highest value, nerath-battles-2) the fight is an ordinary
battle at that threshold.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from .battle import ingame as gb
from .battle import odds_table as OT
from .battle.dice import hit_probability, poisson_binomial_pmf
from .battle.odds import battle_odds, odds_from_table
from .battle.outcomes import ATTACKER_WINS, DEFENDER_HOLDS, DRAW, EndTable, collapse
from .battle.rules import BattleRules
from .battle.steps import Retreat
from .battle.units import Unit, UnitTable


def guardian_unit_name(key: str) -> str:
    return f"guardian_{key}"


@lru_cache(maxsize=512)
def dungeon_rules(brules: BattleRules, guardians: tuple, explorers: tuple | None = None) -> BattleRules:
    """BattleRules for the explorers (unit names of the base table; None = its heroes) against
    `guardians` (a tuple of Guardian, repeats allowed): guardian units cost their rank (strongest = 0)
    so the default casualty plan (cheapest first) removes the most dangerous dice first."""
    base = brules.units
    if explorers is None:
        heroes = [u for u in base.units if u.hero or u.explores_dungeons]
    else:
        heroes = [base[n] for n in explorers]
    kinds = sorted(set(guardians), key=lambda g: (-(1 + g.first_strike) * (g.die - 5) / g.die, g.key))
    gunits = []
    for rank, g in enumerate(kinds):
        gunits.append(Unit(name=guardian_unit_name(g.key), cost=rank, die=g.die, move=0, attack_dice=1,
                           defence_dice=1, first_strike=g.first_strike, domain="land"))
    if not guardians:
        wound = brules.hit_threshold
    elif brules.guardian_wounds == "per_monster":
        wound = min(g.wound_on for g in guardians)     # a roll reaching the weakest guardian's value is a hit
    else:
        wound = max(g.wound_on for g in guardians)     # variant: the strongest monster sets the bar
    table = UnitTable(tuple(heroes) + tuple(gunits))
    return replace(brules, units=table, attacker_hit_threshold=wound,
                   defender_hit_threshold=brules.threshold("defender"))


def mixed_wounds(brules: BattleRules, guardians) -> bool:
    """True when the fight needs per-die levels: per-monster wound values and two values present."""
    return brules.guardian_wounds == "per_monster" and len({g.wound_on for g in guardians}) > 1


def wound_plan(names, cost, guardians) -> tuple:
    """(levels, order): the distinct wound values ascending, and ((table index, wound value), ...) of
    the guardian units in their casualty order (most dangerous first = lowest cost)."""
    wound = {guardian_unit_name(g.key): g.wound_on for g in guardians}
    order = sorted(((names.index(n), w) for n, w in wound.items()), key=lambda iw: (cost[iw[0]], iw[0]))
    return tuple(sorted(set(wound.values()))), tuple(order)


def level_chances(t, u: int, levels: tuple) -> list:
    """P(a die of unit u reaches level k) for each level: its needed roll is its threshold against the
    weakest value (`t.thr`, a card bonus included) plus the difference of wound values; a re-roll of
    misses (card) re-rolls a die that missed the weakest value."""
    base = t.thr[u]
    miss0 = 1.0 - hit_probability(t.die[u], base)
    out = []
    for w in levels:
        q = hit_probability(t.die[u], base + (w - levels[0]))
        out.append(q + miss0 * q if t.reroll[u] else q)
    return out


def _rolling(t, army: list, first: bool):
    """(unit, dice) of the heroes that roll in this step (battle.ingame.pool, per unit)."""
    for u in t.roll_idx[first]:
        row = army[u]
        k = t.htk[u]
        n = row[0] if k == 1 else (sum(row[:k]) if t.dmg_fight else row[0])
        if n:
            yield u, n * t.dice[u]


def roll_levels(t, army: list, rng, first: bool, levels: tuple) -> list:
    """Hits per level (index k: the roll reached levels[k] but not levels[k+1]) of the heroes' dice in
    one step: per unit, the dice reaching the top level, then of the rest those reaching the next, …
    (one binomial draw each)."""
    out = [0] * len(levels)
    for u, n in _rolling(t, army, first):
        qs = level_chances(t, u, levels)
        higher = 0.0
        for k in range(len(levels) - 1, -1, -1):
            if not n:
                break
            c = int(rng.binomial(n, (qs[k] - higher) / (1.0 - higher))) if higher < 1.0 else 0
            out[k] += c
            n -= c
            higher = qs[k]
    return out


def place_level_hits(counts: list, hits: list, levels: tuple, order: tuple) -> list:
    """Guardian dice left ({table index: dice} as a list by index) after the heroes' `hits` per level:
    weakest level first, each hit on the first guardian in `order` (most dangerous first) whose wound
    value the hit reaches and that has a die left; hits that can wound nothing left are lost."""
    left = list(counts)
    for k, n in enumerate(hits):
        for _ in range(n):
            for u, w in order:
                if w <= levels[k] and left[u]:
                    left[u] -= 1
                    break
    return left


def level_fight(brules: BattleRules, guardians: tuple, heroes: dict, dice: dict, max_rounds: int = 100_000,
                prune: float = 1e-16):
    """End table (outcomes.EndTable) of heroes ({unit: count}) against guardian dice ({guardian unit
    name: dice}) of `guardians` (Guardian values) on `brules` = `dungeon_rules(..., guardians)` with
    per-monster wound values, fought to the end:
    the engine's rounds (first-strike step, then the other dice, both sides at once) computed exactly
    by pushing the distribution of (heroes after k hits, guardian dice) forward round by round."""
    table = brules.units
    names, U = table.names, len(table.units)
    ta, td = gb.side_table(brules, "attacker", False), gb.side_table(brules, "defender", False)
    levels, order = wound_plan(names, ta.cost, guardians)
    counts = [heroes.get(n, 0) for n in names]
    chain = [gb.new_army(ta, counts)]
    plan = gb.compile_plan(ta, gb.present(ta, chain[0], True), "cheapest")
    while gb.health(ta, chain[-1]) > 0:
        a = gb.copy_army(chain[-1])
        gb._one_hit(ta, a, plan)
        chain.append(a)
    dead = len(chain) - 1
    g0 = tuple(dice.get(n, 0) for n in names)
    L = len(levels)

    def hero_levels(k, first):
        dist = {(0,) * L: 1.0}
        for u, n in _rolling(ta, chain[k], first):
            qs = level_chances(ta, u, levels) + [0.0]
            cat = [1.0 - qs[0]] + [qs[j] - qs[j + 1] for j in range(L)]      # miss, level 0, 1, ...
            for _ in range(n):
                nxt: dict = {}
                for key, p in dist.items():
                    for j, pj in enumerate(cat):
                        if pj <= 0.0:
                            continue
                        kk = key if j == 0 else key[:j - 1] + (key[j - 1] + 1,) + key[j:]
                        nxt[kk] = nxt.get(kk, 0.0) + p * pj
                dist = nxt
        return dist

    def guardian_pmf(g, first):
        pool = tuple((td.p[u], g[u]) for u in range(U) if g[u] and td.fs[u] == first and td.fights[u])
        return poisson_binomial_pmf(pool) if pool else np.array([1.0])

    memo: dict = {}

    def step(k, g, first):
        key = (k, g, first)
        got = memo.get(key)
        if got is None:
            out: dict = {}
            pmf = guardian_pmf(g, first)
            for lv, p in hero_levels(k, first).items():
                g2 = tuple(place_level_hits(list(g), list(lv), levels, order)) if any(lv) else g
                for hd, q in enumerate(pmf):
                    if q > 0.0:
                        s2 = (min(k + hd, dead), g2)
                        out[s2] = out.get(s2, 0.0) + p * q
            got = memo[key] = tuple(out.items())
        return got

    rows, rounds = [], [0.0]
    dist = {(0, g0): 1.0}
    r = 0
    while dist and r < max_rounds:
        r += 1
        nxt: dict = {}
        for (k, g), p in dist.items():
            for (k1, g1), p1 in step(k, g, True):
                for s2, p2 in step(k1, g1, False):
                    nxt[s2] = nxt.get(s2, 0.0) + p * p1 * p2
        dist, ended = {}, 0.0
        for (k, g), p in nxt.items():
            if k == dead or not any(g):
                rows.append((ATTACKER_WINS if k < dead else (DRAW if not any(g) else DEFENDER_HOLDS), k, g, p))
                ended += p
            elif p > prune:
                dist[(k, g)] = p
        rounds.append(ended)
    pruned = float(sum(dist.values()))
    outcome = np.array([o for o, *_ in rows], dtype=np.int8)
    att = np.array([gb.present(ta, chain[k]) for _o, k, _g, _p in rows], dtype=np.int64).reshape(-1, U)
    dfd = np.array([g for _o, _k, g, _p in rows], dtype=np.int64).reshape(-1, U)
    prob = np.array([p for *_, p in rows])
    outcome, att, dfd, cap, prob = collapse(names, outcome, att, dfd, np.zeros_like(att), prob)
    rounds_arr = np.array(rounds)
    return EndTable(units=names, outcome=outcome, attacker=att, defender=dfd, captured=cap, prob=prob,
                    rounds=rounds_arr, expected_rounds=float(np.arange(len(rounds_arr)) @ rounds_arr),
                    attacker_start=np.array(counts, dtype=np.int64), defender_start=np.array(g0, dtype=np.int64),
                    costs=np.array([u.cost for u in table.units], dtype=np.int64), pruned=pruned)


def guardian_army(guardians) -> dict:
    """{unit name: dice} of the guardians (each die is one unit)."""
    out: dict = {}
    for g in guardians:
        name = guardian_unit_name(g.key)
        out[name] = out.get(name, 0) + g.dice
    return out


def fight_odds(brules: BattleRules, heroes: dict, guardians, method: str = "exact", n: int = 100_000, seed: int = 0):
    """`BattleOdds` of heroes ({"fighter": 1}) exploring against `guardians` (Guardian values),
    fought to the end (the exact solver by default). The dungeon is plundered with probability
    `attacker_wins + draw`: when the last hero and the last guardian die in the same round the
    guardians are still defeated (RULES.md Part III, gap D3)."""
    guardians = tuple(guardians)
    if not guardians:
        raise ValueError("fight_odds needs at least one guardian")
    rules = dungeon_rules(brules, guardians)
    for name in heroes:
        if name not in rules.units or name.startswith("guardian_"):
            raise ValueError(f"fight_odds: {name!r} is not a hero; only heroes explore dungeons")
    att = {k: v for k, v in heroes.items() if v}
    if mixed_wounds(brules, guardians):
        table = level_fight(rules, guardians, att, guardian_army(guardians))
        return odds_from_table(table, att, guardian_army(guardians), False, "exact", Retreat(),
                               ("cheapest", "most dangerous die each hit can wound"))
    return battle_odds(att, guardian_army(guardians), rules=rules, method=method, n=n, seed=seed)


@lru_cache(maxsize=8192)
def fight_chance(brules: BattleRules, guardians: tuple, heroes: tuple, guardian_dice: tuple | None = None) -> float:
    """P(the guardians are defeated: wins + both destroyed) from a position of the fight: heroes = ((unit, count), ...); guardian_dice =
    ((guardian unit name, dice left), ...) (None: the guardians unhurt). Exact solver, cached, and kept in
    the table of solved odds (`battle.odds_table.SHARED.fight`, which the package's shipped file fills)."""
    return OT.SHARED.fight(OT.fight_key(brules, guardians, heroes, guardian_dice),
                           lambda: _solve_fight(brules, guardians, heroes, guardian_dice))


def _solve_fight(brules: BattleRules, guardians: tuple, heroes: tuple, guardian_dice: tuple | None) -> float:
    names = tuple(n for n, _c in heroes)
    base = brules.units
    explorers = None if all(base[n].hero or base[n].explores_dungeons for n in names) else tuple(
        u.name for u in base.units if u.hero or u.explores_dungeons or u.name in names)
    rules = dungeon_rules(brules, guardians, explorers)
    dfd = dict(guardian_dice) if guardian_dice is not None else guardian_army(guardians)
    att = {k: v for k, v in heroes if v}
    if not att:
        return 0.0
    if not any(dfd.values()):
        return 1.0
    if mixed_wounds(brules, guardians):
        t = level_fight(rules, guardians, att, dfd)
        return float(t.prob[(t.outcome == ATTACKER_WINS) | (t.outcome == DRAW)].sum())
    odds = battle_odds(att, dfd, rules=rules)
    return float(odds.attacker_wins + odds.draw)


@lru_cache(maxsize=1024)
def expected_chance(brules: BattleRules, supply: tuple, guardians_by_id: tuple, heroes: tuple, tokens: int) -> float:
    """P(heroes win) against `tokens` face-down guardians: averaged over the guardian kinds of the
    supply (weighted by tiles), `tokens` of the same kind (a policy's estimate)."""
    counts: dict = {}
    for g in supply:
        counts[g] = counts.get(g, 0) + 1
    total = sum(counts.values())
    if not total or tokens <= 0:
        return 1.0
    return sum(c / total * fight_chance(brules, (guardians_by_id[g],) * tokens, heroes) for g, c in counts.items())
