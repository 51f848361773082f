"""What one seat may see: the whole board (a war game hides nothing on the table), its own
event hands, and counts of the other hands.

`observe(state, seat)` returns a value: the Observation holds a *public copy* of the state
(`public_state`), never the engine's live State — the other realms' hands (only their sizes
are kept), every deck order (event decks, treasures, the guardian supply), the face-down
guardian tokens on dungeons nobody has turned over, who could answer a pending card (but the
realm being asked now, when it is this seat's), the other seats' notebooks and the log are left out. Nothing in the
copy is changeable engine data (tests/nerathsim/test_nerath_public_copy.py): it has its own frame stack,
placement spots and battle tables, its seat's own reach tables (`SeatCaches`: the engine's entries
copied in, its own work kept), and what it shares (the board, the unit tables, the frames that never change) is read-only. Changing anything a seat may not know
changes nothing in its observation (tests/nerathsim/test_nerath_game_observation.py). The seat's own
notebook (`memo`) is the one kept with the game, so a policy can store its plans there.

Policies use only the Observation's public names (and the legal actions, `game.LegalActions`,
which answer from the same public copy): `phase` is a `phases.Phase`, never an engine constant.
What the engine knows only through its own helpers is computed here, from the copy: the warships'
reach (`ship_destinations`, when first asked) and armies at sea (`army`). The
methods that answer from the copy call only the engine's public functions (`destinations`,
`ship_reach`, `income`, `placement_spots`, `retreat_options`, `amok_targets`), never its private ones
(`test_observation_methods_call_no_private_engine_function`).
"""
from __future__ import annotations

from typing import NamedTuple

from . import engine as E
from .battle import ingame as gb
from .engine.common import _army_counts
from .maps import REALMS
from .phases import PHASES, Phase
from .public_copy import SeatCaches, public_state


class ShipView(NamedTuple):
    id: int
    owner: int          # realm index
    region: int
    moves: int          # moves left this turn (the current realm's ships)
    unloaded: bool
    cargo: tuple        # unit names aboard
    landing: int        # region of a declared landing from a hostile sea, -1 none
    capacity: int
    unit: str           # its unit type (the warship)


class BattleView(NamedTuple):
    region: int
    at_sea: bool
    attacker: int                   # realm index
    round: int                      # rounds fought so far
    attacker_units: dict            # {unit: count} still fighting (damaged dragons included)
    defender_units: dict            # {realm index: {unit: count}}
    attacker_damaged: dict          # {unit: units with damage}
    dungeon: bool = False           # a dungeon fight: defender_units is {-1: {guardian unit: dice left}}
    defender_damaged: dict | None = None   # {realm index: {unit: units with damage}}
    hits_to_place: int = 0          # decision Hit: hits the deciding realm still places in this step


def battle_view(s: E.State) -> BattleView | None:
    """The battle under way in `s` as a `BattleView` (fresh dicts of counts: no part of `s`), or None; what
    `Observation.battle` shows from the seat's public copy, and what `play_game` hands the built-in war
    heuristic at a decision it answers without an observation (`WarPolicy.hit`, `WarPolicy.press`)."""
    bt = s.battle
    if bt is None:
        return None

    def named(ch):
        names = ch.t.names
        return {names[u]: c for u, c in enumerate(gb.present(ch.t, ch.army)) if c}

    def hurt(ch):
        t, army = ch.t, ch.army
        out = {}
        for u, k in enumerate(t.htk):
            if k > 1:
                v = sum(army[u][1:k])
                if v:
                    out[t.names[u]] = v
        return out

    att = bt.att
    due = bt.next_hits.hits if bt.hits and s.phase == Phase.HIT else 0
    return BattleView(bt.region, bt.at_sea, bt.attacker, bt.round, named(att),
                      {d.realm: named(d) for d in bt.defs if d.health > 0}, hurt(att), bool(bt.dungeon),
                      {d.realm: hurt(d) for d in bt.defs if d.health > 0}, due)


