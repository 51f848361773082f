"""The one interpreter of card effects (events and treasures): who may play what, where, and what it does.

Seed, phase 1: "Kortet fortæller, om det skal spilles med det samme, eller om du må beholde det og
spille det senere" — a card is `immediate` (played as soon as it is drawn) or `keep` (played later
in its named phase). Seed, movement: "nogle event- og treasure-kort kan transportere tropper fra
ét felt til et andet felt. Det tæller ikke som en trops bevægelse" (move_units). Seed, combat:
"andre enheder kan få [first strike] via treasure- og eventkort" (battle_bonus).

Windows (when a realm may play): see `WINDOWS`. The card's vocabulary is `cards.EFFECTS`;
RULES.md Part III lists every effect with the scenario test that shows it.

A play is `PlayCard(card, target, source)`: the card id, the region its place/move effect
targets (the battle's region for a battle bonus; -1 when the card needs none), and for
move_units the region the units come from (-1 otherwise).
"""
from __future__ import annotations

from collections import deque

from .game_actions import PlayCard

#: window kind -> the phase of kept cards playable there ("immediate" = a drawn immediate card)
WINDOWS = {
    "immediate": None,            # an immediate card just drawn: must be played now (no Pass)
    "movement": "movement",       # start of the movement phase (seed phase 2)
    "combat": "combat",           # start of a battle you fight (attacker) or defend
    "reinforcements": "reinforcements",   # start of the reinforcements phase (seed phase 5), before buying
    "reaction": "reaction",       # an enemy is playing a card
}


# ---------------------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------------------
def _enemy_land(s, r: int, p: int) -> bool:
    b = s.board
    return not b.is_sea[r] and not b.is_dungeon[r] and s.owner[r] >= 0 and s.owner[r] not in s.friends[p]


def region_targets(s, p: int, target: str) -> list:
    """Regions a place/move effect of realm p may target (see cards.EFFECTS)."""
    b, t = s.board, s.tab
    if target == "capital":
        c = b.capitals[p]
        return [c] if s.owner[c] == p else []
    if target == "coast_sea":
        out = []
        for r in range(b.n):
            if not b.is_sea[r]:
                continue
            if any(q not in s.friends[p] and (any(s.units[r][q]) or any(sh.region == r and sh.owner == q
                                                                         for sh in s.ships)) for q in range(4)):
                continue
            if any(not b.is_sea[x] and s.owner[x] == p for x in b.adj[r]):
                out.append(r)
        return out
    held = [r for r in range(b.n) if s.owner[r] == p and not b.is_sea[r] and not b.is_dungeon[r]
            and not _hostile_units(s, r, p)]
    if target == "held_region":
        return held
    if target == "castle":
        return [r for r in held if s.units[r][p][t.castle_u]]
    if target == "front_region":
        return [r for r in held if any(_enemy_land(s, x, p) for x in b.adj[r])]
    raise ValueError(f"unknown target {target!r}")


def _hostile_units(s, r: int, p: int) -> bool:
    """Units of an enemy of p at r (a plain loop: asked of every region p holds)."""
    F, reg = s.friends[p], s.units[r]
    for q in range(4):
        if q not in F and any(reg[q]):
            return True
    return False


def movable(s, e, u: int) -> bool:
    t = s.tab
    if t.castle[u] or t.ship[u] or not t.mobile[u]:
        return False
    sel = e.get("units")
    if sel == "land":
        return t.land[u]
    if sel == "any":
        return True
    return t.names[u] == sel


def move_sources(s, p: int, e, dst: int) -> list:
    """Regions within e.range land steps of dst (through land you or your ally hold) holding units to move."""
    b = s.board
    rng = e.get("range")
    seen = {dst: 0}
    q = deque([dst])
    out = []
    while q:
        r = q.popleft()
        d = seen[r]
        if d >= rng:
            continue
        for x in b.adj[r]:
            if x in seen or b.is_sea[x] or b.is_dungeon[x] or s.owner[x] not in s.friends[p]:
                continue
            seen[x] = d + 1
            q.append(x)
            if any(s.units[x][p][u] and movable(s, e, u) for u in range(s.tab.U)):
                out.append(x)
    return sorted(out)


def _targeted(card):
    for e in card.effects:
        if e.kind in ("place_units", "move_units"):
            return e
    return None


def card_plays(s, p: int, cid: int, region: int = -1) -> list:
    """Every legal PlayCard of card `cid` for realm p now (empty: it cannot be played)."""
    card = s.cards.cards[cid]
    if card.has_battle_bonus:
        return [PlayCard(cid, region, -1)] if region >= 0 else []
    if card.reaction:
        return [PlayCard(cid, -1, -1)]
    e = _targeted(card)
    if e is None:
        return [PlayCard(cid, -1, -1)]
    out = []
    for r in region_targets(s, p, e.get("target")):
        if e.kind == "move_units":
            out += [PlayCard(cid, r, src) for src in move_sources(s, p, e, r)]
        else:
            out.append(PlayCard(cid, r, -1))
    return out


