"""`battle_odds`: the battle calculator (win odds, survivors, gold swing), exact or sampled.

Outputs follow the calculators war-game players already use (TripleA's battle calculator,
aacalc): attacker / defender win and draw chances, average units left per side, each side's
gold (TUV) lost and the swing, average rounds; plus the full distributions of rounds and of
survivors (`to_frame`). Sampled results carry 95% intervals (Wilson for chances, normal for
means).
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from . import exact, monte_carlo
from .army import start_battle
from .casualties import CasualtyPlan, resolve_casualties
from .outcomes import ATTACKER_WINS, DEFENDER_HOLDS, DRAW, RETREAT, EndTable
from .rules import RULES_VERSION, BattleRules
from .steps import Retreat
from .units import format_army

METHODS = ("exact", "monte_carlo")
OUTCOME_COLUMNS = ("attacker_wins", "defender_wins", "draw")
_OUTCOME_LABEL = {ATTACKER_WINS: "attacker_wins", DEFENDER_HOLDS: "defender_wins", DRAW: "draw",
                  RETREAT: "attacker_retreats"}
FRAME_KINDS = ("survivors", "rounds", "expected", "summary")


@dataclass(frozen=True, eq=False)
class BattleOdds:
    """The calculator's answer for one battle. `defender_wins` includes `attacker_retreats`;
    `draw` = both sides destroyed. For method='exact', attacker_wins + defender_wins + draw +
    pruned = 1; `intervals` is None. For 'monte_carlo', `intervals` maps each headline number
    to its 95% interval."""

    attacker: dict
    defender: dict
    at_sea: bool
    method: str
    attacker_wins: float
    defender_wins: float
    draw: float
    attacker_retreats: float
    expected_survivors: dict        # {'overall'|'attacker_wins'|'defender_wins'|'draw': {'attacker': {...}, 'defender': {...}}}
    attacker_gold_lost: float
    defender_gold_lost: float
    tuv_swing: float                # defender's gold lost - attacker's gold lost (> 0 favours the attacker)
    expected_rounds: float
    rounds: tuple                   # rounds[r] = P(the battle lasts r rounds)
    ends: EndTable = field(repr=False)
    n: int | None = None
    seed: int | None = None
    pruned: float | None = None
    intervals: dict | None = None
    retreat: str = "never"
    casualty_orders: tuple = ()     # (attacker's, defender's) resolved order, as text
    rules_version: str = RULES_VERSION

    # ------------------------------------------------------------------ frames
    def to_frame(self, kind: str = "survivors") -> pd.DataFrame:
        """'survivors': one row per way the battle can end (outcome, survivors per side, probability);
        'rounds': P(rounds = r); 'expected': average survivors per side and unit, overall and per
        outcome; 'summary': the headline numbers in one row."""
        if kind == "survivors":
            return self._survivors_frame()
        if kind == "rounds":
            r = np.asarray(self.rounds)
            frame = pd.DataFrame({"rounds": np.arange(len(r)), "probability": r})
            frame = frame[frame["rounds"] > 0].reset_index(drop=True)
            frame["cumulative"] = frame["probability"].cumsum()
            return frame
        if kind == "expected":
            return self._expected_frame()
        if kind == "summary":
            return self._summary_frame()
        raise ValueError(f"kind must be one of {', '.join(FRAME_KINDS)}, got {kind!r}")

    def _survivors_frame(self) -> pd.DataFrame:
        t = self.ends
        units = list(t.units)
        data = {"outcome": [_OUTCOME_LABEL[int(o)] for o in t.outcome]}
        for side, arr, start in (("attacker", t.attacker, t.attacker_start), ("defender", t.defender, t.defender_start)):
            for j, u in enumerate(units):
                if start[j]:
                    data[f"{side}_{u}"] = arr[:, j]
        for j, u in enumerate(units):
            if t.captured[:, j].any():
                data[f"captured_{u}"] = t.captured[:, j]
        data["probability"] = t.prob
        if t.counts is not None:
            data["count"] = t.counts
        return pd.DataFrame(data)

    def _expected_frame(self) -> pd.DataFrame:
        rows, index = [], []
        for side in ("attacker", "defender"):
            for unit in self.expected_survivors["overall"][side]:
                index.append((side, unit))
                rows.append([self.expected_survivors[k][side][unit] for k in ("overall",) + OUTCOME_COLUMNS])
        return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["side", "unit"]),
                            columns=["overall", *OUTCOME_COLUMNS])

    def _summary_frame(self) -> pd.DataFrame:
        row = {"attacker": format_army(self.attacker), "defender": format_army(self.defender),
               "at_sea": self.at_sea, "method": self.method}
        for k in ("attacker_wins", "defender_wins", "draw", "attacker_retreats", "attacker_gold_lost",
                  "defender_gold_lost", "tuv_swing", "expected_rounds"):
            row[k] = getattr(self, k)
            if self.intervals and k in self.intervals:
                row[f"{k}_low"], row[f"{k}_high"] = self.intervals[k]
        row.update(n=self.n, seed=self.seed, pruned=self.pruned, retreat=self.retreat,
                   rules_version=self.rules_version)
        return pd.DataFrame([row])

    # ------------------------------------------------------------------ text
    def _pct(self, key: str) -> str:
        text = f"{100 * getattr(self, key):6.2f}%"
        if self.intervals and key in self.intervals:
            lo, hi = self.intervals[key]
            text += f"  [{100 * lo:.2f}, {100 * hi:.2f}]"
        return text

    def _num(self, key: str) -> str:
        text = f"{getattr(self, key):+.3f}" if key == "tuv_swing" else f"{getattr(self, key):.3f}"
        if self.intervals and key in self.intervals:
            lo, hi = self.intervals[key]
            text += f"  [{lo:.3f}, {hi:.3f}]"
        return text

    def _method_text(self) -> str:
        if self.method == "exact":
            pruned = "< 1e-15" if self.pruned < 1e-15 else f"{self.pruned:.1e}"   # below: float rounding
            return f"exact (pruned mass {pruned})"
        kernel = " (numba kernel)" if self.ends.engine == "kernel" else ""
        return f"Monte Carlo{kernel}, {self.n:,} battles, seed {self.seed}; [95% intervals]"

    def __str__(self) -> str:
        where = "sea battle" if self.at_sea else "land battle"
        cost = _army_cost
        lines = [
            f"Conquest of Nerath {where} — {self._method_text()}",
            f"  Attacker: {format_army(self.attacker)}  ({cost(self.ends, 'attacker')} gold)",
            f"  Defender: {format_army(self.defender)}  ({cost(self.ends, 'defender')} gold)",
            f"  Retreat: {self.retreat}",
            "",
            f"  {'Attacker wins:':<24}{self._pct('attacker_wins')}",
            f"  {'Defender wins:':<24}{self._pct('defender_wins')}"
            + (f"   (of which attacker retreats {100 * self.attacker_retreats:.2f}%)" if self.attacker_retreats else ""),
            f"  {'Draw (both destroyed):':<24}{self._pct('draw')}",
            "",
            f"  {'Average battle rounds:':<24}{self._num('expected_rounds')}",
            f"  {'Attacker gold lost:':<24}{self._num('attacker_gold_lost')}",
            f"  {'Defender gold lost:':<24}{self._num('defender_gold_lost')}",
            f"  TUV swing (defender loss - attacker loss): {self._num('tuv_swing')}",
            "",
            "  Average units left      overall  if att wins  if def wins   if draw",
        ]
        for side in ("attacker", "defender"):
            for unit in self.expected_survivors["overall"][side]:
                vals = [self.expected_survivors[k][side][unit] for k in ("overall",) + OUTCOME_COLUMNS]
                cells = "".join(f"{'-' if math.isnan(v) else f'{v:.2f}':>12}" for v in vals)
                lines.append(f"  {side[:3]} {unit:<19}{cells}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"BattleOdds({format_army(self.attacker)!r} vs {format_army(self.defender)!r}, at_sea={self.at_sea}, "
                f"method={self.method!r}, attacker_wins={self.attacker_wins:.4f}, defender_wins={self.defender_wins:.4f}, "
                f"draw={self.draw:.4f}, tuv_swing={self.tuv_swing:+.3f})")

    def _repr_html_(self) -> str:
        head = html.escape(f"{format_army(self.attacker)} vs {format_army(self.defender)}"
                           f" ({'sea' if self.at_sea else 'land'}; {self._method_text()})")
        rows = [("Attacker wins", self._pct("attacker_wins")), ("Defender wins", self._pct("defender_wins")),
                ("of which attacker retreats", f"{100 * self.attacker_retreats:.2f}%"),
                ("Draw (both destroyed)", self._pct("draw")), ("Average rounds", self._num("expected_rounds")),
                ("Attacker gold lost", self._num("attacker_gold_lost")),
                ("Defender gold lost", self._num("defender_gold_lost")), ("TUV swing", self._num("tuv_swing"))]
        body = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                       for k, v in rows)
        expected = self._expected_frame().to_html(float_format=lambda v: f"{v:.3f}", na_rep="–")
        return (f"<div><p><b>{head}</b></p><table>{body}</table>"
                f"<p>Average units left</p>{expected}</div>")


def _army_cost(t: EndTable, side: str) -> int:
    start = t.attacker_start if side == "attacker" else t.defender_start
    return int(start @ t.costs)


# ---------------------------------------------------------------------- computing the odds
def odds_from_table(t: EndTable, attacker: dict, defender: dict, at_sea: bool, method: str, retreat: Retreat,
                    orders: tuple, seed: int | None = None) -> BattleOdds:
    """Every BattleOdds number from an end-state table."""
    p = t.prob
    total = p.sum()
    att_win = float(p[t.outcome == ATTACKER_WINS].sum())
    retreats = float(p[t.outcome == RETREAT].sum())
    def_win = float(p[(t.outcome == DEFENDER_HOLDS) | (t.outcome == RETREAT)].sum())
    draw = float(p[t.outcome == DRAW].sum())
    gold_a = (t.attacker_start - t.attacker) @ t.costs
    gold_d = (t.defender_start - t.defender) @ t.costs
    swing = gold_d - gold_a
    w = p / total
    groups = {"overall": np.ones(len(p), dtype=bool), "attacker_wins": t.outcome == ATTACKER_WINS,
              "defender_wins": (t.outcome == DEFENDER_HOLDS) | (t.outcome == RETREAT), "draw": t.outcome == DRAW}
    names = t.units
    expected = {}
    for label, mask in groups.items():
        mass = p[mask].sum()
        expected[label] = {}
        for side, arr, start in (("attacker", t.attacker, t.attacker_start), ("defender", t.defender, t.defender_start)):
            expected[label][side] = {
                names[j]: (float(p[mask] @ arr[mask, j] / mass) if mass > 0 else math.nan)
                for j in range(len(names)) if start[j]
            }
    intervals = None
    if t.n is not None:
        intervals = sampled_intervals(t, {"attacker_wins": att_win, "defender_wins": def_win, "draw": draw,
                                          "attacker_retreats": retreats},
                                      {"attacker_gold_lost": gold_a, "defender_gold_lost": gold_d, "tuv_swing": swing})
    return BattleOdds(
        attacker=dict(attacker), defender=dict(defender), at_sea=at_sea, method=method,
        attacker_wins=att_win, defender_wins=def_win, draw=draw, attacker_retreats=retreats,
        expected_survivors=expected,
        attacker_gold_lost=float(w @ gold_a), defender_gold_lost=float(w @ gold_d), tuv_swing=float(w @ swing),
        expected_rounds=float(t.expected_rounds), rounds=tuple(float(x) for x in t.rounds), ends=t,
        n=t.n, seed=seed if t.n is not None else None, pruned=None if t.n is not None else float(t.pruned),
        intervals=intervals, retreat=str(retreat), casualty_orders=orders)


def sampled_intervals(t: EndTable, chances: dict, values: dict, confidence: float = 0.95) -> dict:
    """95% intervals: Wilson (scipy binomtest) for chances, mean ± z·sd/√n for per-battle values."""
    n = t.n
    out = {}
    for key, prob in chances.items():
        k = int(round(prob * n))
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
        out[key] = (float(ci.low), float(ci.high))
    z = stats.norm.ppf(0.5 + confidence / 2)
    w = t.counts / n
    for key, x in values.items():
        mean = w @ x
        sd = math.sqrt(max(0.0, w @ (x - mean) ** 2))
        half = z * sd / math.sqrt(n)
        out[key] = (float(mean - half), float(mean + half))
    r = np.asarray(t.rounds)
    k = np.arange(len(r))
    mean = r @ k
    half = z * math.sqrt(max(0.0, r @ (k - mean) ** 2)) / math.sqrt(n)
    out["expected_rounds"] = (float(mean - half), float(mean + half))
    return out


def battle_odds(attacker, defender, at_sea: bool = False, method: str = "exact", n: int = 100_000, seed: int = 0,
                casualty_order=None, retreat=None, rules: BattleRules | None = None,
                prune: float = exact.DEFAULT_PRUNE, sampler: str = "alias", engine: str = "python") -> BattleOdds:
    """Odds of one battle. Armies: ``{"footsoldier": 6, "siege_engine": 2}`` or ``"6 footsoldier, 2 siege_engine"``.

    method: 'exact' (probability propagation) or 'monte_carlo' (n battles from `seed`).
    casualty_order: None (the documented default), a list of unit names for both sides,
      {'attacker': [...], 'defender': [...]}, or (exact only) a callable(army, hits, situation).
    retreat: None (never), a `Retreat`, or text 'after:N', 'below:P', 'units:K' (comma-combined).
    rules: a `BattleRules` (e.g. with another unit table); default = the published game.
    engine (monte_carlo): 'python' (the numpy engine, the reference and the default), 'kernel' (numba,
      ≥ 10 M battles/s, its own random stream: same distribution, other battles for the same seed) or
      'auto' (the kernel when numba imports); `odds.ends.engine` says which ran.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if engine not in monte_carlo.ENGINES:
        raise ValueError(f"engine must be one of {', '.join(monte_carlo.ENGINES)}, got {engine!r}")
    rules = rules if rules is not None else BattleRules()
    if not isinstance(rules, BattleRules):
        raise ValueError(f"rules must be a BattleRules, got {rules!r}")
    state = start_battle(attacker, defender, at_sea, rules)
    plans = resolve_casualties(casualty_order, state, rules)
    rule = Retreat.parse(retreat)
    orders = tuple(", ".join(p.hits) if isinstance(p, CasualtyPlan) else repr(p) for p in plans)
    if method == "exact":
        if isinstance(prune, bool) or not isinstance(prune, (int, float)) or not 0 <= prune < 1e-3:
            raise ValueError(f"prune must be a probability threshold in [0, 0.001), got {prune!r}")
        table = exact.solve(state, rules, plans, rule, prune)
        used_seed = None
    else:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a positive integer number of battles, got {n!r}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        if sampler not in monte_carlo.SAMPLERS:
            raise ValueError(f"sampler must be one of {', '.join(monte_carlo.SAMPLERS)}, got {sampler!r}")
        monte_carlo.resolve_engine(engine, sampler)
        for role, plan in zip(("attacker", "defender"), plans):
            if not isinstance(plan, CasualtyPlan):
                raise ValueError(f"method='monte_carlo' needs a casualty order (list of unit names) for the {role}, "
                                 f"not a callable; use method='exact'")
        table = monte_carlo.simulate(state, rules, plans, rule, int(n), int(seed), sampler, engine=engine)
        used_seed = int(seed)
    in_order = [lambda army: {u: army.counts()[u] for u in rules.units.names if army.count(u)}][0]
    return odds_from_table(table, in_order(state.attacker), in_order(state.defender), state.at_sea, method, rule,
                           orders, used_seed)