class Observation:
    """One seat's view of the game at a decision (a value: see `public_state`)."""

    __slots__ = ("_s", "player", "_sizes", "_ship_reach", "_turn_reach", "_realm_reach")

    def __init__(self, state: E.State, player: int, caches: SeatCaches | None = None):
        self._sizes = tuple(map(len, state.hands))
        self._s = public_state(state, player, caches)
        self.player = player
        self._ship_reach = None             # worked out from the copy when first asked (`ship_destinations`)
        self._turn_reach = None             # by realm, worked out when first asked (`turn_reach`)
        self._realm_reach = None if caches is None else caches.realm_reach

    # --- the decision -------------------------------------------------------------------------
    @property
    def decision(self) -> str:
        return self._s.decision

    @property
    def phase(self) -> Phase:
        """The kind of decision (a `phases.Phase`: MOVE, COMBAT, HIT, PRESS, EVENT, BUY, ...)."""
        return PHASES[self._s.phase]

    @property
    def realm(self) -> int:
        """The realm this decision is for (a seat may play two realms; a defender decides out of turn)."""
        return self._s.decider

    @property
    def turn_realm(self) -> int:
        return self._s.realm

    @property
    def round(self) -> int:
        """Full rounds completed (0 during the first round)."""
        return self._s.round

    @property
    def turns(self) -> int:
        return self._s.turns

    @property
    def rules(self):
        return self._s.rules

    @property
    def board(self):
        return self._s.board

    @property
    def tables(self) -> E.Tables:
        """Unit facts by unit index: names, move, cost, land/flyer/ship/hero flags, capacity."""
        return self._s.tab

    @property
    def memo(self) -> dict:
        """This seat's private notebook, kept with the game (a policy may store its plans here)."""
        return self._s.memo[self.player]

    # --- the board ------------------------------------------------------------------------------
    @property
    def owner(self) -> list:
        return self._s.owner

    def units(self, region: int, realm: int) -> list:
        """Counts per unit type (table order) of `realm` standing in `region` (cargo not included)."""
        return list(self._s.units[region][realm])

    @property
    def unit_counts(self) -> tuple:
        """Every region's counts at once, a read-only value: `unit_counts[region][realm][unit]` (what
        `units(region, realm)` lists; cargo not included)."""
        return self._s.units

    def army(self, region: int, realm: int) -> list:
        """Counts per unit type of `realm` at `region`, at sea with its warships and their cargo."""
        return _army_counts(self._s, region, realm)

    @property
    def ships(self) -> list:
        t = self._s.tab
        return [ShipView(sh.id, sh.owner, sh.region, sh.moves, sh.unloaded, tuple(t.names[u] for u in sh.cargo),
                         sh.landing, t.capacity[sh.utype], t.names[sh.utype]) for sh in self._s.ships]

    def friends(self, realm: int) -> frozenset:
        """The realm and, in alliance play, its partner."""
        return self._s.friends[realm]

    def hostile(self, region: int) -> bool:
        """For the realm whose turn it is: enemy land, or a sea holding enemy units."""
        return self._s.hostile[region]

    def friendly_land(self, region: int) -> bool:
        return self._s.fr_land[region]

    @property
    def gold(self) -> list:
        return self._s.gold

    @property
    def vp(self) -> list:
        return self._s.vp

    def income(self, realm: int) -> int:
        """What `realm` would collect at the end of its turn if the board stayed as it is."""
        return E.income(self._s, realm)

    @property
    def hand(self) -> tuple:
        """The deciding realm's event cards (card ids of `cards`), when the realm is this seat's."""
        return tuple(self._s.hands[self._s.decider])

    @property
    def hand_sizes(self) -> tuple:
        return self._sizes

    def seat_of(self, realm: int) -> int:
        return self._s.seat_of[realm]

    # --- the current phase ----------------------------------------------------------------------
    def mobile(self, region: int) -> dict:
        """{(unit index, moves left): count} of the current realm's units that may move in this phase."""
        return self._s.mob.get(region, {})

    def mobile_regions(self) -> list:
        return [r for r, g in self._s.mob.items() if any(m > 0 and c > 0 for (_u, m), c in g.items())]

    def destinations(self, src: int, unit: str) -> dict:
        """{dst: (cost, stops there, units able)} for the current realm's `unit` at `src` now."""
        return E.destinations(self._s, src, unit)

    def ship_destinations(self, ship_id: int) -> dict:
        """{dst: (cost, stops there)} for warship `ship_id` of the realm whose turn it is, in the current
        phase's movement mode ({} for a ship that cannot sail: no moves left, unloaded, another realm's)."""
        reach = self._ship_reach
        if reach is None:
            # the warships' reach, {ship id: ((dst, cost, stops there), ...)}: the ships of the realm whose
            # turn it is with moves left (no other realm's warship can sail now), from the copy's terrain
            s = self._s
            p = s.realm
            reach = self._ship_reach = {sh.id: E.ship_reach(s, sh) for sh in s.ships
                                        if sh.owner == p and sh.moves > 0 and not sh.unloaded}
        got = reach.get(ship_id)
        return {} if got is None else {dst: (c, st) for dst, c, st in got}

    def turn_reach(self, realm: int, near: frozenset | None = None) -> tuple:
        """Where `realm`'s units could attack on its next turn with their full moves, as the movement rules
        move them on the terrain that realm would see (`engine.turn_reach`): `(by_land, landings)`,
        by_land {region: ((src, unit index, count), ...)}, landings {region: ((ship id, room, cargo unit
        indices, boarders ((src, unit index, count), ...)), ...)}. `near`: only those regions (a frozenset;
        None: all). Worked out once per realm, `near` and observation (and kept in the seat's caches by the
        position it depends on)."""
        got = self._turn_reach
        if got is None:
            got = self._turn_reach = {}
        out = got.get((realm, near))
        if out is None:
            s = self._s
            kept = self._realm_reach
            if kept is None:
                out = E.turn_reach(s, realm, s.reach_store, near)
            else:
                store, memo = kept
                # what the realm's reach depends on: its own units, the owners, the warships and who stands
                # at sea (the other realms' units on land change nothing of where it can go)
                units = s.units
                key = (realm, near, tuple([reg[realm] for reg in units]), tuple([units[x] for x in s.board.sea_regions]),
                       tuple(s.owner),
                       tuple((sh.id, sh.owner, sh.region, sh.utype, tuple(sh.cargo)) for sh in s.ships))
                out = memo.get(key)
                if out is None:
                    if len(memo) > 256:
                        memo.clear()
                    if len(store) > 256:
                        store.clear()
                    out = memo[key] = E.turn_reach(s, realm, store, near)
            got[(realm, near)] = out
        return out

    def placement_spots(self) -> dict:
        """{"castles": {region: limit or None}, "fallback": [regions]} for the buying realm."""
        return E.placement_spots(self._s)

    def placed(self, castle: int) -> int:
        return self._s.placed.get(castle, 0)

    @property
    def battle_sites(self) -> list:
        return list(self._s.sites)

    @property
    def battle(self) -> BattleView | None:
        return battle_view(self._s)

    # --- cards and dungeons ----------------------------------------------------------------------
    @property
    def cards(self):
        """The CardSet (nerathsim.cards): `cards.cards[id]` is the Card of a card id; None when both
        events and dungeons are off."""
        return self._s.cards

    @property
    def window(self) -> E.WindowView | None:
        """The open card window: (kind, realm, region, role) — kind in effects.WINDOWS — or None."""
        w = self._s.window
        return None if w is None else w.view

    @property
    def pending_card(self):
        """(realm, PlayCard) of the enemy card a reaction may answer, or None."""
        p = self._s.pending
        return None if p is None else (p.realm, p.play)

    def dungeon(self, region: int) -> tuple:
        """(tokens on the dungeon, the Guardians if turned over else None, treasures it has given)."""
        s = self._s
        g = s.guardians.get(region, [])
        shown = tuple(s.cards.guardians[x] for x in g) if region in s.revealed else None
        return len(g), shown, s.dungeon_given.get(region, 0)

    @property
    def treasures(self) -> tuple:
        """Treasures gained per realm (the long game's treasure count)."""
        return tuple(self._s.stats["treasures"])

    def kept(self, realm: int) -> tuple:
        """Cards used by `realm` that stay in front of it (treasures)."""
        return tuple(self._s.kept[realm])

    def retreat_options(self) -> list:
        return E.retreat_options(self._s)

    def amok_targets(self) -> list:
        return E.amok_targets(self._s)

    def __repr__(self):
        return (f"Observation(seat={self.player}, realm={REALMS[self.realm]}, decision={self.decision!r}, "
                f"round={self.round + 1}, vp={self.vp}, gold={self.gold})")


def observe(state: E.State, player: int, caches: SeatCaches | None = None) -> Observation:
    """Seat `player`'s observation; `caches` (optional): the seat's own reach tables, reused between its
    observations (`play_game` keeps one `SeatCaches` per seat)."""
    if not 0 <= player < state.n:   # a negative seat would index from the end: another seat's view
        raise ValueError(f"observe: seat {player!r} is not a seat of this {state.n}-player game (0..{state.n - 1})")
    return Observation(state, player, caches)
