"""The engine's state: decision kinds, unit tables, warships, armies in battle, the named decision
frames and `State` itself. The lowest module of `nerathsim.engine`: it imports no other engine module.

Units are counts: `units[region][realm][unit]` holds every unit that stands in a region
(castles included); every change of a region's counts appends the region to `_touched` (the log a
seat's next public copy reads to copy only the regions changed since its last one); warships are `Ship` objects with their cargo (land units aboard are only
in the cargo). During the current realm's turn `mob[region]` maps (unit, moves left) to
counts for its units that may still move in the current mode.

Decision frames: `Frame` (a `simcore.frames.Frame`: `seat`, `decision`, `legal`, `apply`, `step`) and
its subclasses, defined in the module owning their rules, on one stack `s.stack` whose top is the
decision the state rests at (`s.phase`, the public decision kind, is the top frame's `phase`; `s.decision`
its `decision`). Beneath the decisions lie the parts of the turn still to come (`turn.turn_plan`); a part
that ends pops itself and the part beneath begins (`next_part`); a decision pushed above a part pops
itself and the frame beneath resumes (`resume_below`). `s.window`, `s.pending` and `s.amok` are views of
the stack. A battle's decisions still to come (its casualty choices, the hits each realm still places)
are frames on the stack too, pushed at once in the order they are resolved (the next on top);
`Battle.queue`, `Battle.hits` and `Battle.due` are views of them. A `Battle` holds its `CombatWindow`s
still to offer and the step's `LuckBase`.
The game's fixed data a policy may see through the public copy (`Tables`, the board) is read-only.
"""
from __future__ import annotations

import copy
from typing import NamedTuple

import numpy as np

import simcore.frames
from simcore.actions import IllegalActionError  # noqa: F401  (the engine's error, exported here)

from ..battle import ingame as gb
from ..frozen import FrozenDict
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


class Tables:
    """Per-unit facts the engine needs, from the rules' unit table (cached on the Rules). Read-only once
    built (tuples and a `FrozenDict`): every game and every policy of these rules shares it."""

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
        for name, value in vars(self).items():
            if type(value) is list:
                object.__setattr__(self, name, tuple(value))
        object.__setattr__(self, "idx", FrozenDict(self.idx))
        object.__setattr__(self, "_built", True)

    def __setattr__(self, name, value):
        if self.__dict__.get("_built"):
            raise AttributeError(f"Tables is read-only (shared by every game of these rules): cannot set {name!r}")
        object.__setattr__(self, name, value)


def tables(rules: Rules) -> Tables:
    t = rules.__dict__.get("_tables")
    if t is None:
        t = Tables(rules)
        rules.__dict__["_tables"] = t
    return t


_new_ship = object.__new__


class Ship:
    """A warship: owner realm, region, moves left this turn, cargo (unit indices)."""

    __slots__ = ("id", "owner", "utype", "region", "moves", "unloaded", "cargo", "landing", "new")

    def __init__(self, id, owner, utype, region, moves=0, cargo=None):
        self.id, self.owner, self.utype, self.region = id, owner, utype, region
        self.moves, self.unloaded, self.cargo, self.landing, self.new = moves, False, cargo or [], -1, False

    def copy(self) -> "Ship":
        s = _new_ship(Ship)
        s.id, s.owner, s.utype, s.region, s.moves = self.id, self.owner, self.utype, self.region, self.moves
        s.unloaded, s.cargo, s.landing, s.new = self.unloaded, self.cargo[:], self.landing, self.new
        return s

    def __repr__(self):
        extra = f", landing={self.landing}" if self.landing >= 0 else ""
        return f"Ship(id={self.id}, owner={REALMS[self.owner]}, region={self.region}, cargo={self.cargo}{extra})"


