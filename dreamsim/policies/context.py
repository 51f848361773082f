"""What a heuristic values (`Weights`) and the per-decision facts its scoring reads (`_Facts`):
the actor's plan key and card values, the board's distances, the leading rival, the boards a
Vertigo can make.
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter

from ..engine.cards import (
    BLACK,
    BRIDGE,
    CATCHER,
    COMPOSITION,
    DREAMWALK,
    FOREST,
    N_CARDS,
    N_KINDS,
    RED,
    TOWN_HALL,
)
from ..engine.cards import (
    STAR as STAR_CARD,
)
from ..engine.cards import (
    VERTIGO as VERTIGO_CARD,
)
from ..engine.observation import _FIELDS
from .plan import (
    _BLOCKED,
    _INF,
    TABLE_LIMIT,
    Memo,
    _plan_cost,
    key_add,
    key_free,
    key_id,
    key_strict,
    lead_cost,
    public_cost,
)

#: chance that a card drawn is a Dreamwalk / Vertigo / Midnight Star (the published deck)
_P_DRAW = ((DREAMWALK, 36 / 102), (VERTIGO_CARD, 12 / 102), (STAR_CARD, 12 / 102))


@dataclass(frozen=True)
class Weights:
    """What a heuristic values; every field is a number analyses can sweep."""

    progress: float = 10.0        # per action my plan saves (Bridge; Town Hall as the Horror)
    hinder: float = 3.0           # per action the leading rival's route gets longer (counted up to 8)
    win: float = 1000.0           # waking up / the Horror activating the Town Hall
    block: float = 500.0          # cancelling or intercepting a winning activation of someone else
    block_walk: float = 0.0       # cancelling a rival's move towards the Bridge (per action gained, near the end)
    respond_cost: float = 8.0     # what a reaction costs (a card + an action next turn)
    shed: float = 40.0            # giving a nightmare to a rival / getting rid of one in a surplus choice
    trap: float = 0.0             # setting any trap
    trap_star_bridge: float = 0.0  # a Midnight Star trap on the Bridge (steals a rival's waking)
    trap_walk_bridge: float = 0.0  # a Dreamwalk trap on the Bridge (sends a rival back to the Corridors)
    spring_min: float = 6.0       # spring a trap only when it is worth at least this
    dutch_extra: float = -2.0     # a Dutch Angle extra action that does not win this turn
    dutch_reduce: float = 0.0     # a Dutch Angle against the leader (times the leader's closeness)
    steal: float = 0.0            # a Dreamcatcher steal from the leader (times closeness)
    capture: float = 0.0          # a Dreamcatcher trap on the leader's turn (times closeness)
    paralyse: float = 6.0         # the Horror standing with Midnighters (per Midnighter; at most 0.8 progress)
    avoid_horror: float = 25.0    # a Midnighter standing with the Horror (paralysed: it skips its turns)
    need_walk: float = 1.0        # extra actions a Dreamwalk the plan needs but the hand lacks costs
    need_star: float = 2.0        # the same for a Midnight Star
    need_vertigo: float = 3.0     # the same for a Vertigo (a location turned where an arrow is missing)
    waste: float = -3.0           # a card play that gains nothing
    star_value: float = 6.0       # card values: what keeping a card is worth (a tenth of it counts in value())
    walk_value: float = 3.0
    vertigo_value: float = 2.0
    dutch_value: float = 2.0
    catcher_value: float = 2.0
    suspense_value: float = 0.5
    nightmare_value: float = -20.0
    dig: float = 1.0              # scale of the expected gain of drawing when discarding a card as an action

    def card_value(self, k: int) -> float:
        if k >= RED:
            return self.nightmare_value
        return (self.walk_value, self.vertigo_value, self.star_value, self.dutch_value,
                self.catcher_value)[k] if k <= CATCHER else self.suspense_value

    def card_values(self) -> tuple:
        """card_value of every kind (an index table) and the mean value of a card drawn from the
        published deck."""
        cv = tuple(self.card_value(k) for k in range(N_KINDS))
        return cv, sum(n * cv[k] for k, n in COMPOSITION.items()) / N_CARDS


#: (player, acting_for, horror, n_players, where, rules, hand, board, effects) of an Observation
_OBS = itemgetter(*[_FIELDS.index(name) for name in (
    "player", "acting_for", "horror", "n_players", "where", "rules", "hand", "board", "effects")])
_OTHERS = {n: tuple(tuple(q for q in range(n) if q != p) for p in range(n)) for n in range(1, 7)}
_NO_TAIL = (False, False, False)  # the key's tail when no nightmare or Blue Nightmare is in the way


# -------------------------------------------------------------------------------------------
# One decision
# -------------------------------------------------------------------------------------------
def board_of(memo: Memo, board: tuple, ret: bool):
    """The policy's WalkGraph of an observation's board (Observation.board)."""
    rows, cols, grid, _cell_of, rot, _nb = board
    boards = memo.last
    last = boards.get(rows)  # the board of the last decision, most often the board now
    if last is not None and last[0] == grid and last[1] == rot and last[2].ret == ret:
        return last[2]
    g = memo.get(rows, cols, grid, rot, ret)
    boards[rows] = (grid, rot, g)
    return g


#: (player, horror, n_players, where, rules, board) of an Observation
_OBS_PUBLIC = itemgetter(*[_FIELDS.index(name) for name in ("player", "horror", "n_players", "where", "rules", "board")])


class _Public:
    """Who leads, from what is public (the board, where everyone stands): what a reaction
    window's threat may need (`play_threat`), without the rest of a decision's facts."""

    __slots__ = ("g", "where", "horror", "rivals")

    def __init__(self, obs, memo: Memo):
        me, self.horror, n, self.where, rules, board = _OBS_PUBLIC(obs)
        self.rivals = _OTHERS[n][me]
        self.g = board_of(memo, board, rules.dreamwalk_return_arrow)

    def leader(self) -> int:
        """The rival closest to winning, from public information (-1: none)."""
        best, bc = -1, _BLOCKED + 1
        for q in self.rivals:
            c = public_cost(self.g, self.where[q], q == self.horror)
            if c < bc:
                best, bc = q, c
        return best

    def closeness(self, seat: int) -> float:
        return 4.0 / public_cost(self.g, self.where[seat], seat == self.horror)


class _Facts:
    """Per-decision facts the scoring needs, computed once (lazily); `scoring._Context`
    adds one scoring method per kind of action."""

    __slots__ = ("obs", "w", "cv", "mean_draw", "memo", "me", "actor", "horror", "n", "where", "rules", "sign",
                 "hand", "rivals", "_rest", "_base", "_decision", "_tail", "_remaining", "_cost0", "g", "eff", "k",
                 "cs", "rk", "_vert")

    def __init__(self, obs, w: Weights, cv: tuple, mean_draw: float, memo: Memo):
        # memo: the policy's own caches (its boards, plan keys); w never changes for one memo
        self.obs, self.w, self.cv, self.mean_draw, self.memo = obs, w, cv, mean_draw, memo
        # the observation's fields this reads, in one C call (Observation is a tuple)
        self.me, self.actor, self.horror, self.n, self.where, self.rules, hand, board, self.eff = _OBS(obs)
        me, actor, n = self.me, self.actor, self.n
        self.sign = 1.0 if actor == me else -1.0  # a captured rival's progress is bad for me
        self.hand = hand
        # rivals: for a Midnighter, every other Midnighter and the Horror; for the Horror, all
        self.rivals = _OTHERS[n][me]
        self._rest = {}
        self._base = None
        self._decision = None
        self._tail = None
        self._remaining = None
        self._cost0 = None  # the actor's plan cost now
        self._vert = None  # vertigo_facts()
        self.g = board_of(memo, board, self.rules.dreamwalk_return_arrow)
        horror = actor == self.horror
        if horror or (max(hand, default=0) < RED and not (self.eff["blue"] >> actor) & 1):
            # no nightmare and no Blue: the plan key and the card values depend on the hand alone
            ck = (hand, horror)
            hands = memo.hands
            kc = hands.get(ck)
            if kc is None:
                if len(hands) >= TABLE_LIMIT:
                    hands.clear()
                kc = hands[ck] = (self.profile(hand), self.card_sum(hand))
            self.k, self.cs = kc
        else:
            self.k = self.profile(hand)
            self.cs = self.card_sum(hand)
        self.rk = self.rivals_at(self.where)

    def tail(self) -> tuple:
        """The key's last fields, which matter only while shedding: may the Square / the Motel
        take a nightmare off my hands, does the Town Hall take one at a time."""
        if self._tail is None:
            obs, actor, horror = self.obs, self.actor, self.horror
            sizes = obs.hand_sizes
            self._tail = (obs.discard_size > 0, any(sizes[q] for q in range(self.n) if q != actor and q != horror),
                          self.rules.town_hall_discards == "one")
        return self._tail

    def profile(self, hand, nightmares_gone: int = 0, blue_gone: bool = False) -> tuple:
        """(key id, plan-cost key) of the actor holding `hand` (see plan_cost)."""
        horror = self.actor == self.horror
        if not nightmares_gone and (
                horror or (max(hand, default=0) < RED and not (self.eff["blue"] >> self.actor) & 1)):
            ck = (hand, horror)  # no nightmare and no Blue: the key depends on these alone (and the weights)
            profiles = self.memo.profiles
            k = profiles.get(ck)
            if k is None:
                if len(profiles) >= TABLE_LIMIT:
                    profiles.clear()
                k = profiles[ck] = self._profile(hand, 0, False)
            return k
        # a nightmare or the Blue in the way: the key also reads the Blue and the table (tail)
        ck = (hand, horror, nightmares_gone, blue_gone, (self.eff["blue"] >> self.actor) & 1, self.tail())
        profiles = self.memo.profiles
        k = profiles.get(ck)
        if k is None:
            if len(profiles) >= TABLE_LIMIT:
                profiles.clear()
            k = profiles[ck] = self._profile(hand, nightmares_gone, blue_gone)
        return k

    def _profile(self, hand, nightmares_gone: int, blue_gone: bool) -> tuple:
        w = self.w
        horror = self.actor == self.horror
        nm = 0
        blue = False
        if not horror:
            for k in hand:
                if k >= RED and k != BLACK:
                    nm += 1
            nm = max(0, nm - nightmares_gone)
            blue = not blue_gone and (self.eff["blue"] >> self.actor) & 1 == 1
        c = hand.count
        key = (w.need_walk, w.need_star, w.need_vertigo, horror, c(DREAMWALK), c(STAR_CARD), c(VERTIGO_CARD), nm,
               blue) + (self.tail() if nm or blue else _NO_TAIL) + (True,)
        return key_id(self.memo, key), key

    def card_sum(self, hand) -> float:
        return sum(map(self.cv.__getitem__, hand))

    def rivals_at(self, where) -> tuple:
        """Where the rivals (but the actor) stand, as location + 16 for the Horror (a memo key)."""
        actor, horror = self.actor, self.horror
        return tuple([where[q] + (16 if q == horror else 0) for q in self.rivals if q != actor])

    def rest(self, g, where, actor_moved: bool = False) -> float:
        """The part of value() that does not depend on the actor's hand: the leading rival's
        route, the Horror's company. `actor_moved`: `where` differs from now only in the
        actor's place (the rivals stand where they stand)."""
        same = where is self.where or (actor_moved and self.me != self.horror)
        mk = g if same else (g, where)
        r = self._rest.get(mk)
        if r is None:
            w, me, horror = self.w, self.me, self.horror
            r = w.hinder * min(lead_cost(g, self.rk if same or actor_moved else self.rivals_at(where)), 8.0)
            if me == horror:
                here = where[horror]
                victims = sum(1 for q in range(self.n) if q != me and where[q] == here)
                r += min(w.paralyse * victims, 0.8 * w.progress)
            self._rest[mk] = r
        return r

    def value(self, g=None, where=None, k=None, cs=None, actor_moved: bool = False) -> float:
        """My view of a position: the actor's plan (negated for a captured rival) and a tenth of
        its card values, the leading rival's route, the Horror's company. k = profile(hand),
        cs = card_sum(hand) of the actor's hand (default: the hand it holds)."""
        if g is None:
            g = self.g
        if where is None:
            where = self.where
        if k is None:
            k, cs = self.k, self.cs
        x = where[self.actor]
        cost = g.memo.get(k[0] * 16 + x)  # _plan_cost's own memo entry, read here (the usual case)
        if cost is None:
            cost = _plan_cost(g, k, x)
        v = self.sign * (-self.w.progress * cost + 0.1 * cs) + self.rest(g, where, actor_moved)
        h = self.horror
        if h >= 0 and h != self.me and where[self.me] == where[h]:
            # standing with the Horror paralyses me from my next turn on, unless I win before
            if not (self.actor == self.me and cost <= self.remaining() and
                    _plan_cost(g, key_free(self.memo, k), x) == cost) and not self.blue_deadlock(where[h]):
                v -= self.w.avoid_horror
        return v

    def blue_deadlock(self, horror_at: int) -> bool:
        """The Horror holds the Town Hall while the Blue Nightmare is on every Midnighter: the
        Town Hall is the only place anyone may activate, so somebody has to walk in (and be
        paralysed afterwards) to neutralise the Blue for everyone."""
        if horror_at != TOWN_HALL:
            return False
        mids = ((1 << self.n) - 1) & ~(1 << self.horror)
        return self.eff["blue"] & mids == mids

    def stuck(self) -> bool:
        """My turn would end unused while my plan lacks cards (digging is the only way on)."""
        if self.actor != self.me or self.decision() != "turn action":
            return False
        x = self.where[self.me]
        return _plan_cost(self.g, key_free(self.memo, self.k), x) < _plan_cost(self.g, self.k, x)

    def remaining(self) -> int:
        """Actions the actor has left in this turn after the action being chosen."""
        if self._remaining is None:
            obs = self.obs
            self._remaining = 0 if obs.turn_player != self.actor else \
                obs.actions_left - (1 if self.decision() == "turn action" else 0)
        return self._remaining

    def base(self) -> float:
        if self._base is None:
            self._base = self.value()
        return self._base

    leader = _Public.leader
    closeness = _Public.closeness

    def is_rival(self, seat: int) -> bool:
        return seat != self.me and (self.me == self.horror or seat != self.horror)

    def decision(self) -> str:
        if self._decision is None:
            self._decision = self.obs.decision
        return self._decision

    def without(self, hand, *cards) -> tuple:
        h = list(hand)
        for k in cards:
            if k in h:
                h.remove(k)
        return tuple(h)

    def hand_value(self, hand, **kw) -> float:
        """value() with the actor holding `hand` instead."""
        return self.value(k=self.profile(hand, **kw), cs=self.card_sum(hand))

    def minus(self, kind: int) -> float:
        """value() with one card of `kind` fewer in the actor's hand, less value() now."""
        return self.hand_delta(key_add(self.memo, self.k, kind, -1), -self.cv[kind])

    def hand_delta(self, k2: tuple, dcs: float) -> float:
        """value() with the actor's hand changed to plan key k2 and card values + dcs, less
        value() now (only the actor's plan changes)."""
        h, where = self.horror, self.where
        if h >= 0 and h != self.me and where[self.me] == where[h]:  # the Horror's company: in full
            return self.value(k=k2, cs=self.cs + dcs) - self.base()
        x = where[self.actor]
        c0 = self._cost0
        if c0 is None:
            c0 = self._cost0 = _plan_cost(self.g, self.k, x)
        c2 = self.g.memo.get(k2[0] * 16 + x)  # _plan_cost's own memo entry
        if c2 is None:
            c2 = _plan_cost(self.g, k2, x)
        return self.sign * (self.w.progress * (c0 - c2) + 0.1 * dcs)

    def draw_gain(self, k: tuple) -> float:
        """Expected gain of drawing one card into a hand with plan key `k` (a Dreamwalk, Vertigo
        or Midnight Star may shorten the plan; every card adds its card value)."""
        x = self.where[self.actor]
        g = self.g
        mk = ("draw", k[0], x, self.sign)
        gain = g.memo.get(mk)
        if gain is None:
            w = self.w
            base = _plan_cost(g, k, x)
            gain = 0.0
            for kind, p in _P_DRAW:
                gain += p * (base - _plan_cost(g, key_add(self.memo, k, kind, 1), x))
            gain = g.memo[mk] = self.sign * w.dig * (w.progress * gain + 0.1 * self.mean_draw)
        return gain

    def moved(self, seat: int, to: int) -> tuple:
        where = list(self.where)
        where[seat] = to
        return tuple(where)

    def op_ops(self, loc: int, g=None) -> list[int]:
        g = g or self.g
        cell = g.grid.index(loc)
        ops = [o for o in range(4) if g.nb[cell][o] >= 0]
        ops += (4, 5, 6) if self.rules.vertigo_rotation == "any" else (4, 6)
        return ops

    def op_boards(self, loc: int) -> tuple:
        """The boards one Vertigo operation on `loc` can make."""
        g = self.g
        mk = ("ops", loc, self.rules.vertigo_rotation)
        out = g.memo.get(mk)
        if out is None:  # distinct boards only (a Corridor turned half round is the same board), compared
            # by value: once the policy's board table has forgotten its older half, the same board may
            # come back as another WalkGraph object, and the compiled heuristic compares boards by value
            here = (g.grid, g.rot)
            boards = {}
            for o in self.op_ops(loc):
                b = g.after(loc, o)
                boards.setdefault((b.grid, b.rot), b)
            boards.pop(here, None)
            out = g.memo[mk] = tuple(boards.values())
        return out

    def best_vertigo(self, loc: int) -> float:
        """The best value() one Vertigo card played on `loc` reaches. The boards it can make,
        my plan cost on each and the rest of value() on each are kept with the board (my plan
        changes when I move or my hand does, the rest when the others move)."""
        vt = self._vert
        if vt is None:
            vt = self._vert = self.vertigo_facts()
        k, x, mode, rkey = vt
        memo = self.g.memo
        mk = ("vm", loc, k[0], x, mode)
        costs = memo.get(mk)
        if costs is None:
            costs = memo[mk] = self.op_costs(loc, k, x, mode)
        mk = ("vr", loc) + rkey
        rests = memo.get(mk)
        if rests is None:
            where = self.where
            rests = memo[mk] = tuple([self.rest(g, where) for g in self.op_boards(loc)])
        f = -self.sign * self.w.progress
        best = max([f * c + r for c, r in zip(costs, rests)], default=None)
        if best is None:  # nothing a Vertigo here would change
            return self.base() - 0.1 * self.sign * self.cv[VERTIGO_CARD]
        return best + self.sign * 0.1 * (self.cs - self.cv[VERTIGO_CARD])

    def vertigo_facts(self) -> tuple:
        """What best_vertigo reads whatever the location (worked out once a decision): the actor's
        plan key after playing the Vertigo card, its place, the rotation rule and the rest of the
        key of the rests table."""
        k = key_add(self.memo, self.k, VERTIGO_CARD, -1)
        where = self.where
        x = where[self.actor]
        ks = key_strict(self.memo, k)
        if _plan_cost(self.g, ks, x) < _BLOCKED:  # my route exists: one the Vertigo blocks is just blocked
            k = ks
        mode = self.rules.vertigo_rotation
        return k, x, mode, (self.rk, mode, where if self.me == self.horror else None)

    def op_costs(self, loc: int, k: tuple, x: int, mode: str) -> tuple:
        """My plan cost (key k, at x) on each board op_boards(loc) makes."""
        boards = self.op_boards(loc)
        key = k[1]
        if key[7] or key[8]:  # shedding first: the general way
            return tuple([_plan_cost(b, k, x) for b in boards])
        # the usual plan (as in _plan_cost): the distances on each board, kept whatever my hand
        goal = TOWN_HALL if key[3] else BRIDGE
        mk = ("vd", loc, x, goal, mode)
        pairs = self.g.memo.get(mk)
        if pairs is None:
            pairs = self.g.memo[mk] = tuple([((b.dists[goal] or b.dist_to(goal))[x],
                                              (b.dists[FOREST] or b.dist_to(FOREST))[x]) for b in boards])
        nw, ns, W, S, relax = key[0], key[1], key[4], key[5], key[12]
        out = []
        for i, (d, f) in enumerate(pairs):
            c = _BLOCKED
            if d < _INF:
                c = d + 1.0
                if d > W:
                    c += nw * (d - W)
                if S < 1:
                    c += ns
            if f < _INF:
                c2 = f + 2.0
                if f > W:
                    c2 += nw * (f - W)
                if S < 2:
                    c2 += ns * (2 - S)
                if c2 < c:
                    c = c2
            elif d >= _INF and relax:
                c = _plan_cost(boards[i], k, x)
            out.append(c)
        return tuple(out)

    # ---- scoring
