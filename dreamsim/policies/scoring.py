"""How a heuristic scores each kind of action: `_Context` (the decision's facts, `_Facts`, plus
one scoring method per kind of action), the `_SCORE` table by action type, and `play_threat`
(how much a seat wants a play it may react to not to happen).
"""
from __future__ import annotations

from ..engine.actions import (
    NO_MOVE,
    Allow,
    Cancel,
    Count,
    Discard,
    DutchExtra,
    DutchReduce,
    Give,
    Hold,
    Intercept,
    Mix,
    Pass,
    SetTrap,
    Spring,
    Star,
    Steal,
    StopTaking,
    Take,
    Target,
    To,
    TrapPartner,
    Vertigo,
    VertigoOp,
    Walk,
)
from ..engine.cards import (
    BLACK,
    BLUE,
    BRIDGE,
    CATCHER,
    COLOURLESS,
    CORRIDORS,
    DREAMWALK,
    DUTCH,
    FOREST,
    MOTEL,
    PURPLE,
    RED,
    RESTAURANT,
    SQUARE,
    SUSPENSE_OF,
    TOWN_HALL,
)
from ..engine.cards import (
    STAR as STAR_CARD,
)
from ..engine.cards import (
    VERTIGO as VERTIGO_CARD,
)
from ..engine.observation import P_STAR, P_WALK, S_ANY
from .context import Weights, _Facts
from .plan import _plan_cost, key_add, key_free