# ---------------------------------------------------------------------------------------
# Frames
# ---------------------------------------------------------------------------------------
class Frame(simcore.frames.Frame):
    """A pending decision, or a part of the turn waiting beneath one, on the one stack `State.stack`
    (top = the decision the state rests at), in the lab's frame protocol (`simcore.frames`). A frame
    names who decides: `seat` (the seat asked, `s.current_player` when the state rests here) and
    `realm`, the realm that seat decides for (`decider`; a seat may play two realms); what is legal
    (`legal(s)`, `is_legal(s, a)`: the same answer as `a in legal(s)` without listing); how a choice
    applies (`apply(s, a, rng)`; the dispatcher then calls `simcore.frames.drive`); and what happens
    around it: `enter(s, rng)` when a part of the turn begins, `step(s, rng)` when `drive` finds it on
    top (True: rest at its decision; a part of the turn with nothing to choose `finish`es instead,
    `finish(s, rng, auto=True)`, which is also what EndPhase does, and returns False) and `resume(s, rng)`
    when the frame above it is done. `phase` is the decision kind, `decision` its name
    (`DECISION_NAMES[phase]`, set with `phase`; None for a frame that never rests). The classes live
    in the module owning their rules. A frame never changes (setting a field raises: a clone and a
    public copy share it) unless it is a `ChangingFrame`, which a clone copies."""

    __slots__ = ("realm", "seat")
    phase = None                            # the decision kind when the state rests at this frame
    slot = None                             # "window", "pending" or "amok": what State.window etc. show
    changing = False                        # True for a `ChangingFrame` (a clone copies it)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.decision = None if cls.phase is None else DECISION_NAMES[cls.phase]

    def __init__(self, realm: int, seat: int):
        object.__setattr__(self, "realm", realm)        # the realm deciding
        object.__setattr__(self, "seat", seat)          # its seat (`State.seat_of[realm]`)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} never changes (a clone shares it): cannot set {name!r}")

    def __reduce__(self):
        names = [n for cls in type(self).__mro__ for n in getattr(cls, "__slots__", ())]
        return _rebuild_frame, (type(self), {n: getattr(self, n) for n in names})

    @property
    def decider(self) -> int:
        return self.realm

    def step(self, s, rng) -> bool:
        """Rest at this decision: the rules that pushed or resumed the frame have set the state's
        decision (`s.phase`, `s.current_player` = `seat`, `s.decider`)."""
        return True

    def legal(self, s) -> list:
        raise IllegalActionError(f"no decision at {self!r}")

    def is_legal(self, s, a) -> bool:
        return False

    def apply(self, s, a, rng) -> None:
        raise IllegalActionError(f"unknown action {a!r}")

    def by_kind(self, s) -> list | None:
        """The legal actions grouped by kind, when the frame lists them its own way (lazily decoded
        moves); None: the dispatcher groups the listing."""
        return None

    def enter(self, s, rng) -> None:
        """This part of the turn begins (the part before it finished)."""

    def resume(self, s, rng) -> None:
        raise AssertionError(f"{self!r} has nothing to resume")

    def finish(self, s, rng, auto: bool = False) -> None:
        raise IllegalActionError(f"{type(self).__name__} cannot be ended")

    def copy(self) -> "Frame":
        return self

    def __repr__(self):
        names = [n for cls in reversed(type(self).__mro__) for n in getattr(cls, "__slots__", ())]
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"


