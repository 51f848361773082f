"""Objectives of a re-balancing search: named functions of a simulated frame (or of the rules alone).

Every objective gives a `score` (lower is better; 0 means on target) that the search minimises,
and a `table` with one row per measure (a seat's win rate, an alliance's, the mean game length,
a unit's value per gold) holding the value, its 95% interval, the target band and whether the
interval lies inside it (``within``). The confirmation run decides with `table`, never with the
search's own scores (those are biased by selection: the best of many noisy candidates looks
better than it is).

- ``seat_balance``: max |seat win rate − fair share| over decided games, the deal as the unit
  (`analyses.clusters.rates`, as every table of the lab); target: each seat within ±`tolerance`.
- ``alliance_balance``: the same for the teams that win together (`analyses.teams`).
- ``faction_balance``: the same for factions (``seat{i}_faction``: Nerath's realms).
- ``game_length``: how far mean turns lie outside a band (default: the published game's mean
  ±10%), as a share of the band's centre.
- ``policy_dominance``: how far the best policy's per-seat win rate lies above `max_rate`.
- ``unit_value_parity`` (Nerath, exact, no games): each unit's attack and defence value per gold
  against the footsoldier's, from the exact battle solver: the break-even count m* of
  footsoldiers that `count` units fight to an even battle (`analyses.unit_cost`), value ratio =
  m* · footsoldier cost / (count · unit cost); target: every ratio within 1 ± `band`. Its score
  is max + mean of |log ratio| over units and roles (the mean keeps a gradient when one unit
  cannot be fixed by price: the siege engine's attack is worth 1.41 times its defence).
  ``measure="hits"`` uses expected hits per round per gold instead (dice only, by hand).

`make_objective("seat_balance")`, `make_objective("seat_balance+0.5*game_length")` or
`make_objective({"seat_balance": 1, "game_length": 0.5})` (a weighted sum). `change_cost` is
what the search adds to prefer the smallest change: knobs moved plus how far (share of range).

Conditions (several frames at once): a term may name the game it is measured in, as Rules
fields set on top of the candidate after ``@``: ``alliance_balance+faction_balance@mode=free_for_all``
scores the alliances in the game as given and the realms in free-for-all games, each on its own
frame (``@players=3,hand_size=6`` sets two fields). The search plays every condition's games for
every candidate (common random numbers within each condition), a combined objective is the
weighted sum over its terms, and it is met only when every term's measures are inside their bands;
measures of a condition are labelled ``[mode=free_for_all] karkoth win rate``. `conditions`,
`restrict`, `score_frames` and `apply_condition` are what the search uses.
"""
from __future__ import annotations

import dataclasses
import math
import re
from functools import lru_cache

import numpy as np
import pandas as pd

from . import frames
from .clusters import cluster_ids, mean_interval, rates
from .games import make_rules
from .knobs import set_values
from .teams import teams
from .win_rates import win_rates

COLUMNS = ["objective", "measure", "value", "ci_low", "ci_high", "n", "target_low", "target_high", "within"]


@dataclasses.dataclass(frozen=True)
class Objective:
    """A named objective with its parameters; `needs_games` False for an exact (rules-only) one."""

    name: str
    params: tuple = ()              # (key, value) pairs
    weight: float = 1.0
    condition: tuple = ()           # (field, text) Rules overrides its games are played under (() = as given)

    @property
    def needs_games(self) -> bool:
        return needs_games_name(self.name)

    def param(self, key, default=None):
        return dict(self.params).get(key, default)

    def bind(self, reference) -> Objective:
        """Fix what depends on the published game (the game-length band) from its frame
        (a frame, or {condition: frame} when terms are measured under conditions)."""
        if isinstance(reference, dict):
            reference = reference.get(self.condition)
        if self.name == "game_length" and self.param("low") is None and reference is not None and len(reference):
            mean = float(reference["turns"].mean())
            rel = float(self.param("rel", 0.10))
            extra = (("low", mean * (1 - rel)), ("high", mean * (1 + rel)))
            return dataclasses.replace(self, params=tuple((k, v) for k, v in self.params if k not in ("low", "high"))
                                       + extra)
        return self

    def table(self, df: pd.DataFrame | None = None, rules=None) -> pd.DataFrame:
        table = TABLES[self.name](self, df, rules)
        if self.condition and len(table):
            table["measure"] = f"[{condition_label(self.condition)}] " + table["measure"].astype(str)
        return table

    def score(self, df: pd.DataFrame | None = None, rules=None) -> float:
        return SCORES[self.name](self, df, rules)

    def label(self) -> str:
        params = ",".join(f"{k}={v}" for k, v in self.params)
        return self.name + (f"({params})" if params else "") + (
            f"@{condition_label(self.condition)}" if self.condition else "")


