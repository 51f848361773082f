"""Assumption sensitivity: do the headline figures hold under each other reading of the rules?

A game module lists the readings it chose where its rule text is silent or contradicts itself as
``DECISIONS`` (`dreamsim.DECISIONS`, `nightsim.DECISIONS`, `nerathsim.DECISIONS`): each names a `Rules` field, the
default reading and the alternatives. `sensitivity` plays the default and every alternative on
the SAME seeds (common random numbers: game i has the same deal in every arm), so each game, or
under ``seat_order="rotate"`` each deal, is one paired unit, and measures for every alternative:

- each seat's win rate (over decided games), the mean game length (turns), the timeout share
  (over all games) and, for a game that records ``horror_won`` (dreamsim), the Horror's win share
  (over decided games);
- its value under the alternative, the paired difference from the default with a 95% t interval
  and a p-value with the deal as the unit (`clusters.ratio_difference`: a ratio over decided
  games is linearised per deal, a plain mean is the paired t test), and the p-value adjusted by
  Holm across the whole table (every alternative and every quantity: one family).

A decision with ``requires`` (nightsim's seal decisions: ``seals=True``) is compared on rules
with those fields set in both arms; the default arm of each distinct baseline is played once.
Both arms of a comparison always use the same engine (``engine="auto"`` takes the batch kernel
only when it plays the baseline and every alternative of that baseline), so a comparison never
rests on the claim that the two engines play the same games. A baseline some arm of which the
kernel refuses is played by Python, and says so: ``attrs["baselines"][i]["engine_fallback"]``
lists each refused arm with the kernel's reason.
"""
from __future__ import annotations

import dataclasses
import json
import math
import numbers
from pathlib import Path

import numpy as np
import pandas as pd

from . import frames, limits, safe_io
from .clusters import holm, ratio_difference
from .games import load_game, make_rules, policy_repr
from .metadata import rules_dict
from .options import SENSITIVITY_SEAT_ORDERS as SEAT_ORDERS
from .runner import ENGINES, engine_choice, positive_int, prepare_run, simulate

TIMEOUTS = "timeouts"
TURNS = "turns"
HORROR = "Horror win share"
COLUMNS = ["decision", "field", "alternative", "quantity", "games", "deals", "default", "value", "diff",
           "ci_low", "ci_high", "p_value", "p_holm", "design_effect", "engine"]


def seat_quantity(seat: int) -> str:
    """The name of seat `seat`'s (0-based) win rate, numbered from 1 for people."""
    return f"seat {seat + 1} win rate"


def team_quantity(seats: str) -> str:
    """The quantity that measures a team ('0+2': its seats, as `analyses.teams` writes them): its first
    seat's win rate (partners win together)."""
    return seat_quantity(int(str(seats).split("+")[0]))


def is_rate(quantity: str) -> bool:
    """True for a share (shown in points), False for a count (turns)."""
    return quantity != TURNS


def choose_decisions(module, decisions=None) -> list:
    """The decisions to vary: every one of ``module.DECISIONS`` (None), those ids (a list or a
    comma-separated string), or decision objects (anything with id, field and alternatives)."""
    registry = tuple(getattr(module, "DECISIONS", ()) or ())
    by_id = {d.id: d for d in registry}
    if decisions is None:
        if not registry:
            raise ValueError(f"game {module.__name__!r} lists no DECISIONS (rule readings to vary)")
        return list(registry)
    if isinstance(decisions, str):
        decisions = [x.strip() for x in decisions.split(",") if x.strip()]
    decisions = list(decisions)
    if not decisions:
        raise ValueError("decisions: give at least one decision id")
    ids = [d for d in decisions if isinstance(d, str)]
    unknown = [d for d in ids if d not in by_id]
    if unknown:
        known = ", ".join(by_id) if by_id else f"none: {module.__name__} lists no DECISIONS"
        raise ValueError(f"unknown decision id(s) {', '.join(unknown)}; known: {known}")
    out = [by_id[d] if isinstance(d, str) else d for d in decisions]
    for d in out:
        if not all(hasattr(d, name) for name in ("id", "field", "alternatives")):
            raise ValueError(f"decisions: {d!r} is neither a decision id nor a decision (id, field, alternatives)")
    seen = [d.id for d in out]
    twice = sorted({x for x in seen if seen.count(x) > 1})
    if twice:
        raise ValueError(f"decisions: {', '.join(twice)} given twice")
    return out


def _baseline(decision, rules):
    method = getattr(decision, "baseline", None)
    return method(rules) if callable(method) else rules


