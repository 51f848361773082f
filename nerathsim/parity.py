"""Is one realm's computer player weaker than the others'? Per realm, read off a game as `play_game` plays it:
how many of the captures open to it the realm takes, and how its battles end against their odds. The figures of
`benchmarks/studies/nerath_realm_parity.py`.

**Possible captures** (`possible_captures(state, realm)`), counted at the realm's first decision of each of its
turns (after its event card is drawn, before any move): the enemy-owned land regions (not seas, not dungeons,
owner neither the realm nor its ally) that

- some of its units could attack this turn: `engine.turn_reach`, the movement rules' own reach with full moves
  (land units stop at the first enemy region, flyers at their real range), plus what its warships could land
  (the cargo aboard, and carriable units on its coasts next to a sea the ship reaches, up to the room aboard);
- with a unit able to take a region among them (a land unit; a flyer when `Rules.flyers_capture`);
- whose whole reachable force (every unit that could attack the region, each counted once) beats the enemy
  units there (castles included) with P(attacker wins) >= 0.5: an empty region always; otherwise the battle
  calculator's odds for those armies (`policies.estimates.win_odds` at 0.5, the function the heuristics use:
  exact within `ODDS_BAND` of 0.5 and up to `ODDS_MAX_UNITS` units, the calibrated estimate otherwise, which
  is off by 3 points on average, so it decides only where it is far from 0.5).

It is the count of regions each attackable with better-than-even odds if the realm sent everything there; the
realm cannot take all of them at once (a unit attacks once), so the share taken is below 1 by design. **Capacity**
(`capture_capacity`): how many of them it could take together, each unit attacking once and each warship
landing once; the share of that
taken compares realms of different reach. What a
realm **captured**: the possible regions it (or, in its ally's start area, its ally by the hand-over) owns at
the end of that turn; `captures` also counts every enemy region taken on the turn, possible or not.

**Routes** (`capture_routes`): how each possible capture is open, `(held, route)`: held 'empty' or 'defended';
route 'land' when the units that walk or fly there take it with a land unit among them, 'flyers' when they take
it with flyers alone (`Rules.flyers_capture`), 'sea' when it needs what warships could land. The share taken
per route says whether a realm leaves its landings, say, rather than its marches.

**Battles as attacker** (every battle a realm starts on its turn, dungeon fights excluded): the armies at the
start of the battle (the engine's `battle` event: the attacker's units, the defenders' summed over the
defending realms, cargo at sea included, as `engine._army_counts` counts them) and the exact P(attacker wins)
of the battle calculator for them (`battle.odds_table.solved_attacker_wins`, the solver the heuristics ask:
no retreat, the cheapest casualty first); the calibrated estimate (`exact=False`) for armies the solver
refuses. Won = the battle ends `attacker_wins` (a retreat or a draw is not a win). Observed minus expected
then measures what the realm's play inside the battle (hits placed, press on or retreat, battle cards) adds
to the odds it chose to fight at.

`play_parity(rules, policies, seed)` plays the game with the game's own loop (`play_game(watch=...)`: the same
game, the same result) and returns `(GameResult, ParityStats)`. To read the battles it turns the state's
event log on (the engine logs without drawing a number: `record=True` plays the same game) and empties it as
it reads, so the result carries no log, as `play_game` with `record=False` gives.

`parity_table(stats)` sums a list of games per realm, with 95% intervals clustered by game (a game's turns
and battles are not independent: the ratio estimator's cluster-robust CR1 variance over games,
    var(R) = G / (G - 1) * sum_g (Y_g - R N_g)^2 / N^2,
the formula of `analyses.clusters`, written out here because the simulator never imports `analyses`) and two
tests of equality across the realms per figure: the joint Wald chi-square (its covariance clustered by game,
since the four realms of a game share it) and each realm against the pooled other three (Holm-adjusted).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np
from scipy import stats as sps

from . import engine as E
from .battle.odds_table import solved_attacker_wins
from .game import GameResult, play_game
from .maps import REALMS
from .policies.estimates import quick_odds, win_odds
from .rules import Rules

ODDS_BAND = 0.2        # `possible_captures`: exact odds when the estimate is within this of 0.5
ODDS_MAX_UNITS = 40    # ... and the two armies have at most this many units together


def enemy_region(s: E.State, r: int, realm: int) -> bool:
    """A land region (not a dungeon) owned by a realm that is neither `realm` nor its ally."""
    b = s.board
    o = s.owner[r]
    return not b.is_sea[r] and not b.is_dungeon[r] and o >= 0 and o not in s.friends[realm]


def _walkers(t, entries) -> tuple[list, dict]:
    """(unit counts, {(src, unit): count used}) of the units that walk or fly to a region (`turn_reach`'s
    `by_land` entries), each unit counted once."""
    counts = [0] * t.U
    used: dict = {}
    for src, u, c in entries:
        take = c - used.get((src, u), 0)
        if take > 0:
            counts[u] += take
            used[(src, u)] = c
    return counts, used


def reach_forces(s: E.State, realm: int, reach=None) -> dict:
    """{enemy region: unit counts (table order)} of `realm`'s units that could attack it this turn
    (`engine.turn_reach`): every unit walking or flying there, the cargo of its warships that can land there,
    and carriable units on its coasts those warships could pick up (up to the room aboard; a unit counted
    once per region even when it could come by land and by ship). `reach`, here and in `possible_captures`,
    `capture_capacity` and `capture_routes`: `engine.turn_reach(s, realm, {})` when the caller has it already."""
    t = s.tab
    by_land, landings = reach or E.turn_reach(s, realm, {})
    out = {}
    for r in sorted(set(by_land) | set(landings)):
        if not enemy_region(s, r, realm):
            continue
        counts, used = _walkers(t, by_land.get(r, ()))
        for _sid, room, cargo, boarders in landings.get(r, ()):
            for u in cargo:
                counts[u] += 1
            left = room
            for src, u, c in boarders:
                take = min(left, c - used.get((src, u), 0))
                if take > 0:
                    counts[u] += take
                    used[(src, u)] = used.get((src, u), 0) + take
                    left -= take
        if any(counts):
            out[r] = counts
    return out


def defenders(s: E.State, r: int, realm: int) -> list:
    """The units at land region r of every realm that is not `realm` or its ally, summed (table order)."""
    t = s.tab
    out = [0] * t.U
    for q in range(4):
        if q not in s.friends[realm]:
            for u, c in enumerate(s.units[r][q]):
                out[u] += c
    return out


def can_take(s: E.State, counts) -> bool:
    """The army holds a unit that can take a region (a land unit; a flyer when flyers capture)."""
    t = s.tab
    return any(c and (t.land[u] or (t.flyer[u] and s.rules.flyers_capture)) for u, c in enumerate(counts))


def possible_captures(s: E.State, realm: int, reach=None) -> list:
    """The enemy regions `realm` could take this turn (module docstring), in region order."""
    return [r for r, att in reach_forces(s, realm, reach).items() if _takes(s, att, defenders(s, r, realm))]


ROUTES = tuple((held, route) for held in ("empty", "defended") for route in ("land", "flyers", "sea"))


def capture_routes(s: E.State, realm: int, regions, reach=None) -> dict:
    """{region: (held, route)} for `realm`'s possible captures `regions` (module docstring, "Routes")."""
    t = s.tab
    by_land, _landings = reach or E.turn_reach(s, realm, {})
    out = {}
    for r in regions:
        counts, _used = _walkers(t, by_land.get(r, ()))
        dfd = defenders(s, r, realm)
        if not _takes(s, counts, dfd):
            route = "sea"
        elif any(c and t.land[u] for u, c in enumerate(counts)):
            route = "land"
        else:
            route = "flyers"
        out[r] = ("defended" if any(dfd) else "empty", route)
    return out


