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

from itertools import compress, islice
from operator import ne
from typing import NamedTuple

from . import engine as E
from .battle import ingame as gb
from .frozen import FrozenDict
from .maps import REALMS
from .phases import PHASES, Phase


def public_state(s: E.State, player: int, caches: SeatCaches | None = None) -> E.State:
    """A copy of `s` holding only what seat `player` may know (see the module docstring); `caches`: the
    seat's own tables (`SeatCaches`: reach tables, and the parts of its last public copy that the engine
    has not changed since, which this copy shares), kept between its observations by the game loop."""
    c = _new_state(E.State)
    # the game's fixed data and plain values (straight-line: this runs at every decision)
    c.rules, c.board, c.tab, c.n, c.seat_of = s.rules, s.board, s.tab, s.n, s.seat_of
    c.friends, c.ally, c.next_ship, c.round, c.turn_pos = s.friends, s.ally, s.next_ship, s.round, s.turn_pos
    c.realm, c.phase, c.current_player, c.decider, c.mode = s.realm, s.phase, s.current_player, s.decider, s.mode
    c.n_castles_start, c.capital_held_start, c.stage = s.n_castles_start, s.capital_held_start, s.stage
    c.is_terminal, c.winner, c.timed_out, c.turns = s.is_terminal, s.winner, s.timed_out, s.turns
    c.decisions, c.cards = s.decisions, s.cards
    if caches is None:
        caches = SeatCaches()
    last = caches.last
    # the seat's own reach tables, holding the engine's entries too (the engine's tables are never shared)
    fr_land, hostile = s.fr_land, s.hostile
    if fr_land != last.fr_land:            # the terrain's keys, worked out again only when it changed
        last.fr_land, last.land = fr_land[:], bytes(fr_land)
    if hostile != last.hostile:
        last.hostile, last.hostile_key = hostile[:], bytes(hostile)
    land = last.land
    c.fr_land, c.hostile = fr_land[:], hostile[:]
    c.reach = caches.table((land, last.hostile_key), s.reach)
    c.reach_land = caches.table(land, s.reach_land)
    c._reach_fly = caches.table(("fly", s.rules.flyer_coast_cost), s._reach_fly)
    c.reach_store = {}
    mine = s.rules.seating[player]
    c.hands = [s.hands[q][:] if q in mine else [] for q in range(4)]
    c.must_play = [s.must_play[q][:] if q in mine else [] for q in range(4)]
    c.decks, c.treasure_deck, c.supply = [[], [], [], []], [], []
    # the parts below are shared with the seat's last copy while the engine's value still equals it
    # (compared with what the last copy holds now, never assumed: a part a policy changed in its own
    # copy is copied afresh)
    x = s.used
    c.used = last.used = last.used if x == last.used else [v[:] for v in x]
    x = s.kept
    c.kept = last.kept = last.kept if x == last.kept else [v[:] for v in x]
    c.guardians = _guardians(s, last)
    x = s.dungeon_given
    c.dungeon_given = last.dungeon_given = last.dungeon_given if x == last.dungeon_given else dict(x)
    x = s.revealed
    c.revealed = last.revealed = last.revealed if x == last.revealed else set(x)
    x = s.win_done
    c.win_done = last.win_done = last.win_done if x == last.win_done else set(x)
    x = s.card_plays
    c.card_plays = last.card_plays = last.card_plays if x == last.card_plays else x[:]
    c.owner = s.owner[:]
    c.units = _units(s, last)
    c._touched = []
    c.ships = [sh.copy() for sh in s.ships]
    c.gold, c.vp = s.gold[:], s.vp[:]
    c.mob = last.mob = _shared_entries(s.mob, last.mob, dict)
    x = s.turn_castles
    c.turn_castles = last.turn_castles = last.turn_castles if x == last.turn_castles else set(x)
    x = s.owner_start
    c.owner_start = last.owner_start = last.owner_start if x == last.owner_start else x[:]
    c.placed = dict(s.placed)
    x = s.spots                            # worked out once per buying phase, then only read
    c.spots = last.spots = None if x is None else last.spots if x == last.spots else \
        {"castles": dict(x["castles"]), "fallback": x["fallback"][:]}
    c.sites = s.sites[:]
    c.battle = _public_battle(s.battle, last)
    c.frames = E.copy_frames(s.frames, s.battle, c.battle)
    if s.pending is not None:
        # who holds an answer is hidden; the realm being asked now (the decider) knows it is asked
        asked = s.pending.reactors[:1]
        c.frames[-1].reactors = asked if asked and s.phase == E.PH_EVENT and asked[0] == s.decider \
            and s.seat_of[s.decider] == player else []
    x = s.explored
    c.explored = last.explored = last.explored if x == last.explored else set(x)
    x = s.conquered
    c.conquered = last.conquered = last.conquered if x == last.conquered else [set(v) for v in x]
    c.stats = last.stats = _shared_entries(s.stats, last.stats, list)
    spent = s.spent
    c.spent = last.spent = last.spent if spent == last.spent else [v[:] for v in spent]
    c.memo = [s.memo[i] if i == player else {} for i in range(len(s.memo))]
    c.log, c._legal = None, None
    return c