@dataclasses.dataclass(frozen=True)
class Combined:
    """A weighted sum of objectives: score = sum of weight × score; met when every part is met."""

    parts: tuple

    @property
    def name(self) -> str:
        return "+".join((f"{p.weight:g}*" if p.weight != 1 else "") + p.name
                        + (f"@{condition_label(p.condition)}" if p.condition else "") for p in self.parts)

    @property
    def needs_games(self) -> bool:
        return any(p.needs_games for p in self.parts)

    def bind(self, reference) -> Combined:
        return Combined(tuple(p.bind(reference) for p in self.parts))

    def score(self, df=None, rules=None) -> float:
        return float(sum(p.weight * p.score(df, rules) for p in self.parts))

    def table(self, df=None, rules=None) -> pd.DataFrame:
        return pd.concat([p.table(df, rules) for p in self.parts], ignore_index=True)

    def label(self) -> str:
        return " + ".join((f"{p.weight:g} × " if p.weight != 1 else "") + p.label() for p in self.parts)


# --- seat, team and faction balance -------------------------------------------------------

def _won(df: pd.DataFrame):
    keep = frames.decided(df).to_numpy()
    return frames.seat_wins(df)[keep], cluster_ids(df)[keep], keep


def _rows(name: str, labels, table: pd.DataFrame, fair, tol: float) -> pd.DataFrame:
    fair = np.broadcast_to(np.asarray(fair, dtype=float), (len(table),))
    low, high = fair - tol, fair + tol
    return pd.DataFrame({"objective": name, "measure": labels, "value": table["rate"].to_numpy(float),
                         "ci_low": table["ci_low"].to_numpy(float), "ci_high": table["ci_high"].to_numpy(float),
                         "n": table["n"].to_numpy(), "target_low": low, "target_high": high,
                         "within": (table["ci_low"].to_numpy(float) >= low) & (table["ci_high"].to_numpy(float) <= high)},
                        columns=COLUMNS)


def seat_table(obj: Objective, df, rules=None) -> pd.DataFrame:
    won, codes, _ = _won(df)
    if not len(won):
        return pd.DataFrame(columns=COLUMNS)
    fair = won.sum(axis=1).mean() / won.shape[1]
    table = rates(won, np.ones((len(won), 1)), codes)
    return _rows(obj.name, [f"seat {s} win rate" for s in range(won.shape[1])], table, fair,
                 float(obj.param("tolerance", 0.015)))


def seat_score(obj: Objective, df, rules=None) -> float:
    won, _, _ = _won(df)
    if not len(won):
        return 1.0
    fair = won.sum(axis=1).mean() / won.shape[1]
    return float(np.abs(won.mean(axis=0) - fair).max())


def team_table(obj: Objective, df, rules=None) -> pd.DataFrame:
    table = teams(df)
    if not len(table):
        return pd.DataFrame(columns=COLUMNS)
    table = table.rename(columns={"win_rate": "rate", "games": "n"})
    return _rows(obj.name, [f"{t} win rate" for t in table["team"]], table, table["expected"].to_numpy(float),
                 float(obj.param("tolerance", 0.03)))


def team_score(obj: Objective, df, rules=None) -> float:
    table = teams(df)
    if not len(table):
        return 1.0
    return float((table["win_rate"] - table["expected"]).abs().max())