def _takes(s: E.State, att, dfd) -> bool:
    """The army can take the region: a unit able to take it, and P(attacker wins) >= 0.5 (as `possible_captures`)."""
    if not can_take(s, att):
        return False
    return not any(dfd) or win_odds(s.rules.battle, att, dfd, False, 0.5, band=ODDS_BAND,
                                     max_units=ODDS_MAX_UNITS) >= 0.5


def capture_capacity(s: E.State, realm: int, reach=None) -> int:
    """How many enemy regions `realm` could take together this turn, each unit attacking once (the
    denominator of the share of capacity taken): a greedy lower bound of that maximum. Targets go in ascending order of their defenders' cost
    (empty regions first). An empty one takes the cheapest free unit able to take it; a defended one the free
    units that could reach it, dearest first, until the army takes it (`_takes`); those units are then spent,
    and a unit boarding a warship takes one of its free places. A warship lands once a turn (an unloaded ship
    moves no more), so a ship used for a target is spent with its cargo and places. A target no free army
    takes spends nothing."""
    t = s.tab
    by_land, landings = reach or E.turn_reach(s, realm, {})
    free: dict = {}
    room: dict = {}
    for entries in by_land.values():
        for src, u, c in entries:
            free[(src, u)] = c
    for entries in landings.values():
        for sid, places, cargo, boarders in entries:
            room[sid] = places
            for u in cargo:
                free[("ship", sid, u)] = cargo.count(u)
            for src, u, c in boarders:
                free[(src, u)] = c
    targets = []
    for r in set(by_land) | set(landings):
        if enemy_region(s, r, realm):
            dfd = defenders(s, r, realm)
            targets.append((sum(c * t.cost[u] for u, c in enumerate(dfd)), r, dfd))
    taken = 0
    for _cost, r, dfd in sorted(targets):
        options = {(src, u): (u, None) for src, u, _c in by_land.get(r, ())}
        for sid, _places, cargo, boarders in landings.get(r, ()):
            options.update({("ship", sid, u): (u, None) for u in cargo})
            for src, u, _c in boarders:
                options.setdefault((src, u), (u, sid))
        pool = [(key, u, sid) for key, (u, sid) in options.items()]
        pool.sort(key=lambda x: (t.cost[x[1]], str(x[0])), reverse=bool(any(dfd)))
        att = [0] * t.U
        spent: dict = {}
        rooms: dict = {}
        done = False
        for key, u, sid in pool:
            if not any(dfd) and not can_take(s, [int(v == u) for v in range(t.U)]):
                continue
            while free.get(key, 0) - spent.get(key, 0) > 0 and (sid is None or room[sid] - rooms.get(sid, 0) > 0):
                att[u] += 1
                spent[key] = spent.get(key, 0) + 1
                if sid is not None:
                    rooms[sid] = rooms.get(sid, 0) + 1
                if _takes(s, att, dfd):
                    done = True
                    break
            if done:
                break
        if done:
            taken += 1
            for key, n in spent.items():
                free[key] -= n
            ships = set(rooms) | {key[1] for key in spent if key[0] == "ship"}
            for sid in ships:               # a ship lands once a turn: its cargo and places are spent
                room[sid] = 0
                for key in free:
                    if key[0] == "ship" and key[1] == sid:
                        free[key] = 0
    return taken