_new_state = object.__new__


def _shared_entries(engine: dict, last: dict | None, copy) -> dict:
    """The copy's dict of containers (the mobile units by region, the statistics by name): the seat's
    last one while it equals the engine's; else, when it has the same keys in the same order, a copy of
    it whose entries that differ from the engine's (compared in C, `map(ne, ...)`) are fresh copies
    (`copy`) of the engine's; else a fresh copy. Compared entry by entry, never assumed: an entry a
    policy changed in its own copy is copied afresh."""
    if last is not None:
        if engine == last:
            return last
        if list(engine) == list(last):
            out = dict(last)
            for k in compress(engine, map(ne, engine.values(), last.values())):
                out[k] = copy(engine[k])
            return out
    return {k: copy(v) for k, v in engine.items()}


def _guardians(s: E.State, last: LastCopy):
    """The copy's guardian tokens, a value ({dungeon: tuple of tokens}, the face-down ones as -1): the
    seat's last one while the engine's tokens and the turned-over dungeons are what it was made from."""
    g, rev = s.guardians, s.revealed
    if g != last.guardians_of or rev != last.revealed_of:
        last.guardians_of, last.revealed_of = {r: v[:] for r, v in g.items()}, set(rev)
        last.guardians = FrozenDict({r: (tuple(v) if r in rev else (-1,) * len(v)) for r, v in g.items()})
    return last.guardians


def _units(s: E.State, last: LastCopy) -> tuple:
    """The copy's unit counts, a value (a tuple by region of tuples by realm): the seat's last one with
    the regions the engine changed since (`State._touched`, the log of changed regions) made afresh."""
    log = s._touched
    snap = last.units
    if snap is None or last.log is not log or len(log) < last.seen:
        snap = tuple([tuple([tuple(row) for row in reg]) for reg in s.units])
    elif len(log) > last.seen:
        units = s.units
        snap = list(snap)
        for r in set(log[last.seen:]):
            snap[r] = tuple([tuple(row) for row in units[r]])
        snap = tuple(snap)
    last.units, last.log, last.seen = snap, log, len(log)
    return snap


class LastCopy:
    """Parts of a seat's last public copy, shared by its next copy where the engine's values still equal
    them (compared, never assumed: a part a policy changed in its own copy is copied afresh); its unit
    counts, a value (tuples), with the engine's log of changed regions (`log`, `State._touched`) and how
    much of it the counts have seen (`seen`); the terrain the seat's reach tables were last keyed by
    (private copies: `fr_land`, `hostile` and their bytes keys); the guardian tokens, a value, with
    private copies of the engine's tokens and turned-over dungeons it was made from (`guardians_of`,
    `revealed_of`); and the frozen army states of the battles it saw (`armies`, `_public_battle`)."""

    __slots__ = ("fr_land", "land", "hostile", "hostile_key", "units", "log", "seen", "mob", "stats", "spent",
                 "used", "kept", "dungeon_given", "revealed", "win_done", "card_plays", "turn_castles",
                 "owner_start", "explored", "conquered", "spots", "guardians", "guardians_of", "revealed_of",
                 "armies")

    def __init__(self):
        for name in self.__slots__:
            setattr(self, name, None)


class SeatCaches:
    """One seat's own tables for its public copies, kept by `play_game` for the whole game and shared
    with nothing the engine holds: its reach tables by terrain (as the engine's `reach_store`) — a table
    is brought up to date with the engine's table for the same terrain when the seat observes (the
    entries are pure functions of the terrain and the key, tuples), and what the copy works out itself
    stays in it — and the parts of its last copy (`LastCopy`)."""

    __slots__ = ("tables", "last", "realm_reach")

    def __init__(self):
        self.tables = {}            # key -> [the seat's table, id and size of the engine's table last copied]
        self.last = LastCopy()
        # `Observation.turn_reach`: the reach tables of the other realms' terrains, and its answers by the
        # position they are a pure function of (realm, unit counts, owners, warships)
        self.realm_reach = ({}, {})

    def table(self, key, engine: dict) -> dict:
        got = self.tables.get(key)
        if got is None:
            if len(self.tables) > 1024:
                self.tables.clear()
            got = self.tables[key] = [{}, None, -1]
        own = got[0]
        n = len(engine)
        if got[1] != id(engine) or got[2] != n:
            if got[1] == id(engine) and 0 <= got[2] < n:
                # the engine's tables only grow, in insertion order: the entries after those last copied
                # (were its table another one under the same id, an entry missed is worked out by the copy)
                own.update(islice(engine.items(), got[2], None))
            else:
                own.update(engine)
            got[1], got[2] = id(engine), n
        return own