def faction_table(obj: Objective, df, rules=None) -> pd.DataFrame:
    won, codes, keep = _won(df)
    columns = [c for c in df.columns if re.fullmatch(r"seat\d+_faction", c)]
    if not len(won) or not columns:
        return pd.DataFrame(columns=COLUMNS)
    factions = np.column_stack([df[c].astype(str).to_numpy()[keep] for c in columns])
    names = sorted(set(factions.ravel()))
    wins = np.column_stack([(won & (factions == f)).any(axis=1) for f in names])
    trials = np.column_stack([(factions == f).any(axis=1) for f in names]).astype(float)
    table = rates(wins, trials, codes)
    fair = won.sum(axis=1).mean() / won.shape[1]
    return _rows(obj.name, [f"{f} win rate" for f in names], table, fair, float(obj.param("tolerance", 0.05)))


def faction_score(obj: Objective, df, rules=None) -> float:
    table = faction_table(obj, df)
    if not len(table):
        return 1.0
    fair = (table["target_low"] + table["target_high"]) / 2
    return float((table["value"] - fair).abs().max())


# --- game length, policy dominance ----------------------------------------------------------

def length_table(obj: Objective, df, rules=None) -> pd.DataFrame:
    turns = df["turns"].to_numpy(float)
    low, high = mean_interval(turns, cluster_ids(df))
    lo, hi = obj.param("low", math.nan), obj.param("high", math.nan)
    lo, hi = (math.nan if lo is None else lo), (math.nan if hi is None else hi)
    return pd.DataFrame([{"objective": obj.name, "measure": "mean turns", "value": float(turns.mean()),
                          "ci_low": low, "ci_high": high, "n": len(turns), "target_low": lo, "target_high": hi,
                          "within": bool(low >= lo and high <= hi)}], columns=COLUMNS)


def length_score(obj: Objective, df, rules=None) -> float:
    mean = float(df["turns"].mean())
    lo, hi = obj.param("low"), obj.param("high")
    if lo is None or hi is None:
        return 0.0
    centre = (lo + hi) / 2 or 1.0
    return max(0.0, lo - mean, mean - hi) / centre


def policy_table(obj: Objective, df, rules=None) -> pd.DataFrame:
    table = win_rates(df).by_policy
    if not len(table):
        return pd.DataFrame(columns=COLUMNS)
    table = table.rename(columns={"win_rate": "rate", "games": "n"})
    cap = float(obj.param("max_rate", 0.5))
    out = _rows(obj.name, [f"{p} win rate per seat" for p in table["policy"]], table, 0.0, 0.0)
    out["target_low"], out["target_high"] = 0.0, cap
    out["within"] = out["ci_high"] <= cap
    return out


def policy_score(obj: Objective, df, rules=None) -> float:
    table = policy_table(obj, df)
    if not len(table):
        return 0.0
    return float(max(0.0, table["value"].max() - float(obj.param("max_rate", 0.5))))


# --- Nerath: unit value parity (exact) -------------------------------------------------------

REFERENCE = "footsoldier"