def pre_battle_odds(brules, att, dfd, at_sea: bool) -> tuple[float, bool]:
    """(P(attacker wins), exact): the exact solver's answer for these unit counts, or the calibrated estimate
    (exact=False) for armies it refuses."""
    p = solved_attacker_wins(brules, tuple(att), tuple(dfd), at_sea)
    if p is None:
        return quick_odds(brules, list(att), list(dfd), at_sea), False
    return p, True


@dataclass
class ParityStats:
    """One game's figures per realm (karkoth, vailin, iron_circle, nerath).

    turns: turns played; measured: turns whose start was seen (a turn with no decision at all is not);
    possible / captured: possible captures and those taken (module docstring); capacity: how many of them it
    could take together (`capture_capacity`, summed over its turns); captures: enemy regions taken on its turns;
    routes: {(realm, (held, route)): [possible, captured]} (`capture_routes`); turn_log: (realm, turn number,
    possible regions, captured regions) per measured turn;
    battles: (realm, P(attacker wins) at the start, won, exact, at sea) per battle a realm started."""

    turns: list = field(default_factory=lambda: [0] * 4)
    measured: list = field(default_factory=lambda: [0] * 4)
    possible: list = field(default_factory=lambda: [0] * 4)
    captured: list = field(default_factory=lambda: [0] * 4)
    capacity: list = field(default_factory=lambda: [0] * 4)
    captures: list = field(default_factory=lambda: [0] * 4)
    routes: dict = field(default_factory=dict)
    turn_log: list = field(default_factory=list)
    battles: list = field(default_factory=list)


