"""The one-step decisions of a WarPolicy: where a hit goes, which fight comes next, press on or
retreat (or flee a dungeon), where monsters run amok, which card to play. Each is a function of the
policy's numbers, the observation and the legal actions."""
from __future__ import annotations

from .. import dungeons as dg
from ..battle import ingame as gb
from ..game_actions import Amok, Hit, Pass, PlayCard, RetreatTo
from .estimates import win_odds
from .planner import Planner


def take_hit(obs, legal) -> Hit:
    """Decision Hit: the place that loses least — a free wound on a fresh dragon first, then the
    hit that destroys the least gold, counting at sea the heroes that drown with a warship (so a
    fleet gives up its fighters and wizards before the ship that carries them), ties: the weaker
    dice go first. The same yardstick as the battle calculator's default order (combat.default_plan)."""
    return hit_choice(obs.rules.battle, obs.realm, obs.battle, legal)


def hit_choice(brules, me: int, bv, hits) -> Hit:
    """`take_hit`'s answer from what it reads: the battle rules, the deciding realm, the battle (a
    `BattleView`) and the Hit actions (in listing order: the first of equal costs)."""
    mine = bv.attacker_units if me == bv.attacker else bv.defender_units.get(me, {})
    role = "attacker" if me == bv.attacker else "defender"
    return min(hits, key=lambda a: hit_cost(brules, mine, bv.at_sea, role, a.unit))


def hit_cost(brules, mine: dict, at_sea: bool, role: str, token: str) -> tuple:
    """(gold destroyed, dice strength lost, table index) of putting the next hit on `token`."""
    gold, power, index, capacity = gb.unit_loss(brules, role, at_sea, token)
    if at_sea and capacity:
        table = brules.units
        unit = table[token]

        def strength(u):
            return u.dice(role, at_sea) * u.hit_probability(brules.threshold(role))

        aboard = [table[n] for n, c in mine.items() if table[n].domain == "land" for _ in range(c)]
        cap = sum(table[n].capacity * c for n, c in mine.items())
        excess = len(aboard) - (cap - unit.capacity)
        if excess > 0:   # the engine drowns non-fighting cargo first, cheapest first; count the heroes lost
            aboard.sort(key=lambda u: (strength(u) > 0, u.cost, strength(u), table.index(u.name)))
            gold += sum(u.cost for u in aboard[:excess] if strength(u) > 0)
            power += sum(strength(u) for u in aboard[:excess])
    return (gold, power, index)


def fight_order(pol, obs, legal):
    """Empty enemy regions first (no risk; their monsters may run amok), then battles, then dungeons."""
    F = obs.friends(obs.realm)
    fleets = {sv.region for sv in obs.ships if sv.owner not in F}     # where enemy warships are
    return fight_choice(obs.board, F, obs.unit_counts, fleets, legal)


def fight_choice(b, F, counts, fleets, legal):
    """`fight_order`'s answer from what it reads: the board, the deciding realm's friends, the unit counts
    (`counts[region][realm][unit]`, at least at the regions of the Fight actions), the regions holding enemy
    warships and the Fight actions in listing order (the first of equal ranks)."""

    def rank(a):
        r = a.region
        enemies = any(any(row) for q, row in enumerate(counts[r]) if q not in F) or r in fleets
        return (2 if b.is_dungeon[r] and not enemies else 1 if enemies else 0, r)
    return min(legal, key=rank)


def play_cards(pol, obs, legal, rng):
    """Play every card that can be played: reactions always answer; a place/move card goes where the
    threat most exceeds the defence (units come from the region farthest from the front)."""
    plays = [a for a in legal if type(a) is PlayCard]
    if plays and Pass() in legal and obs.cards is not None:
        plays = [a for a in plays if bonus_takes_effect(obs, a)]
    if not plays or not (pol.play_events or Pass() not in legal):
        return Pass() if Pass() in legal else legal[0]
    if len(plays) == 1 or obs.pending_card is not None:
        return plays[0]
    pl = Planner(pol, obs, rng)
    front = pl.front_distance()
    b = obs.board

    window = obs.window
    not_combat = window is None or window.kind != "combat"

    def score(a):
        v = 0.0
        if a.target >= 0 and not b.is_sea[a.target] and not_combat:
            v += pl.threat(a.target) - pl.defence(a.target) - 0.5 * min(front[a.target], 10)
        if a.source >= 0:
            v += 0.5 * min(front[a.source], 10) - 0.5 * pl.threat(a.source)
        return (v, -a.card, -a.target, -a.source)
    return max(plays, key=score)


def bonus_takes_effect(obs, play) -> bool:
    """False for a battle card whose bonus names a unit type the deciding realm has none of in the battle
    (or any unit when it has none at all): its effect would change nothing. True for every other card."""
    card = obs.cards.cards[play.card]
    if not card.has_battle_bonus:
        return True
    return obs.battle is not None and bonus_applies(card, obs.battle, obs.realm)


def bonus_applies(card, battle, realm: int) -> bool:
    """Whether one of `card`'s battle bonuses names a unit type `realm` has in `battle` (a `BattleView`;
    "any": a unit at all). The one test of a card taking effect: the policies' and `defence.wasted_bonus`."""
    mine = battle.attacker_units if realm == battle.attacker else battle.defender_units.get(realm, {})
    for e in card.effects:
        if e.kind != "battle_bonus":
            continue
        unit = e.get("unit")
        if unit == "any" and any(mine.values()) or mine.get(unit, 0) > 0:
            return True
    return False


def press_or_retreat(pol, obs, legal):
    if len(legal) == 1:
        return legal[0]
    bv = obs.battle
    if bv.dungeon:
        _n, guardians, _given = obs.dungeon(bv.region)
        left = tuple(sorted(bv.defender_units.get(-1, {}).items()))
        p = dg.fight_chance(obs.rules.battle, guardians, tuple(sorted(bv.attacker_units.items())), left)
        if p >= pol.flee_below:
            return legal[0]
        return max((a for a in legal if isinstance(a, RetreatTo)), key=lambda a: (-a.dst,))
    me = obs.realm
    return press_choice(pol, obs.rules.battle, obs.tables, bv, legal, lambda dst: sum(obs.units(dst, me)))


def press_choice(pol, brules, t, bv, legal, held):
    """`press_or_retreat`'s answer in a battle (not a dungeon) with a choice, from what it reads: the battle
    rules, the unit tables, the battle (a `BattleView`), the legal actions (PressOn first) and `held(dst)`,
    the deciding realm's units standing at a retreat destination."""
    att = [bv.attacker_units.get(n, 0) for n in t.names]
    dfd = [0] * t.U
    for units in bv.defender_units.values():
        for n, c in units.items():
            dfd[t.idx[n]] += c
    p = win_odds(brules, att, dfd, bv.at_sea, pol.retreat_below, cache=pol.odds_cache)
    if p >= pol.retreat_below:
        return legal[0]   # PressOn
    options = [a for a in legal if isinstance(a, RetreatTo)]
    return max(options, key=lambda a: (held(a.dst), -a.dst))


def run_amok(pol, obs, legal):
    if not pol.amok:
        return Pass()
    b = obs.board
    F = obs.friends(obs.realm)

    def value(a):
        if not isinstance(a, Amok):
            return -1
        r = a.dst
        v = b.gold[r]
        if b.start_area[r] >= 0 and b.start_area[r] not in F:
            v += 10 * (obs.rules.capital_vp if b.capital_of[r] >= 0 else obs.rules.region_vp)
        return v
    return max(legal, key=value)