def _public_battle(b, last: LastCopy):
    """The copy's battle: its own `Battle` and `ArmyChain`s, the chains' states read-only values (an army
    state, once a chain holds it, is never changed: `ArmyChain.at` appends new states, `rebase` replaces
    them by a fresh one), each frozen once and kept in the seat's `LastCopy.armies` with the state it
    copies; the side tables and casualty plans read-only copies (`_public_table`, `_public_plan`: a
    compiled plan is never changed either, so its read-only copy is made once and kept with it)."""
    if b is None:
        return None
    armies = last.armies
    if armies is None or len(armies) > 512:
        armies = last.armies = {}
    c = _new_state(E.Battle)
    c.region, c.at_sea, c.attacker, c.round, c.retreated = b.region, b.at_sea, b.attacker, b.round, b.retreated
    c.owner0, c.dungeon, c.step = b.owner0, b.dungeon, b.step
    c.luck, c.windows = list(b.luck), list(b.windows)
    lb = b.luck_base
    c.luck_base = None if lb is None else E.LuckBase(lb.e_def, lb.e_att, lb.lost_att, list(lb.lost_defs))
    c.stack = None                      # bound to the copy's own stack by `copy_frames`
    chains = []
    tables, get = _PUBLIC_TABLES.get, armies.get
    for ch in (b.att, *b.defs):
        n = _new_state(E.ArmyChain)
        n.realm, n.order, n.k, n.start_gold = ch.realm, ch.order, ch.k, ch.start_gold
        t = ch.t
        got = tables(id(t))
        n.t = got[1] if got is not None and got[0] is t else _public_table(t)
        plan = ch.plan
        got = tables(id(plan))
        n.plan = got[1] if got is not None and got[0] is plan else _public_plan(plan)
        n.loads = None if ch.loads is None else tuple(tuple(x) for x in ch.loads)
        states = []
        for st in ch.states:
            got = get(id(st))
            if got is None or got[0] is not st:
                got = armies[id(st)] = (st, tuple([tuple(row) for row in st]))
            states.append(got[1])
        n.states, n.lost, n.healths = states, ch.lost[:], ch.healths[:]
        chains.append(n)
    c.att, c.defs = chains[0], chains[1:]
    return c


def _frozen(value):
    if type(value) is list:
        return tuple(_frozen(v) for v in value)
    if type(value) is dict:
        return FrozenDict({k: _frozen(v) for k, v in value.items()})
    return value


#: read-only copies of battle side tables and compiled casualty plans, by the object they copy (held with
#: it; the engine never reads them)
_PUBLIC_TABLES: dict = {}


def _public_table(t: gb.SideTable) -> gb.SideTable:
    """A read-only copy of a battle side's unit table (tuples; no casualty-plan cache), made once per table."""
    got = _PUBLIC_TABLES.get(id(t))
    if got is not None and got[0] is t:
        return got[1]
    c = gb.SideTable.__new__(gb.SideTable)
    for name in gb.SideTable.__slots__:
        if name != "plans":
            setattr(c, name, _frozen(getattr(t, name)))
    c.plans = FrozenDict()
    if len(_PUBLIC_TABLES) > 4096:
        _PUBLIC_TABLES.clear()
    _PUBLIC_TABLES[id(t)] = (t, c)
    return c


class _PublicPlan(gb.Plan):
    """A read-only copy of a compiled casualty plan (its hits are (is_damage, unit) tuples)."""

    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"a public copy's casualty plan is read-only: cannot set {name!r}")

    def __reduce__(self):
        return gb.Plan, (self.hits, self.drown, self.source, self.loads)


def _public_plan(plan):
    """A read-only copy of a side's compiled casualty plan, made once per plan (kept in `_PUBLIC_TABLES`
    with the plan it copies: the engine never changes a compiled plan, `gb.with_loads` makes a new one)."""
    if plan is None:
        return None
    c = _PublicPlan.__new__(_PublicPlan)
    for name, value in (("hits", tuple(plan.hits)), ("drown", tuple(plan.drown)), ("source", plan.source),
                        ("loads", None if plan.loads is None else tuple(tuple(x) for x in plan.loads))):
        object.__setattr__(c, name, value)
    if len(_PUBLIC_TABLES) > 4096:
        _PUBLIC_TABLES.clear()
    _PUBLIC_TABLES[id(plan)] = (plan, c)
    return c


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
        s = self._s
        counts = list(s.units[region][realm])
        if s.board.is_sea[region]:
            for sh in s.ships:
                if sh.region == region and sh.owner == realm:
                    counts[sh.utype] += 1
                    for u in sh.cargo:
                        counts[u] += 1
        return counts

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
