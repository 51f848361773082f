"""A seat's public copy of the game state: what `observe` and the legal actions answer from.

`public_state(state, seat, caches)` copies what the seat may know (the whole board, its own hands,
counts of the others', its own reach tables) and leaves out what it may not (the other hands, every
deck order, face-down guardians, the others' notebooks, the log). Unchanged parts are shared with the
seat's last copy (`SeatCaches.last`, `LastCopy`) and the battle tables are read-only copies made once
per table (`_public_table`, `_public_plan`). `nerathsim.observation` wraps the copy in an `Observation`.
"""
from __future__ import annotations

from itertools import compress, islice
from operator import ne

from . import engine as E
from .battle import ingame as gb
from .frozen import FrozenDict


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
    c.stack = E.copy_stack(s.stack, s.battle, c.battle)
    if s.pending is not None:
        # who holds an answer is hidden; the realm being asked now (the decider) knows it is asked
        asked = s.pending.reactors[:1]
        c.stack[-1].reactors = asked if asked and s.phase == E.PH_EVENT and asked[0] == s.decider \
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
    c.stack = None                      # bound to the copy's own stack by `copy_stack`
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
