"""Policies: `policy(observation, legal_actions, rng) -> action`.

`RandomPolicy` picks uniformly. Every heuristic is one `HeuristicPolicy` scoring each legal
action with a frozen `Weights` record; `runner`, `trickster`, `horror` and `heuristic` are
weight sets, and analyses can sweep any weight (`dataclasses.replace(RUNNER, progress=5.0)`).

The heuristic's model of the board is the number of actions a Midnighter needs to reach a
goal location (`route`): Dreamwalk steps along the current arrows, or a walk to the Forest
plus one Midnight Star to teleport. A Midnighter's goal is the Bridge; the Midnight Horror's
goal is the Town Hall (its "horror behaviour": head for the Town Hall, paralyse Midnighters
on the way, block anyone who tries to wake). The *leader* is the rival Midnighter closest
to the Bridge; hindering moves are aimed at the leader.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .actions import (
    NO_MOVE, Allow, Cancel, Count, Discard, DutchExtra, DutchReduce, Give, Hold, Intercept, Mix, Pass, SetTrap,
    Spring, Star, Steal, StopTaking, Take, Target, To, TrapPartner, Vertigo, VertigoOp, Walk,
)
from .board import distances_to
from .cards import (
    BLACK, BLUE, BRIDGE, CATCHER, COLOURLESS, CORRIDORS, DREAMWALK, DUTCH, FOREST, MOTEL, PURPLE, RED, RESTAURANT,
    SQUARE, STAR as STAR_CARD, TOWN_HALL, VERTIGO as VERTIGO_CARD,
)
from .engine import P_STAR, P_WALK, S_ANY


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def __call__(self, obs, legal, rng):
        return legal[int(rng.random() * len(legal))]

    def __repr__(self):
        return "RandomPolicy()"


@dataclass(frozen=True)
class Weights:
    """What a heuristic values; every field is a number analyses can sweep."""

    progress: float = 10.0        # per action closer to my goal (Bridge; Town Hall as the Horror)
    hinder: float = 3.0           # per action the leading rival is pushed away from the Bridge
    win: float = 1000.0           # waking up / the Horror activating the Town Hall
    block: float = 500.0          # cancelling or intercepting a winning activation of someone else
    block_walk: float = 0.0       # cancelling a rival's move towards the Bridge (per action gained, near the end)
    respond_cost: float = 8.0     # what a reaction costs (a card + an action next turn)
    shed: float = 40.0            # getting rid of a nightmare in hand
    trap: float = 0.0             # setting any trap
    trap_star_bridge: float = 0.0  # a Midnight Star trap on the Bridge (steals a rival's waking)
    trap_walk_bridge: float = 0.0  # a Dreamwalk trap on the Bridge (sends a rival back to the Corridors)
    spring_min: float = 6.0       # spring a trap only when it is worth at least this
    dutch_extra: float = -2.0     # a Dutch Angle extra action that does not win this turn
    dutch_reduce: float = 0.0     # a Dutch Angle against the leader (times the leader's closeness)
    steal: float = 0.0            # a Dreamcatcher steal from the leader (times closeness)
    capture: float = 0.0          # a Dreamcatcher trap on the leader's turn (times closeness)
    paralyse: float = 6.0         # the Horror standing with Midnighters (per Midnighter)
    waste: float = -3.0           # a card play that gains nothing
    star_value: float = 6.0       # card values: what keeping a card is worth
    walk_value: float = 3.0
    vertigo_value: float = 2.0
    dutch_value: float = 2.0
    catcher_value: float = 2.0
    suspense_value: float = 0.5
    nightmare_value: float = -20.0
    dig: float = 4.0              # discarding a card (Rules.discard_action) while I have no Midnight Star

    def card_value(self, k: int) -> float:
        if k >= RED:
            return self.nightmare_value
        return (self.walk_value, self.vertigo_value, self.star_value, self.dutch_value,
                self.catcher_value)[k] if k <= CATCHER else self.suspense_value


@dataclass(frozen=True)
class HeuristicPolicy:
    """Scores each legal action with `weights` and plays the best (random tie-break)."""

    weights: Weights = field(default_factory=Weights)
    name: str = "heuristic"

    def __call__(self, obs, legal, rng):
        if len(legal) == 1:
            return legal[0]
        ctx = _Context(obs, self.weights)
        best, best_score = [], None
        for a in legal:
            sc = ctx.score(a)
            if best_score is None or sc > best_score:
                best, best_score = [a], sc
            elif sc == best_score:
                best.append(a)
        return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]

    def __repr__(self):
        return f"HeuristicPolicy(name={self.name!r}, weights={self.weights!r})"


def route(grid, cell_of, rot, nb, goal: int, ret: bool) -> list[int]:
    """Actions from each location to stand on `goal`: walking, or walking to the Forest + 1 Star."""
    d = distances_to(grid, cell_of, rot, nb, goal, ret)
    f = distances_to(grid, cell_of, rot, nb, FOREST, ret)
    return [min(a, b + 1) for a, b in zip(d, f)] if goal != FOREST else d


class _Context:
    """Per-decision facts the scoring needs, computed once (lazily)."""

    def __init__(self, obs, w: Weights):
        self.obs, self.w = obs, w
        self.me = obs.player
        self.actor = obs.acting_for
        self.horror = obs.horror
        self.where = list(obs.where)
        rows, cols, grid, cell_of, rot, nb = obs.board
        self.grid, self.cell_of, self.rot, self.nb = list(grid), list(cell_of), list(rot), nb
        self.ret = obs.rules.dreamwalk_return_arrow
        self._routes = {}
        n = obs.n_players
        self.rivals = [q for q in range(n) if q != self.me and q != self.horror]
        self._leader = None
        self.shedding = self.actor != self.horror and any(RED <= k for k in obs.hand if k != BLACK)

    # ---- board model
    def routes(self, goal: int) -> list[int]:
        r = self._routes.get(goal)
        if r is None:
            r = self._routes[goal] = route(self.grid, self.cell_of, self.rot, self.nb, goal, self.ret)
        return r

    def goal(self, seat: int) -> int:
        return TOWN_HALL if seat == self.horror else BRIDGE

    def leader(self) -> int:
        """The rival Midnighter closest to the Bridge (-1: none)."""
        if self._leader is None:
            rb = self.routes(BRIDGE)
            best, bd = -1, 999
            for q in self.rivals if self.me != self.horror else [q for q in range(self.obs.n_players) if q != self.me]:
                d = rb[self.where[q]]
                if d < bd:
                    best, bd = q, d
            self._leader = best
        return self._leader

    def closeness(self, seat: int) -> float:
        return 4.0 / (1.0 + self.routes(BRIDGE)[self.where[seat]])

    def is_rival(self, seat: int) -> bool:
        return seat != self.me and (self.me == self.horror or seat != self.horror)

    def board_value(self, grid, cell_of, rot, where) -> float:
        """My progress minus the leader's (for the seat I act for: negative when it is a captured rival)."""
        w = self.w
        actor = self.actor
        rb = route(grid, cell_of, rot, self.nb, BRIDGE, self.ret)
        if self.goal(actor) == TOWN_HALL:
            mine = route(grid, cell_of, rot, self.nb, TOWN_HALL, self.ret)[where[actor]]
        elif self.shedding:
            # a nightmare in hand: first a Square, Motel or Town Hall to get rid of it
            mine = 3 + min(route(grid, cell_of, rot, self.nb, g, self.ret)[where[actor]] for g in (SQUARE, MOTEL, TOWN_HALL))
        else:
            mine = rb[where[actor]]
        v = -w.progress * mine
        if actor != self.me:  # a captured rival's avatar: its progress is bad for me
            v = -v
        lead = self.leader()
        if lead >= 0 and lead != actor:
            v += w.hinder * min(rb[where[lead]], 8)
        if self.me == self.horror:
            v += w.paralyse * sum(1 for q in range(len(where)) if q != self.me and where[q] == where[self.me])
        return v

    def current_value(self) -> float:
        return self.board_value(self.grid, self.cell_of, self.rot, self.where)

    def op_value(self, loc: int, op: int, then_op: int = -1) -> float:
        grid, cell_of, rot = self.grid[:], self.cell_of[:], self.rot[:]
        for o in (op, then_op):
            if o < 0 or o >= 7:
                continue
            if o < 4:
                c1 = cell_of[loc]
                c2 = self.nb[c1][o]
                if c2 < 0:
                    continue
                other = grid[c2]
                grid[c1], grid[c2] = other, loc
                cell_of[loc] = c2
                if other >= 0:
                    cell_of[other] = c1
            else:
                rot[loc] = (rot[loc] + o - 3) % 4
        return self.board_value(grid, cell_of, rot, self.where)

    def best_op_gain(self, loc: int) -> float:
        base = self.current_value()
        ops = [o for o in range(4) if self.nb[self.cell_of[loc]][o] >= 0] + [4, 5, 6]
        return max(self.op_value(loc, o) for o in ops) - base

    def move_value(self, seat: int, to: int) -> float:
        where = self.where[:]
        where[seat] = to
        return self.board_value(self.grid, self.cell_of, self.rot, where)

    def hand_has_nightmare(self, hand) -> bool:
        return any(k >= RED for k in hand)

    # ---- scoring
    def score(self, a) -> float:
        t = type(a)
        w = self.w
        obs = self.obs
        if t is Pass or t is Allow or t is Hold or t is StopTaking:
            return 0.0
        if t is Walk:
            return self.score_walk(a.direction)
        if t is Star:
            return self.score_star()
        if t is Vertigo:
            gain = self.best_op_gain(a.location)
            return gain - w.vertigo_value if gain > 0 else w.waste
        if t is VertigoOp:
            ctx = obs.context
            if "stage" in ctx:  # Vertigo trap
                return self.op_value(ctx["location"], a.op) - self.current_value()
            return self.op_value(ctx["location"], a.op)
        if t is SetTrap:
            return self.score_trap(a.location, self.best_partner(a.location)[1])
        if t is TrapPartner:
            return self.trap_value(obs.context["location"], a.kind)
        if t is DutchExtra:
            return self.score_extra()
        if t is DutchReduce:
            return (w.dutch_reduce * self.closeness(a.target) if a.target == self.leader() else -5.0)
        if t is Steal:
            return (w.steal * self.closeness(a.target) if self.is_rival(a.target) else -5.0)
        if t is Cancel or t is Intercept:
            return self.score_react(t is Intercept)
        if t is Spring:
            return self.score_spring(a.location, a.kind)
        if t is To:
            return self.score_to(a.location)
        if t is Target:
            return self.score_target(a.seat)
        if t is Take:
            return w.card_value(a.kind)
        if t is Discard:
            if obs.decision == "turn action":
                if self.actor != self.me:
                    return -5.0
                return (w.dig if STAR_CARD not in obs.hand else -1.0) - w.card_value(a.kind)
            if obs.decision.startswith("Town Hall"):
                return 0.0
            mode = obs.context.get("mode", S_ANY)
            v = -w.card_value(a.kind)
            return v if (mode == S_ANY or a.kind < RED) else v - 100
        if t is Give:
            return -w.card_value(a.kind) + (5.0 if a.kind >= RED else -3.0)
        if t is Mix:
            return self.score_mix()
        if t is Count:
            tgt = obs.context.get("target", -1)
            return a.n if self.is_rival(tgt) else -a.n
        return 0.0

    def score_walk(self, d: int) -> float:
        loc = self.where[self.actor]
        cell = self.cell_of[loc]
        c2 = self.nb[cell][d]
        to = self.grid[c2]
        gain = self.move_value(self.actor, to) - self.current_value()
        return gain - self.w.walk_value * 0.1 if gain > 0 else self.w.waste + gain * 0.01

    def score_star(self) -> float:
        w = self.w
        actor = self.actor
        loc = self.where[actor]
        hand = self.obs.hand
        sign = 1.0 if actor == self.me else -1.0
        if loc == BRIDGE:
            return sign * w.win
        if loc == TOWN_HALL:
            if actor == self.horror:
                return sign * w.win
            v = w.shed if self.hand_has_nightmare(hand) else -5.0
            eff = self.obs.effects
            if (eff["red"] | eff["blue"] | eff["speed_mask"]) >> actor & 1:
                v += 10.0
            return sign * v
        if loc == FOREST:
            goal = self.goal(actor)
            if actor != self.me:
                return -5.0
            return self.move_value(actor, goal) - self.current_value() - w.star_value
        if loc in (SQUARE, MOTEL):
            if self.hand_has_nightmare(hand):
                return sign * w.shed
            return (2.0 if loc == MOTEL else 0.5) - w.star_value * 0.5
        if loc == RESTAURANT:
            near = [q for q in self.obs.near_bridge if self.is_rival(q)]
            v = w.hinder * 3 * len(near) - w.star_value
            return v
        return w.waste

    def trap_value(self, loc: int, kind: int) -> float:
        w = self.w
        if kind < 0:
            return -100.0
        v = w.trap - 0.5 * w.card_value(kind)
        if loc == BRIDGE and kind == STAR_CARD:
            v += w.trap_star_bridge
        if loc == BRIDGE and kind == DREAMWALK:
            v += w.trap_walk_bridge
        if loc == TOWN_HALL and kind == STAR_CARD:
            v += w.trap * 0.5
        return v

    def best_partner(self, loc: int):
        hand = self.obs.hand
        best, bv = -1, -1e9
        for k in (DREAMWALK, VERTIGO_CARD, STAR_CARD, DUTCH, CATCHER):
            if k in hand:
                v = self.trap_value(loc, k)
                if v > bv:
                    best, bv = k, v
        return bv, best

    def score_trap(self, loc: int, kind: int) -> float:
        if self.actor != self.me:
            return -5.0
        return self.trap_value(loc, kind) - (self.w.progress * 0.5 if self.w.trap <= 0 else 0.0)

    def score_extra(self) -> float:
        """An extra action is worth it if it lets me reach the goal and activate it this turn."""
        w = self.w
        actor = self.actor
        if actor != self.me:
            return -5.0
        goal = self.goal(actor)
        need = self.routes(goal)[self.where[actor]] + 1
        hand = self.obs.hand
        have = self.obs.actions_left
        if STAR_CARD in hand and have < need <= have + 1 and hand.count(DREAMWALK) + 1 >= need - 1:
            return w.win * 0.3
        return w.dutch_extra

    def play_threat(self, ctx) -> float:
        """How much I want the play being reacted to NOT to happen (negative: I want it)."""
        w = self.w
        actor, ptype = ctx["actor"], ctx["play"]
        if actor == self.me:
            return -w.block
        if self.obs.controller == self.me and actor == self.obs.turn_player:
            return 0.0
        if ptype == P_STAR:
            loc = ctx["arg"]
            if loc == BRIDGE and actor != self.horror:
                if (BRIDGE, STAR_CARD) in self.obs.my_traps and self.me != self.horror and \
                        not self.hand_has_nightmare(self.obs.own_hand):
                    return -w.win  # my Star trap will steal the waking
                return w.block
            if loc == TOWN_HALL and actor == self.horror:
                return w.block
            if loc == FOREST and self.is_rival(actor) and actor == self.leader():
                return w.block_walk * 2
            return 0.0
        if ptype == P_WALK and self.is_rival(actor) and actor == self.leader():
            return w.block_walk * self.closeness(actor)
        return 0.0

    def score_react(self, intercept: bool) -> float:
        ctx = self.obs.context
        threat = self.play_threat(ctx)
        resolves = len(ctx["responses"]) % 2 == 0
        want = threat < 0
        if resolves == want or abs(threat) < 1e-9:
            return -self.w.respond_cost
        return abs(threat) - self.w.respond_cost + (1.0 if intercept else 0.0)

    def score_spring(self, loc: int, kind: int) -> float:
        w = self.w
        obs = self.obs
        dec = obs.decision
        if kind == STAR_CARD:
            if dec.startswith("Town Hall trap"):
                if self.me == self.horror:
                    return -1.0
                card = obs.context.get("card")
                return 20.0 if card in (COLOURLESS, BLUE, PURPLE, RED) else -1.0
            if loc == BRIDGE:
                return w.win
            return 10.0
        base = self.current_value()
        if kind == DREAMWALK:
            best = -1e9
            for q in range(obs.n_players):
                if self.where[q] == loc or q == self.me:
                    for c in CORRIDORS:
                        best = max(best, self.move_value(q, c) - base)
            return best - w.spring_min
        if kind == VERTIGO_CARD:
            ops = [o for o in range(4) if self.nb[self.cell_of[loc]][o] >= 0] + [NO_MOVE]
            best = max(self.op_value(loc, o, r) for o in ops for r in (4, 5, 6, -1))
            return best - base - w.spring_min
        if kind == DUTCH:
            best = -1e9
            for q in range(obs.n_players):
                if q != self.me and self.where[q] == loc:
                    where = self.where[:]
                    where[q], where[self.me] = where[self.me], where[q]
                    best = max(best, self.board_value(self.grid, self.cell_of, self.rot, where) - base)
            return best - w.spring_min
        if kind == CATCHER:
            v = obs.turn_player
            return (w.capture * self.closeness(v) if self.is_rival(v) else -5.0) - w.spring_min + 6.0
        return -1.0

    def score_to(self, loc: int) -> float:
        obs = self.obs
        dec = obs.decision
        ctx = obs.context
        if dec.startswith("Forest"):
            return self.move_value(self.actor, loc)
        if dec.startswith("Colourless"):
            return self.move_value(ctx["victim"], loc)
        if dec.startswith("Dreamwalk trap"):
            return self.move_value(ctx["target"], loc)
        return 0.0

    def score_target(self, seat: int) -> float:
        obs = self.obs
        dec = obs.decision
        if dec.startswith("Motel"):
            if self.hand_has_nightmare(obs.hand):
                return 5.0 if self.is_rival(seat) else 0.0
            return (self.closeness(seat) if self.is_rival(seat) else -1.0) + obs.hand_sizes[seat] * 0.1
        if dec.startswith("Restaurant"):
            return self.closeness(seat) * 3 if self.is_rival(seat) else -5.0
        if dec.startswith("Dreamwalk trap"):
            loc = obs.context["location"]
            base = self.current_value()
            return max(self.move_value(seat, c) for c in CORRIDORS) - base
        if dec.startswith("Dutch Angle trap"):
            where = self.where[:]
            where[seat], where[self.me] = where[self.me], where[seat]
            return self.board_value(self.grid, self.cell_of, self.rot, where)
        return 0.0

    def score_mix(self) -> float:
        near = self.obs.near_bridge
        if self.me in near and self.hand_has_nightmare(self.obs.own_hand):
            return self.w.shed * 0.5
        return 1.0 if any(self.is_rival(q) for q in near) else -1.0


RUNNER = Weights()
TRICKSTER = replace(RUNNER, progress=8.0, hinder=6.0, block_walk=6.0, trap=4.0, trap_star_bridge=40.0,
                    trap_walk_bridge=25.0, dutch_reduce=4.0, steal=2.0, capture=10.0, spring_min=4.0,
                    suspense_value=2.0)
HORROR = replace(RUNNER, paralyse=15.0, block_walk=4.0, hinder=5.0)
BALANCED = replace(RUNNER, hinder=4.0, block_walk=3.0, trap=1.0, trap_star_bridge=20.0, trap_walk_bridge=10.0,
                   dutch_reduce=2.0, capture=5.0)

POLICIES = {
    "random": RandomPolicy(),
    "runner": HeuristicPolicy(RUNNER, "runner"),
    "trickster": HeuristicPolicy(TRICKSTER, "trickster"),
    "horror": HeuristicPolicy(HORROR, "horror"),
    "heuristic": HeuristicPolicy(BALANCED, "heuristic"),
}
