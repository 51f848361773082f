"""The Conquest of Nerath engine: state, legal actions, and the six phases of a realm's turn.

One decision = one step (OpenSpiel style). Everything that needs no choice (drawing the event
card, rolling dice, capturing empty regions, collecting income, the victory check) runs inside
`apply_action`; the state then rests at the next decision, whose owner is
`state.current_player` — the seat of the realm that decides, which is the defender choosing
its casualty order out of turn at the start of a battle.

A realm's turn (seed, "Runder i Conquest of Nerath"):
  1 draw an event card (automatic)           4 regroup: Move (heroes, flyers), EndPhase
  2 movement: Move, Embark, Sail, Unload,     5 reinforcements: Buy ..., EndPhase, then
    EndPhase                                    Move/Embark/Sail/Unload of the new units, EndPhase
  3 combat: Fight (order), Casualties,        6 collect income (automatic)
    PressOn / RetreatTo, Amok / Pass
After the last realm of the turn order the round is complete and the victory check runs.

Units are counts: `units[region][realm][unit]` holds every unit that stands in a region
(castles included); warships are `Ship` objects with their cargo (land units aboard are only
in the cargo). During the current realm's turn `mob[region]` maps (unit, moves left) to
counts for its units that may still move in the current mode.
"""
from __future__ import annotations

import copy
import heapq
from collections import deque

import numpy as np

from . import dungeons as dg
from . import effects as ef
from .battle import ingame as gb
from .game_actions import (
    Amok, Buy, Casualties, Embark, EndPhase, Fight, Hit, Move, Pass, PlayCard, PressOn, RetreatTo, Sail, Unload,
)
from .maps import REALMS
from .rules import Rules

# phases (decision kinds)
PH_MOVE, PH_COMBAT, PH_CASUALTY, PH_PRESS, PH_AMOK, PH_REGROUP, PH_BUY, PH_REINFORCE, PH_OVER, PH_EVENT, PH_HIT = range(11)
DECISION_NAMES = {
    PH_MOVE: "movement", PH_COMBAT: "battle order", PH_CASUALTY: "casualty order", PH_PRESS: "press or retreat",
    PH_AMOK: "run amok", PH_REGROUP: "regroup", PH_BUY: "reinforcements: buy", PH_REINFORCE: "reinforcements: move",
    PH_OVER: "game over", PH_EVENT: "play cards", PH_HIT: "take a hit",
}
# movement modes
M_MOVE, M_REGROUP, M_REINFORCE = 0, 1, 2
# movement classes
C_LAND, C_HERO, C_FLY, C_FLY_SEA, C_SHIP = range(5)

END_PHASE, PRESS_ON, PASS = EndPhase(), PressOn(), Pass()

#: per-realm statistics collected in state.stats (each a list of 4 numbers)
REALM_STATS = ("gold_earned", "gold_spent", "units_bought", "battles_fought", "battles_won", "attacks", "attacks_won",
               "units_lost", "gold_lost", "luck", "conquests", "amok_conquests", "flyers_lost", "regions_lost",
               "events_played", "treasures_played", "cards_cancelled", "cards_weakened", "card_gold", "card_units", "card_vp",
               "dungeons_explored", "dungeons_won", "treasures", "treasure_vp", "guardian_gold")


class IllegalActionError(ValueError):
    """A policy (or caller) chose an action that is not legal in the current state."""


class Tables:
    """Per-unit facts the engine needs, from the rules' unit table (cached on the Rules)."""

    def __init__(self, rules: Rules):
        units = rules.units.units
        self.U = len(units)
        self.names = tuple(u.name for u in units)
        self.idx = {u.name: i for i, u in enumerate(units)}
        self.move = [u.move for u in units]
        self.cost = [u.cost for u in units]
        self.castle = [u.places_units for u in units]
        self.land = [u.domain == "land" and not u.places_units for u in units]   # movable land units
        self.flyer = [u.domain == "flying" for u in units]
        self.ship = [u.domain == "sea" for u in units]
        self.sea_ender = [u.domain == "flying" and u.name in rules.flyers_ending_at_sea for u in units]
        self.hero = [u.explores_dungeons or u.hero for u in units]
        # who fights dungeon guardians: heroes (seed), or every land unit with Rules.dungeon_entry="all_land"
        self.explorer = [self.hero[i] or (rules.dungeon_entry == "all_land" and u.domain == "land" and not u.places_units)
                         for i, u in enumerate(units)]
        self.monster = [u.runs_amok for u in units]
        self.capacity = [u.capacity for u in units]
        self.carriable = [u.carriable for u in units]
        self.castle_u = self.castle.index(True)
        self.mobile = [self.move[u] > 0 and not self.ship[u] for u in range(self.U)]
        cls = []
        for u in range(self.U):
            if self.flyer[u]:
                cls.append(C_FLY_SEA if self.sea_ender[u] else C_FLY)
            elif self.ship[u]:
                cls.append(C_SHIP)
            else:
                cls.append(C_HERO if self.hero[u] else C_LAND)
        self.cls = cls


def tables(rules: Rules) -> Tables:
    t = rules.__dict__.get("_tables")
    if t is None:
        t = Tables(rules)
        rules.__dict__["_tables"] = t
    return t


class Ship:
    """A warship: owner realm, region, moves left this turn, cargo (unit indices)."""

    __slots__ = ("id", "owner", "utype", "region", "moves", "unloaded", "cargo", "landing", "new")

    def __init__(self, id, owner, utype, region, moves=0, cargo=None):
        self.id, self.owner, self.utype, self.region = id, owner, utype, region
        self.moves, self.unloaded, self.cargo, self.landing, self.new = moves, False, cargo or [], -1, False

    def copy(self) -> "Ship":
        s = Ship(self.id, self.owner, self.utype, self.region, self.moves, self.cargo[:])
        s.unloaded, s.landing, s.new = self.unloaded, self.landing, self.new
        return s

    def __repr__(self):
        extra = f", landing={self.landing}" if self.landing >= 0 else ""
        return f"Ship(id={self.id}, owner={REALMS[self.owner]}, region={self.region}, cargo={self.cargo}{extra})"


class Pending:
    """A card being played while enemies may still answer it (effects.reactors, in turn order)."""

    __slots__ = ("realm", "play", "reactors", "weaken", "cancelled")

    def __init__(self, realm: int, play, reactors: list, weaken: int = 0, cancelled: bool = False):
        self.realm, self.play, self.reactors, self.weaken, self.cancelled = realm, play, reactors, weaken, cancelled

    def copy(self) -> "Pending":
        return Pending(self.realm, self.play, self.reactors[:], self.weaken, self.cancelled)


class ArmyChain:
    """One realm's army in one battle: its states after k hits under its casualty plan (lazy)."""

    __slots__ = ("realm", "t", "plan", "states", "lost", "healths", "k", "start_gold", "order", "loads")

    def __init__(self, realm: int, t: gb.SideTable, counts: list, order: str = "cheapest", loads=None):
        self.realm, self.t, self.order = realm, t, order
        self.plan = None
        self.loads = loads          # at sea, Rules.drowning "per_ship": cargo vectors of the warships, first to sink first
        self.states = [gb.new_army(t, counts)]
        self.lost = [gb.lost_value(t, self.states[0])]
        self.healths = [gb.health(t, self.states[0])]
        self.k = 0
        self.start_gold = gb.gold_value(t, self.states[0])

    def rebase(self, army: list) -> None:
        """The army after hits its owner placed itself: the chain starts again from it."""
        self.states = [army]
        self.lost = [gb.lost_value(self.t, army)]
        self.healths = [gb.health(self.t, army)]
        self.k = 0

    def set_plan(self, order: str) -> None:
        self.order = order
        self.plan = gb.compile_plan(self.t, gb.present(self.t, self.states[0], True), order)
        if self.loads is not None:
            self.plan = gb.with_loads(self.plan, self.loads)

    def at(self, k: int) -> int:
        """Index of the state after k hits (clamped at the wiped-out state)."""
        while len(self.states) <= k and self.healths[-1] > 0:
            a = gb.copy_army(self.states[-1])
            gb._one_hit(self.t, a, self.plan)
            self.states.append(a)
            self.lost.append(gb.lost_value(self.t, a))
            self.healths.append(gb.health(self.t, a))
        return min(k, len(self.states) - 1)

    @property
    def army(self) -> list:
        return self.states[self.k]

    @property
    def health(self) -> int:
        return self.healths[self.k]

    def troops(self) -> int:
        return gb.size(self.states[self.k]) - sum(self.states[self.k][u][-1] for u in range(self.t.U)
                                                  if self.t.captured[u])


class Battle:
    __slots__ = ("region", "at_sea", "attacker", "att", "defs", "round", "queue", "retreated", "luck", "owner0",
                 "windows", "dungeon", "step", "due", "pend")

    def __repr__(self):
        return (f"Battle(region={self.region}, at_sea={self.at_sea}, attacker={REALMS[self.attacker]}, "
                f"round={self.round}, defenders={[REALMS[d.realm] for d in self.defs]})")


