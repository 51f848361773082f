"""The engine's state: decision kinds, unit tables, warships, armies in battle, the named decision
frames and `State` itself. The lowest module of `nerathsim.engine`: it imports no other engine module.

Units are counts: `units[region][realm][unit]` holds every unit that stands in a region
(castles included); warships are `Ship` objects with their cargo (land units aboard are only
in the cargo). During the current realm's turn `mob[region]` maps (unit, moves left) to
counts for its units that may still move in the current mode.

Decision frames (who decides, what is legal, how it applies, what resumes after it). `s.phase` names
the kind of the decision the state rests at (`DECISION_NAMES`); the dispatcher (`dispatch.DECISIONS`)
routes it to the `Decision` of the module owning that part of the turn. Beside the phase, the
pending work is held in named frames:

  * `s.window`   a `CardWindow`: a realm may play cards (`PH_EVENT`); `resume(s, rng)` runs after it
                 (`view`: its `WindowView`, what the observation shows).
  * `s.pending`  a `PendingCard`: a card enemies may still answer (`reactors`, the first decides).
  * `s.battle`   a `Battle`, whose `windows` are `CombatWindow`s still to offer, `queue` the
                 `CasualtyChoice`s still to make (`PH_CASUALTY`) and `hits` the `HitsToPlace`
                 of the current step (`PH_HIT`); their heads are read by name (`next_window`,
                 `next_casualty_choice`, `next_hits`); `luck_base` is the step's `LuckBase`.
  * `s.amok`     an `AmokFrame`: monsters that may still run amok from a conquered region (`PH_AMOK`).
"""
from __future__ import annotations

import copy
from typing import Callable, NamedTuple

import numpy as np

from ..battle import ingame as gb
from ..game_actions import EndPhase, Pass, PressOn
from ..maps import REALMS
from ..rules import Rules

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


# ---------------------------------------------------------------------------------------
# Decisions and frames
# ---------------------------------------------------------------------------------------
class Decision(NamedTuple):
    """One kind of decision, as its owning module answers it: `legal(s)` lists the actions,
    `is_legal(s, a)` gives the same answer as `a in legal(s)` without listing them, and
    `apply(s, a, rng)` applies a legal action (the dispatcher then calls `_advance`)."""

    legal: Callable
    is_legal: Callable
    apply: Callable


def _frame_legal(self, s) -> list:
    """The legal actions at this frame (its owning module's `Decision.legal`)."""
    return self.decision.legal(s)


def _frame_is_legal(self, s, a) -> bool:
    """Same answer as `a in self.legal(s)` (its owning module's `Decision.is_legal`)."""
    return self.decision.is_legal(s, a)


def _frame_apply(self, s, a, rng) -> None:
    """Apply a legal action at this frame (its owning module's `Decision.apply`; the dispatcher then advances)."""
    self.decision.apply(s, a, rng)


class WindowView(NamedTuple):
    """What a card window shows (the observation's `window`): `kind` (effects.WINDOWS), the deciding
    `realm`, the `region` of a combat window (-1 otherwise) and the `role` there ("attack"/"defence")."""

    kind: str
    realm: int
    region: int
    role: str | None


class CardWindow:
    """Frame: `realm` may play cards of window `kind` (effects.WINDOWS) — for a combat window at
    `region` in `role` ("attack"/"defence"). It rests at PH_EVENT; `resume(s, rng)` goes on with the
    turn once the realm passes or can play nothing more. Immutable (a state's clone shares it)."""

    __slots__ = ("kind", "realm", "region", "role", "resume")

    decision = None         # the owning module's Decision, bound by `windows.py` when that module is imported
    legal, is_legal, apply = _frame_legal, _frame_is_legal, _frame_apply

    def __init__(self, kind: str, realm: int, region: int, role: str | None, resume: Callable):
        init = object.__setattr__
        init(self, "kind", kind)
        init(self, "realm", realm)          # who decides
        init(self, "region", region)
        init(self, "role", role)
        init(self, "resume", resume)        # what resumes after it

    def __setattr__(self, name, value):
        raise AttributeError(f"CardWindow is immutable (a state's clone shares it): cannot set {name!r}")

    def __reduce__(self):
        return CardWindow, (self.kind, self.realm, self.region, self.role, self.resume)

    @property
    def decider(self) -> int:
        return self.realm

    @property
    def view(self) -> WindowView:
        """The window without its resume step: (kind, realm, region, role) with names."""
        return WindowView(self.kind, self.realm, self.region, self.role)

    def __repr__(self):
        return (f"CardWindow(kind={self.kind!r}, realm={self.realm}, region={self.region}, role={self.role!r}, "
                f"resume={getattr(self.resume, '__name__', self.resume)})")