def _counts(s: E.State, named: dict) -> list:
    idx = s.tab.idx
    out = [0] * s.tab.U
    for name, c in named.items():
        out[idx[name]] += c
    return out


class ParityWatch:
    """The `watch(state, action, apply)` of `play_game` that fills a `ParityStats` (`stats`)."""

    def __init__(self, order):
        self.stats = ParityStats()
        self.order = list(order)
        self.turn = None            # (s.turns, realm, owners at the start, possible regions, capacity, routes): open turn
        self.own_log = False
        self.pending = None         # (realm, region, odds, exact, at sea) of the battle under way

    def __call__(self, s: E.State, a, apply) -> None:
        if s.log is None:
            s.log, self.own_log = [], True
        seen = len(s.log)
        if self.turn is None or self.turn[0] != s.turns:
            reach = E.turn_reach(s, s.realm, {})      # read by all three: this turn's reach, computed once
            possible = possible_captures(s, s.realm, reach)
            self.turn = (s.turns, s.realm, s.owner[:], possible, capture_capacity(s, s.realm, reach),
                         capture_routes(s, s.realm, possible, reach))
        turns = s.turns
        apply()
        self._read(s, s.log[seen:])
        if self.own_log:
            s.log.clear()
        if s.turns > turns:
            self._close(s, turns)

    def _read(self, s: E.State, events) -> None:
        st = self.stats
        for ev in events:
            kind = ev["event"]
            if kind == "battle":
                att = _counts(s, ev["attacker"])
                dfd = [0] * s.tab.U
                for named in ev["defenders"].values():
                    dfd = [x + y for x, y in zip(dfd, _counts(s, named))]
                p, exact = pre_battle_odds(s.rules.battle, att, dfd, ev["at_sea"])
                self.pending = (REALMS.index(ev["realm"]), ev["region"], p, exact, ev["at_sea"])
            elif kind == "battle_end" and self.pending is not None and self.pending[1] == ev["region"]:
                q, _r, p, exact, at_sea = self.pending
                st.battles.append((q, p, ev["outcome"] == "attacker_wins", exact, at_sea))
                self.pending = None

    def _close(self, s: E.State, turns: int) -> None:
        st = self.stats
        n0, realm, owner0, possible, capacity, routes = self.turn
        i = self.order.index(realm)
        for k in range(s.turns - turns):
            st.turns[self.order[(i + k) % len(self.order)]] += 1
        friends = s.friends[realm]
        taken = [r for r in range(s.board.n) if owner0[r] >= 0 and owner0[r] not in friends and s.owner[r] in friends]
        got = [r for r in possible if s.owner[r] in friends]
        st.measured[realm] += 1
        st.possible[realm] += len(possible)
        st.captured[realm] += len(got)
        st.capacity[realm] += capacity
        st.captures[realm] += len(taken)
        for r in possible:
            tally = st.routes.setdefault((realm, routes[r]), [0, 0])
            tally[0] += 1
            tally[1] += s.owner[r] in friends
        st.turn_log.append((realm, n0 + 1, tuple(possible), tuple(got)))
        self.turn = None