class _Context(_Facts):
    """The facts of one decision and what each candidate action is worth."""

    __slots__ = ()

    def score(self, a) -> float:
        """What playing `a` is worth to me (compared with passing / letting it be: 0)."""
        return _SCORE[type(a)](self, a)

    def score_vertigo_op(self, a: VertigoOp) -> float:
        return self.value(g=self.g.after(self.obs.context["location"], a.op)) - self.base()

    def score_vertigo(self, a: Vertigo) -> float:
        """A Vertigo card on a.location: the best board it makes (best_vertigo), against now."""
        b = self._base
        return self.best_vertigo(a.location) - (self.base() if b is None else b)

    def score_set_trap(self, a: SetTrap) -> float:
        loc = a.location
        if self.actor != self.me:
            return -5.0
        w = self.w
        return self.best_partner(loc)[0] - (w.progress * 0.5 if w.trap <= 0 else 0.0)

    def score_reduce(self, a: DutchReduce) -> float:
        target = a.target
        w = self.w
        return (w.dutch_reduce * self.closeness(target) if target == self.leader() else -5.0) - 0.1 * w.dutch_value

    def score_steal(self, a: Steal) -> float:
        target = a.target
        w = self.w
        v = (w.steal * self.closeness(target) if self.is_rival(target) else -5.0) - 0.1 * w.catcher_value
        if self.actor == self.me and self.obs.hand_sizes[target] and self.stuck():
            # a card taken blindly is a card drawn from a hand (where the Stars of paralysed
            # Midnighters end up): as good a dig as the deck's
            v += self.draw_gain(key_add(self.memo, self.k, CATCHER, -1))
        return v

    def score_count(self, n: int) -> float:
        tgt = self.obs.context.get("target", -1)
        return n if self.is_rival(tgt) else -n

    def score_walk(self, a: Walk) -> float:
        g = self.g
        loc = self.where[self.actor]
        to = g.grid[g.nb[g.grid.index(loc)][a.direction]]
        return self.value(where=self.moved(self.actor, to), k=key_add(self.memo, self.k, DREAMWALK, -1),
                          cs=self.cs - self.cv[DREAMWALK], actor_moved=True) - self.base()

    def score_discard(self, a: Discard) -> float:
        kind = a.kind
        obs, w = self.obs, self.w
        dec = self.decision()
        if dec == "turn action":  # dig: an action for a card from the deck
            k2 = key_add(self.memo, self.k, kind, -1)  # minus(kind) and draw_gain read the same key
            return self.hand_delta(k2, -self.cv[kind]) + self.draw_gain(k2) - 0.05
        if dec.startswith("Town Hall"):
            return 0.0
        # a surplus card: keep the best hand (a nightmare may go only at the Square)
        ctx = obs.context
        mode = ctx.get("mode", S_ANY)
        if kind >= RED and mode != S_ANY:
            return -1000.0
        return self.minus(kind) + (w.shed if kind >= RED else 0.0)

    def score_give(self, kind: int) -> float:
        ctx = self.obs.context
        v = self.minus(kind)
        other = ctx.get("other", -1)
        if kind >= RED:
            return v + (self.w.shed if self.is_rival(other) else 0.0)
        return v - (0.1 * self.cv[kind] if self.is_rival(other) else 0.0)

    def score_take(self, kind: int) -> float:
        v = self.hand_delta(key_add(self.memo, self.k, kind, 1), self.cv[kind])
        if self.decision().startswith("Motel"):
            v += 0.05 * self.cv[kind]  # and the rival loses it
        return v

    def score_star(self, _a: Star | None = None) -> float:
        w = self.w
        actor = self.actor
        loc = self.where[actor]
        hand = self.without(self.hand, STAR_CARD)
        sign = self.sign
        if loc == BRIDGE:  # legal only when it wakes
            return sign * w.win
        if loc == TOWN_HALL:
            if actor == self.horror:
                return sign * w.win
            gone = 1 if self.rules.town_hall_discards == "one" else 99
            v = self.value(k=self.profile(hand, nightmares_gone=gone, blue_gone=True),
                           cs=self.card_sum(self.without(hand, *[k for k in hand if RED <= k != BLACK][:gone])))
            eff = self.eff
            if (eff["red"] | eff["colourless"]) >> actor & 1:  # the Town Hall lifts a Red or a Colourless
                v += sign * w.progress
            return v - self.base()
        if loc == FOREST:
            k, cs = self.profile(hand), self.card_sum(hand)
            return max([self.value(where=self.moved(actor, to), k=k, cs=cs, actor_moved=True)
                        for to in range(12) if to != loc]) - self.base()
        if loc == SQUARE or loc == MOTEL:
            obs = self.obs
            pool = obs.discard_size if loc == SQUARE else max(
                (obs.hand_sizes[q] for q in range(self.n) if q != actor and q != self.horror), default=0)
            nm = sum(1 for k in hand if RED <= k != BLACK)
            gone = min(nm, 3, pool)
            # the three cards taken: the Stars and Dreamwalks the plan lacks, as far as a pool
            # of this size holds them on average
            got = list(hand)
            room = 3
            for k, share in ((STAR_CARD, 12 / 96), (DREAMWALK, 36 / 96)):
                m = min(room, int(pool * share + 0.5))
                for _ in range(m):
                    h2 = tuple(got) + (k,)
                    if self.hand_value(h2) > self.hand_value(tuple(got)) + 1e-9:
                        got.append(k)
                        room -= 1
            got = tuple(k for k in got if not (RED <= k != BLACK)) if gone >= nm else tuple(got)
            v = self.hand_value(got, nightmares_gone=gone) - self.base()
            if loc == MOTEL and any(self.is_rival(q) for q in range(self.n)):
                v += 0.1 * w.hinder
            return v if v > 0 else v + w.waste
        if loc == RESTAURANT:
            near = [q for q in self.obs.near_bridge if self.is_rival(q)]
            v = self.hand_value(hand) - self.base()
            return v + w.hinder * 3 * len(near) + (0.0 if near else w.waste)
        return w.waste

    def trap_bonus(self, loc: int, kind: int) -> float:
        """What a trap of `kind` on `loc` is worth to this weight set (less half the partner card)."""
        w = self.w
        v = w.trap - 0.5 * self.cv[kind]
        if loc == BRIDGE and kind == STAR_CARD:
            v += w.trap_star_bridge
        if loc == BRIDGE and kind == DREAMWALK:
            v += w.trap_walk_bridge
        if loc == TOWN_HALL and kind == STAR_CARD:
            v += w.trap * 0.5
        return v

    def partner_value(self, loc: int, kind: int) -> float:
        return self.trap_bonus(loc, kind) + self.minus(kind)

    def best_partner(self, loc: int):
        """(value, kind) of the best partner card for a trap on `loc` (kind -1: none)."""
        hand = self.hand
        su = self.cv[SUSPENSE_OF[loc]]
        best, bv = -1, -1e9
        for k in (DREAMWALK, VERTIGO_CARD, STAR_CARD, DUTCH, CATCHER):
            if k in hand:
                v = self.trap_bonus(loc, k) + self.minus(k) - 0.1 * self.sign * su
                if v > bv:
                    best, bv = k, v
        return bv, best

    def score_extra(self, _a: DutchExtra | None = None) -> float:
        """An extra action is worth it if my whole plan fits in this turn with it."""
        w = self.w
        actor = self.actor
        if actor != self.me:
            return -5.0
        k = self.profile(self.without(self.hand, DUTCH))
        x = self.where[actor]
        cost = _plan_cost(self.g, k, x)
        have = self.obs.actions_left
        complete = _plan_cost(self.g, key_free(self.memo, k), x) == cost  # no card missing
        if complete and have < cost <= have + 1:
            return w.win * 0.3
        return w.dutch_extra

    def score_react(self, intercept: bool) -> float:
        ctx = self.obs.context
        threat = play_threat(self.obs, self.w, self.me, self.horror, ctx, lambda: self)
        resolves = len(ctx["responses"]) % 2 == 0
        want = threat < 0
        if resolves == want or abs(threat) < 1e-9:
            return -self.w.respond_cost
        return abs(threat) - self.w.respond_cost + (1.0 if intercept else 0.0)

    def score_spring(self, a: Spring) -> float:
        loc, kind = a.location, a.kind
        w = self.w
        obs = self.obs
        dec = self.decision()
        if kind == STAR_CARD:
            if dec.startswith("Town Hall trap"):
                if self.me == self.horror:
                    return -1.0
                card = obs.context.get("card")
                return 20.0 if card in (COLOURLESS, BLUE, PURPLE, RED) else -1.0
            if loc == BRIDGE:
                return w.win
            return 10.0
        base = self.base()
        if kind == DREAMWALK:
            best = -1e9
            for q in range(self.n):
                if self.where[q] == loc or q == self.me:
                    for c in CORRIDORS:
                        best = max(best, self.value(where=self.moved(q, c)) - base)
            return best - w.spring_min
        if kind == VERTIGO_CARD:
            g = self.g
            best = base
            optional = self.rules.vertigo_trap_optional
            for o in self.op_ops(loc) + ([NO_MOVE] if optional else []):
                g1 = g.after(loc, o)
                for r in ((4, 5, 6, -1) if optional else (4, 5, 6)):
                    best = max(best, self.value(g=g1.after(loc, r) if r >= 0 else g1))
            return best - base - w.spring_min
        if kind == DUTCH:
            best = -1e9
            for q in range(self.n):
                if q != self.me and self.where[q] == loc:
                    where = list(self.where)
                    where[q], where[self.me] = where[self.me], where[q]
                    best = max(best, self.value(where=tuple(where)) - base)
            return best - w.spring_min
        if kind == CATCHER:
            v = obs.turn_player
            return (w.capture * self.closeness(v) if self.is_rival(v) else -5.0) - w.spring_min + 6.0
        return -1.0

    def score_to(self, loc: int) -> float:
        obs = self.obs
        dec = self.decision()
        ctx = obs.context
        if dec.startswith("Forest"):
            return self.value(where=self.moved(self.actor, loc), actor_moved=True)
        if dec.startswith("Colourless"):
            return self.value(where=self.moved(ctx["victim"], loc))
        if dec.startswith("Dreamwalk trap"):
            return self.value(where=self.moved(ctx["target"], loc))
        return 0.0

    def score_target(self, seat: int) -> float:
        obs = self.obs
        dec = self.decision()
        if dec.startswith("Motel"):
            if any(RED <= k != BLACK for k in self.hand):
                return 5.0 + self.closeness(seat) if self.is_rival(seat) else 0.0
            return (self.closeness(seat) if self.is_rival(seat) else -1.0) + obs.hand_sizes[seat] * 0.1
        if dec.startswith("Restaurant"):
            return self.closeness(seat) * 3 if self.is_rival(seat) else -5.0
        if dec.startswith("Dreamwalk trap"):
            base = self.base()
            return max(self.value(where=self.moved(seat, c)) for c in CORRIDORS) - base
        if dec.startswith("Dutch Angle trap"):
            where = list(self.where)
            where[seat], where[self.me] = where[self.me], where[seat]
            return self.value(where=tuple(where))
        return 0.0

    def score_mix(self) -> float:
        near = self.obs.near_bridge
        if self.me in near and any(RED <= k != BLACK for k in self.obs.own_hand):
            return self.w.shed * 0.5
        return 1.0 if any(self.is_rival(q) for q in near) else -1.0