class State:
    """Full game state. Mutable; `clone()` makes an independent copy."""

    __slots__ = (
        "rules", "board", "tab", "n", "seat_of", "friends", "ally", "owner", "units", "ships", "next_ship",
        "gold", "vp", "hands", "decks", "used", "round", "turn_pos", "realm", "phase", "current_player",
        "decider", "mob", "mode", "reach", "reach_land", "reach_store", "hostile", "fr_land", "turn_castles", "n_castles_start",
        "capital_held_start", "owner_start", "placed", "spots", "stage", "sites", "battle", "amok", "explored",
        "conquered", "stats", "spent", "memo", "log", "is_terminal", "winner", "timed_out", "turns",
        "decisions", "_legal",
        # cards and dungeons (Part III)
        "cards", "must_play", "kept", "treasure_deck", "guardians", "supply", "dungeon_given", "revealed",
        "window", "pending", "win_done", "card_plays",
    )

    def clone(self) -> "State":
        s = State.__new__(State)
        for name in ("rules", "board", "tab", "n", "seat_of", "friends", "ally", "next_ship", "round", "turn_pos",
                     "realm", "phase", "current_player", "decider", "mode", "n_castles_start", "capital_held_start",
                     "stage", "is_terminal", "winner", "timed_out", "turns", "decisions", "reach", "reach_land",
                     "reach_store", "cards", "window"):
            setattr(s, name, getattr(self, name))
        s.must_play, s.kept = [m[:] for m in self.must_play], [k[:] for k in self.kept]
        s.treasure_deck, s.supply = self.treasure_deck[:], self.supply[:]
        s.guardians = {r: g[:] for r, g in self.guardians.items()}
        s.dungeon_given, s.revealed = dict(self.dungeon_given), set(self.revealed)
        s.pending = None if self.pending is None else self.pending.copy()
        s.win_done, s.card_plays = set(self.win_done), self.card_plays[:]
        s.owner = self.owner[:]
        s.hostile, s.fr_land = self.hostile[:], self.fr_land[:]
        s.units = [[row[:] for row in reg] for reg in self.units]
        s.ships = [sh.copy() for sh in self.ships]
        s.gold, s.vp = self.gold[:], self.vp[:]
        s.hands, s.decks, s.used = [h[:] for h in self.hands], [d[:] for d in self.decks], [u[:] for u in self.used]
        s.mob = {r: dict(g) for r, g in self.mob.items()}
        s.turn_castles = set(self.turn_castles)
        s.owner_start = self.owner_start[:]
        s.placed = dict(self.placed)
        s.spots = self.spots
        s.sites = self.sites[:]
        s.battle = _copy_battle(self.battle)
        s.amok = None if self.amok is None else list(self.amok)
        s.explored = set(self.explored)
        s.conquered = [set(c) for c in self.conquered]
        s.stats = {k: v[:] for k, v in self.stats.items()}
        s.spent = [v[:] for v in self.spent]
        s.memo = copy.deepcopy(self.memo)
        s.log = None if self.log is None else self.log[:]
        s._legal = None
        return s

    # --- views -------------------------------------------------------------------------------
    @property
    def decision(self) -> str:
        return DECISION_NAMES[self.phase]

    def regions_held(self, realm: int) -> int:
        return sum(1 for o in self.owner if o == realm)

    def ships_at(self, region: int, realm: int | None = None) -> list:
        return [s for s in self.ships if s.region == region and (realm is None or s.owner == realm)]

    def ship(self, ship_id: int) -> Ship | None:
        for s in self.ships:
            if s.id == ship_id:
                return s
        return None

    def total_units(self, realm: int) -> list:
        """Per unit type: every unit of `realm` on the board, cargo included."""
        tot = [0] * self.tab.U
        for reg in self.units:
            for u, c in enumerate(reg[realm]):
                tot[u] += c
        for sh in self.ships:
            if sh.owner == realm:
                tot[sh.utype] += 1
                for u in sh.cargo:
                    tot[u] += 1
        return tot

    def team_of(self, realm: int) -> tuple:
        return tuple(sorted(self.friends[realm]))

    def __repr__(self):
        return (f"State(round={self.round + 1}, realm={REALMS[self.realm]}, decision={self.decision!r}, "
                f"vp={self.vp}, gold={self.gold}, terminal={self.is_terminal})")


def _copy_battle(b):
    if b is None:
        return None
    c = Battle()
    for name in Battle.__slots__:
        setattr(c, name, getattr(b, name))
    chains = {}
    for ch in [b.att] + list(b.defs):
        n = ArmyChain.__new__(ArmyChain)
        for name in ArmyChain.__slots__:
            setattr(n, name, getattr(ch, name))
        n.states, n.lost, n.healths = [[r[:] for r in st] for st in ch.states], ch.lost[:], ch.healths[:]
        chains[id(ch)] = n
    c.att = chains[id(b.att)]
    c.defs = [chains[id(d)] for d in b.defs]
    c.queue, c.luck, c.windows = list(b.queue), list(b.luck), list(b.windows)
    c.due = [list(x) for x in b.due]
    return c