class PendingCard:
    """Frame: a card `play` by `realm` that enemies may still answer (effects.reactors, in turn
    order: the first of `reactors` decides). Reactions `weaken` it or mark it `cancelled`; then it
    is resolved and the card window it was played in resumes."""

    __slots__ = ("realm", "play", "reactors", "weaken", "cancelled")

    decision = None         # the owning module's Decision, bound by `windows.py` when that module is imported
    legal, is_legal, apply = _frame_legal, _frame_is_legal, _frame_apply

    def __init__(self, realm: int, play, reactors: list, weaken: int = 0, cancelled: bool = False):
        self.realm, self.play, self.reactors, self.weaken, self.cancelled = realm, play, reactors, weaken, cancelled

    @property
    def decider(self) -> int:
        return self.reactors[0]

    def copy(self) -> "PendingCard":
        return PendingCard(self.realm, self.play, self.reactors[:], self.weaken, self.cancelled)

    def __repr__(self):
        return f"PendingCard(realm={self.realm}, play={self.play!r}, reactors={self.reactors}, weaken={self.weaken})"


#: the name the engine used before issue 14
Pending = PendingCard


class CombatWindow(NamedTuple):
    """A combat card window still to offer at the start of a battle: `realm` fighting in `role`."""

    realm: int
    role: str               # "attack" or "defence"


class CasualtyChoice(NamedTuple):
    """Frame (PH_CASUALTY): `realm` chooses the casualty order of its army in the battle."""

    realm: int              # who decides

    decision = None         # the owning module's Decision, bound by `combat.py` when that module is imported
    legal, is_legal, apply = _frame_legal, _frame_is_legal, _frame_apply

    @property
    def decider(self) -> int:
        return self.realm


class HitsToPlace:
    """Frame (PH_HIT): `realm` still places `hits` hits of the current step on its own army, one by one."""

    __slots__ = ("realm", "hits")

    decision = None         # the owning module's Decision, bound by `combat.py` when that module is imported
    legal, is_legal, apply = _frame_legal, _frame_is_legal, _frame_apply

    def __init__(self, realm: int, hits: int):
        self.realm, self.hits = realm, hits

    @property
    def decider(self) -> int:
        return self.realm

    def copy(self) -> "HitsToPlace":
        return HitsToPlace(self.realm, self.hits)

    def __repr__(self):
        return f"HitsToPlace(realm={self.realm}, hits={self.hits})"


class LuckBase(NamedTuple):
    """What a step of a hit-by-hit battle was expected to destroy, and the losses before it (the luck figure)."""

    e_def: float            # expected gold the defenders lose
    e_att: float            # expected gold the attacker loses
    lost_att: int           # the attacker's losses before the step
    lost_defs: list         # each defender's losses before the step


class AmokFrame:
    """Frame (PH_AMOK): up to `monsters` monsters of `realm` (the turn's realm) may run amok from `region`."""

    __slots__ = ("realm", "region", "monsters")

    decision = None         # the owning module's Decision, bound by `combat.py` when that module is imported
    legal, is_legal, apply = _frame_legal, _frame_is_legal, _frame_apply

    def __init__(self, realm: int, region: int, monsters: int):
        self.realm, self.region, self.monsters = realm, region, monsters

    @property
    def decider(self) -> int:
        return self.realm

    def copy(self) -> "AmokFrame":
        return AmokFrame(self.realm, self.region, self.monsters)

    def __repr__(self):
        return f"AmokFrame(realm={self.realm}, region={self.region}, monsters={self.monsters})"


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
    """A battle (or a dungeon fight) under way: the attacker's and defenders' `ArmyChain`s and its frames."""

    __slots__ = ("region", "at_sea", "attacker", "att", "defs", "round", "queue", "retreated", "luck", "owner0",
                 "windows", "dungeon", "step", "hits", "luck_base")

    @property
    def next_window(self) -> "CombatWindow":
        """The combat card window to offer next (the head of `windows`)."""
        return self.windows[0]

    @property
    def next_casualty_choice(self) -> "CasualtyChoice":
        """The casualty choice to make next (the head of `queue`; the PH_CASUALTY frame)."""
        return self.queue[0]

    @property
    def next_hits(self) -> "HitsToPlace":
        """The hits being placed now (the head of `hits`; the PH_HIT frame)."""
        return self.hits[0]

    @property
    def due(self) -> list:
        """[[realm, hits], ...] of `hits` (the view tests and observations read)."""
        return [[h.realm, h.hits] for h in self.hits]

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
        s.amok = None if self.amok is None else self.amok.copy()
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
    c.hits = [h.copy() for h in b.hits]
    return c


def as_generator(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)