def play_threat(obs, w: Weights, me: int, horror: int, ctx: dict, full) -> float:
    """How much I want the play being reacted to NOT to happen (negative: I want it).
    `full()` gives the decision's _Context (built only when who leads matters)."""
    actor, ptype = ctx["actor"], ctx["play"]
    if actor == me:
        return -w.block
    if obs.controller == me and actor == obs.turn_player:
        return 0.0
    rival = me == horror or actor != horror
    if ptype == P_STAR:
        loc = ctx["arg"]
        if loc == BRIDGE and actor != horror:
            if (BRIDGE, STAR_CARD) in obs.my_traps and me != horror and not any(k >= RED for k in obs.own_hand):
                return -w.win  # my Star trap will steal the waking
            return w.block
        if loc == TOWN_HALL and actor == horror:
            return w.block
        if loc == FOREST and rival and w.block_walk and actor == full().leader():
            return w.block_walk * 2
        return 0.0
    if ptype == P_WALK and rival and w.block_walk:
        c = full()
        if actor == c.leader():
            return w.block_walk * c.closeness(actor)
    return 0.0


#: turn actions that play a card from the hand (it is replaced from the deck: a way to dig)
_CYCLES = frozenset((Walk, Vertigo, Star, SetTrap, DutchExtra, DutchReduce, Steal))

#: action type -> scoring function (context, action) -> score
_SCORE = {
    Pass: lambda c, a: 0.0, Allow: lambda c, a: 0.0, Hold: lambda c, a: 0.0, StopTaking: lambda c, a: 0.0,
    Walk: _Context.score_walk,
    Discard: _Context.score_discard,
    Vertigo: _Context.score_vertigo,
    VertigoOp: _Context.score_vertigo_op,
    Star: _Context.score_star,
    Cancel: lambda c, a: c.score_react(False),
    Intercept: lambda c, a: c.score_react(True),
    Spring: _Context.score_spring,
    SetTrap: _Context.score_set_trap,
    TrapPartner: lambda c, a: c.partner_value(c.obs.context["location"], a.kind),
    DutchExtra: _Context.score_extra,
    DutchReduce: _Context.score_reduce,
    Steal: _Context.score_steal,
    To: lambda c, a: c.score_to(a.location),
    Target: lambda c, a: c.score_target(a.seat),
    Take: lambda c, a: c.score_take(a.kind),
    Give: lambda c, a: c.score_give(a.kind),
    Mix: lambda c, a: c.score_mix(),
    Count: lambda c, a: c.score_count(a.n),
}
