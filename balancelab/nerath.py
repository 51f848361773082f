"""`balancelab battle` and `balancelab units`: the Conquest of Nerath battle calculator and the
unit-cost tables on the command line.

    balancelab battle "6 footsoldier, 2 siege_engine" vs "8 footsoldier"
    balancelab battle "2 warship, 2 fighter" vs "1 warship, 1 storm_elemental" --sea
    balancelab battle "6 footsoldier, 2 siege_engine" vs "8 footsoldier" --method monte_carlo --n 1000000
    balancelab battle "6 footsoldier, 2 siege_engine" vs "8 footsoldier" --method monte_carlo --engine kernel --n 100000000
    balancelab battle "4 footsoldier, 1 dragon" vs "5 footsoldier, 1 castle" --retreat below:0.3 --survivors 10
    balancelab units                      # every unit-cost table
    balancelab units --table duels --budgets 6,12

The parser of both is `balancelab.parser.add_battle_units`; each handler takes the parsed args and returns an exit code (bad input: one line on stderr, 2).
"""
from __future__ import annotations

import re
import sys

import pandas as pd

import nerathsim
from analyses import unit_cost
from nerathsim.battle.army import start_battle
from nerathsim.battle.exact import BattleTooLarge
from nerathsim.battle.monte_carlo import check_mc_size

from .checks import flag_words
from .parser import UNITS_TABLES


# --------------------------------------------------------------------------------- handlers
def run_battle(args) -> int:
    """Print the calculator summary of one battle; 2 on bad input."""
    try:
        attacker, defender = split_armies(args.armies)
        order = _orders(args.order, args.attacker_order, args.defender_order)
        options = dict(at_sea=args.sea, n=_int(args.n, "--n", 1), seed=_int(args.seed, "--seed", 0),
                       casualty_order=order, retreat=args.retreat, engine=args.engine)
        method = "exact" if args.method is None else _method(args.method)
        try:
            odds = nerathsim.battle_odds(attacker, defender, method=method, **options)
        except BattleTooLarge as exc:
            if args.method is not None:
                raise
            try:
                check_mc_size(start_battle(attacker, defender, args.sea))
            except ValueError as mc_exc:
                raise ValueError(f"{str(exc).split('; use')[0]}, and {mc_exc}") from None
            print(f"balancelab battle: {' '.join(str(exc).split('; use')[0].split())}: "
                  f"using Monte Carlo ({options['n']:,} battles) instead", file=sys.stderr)
            odds = nerathsim.battle_odds(attacker, defender, method="monte_carlo", **options)
        show = _int(args.survivors, "--survivors", 0)
    except ValueError as exc:
        return _fail("battle", exc)
    print(odds)
    if show:
        frame = odds.to_frame("survivors").sort_values("probability", ascending=False).head(show)
        print(f"\n  {show} most likely ends:")
        print(_indent(frame.to_string(index=False, float_format=lambda v: f"{v:.4f}")))
    if args.rounds:
        rounds = odds.to_frame("rounds")
        last = int((rounds["cumulative"] < 1 - 1e-4).sum()) + 1     # stop once 99.99% have ended
        print("\n  Rounds:")
        print(_indent(rounds.head(last).to_string(index=False, float_format=lambda v: f"{v:.4f}")))
    return 0


def run_units(args) -> int:
    """Print the unit-cost tables; 2 on bad input."""
    try:
        table = args.table.strip().lower()
        if table != "all" and table not in UNITS_TABLES:
            raise ValueError(f"--table must be all or one of {', '.join(UNITS_TABLES)}, got {args.table!r}")
        budgets = _int_list(args.budgets, "--budgets")
        best_budgets = _int_list(args.best_budgets, "--best-budgets")
        top = _int(args.top, "--top", 1)
        be_budget = _int(args.break_even_budget, "--break-even-budget", 1)
        sections = []
        if table in ("all", "efficiency"):
            sections.append(("Hits per round and per gold (land; sea), hits absorbed per gold",
                             unit_cost.unit_efficiency()))
        if table in ("all", "duels"):
            duels = unit_cost.duel_matrix(budgets)
            for b in budgets:
                if (duels["budget"] == b).any():
                    sections.append((f"Equal-gold duels, {b} gold: attacker's win chance (rows attack, columns "
                                     f"defend)", unit_cost.duel_pivot(duels, b)))
        if table in ("all", "best"):
            for b in best_budgets:
                for role in ("attack", "defence"):
                    frame = unit_cost.best_army(b, role, top=top)
                    vs = frame.attrs["opponent"]
                    sections.append((f"Best {b}-gold army on {role} (against {vs})",
                                     frame[["rank", "army", "win", "draw", "loss", "gold_swing"]].set_index("rank")))
        if table in ("all", "break_even"):
            sections.append((f"Break-even price against footsoldiers ({be_budget}-gold armies; ratio > 1: worth "
                             f"more than it costs)", unit_cost.break_even_prices(budget=be_budget)))
        if table in ("all", "lanchester"):
            sections.append(("Scaling with army size: Lanchester exponent against footsoldiers (1 linear law, "
                             "2 square law)", unit_cost.lanchester_fits()))
    except ValueError as exc:
        return _fail("units", exc)
    for title, frame in sections:
        print(f"\n{title}")
        print(_indent(_format(frame)))
    return 0


# --------------------------------------------------------------------------------- parsing
def split_armies(tokens) -> tuple[str, str]:
    """('6 footsoldier, 2 siege_engine', '8 footsoldier') from the command-line words."""
    tokens = [t for t in tokens if t.strip()]
    text = " ".join(tokens)
    parts = re.split(r"\s+vs\.?\s+", f" {text} ", flags=re.IGNORECASE)
    parts = [p.strip() for p in parts]
    if len(parts) == 2 and all(parts):
        return parts[0], parts[1]
    if len(tokens) == 2 and not any(re.search(r"\bvs\b", t, re.IGNORECASE) for t in tokens):
        return tokens[0], tokens[1]
    raise ValueError('write the battle as ATTACKER vs DEFENDER, e.g. "6 footsoldier, 2 siege_engine" vs "8 footsoldier"')


def _method(text: str) -> str:
    key = text.strip().lower().replace("-", "_")
    return {"mc": "monte_carlo", "montecarlo": "monte_carlo"}.get(key, key)


def _orders(both, attacker, defender):
    if both is None and attacker is None and defender is None:
        return None
    return {"attacker": attacker if attacker is not None else both,
            "defender": defender if defender is not None else both}


def _int(text, flag: str, low: int) -> int:
    raw = str(text).strip().replace("_", "").replace(",", "")
    try:
        value = int(raw)
    except ValueError:
        try:
            f = float(raw)
        except ValueError:
            raise ValueError(f"{flag} must be a whole number, got {text!r}") from None
        if not f.is_integer():
            raise ValueError(f"{flag} must be a whole number, got {text!r}") from None
        value = int(f)
    if value < low:
        raise ValueError(f"{flag} must be at least {low}, got {value}")
    return value


def _int_list(text: str, flag: str) -> list[int]:
    items = [t for t in (s.strip() for s in str(text).split(",")) if t]
    if not items:
        raise ValueError(f"{flag} needs at least one number, e.g. 6,12")
    return [_int(t, flag, 1) for t in items]


def _fail(command: str, exc: Exception) -> int:
    message = flag_words(" ".join(str(exc).split()))
    print(f"balancelab {command}: error: {message}", file=sys.stderr)
    return 2


def _format(frame: pd.DataFrame) -> str:
    return frame.to_string(float_format=lambda v: f"{v:.3f}", na_rep="-")


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())
