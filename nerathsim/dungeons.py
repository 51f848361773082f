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
as every other battle (game_battle in the engine, battle_exact for the odds a policy may ask
for: `fight_odds`). Gap (RULES.md Part III, D-gaps): with guardians of different wound values
in one fight, the heroes need the highest of them (`BattleRules.attacker_hit_threshold`);
the hero side assigns its hits to the most dangerous guardian dice first.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from .rules import BattleRules
from .units import Unit, UnitTable


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
    wound = max(g.wound_on for g in guardians) if guardians else brules.hit_threshold
    table = UnitTable(tuple(heroes) + tuple(gunits))
    return replace(brules, units=table, attacker_hit_threshold=wound,
                   defender_hit_threshold=brules.threshold("defender"))


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
    from .odds import battle_odds
    guardians = tuple(guardians)
    if not guardians:
        raise ValueError("fight_odds needs at least one guardian")
    rules = dungeon_rules(brules, guardians)
    for name in heroes:
        if name not in rules.units or name.startswith("guardian_"):
            raise ValueError(f"fight_odds: {name!r} is not a hero; only heroes explore dungeons")
    return battle_odds({k: v for k, v in heroes.items() if v}, guardian_army(guardians), rules=rules, method=method,
                       n=n, seed=seed)


@lru_cache(maxsize=8192)
def fight_chance(brules: BattleRules, guardians: tuple, heroes: tuple, guardian_dice: tuple | None = None) -> float:
    """P(the guardians are defeated: wins + both destroyed) from a position of the fight: heroes = ((unit, count), ...); guardian_dice =
    ((guardian unit name, dice left), ...) (None: the guardians unhurt). Exact solver, cached."""
    from .odds import battle_odds
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