def play_parity(rules: Rules, policies, seed) -> tuple[GameResult, ParityStats]:
    """`play_game(rules, policies, seed)` (the same game and result, played by the game's own loop) with its
    `ParityStats`."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nerathsim Rules, got {type(rules).__name__}")
    w = ParityWatch(rules.order)
    return play_game(rules, policies, seed, watch=w), w.stats


# --- the table -------------------------------------------------------------------------------------------------

def _ratio(y: np.ndarray, n: np.ndarray) -> tuple[float, float, np.ndarray]:
    """Ratio sum(y) / sum(n) over games, its CR1 standard error (clustered by game) and each game's influence
    (Y_g - R N_g) / N. NaN when sum(n) is 0; the standard error NaN with fewer than two games."""
    N = float(n.sum())
    G = len(y)
    if N == 0:
        return math.nan, math.nan, np.zeros(G)
    R = float(y.sum()) / N
    u = (y - R * n) / N
    se = math.sqrt(G / (G - 1) * float((u * u).sum())) if G > 1 else math.nan
    return R, se, u


def holm(p_values) -> list:
    """Holm's step-down adjustment (NaN stays NaN)."""
    p = np.asarray(p_values, dtype=float)
    ok = np.flatnonzero(~np.isnan(p))
    out = np.full(p.shape, np.nan)
    m = len(ok)
    running = 0.0
    for rank, i in enumerate(ok[np.argsort(p[ok], kind="stable")]):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out.tolist()


def equality_tests(y: np.ndarray, n: np.ndarray) -> dict:
    """Equality of the realms' ratios sum_g y[g, k] / sum_g n[g, k] (games x realms): the joint Wald chi-square
    of the differences to the last realm with data, their covariance clustered by game (CR1); and each realm
    against the other realms pooled, a z test on the clustered standard error of the difference, with Holm's
    adjustment. Realms without data are left out (NaN)."""
    G, K = y.shape
    keep = [k for k in range(K) if n[:, k].sum() > 0]
    R = np.full(K, np.nan)
    U = np.zeros((G, K))
    for k in keep:
        R[k], _se, U[:, k] = _ratio(y[:, k], n[:, k])
    out = {"chi2": math.nan, "df": max(0, len(keep) - 1), "p": math.nan,
           "vs_rest": [math.nan] * K, "vs_rest_z": [math.nan] * K, "vs_rest_p": [math.nan] * K}
    if G < 2 or len(keep) < 2:
        out["vs_rest_holm"] = [math.nan] * K
        return out
    c = G / (G - 1)
    V = c * U[:, keep].T @ U[:, keep]
    C = np.hstack([np.eye(len(keep) - 1), -np.ones((len(keep) - 1, 1))])
    d = C @ R[keep]
    W = float(d @ np.linalg.pinv(C @ V @ C.T) @ d)
    out["chi2"], out["p"] = W, float(sps.chi2.sf(W, len(keep) - 1))
    for k in keep:
        rest = [j for j in range(K) if j != k]
        Rr, _se, ur = _ratio(y[:, rest].sum(axis=1), n[:, rest].sum(axis=1))
        diff = R[k] - Rr
        var = c * float(((U[:, k] - ur) ** 2).sum())
        out["vs_rest"][k] = float(diff)
        if var > 0:
            z = float(diff) / math.sqrt(var)
            out["vs_rest_z"][k], out["vs_rest_p"][k] = z, 2 * NormalDist().cdf(-abs(z))
        elif diff == 0:
            out["vs_rest_z"][k], out["vs_rest_p"][k] = 0.0, 1.0
    out["vs_rest_holm"] = holm(out["vs_rest_p"])
    return out