def unit_values(rules, measure: str = "break_even", units=None, budget: int = 12) -> pd.DataFrame:
    """Per land/flying unit and role: its value per gold relative to the footsoldier's (exact).

    break_even: `count` = (budget × footsoldier cost) // unit cost units (at least one; one castle)
    fight m* footsoldiers to an even battle (exact solver); value ratio = m* × footsoldier cost /
    (count × unit cost). hits: expected hits per round per gold / the footsoldier's."""
    battle = getattr(rules, "battle", rules)
    table = battle.units
    foot = table[REFERENCE]
    if isinstance(units, str):
        units = (units,)
    names = [u.name for u in table.units if u.domain != "sea" and u.name != REFERENCE] if units is None else \
        [table.canonical(n) for n in units]
    rows = []
    for name in names:
        u = table[name]
        gold = budget * foot.cost
        count = 1 if u.captured else max(1, gold // u.cost) if u.cost else 1
        for role in ("attack", "defence"):
            dice = u.dice("attacker" if role == "attack" else "defender", False)
            if (role == "attack" and u.captured) or dice == 0:
                continue
            if measure == "hits":
                p, pf = u.hit_probability(battle.hit_threshold), foot.hit_probability(battle.hit_threshold)
                ratio = (dice * p / u.cost) / (foot.dice(
                    "attacker" if role == "attack" else "defender", False) * pf / foot.cost)
                m = math.nan
            elif measure == "break_even":
                m = _break_even(_stats(u), _stats(foot), count, role, _battle_key(battle))
                ratio = m * foot.cost / (count * u.cost)
            else:
                raise ValueError(f"unit_value_parity: measure must be 'break_even' or 'hits', got {measure!r}")
            rows.append({"unit": name, "role": role, "cost": u.cost, "count": count, "break_even_count": m,
                         "value_ratio": ratio})
    return pd.DataFrame(rows)


def _stats(unit):
    return dataclasses.replace(unit, cost=1)       # the battle itself never reads prices


def _battle_key(battle):
    return dataclasses.replace(battle, units=type(battle.units)((battle.units[REFERENCE],)))


@lru_cache(maxsize=4096)
def _break_even(unit, foot, count: int, role: str, battle) -> float:
    from . import unit_cost  # noqa: PLC0415 - imports nerathsim (only Nerath objectives need it)
    table = type(battle.units)((foot,) if unit.name == foot.name else (foot, unit))
    rules = dataclasses.replace(battle, units=table)
    return float(unit_cost.break_even_count(unit.name, count, role, rules))


def parity_table(obj: Objective, df=None, rules=None) -> pd.DataFrame:
    band = float(obj.param("band", 0.10))
    values = unit_values(rules, obj.param("measure", "break_even"), obj.param("units"))
    ratio = values["value_ratio"].to_numpy(float)
    return pd.DataFrame({"objective": obj.name,
                         "measure": [f"{u} {r} value per gold / footsoldier's"
                                     for u, r in zip(values["unit"], values["role"])],
                         "value": ratio, "ci_low": ratio, "ci_high": ratio, "n": 0,
                         "target_low": 1 - band, "target_high": 1 + band,
                         "within": (ratio >= 1 - band - 1e-12) & (ratio <= 1 + band + 1e-12)}, columns=COLUMNS)


def parity_score(obj: Objective, df=None, rules=None) -> float:
    values = unit_values(rules, obj.param("measure", "break_even"), obj.param("units"))
    if not len(values):
        return 0.0
    dev = np.abs(np.log(values["value_ratio"].to_numpy(float)))
    return float(dev.max() + dev.mean())     # the worst unit, plus the rest: a unit no price can fix leaves a gradient


def price_limits(rules, band: float = 0.10, units=None, budget: int = 12, max_count: int | None = None
                 ) -> pd.DataFrame:
    """Units whose attack AND defence value per gold no price can put within 1 ± `band` of the
    footsoldier's (exact; break-even measure).

    A price scales both roles' value per gold alike, so both fit the band only if the unit's
    attack value per unit (break-even footsoldiers per unit, m*/count) is at most (1 + band) /
    (1 − band) times its defence value, or vice versa. A unit whose two roles differ by more at its
    present army size is checked at every army size 1..`max_count` (default `budget`: every price
    from the footsoldier's up); it is listed when the spread exceeds the allowance at
    all of them, with the price (in footsoldier prices) that balances the two misses and the
    ratios that price gives: the best any price can do. Empty when every unit can be priced."""
    battle = getattr(rules, "battle", rules)
    table = battle.units
    foot = table[REFERENCE]
    allowed = (1 + band) / (1 - band)
    max_count = budget if max_count is None else max_count
    names = [u.name for u in table.units if u.domain != "sea" and u.name != REFERENCE] if units is None else \
        [table.canonical(n) for n in ((units,) if isinstance(units, str) else units)]
    rows = []
    for name in names:
        u = table[name]
        if u.captured or not u.dice("attacker", False) or not u.dice("defender", False):
            continue                                  # one role only: a price can always fit it
        count = max(1, (budget * foot.cost) // u.cost) if u.cost else 1

        def spread(n: int) -> tuple[float, float, float]:
            a = _break_even(_stats(u), _stats(foot), n, "attack", _battle_key(battle)) / n
            d = _break_even(_stats(u), _stats(foot), n, "defence", _battle_key(battle)) / n
            return max(a, d) / min(a, d), a, d

        if spread(count)[0] <= allowed:
            continue
        best = min((spread(n) + (n,) for n in range(1, max_count + 1)), key=lambda t: t[0])
        if best[0] <= allowed:
            continue
        ratio, a, d, n = best
        price = math.sqrt(a * d)                      # both misses equal: a / price = price / d
        rows.append({"unit": name, "attack_per_unit": a, "defence_per_unit": d, "spread": ratio,
                     "allowed": allowed, "counts_checked": f"1..{max_count}", "closest_count": n,
                     "best_price": price, "best_attack_ratio": a / price, "best_defence_ratio": d / price})
    return pd.DataFrame(rows, columns=["unit", "attack_per_unit", "defence_per_unit", "spread", "allowed",
                                       "counts_checked", "closest_count", "best_price", "best_attack_ratio",
                                       "best_defence_ratio"])


def price_limit_lines(limits: pd.DataFrame, band: float = 0.10) -> list[str]:
    """One line per unit of `price_limits`: which unit, why no price meets the band, the best achievable."""
    out = []
    for r in limits.itertuples(index=False):
        out.append(f"{r.unit}: no price puts both its attack and its defence value per gold within ±{band:.0%} of "
                   f"the footsoldier's: per unit its attack is worth {r.attack_per_unit:.2f} footsoldiers and its "
                   f"defence {r.defence_per_unit:.2f}, a spread of {r.spread:.2f} (the closest at any army size "
                   f"{r.counts_checked}), and ±{band:.0%} on both allows at most {r.allowed:.2f}; best achievable: "
                   f"price {r.best_price:.2f} × the footsoldier's gives attack {r.best_attack_ratio:.2f} and "
                   f"defence {r.best_defence_ratio:.2f} of the footsoldier's value per gold")
    return out


STARTS_STOP = 1.5      # parity_starts: stop lowering a unit's price once every role is worth this × its gold


def parity_starts(module, rules, knobs, obj) -> list[dict]:
    """Settings worth trying first in an exact `unit_value_parity` search whose knobs are all unit
    prices: one per footsoldier price the knobs allow, each other unit at its best price for it.

    A unit's value per gold depends only on its own price and the footsoldier's (its army size is
    budget × footsoldier cost // its cost, so the value depends on the ratio of the two prices, not
    on their scale), so for a given footsoldier price every unit's best price is found on its own
    (least |log ratio| summed over its roles, ties to the published price), trying prices from the
    dearest down until every role is worth more than `STARTS_STOP` × its gold (a cheaper price
    only raises that, and buys an army the exact solver takes long over). A sampler moving one
    price at a time never finds a finer price scale (footsoldier 3 needs every other price
    rescaled at once); these settings put each scale in the study. [] for any other search."""
    parts = parts_of(obj)
    if len(parts) != 1 or parts[0].name != "unit_value_parity":
        return []
    units = {}
    for k in knobs:
        m = re.fullmatch(r"battle\.units\.([a-z_]+)\.cost", k.path)
        if m is None or k.kind != "int":
            return []
        units[k.path] = m.group(1)
    part = parts[0]
    wanted = part.param("units")
    wanted = None if wanted is None else {wanted} if isinstance(wanted, str) else set(wanted)
    foot = next((k for k in knobs if units[k.path] == REFERENCE), None)
    starts = []
    for f in (foot.values() if foot is not None else [None]):
        values = {} if foot is None else {foot.path: f}
        for k in knobs:
            if k is foot or (wanted is not None and units[k.path] not in wanted):
                continue
            best = None
            for c in sorted(k.values(), reverse=True):     # dearest first: a cheaper price buys a larger army
                try:
                    v = unit_values(set_values(module, rules, {**values, k.path: c}), part.param("measure", "break_even"),
                                    units=units[k.path])
                except ValueError:             # e.g. an army too large for the exact solver
                    break
                if not len(v):
                    break
                ratio = v["value_ratio"].to_numpy(float)
                key = (float(np.abs(np.log(ratio)).sum()), abs(c - k.published))
                best = min(best, (key, c)) if best is not None else (key, c)
                if ratio.min() > STARTS_STOP:  # every role already worth far more than its gold: cheaper is worse
                    break
            values[k.path] = k.published if best is None else best[1]
        starts.append({k.path: values.get(k.path, k.published) for k in knobs})
    return starts


TABLES = {"seat_balance": seat_table, "alliance_balance": team_table, "faction_balance": faction_table,
          "game_length": length_table, "policy_dominance": policy_table, "unit_value_parity": parity_table}
SCORES = {"seat_balance": seat_score, "alliance_balance": team_score, "faction_balance": faction_score,
          "game_length": length_score, "policy_dominance": policy_score, "unit_value_parity": parity_score}
OBJECTIVES = tuple(TABLES)


def make_objective(spec) -> Objective | Combined:
    """An objective from a name ('seat_balance'), 'name(key=value,...)', a weighted sum
    ('seat_balance+0.5*game_length'), a dict {name: weight} or an Objective."""
    if isinstance(spec, (Objective, Combined)):
        return spec
    if isinstance(spec, dict):
        parts = [dataclasses.replace(make_objective(k), weight=float(w)) for k, w in spec.items()]
        return parts[0] if len(parts) == 1 and parts[0].weight == 1 else Combined(tuple(parts))
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"objective must be a name ({', '.join(OBJECTIVES)}), got {spec!r}")
    terms = [t.strip() for t in re.split(r"\+(?![^(]*\))", spec) if t.strip()]
    parts = [_term(t) for t in terms]
    return parts[0] if len(parts) == 1 and parts[0].weight == 1 else Combined(tuple(parts))


def _term(text: str) -> Objective:
    m = re.fullmatch(r"(?:([0-9.eE+-]+)\s*\*\s*)?([a-z_]+)\s*(?:\((.*?)\))?\s*(?:@(.*))?", text)
    if not m or m.group(2) not in TABLES:
        raise ValueError(f"unknown objective {text!r}; known: {', '.join(OBJECTIVES)} "
                         f"(weighted sums: 'seat_balance+0.5*game_length'; conditions: 'faction_balance@mode=free_for_all')")
    weight = float(m.group(1)) if m.group(1) else 1.0
    params = []
    for item in (p.strip() for p in (m.group(3) or "").split(",") if p.strip()):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"objective {text!r}: parameters are key=value, got {item!r}")
        params.append((key.strip(), _value(value.strip())))
    condition = []
    if m.group(4) is not None:
        for item in (p.strip() for p in m.group(4).split(",")):
            key, sep, value = item.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise ValueError(f"objective {text!r}: a condition is FIELD=VALUE[,FIELD=VALUE] after '@', got {item!r}")
            condition.append((key.strip(), value.strip()))
    if not needs_games_name(m.group(2)) and condition:
        raise ValueError(f"objective {text!r}: {m.group(2)} plays no games, so it takes no condition")
    if not math.isfinite(weight) or weight <= 0:
        raise ValueError(f"objective {text!r}: the weight must be a positive number, got {m.group(1)}")
    _check_params(text, m.group(2), params)
    return Objective(m.group(2), tuple(params), weight, tuple(condition))


