"""Policies: `policy(observation, legal_actions, rng) -> action`.

`RandomPolicy` picks uniformly. Every heuristic is one `HeuristicPolicy` scoring each legal
action with a frozen `Weights` record; `runner`, `trickster`, `horror` and `heuristic` are
weight sets, and analyses can sweep any weight (`dataclasses.replace(RUNNER, progress=5.0)`).

The heuristic's model of the game is a *plan cost*: the number of actions a player still
needs to win, counted from the board and the hand:

* a Midnighter walks to the Bridge (or to the Forest, then a Midnight Star teleports it) and
  plays a Midnight Star there; holding a nightmare (or under the Blue Nightmare) it first goes
  to a place that gets rid of it — the Town Hall, the Square, the Motel — and activates it;
* the Midnight Horror walks to the Town Hall and plays a Midnight Star there;
* where an arrow is missing, a Vertigo turns the location first (one more action);
* every Dreamwalk, Midnight Star or Vertigo the plan needs and the hand lacks costs
  `need_walk` / `need_star` / `need_vertigo` actions more (digging for it).

An action is worth the change it makes to `value()`: `progress` per action of my plan saved,
`hinder` per action of the leading rival's route lost (the rival closest to winning, from
what is public: the board and where everyone stands), plus small terms (standing with the
Horror, card values). Drawing is valued by its expectation over the deck. Distances come
from `board.walk_graph`, which builds each board's breadth-first distances once and keeps
them, so scoring every candidate of a decision costs a few table look-ups.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import count

from .actions import (
    NO_MOVE, Allow, Cancel, Count, Discard, DutchExtra, DutchReduce, Give, Hold, Intercept, Mix, Pass, SetTrap,
    Spring, Star, Steal, StopTaking, Take, Target, To, TrapPartner, Vertigo, VertigoOp, Walk,
)
from .board import walk_graph
from .cards import (
    BLACK, BLUE, BRIDGE, CATCHER, COLOURLESS, COMPOSITION, CORRIDORS, DREAMWALK, DUTCH, FOREST, MOTEL, N_CARDS,
    N_KINDS, PURPLE, RED, RESTAURANT, SQUARE, STAR as STAR_CARD, SUSPENSE_OF, TOWN_HALL, VERTIGO as VERTIGO_CARD,
)
from .observation import P_STAR, P_WALK, S_ANY

_BLOCKED = 40.0  # plan cost when no route leads to the goal (above any reachable plan)
_INF = 99
#: chance that a card drawn is a Dreamwalk / Vertigo / Midnight Star (the published deck)
_P_DRAW = ((DREAMWALK, 36 / 102), (VERTIGO_CARD, 12 / 102), (STAR_CARD, 12 / 102))


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
        """card_value of every kind (an index table), the mean value of a card drawn from the
        published deck, and a token naming these weights in shared caches."""
        cv = tuple(self.card_value(k) for k in range(N_KINDS))
        token = _TOKENS.setdefault(self, len(_TOKENS))
        return cv, sum(n * cv[k] for k, n in COMPOSITION.items()) / N_CARDS, token


_TOKENS: dict = {}
_OTHERS = {n: tuple(tuple(q for q in range(n) if q != p) for p in range(n)) for n in range(1, 7)}
_PROFILES: dict = {}  # (hand, weights token, is the Horror) -> profile, for hands without nightmares
_NO_TAIL = (False, False, False)  # the key's tail when no nightmare or Blue Nightmare is in the way


@dataclass(frozen=True)
class HeuristicPolicy:
    """Scores each legal action with `weights` and plays the best (random tie-break)."""

    weights: Weights = field(default_factory=Weights)
    name: str = "heuristic"

    def __post_init__(self):
        # (card values, mean value of a card drawn, cache token, {rows: the last board seen})
        object.__setattr__(self, "_tables", self.weights.card_values() + ({},))

    def __call__(self, obs, legal, rng):
        if len(legal) == 1:
            return legal[0]
        if type(legal[-1]) is Allow:  # a reaction window: only the play being answered matters
            score = self._reaction_scorer(obs)
            ctx = None
        else:
            ctx = _Context(obs, self.weights, *self._tables)
            score = None
        best, best_score = [], None
        dig, dig_score = None, None  # the best discard action, else the best card play (a card cycles)
        cycle, cycle_score = None, None
        for a in legal:
            t = type(a)
            sc = _SCORE[t](ctx, a) if score is None else score(a)
            if best_score is None or sc > best_score:
                best, best_score = [a], sc
            elif sc == best_score:
                best.append(a)
            if t is Discard:
                if dig_score is None or sc > dig_score:
                    dig, dig_score = a, sc
            elif t in _CYCLES and (cycle_score is None or sc > cycle_score):
                cycle, cycle_score = a, sc
        if dig is None:
            dig = cycle
        if dig is not None and ctx is not None and type(best[0]) is Pass and ctx.stuck():
            # passing never changes a hand: a plan that lacks cards digs for them instead,
            # even at the price of a card it needs now (it comes back when drawn again): with
            # the discard action (Rules.discard_action) by discarding, without it by the least
            # harmful card play (a played card is replaced from the deck)
            return dig
        return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]

    def _reaction_scorer(self, obs):
        """Scores for Cancel / Intercept / Allow, without building a whole _Context unless the
        threat needs the board (who leads)."""
        w = self.weights
        me, horror = obs.player, obs.horror
        ctx = obs.context
        full = []

        def leader_ctx():
            if not full:
                full.append(_Context(obs, w, *self._tables))
            return full[0]

        threat = play_threat(obs, w, me, horror, ctx, leader_ctx)
        resolves = len(ctx["responses"]) % 2 == 0
        answer = not (resolves == (threat < 0) or abs(threat) < 1e-9)
        gain = abs(threat) - w.respond_cost

        def score(a):
            t = type(a)
            if t is Allow:
                return 0.0
            if not answer:
                return -w.respond_cost
            return gain + (1.0 if t is Intercept else 0.0)
        return score

    def __repr__(self):
        return f"HeuristicPolicy(name={self.name!r}, weights={self.weights!r})"


def route(grid, cell_of, rot, nb, goal: int, ret: bool) -> list[int]:
    """Actions from each location to stand on `goal`: walking, or walking to the Forest + 1 Star."""
    rows, cols = _shape(nb)
    g = walk_graph(rows, cols, tuple(grid), tuple(rot), ret)
    d = g.dist_to(goal)
    if goal == FOREST:
        return list(d)
    f = g.dist_to(FOREST)
    return [min(a, b + 1) for a, b in zip(d, f)]


def _shape(nb) -> tuple[int, int]:
    """(rows, cols) of a neighbours table."""
    cols = 1
    while cols < len(nb) and nb[cols - 1][1] >= 0:
        cols += 1
    return len(nb) // cols, cols


# -------------------------------------------------------------------------------------------
# The plan cost
# -------------------------------------------------------------------------------------------
_KEY_IDS: dict = {}   # plan-cost key -> id
_NEXT_ID = count()    # ids are never reused, so memos keyed by an id stay right after a clear


def key_id(key: tuple) -> int:
    """An int standing for a plan-cost key (memo look-ups then hash an int)."""
    i = _KEY_IDS.get(key)
    if i is None:
        if len(_KEY_IDS) >= 100_000:
            _KEY_IDS.clear()
            _ADDED.clear()
            _STRICT.clear()
            _FREE.clear()
        i = _KEY_IDS[key] = next(_NEXT_ID)
    return i


_COUNT_AT = {DREAMWALK: 4, STAR_CARD: 5, VERTIGO_CARD: 6}


def key_add(k: tuple, kind: int, d: int) -> tuple:
    """k = (key id, key) with `d` more cards of `kind` in the hand."""
    mk = (k[0], kind, d)
    k2 = _ADDED.get(mk)
    if k2 is None:
        if len(_ADDED) >= 100_000:
            _ADDED.clear()
        k2 = _ADDED[mk] = _key_add(k, kind, d)
    return k2


_ADDED: dict = {}


def _key_add(k: tuple, kind: int, d: int) -> tuple:
    key = k[1]
    i = _COUNT_AT.get(kind)
    if i is None:
        if kind < RED or kind == BLACK or key[3]:  # no effect on the plan (the Horror ignores nightmares)
            return k
        i = 7
    n = key[i] + d
    key2 = key[:i] + (n if n > 0 else 0,) + key[i + 1:]
    return key_id(key2), key2


def key_strict(k: tuple) -> tuple:
    """k without `relax` (see plan_cost)."""
    k2 = _STRICT.get(k[0])
    if k2 is None:
        key = k[1]
        key2 = key[:12] + (False,)
        k2 = _STRICT[k[0]] = (key_id(key2), key2)
    return k2


def key_free(k: tuple) -> tuple:
    """k with no cost for missing cards (its plan cost counts the actions alone)."""
    k2 = _FREE.get(k[0])
    if k2 is None:
        key2 = (0.0, 0.0, 0.0) + k[1][3:]
        k2 = _FREE[k[0]] = (key_id(key2), key2)
    return k2


_STRICT: dict = {}
_FREE: dict = {}


def plan_cost(g, key: tuple, x: int) -> float:
    """Actions the player described by `key` needs to win from location `x` on board `g`.

    key = (need_walk, need_star, need_vertigo, horror, walks, stars, vertigos, nightmares,
    blue, square_ok, motel_ok, town_hall_one, relax); kept in `g.memo`. Without `relax`, a
    board with no route along the arrows costs the flat _BLOCKED (cheaper to work out: boards
    a Vertigo would make are scored so when my route exists now).
    """
    return _plan_cost(g, (key_id(key), key), x)


def _legs(g, goal: int, y: int, forest: bool, relax: bool = True) -> list:
    """Ways to stand on `goal` from `y`: (Dreamwalks, Vertigo turns, Midnight Stars) for walking
    along the arrows, and to the Forest followed by a Star that teleports (when `forest`).
    Only when no arrows lead there does a route count turns where an arrow is missing (a
    shortcut a Vertigo would open on a route that exists is seen when the Vertigo is scored).
    Without `relax`, a place no arrows lead to has no way."""
    d = g.dist_to(goal)[y]
    f = g.dist_to(FOREST)[y] if forest and goal != FOREST else _INF
    if d < _INF:
        return [(d, 0, 0), (f, 0, 1)] if f < _INF else [(d, 0, 0)]
    if not relax:
        return [(f, 0, 1)] if f < _INF else []
    rc, rt = g.relaxed_to(goal)
    out = [(rc[y] - rt[y], rt[y], 0)]
    if f < _INF:
        out.append((f, 0, 1))
    elif forest and goal != FOREST:
        fc, ft = g.relaxed_to(FOREST)
        out.append((fc[y] - ft[y], ft[y], 1))
    return out


def _options(g, x: int, horror: bool, shed: bool, blue: bool, sq: bool, mo: bool, relax: bool) -> tuple:
    """The ways to win from `x`: (Dreamwalks, Vertigo turns, Midnight Stars, via the Town Hall)
    — to the goal (the Town Hall for the Horror, else the Bridge) and a Star there; while
    shedding, first to the Town Hall / Square / Motel and a Star there. Kept in g.memo.
    `relax`: when the arrows offer no way at all, count the Vertigo turns that would (_legs)."""
    mk = ("opts", x, horror, shed, blue, sq, mo, relax)
    opts = g.memo.get(mk)
    if opts is None and relax:
        opts = _options(g, x, horror, shed, blue, sq, mo, False)
        if not opts:
            opts = None
    if opts is None:
        if horror:
            opts = [(w1, t1, s1 + 1, False) for w1, t1, s1 in _legs(g, TOWN_HALL, x, True, relax)]
        elif shed or blue:
            spots = [TOWN_HALL]
            if not blue:
                if sq:
                    spots.append(SQUARE)
                if mo:
                    spots.append(MOTEL)
            opts = []
            for spot in spots:
                seconds = _legs(g, BRIDGE, spot, True, relax)
                for w1, t1, s1 in _legs(g, spot, x, not blue, relax):  # Blue forbids the Forest too
                    if w1 < _INF:
                        for w2, t2, s2 in seconds:
                            opts.append((w1 + w2, t1 + t2, s1 + s2 + 2, spot == TOWN_HALL))
        else:
            opts = [(w1, t1, s1 + 1, False) for w1, t1, s1 in _legs(g, BRIDGE, x, True, relax)]
        opts = tuple([o for o in opts if o[0] < _INF])
    g.memo[mk] = opts
    return opts


def _plan_cost(g, k: tuple, x: int) -> float:
    """plan_cost with k = (key_id(key), key)."""
    memo = g.memo
    mk = k[0] * 16 + x
    c = memo.get(mk)
    if c is not None:
        return c
    nw, ns, nv, horror, W, S, V, nm, blue, sq, mo, th_one, relax = k[1]
    if not nm and not blue:
        # the usual case, written out: walk there and a Star, or walk to the Forest, a Star to
        # teleport there and a Star
        goal = TOWN_HALL if horror else BRIDGE
        d = (g.dists[goal] or g.dist_to(goal))[x]
        if d < _INF:
            c = d + 1.0
            if d > W:
                c += nw * (d - W)
            if S < 1:
                c += ns
            f = (g.dists[FOREST] or g.dist_to(FOREST))[x]
            if f < _INF:
                c2 = f + 2.0
                if f > W:
                    c2 += nw * (f - W)
                if S < 2:
                    c2 += ns * (2 - S)
                if c2 < c:
                    c = c2
            memo[mk] = c
            return c
    opts = _options(g, x, horror, nm > 0, blue, sq, mo, relax)
    extra = nm - 1 if (th_one and nm > 1) else 0  # the Town Hall takes one nightmare a Star
    best = _BLOCKED
    for walks, turns, stars, th in opts:
        if th:
            stars += extra
        c = walks + turns + stars
        if walks > W:
            c += nw * (walks - W)
        if stars > S:
            c += ns * (stars - S)
        if turns > V:
            c += nv * (turns - V)
        if c < best:
            best = c
    memo[mk] = best
    return best


def public_cost(g, x: int, horror: bool) -> float:
    """A rival's plan cost from what is public (the board, where it stands): its route + 1 Star
    (_BLOCKED without one; value() counts a rival's cost up to 8 only)."""
    mk = -1 - (2 * x + horror)
    c = g.memo.get(mk)
    if c is None:
        goal = TOWN_HALL if horror else BRIDGE
        c = min((g.dists[goal] or g.dist_to(goal))[x], (g.dists[FOREST] or g.dist_to(FOREST))[x] + 1) + 1
        c = g.memo[mk] = float(c) if c < _INF else _BLOCKED
    return c


def lead_cost(g, rivals: tuple) -> float:
    """The smallest public_cost of `rivals`, given as location + 16 for the Horror (kept in g.memo)."""
    memo = g.memo
    c = memo.get(rivals)
    if c is None:
        c = _BLOCKED
        for code in rivals:
            x, h = code & 15, code >= 16
            pc = memo.get(-1 - (2 * x + h))
            if pc is None:
                pc = public_cost(g, x, h)
            if pc < c:
                c = pc
        memo[rivals] = c
    return c


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


# -------------------------------------------------------------------------------------------
# One decision
# -------------------------------------------------------------------------------------------
class _Context:
    """Per-decision facts the scoring needs, computed once (lazily)."""

    __slots__ = ("obs", "w", "cv", "mean_draw", "token", "me", "actor", "horror", "n", "where", "rules", "sign",
                 "hand", "rivals", "_rest", "_base", "_decision", "_tail", "_remaining", "_cost0", "g", "eff", "k",
                 "cs", "rk")

    def __init__(self, obs, w: Weights, cv: tuple, mean_draw: float, token: int, boards: dict):
        self.obs, self.w, self.cv, self.mean_draw, self.token = obs, w, cv, mean_draw, token
        self.me = me = obs.player
        self.actor = actor = obs.acting_for
        self.horror = obs.horror
        self.n = n = obs.n_players
        self.where = obs.where
        self.rules = obs.rules
        self.sign = 1.0 if actor == me else -1.0  # a captured rival's progress is bad for me
        self.hand = obs.hand
        # rivals: for a Midnighter, every other Midnighter and the Horror; for the Horror, all
        self.rivals = _OTHERS[n][me]
        self._rest = {}
        self._base = None
        self._decision = None
        self._tail = None
        self._remaining = None
        self._cost0 = None  # the actor's plan cost now
        rows, cols, grid, _cell_of, rot, _nb = obs.board
        last = boards.get(rows)  # the board of the last decision, most often the board now
        if last is not None and last[0] == grid and last[1] == rot and last[2].ret == self.rules.dreamwalk_return_arrow:
            self.g = last[2]
        else:
            self.g = walk_graph(rows, cols, grid, rot, self.rules.dreamwalk_return_arrow)
            boards[rows] = (grid, rot, self.g)
        self.eff = obs.effects
        self.k = self.profile(self.hand)
        self.cs = self.card_sum(self.hand)
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
            ck = (hand, self.token, horror)  # no nightmare and no Blue: the key depends on these alone
            k = _PROFILES.get(ck)
            if k is None:
                if len(_PROFILES) >= 100_000:
                    _PROFILES.clear()
                k = _PROFILES[ck] = self._profile(hand, 0, False)
            return k
        return self._profile(hand, nightmares_gone, blue_gone)

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
        return key_id(key), key

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
        cost = _plan_cost(g, k, x)
        v = self.sign * (-self.w.progress * cost + 0.1 * cs) + self.rest(g, where, actor_moved)
        h = self.horror
        if h >= 0 and h != self.me and where[self.me] == where[h]:
            # standing with the Horror paralyses me from my next turn on, unless I win before
            if not (self.actor == self.me and cost <= self.remaining() and
                    _plan_cost(g, key_free(k), x) == cost) and not self.blue_deadlock(where[h]):
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
        return _plan_cost(self.g, key_free(self.k), x) < _plan_cost(self.g, self.k, x)

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
        return self.hand_delta(key_add(self.k, kind, -1), -self.cv[kind])

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
        return self.sign * (self.w.progress * (c0 - _plan_cost(self.g, k2, x)) + 0.1 * dcs)

    def draw_gain(self, k: tuple) -> float:
        """Expected gain of drawing one card into a hand with plan key `k` (a Dreamwalk, Vertigo
        or Midnight Star may shorten the plan; every card adds its card value)."""
        x = self.where[self.actor]
        g = self.g
        mk = ("draw", k[0], x, self.sign, self.token)
        gain = g.memo.get(mk)
        if gain is None:
            w = self.w
            base = _plan_cost(g, k, x)
            gain = 0.0
            for kind, p in _P_DRAW:
                gain += p * (base - _plan_cost(g, key_add(k, kind, 1), x))
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
        if out is None:  # distinct boards only (a Corridor turned half round is the same board)
            out = g.memo[mk] = tuple(b for b in dict.fromkeys([g.after(loc, o) for o in self.op_ops(loc)])
                                     if b is not g)
        return out

    def best_vertigo(self, loc: int) -> float:
        """The best value() one Vertigo card played on `loc` reaches. The boards it can make,
        my plan cost on each and the rest of value() on each are kept with the board (my plan
        changes when I move or my hand does, the rest when the others move)."""
        k = key_add(self.k, VERTIGO_CARD, -1)
        where = self.where
        x = where[self.actor]
        memo = self.g.memo
        ks = key_strict(k)
        if _plan_cost(self.g, ks, x) < _BLOCKED:  # my route exists: one the Vertigo blocks is just blocked
            k = ks
        mode = self.rules.vertigo_rotation
        mk = ("vm", loc, k[0], x, mode)
        costs = memo.get(mk)
        if costs is None:
            costs = memo[mk] = self.op_costs(loc, k, x, mode)
        mk = ("vr", loc, self.rk, self.token, mode, where if self.me == self.horror else None)
        rests = memo.get(mk)
        if rests is None:
            rests = memo[mk] = tuple([self.rest(g, where) for g in self.op_boards(loc)])
        f = -self.sign * self.w.progress
        best = max([f * c + r for c, r in zip(costs, rests)], default=None)
        if best is None:  # nothing a Vertigo here would change
            return self.base() - 0.1 * self.sign * self.cv[VERTIGO_CARD]
        return best + self.sign * 0.1 * (self.cs - self.cv[VERTIGO_CARD])

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
    def score(self, a) -> float:
        """What playing `a` is worth to me (compared with passing / letting it be: 0)."""
        return _SCORE[type(a)](self, a)

    def score_vertigo_op(self, op: int) -> float:
        return self.value(g=self.g.after(self.obs.context["location"], op)) - self.base()

    def score_set_trap(self, loc: int) -> float:
        if self.actor != self.me:
            return -5.0
        w = self.w
        return self.best_partner(loc)[0] - (w.progress * 0.5 if w.trap <= 0 else 0.0)

    def score_reduce(self, target: int) -> float:
        w = self.w
        return (w.dutch_reduce * self.closeness(target) if target == self.leader() else -5.0) - 0.1 * w.dutch_value

    def score_steal(self, target: int) -> float:
        w = self.w
        v = (w.steal * self.closeness(target) if self.is_rival(target) else -5.0) - 0.1 * w.catcher_value
        if self.actor == self.me and self.obs.hand_sizes[target] and self.stuck():
            # a card taken blindly is a card drawn from a hand (where the Stars of paralysed
            # Midnighters end up): as good a dig as the deck's
            v += self.draw_gain(key_add(self.k, CATCHER, -1))
        return v

    def score_count(self, n: int) -> float:
        tgt = self.obs.context.get("target", -1)
        return n if self.is_rival(tgt) else -n

    def score_walk(self, d: int) -> float:
        g = self.g
        loc = self.where[self.actor]
        to = g.grid[g.nb[g.grid.index(loc)][d]]
        return self.value(where=self.moved(self.actor, to), k=key_add(self.k, DREAMWALK, -1),
                          cs=self.cs - self.cv[DREAMWALK], actor_moved=True) - self.base()

    def score_discard(self, kind: int) -> float:
        obs, w = self.obs, self.w
        dec = self.decision()
        if dec == "turn action":  # dig: an action for a card from the deck
            return self.minus(kind) + self.draw_gain(key_add(self.k, kind, -1)) - 0.05
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
        v = self.hand_delta(key_add(self.k, kind, 1), self.cv[kind])
        if self.decision().startswith("Motel"):
            v += 0.05 * self.cv[kind]  # and the rival loses it
        return v

    def score_star(self) -> float:
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

    def score_extra(self) -> float:
        """An extra action is worth it if my whole plan fits in this turn with it."""
        w = self.w
        actor = self.actor
        if actor != self.me:
            return -5.0
        k = self.profile(self.without(self.hand, DUTCH))
        x = self.where[actor]
        cost = _plan_cost(self.g, k, x)
        have = self.obs.actions_left
        complete = _plan_cost(self.g, key_free(k), x) == cost  # no card missing
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

    def score_spring(self, loc: int, kind: int) -> float:
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


#: turn actions that play a card from the hand (it is replaced from the deck: a way to dig)
_CYCLES = frozenset((Walk, Vertigo, Star, SetTrap, DutchExtra, DutchReduce, Steal))

#: action type -> scoring function (context, action) -> score
_SCORE = {
    Pass: lambda c, a: 0.0, Allow: lambda c, a: 0.0, Hold: lambda c, a: 0.0, StopTaking: lambda c, a: 0.0,
    Walk: lambda c, a: c.score_walk(a.direction),
    Discard: lambda c, a: c.score_discard(a.kind),
    Vertigo: lambda c, a: c.best_vertigo(a.location) - c.base(),
    VertigoOp: lambda c, a: c.score_vertigo_op(a.op),
    Star: lambda c, a: c.score_star(),
    Cancel: lambda c, a: c.score_react(False),
    Intercept: lambda c, a: c.score_react(True),
    Spring: lambda c, a: c.score_spring(a.location, a.kind),
    SetTrap: lambda c, a: c.score_set_trap(a.location),
    TrapPartner: lambda c, a: c.partner_value(c.obs.context["location"], a.kind),
    DutchExtra: lambda c, a: c.score_extra(),
    DutchReduce: lambda c, a: c.score_reduce(a.target),
    Steal: lambda c, a: c.score_steal(a.target),
    To: lambda c, a: c.score_to(a.location),
    Target: lambda c, a: c.score_target(a.seat),
    Take: lambda c, a: c.score_take(a.kind),
    Give: lambda c, a: c.score_give(a.kind),
    Mix: lambda c, a: c.score_mix(),
    Count: lambda c, a: c.score_count(a.n),
}

RUNNER = Weights()
TRICKSTER = replace(RUNNER, progress=8.0, hinder=6.0, block_walk=6.0, trap=4.0, trap_star_bridge=40.0,
                    trap_walk_bridge=25.0, dutch_reduce=4.0, steal=2.0, capture=10.0, spring_min=4.0,
                    suspense_value=2.0)
HORROR = replace(RUNNER, paralyse=15.0, block_walk=4.0, hinder=5.0)
BALANCED = replace(RUNNER, hinder=4.0, block_walk=3.0, trap=1.0, trap_star_bridge=20.0, trap_walk_bridge=10.0,
                   dutch_reduce=2.0, capture=5.0)

def clear_caches() -> None:
    """Forget every board, plan cost and hand profile the heuristics keep (memory; tests)."""
    from . import board
    board._GRAPHS.clear()
    for d in (_KEY_IDS, _ADDED, _STRICT, _FREE, _PROFILES):
        d.clear()
    for pol in POLICIES.values():
        if isinstance(pol, HeuristicPolicy):
            pol._tables[3].clear()


#: policies whose choice is always an item of the legal list (play_game skips checking it)
TRUSTED_POLICY_TYPES = (RandomPolicy, HeuristicPolicy)

POLICIES = {
    "random": RandomPolicy(),
    "runner": HeuristicPolicy(RUNNER, "runner"),
    "trickster": HeuristicPolicy(TRICKSTER, "trickster"),
    "horror": HeuristicPolicy(HORROR, "horror"),
    "heuristic": HeuristicPolicy(BALANCED, "heuristic"),
}