def _variants(decision, rules) -> list:
    method = getattr(decision, "variants", None)
    if callable(method):
        return list(method(rules))
    base = _baseline(decision, rules)
    if not any(f.name == decision.field for f in dataclasses.fields(base)):
        raise ValueError(f"decision {decision.id}: Rules has no field {decision.field!r}")
    return [dataclasses.replace(base, **{decision.field: alt}) for alt in decision.alternatives]


def _key(rules) -> str:
    return json.dumps(rules_dict(rules), sort_keys=True)


def per_game(df: pd.DataFrame, players: int) -> dict:
    """{quantity: (numerator, denominator)} per game: what each headline figure averages."""
    decided = frames.decided(df).to_numpy()
    won = frames.seat_wins(df) & decided[:, None]
    out = {seat_quantity(s): (won[:, s].astype(float), decided.astype(float)) for s in range(players)}
    out[TURNS] = (df["turns"].to_numpy(dtype=float), np.ones(len(df)))
    out[TIMEOUTS] = (df["timed_out"].to_numpy(dtype=float), np.ones(len(df)))
    if "horror_won" in df.columns:
        horror = df["horror_won"].fillna(False).to_numpy(dtype=bool) & decided
        out[HORROR] = (horror.astype(float), decided.astype(float))
    return out