#: objective -> {parameter: (check, what it must be)}
_SHARE = (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 1, "a number in (0, 1]")
_POSITIVE = (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < math.inf,
             "a positive number")
PARAMETERS = {
    "seat_balance": {"tolerance": _SHARE},
    "alliance_balance": {"tolerance": _SHARE},
    "faction_balance": {"tolerance": _SHARE},
    "game_length": {"rel": _SHARE, "low": _POSITIVE, "high": _POSITIVE},
    "policy_dominance": {"max_rate": _SHARE},
    "unit_value_parity": {"band": _SHARE, "measure": (lambda v: isinstance(v, str), "a measure name"),
                          "units": (lambda v: isinstance(v, (str, tuple, list)), "unit names")},
}


def _check_params(text: str, name: str, params: list) -> None:
    """Every parameter of objective `name` is one it reads, with a value it can use."""
    allowed = PARAMETERS.get(name, {})
    for key, value in params:
        if key not in allowed:
            raise ValueError(f"objective {text!r}: {name} has no parameter {key!r}"
                             f"{'; parameters: ' + ', '.join(allowed) if allowed else ' (it takes none)'}")
        check, what = allowed[key]
        if not check(value):
            raise ValueError(f"objective {text!r}: {key} must be {what}, got {value!r}")