def as_generator(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


# ---------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------
def new_game(rules: Rules, seed, record: bool = False) -> State:
    """Seed, setup: place the starting troops, shuffle each realm's event deck and draw two cards,
    then Karkoth (the first realm of `rules.turn_order`) begins with phase 1.

    `seed` is an int, a SeedSequence or a Generator (chance: deck shuffles and dice).
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nerathsim Rules, got {type(rules).__name__}")
    rng = as_generator(seed)
    s = _blank_state(rules, record)
    b = s.board
    t = s.tab
    for r in range(b.n):
        if b.castle[r]:
            s.units[r][b.owner[r]][t.castle_u] += 1
        fleets: dict[int, list] = {}
        for p, name, c in b.units[r]:
            u = t.idx[name]
            if t.ship[u]:
                for _ in range(c):
                    fleets.setdefault(p, []).append(_new_ship(s, p, u, r))
            elif b.is_sea[r] and t.land[u]:
                continue
            else:
                s.units[r][p][u] += c
        for p, name, c in b.units[r]:
            u = t.idx[name]
            if b.is_sea[r] and t.land[u]:
                for _ in range(c):
                    ship = min((sh for sh in fleets[p] if len(sh.cargo) < t.capacity[sh.utype]),
                               key=lambda sh: (-len(sh.cargo), sh.id))
                    ship.cargo.append(u)
    for p in range(4):
        s.gold[p] = b.realm_gold[p]
        if rules.events:
            deck = list(s.cards.decks[p])
            s.decks[p] = [deck[i] for i in rng.permutation(len(deck))]
            for _ in range(rules.starting_hand):
                _draw_event(s, p, rng, "start")
    if rules.dungeons:
        cs = s.cards
        s.treasure_deck = [cs.treasures[i] for i in rng.permutation(len(cs.treasures))]
        s.supply = [cs.supply[i] for i in rng.permutation(len(cs.supply))]
        for r in range(b.n):
            if b.is_dungeon[r]:
                _place_guardians(s, r, rules.starting_guardians)
    if s.log is not None:
        _event(s, "setup", realm=-1, gold=list(s.gold), hands=[len(h) for h in s.hands],
               guardians={b.names[r]: len(g) for r, g in s.guardians.items()}, **deal(s))
    _start_turn(s, rng)
    _advance(s, rng)
    return s


def deal(s: State) -> dict:
    """The whole state a referee starts from (the `setup` event's extra fields): region owners,
    units per region and realm, warships with their cargo, VP, each realm's hand and deck (the
    card drawn next is the last), the treasure deck, the guardian supply and the tokens on each
    dungeon (face down). Cards and guardians by key, regions by index."""
    t, cs = s.tab, s.cards
    ck = (lambda ids: [cs.cards[i].key for i in ids]) if cs is not None else (lambda ids: [])
    gk = (lambda ids: [cs.guardians[i].key for i in ids]) if cs is not None else (lambda ids: [])
    return {"owner": list(s.owner), "vp": list(s.vp),
            "units": {r: {REALMS[q]: _named(s, s.units[r][q]) for q in range(4) if any(s.units[r][q])}
                      for r in range(s.board.n) if any(any(row) for row in s.units[r])},
            "ships": ships_view(s),
            "hand_cards": {REALMS[q]: ck(s.hands[q]) for q in range(4)},
            "decks": {REALMS[q]: ck(s.decks[q]) for q in range(4)},
            "treasure_deck": ck(s.treasure_deck), "supply": gk(s.supply),
            "guardian_tokens": {r: gk(g) for r, g in s.guardians.items()}}


def ships_view(s: State, regions=None) -> list:
    """[{id, realm, region, unit, cargo}] of the warships (in `regions`, or all) — the log's picture of a fleet."""
    t = s.tab
    return [{"id": sh.id, "realm": REALMS[sh.owner], "region": sh.region, "unit": t.names[sh.utype],
             "cargo": [t.names[u] for u in sh.cargo]} for sh in s.ships if regions is None or sh.region in regions]


def _blank_state(rules: Rules, record: bool) -> State:
    s = State.__new__(State)
    b = rules.board
    s.rules, s.board, s.tab = rules, b, tables(rules)
    s.n = rules.players
    seating = rules.seating
    s.seat_of = [0] * 4
    for seat, realms in enumerate(seating):
        for p in realms:
            s.seat_of[p] = seat
    s.ally = [-1] * 4
    if rules.alliance:
        from .rules import TEAMS
        for a, c in TEAMS:
            ia, ic = REALMS.index(a), REALMS.index(c)
            s.ally[ia], s.ally[ic] = ic, ia
    s.friends = [frozenset({p} | ({s.ally[p]} if s.ally[p] >= 0 else set())) for p in range(4)]
    s.owner = list(b.owner)
    s.units = [[[0] * s.tab.U for _ in range(4)] for _ in range(b.n)]
    s.ships, s.next_ship = [], 0
    s.gold, s.vp = [0] * 4, [0] * 4
    s.hands, s.decks, s.used = [[] for _ in range(4)], [[] for _ in range(4)], [[] for _ in range(4)]
    s.round, s.turn_pos, s.realm = 0, 0, rules.order[0]
    s.phase, s.current_player, s.decider = PH_MOVE, 0, 0
    s.mob, s.mode, s.reach, s.hostile, s.fr_land = {}, M_MOVE, {}, [], []
    s.reach_land, s.reach_store = {}, {}
    s.turn_castles, s.n_castles_start, s.capital_held_start = set(), 0, True
    s.owner_start = list(b.owner)
    s.placed, s.spots, s.stage, s.sites, s.battle, s.amok = {}, None, "", [], None, None
    s.explored = set()
    s.conquered = [set() for _ in range(4)]
    s.stats = {k: [0] * 4 for k in REALM_STATS}
    s.spent = [[0] * s.tab.U for _ in range(4)]
    s.memo = [dict() for _ in range(s.n)]
    s.log = [] if record else None
    s.cards = rules.cards if (rules.events or rules.dungeons) else None
    s.must_play, s.kept = [[] for _ in range(4)], [[] for _ in range(4)]
    s.treasure_deck, s.supply, s.guardians, s.dungeon_given, s.revealed = [], [], {}, {}, set()
    s.window, s.pending, s.win_done = None, None, set()
    s.card_plays = [0] * (len(s.cards.cards) if s.cards is not None else 0)
    s.is_terminal, s.winner, s.timed_out = False, None, False
    s.turns, s.decisions = 0, 0
    s._legal = None
    return s


def _new_ship(s: State, p: int, u: int, r: int, moves: int = 0) -> Ship:
    ship = Ship(s.next_ship, p, u, r, moves)
    s.next_ship += 1
    s.ships.append(ship)
    return ship


def _event(s: State, kind: str, **data) -> None:
    if s.log is not None:
        s.log.append({"event": kind, "round": s.round + 1, "turn_realm": REALMS[s.realm], **data})


# ---------------------------------------------------------------------------------------
# Terrain for the realm whose turn it is
# ---------------------------------------------------------------------------------------
def _refresh_terrain(s: State) -> None:
    """Friendly land and hostile spaces for the current realm; movement caches reset."""
    b, p = s.board, s.realm
    F = s.friends[p]
    n = b.n
    owner = s.owner
    hostile = [False] * n
    fr_land = [False] * n
    for r in b.land_regions:
        if owner[r] in F:
            fr_land[r] = True
        else:
            hostile[r] = True
    enemy = [q for q in range(4) if q not in F]
    units = s.units
    for r in b.sea_regions:
        reg = units[r]
        for q in enemy:
            if any(reg[q]):
                hostile[r] = True
                break
    for sh in s.ships:
        if sh.owner not in F:
            hostile[sh.region] = True
    s.hostile, s.fr_land = hostile, fr_land
    _reach_cache(s)


def _reach_cache(s: State) -> None:
    """Movement caches are kept per terrain: the same terrain gives the same destinations, so they
    survive from phase to phase and turn to turn while nothing changes. Land moves depend only on
    which land is friendly (`reach_land`); ships and flyers ending their moves in the regroup or
    reinforcement phases also on which seas hold enemies (`reach`); flyers in the movement phase
    on nothing but the map (a cache on the Board, see `_fly_cache`)."""
    store = s.reach_store
    land_sig = bytes(s.fr_land)
    sig = (land_sig, bytes(s.hostile))
    got = store.get(sig)
    if got is None:
        if len(store) > 1024:
            store.clear()
        got = store[sig] = {}
    s.reach = got
    got = store.get(land_sig)
    if got is None:
        got = store[land_sig] = {}
    s.reach_land = got


def _fly_cache(s: State) -> dict:
    key = ("fly", s.rules.flyer_coast_cost)
    got = s.board.cache.get(key)
    if got is None:
        got = s.board.cache[key] = {}
    return got


def _cache_for(s: State, cls: int, mode: int) -> dict:
    if cls in (C_LAND, C_HERO):
        return s.reach_land
    if mode == M_MOVE and cls in (C_FLY, C_FLY_SEA):
        return _fly_cache(s)
    return s.reach


def _terrain_at(s: State, r: int) -> None:
    """Update the terrain flags of one region after a battle or a capture there."""
    b = s.board
    F = s.friends[s.realm]
    if b.is_sea[r]:
        reg = s.units[r]
        s.hostile[r] = any(any(reg[q]) for q in range(4) if q not in F) or any(
            sh.region == r and sh.owner not in F for sh in s.ships)
    elif not b.is_dungeon[r]:
        s.fr_land[r] = s.owner[r] in F
        s.hostile[r] = not s.fr_land[r]
    _reach_cache(s)


def friendly_sea(s: State, r: int) -> bool:
    """Seed "venligt havfelt": a sea holding no units of the realm's enemies (seas have no owner)."""
    return s.board.is_sea[r] and not s.hostile[r]


def _reach(s: State, src: int, cls: int, budget: int, mode: int) -> tuple:
    """((dst, cost, stops), ...) reachable from `src` by a unit of movement class `cls` with `budget` moves."""
    key = (src, cls, budget, mode, s.rules.dungeon_entry)
    cache = _cache_for(s, cls, mode)
    got = cache.get(key)
    if got is not None:
        return got
    b, rules = s.board, s.rules
    adj, is_sea, is_dun = b.adj, b.is_sea, b.is_dungeon
    hostile, fr_land = s.hostile, s.fr_land
    out = []
    if cls in (C_LAND, C_HERO):
        if mode == M_REGROUP and is_dun[src]:
            out = [(x, 1, True) for x in adj[src] if fr_land[x]]     # heroes leave the dungeon: adjacent friendly land
        else:
            dist = {src: 0}
            q = deque([src])
            enter_dungeon = mode == M_MOVE and (cls == C_HERO or rules.dungeon_entry == "all_land")
            while q:
                r = q.popleft()
                d = dist[r]
                if d >= budget:
                    continue
                for x in adj[r]:
                    if x in dist or is_sea[x]:
                        continue
                    if is_dun[x]:
                        if enter_dungeon:
                            dist[x] = d + 1
                            out.append((x, d + 1, True))
                        continue
                    if fr_land[x]:
                        dist[x] = d + 1
                        out.append((x, d + 1, False))
                        q.append(x)
                    elif mode == M_MOVE:                              # hostile land: stop there (an attack)
                        dist[x] = d + 1
                        out.append((x, d + 1, True))
    elif cls in (C_FLY, C_FLY_SEA):
        coast = rules.flyer_coast_cost
        dist = {src: 0}
        heap = [(0, src)]
        while heap:
            d, r = heapq.heappop(heap)
            if d > dist.get(r, 1 << 30):
                continue
            for x in adj[r]:
                nd = d + 1 + (coast if is_sea[x] != is_sea[r] else 0)
                if nd <= budget and nd < dist.get(x, 1 << 30):
                    dist[x] = nd
                    heapq.heappush(heap, (nd, x))
        for x, d in dist.items():
            if x == src or is_dun[x]:
                continue                                              # flyers may not end on a dungeon
            if mode != M_MOVE:                                        # regroup / new units: no new battles
                if not (fr_land[x] or (cls == C_FLY_SEA and is_sea[x] and not hostile[x])):
                    continue
            out.append((x, d, False))
        out.sort()
    else:  # ships
        dist = {src: 0}
        q = deque([src])
        while q:
            r = q.popleft()
            d = dist[r]
            if d >= budget:
                continue
            for x in adj[r]:
                if x in dist or not is_sea[x]:
                    continue
                if hostile[x]:
                    if mode == M_MOVE:
                        dist[x] = d + 1
                        out.append((x, d + 1, True))
                    continue
                dist[x] = d + 1
                out.append((x, d + 1, False))
                q.append(x)
    res = tuple(out)
    cache[key] = res
    return res


def destinations(s: State, src: int, unit: str) -> dict:
    """{dst: (cost, stops, units able)} for the current realm's `unit` at `src` in the current mode."""
    t = s.tab
    u = t.idx[unit]
    groups = s.mob.get(src)
    if not groups:
        return {}
    ms = [(m, c) for (uu, m), c in groups.items() if uu == u and m > 0 and c > 0]
    if not ms:
        return {}
    budget = max(m for m, _ in ms)
    out = {}
    for dst, cost, stop in _reach(s, src, t.cls[u], budget, s.mode):
        able = sum(c for m, c in ms if m >= cost)
        if able:
            out[dst] = (cost, stop, able)
    return out


# ---------------------------------------------------------------------------------------
# Unit bookkeeping (keeps `mob` in step with `units` for the realm whose turn it is)
# ---------------------------------------------------------------------------------------
def _mob_add(s: State, r: int, u: int, n: int, m: int) -> None:
    g = s.mob.setdefault(r, {})
    g[(u, m)] = g.get((u, m), 0) + n


def _mob_remove(s: State, r: int, u: int, n: int) -> None:
    """Take n units of type u out of mob[r]: fewest moves left first (they are the ones lost)."""
    g = s.mob.get(r)
    if not g:
        return
    for key in sorted((k for k in g if k[0] == u), key=lambda k: k[1]):
        if n <= 0:
            break
        k = min(g[key], n)
        g[key] -= k
        n -= k
        if not g[key]:
            del g[key]


def _mob_take_best(s: State, r: int, u: int, n: int) -> list:
    """Take n units of type u out of mob[r], most moves left first; returns [(m, count)]."""
    g = s.mob.get(r)
    out = []
    if not g:
        return out
    for key in sorted((k for k in g if k[0] == u), key=lambda k: -k[1]):
        if n <= 0:
            break
        k = min(g[key], n)
        g[key] -= k
        n -= k
        out.append((key[1], k))
        if not g[key]:
            del g[key]
    return out


def _set_units(s: State, r: int, p: int, counts: list) -> None:
    """Set realm p's units at r (not ships) to `counts`, recording losses (mob follows)."""
    cur = s.units[r][p]
    t = s.tab
    for u in range(t.U):
        d = counts[u] - cur[u]
        if d < 0:
            s.stats["units_lost"][p] += -d
            s.stats["gold_lost"][p] += -d * t.cost[u]
            if p == s.realm:
                _mob_remove(s, r, u, -d)
        cur[u] = counts[u]


# ---------------------------------------------------------------------------------------
# Turn structure
# ---------------------------------------------------------------------------------------
def _start_turn(s: State, rng) -> None:
    """Phase 1 (draw an event card) and the set-up of phase 2 for the next realm."""
    p = s.realm
    b, t = s.board, s.tab
    s.turn_castles = {r for r in range(b.n) if s.owner[r] == p and s.units[r][p][t.castle_u] > 0}
    s.n_castles_start = len(s.turn_castles)
    s.capital_held_start = s.owner[b.capitals[p]] == p
    s.owner_start = s.owner[:]
    s.placed, s.spots, s.explored = {}, None, set()
    s.win_done = set()
    s.current_player, s.decider = s.seat_of[p], p
    _event(s, "turn", realm=REALMS[p], gold=s.gold[p], vp=s.vp[p], turn=s.turns + 1)
    # phase 1
    if s.rules.events:
        _draw_event(s, p, rng, "turn")
    # phase 2
    s.phase, s.mode = PH_MOVE, M_MOVE
    _refresh_terrain(s)
    s.mob = {}
    for r in range(b.n):
        row = s.units[r][p]
        for u in range(t.U):
            if row[u] and t.mobile[u]:
                _mob_add(s, r, u, row[u], t.move[u])
    for sh in s.ships:
        if sh.owner == p:
            sh.moves, sh.unloaded, sh.landing, sh.new = t.move[sh.utype], False, -1, False
    _turn_windows(s)


def _draw_event(s: State, p: int, rng, source: str = "turn") -> None:
    """Seed phase 1: draw an event card; an empty deck is rebuilt from the shuffled used cards
    ("Hvis bunken løber tør for kort, blander du blot de brugte kort"). An immediate card must be
    played at once ("om det skal spilles med det samme")."""
    if not s.decks[p] and s.used[p]:
        s.decks[p] = [s.used[p][i] for i in rng.permutation(len(s.used[p]))]
        s.used[p] = []
        _event(s, "reshuffle", realm=REALMS[p], cards=len(s.decks[p]),
               order=[s.cards.cards[c].key for c in s.decks[p]])
    if s.decks[p]:
        card = s.decks[p].pop()
        s.hands[p].append(card)
        if s.cards.cards[card].timing == "immediate":
            s.must_play[p].append(card)
        _event(s, "draw", realm=REALMS[p], card=s.cards.cards[card].key, source=source)


def _draw_treasure(s: State, p: int) -> None:
    """Seed: "Hvis monstret besejres, må du trække et treasure-kort" — its VP count at once
    (Rules.treasure_vp); an immediate treasure is played at once, the others are kept."""
    if not s.treasure_deck:
        _event(s, "no_treasure", realm=REALMS[p])
        return
    cid = s.treasure_deck.pop()
    card = s.cards.cards[cid]
    s.hands[p].append(cid)
    s.stats["treasures"][p] += 1
    mode = s.rules.treasure_vp
    if card.vp and mode == "vp":
        s.vp[p] += card.vp
        s.stats["treasure_vp"][p] += card.vp
    elif card.vp and mode == "gold":
        s.gold[p] += card.vp
        s.stats["card_gold"][p] += card.vp
    if card.timing == "immediate":
        s.must_play[p].append(cid)
    _event(s, "treasure", realm=REALMS[p], card=card.key, vp=card.vp,
           gained_vp=card.vp if mode == "vp" else 0, gained_gold=card.vp if mode == "gold" else 0)


# ---------------------------------------------------------------------------------------
# Card windows (effects.WINDOWS): the state rests at PH_EVENT while a realm may play cards
# ---------------------------------------------------------------------------------------
def _has_cards(s: State) -> bool:
    return s.cards is not None


def _open_window(s: State, kind: str, realm: int, region: int, role, resume: str) -> bool:
    """Rest at a PH_EVENT decision if `realm` can play something in this window."""
    if not _has_cards(s) or not ef.window_plays(s, realm, kind, region, role):
        return False
    s.window = (kind, realm, region, role, resume)
    s.phase = PH_EVENT
    s.current_player, s.decider = s.seat_of[realm], realm
    return True


def _turn_windows(s: State) -> None:
    """Start of a turn: immediate cards drawn must be played, then kept movement cards may be; then phase 2."""
    p = s.realm
    if _has_cards(s):
        if s.must_play[p] and _open_window(s, "immediate", p, -1, None, "turn"):
            return
        if "movement" not in s.win_done:
            s.win_done.add("movement")
            if _open_window(s, "movement", p, -1, None, "turn"):
                return
    s.phase = PH_MOVE
    s.current_player, s.decider = s.seat_of[p], p


def _close_window(s: State, rng) -> None:
    resume = s.window[4]
    s.window = None
    if resume == "turn":
        _turn_windows(s)
    elif resume == "battle":
        bt = s.battle
        bt.windows.pop(0)
        _run_battle(s, rng)
    elif resume == "buy":
        s.phase = PH_BUY
        s.current_player, s.decider = s.seat_of[s.realm], s.realm
    elif resume == "next":
        _next_battle(s, rng)
    else:
        raise AssertionError(resume)


def _window_after_play(s: State, rng) -> None:
    """After a card is resolved: stay in the window while its realm can play more, else close it."""
    kind, realm, region, role, _resume = s.window
    if ef.window_plays(s, realm, kind, region, role):
        s.phase = PH_EVENT
        s.current_player, s.decider = s.seat_of[realm], realm
        return
    _close_window(s, rng)


class _Hooks:
    """The state changes effects.resolve asks for."""

    def __init__(self, rng):
        self.rng = rng

    def gain_gold(self, s, p, n):
        s.gold[p] += n
        s.stats["card_gold"][p] += n
        _event(s, "card_gold", realm=REALMS[p], gold=n, total=s.gold[p])

    def gain_vp(self, s, p, n):
        s.vp[p] += n
        s.stats["card_vp"][p] += n
        _event(s, "card_vp", realm=REALMS[p], vp=n, total=s.vp[p])

    def place(self, s, p, r, unit, count):
        t = s.tab
        u = t.idx[unit]
        ships = []
        if t.ship[u]:
            for _ in range(count):
                ships.append(_new_ship(s, p, u, r).id)
        else:
            s.units[r][p][u] += count
        s.stats["card_units"][p] += count
        _event(s, "card_units", realm=REALMS[p], region=r, unit=unit, count=count, ships=ships)

    def teleport(self, s, p, src, dst, e):
        """Seed: "Det tæller ikke som en trops bevægelse" — units keep the moves they have left."""
        t = s.tab
        left = e.get("count")
        order = sorted((u for u in range(t.U) if s.units[src][p][u] and ef.movable(s, e, u)),
                       key=lambda u: (-t.cost[u], u))
        moved = {}
        for u in order:
            c = min(left, s.units[src][p][u])
            if c <= 0:
                break
            s.units[src][p][u] -= c
            s.units[dst][p][u] += c
            for m, k in _mob_take_best(s, src, u, c):
                _mob_add(s, dst, u, k, m)
            left -= c
            moved[t.names[u]] = c
        _event(s, "card_move", realm=REALMS[p], src=src, dst=dst, units=moved)

    def draw(self, s, p):
        _draw_event(s, p, self.rng, "card")

    def battle_bonus(self, s, p, e):
        bt = s.battle
        if bt is None:
            return
        ch = bt.att if bt.att.realm == p else next((d for d in bt.defs if d.realm == p), None)
        if ch is None:
            return
        unit = e.get("unit")
        if unit == "any":
            idx = -1
        elif unit in ch.t.names:
            idx = ch.t.names.index(unit)
        else:
            return
        ch.t = gb.modified_table(ch.t, ((e.get("bonus"), idx, e.get("amount")),))


def _play_card(s: State, a: PlayCard, rng) -> None:
    """A card leaves the hand; enemies holding a reaction may answer it; then it is resolved."""
    cards = s.cards.cards
    if s.pending is not None:                       # a reaction to the pending card
        pend = s.pending
        q = pend.reactors.pop(0)
        card = cards[a.card]
        _take_from_hand(s, q, a.card)
        e = card.effects[0]
        if e.kind == "cancel":
            pend.cancelled = True
            s.stats["cards_cancelled"][q] += 1
        else:
            pend.weaken += e.get("amount")
            s.stats["cards_weakened"][q] += 1
        _event(s, "reaction", realm=REALMS[q], card=card.key, against=cards[pend.play.card].key, effect=str(e))
        _continue_pending(s, rng)
        return
    realm = s.window[1]
    _take_from_hand(s, realm, a.card)
    s.pending = Pending(realm, a, ef.reactors(s, realm, a.card))
    _continue_pending(s, rng)


def _take_from_hand(s: State, p: int, cid: int) -> None:
    s.hands[p].remove(cid)
    if cid in s.must_play[p]:
        s.must_play[p].remove(cid)
    card = s.cards.cards[cid]
    s.card_plays[cid] += 1
    if card.kind == "treasure":
        s.kept[p].append(cid)           # seed: "skal det blive liggende foran den spiller, som brugte det"
        s.stats["treasures_played"][p] += 1
    else:
        s.used[p].append(cid)           # seed: "placeres det ved siden af din event-kort-bunke"
        s.stats["events_played"][p] += 1


def _continue_pending(s: State, rng) -> None:
    """Ask the next enemy with a fitting reaction card, or resolve the card and go on."""
    pend = s.pending
    realm, play, reactors = pend.realm, pend.play, pend.reactors
    while reactors and not pend.cancelled:
        q = reactors[0]
        if ef.window_plays(s, q, "reaction"):
            s.phase = PH_EVENT
            s.current_player, s.decider = s.seat_of[q], q
            return
        reactors.pop(0)
    s.pending = None
    card = s.cards.cards[play.card]
    if pend.cancelled:
        _event(s, "card_cancelled", realm=REALMS[realm], card=card.key)
    else:
        done = ef.resolve(s, realm, play, pend.weaken, _Hooks(rng))
        _event(s, "card", realm=REALMS[realm], card=card.key, target=play.target, source=play.source,
               effects=done, weakened=pend.weaken)
        if play.target >= 0 and not card.has_battle_bonus:
            _refresh_terrain(s)            # units were placed or moved: reach and hostility change
    _window_after_play(s, rng)


def _end_turn(s: State, rng) -> None:
    """Phase 6 (income), then the next realm; after the last realm, the victory check."""
    p = s.realm
    inc = income(s, p)
    s.gold[p] += inc
    s.stats["gold_earned"][p] += inc
    _event(s, "income", realm=REALMS[p], gold=inc, total=s.gold[p])
    if not s.rules.cargo_may_stay_aboard:
        for sh in s.ships:
            if sh.owner == p and sh.cargo:
                for u in sh.cargo:
                    s.stats["units_lost"][p] += 1
                    s.stats["gold_lost"][p] += s.tab.cost[u]
                _event(s, "cargo_lost", realm=REALMS[p], region=sh.region, units=list(sh.cargo), ship=sh.id)
                sh.cargo = []
    for sh in s.ships:
        sh.new = False
    s.mob = {}
    s.turns += 1
    s.turn_pos += 1
    if s.turn_pos == len(s.rules.order):
        s.turn_pos = 0
        s.round += 1
        if _victory_check(s):
            return
        if s.round >= s.rules.max_rounds:
            s.is_terminal, s.timed_out, s.phase = True, True, PH_OVER
            _event(s, "timeout", realm=-1, rounds=s.round)
            return
    s.realm = s.rules.order[s.turn_pos]
    _start_turn(s, rng)


def income(s: State, p: int) -> int:
    """Seed phase 6: base income + regions taken from others − original regions lost; halved
    (rounded up) without your capital. Rules.income_mode 'value' counts region gold values."""
    b = s.board
    by_value = s.rules.income_mode == "value"
    gained = lost = 0
    for r in range(b.n):
        o0 = b.owner[r]
        if o0 < 0:
            continue
        w = b.gold[r] if by_value else 1
        if s.owner[r] == p and o0 != p:
            gained += w
        elif o0 == p and s.owner[r] != p:
            lost += w
    inc = max(0, b.realm_income[p] + gained - lost)
    if s.owner[b.capitals[p]] != p:
        inc = (inc + 1) // 2
    return inc


def group_vp(s: State) -> dict:
    """VP per side: per team in alliance play (the partners add their VP), per realm otherwise."""
    if s.rules.alliance:
        out = {}
        for p in range(4):
            team = s.team_of(p)
            out[team] = sum(s.vp[q] for q in team)
        return out
    return {(p,): s.vp[p] for p in range(4)}


def _victory_check(s: State) -> bool:
    """Seed "Sådan vinder du spillet": after each full round, whoever reached the VP needed wins;
    two sides over the line: most VP wins; tied: play one more full round. Long game: all capitals."""
    rules, b = s.rules, s.board
    groups = group_vp(s)
    target = rules.vp_target
    winner = None
    if target is not None:
        over = [(v, g) for g, v in groups.items() if v >= target]
        if over:
            over.sort(reverse=True)
            if len(over) == 1 or over[0][0] > over[1][0]:
                winner = over[0][1]
            else:
                _event(s, "tie", realm=-1, vp=[list(g) for _, g in over[:2]])
    else:
        for g in groups:
            if all(s.owner[c] in g for c in b.capitals):
                winner = g
                break
        if winner is None and rules.treasure_win and rules.dungeons:
            # seed: "Alle hovedstæder eller otte skatte (12 i alliance)"; partners count together
            need = rules.treasure_target
            over = sorted(((sum(s.stats["treasures"][p] for p in g), g) for g in groups), reverse=True)
            over = [(v, g) for v, g in over if v >= need]
            if over:
                if len(over) == 1 or over[0][0] > over[1][0]:
                    winner = over[0][1]
                else:
                    _event(s, "tie", realm=-1, treasures=[list(g) for _, g in over[:2]])
    if winner is None:
        return False
    seats = tuple(sorted({s.seat_of[p] for p in winner}))
    s.winner = seats[0] if len(seats) == 1 else seats
    s.is_terminal, s.phase = True, PH_OVER
    _event(s, "win", realm=-1, realms=[REALMS[p] for p in winner], seats=list(seats), vp=[s.vp[p] for p in winner])
    return True


# ---------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------
def legal_actions(s: State) -> list:
    """Every legal action of the current decision (empty only when the game is over)."""
    if s.is_terminal:
        return []
    if s._legal is not None:
        return s._legal
    ph = s.phase
    if ph in (PH_MOVE, PH_REGROUP, PH_REINFORCE):
        out = _move_actions(s)
        if ph != PH_REGROUP or _may_end_regroup(s):
            out.append(END_PHASE)
    elif ph == PH_COMBAT:
        out = [Fight(r) for r in s.sites]
    elif ph == PH_CASUALTY:
        out = [Casualties(o) for o in gb.CASUALTY_ORDERS]
    elif ph == PH_HIT:
        out = hit_actions(s)
    elif ph == PH_PRESS:
        out = [PRESS_ON] + [RetreatTo(r) for r in retreat_options(s)]
    elif ph == PH_AMOK:
        out = [Amok(r) for r in amok_targets(s)] + [PASS]
    elif ph == PH_BUY:
        out = _buy_actions(s) + [END_PHASE]
    elif ph == PH_EVENT:
        out = _event_actions(s)
    else:
        raise AssertionError(f"no decision in phase {ph}")
    s._legal = out
    return out


def _event_actions(s: State) -> list:
    """PH_EVENT: the cards the deciding realm may play now, and Pass (not while an immediate card waits)."""
    if s.pending is not None:
        return ef.window_plays(s, s.pending.reactors[0], "reaction") + [PASS]
    kind, realm, region, role, _resume = s.window
    plays = ef.window_plays(s, realm, kind, region, role)
    return plays if ef.must_play_now(s, realm, kind) else plays + [PASS]


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
                key = ("mg", src, u, t.cls[u], tuple(ms), mode)
                cache = _cache_for(s, t.cls[u], mode)
                got = cache.get(key)
                if got is None:
                    got = []
                    for dst, cost, _stop in _reach(s, src, t.cls[u], ms[-1][0], mode):
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
            self._n = sum(g[3] for g in self._groups)
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
    kinds = _move_kinds(s)
    out = list(kinds[0])
    for k in kinds[1:]:
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


def legal_by_kind(s: State) -> list:
    """The legal actions grouped by kind, kinds in order of first appearance in legal_actions(s)
    and actions within a kind in listing order (moves as a lazily decoded MoveList)."""
    if s.is_terminal:
        return []
    if s.phase in (PH_MOVE, PH_REGROUP, PH_REINFORCE):
        kinds = _move_kinds(s)
        out = [kinds[0]] if _has_moves(s) else []
        out += [k for k in kinds[1:] if k]
        if s.phase != PH_REGROUP or _may_end_regroup(s):
            out.append([END_PHASE])
        return out
    kinds: dict = {}
    for a in legal_actions(s):
        kinds.setdefault(type(a), []).append(a)
    return list(kinds.values())


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


# ---------------------------------------------------------------------------------------
# Applying an action
# ---------------------------------------------------------------------------------------
def apply_action(s: State, action, rng) -> None:
    """Validate `action` against the legal actions, apply it, and advance to the next decision."""
    if not is_legal(s, action):
        legal = legal_actions(s)
        raise IllegalActionError(
            f"illegal action {action!r} for seat {s.current_player} ({REALMS[s.decider]}) at decision "
            f"{s.decision!r}; legal: {legal!r}"
        )
    apply_legal(s, action, as_generator(rng))


def apply_legal(s: State, a, rng: np.random.Generator) -> None:
    """Apply an action already known to be legal (the game loop's fast path)."""
    if s.log is not None:
        s.log.append({"event": "decision", "round": s.round + 1, "turn_realm": REALMS[s.realm], "seat": s.current_player,
                      "realm": REALMS[s.decider], "decision": s.decision, "action": repr(a),
                      "text": describe_action(s, a)})
    s.decisions += 1
    s._legal = None
    ty = type(a)
    ph = s.phase
    if ty is EndPhase:
        if ph == PH_MOVE:
            _event(s, "end_movement", realm=REALMS[s.realm])
            _start_combat(s, rng)
        elif ph == PH_REGROUP:
            _end_regroup(s)
            _start_buy(s)
        elif ph == PH_BUY:
            _start_reinforce(s)
        else:  # PH_REINFORCE
            _end_turn(s, rng)
    elif ty is Move:
        _do_move(s, a)
    elif ty is Embark:
        _do_embark(s, a)
    elif ty is Sail:
        _do_sail(s, a)
    elif ty is Unload:
        _do_unload(s, a)
    elif ty is Fight:
        s.sites.remove(a.region)
        if not _start_site(s, a.region, rng):
            _next_battle(s, rng)
    elif ty is Casualties:
        bt = s.battle
        realm = bt.queue.pop(0)
        ch = bt.att if bt.att.realm == realm else next(d for d in bt.defs if d.realm == realm)
        ch.set_plan(a.order)
        _event(s, "casualty_order", realm=REALMS[realm], order=a.order)
        _run_battle(s, rng)
    elif ty is Hit:
        _do_hit(s, a)
        _run_battle(s, rng)
    elif ty is PlayCard:
        _play_card(s, a, rng)
    elif ty is Pass and ph == PH_EVENT:
        if s.pending is not None:
            s.pending.reactors.pop(0)
            _continue_pending(s, rng)
        else:
            _event(s, "pass", realm=REALMS[s.decider], window=s.window[0])
            _close_window(s, rng)
    elif ty is PressOn:
        _event(s, "press_on", realm=REALMS[s.realm], region=s.battle.region)
        _run_battle(s, rng)
    elif ty is RetreatTo:
        if s.battle.dungeon:
            _flee_dungeon(s, a.dst)
            _next_battle(s, rng)
        else:
            _retreat(s, a.dst)
            _finish_battle(s)
            _next_battle(s, rng)
    elif ty is Amok:
        if _do_amok(s, a.dst):
            _next_battle(s, rng)
    elif ty is Pass:
        s.amok = None
        _event(s, "amok_declined", realm=REALMS[s.realm])
        _next_battle(s, rng)
    elif ty is Buy:
        _do_buy(s, a)
    else:
        raise IllegalActionError(f"unknown action {a!r}")
    _advance(s, rng)


def _advance(s: State, rng) -> None:
    """Skip decisions whose only legal action is to end the phase (nothing to move, buy or place)."""
    while not s.is_terminal:
        ph = s.phase
        if ph == PH_MOVE:
            if _anything_to_move(s):
                return
            _event(s, "end_movement", realm=REALMS[s.realm], auto=True)
            _start_combat(s, rng)
        elif ph == PH_REGROUP:
            if _anything_to_move(s) or not _may_end_regroup(s):
                return
            _end_regroup(s)
            _start_buy(s)
        elif ph == PH_BUY:
            if _any_buy(s):
                return
            _start_reinforce(s)
        elif ph == PH_REINFORCE:
            if _anything_to_move(s):
                return
            _end_turn(s, rng)
        else:
            return


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


def _any_buy(s: State) -> bool:
    """Is any Buy legal? (cheap checks first; the full list only when they cannot tell)"""
    t = s.tab
    gold = s.gold[s.realm]
    if gold < min(t.cost):
        return False
    spots = placement_spots(s)
    land_costs = [t.cost[u] for u in range(t.U) if t.land[u]]
    if land_costs and gold >= min(land_costs):
        if spots["fallback"] or any(_room(s, r) > 0 for r in spots["castles"]):
            return True
    return bool(_buy_actions(s))


def _buy_ok(s: State, a) -> bool:
    """Is Buy `a` legal? (the same answer as `a in _buy_actions(s)`)"""
    t, b = s.tab, s.board
    u = t.idx.get(a.unit) if isinstance(a.unit, str) else None
    at = a.at
    if u is None or isinstance(at, bool) or not isinstance(at, int) or not 0 <= at < b.n:
        return False
    if t.cost[u] > s.gold[s.realm]:
        return False
    if t.castle[u]:
        return at in _castle_sites(s)
    spots = placement_spots(s)
    castles = spots["castles"]
    if not b.is_sea[at]:
        if t.ship[u]:
            return False
        return (at in castles and _room(s, at) > 0) or at in spots["fallback"]
    if s.hostile[at] or not any(x in castles and _room(s, x) > 0 for x in b.adj[at]):
        return False
    if t.ship[u] or t.sea_ender[u]:
        return True
    if t.land[u]:
        p = s.realm
        return any(sh.region == at and sh.owner == p and len(sh.cargo) < t.capacity[sh.utype] for sh in s.ships)
    return False


# --- movement ---------------------------------------------------------------------------------
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
    for key in sorted((k for k in groups if k[0] == u and k[1] >= cost and groups[k] > 0), key=lambda k: k[1]):
        if left <= 0:
            break
        k = min(groups[key], left)
        groups[key] -= k
        if not groups[key]:
            del groups[key]
        left -= k
        _mob_add(s, a.dst, u, k, 0 if stop else key[1] - cost)
    s.units[a.src][p][u] -= a.count
    s.units[a.dst][p][u] += a.count
    _event(s, "move", realm=REALMS[p], src=a.src, dst=a.dst, unit=a.unit, count=a.count)


def _do_embark(s: State, a: Embark) -> None:
    t = s.tab
    u = t.idx[a.unit]
    p = s.realm
    sh = s.ship(a.ship)
    g = s.mob[a.src]
    if s.rules.board_after_move:
        key = min((k for k in g if k[0] == u and k[1] >= 1 and g[k]), key=lambda k: k[1])
    else:
        key = (u, t.move[u])
    g[key] -= 1
    if not g[key]:
        del g[key]
    s.units[a.src][p][u] -= 1
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
    _event(s, "unload", realm=REALMS[p], ship=a.ship, sea=sh.region, dst=a.dst, units=list(sh.cargo))
    sh.cargo = []


# --- combat -----------------------------------------------------------------------------------
def _start_combat(s: State, rng) -> None:
    """Seed phase 3: "Dog skal alle søslag afvikles inden landkampe (inklusiv forsøg på landgang)"."""
    b, p = s.board, s.realm
    s.phase = PH_COMBAT
    s.mode = M_MOVE
    s.stage = "sea"
    s.sites = [r for r in range(b.n) if b.is_sea[r] and s.hostile[r] and _present_at(s, r, p)]
    _next_battle(s, rng)


def _present_at(s: State, r: int, p: int) -> bool:
    if any(s.units[r][p]):
        return True
    return any(sh.region == r and sh.owner == p for sh in s.ships)


def _enemies_at(s: State, r: int, p: int) -> list:
    F = s.friends[p]
    out = [q for q in range(4) if q not in F and any(s.units[r][q])]
    for sh in s.ships:
        if sh.region == r and sh.owner not in F and sh.owner not in out:
            out.append(sh.owner)
    o = s.owner[r]
    out.sort(key=lambda q: (q != o, q))
    return out


def _next_battle(s: State, rng) -> None:
    """The next battle of the combat phase, or the land stage, or the regroup phase."""
    s.battle = None
    s.amok = None
    while True:
        if s.stage == "dungeon":
            while s.sites:
                r = s.sites.pop(0)
                if _start_dungeon(s, r, rng):
                    return
            _start_regroup(s)
            return
        if s.sites:
            if len(s.sites) == 1:
                if _start_site(s, s.sites.pop(), rng):
                    return
                s.battle, s.amok = None, None
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


def _dungeon_sites(s: State) -> list:
    """Dungeons where the current realm's explorers stand with no enemy troops: fights with the guardians."""
    b, p, t = s.board, s.realm, s.tab
    return [r for r in range(b.n) if b.is_dungeon[r] and any(s.units[r][p][u] for u in range(t.U) if t.explorer[u])
            and not _enemies_at(s, r, p)]


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
        s.amok = [r, monsters]
        if amok_targets(s):
            s.phase = PH_AMOK
            s.current_player, s.decider = s.seat_of[p], p
            s.battle = None
            return True
        s.amok = None
    return False


# --- dungeons ---------------------------------------------------------------------------------
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


def _start_dungeon(s: State, r: int, rng) -> bool:
    """Seed "Udforsk dungeons": the heroes turn the token over and fight every guardian there at once
    (a battle on dungeons.dungeon_rules). Returns True when the state rests at a decision."""
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
    bt.owner0, bt.dungeon, bt.queue, bt.luck = -1, True, [], [0.0] * 4
    bt.step, bt.due, bt.pend = 0, [], None
    bt.att = ArmyChain(p, ta, [heroes.get(n, 0) for n in names])
    bt.defs = [ArmyChain(-1, td, [army.get(n, 0) for n in names])]
    bt.att.set_plan("cheapest")
    bt.defs[0].set_plan("cheapest")
    bt.windows = [(p, "attack")]
    s.battle = bt
    _event(s, "dungeon", realm=REALMS[p], region=r, heroes=heroes, guardians=[G[g].key for g in gids])
    return _battle_continue(s, rng)


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


def _finish_dungeon(s: State, rng) -> bool:
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
    if s.must_play[p] and _open_window(s, "immediate", p, -1, None, "next"):
        return True
    return False


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


def _army_counts(s: State, r: int, q: int) -> list:
    """Realm q's army at r: units there, plus at sea its warships and their cargo."""
    counts = s.units[r][q][:]
    if s.board.is_sea[r]:
        for sh in s.ships:
            if sh.region == r and sh.owner == q:
                counts[sh.utype] += 1
                for u in sh.cargo:
                    counts[u] += 1
    return counts


def _run_battle(s: State, rng) -> None:
    """Go on with the battle under way; when it ends (and no amok decision waits), the next one."""
    if not _battle_continue(s, rng):
        _next_battle(s, rng)


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
    bt.queue = []
    bt.step, bt.due, bt.pend = 0, [], None
    by_order = s.rules.casualty_choice == "order"
    for ch in [bt.att] + bt.defs:
        ch.set_plan("cheapest")      # each_hit: the yardstick of the luck figure and the order cargo drowns in
        kinds = sum(1 for u in ch.t.take_idx if sum(ch.states[0][u]))
        if kinds >= 2 and by_order:
            bt.queue.append(ch.realm)
    bt.dungeon = False
    bt.windows = [(p, "attack")] + [(d.realm, "defence") for d in bt.defs]
    s.battle = bt
    for ch in [bt.att] + bt.defs:
        s.stats["battles_fought"][ch.realm] += 1
    s.stats["attacks"][p] += 1
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


def _named(s: State, counts) -> dict:
    return {s.tab.names[u]: c for u, c in enumerate(counts) if c}


def _battle_continue(s: State, rng) -> bool:
    """Casualty-order decisions first, then rounds until the attacker must choose or the battle ends.

    Returns True when the state rests at a decision (casualty order, press or retreat, run amok),
    False when the battle is over and the combat phase goes on."""
    bt = s.battle
    while bt.windows:
        realm, role = bt.windows[0]
        if _open_window(s, "combat", realm, bt.region, role, "battle"):
            return True
        bt.windows.pop(0)
    if bt.dungeon:
        s.current_player, s.decider = s.seat_of[s.realm], s.realm
        while True:
            _dungeon_round(s, rng)
            if bt.att.health == 0 or bt.defs[0].health == 0:
                return _finish_dungeon(s, rng)
            if retreat_options(s):
                s.phase = PH_PRESS
                return True
            if bt.round >= 10_000:
                raise RuntimeError(f"dungeon fight at region {bt.region} still undecided after {bt.round} rounds")
    if bt.queue:
        s.phase = PH_CASUALTY
        s.current_player = s.seat_of[bt.queue[0]]
        s.decider = bt.queue[0]
        return True
    s.current_player, s.decider = s.seat_of[s.realm], s.realm
    if s.rules.casualty_choice == "each_hit":
        return _battle_by_hits(s, rng)
    while True:
        _fight_round(s, rng)
        if _battle_over(s):
            return _finish_battle(s)
        if retreat_options(s):
            s.phase = PH_PRESS
            return True
        if bt.round >= 10_000:
            raise RuntimeError(f"battle at region {bt.region} still undecided after {bt.round} rounds")


def _battle_by_hits(s: State, rng) -> bool:
    """Rounds of steps 1–3 where each side places its own hits (decision Hit), then step 4."""
    bt = s.battle
    while True:
        if bt.due:
            if _place_hits(s):
                return True
            _step_luck(s)
            s.current_player, s.decider = s.seat_of[s.realm], s.realm
        if bt.step == 2:
            bt.step = 0
            bt.round += 1
            if _battle_over(s):
                return _finish_battle(s)
            if retreat_options(s):
                s.phase = PH_PRESS
                return True
            if bt.round >= 10_000:
                raise RuntimeError(f"battle at region {bt.region} still undecided after {bt.round} rounds")
            continue
        first = bt.step == 0
        bt.step += 1
        _roll_step(s, rng, first)


def _roll_step(s: State, rng, first: bool) -> None:
    """Step 1 (first strike) or 2 (other attacks): every side rolls; the hits each side must place
    are queued in `bt.due` (attacker first, then the defenders, allied shares split as the seed says)."""
    bt = s.battle
    att, defs = bt.att, bt.defs
    pa = gb.pmf_of(att.t, [att.army], first)
    pd = gb.pmf_sides([(d.t, d.army) for d in defs], first)
    if len(pa) <= 1 and len(pd) <= 1:
        return
    e_def = _expected_def_loss(s, pa)
    e_att = _expected_att_loss(bt, pd)
    bt.pend = (e_def, e_att, att.lost[att.k], [d.lost[d.k] for d in defs])
    if s.log is not None:
        dice = _dice_log(bt, first)
    ha = gb.roll(att.t, att.army, rng, first)
    hd = 0
    rolled = [ha]
    for d in defs:
        rolled.append(gb.roll(d.t, d.army, rng, first))
        hd += rolled[-1]
    if s.log is not None:
        _roll_event(s, first, dice, rolled)
    bt.due = [[att.realm, hd]]
    bt.due += [[d.realm, h] for d, h in zip(defs, _defender_allot(s, ha))]


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
    """Place the queued hits; rest at a Hit decision when the owner has a real choice (two or more
    places and fewer hits than it can take — otherwise every unit that can take a hit is lost anyway)."""
    bt = s.battle
    while bt.due:
        realm, n = bt.due[0]
        ch = _chain_of(bt, realm)
        while n > 0 and ch.health > 0:
            opts = gb.hit_options(ch.t, ch.army)
            if len(opts) > 1 and n < ch.health:
                bt.due[0][1] = n
                s.phase = PH_HIT
                s.current_player, s.decider = s.seat_of[realm], realm
                return True
            dmg, u = opts[0] if len(opts) == 1 else _plan_choice(ch)
            _hit(s, ch, dmg, u)
            n -= 1
        bt.due.pop(0)
    return False


def _plan_choice(ch: ArmyChain) -> tuple:
    """Where the side's plan puts the next hit (used when the choice cannot matter)."""
    opts = gb.hit_options(ch.t, ch.army)
    for tok in ch.plan.hits:
        if tok in opts:
            return tok
    return opts[0]


def _hit(s: State, ch: ArmyChain, dmg: bool, u: int, chosen: bool = False) -> None:
    army = gb.copy_army(ch.army)
    before = gb.present(ch.t, army)
    gb.apply_hit(ch.t, army, dmg, u, ch.plan.drown, ch.plan.loads)
    ch.rebase(army)
    if s.log is not None:
        after = gb.present(ch.t, army)
        t = ch.t
        lost = {t.names[x]: before[x] - after[x] for x in range(t.U) if before[x] > after[x] and x != u}
        _event(s, "hit", realm=REALMS[ch.realm], region=s.battle.region, unit=gb.hit_token(t, dmg, u),
               killed=before[u] > after[u], drowned=lost, chosen=chosen)


def hit_actions(s: State) -> list:
    """PH_HIT: one Hit per distinct place the deciding realm's next hit may go."""
    bt = s.battle
    ch = _chain_of(bt, bt.due[0][0])
    return [Hit(gb.hit_token(ch.t, dmg, u)) for dmg, u in gb.hit_options(ch.t, ch.army)]


def _do_hit(s: State, a: Hit) -> None:
    bt = s.battle
    ch = _chain_of(bt, bt.due[0][0])
    for dmg, u in gb.hit_options(ch.t, ch.army):
        if gb.hit_token(ch.t, dmg, u) == a.unit:
            _hit(s, ch, dmg, u, chosen=True)
            break
    bt.due[0][1] -= 1
    if bt.due[0][1] <= 0 or ch.health == 0:
        bt.due.pop(0)


def _step_luck(s: State) -> None:
    """After a step's hits are placed: the luck figure (gold destroyed against what the roll was
    expected to destroy, both under the sides' default plans)."""
    bt = s.battle
    if bt.pend is None:
        return
    e_def, e_att, lost_a0, lost_d0 = bt.pend
    bt.pend = None
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


def _expected_att_loss(bt: Battle, pmf) -> float:
    ch = bt.att
    n = len(pmf)
    if n <= 1:
        return 0.0
    ch.at(ch.k + n - 1)
    base = ch.lost[ch.k]
    e = 0.0
    for h in range(1, n):
        e += pmf[h] * (base - ch.lost[min(ch.k + h, len(ch.lost) - 1)])
    return e


def _expected_def_loss(s: State, pmf) -> float:
    bt = s.battle
    n = len(pmf)
    if n <= 1:
        return 0.0
    e = 0.0
    if len(bt.defs) == 1:
        ch = bt.defs[0]
        ch.at(ch.k + n - 1)
        base = ch.lost[ch.k]
        for h in range(1, n):
            e += pmf[h] * (base - ch.lost[min(ch.k + h, len(ch.lost) - 1)])
        return e
    for h in range(1, n):
        loss = 0
        for d, share in zip(bt.defs, _defender_allot(s, h)):
            j = d.at(d.k + share)
            loss += d.lost[d.k] - d.lost[j]
        e += pmf[h] * loss
    return e


def _fight_round(s: State, rng) -> None:
    """Seed steps 1–3 (combat.fight_round), with the exact expected losses of each roll for the luck figure."""
    bt = s.battle
    att, defs = bt.att, bt.defs
    for first in (True, False):
        pa = gb.pmf_of(att.t, [att.army], first)
        pd = gb.pmf_sides([(d.t, d.army) for d in defs], first)
        if len(pa) <= 1 and len(pd) <= 1:
            continue
        e_def = _expected_def_loss(s, pa)
        e_att = _expected_att_loss(bt, pd)
        lost_a0 = att.lost[att.k]
        lost_d0 = [d.lost[d.k] for d in defs]
        if s.log is not None:
            dice = _dice_log(bt, first)
        ha = gb.roll(att.t, att.army, rng, first)
        hd = 0
        rolled = [ha]
        for d in defs:
            rolled.append(gb.roll(d.t, d.army, rng, first))
            hd += rolled[-1]
        if s.log is not None:
            _roll_event(s, first, dice, rolled)
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


def _with(counts: list, u: int, v: int) -> list:
    out = counts[:]
    out[u] = v
    return out


def _move_units_out(s: State, r: int, dst: int, u: int, c: int) -> None:
    p = s.realm
    s.units[r][p][u] -= c
    s.units[dst][p][u] += c
    for m, k in _mob_take_best(s, r, u, c):
        _mob_add(s, dst, u, k, 0 if not s.tab.flyer[u] else m)


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


def amok_targets(s: State) -> list:
    """Seed: monsters "må rykke ind i et tilstødende fjendtlig felt uden modstandere og straks erobre feltet"."""
    if s.amok is None:
        return []
    r = s.amok[0]
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
    r = s.amok[0]
    u = next(u for u in range(t.U) if t.monster[u] and s.units[r][p][u])
    s.units[r][p][u] -= 1
    s.units[dst][p][u] += 1
    _mob_remove(s, r, u, 1)
    _mob_add(s, dst, u, 1, 0)
    _event(s, "amok", realm=REALMS[p], src=r, dst=dst, unit=t.names[u])
    _capture(s, dst, p, how="amok")
    _terrain_at(s, dst)
    s.amok[1] -= 1
    if s.amok[1] <= 0 or not s.units[r][p][u] or not amok_targets(s):
        s.amok = None
        return True
    return False


# --- regroup ----------------------------------------------------------------------------------
def _start_regroup(s: State) -> None:
    """Seed phase 4: heroes and flyers may move again (no new battles)."""
    b, t, p = s.board, s.tab, s.realm
    s.phase, s.mode = PH_REGROUP, M_REGROUP
    s.current_player, s.decider = s.seat_of[p], p
    _refresh_terrain(s)
    full = s.rules.regroup_move == "full"
    new_mob = {}
    for r in range(b.n):
        row = s.units[r][p]
        for u in range(t.U):
            if not row[u] or not (t.hero[u] or t.flyer[u]) or not t.mobile[u]:
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
    for r in range(b.n):
        row = s.units[r][p]
        for u in range(t.U):
            if not row[u] or not t.flyer[u]:
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


# --- reinforcements ---------------------------------------------------------------------------
def placement_spots(s: State) -> dict:
    """Castle regions where the current realm may place new units this turn, each with its limit
    (None = unlimited), or the fallback regions nearest the capital when it holds no castle.

    Seed: held since the start of the turn (the capital also when just recaptured); unlimited in
    the capital, at most four elsewhere unless only one castle was held at the start of the turn.
    """
    if s.spots is not None:
        return s.spots
    b, t, p = s.board, s.tab, s.realm
    cu = t.castle_u
    cap = b.capitals[p]
    castles = [r for r in s.turn_castles if s.owner[r] == p and s.units[r][p][cu]]
    if not s.capital_held_start and s.owner[cap] == p and s.units[cap][p][cu] and cap not in castles:
        castles.append(cap)
    spots = {}
    if castles:
        unlimited = s.n_castles_start == 1
        for r in sorted(castles):
            spots[r] = None if (r == cap or unlimited) else s.rules.placement_limit
        s.spots = {"castles": spots, "fallback": []}
    else:
        dist = b.distances(cap)
        cand = [r for r in range(b.n) if not b.is_sea[r] and not b.is_dungeon[r] and s.owner[r] in s.friends[p]]
        if cand:
            best = min(dist[r] for r in cand)
            s.spots = {"castles": {}, "fallback": sorted(r for r in cand if dist[r] == best)}
        else:
            s.spots = {"castles": {}, "fallback": []}
    return s.spots


def _room(s: State, castle: int) -> int:
    lim = placement_spots(s)["castles"][castle]
    if lim is None:
        return 1 << 30
    return lim - s.placed.get(castle, 0)


def _charge_castle(s: State, at: int) -> int | None:
    """The castle a placement counts against: `at` itself, or for a sea the adjacent castle with
    most room (unlimited ones first)."""
    spots = placement_spots(s)["castles"]
    if at in spots:
        return at if _room(s, at) > 0 else None
    best, best_room = None, 0
    for x in s.board.adj[at]:
        if x in spots:
            room = _room(s, x)
            if room > best_room:
                best, best_room = x, room
    return best


def _buy_actions(s: State) -> list:
    b, t, p = s.board, s.tab, s.realm
    gold = s.gold[p]
    spots = placement_spots(s)
    castles, fallback = spots["castles"], spots["fallback"]
    land_spots = [r for r in castles if _room(s, r) > 0] + list(fallback)
    sea_spots = []
    seen = set()
    for r in castles:
        if _room(s, r) <= 0:
            continue
        for x in b.adj[r]:
            if b.is_sea[x] and not s.hostile[x] and x not in seen:
                seen.add(x)
                sea_spots.append(x)
    sea_spots.sort()
    ship_room = {x: sum(t.capacity[sh.utype] - len(sh.cargo) for sh in s.ships if sh.region == x and sh.owner == p)
                 for x in sea_spots}
    out = []
    names = t.names
    for u in range(t.U):
        if t.cost[u] > gold:
            continue
        if t.castle[u]:
            out += [Buy(names[u], r) for r in _castle_sites(s)]
        elif t.ship[u]:
            out += [Buy(names[u], x) for x in sea_spots]
        elif t.flyer[u]:
            out += [Buy(names[u], r) for r in land_spots]
            if t.sea_ender[u]:
                out += [Buy(names[u], x) for x in sea_spots]
        else:
            out += [Buy(names[u], r) for r in land_spots]
            out += [Buy(names[u], x) for x in sea_spots if ship_room[x] > 0]
    return out


def _castle_sites(s: State) -> list:
    """Where a bought castle goes (Rules.castle_placement): a land region without a castle, held since the
    start of the turn (and, for "next_to_castle", next to a castle the realm may place at)."""
    b, t, p = s.board, s.tab, s.realm
    cu = t.castle_u
    out = [r for r in b.land_regions if s.owner[r] == p and s.owner_start[r] == p
           and not any(s.units[r][q][cu] for q in range(4))]
    if s.rules.castle_placement == "next_to_castle":
        spots = placement_spots(s)["castles"]
        out = [r for r in out if any(x in spots for x in b.adj[r])]
    return out


def _start_buy(s: State) -> None:
    s.phase = PH_BUY
    s.mode = M_REINFORCE
    s.mob = {}
    s.spots = None
    s.placed = {}
    _refresh_terrain(s)
    for sh in s.ships:
        if sh.owner == s.realm:
            sh.moves, sh.unloaded, sh.landing = 0, False, -1
    if _has_cards(s):
        _open_window(s, "reinforcements", s.realm, -1, None, "buy")


def _do_buy(s: State, a: Buy) -> None:
    b, t, p = s.board, s.tab, s.realm
    u = t.idx[a.unit]
    s.gold[p] -= t.cost[u]
    s.stats["gold_spent"][p] += t.cost[u]
    s.stats["units_bought"][p] += 1
    s.spent[p][u] += t.cost[u]
    at = a.at
    if not t.castle[u]:
        castle = _charge_castle(s, at) if placement_spots(s)["castles"] else None
        if castle is not None:
            s.placed[castle] = s.placed.get(castle, 0) + 1
    ship = -1
    if t.ship[u]:
        sh = _new_ship(s, p, u, at, t.move[u])
        sh.new = True
        ship = sh.id
    elif b.is_sea[at] and t.land[u]:
        sh = min((sh for sh in s.ships if sh.region == at and sh.owner == p and len(sh.cargo) < t.capacity[sh.utype]),
                 key=lambda sh: (-len(sh.cargo), sh.id))
        sh.cargo.append(u)
        ship = sh.id
    else:
        s.units[at][p][u] += 1
        if t.mobile[u]:
            _mob_add(s, at, u, 1, t.move[u])
    _event(s, "buy", realm=REALMS[p], unit=a.unit, at=at, gold=s.gold[p], cost=t.cost[u], ship=ship)


def _start_reinforce(s: State) -> None:
    """Seed: "Når du har købt dine nye tropper, må du straks efter flytte dem ... Du må dog ikke starte
    nogen kampe." Only the new units move; no hostile or dungeon destination."""
    s.phase = PH_REINFORCE
    s.mode = M_REINFORCE
    _refresh_terrain(s)


# ---------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------
def describe_action(s: State, a) -> str:
    """The action in words, with region names."""
    nm = s.board.names
    ty = type(a)
    if ty is EndPhase:
        return f"end {s.decision}"
    if ty is Move:
        return f"move {a.count} {a.unit} {nm[a.src]} -> {nm[a.dst]}"
    if ty is Embark:
        return f"{a.unit} at {nm[a.src]} boards warship {a.ship}"
    if ty is Sail:
        return f"warship {a.ship} sails to {nm[a.dst]}"
    if ty is Unload:
        return f"warship {a.ship} lands its cargo on {nm[a.dst]}"
    if ty is Fight:
        return f"fight the battle at {nm[a.region]}"
    if ty is Casualties:
        return f"casualty order: {a.order}"
    if ty is Hit:
        return f"take the hit on {a.unit.replace('damage:', 'a fresh ')}" + (" (wounded)" if a.unit.startswith("damage:") else "")
    if ty is PressOn:
        return "press the attack"
    if ty is RetreatTo:
        return f"retreat to {nm[a.dst]}"
    if ty is Amok:
        return f"a monster runs amok into {nm[a.dst]}"
    if ty is Pass:
        return "play no (more) cards" if s.phase == PH_EVENT else "no (more) running amok"
    if ty is PlayCard:
        c = s.cards.cards[a.card]
        where = f" at {nm[a.target]}" if a.target >= 0 else ""
        src = f" from {nm[a.source]}" if a.source >= 0 else ""
        return f"play {c.kind} card {c.name!r}{where}{src}"
    if ty is Buy:
        return f"buy a {a.unit} at {nm[a.at]}"
    return repr(a)


# ---------------------------------------------------------------------------------------
# Fast legality check (the same answer as `action in legal_actions(state)`)
# ---------------------------------------------------------------------------------------
def is_legal(s: State, a) -> bool:
    """True iff `a` is in legal_actions(s), without listing every legal action."""
    if s.is_terminal:
        return False
    ph = s.phase
    ty = type(a)
    try:
        if ty is EndPhase:
            return ph in (PH_MOVE, PH_BUY, PH_REINFORCE) or (ph == PH_REGROUP and _may_end_regroup(s))
        if ph in (PH_MOVE, PH_REGROUP, PH_REINFORCE):
            if ty is Move:
                if not isinstance(a.count, int) or isinstance(a.count, bool) or a.count < 1:
                    return False
                if not isinstance(a.unit, str) or a.unit not in s.tab.idx or a.src not in s.mob:
                    return False
                d = destinations(s, a.src, a.unit).get(a.dst)
                return d is not None and a.count <= d[2]
            if ph == PH_REGROUP or ty not in (Embark, Sail, Unload):
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
                return sh.moves > 0 and any(dst == a.dst for dst, _c, _st in _reach(s, sh.region, C_SHIP, sh.moves,
                                                                                     s.mode))
            # Unload
            x = a.dst
            if not sh.cargo or sh.landing >= 0 or not isinstance(x, int) or not 0 <= x < b.n:
                return False
            if x not in b.adj[sh.region] or b.is_sea[x] or b.is_dungeon[x]:
                return False
            return s.mode != M_REINFORCE or s.fr_land[x]
        if ph == PH_COMBAT:
            return ty is Fight and a.region in s.sites
        if ph == PH_CASUALTY:
            return ty is Casualties and a.order in gb.CASUALTY_ORDERS
        if ph == PH_HIT:
            return ty is Hit and a in hit_actions(s)
        if ph == PH_PRESS:
            return ty is PressOn or (ty is RetreatTo and a.dst in retreat_options(s))
        if ph == PH_AMOK:
            return ty is Pass or (ty is Amok and a.dst in amok_targets(s))
        if ph == PH_BUY:
            return ty is Buy and _buy_ok(s, a)
        if ph == PH_EVENT:
            return (ty is PlayCard or ty is Pass) and a in _event_actions(s)
    except (TypeError, IndexError, KeyError):
        return False
    return False