class ChangingFrame(Frame):
    """A frame whose fields change while it waits (a clone copies it)."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    changing = True

    def copy(self) -> "ChangingFrame":
        raise NotImplementedError


def _rebuild_frame(cls, fields: dict) -> Frame:
    f = cls.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(f, name, value)
    return f


def next_part(s, rng) -> None:
    """The part of the turn on top is over: pop it, and the part beneath it begins (`enter`)."""
    s.stack.pop()
    s.stack[-1].enter(s, rng)


def resume_below(s, rng) -> None:
    """The frame on top is done: pop it, and the frame beneath it goes on (`resume`)."""
    s.stack.pop()
    s.stack[-1].resume(s, rng)


class WindowView(NamedTuple):
    """What a card window shows (the observation's `window`): `kind` (effects.WINDOWS), the deciding
    `realm`, the `region` of a combat window (-1 otherwise) and the `role` there ("attack"/"defence")."""

    kind: str
    realm: int
    region: int
    role: str | None


class CombatWindow(NamedTuple):
    """A combat card window still to offer at the start of a battle: `realm` fighting in `role`."""

    realm: int
    role: str               # "attack" or "defence"


class LuckBase(NamedTuple):
    """What a step of a hit-by-hit battle was expected to destroy, and the losses before it (the luck figure)."""

    e_def: float            # expected gold the defenders lose
    e_att: float            # expected gold the attacker loses
    lost_att: int           # the attacker's losses before the step
    lost_defs: list         # each defender's losses before the step


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
    """A battle (or a dungeon fight) under way: the attacker's and defenders' `ArmyChain`s. Its decisions still
    to come are frames on the state's stack (`stack`: that list, `State.stack`), above the combat phase's
    `BattleOrder`, in the order they are resolved: `queue` (the casualty choices) and `hits` (the hits each
    realm still places) are read-only views of them, the next first."""

    __slots__ = ("region", "at_sea", "attacker", "att", "defs", "round", "retreated", "luck", "owner0",
                 "windows", "dungeon", "step", "luck_base", "stack")

    def _pending(self, phase: int) -> list:
        """The frames of decision kind `phase` on the stack, the next (the top-most) first."""
        return [f for f in reversed(self.stack) if f.phase == phase]

    @property
    def queue(self) -> list:
        """The casualty choices still to make (`CasualtyChoice` frames on the stack), the next first."""
        return self._pending(PH_CASUALTY)

    @property
    def hits(self) -> list:
        """The hits each realm still places in this step (`HitsToPlace` frames on the stack), the next first."""
        return self._pending(PH_HIT)

    @property
    def next_casualty_choice(self) -> Frame:
        """The casualty choice to make next (the head of `queue`; the PH_CASUALTY frame)."""
        return self.queue[0]

    @property
    def next_hits(self) -> Frame:
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
        "decider", "mob", "mode", "reach", "reach_land", "reach_store", "_reach_fly", "hostile", "fr_land", "turn_castles", "n_castles_start",
        "capital_held_start", "owner_start", "placed", "spots", "stage", "sites", "battle", "explored",
        "conquered", "stats", "spent", "memo", "log", "is_terminal", "winner", "timed_out", "turns",
        "decisions", "_legal", "stack", "_touched",
        # cards and dungeons (Part III)
        "cards", "must_play", "kept", "treasure_deck", "guardians", "supply", "dungeon_given", "revealed",
        "win_done", "card_plays",
    )

    def clone(self) -> "State":
        s = State.__new__(State)
        for name in ("rules", "board", "tab", "n", "seat_of", "friends", "ally", "next_ship", "round", "turn_pos",
                     "realm", "phase", "current_player", "decider", "mode", "n_castles_start", "capital_held_start",
                     "stage", "is_terminal", "winner", "timed_out", "turns", "decisions", "reach", "reach_land",
                     "reach_store", "_reach_fly", "cards"):
            setattr(s, name, getattr(self, name))
        s.must_play, s.kept = [m[:] for m in self.must_play], [k[:] for k in self.kept]
        s.treasure_deck, s.supply = self.treasure_deck[:], self.supply[:]
        s.guardians = {r: list(g) for r, g in self.guardians.items()}     # lists (a public copy's are tuples)
        s.dungeon_given, s.revealed = dict(self.dungeon_given), set(self.revealed)
        s.win_done, s.card_plays = set(self.win_done), self.card_plays[:]
        s.owner = self.owner[:]
        s.hostile, s.fr_land = self.hostile[:], self.fr_land[:]
        s.units = [[list(row) for row in reg] for reg in self.units]     # lists (a public copy's rows are tuples)
        s._touched = []
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
        s.stack = copy_stack(self.stack, self.battle, s.battle)
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

    @property
    def window(self):
        """The open card window (a `windows.CardWindow` frame: the top, or beneath the card played in it), or None."""
        fr = self.stack
        if fr and fr[-1].slot == "window":
            return fr[-1]
        if len(fr) > 1 and fr[-1].slot == "pending" and fr[-2].slot == "window":
            return fr[-2]
        return None

    @property
    def pending(self):
        """The card enemies may still answer (a `windows.PendingCard` frame on top), or None."""
        fr = self.stack
        return fr[-1] if fr and fr[-1].slot == "pending" else None

    @property
    def amok(self):
        """The monsters that may still run amok (a `combat.AmokFrame` on top), or None."""
        fr = self.stack
        return fr[-1] if fr and fr[-1].slot == "amok" else None

    def regions_held(self, realm: int) -> int:
        return sum(1 for o in self.owner if o == realm)

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


def copy_stack(stack: list, battle, battle_copy) -> list:
    """A clone's stack: each frame's `copy()` (a `ChangingFrame` copied, the others shared). The copy of the
    battle under way (`battle_copy`, when `battle` is set) is bound to it: its queued decisions are views
    of the clone's own stack."""
    out = [f.copy() if f.changing else f for f in stack]       # a frame that never changes is shared
    if battle is not None:
        battle_copy.stack = out
    return out


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
        # lists (a public copy's states are tuples, `public_copy._public_battle`)
        n.states, n.lost, n.healths = [[list(r) for r in st] for st in ch.states], ch.lost[:], ch.healths[:]
        chains[id(ch)] = n
    c.att = chains[id(b.att)]
    c.defs = [chains[id(d)] for d in b.defs]
    c.luck, c.windows = list(b.luck), list(b.windows)
    if b.luck_base is not None:
        c.luck_base = b.luck_base._replace(lost_defs=list(b.luck_base.lost_defs))
    c.stack = None                      # bound to the copy's own stack by `copy_stack`
    return c


def as_generator(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:   # numpy would draw OS entropy: the protocol promises the same game for the same seed
        raise ValueError("seed/rng is None: give an int, a numpy SeedSequence or Generator (games are deterministic)")
    return np.random.default_rng(seed)