def check_objective_game(obj, module) -> None:
    """ValueError when an objective of `obj` cannot be measured on `module` (a rules-only objective needs
    the rules it reads: unit_value_parity reads Rules.battle, which only Conquest of Nerath has)."""
    for part in parts_of(obj):
        if part.name == "unit_value_parity" and not hasattr(module.Rules(), "battle"):
            raise ValueError(f"objective unit_value_parity measures unit prices (Rules.battle); "
                             f"{module.__name__} has no battle rules")


def needs_games_name(name: str) -> bool:
    return name != "unit_value_parity"


# --- conditions: terms measured on different frames ----------------------------------------

def condition_label(condition: tuple) -> str:
    """'mode=free_for_all' ('' for the game as given)."""
    return ",".join(f"{k}={v}" for k, v in condition)


def parts_of(obj) -> tuple:
    return tuple(getattr(obj, "parts", (obj,)))


def conditions(obj) -> list[tuple]:
    """The distinct conditions of an objective's terms, in order ([()] for a plain objective)."""
    return list(dict.fromkeys(p.condition for p in parts_of(obj)))


def restrict(obj, condition: tuple):
    """The terms of `obj` measured under `condition` (an Objective, a Combined, or None)."""
    parts = tuple(p for p in parts_of(obj) if p.condition == condition)
    if not parts:
        return None
    return parts[0] if len(parts) == 1 and parts[0].weight == 1 else Combined(parts)