def reaction_applies(reaction, card) -> bool:
    what = reaction.effects[0].get("what")
    if what == "any":
        return True
    if what == "event":
        return card.kind == "event"
    return card.has_battle_bonus


def window_plays(s, p: int, kind: str, region: int = -1, role: str | None = None) -> list:
    """The plays realm p may make in a window (without Pass)."""
    if must_play_now(s, p, kind):
        cid = s.must_play[p][0]
        return card_plays(s, p, cid) or [PlayCard(cid, -1, -1)]    # no target: played without effect
    out = []
    for cid in _window_cards(s, p, kind, role):
        out += card_plays(s, p, cid, region)
    return out


def window_has_plays(s, p: int, kind: str, region: int = -1, role: str | None = None) -> bool:
    """`bool(window_plays(s, p, kind, region, role))`, stopping at the first card that can be played (an
    immediate card that must be played now always can): whether the window opens at all."""
    if must_play_now(s, p, kind):
        return True
    return any(card_plays(s, p, cid, region) for cid in _window_cards(s, p, kind, role))


def _window_cards(s, p: int, kind: str, role: str | None):
    """Realm p's distinct kept cards of this window's phase (for a combat window, those of `role`; for a
    reaction, those that answer the pending play), in hand order: the cards `window_plays` lists plays of."""
    phase = WINDOWS[kind]
    if phase is None:
        return
    cards = s.cards.cards
    seen = set()
    for cid in s.hands[p]:
        if cid in seen:
            continue
        seen.add(cid)
        c = cards[cid]
        if c.timing != "keep" or c.phase != phase:
            continue
        if kind == "combat" and c.bonus_target != role:
            continue
        if kind == "reaction":
            pend = s.pending
            if pend is None or not reaction_applies(c, cards[pend.play.card]):
                continue
        yield cid


def must_play_now(s, p: int, kind: str) -> bool:
    """An immediate card waits and this is p's own-turn window (a card drawn out of turn — none is
    — or in the starting hand waits for the realm's own turn)."""
    return bool(s.must_play[p]) and p == s.realm and kind in ("immediate", "movement", "reinforcements")


def reactors(s, p: int, cid: int) -> list:
    """Enemies of p (in turn order after p) holding a reaction card that answers card cid."""
    card = s.cards.cards[cid]
    if card.reaction:
        return []
    order = s.rules.order
    i = order.index(p)
    out = []
    for k in range(1, 4):
        q = order[(i + k) % 4]
        if q in s.friends[p]:
            continue
        if any(s.cards.cards[c].reaction and reaction_applies(s.cards.cards[c], card) for c in s.hands[q]):
            out.append(q)
    return out


# ---------------------------------------------------------------------------------------
# Resolution
# ---------------------------------------------------------------------------------------
def scaled(e, weaken: int):
    """The effect's numbers reduced by `weaken` (a 'weaken' reaction), or None when nothing is left."""
    if not weaken:
        return e
    for name in ("amount", "count"):
        v = e.get(name)
        if v is not None:
            v -= weaken
            if v <= 0:
                return None
            return type(e)(e.kind, tuple((k, v if k == name else x) for k, x in e.params))
    return e


def resolve(s, p: int, play: PlayCard, weaken: int, hooks) -> list:
    """Apply the card's effects in order (after reactions: `weaken` lowers every number).

    `hooks` is the engine (module) giving the state changes: gain_gold, gain_vp, place, teleport, draw,
    battle_bonus. Returns the effects applied, for the event log."""
    card = s.cards.cards[play.card]
    done = []
    for e0 in card.effects:
        e = scaled(e0, weaken)
        if e is None:
            continue
        k = e.kind
        if k == "gain_gold":
            hooks.gain_gold(s, p, e.get("amount"))
        elif k == "gain_vp":
            hooks.gain_vp(s, p, e.get("amount"))
        elif k == "place_units":
            if play.target < 0:
                continue
            hooks.place(s, p, play.target, e.get("unit"), e.get("count"))
        elif k == "move_units":
            if play.target < 0 or play.source < 0:
                continue
            hooks.teleport(s, p, play.source, play.target, e)
        elif k == "draw_cards":
            for _ in range(e.get("count")):
                hooks.draw(s, p)
        elif k == "battle_bonus":
            hooks.battle_bonus(s, p, e)
        elif k in ("cancel", "weaken"):
            pass     # reactions act on the pending card (engine)
        done.append(str(e))
    return done