def _alternative_text(value) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def sensitivity(game, decisions=None, n_games: int = 2000, policies=None, seed: int = 0, n_jobs: int = 1,
                engine: str = "auto", rules=None, seat_order: str = "fixed", confidence: float = 0.95,
                progress: bool = False) -> pd.DataFrame:
    """Every alternative reading against the default on the same seeds (see the module docstring).

    game: a game name or module; decisions: None (all of the game's DECISIONS), ids, or decision
    objects; rules: the published game (None) or fields to change in every arm. Under 'rotate' the
    games are rounded up to whole deals. Returns one row per (decision, alternative, quantity):
    decision, field, alternative, quantity, games, deals, default, value, diff, ci_low, ci_high,
    p_value, p_holm, design_effect, engine. Rates are fractions, turns are turns. `attrs` holds the
    game, policies, seed, seat order, games per arm, confidence and the default arms' figures.
    """
    module = load_game(game)
    chosen = choose_decisions(module, decisions)
    n_games = positive_int(n_games, "n_games")
    if seat_order not in SEAT_ORDERS:
        raise ValueError(f"seat_order must be one of {', '.join(SEAT_ORDERS)} (paired arms), got {seat_order!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    base_rules = make_rules(module, rules)
    # every arm checked (rules valid, policies known, engine possible) before any game is played
    groups: dict[str, dict] = {}
    for d in chosen:
        baseline = _baseline(d, base_rules)
        arms = _variants(d, base_rules)
        if len(arms) != len(d.alternatives):
            raise ValueError(f"decision {d.id}: {len(arms)} variants for {len(d.alternatives)} alternatives")
        group = groups.setdefault(_key(baseline), {"rules": baseline, "arms": []})
        group["arms"].extend((d, alt, r) for alt, r in zip(d.alternatives, arms))
    for group in groups.values():
        _, spec = prepare_run(module, group["rules"], policies, seed, seat_order, "python")
        lineup = spec.lineup
        choices = [engine_choice(module, r, lineup, engine) for r in [group["rules"]] + [a[2] for a in group["arms"]]]
        group["engine"] = "kernel" if all(e == "kernel" for e, _ in choices) else "python"
        # loud, not silent: each arm the kernel refused, with its reason (one refused arm puts the group on Python)
        labels = ["the baseline"] + [f"{d.id}={_alternative_text(alt)}" for d, alt, _ in group["arms"]]
        group["fallback"] = [f"{label}: {why}" for label, (_, why) in zip(labels, choices) if why]
        group["games"] = math.ceil(n_games / spec.rotations) * spec.rotations
        group["players"] = group["rules"].players

    run = dict(policies=policies, seed=seed, n_jobs=n_jobs, seat_order=seat_order, progress=progress)
    rows, defaults = [], {}
    for key, group in groups.items():
        base = simulate(module, group["games"], rules=group["rules"], engine=group["engine"], **run)
        base_values = per_game(base, group["players"])
        deals = base["deal"].to_numpy() if "deal" in base.columns else np.arange(len(base))
        defaults[key] = {q: float(y.sum() / n.sum()) if n.sum() else math.nan for q, (y, n) in base_values.items()}
        for d, alt, alt_rules in group["arms"]:
            df = simulate(module, group["games"], rules=alt_rules, engine=group["engine"], **run)
            if not np.array_equal(df["game_seed"].to_numpy(), base["game_seed"].to_numpy()):
                raise RuntimeError(f"decision {d.id}: the arms were not played on the same seeds")
            values = per_game(df, group["players"])
            for quantity, (y0, n0) in base_values.items():
                y1, n1 = values[quantity]
                r = ratio_difference(y1, n1, y0, n0, deals, confidence)
                rows.append({"decision": d.id, "field": d.field, "alternative": _alternative_text(alt),
                             "quantity": quantity, "games": len(df), "deals": r["deals"], "default": r["rate0"],
                             "value": r["rate1"], "diff": r["diff"], "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                             "p_value": r["p_value"], "design_effect": r["design_effect"], "engine": group["engine"]})
    table = pd.DataFrame(rows, columns=[c for c in COLUMNS if c != "p_holm"])
    table.insert(COLUMNS.index("p_holm"), "p_holm", holm(table["p_value"].to_numpy()) if len(table) else [])
    first = next(iter(groups.values()))
    lineup = prepare_run(module, first["rules"], policies, seed, seat_order, "python")[1].lineup
    table.attrs = {"game": module.__name__, "rules_version": getattr(module, "RULES_VERSION", None),
                   "policies": [p if isinstance(p, str) else repr(p) for p in lineup],
                   "policy_reprs": [policy_repr(module, p) for p in lineup],
                   "players": int(base_rules.players), "seed": int(seed), "seat_order": seat_order,
                   "games": int(first["games"]), "confidence": float(confidence),
                   "baselines": [{"rules": {k: v for k, v in rules_dict(g["rules"]).items()
                                            if v != rules_dict(base_rules).get(k)},
                                  "decisions": list(dict.fromkeys(a[0].id for a in g["arms"])),
                                  "engine": g["engine"], **({"engine_fallback": list(dict.fromkeys(g["fallback"]))}
                                                            if g["fallback"] else {}),
                                  "default": defaults[key]} for key, g in groups.items()]}
    return table


def save(table: pd.DataFrame, path) -> str:
    """Write a `sensitivity` table and its attrs (game, policies, seed, games per arm, the default arms'
    figures) as JSON (``{"attrs": ..., "rows": [...]}``), for `load` and the report's shipped results."""
    data = {"attrs": table.attrs, "rows": json.loads(table.to_json(orient="records"))}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return str(safe_io.write_text(path, json.dumps(data, indent=1, default=str)))


def load(path) -> pd.DataFrame:
    """A table written by `save`, with its attrs; a clear error for a file that is not one."""
    try:
        data = limits.load_json(path, "sensitivity file")
        table = pd.DataFrame(data["rows"], columns=COLUMNS)
        attrs = dict(data["attrs"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{str(path)!r} is not a sensitivity file written by `balancelab sensitivity --out` "
                         f"({exc.__class__.__name__}: {exc})") from None
    table.attrs = attrs
    return table


def verdicts(table: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """One row per decision: 'holds' when no difference is significant after Holm, else the
    significant moves ('moves <quantity> by <diff> [low, high]', in the table's order, per alternative)."""
    rows = []
    for decision, part in table.groupby("decision", sort=False):
        moves = []
        for alternative, alt in part.groupby("alternative", sort=False):
            significant = alt[alt["p_holm"] < alpha]
            if not len(significant):
                continue
            parts = [f"{r.quantity} by {format_diff(r.quantity, r.diff, r.ci_low, r.ci_high)}"
                     for r in significant.itertuples()]
            prefix = f"{part['field'].iloc[0]}={alternative}: " if part["alternative"].nunique() > 1 else ""
            moves.append(prefix + "moves " + ", ".join(parts))
        rows.append({"decision": decision, "field": part["field"].iloc[0],
                     "verdict": "; ".join(moves) if moves else "holds"})
    return pd.DataFrame(rows, columns=["decision", "field", "verdict"])


def format_diff(quantity: str, diff: float, low: float, high: float) -> str:
    """'+3.1 pts [+1.2, +5.0]' for a rate, '+4.2 turns [+1.0, +7.4]' for the game length."""
    scale, unit = (100.0, " pts") if is_rate(quantity) else (1.0, " turns")
    return f"{scale * diff:+.1f}{unit} [{scale * low:+.1f}, {scale * high:+.1f}]"
