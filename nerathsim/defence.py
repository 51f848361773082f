"""How well the computer players guard their capitals and use their battle cards, read off a game's state
as it is played: the figures of `benchmarks/studies/nerath_capital_defence.py`.

- `capital_exposed(state, realm)`: the realm holds its capital, no unit but a castle (of the realm or its
  friends) stands there, and some enemy unit could attack it on its coming turn (`engine.turn_reach`:
  the movement rules' own reach with full moves on that realm's terrain, flyers included, and what its
  warships could land);
- `wasted_bonus(state, action)`: a battle card played in a battle where the deciding realm has none of the
  unit type its bonus names (its effect changes nothing);
- `play_measured(rules, policies, seed)`: one game exactly as `play_game` plays it (the same loop, the same
  random streams, the same result), with those figures counted at the end of every realm's turn and at
  every card played, and every capital lost (`DefenceStats`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import engine as E
from .game import GameResult, play_game
from .game_actions import PlayCard
from .observation import battle_view
from .policies.decisions import bonus_applies
from .rules import Rules


def enemy_can_reach(s: E.State, region: int, realm: int) -> bool:
    """True when a unit of some enemy of `realm` could attack `region` on that enemy's coming turn (by land,
    by air, or landed by one of its warships: cargo aboard or a carriable unit on a coast it passes)."""
    store: dict = {}
    for q in range(4):
        if q in s.friends[realm]:
            continue
        by_land, landings = E.turn_reach(s, q, store, (region,))
        if by_land.get(region):
            return True
        for _sid, room, cargo, boarders in landings.get(region, ()):
            if cargo or (room > 0 and boarders):
                return True
    return False


def castle_alone(s: E.State, region: int, realm: int) -> bool:
    """True when no unit but a castle of `realm` or its friends stands at `region`."""
    cu = s.tab.castle_u
    reg = s.units[region]
    return not any(c for q in s.friends[realm] for u, c in enumerate(reg[q]) if u != cu)


def capital_exposed(s: E.State, realm: int) -> bool:
    """The realm holds its capital, only a castle guards it, and an enemy unit could attack it next."""
    cap = s.board.capitals[realm]
    return s.owner[cap] == realm and castle_alone(s, cap, realm) and enemy_can_reach(s, cap, realm)


def wasted_bonus(s: E.State, action) -> bool:
    """True when `action` plays a battle card whose every bonus names a unit type the deciding realm has none
    of in the battle under way (or, for "any", no unit at all)."""
    if type(action) is not PlayCard or s.cards is None or s.battle is None:
        return False
    card = s.cards.cards[action.card]
    if not card.has_battle_bonus:
        return False
    return not bonus_applies(card, battle_view(s), s.decider)


@dataclass
class DefenceStats:
    """Per realm (karkoth, vailin, iron_circle, nerath): turns played, turns ending with the capital held and
    guarded by the castle alone (`castle_alone`, reachable or not) and exposed (`capital_exposed`), capitals lost to an enemy, battle cards played and those wasted (`wasted_bonus`)."""

    turns: list = field(default_factory=lambda: [0] * 4)
    alone: list = field(default_factory=lambda: [0] * 4)       # the capital held by the castle alone
    exposed: list = field(default_factory=lambda: [0] * 4)
    capitals_lost: list = field(default_factory=lambda: [0] * 4)
    battle_cards: list = field(default_factory=lambda: [0] * 4)
    wasted_cards: list = field(default_factory=lambda: [0] * 4)


def play_measured(rules: Rules, policies, seed) -> tuple[GameResult, DefenceStats]:
    """`play_game(rules, policies, seed)` (the same game and result, played by the game's own loop) with its
    `DefenceStats`, read around every action."""
    stats = DefenceStats()
    order = list(rules.order) if isinstance(rules, Rules) else []

    def watch(s, a, apply):
        caps = s.board.capitals
        if type(a) is PlayCard and s.battle is not None and s.cards is not None \
                and s.cards.cards[a.card].has_battle_bonus:
            stats.battle_cards[s.decider] += 1
            stats.wasted_cards[s.decider] += wasted_bonus(s, a)
        turns, realm, held = s.turns, s.realm, [s.owner[c] for c in caps]
        apply()
        for q, c in enumerate(caps):
            if held[q] == q and s.owner[c] != q and s.owner[c] not in s.friends[q]:
                stats.capitals_lost[q] += 1
        if s.turns > turns:
            i = order.index(realm)
            for k in range(s.turns - turns):
                q = order[(i + k) % len(order)]
                stats.turns[q] += 1
                cap = caps[q]
                if s.owner[cap] == q and castle_alone(s, cap, q):
                    stats.alone[q] += 1
                    stats.exposed[q] += enemy_can_reach(s, cap, q)

    return play_game(rules, policies, seed, watch=watch), stats
