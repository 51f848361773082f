"""`WarPolicy`: the war-game heuristic, a frozen record of numbers analyses can sweep.

It sees only the observation and the legal actions: it branches on `observation.phase` (a
`phases.Phase`), plans a whole phase at its first decision and emits the plan step by step from
the seat's notebook (`observation.memo`), and answers the one-step decisions with `decisions`.
`play_game` asks this exact class at a planned phase's later decisions (`planned`: its notebook, the
plan's key and the engine's rule check) and at a hit, a battle's press-or-retreat and the next fight
(`hit`, `press`, `fight`: the fresh public values those answers read) without an observation; the
answers are the ones `__call__` gives from the observation. Its exact battle odds are remembered in its own `odds_cache` (an `estimates.OddsCache`), not in
the module.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, fields

from ..battle import ingame as gb
from ..game_actions import Casualties, EndPhase
from ..phases import Phase
from .decisions import (
    fight_choice,
    fight_order,
    hit_choice,
    play_cards,
    press_choice,
    press_or_retreat,
    run_amok,
    take_hit,
)
from .estimates import OddsCache
from .movement import MovementPlanner
from .purchase import Purchase
from .reinforcements import ReinforcementPlanner

END = EndPhase()
#: the phases it plans whole at their first decision (`_from_plan`)
PLANNED = (Phase.MOVE, Phase.REGROUP, Phase.BUY, Phase.REINFORCE)


@dataclass(frozen=True)
class WarPolicy:
    """A war-game heuristic. Every field is a number (or a Purchase) analyses can sweep."""

    name: str = "balanced"
    attack_threshold: float = 0.6     # P(win) needed to attack an occupied region
    retreat_below: float = 0.25       # retreat when P(win from here on) drops below this
    garrison: int = 0                 # extra land units kept in a front-line region that sends attackers
    defend: float = 0.35              # share of idle units sent to threatened regions (rest go to the front)
    max_attackers: int = 14           # largest stack sent against one region
    amphibious: bool = True           # use warships to land troops on enemy coasts
    landing_gain: bool = False        # value a landing by what it adds to the attack planned there: one unit
                                      # for an empty coast, none where a land unit already goes, the odds
                                      # gained elsewhere (False: the whole attack's odds, the ship's whole load)
    naval: bool = True                # attack enemy fleets when the odds are good
    amok: bool = True                 # let monsters run amok
    hold_regions: bool = True         # never leave an owned region without a castle empty (no free walk-ins)
    capital_hold: float = 0.8         # the capital keeps the garrison that holds it with this chance against what
                                      # enemy units can reach it on their coming turns (0: no garrison kept)
    castle_hold: float = 0.0          # the same for its other castles whose capture scores VP (0: none; a front
                                      # castle faces the whole enemy front, so a target there keeps the army home)
    play_events: bool = True          # play event/treasure cards (False: keep them all, answer nothing)
    explore: bool = True              # send free heroes into dungeons
    explore_threshold: float = 0.55   # P(heroes beat the guardians) needed to explore (face down: averaged)
    flee_below: float = 0.3           # in a dungeon, flee when P(win from here on) drops below this
    purchase: Purchase = field(default_factory=Purchase)
    #: one policy per realm that plays differently (realm order of `maps.REALMS`; None: this one), or ():
    #: every realm alike. A realm's own weights, where one set does not suit every realm (`data/tuned.json`'s
    #: "by_realm"); the realm deciding (the observation's `realm`) picks the policy that answers.
    by_realm: tuple = ()

    def __post_init__(self):
        if self.by_realm and (len(self.by_realm) != 4 or any(
                p is not None and (type(p) is not WarPolicy or p.by_realm) for p in self.by_realm)):
            raise ValueError("WarPolicy.by_realm: four entries (one per realm), each None or a WarPolicy "
                             f"without by_realm of its own; got {self.by_realm!r}")
        # not a field: no part of the policy's identity (==, hash, repr, analyses' parameters);
        # `dataclasses.replace` and unpickling give a fresh, empty one
        object.__setattr__(self, "odds_cache", OddsCache())

    def for_realm(self, realm: int) -> WarPolicy:
        """The policy that answers for `realm` (its entry of `by_realm`, else this one)."""
        return (self.by_realm[realm] or self) if self.by_realm else self

    def __call__(self, obs, legal, rng):
        own = self.by_realm[obs.realm] if self.by_realm else None
        if own is not None:
            return own(obs, legal, rng)
        ph = obs.phase
        if ph == Phase.CASUALTY:
            return Casualties(gb.CASUALTY_ORDERS[0])
        if ph == Phase.HIT:
            return take_hit(obs, legal)
        if ph == Phase.COMBAT:
            return fight_order(self, obs, legal)
        if ph == Phase.PRESS:
            return press_or_retreat(self, obs, legal)
        if ph == Phase.AMOK:
            return run_amok(self, obs, legal)
        if ph == Phase.EVENT:
            return play_cards(self, obs, legal, rng)
        if ph in PLANNED:
            return self._from_plan(obs, legal, rng)
        return legal[0]

    def __repr__(self):
        # the main numbers always, then every other field that differs from its default: two policies that
        # play differently never print alike (stored results name their policies by this repr)
        shown = ("name", "attack_threshold", "retreat_below", "garrison", "defend", "amphibious", "naval")
        fields_ = ", ".join(f"{k}={getattr(self, k)!r}" for k in shown)
        others = "".join(f", {f.name}={getattr(self, f.name)!r}" for f in fields(self)
                         if f.name not in shown and f.name not in ("purchase", "by_realm")
                         and getattr(self, f.name) != f.default)
        realms = f", by_realm={self.by_realm!r}" if self.by_realm else ""
        return f"WarPolicy({fields_}{others}, purchase={self.purchase!r}{realms})"

    # --- plans --------------------------------------------------------------------------------
    def plan_key(self, obs) -> tuple:
        """The phase a plan in the notebook belongs to (this turn, phase and realm)."""
        return (obs.turns, obs.phase, obs.realm)

    def planning(self, obs) -> bool:
        """True at the first decision of a planned phase: no plan made yet (a search's macro decision)."""
        if obs.phase not in PLANNED:
            return False
        plan = obs.memo.get("plan")
        return plan is None or plan[0] != self.plan_key(obs)

    def phase_plan(self, obs, rng) -> list:
        """The plan this policy would make for the current planned phase (the actions, in order)."""
        return self.for_realm(obs.realm)._make_plan(obs, rng)

    def adopt_plan(self, obs, actions) -> None:
        """Follow `actions` for the rest of this phase (a plan chosen elsewhere, e.g. by a search)."""
        obs.memo["plan"] = (self.plan_key(obs), deque(actions), 0)

    def planned(self, memo: dict, key: tuple, is_legal) -> object | None:
        """The next action of the plan in the notebook `memo` for the phase `key` (`plan_key`'s value) that
        `is_legal` accepts, the ones before it dropped from the plan; None when there is no plan for this
        phase yet or none of its actions left is legal (the plan is then used up). What `__call__` answers
        at a planned phase's later decisions; `play_game` asks it first for this exact class, with the
        engine's own rule check, so those decisions need no observation (the answer is the same)."""
        plan = memo.get("plan")
        if plan is None or plan[0] != key:
            return None
        queue = plan[1]
        while queue:
            a = queue.popleft()
            if is_legal(a):
                return a
        return None

    # --- one-step decisions without an observation ------------------------------------------
    def hit(self, brules, realm: int, battle, hits: list):
        """What `__call__` answers at a Hit decision (`decisions.take_hit`), from the battle rules, the deciding
        realm, the battle (a `BattleView`) and the Hit actions in listing order. `play_game` asks it for this
        exact class instead of building an observation (the answer is the same)."""
        return hit_choice(brules, realm, battle, hits)

    def fight(self, board, friends, counts, fleets, fights: list):
        """What `__call__` answers at the combat phase's choice of the next fight (`decisions.fight_order`), from
        the board, the deciding realm's friends, the unit counts at the regions of the Fight actions
        (`counts[region][realm][unit]`), the regions holding enemy warships and the Fight actions in listing
        order. `play_game` asks it for this exact class instead of building an observation (the same answer)."""
        return fight_choice(board, friends, counts, fleets, fights)

    def press(self, brules, tables, battle, legal: list, held):
        """What `__call__` answers at a press-or-retreat decision of a battle (not a dungeon fight;
        `decisions.press_or_retreat`), from the battle rules, the unit tables, the battle (a `BattleView`),
        the legal actions in listing order (PressOn first) and `held(dst)`, the deciding realm's units
        standing at a retreat destination (a function it calls and does not keep). `play_game` asks it for
        this exact class instead of building an observation (the answer is the same)."""
        if len(legal) == 1:
            return legal[0]
        return press_choice(self, brules, tables, battle, legal, held)

    def _from_plan(self, obs, legal, rng):
        memo = obs.memo
        key = self.plan_key(obs)
        plan = memo.get("plan")
        if plan is None or plan[0] != key:
            memo["plan"] = (key, deque(self._make_plan(obs, rng)), 0)
        a = self.planned(memo, key, legal.__contains__)
        if a is not None:
            return a
        if END in legal:
            return END
        return legal[0]

    def _make_plan(self, obs, rng) -> list:
        ph = obs.phase
        if ph == Phase.MOVE:
            return MovementPlanner(self, obs, rng).movement()
        if ph == Phase.REGROUP:
            return ReinforcementPlanner(self, obs, rng).regroup()
        if ph == Phase.BUY:
            return ReinforcementPlanner(self, obs, rng).buy()
        return ReinforcementPlanner(self, obs, rng).reinforce()