def apply_condition(module, rules, condition: tuple):
    """`rules` with the condition's fields set (values converted to each field's type); a bad
    field or value raises ValueError naming it."""
    if not condition:
        return rules
    return make_rules(module, rules, **dict(condition))


def score_frames(obj, frames: dict, rules: dict) -> float:
    """The objective's score when each term is scored on its condition's frame
    (frames, rules: {condition: frame / Rules}); a weighted sum over the terms."""
    if isinstance(obj, Combined):
        return float(sum(p.weight * p.score(frames[p.condition], rules[p.condition]) for p in obj.parts))
    return obj.score(frames[obj.condition], rules[obj.condition])


def _value(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            continue
    if "|" in text:
        return tuple(t for t in text.split("|") if t)
    return text


def side_effect_objectives(game_module, main) -> list:
    """The other objectives worth watching for this game (those its results can measure), under
    each condition the main objective is measured in."""
    taken = {(p.name, p.condition) for p in parts_of(main)}
    out = []
    for condition in conditions(main):
        for name in ("seat_balance", "alliance_balance", "faction_balance", "game_length"):
            if (name, condition) not in taken:
                out.append(Objective(name, condition=condition))
    return out


def change_cost(knobs, values: dict) -> float:
    """Knobs moved plus how far (each a share of its range): 0 for the published game."""
    cost = 0.0
    for k in knobs:
        d = k.distance(values.get(k.path, k.published))
        if d > 0:
            cost += 1.0 + d
    return cost