def equal_differences(d: np.ndarray) -> dict:
    """`equality_tests` of the realms' mean paired differences (seeds x realms, e.g. a candidate's capture share
    minus the reference's on the same seed); NaN where a seed has no difference for a realm (weight 0)."""
    ok = ~np.isnan(d)
    return equality_tests(np.where(ok, d, 0.0), ok.astype(float))


def parity_table(games, confidence: float = 0.95) -> dict:
    """Per realm over a list of `ParityStats` (one per game): turns, possible captures per game, the share
    captured (and per route: `routes`, one row per `ROUTES` entry), battles as attacker, mean pre-battle odds,
    the observed win rate and observed minus expected (each
    ratio over games with its interval, normal at the CR1 standard error clustered by game), and the equality
    tests of the share and of observed minus expected (`equality_tests`)."""
    games = list(games)
    if not games:
        raise ValueError("parity_table needs at least one game")
    G = len(games)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    poss = np.array([g.possible for g in games], dtype=float)
    capt = np.array([g.captured for g in games], dtype=float)
    cap = np.array([g.capacity for g in games], dtype=float)
    nb = np.zeros((G, 4))
    wins = np.zeros((G, 4))
    odds = np.zeros((G, 4))
    inexact = [0] * 4
    for i, g in enumerate(games):
        for q, p, won, exact, _sea in g.battles:
            nb[i, q] += 1
            wins[i, q] += won
            odds[i, q] += p
            inexact[q] += not exact

    def interval(R, se):
        return (R - z * se, R + z * se) if not math.isnan(se) else (math.nan, math.nan)

    by_route = np.array([[g.routes.get((q, key), (0, 0)) for q in range(4) for key in ROUTES] for g in games],
                        dtype=float).reshape(G, 4, len(ROUTES), 2)
    realms = []
    for q in range(4):
        routes = []
        for k, (held, route) in enumerate(ROUTES):
            r_share, r_se, _u = _ratio(by_route[:, q, k, 1], by_route[:, q, k, 0])
            routes.append({"held": held, "route": route, "possible": int(by_route[:, q, k, 0].sum()),
                           "captured": int(by_route[:, q, k, 1].sum()), "share": r_share,
                           "share_ci": interval(r_share, r_se)})
        share, se_s, _u = _ratio(capt[:, q], poss[:, q])
        of_capacity, se_c, _u = _ratio(capt[:, q], cap[:, q])
        rate, se_w, _u = _ratio(wins[:, q], nb[:, q])
        mean_odds, _se, _u = _ratio(odds[:, q], nb[:, q])
        diff, se_d, _u = _ratio(wins[:, q] - odds[:, q], nb[:, q])
        realms.append({
            "realm": REALMS[q], "turns": int(sum(g.turns[q] for g in games)),
            "measured_turns": int(sum(g.measured[q] for g in games)),
            "possible": int(poss[:, q].sum()), "possible_per_game": float(poss[:, q].sum()) / G,
            "captured": int(capt[:, q].sum()), "captures": int(sum(g.captures[q] for g in games)),
            "share": share, "share_ci": interval(share, se_s),
            "capacity": int(cap[:, q].sum()), "capacity_per_game": float(cap[:, q].sum()) / G,
            "capacity_share": of_capacity, "capacity_share_ci": interval(of_capacity, se_c),
            "battles": int(nb[:, q].sum()), "battles_per_game": float(nb[:, q].sum()) / G,
            "inexact_odds": inexact[q], "mean_odds": mean_odds, "wins": int(wins[:, q].sum()),
            "win_rate": rate, "win_rate_ci": interval(rate, se_w),
            "obs_minus_exp": diff, "obs_minus_exp_ci": interval(diff, se_d), "routes": routes,
        })
    return {"games": G, "confidence": confidence, "realms": realms,
            "share_test": equality_tests(capt, poss), "capacity_test": equality_tests(capt, cap),
            "battle_test": equality_tests(wins - odds, nb)}
