"""Conquest of Nerath: which units are worth their gold? (exact unless stated)

Players argue whether dragons are overpowered and whether footsoldiers are the real bargain.
Every function returns a DataFrame (the report draws them); every battle number comes from
`nerathsim`'s exact solver, so there is no sampling error.

- `unit_efficiency`: expected hits per round and per gold, on attack and defence, on land and
  at sea, and hits absorbed per gold.
- `duel_matrix`: every unit type attacking every other with the same gold (budgets 6, 12, 30).
- `best_army`: the best army for a budget, on attack or on defence, against a reference army.
- `break_even_prices`: the price at which a unit would be worth exactly as much as footsoldiers.
- `lanchester_fits`: how the advantage scales with army size (a Lanchester-type exponent).
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import optimize

import nerathsim
from nerathsim import BattleRules
from nerathsim.battle.army import start_battle
from nerathsim.battle.exact import BattleTooLarge, check_exact_size
from nerathsim.battle.outcomes import ATTACKER_WINS, DEFENDER_HOLDS, DRAW, RETREAT

BUDGETS = (6, 12, 30)
REFERENCE = "footsoldier"
MAX_ARMIES = 3000      # best_army: armies ranked per call (budget 20 on defence is ~2200; each is a battle)
MAX_BEST_BUDGET = 1000  # best_army: budgets above this are refused before counting the armies


def _rules(rules: BattleRules | None) -> BattleRules:
    rules = rules if rules is not None else BattleRules()
    if not isinstance(rules, BattleRules):
        raise ValueError(f"rules must be a nerathsim.BattleRules, got {rules!r}")
    return rules


def _dice(unit, role: str, at_sea: bool) -> int:
    """Dice the unit rolls in that role and place (0: it takes no part: a castle on attack, a
    warship on land, cargo at sea)."""
    if not at_sea and unit.domain == "sea":
        return 0
    if role == "attack" and unit.captured:
        return 0
    return unit.dice("attacker" if role == "attack" else "defender", at_sea)


def _fights(unit, role: str, at_sea: bool) -> bool:
    """Can this unit be bought to fight on its own in that role and place? (Land units at sea are
    cargo: heroes need a warship.)"""
    return not (at_sea and unit.domain == "land") and _dice(unit, role, at_sea) > 0


# ---------------------------------------------------------------------------------------------
# 1. Hits per gold
# ---------------------------------------------------------------------------------------------
def unit_efficiency(rules: BattleRules | None = None) -> pd.DataFrame:
    """Per unit: expected hits per round on attack and defence (land and sea), the same per
    gold, and hits absorbed per gold (hits to kill / cost). NaN where the unit cannot take
    that role (a castle on attack, a warship on land, a footsoldier at sea). Wizards' hits
    come first (first strike), which this table does not value; the duels do."""
    rules = _rules(rules)
    rows = []
    for u in rules.units.units:
        p = u.hit_probability(rules.hit_threshold)
        row = {"unit": u.name, "cost": u.cost, "die": f"d{u.die}", "p_hit": p, "hits_to_kill": u.hits_to_kill,
               "first_strike": u.first_strike}
        for label, role, at_sea in (("attack", "attack", False), ("defence", "defence", False),
                                    ("sea_attack", "attack", True), ("sea_defence", "defence", True)):
            hits = _dice(u, role, at_sea) * p if _dice(u, role, at_sea) else math.nan
            row[f"{label}_hits"] = hits
            row[f"{label}_hits_per_gold"] = hits / u.cost if u.cost else math.nan
        row["hits_absorbed_per_gold"] = u.hits_to_kill / u.cost if u.cost else math.nan
        rows.append(row)
    return pd.DataFrame(rows).set_index("unit")


# ---------------------------------------------------------------------------------------------
# 2. Equal-budget duels
# ---------------------------------------------------------------------------------------------
def _outcome_row(t) -> dict:
    p = t.prob
    att = float(p[t.outcome == ATTACKER_WINS].sum())
    dfd = float(p[(t.outcome == DEFENDER_HOLDS) | (t.outcome == RETREAT)].sum())
    draw = float(p[t.outcome == DRAW].sum())
    w = p / p.sum()
    gold_a = float(w @ ((t.attacker_start - t.attacker) @ t.costs))
    gold_d = float(w @ ((t.defender_start - t.defender) @ t.costs))
    return {"attacker_wins": att, "defender_wins": dfd, "draw": draw, "attacker_gold_lost": gold_a,
            "defender_gold_lost": gold_d, "tuv_swing": gold_d - gold_a}


def battle(attacker: dict, defender: dict, at_sea: bool = False, rules: BattleRules | None = None) -> dict:
    """Exact outcome numbers of one battle as a plain dict (win chances, gold lost, TUV swing)."""
    return _outcome_row(nerathsim.exact_battle(attacker, defender, at_sea=at_sea, rules=rules))


def duel_matrix(budgets: Iterable[int] = BUDGETS, at_sea: bool = False, rules: BattleRules | None = None,
                units: Sequence[str] | None = None) -> pd.DataFrame:
    """Every unit type attacking every other, each side buying as many as `budget` gold allows.

    One row per (budget, attacker unit, defender unit): counts, gold spent, win/draw chances,
    gold lost per side and the TUV swing. Units: those that can both attack and defend there
    (on land: all but castles and warships; at sea: warships and flyers). Pairs where a side
    cannot afford one unit are left out.
    """
    rules = _rules(rules)
    budgets = _budgets(budgets)
    names = _unit_names(units, rules, at_sea)
    pairs = [(budget, a, d, budget // rules.units[a].cost, budget // rules.units[d].cost)
             for budget in budgets for a, d in itertools.product(names, names)]
    pairs = [p for p in pairs if p[3] and p[4]]
    for budget, a, d, ca, cd in pairs:  # every size limit before any battle is solved
        _check_size({a: ca}, {d: cd}, at_sea, rules, f"duel at budget {budget} ({ca} {a} vs {cd} {d})")
    rows = []
    for budget, a, d, ca, cd in pairs:
        row = {"budget": budget, "attacker_unit": a, "defender_unit": d, "attacker_count": ca,
               "defender_count": cd, "attacker_gold": ca * rules.units[a].cost,
               "defender_gold": cd * rules.units[d].cost}
        row.update(battle({a: ca}, {d: cd}, at_sea, rules))
        rows.append(row)
    return pd.DataFrame(rows)


def duel_pivot(duels: pd.DataFrame, budget: int, value: str = "attacker_wins") -> pd.DataFrame:
    """One budget of `duel_matrix` as a square table: rows attack, columns defend."""
    sub = duels[duels["budget"] == budget]
    if sub.empty:
        raise ValueError(f"no duels at budget {budget}; budgets present: {sorted(duels['budget'].unique())}")
    return sub.pivot(index="attacker_unit", columns="defender_unit", values=value)


def _check_size(attacker: dict, defender: dict, at_sea: bool, rules: BattleRules, what: str) -> None:
    """Refuse, before any work, a battle too large for the exact solver."""
    try:
        check_exact_size(start_battle(attacker, defender, at_sea, rules), rules)
    except BattleTooLarge as exc:
        raise ValueError(f"{what}: {str(exc).split('; use')[0]}; use smaller budgets") from None


def count_armies(budget: int, names: Sequence[str], rules: BattleRules, max_castles: int = 1) -> int:
    """How many armies `armies_for_budget` would list, counted without listing them."""
    ways = [1] + [0] * budget
    for name in names:
        c = rules.units[name].cost
        if not c:
            continue
        if rules.units[name].captured:
            ways = [sum(ways[b - k * c] for k in range(min(max_castles, b // c) + 1)) for b in range(budget + 1)]
        else:
            for b in range(c, budget + 1):
                ways[b] += ways[b - c]
    return ways[budget]


def _budgets(budgets) -> list[int]:
    out = []
    for b in budgets:
        if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or b < 1:
            raise ValueError(f"budgets must be positive whole gold amounts, got {b!r}")
        out.append(int(b))
    if not out:
        raise ValueError("give at least one budget")
    return out


def _unit_names(units, rules: BattleRules, at_sea: bool, role: str = "both") -> list[str]:
    if units is None:
        roles = ("attack", "defence") if role == "both" else (role,)
        return [u.name for u in rules.units.units if all(_fights(u, r, at_sea) for r in roles)]
    names = [rules.units.canonical(n) for n in units]
    for n in names:
        u = rules.units[n]
        roles = ("attack", "defence") if role == "both" else (role,)
        for r in roles:
            if not _fights(u, r, at_sea):
                where = "at sea" if at_sea else "on land"
                raise ValueError(f"{n} cannot {'attack' if r == 'attack' else 'defend'} on its own {where}")
    return names


# ---------------------------------------------------------------------------------------------
# 3. The best army for a budget
# ---------------------------------------------------------------------------------------------
def armies_for_budget(budget: int, names: Sequence[str], rules: BattleRules, max_castles: int = 1) -> list[dict]:
    """Every army of these unit types costing exactly `budget` (at most `max_castles` castles).

    Spending the whole budget loses nothing: adding a unit never lowers a side's win chance
    (tested in tests/nerathsim), and a 1-gold footsoldier can fill any remainder.
    """
    costs = [rules.units[n].cost for n in names]
    out = []

    def extend(i: int, left: int, army: dict):
        if left == 0:
            out.append(dict(army))
            return
        if i == len(names):
            return
        cap = left // costs[i] if costs[i] else 0
        if rules.units[names[i]].captured:
            cap = min(cap, max_castles)
        for k in range(cap, -1, -1):
            if k:
                army[names[i]] = k
            extend(i + 1, left - k * costs[i], army)
            army.pop(names[i], None)

    extend(0, budget, {})
    return out


def best_army(budget: int, role: str = "attack", opponent: dict | None = None, rules: BattleRules | None = None,
              units: Sequence[str] | None = None, top: int | None = 10) -> pd.DataFrame:
    """Every army that spends exactly `budget` gold, ranked by its exact chance of winning
    against `opponent` (default: as many footsoldiers as the budget buys), attacking
    (role='attack') or defending (role='defence'). Ties are broken by the gold swing.

    Columns: the army, counts per unit, win / draw / loss chances, expected gold the army
    loses and the swing in its favour. On defence a castle may be part of the army (at most one).
    """
    rules = _rules(rules)
    if role not in ("attack", "defence"):
        raise ValueError(f"role must be 'attack' or 'defence', got {role!r}")
    (budget,) = _budgets([budget])
    names = _unit_names(units, rules, False, role)
    ref = rules.units.parse_army(opponent, "opponent") if opponent is not None else \
        {REFERENCE: max(1, budget // rules.units[REFERENCE].cost)}
    if budget > MAX_BEST_BUDGET or (n := count_armies(budget, names, rules)) > MAX_ARMIES:
        many = "astronomically many" if budget > MAX_BEST_BUDGET else f"{n:,}"
        raise ValueError(f"best army for {budget} gold: {many} armies to rank, limit {MAX_ARMIES:,}; use a smaller budget")
    armies = armies_for_budget(budget, names, rules)
    for army in armies:  # every size limit before any battle is solved
        pair = (army, ref) if role == "attack" else (ref, army)
        _check_size(*pair, False, rules, f"best army for {budget} gold ({nerathsim.format_army(army)} vs "
                                         f"{nerathsim.format_army(ref)})")
    rows = []
    for army in armies:
        if role == "attack":
            r = battle(army, ref, False, rules)
            win, loss, lost, swing = r["attacker_wins"], r["defender_wins"], r["attacker_gold_lost"], r["tuv_swing"]
        else:
            r = battle(ref, army, False, rules)
            win, loss, lost, swing = r["defender_wins"], r["attacker_wins"], r["defender_gold_lost"], -r["tuv_swing"]
        row = {"army": nerathsim.format_army({n: army[n] for n in rules.units.names if n in army}),
               **{n: army.get(n, 0) for n in names},
               "win": win, "draw": r["draw"], "loss": loss, "gold_lost": lost, "gold_swing": swing}
        rows.append(row)
    frame = pd.DataFrame(rows).sort_values(["win", "gold_swing"], ascending=False, kind="mergesort")
    frame.insert(0, "rank", np.arange(1, len(frame) + 1))
    frame = frame.reset_index(drop=True)
    frame.attrs.update(budget=budget, role=role, opponent=nerathsim.format_army(ref))
    return frame if top is None else frame.head(top)


# ---------------------------------------------------------------------------------------------
# 4. Break-even prices against footsoldiers
# ---------------------------------------------------------------------------------------------
def _margin(unit: str, count: int, m: int, role: str, rules: BattleRules) -> float:
    """Win chance minus loss chance of `count` units against m footsoldiers (m = 0: a walkover)."""
    if m == 0:
        return 1.0
    if role == "attack":
        r = battle({unit: count}, {REFERENCE: m}, False, rules)
        return r["attacker_wins"] - r["defender_wins"]
    r = battle({REFERENCE: m}, {unit: count}, False, rules)
    return r["defender_wins"] - r["attacker_wins"]


def break_even_count(unit: str, count: int, role: str, rules: BattleRules | None = None, limit: int = 400) -> float:
    """The number of footsoldiers m* that `count` units fight to an even battle (win chance =
    loss chance), linearly interpolated between whole armies. The margin falls as m grows
    (adding a footsoldier never helps the other side), so the first m with margin <= 0 is found by
    doubling then bisection: about 2 log2(m*) exact battles instead of m* (the same m, the same
    interpolation as a scan from m = 1)."""
    rules = _rules(rules)
    margins = {0: 1.0}

    def margin(m: int) -> float:
        if m not in margins:
            margins[m] = _margin(unit, count, m, role, rules)
        return margins[m]

    low, high = 0, 1                     # margin(low) > 0; find high with margin(high) <= 0
    while margin(high) > 0:
        if high >= limit:
            raise ValueError(f"{count} {unit} still win against {limit} footsoldiers; raise limit")
        low, high = high, min(limit, 2 * high)
    while high - low > 1:                # invariant: margin(low) > 0 >= margin(high)
        mid = (low + high) // 2
        low, high = (mid, high) if margin(mid) > 0 else (low, mid)
    prev, cur = margin(high - 1), margin(high)
    return (high - 1) + prev / (prev - cur) if prev != cur else float(high)


def break_even_prices(rules: BattleRules | None = None, budget: int = 12, units: Sequence[str] | None = None
                      ) -> pd.DataFrame:
    """Each unit's break-even price against footsoldiers: the gold at which `budget`'s worth of
    it (budget // cost units, at least one) fights as many footsoldiers to an even battle as
    it costs — price = m* / count, a footsoldier being 1 gold. A ratio above 1 means the unit
    is worth more than it costs, measured against footsoldiers at that army size."""
    rules = _rules(rules)
    (budget,) = _budgets([budget])
    names = [u.name for u in rules.units.units if u.domain != "sea"] if units is None else \
        [rules.units.canonical(n) for n in units]
    counts = {name: 1 if rules.units[name].captured else
              (max(1, budget // rules.units[name].cost) if rules.units[name].cost else 1) for name in names}
    for name, count in counts.items():  # every size limit (against one footsoldier) before any battle is solved
        for role in ("attack", "defence"):
            if _fights(rules.units[name], role, False):
                pair = ({name: count}, {REFERENCE: 1}) if role == "attack" else ({REFERENCE: 1}, {name: count})
                _check_size(*pair, False, rules, f"break-even at budget {budget} ({count} {name} on {role})")
    rows = []
    for name, count in counts.items():
        u = rules.units[name]
        row = {"unit": name, "cost": u.cost, "count": count}
        for role in ("attack", "defence"):
            if _fights(u, role, False):
                m = break_even_count(name, count, role, rules)
                row[f"break_even_{role}"] = m / count
                row[f"{role}_value_ratio"] = m / count / u.cost if u.cost else math.nan
            else:
                row[f"break_even_{role}"] = math.nan
                row[f"{role}_value_ratio"] = math.nan
        rows.append(row)
    return pd.DataFrame(rows).set_index("unit")


# ---------------------------------------------------------------------------------------------
# 5. Scaling with army size (Lanchester)
# ---------------------------------------------------------------------------------------------
def lanchester_data(unit: str, opponent: str = REFERENCE, sizes: Iterable[int] = range(1, 9), role: str = "attack",
                    rules: BattleRules | None = None, max_opponents: int = 200) -> pd.DataFrame:
    """Battles of n `unit` against m `opponent` for every size n and every m = 1, 2, ... while
    the unit side still wins at least half the time (exact).

    Columns: n, m, win (the unit side's chance) and survivors (its expected units left when it
    wins). Varying m/n is what identifies the exponent: with m proportional to n (equal gold
    only) every exponent fits equally well."""
    rules = _rules(rules)
    unit, opponent = rules.units.canonical(unit), rules.units.canonical(opponent)
    if role not in ("attack", "defence"):
        raise ValueError(f"role must be 'attack' or 'defence', got {role!r}")
    rows = []
    for n in sizes:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"sizes must be positive integers, got {n!r}")
        for m in range(1, max_opponents + 1):
            if role == "attack":
                t = nerathsim.exact_battle({unit: int(n)}, {opponent: m}, rules=rules)
                mine, won = t.attacker, t.outcome == ATTACKER_WINS
            else:
                t = nerathsim.exact_battle({opponent: m}, {unit: int(n)}, rules=rules)
                mine, won = t.defender, (t.outcome == DEFENDER_HOLDS) | (t.outcome == RETREAT)
            w = t.prob / t.prob.sum()
            win = float(w[won].sum())
            if win < 0.5:
                break
            left = float(w[won] @ mine[won, t.units.index(unit)]) / win
            rows.append({"n": int(n), "m": m, "win": win, "survivors": left})
    return pd.DataFrame(rows, columns=["n", "m", "win", "survivors"])


def fit_lanchester(data: pd.DataFrame) -> dict:
    """Fit Lanchester's state equation for the winner, S^a = n^a - K m^a, to battles of n units
    against m opponents (S: the unit side's expected survivors when it wins), weighting each
    battle by the unit side's win chance (weighted least squares, scipy).

    a = 1 is Lanchester's linear law (fire spread thin: numbers add), a = 2 his square law
    (aimed fire: an army's worth grows with the square of its size, so concentration pays).
    K is the opponent's worth per unit relative to the unit's, in the same power.
    Returns alpha, K, rmse (in units) and the number of battles fitted. Descriptive, not a
    test: conditioning on wins biases close fights."""
    if len(data) < 3 or data["m"].nunique() < 2:
        raise ValueError("need at least three battles with different opponent counts to fit an exponent")
    n, m = data["n"].to_numpy(float), data["m"].to_numpy(float)
    s, w = data["survivors"].to_numpy(float), np.sqrt(data["win"].to_numpy(float))

    def residuals(theta):
        a, k = theta
        return w * (s - np.clip(n ** a - k * m ** a, 0.0, None) ** (1.0 / a))

    res = optimize.least_squares(residuals, x0=[1.5, 0.5], bounds=([0.25, 1e-9], [6.0, 1e9]))
    a, k = res.x
    rmse = float(np.sqrt(np.mean((res.fun / w) ** 2)))
    return {"alpha": float(a), "K": float(k), "rmse": rmse, "battles": int(len(data))}


def lanchester_fits(units: Sequence[str] | None = None, opponent: str = REFERENCE, sizes: Iterable[int] = range(1, 9),
                    role: str = "attack", rules: BattleRules | None = None) -> pd.DataFrame:
    """Per unit type: the fitted exponent against `opponent` (see `fit_lanchester`), and how the
    advantage scales with size: the unit side's win chance against the same gold of
    opponents for the smallest and largest army."""
    rules = _rules(rules)
    sizes = list(sizes)
    names = _unit_names(units, rules, False, role) if units is not None else \
        [u.name for u in rules.units.units if _fights(u, role, False) and not u.captured]  # one castle per space
    opp = rules.units.canonical(opponent)
    rows = []
    for name in names:
        fit = fit_lanchester(lanchester_data(name, opp, sizes, role, rules))
        row = {"unit": name, **fit}
        for label, n in (("smallest", min(sizes)), ("largest", max(sizes))):
            m = max(1, round(n * rules.units[name].cost / rules.units[opp].cost))
            mine, theirs = ({name: n}, {opp: m}) if role == "attack" else ({opp: m}, {name: n})
            r = battle(mine, theirs, False, rules)
            row[f"equal_gold_win_{label}"] = r["attacker_wins"] if role == "attack" else r["defender_wins"]
            row[f"n_{label}"] = n
        rows.append(row)
    return pd.DataFrame(rows).set_index("unit")


def report(rules: BattleRules | None = None, budgets: Iterable[int] = BUDGETS, best_budgets: Iterable[int] = (6, 12),
           top: int = 5, break_even_budget: int = 12, lanchester_sizes: Iterable[int] = range(1, 9)
           ) -> dict[str, pd.DataFrame]:
    """Every table of the unit-cost question, by name: efficiency, duels (long), duel_attacker_wins_<budget>
    (square), best_attack_<budget>, best_defence_<budget>, break_even, lanchester."""
    rules = _rules(rules)
    duels = duel_matrix(budgets, rules=rules)
    tables = {"efficiency": unit_efficiency(rules), "duels": duels}
    for b in sorted(set(duels["budget"])):
        tables[f"duel_attacker_wins_{b}"] = duel_pivot(duels, b)
    for b in best_budgets:
        for role in ("attack", "defence"):
            tables[f"best_{role}_{b}"] = best_army(b, role, rules=rules, top=top)
    tables["break_even"] = break_even_prices(rules, break_even_budget)
    tables["lanchester"] = lanchester_fits(rules=rules, sizes=lanchester_sizes)
    return tables
