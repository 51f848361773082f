"""Card and ability impact: how a seat's win rate differs with and without each per-seat stat.

For every per-seat stat of a results table (``seat{i}_<stat>``: abilities activated, cards of a
legion played, pure creatures, traps sprung, ...) the seats of the decided games are split in
two groups — those where the stat happened (> 0) and those where it did not — and each group's
win rate is given with its interval and n, and the difference in points with its interval and
p-value. When nearly every seat has the stat (or nearly none), "happened" carries no information,
so the split is at the median instead (``split`` says which).

The deal is the unit of every interval and test (`analyses.clusters`): the seats of one game are
not independent (one of them wins), and under ``seat_order="rotate"`` the games of one deal share
a seed, so a seat's hand — and with it both its stats and its luck — repeats in every rotation.
Treating each seat of each game as an independent trial makes the intervals far too narrow there
(a stat with no effect at all came out significant in about a third of runs). So the group rates
are ratio estimators with the cluster-robust variance (`clusters.rates`: Wilson at the effective
n), the difference is `clusters.ratio_difference` (linearised over deals, t on deals - 1 degrees
of freedom), and each row gives ``deals``, ``design_effect`` and ``method``. The same holds for the
winners-against-losers means (`means`, `purchase_mix`) and for `faction_stats`.
tests/analyses/test_analyses_impact_coverage.py proves the coverage on a toy with no effect
under every seat order.

Outcome-like stats — the win condition itself or progress towards it (creatures completed,
activations, VP) — say nothing about what *causes* a win; `split_outcomes` puts them apart.
Two stats that split the seats identically (e.g. Midnighters' ``played_catcher`` and
``intercepts``) are one row, named ``played_catcher = intercepts``.

This is association, not cause: a seat that completed more creatures both activated more
abilities and was likelier to win. Compare within one policy (``policy=``) to remove the
largest confounder, and use `analyses.sweep` (which changes the rules) for causal answers.
Every table of `card_impact` (and `in_game_impact`, the played-in-game rates) says so in its
attrs: ``attrs["evidence"] == "association"``, ``attrs["causal"] is False``.

Where the deal randomises exposure the effect is causal: `opening_hand_impact` compares the seats
dealt a card (or a card family, e.g. a Nightmarium legion) in their starting hand with the seats
not dealt it, paired within deals (a card game's opening-hand win rate), reading the hands from the
game's own deal for each game's seed (``<game>.opening.opening_hands``; the records are not
touched). Its table has ``evidence == "causal"`` in a column and in attrs, ``test``, ``method``,
and ``p_holm`` (Holm over the table); `is_causal(table)` tells the two kinds of table apart.
tests/analyses/test_analyses_opening_impact.py proves it finds a planted effect and holds its
level on a null.
"""
from __future__ import annotations

import dataclasses
import importlib
import math
import re

import numpy as np
import pandas as pd
from scipy import stats as sps

from . import clusters
from .frames import decided, seat_count, seat_wins
from .games import load_game
from .metadata import rules_dict
from .tables import Tables
from .validate import _rebuilt

NOT_STATS = {"policy", "score", "faction"}
CAVEAT = ("Association, not cause: seats that did more of anything also tended to get further in the game. "
          "Differences within one policy remove the largest confounder.")
_SEAT_STAT = re.compile(r"^seat(\d+)_(.+)$")
#: per-seat stats that are the win condition or progress towards it, not causes of winning
OUTCOME_STATS = re.compile(r"^(completed|creatures|activations|vp|.+_vp|score|actions|regions|conquests|capitals)$")


@dataclasses.dataclass(frozen=True)
class CardImpact(Tables):
    impact: pd.DataFrame
    means: pd.DataFrame


def per_seat_stats(df: pd.DataFrame) -> list[str]:
    """Names of the numeric per-seat stats present for seat 0 (e.g. 'ability_herald')."""
    names = []
    for column in df.columns:
        m = _SEAT_STAT.match(str(column))
        if m and m.group(1) == "0" and m.group(2) not in NOT_STATS and pd.api.types.is_numeric_dtype(df[column]):
            names.append(m.group(2))
    return names


def long_seats(df: pd.DataFrame, stat_names: list[str]) -> pd.DataFrame:
    """One row per (decided game, seat): seat, deal (the cluster of the game, `clusters.cluster_ids`),
    policy, won, and each stat."""
    games = df[decided(df)]
    wins = seat_wins(games)
    deals = clusters.cluster_ids(games)
    frames = []
    for seat in range(seat_count(df)):
        if f"seat{seat}_policy" not in games:
            continue
        block = {"seat": seat, "deal": deals, "policy": games[f"seat{seat}_policy"].astype(str).to_numpy(),
                 "won": wins[:, seat]}
        for name in stat_names:
            column = f"seat{seat}_{name}"
            block[name] = games[column].to_numpy(dtype=float) if column in games else np.nan
        frames.append(pd.DataFrame(block))
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return out[out["policy"] != "nan"] if len(out) else out


def card_impact(df: pd.DataFrame, stats: list[str] | None = None, policy: str | None = None,
                confidence: float = 0.95) -> CardImpact:
    """Win rate with vs without each per-seat stat (see the module docstring)."""
    names = per_seat_stats(df) if stats is None else list(stats)
    unknown = [n for n in names if f"seat0_{n}" not in df.columns]
    if unknown:
        raise ValueError(f"unknown per-seat stat(s) {unknown}; known: {', '.join(per_seat_stats(df))}")
    seats = long_seats(df, names)
    if policy is not None:
        if policy not in set(seats["policy"]):
            raise ValueError(f"policy {policy!r} sat in no decided game; known: {sorted(set(seats['policy']))}")
        seats = seats[seats["policy"] == policy]
    rows, mean_rows, splits = [], [], {}
    for name in names:
        values = seats[name].to_numpy()
        ok = ~np.isnan(values)
        values, won, deal = values[ok], seats["won"].to_numpy(bool)[ok], seats["deal"].to_numpy()[ok]
        if not len(values):
            continue
        mean_rows.append(_means_row(name, values, won, deal, confidence))
        share = float(np.mean(values > 0))
        if 0.05 <= share <= 0.95:
            split, has = "> 0", values > 0
        else:
            median = float(np.median(values))
            split, has = f"> {median:g} (median)", values > median
        if has.all() or not has.any():
            continue
        key = has.tobytes()
        if key in splits:                 # same seats as an earlier stat: one row, both names
            rows[splits[key]]["stat"] += f" = {name}"
            continue
        splits[key] = len(rows)
        rows.append(_impact_row(name, split, has, won, deal, confidence))
    impact = pd.DataFrame(rows)
    if len(impact):
        impact = impact.sort_values("diff_pp", ascending=False, ignore_index=True)
    return CardImpact(impact=label_evidence(impact, ASSOCIATION, bias=CAVEAT),
                      means=label_evidence(pd.DataFrame(mean_rows), ASSOCIATION, bias=CAVEAT))


def is_outcome(stat: str) -> bool:
    """True for an outcome-like stat (or a merged row any of whose names is one)."""
    return any(OUTCOME_STATS.match(name.strip()) for name in str(stat).split("="))


def split_outcomes(impact: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(impact rows of possible causes, rows of outcome-like stats), both in the original order."""
    if not len(impact):
        return impact, impact
    outcome = impact["stat"].map(is_outcome).to_numpy(bool)
    return impact[~outcome].reset_index(drop=True), impact[outcome].reset_index(drop=True)


def _impact_row(name: str, split: str, has: np.ndarray, won: np.ndarray, deal: np.ndarray,
                confidence: float) -> dict:
    """Win rate with and without the stat, and their difference, with the deal as the unit."""
    k1, n1 = int(won[has].sum()), int(has.sum())
    k0, n0 = int(won[~has].sum()), int((~has).sum())
    groups = np.column_stack([has, ~has]).astype(float)
    rates = clusters.rates(groups * won[:, None], groups, deal, confidence=confidence)
    diff = clusters.ratio_difference(won & has, has, won & ~has, ~has, deal, confidence)
    return {
        "stat": name, "split": split,
        "n_with": n1, "win_with": k1 / n1, "with_low": rates["ci_low"][0], "with_high": rates["ci_high"][0],
        "n_without": n0, "win_without": k0 / n0, "without_low": rates["ci_low"][1], "without_high": rates["ci_high"][1],
        "diff_pp": 100 * diff["diff"], "diff_low": 100 * diff["ci_low"], "diff_high": 100 * diff["ci_high"],
        "p_value": diff["p_value"], "deals": diff["deals"], "design_effect": diff["design_effect"],
        "method": diff["method"],
    }


def _means_row(name: str, values: np.ndarray, won: np.ndarray, deal: np.ndarray, confidence: float) -> dict:
    """Mean of the stat for winning and losing seats, and the test of their difference with the
    deal as the unit (`clusters.ratio_difference`)."""
    w, l = values[won], values[~won]
    diff = clusters.ratio_difference(values * won, won, values * ~won, ~won, deal, confidence)
    p = diff["p_value"] if len(w) and len(l) and np.ptp(values) > 0 else np.nan
    return {"stat": name, "n_winners": len(w), "mean_winners": float(w.mean()) if len(w) else np.nan,
            "n_losers": len(l), "mean_losers": float(l.mean()) if len(l) else np.nan, "p_value": p,
            "deals": diff["deals"]}


def purchase_mix(df: pd.DataFrame, prefix: str = "spent_", total: str = "gold_spent",
                 confidence: float = 0.95) -> pd.DataFrame:
    """Share of the gold each seat spent on each unit type, winners against losers.

    One row per unit type: mean share among winning seats and among losing seats of decided
    games (each with its interval and n), the difference in points and its p-value, the deal as
    the unit (`clusters.mean_interval`, `clusters.ratio_difference`). Association, not cause (see
    the module docstring). Empty when the game records no purchases.
    """
    names = [n for n in per_seat_stats(df) if n.startswith(prefix)]
    if not names or f"seat0_{total}" not in df.columns:
        return pd.DataFrame()
    seats = long_seats(df, names + [total])
    seats = seats[seats[total] > 0]
    won = seats["won"].to_numpy(bool)
    deal = seats["deal"].to_numpy()
    rows = []
    for name in names:
        share = (seats[name] / seats[total]).to_numpy(float)
        w, l = share[won], share[~won]
        if len(w) < 2 or len(l) < 2:
            continue
        (wl, wh), (ll, lh) = (_mean_interval(share[mask], deal[mask], confidence) for mask in (won, ~won))
        diff = clusters.ratio_difference(share * won, won, share * ~won, ~won, deal, confidence)
        p = diff["p_value"] if np.ptp(share) > 0 else np.nan
        rows.append({"unit": name[len(prefix):], "n_winners": len(w), "share_winners": float(w.mean()),
                     "winners_low": wl, "winners_high": wh, "n_losers": len(l), "share_losers": float(l.mean()),
                     "losers_low": ll, "losers_high": lh, "diff_pp": 100 * float(w.mean() - l.mean()), "p_value": p,
                     "deals": diff["deals"]})
    return pd.DataFrame(rows)


def _mean_interval(x: np.ndarray, deal: np.ndarray, confidence: float) -> tuple[float, float]:
    """Interval of a mean with the deal as the unit; a constant sample is its own interval."""
    if len(x) < 2:
        return np.nan, np.nan
    if np.ptp(x) == 0:
        return float(x[0]), float(x[0])
    if clusters.is_independent(np.ones(len(x)), deal):
        low, high = sps.t.interval(confidence, len(x) - 1, loc=x.mean(), scale=sps.sem(x))
        return float(low), float(high)
    return clusters.mean_interval(x, deal, confidence)


def faction_stats(df: pd.DataFrame, stats, factions=None, confidence: float = 0.95) -> pd.DataFrame:
    """Per-faction means of recorded per-faction stats (columns ``<faction>_<stat>``, e.g. Nerath's
    ``karkoth_dungeons_won``): one row per faction and stat with the mean per game, its t interval,
    the number of games, and the games' total. A ratio row ``<a>/<b>`` (e.g. ``dungeons_won/dungeons_explored``)
    gives total a over total b with a Wilson interval (at the effective n when games share deals).
    The deal is the unit of both intervals. Factions default to the game's FACTIONS."""
    if factions is None:
        module = load_game(df.attrs["game"]) if "game" in df.attrs else None
        factions = getattr(module, "FACTIONS", ()) if module is not None else ()
    deal = clusters.cluster_ids(df)
    rows = []
    for faction in factions:
        for stat in stats:
            if "/" in stat:
                a, b = stat.split("/", 1)
                ca, cb = f"{faction}_{a}", f"{faction}_{b}"
                if ca not in df.columns or cb not in df.columns:
                    continue
                ka, nb = df[ca].to_numpy(float), df[cb].to_numpy(float)
                k, n = int(ka.sum()), int(nb.sum())
                low, high = np.nan, np.nan
                if n:
                    table = clusters.rates(ka, nb, deal, confidence=confidence)
                    low, high = float(table["ci_low"].iloc[0]), float(table["ci_high"].iloc[0])
                rows.append({"faction": faction, "stat": stat, "games": len(df), "mean": k / n if n else np.nan,
                             "ci_low": low, "ci_high": high, "total": f"{k}/{n}"})
                continue
            col = f"{faction}_{stat}"
            if col not in df.columns:
                continue
            x = df[col].to_numpy(float)
            low, high = _mean_interval(x, deal, confidence)
            rows.append({"faction": faction, "stat": stat, "games": len(x), "mean": float(x.mean()),
                         "ci_low": low, "ci_high": high, "total": f"{x.sum():g}"})
    return pd.DataFrame(rows, columns=["faction", "stat", "games", "mean", "ci_low", "ci_high", "total"])


# ----------------------------------------------------------------------------------------------
# Opening hands: the deal randomises who holds a card, so its effect is causal
# ----------------------------------------------------------------------------------------------
CAUSAL = "causal"
ASSOCIATION = "association"
OPENING_TEST = "paired t over deals"
OPENING_METHOD = ("opening hand, randomised by the deal: in each deal the win rate of the seats dealt it minus that "
                  "of the seats not dealt it, averaged over the deals with both (t on deals - 1 df)")
IN_GAME_BIAS = ("Played in game is not randomised: a seat that lasts longer, draws or plays more sees more cards and "
                "is further along, so its rate mixes the card with the seat's progress towards winning.")


def label_evidence(table: pd.DataFrame, evidence: str, **extra) -> pd.DataFrame:
    """`table` with ``attrs["evidence"]`` (CAUSAL or ASSOCIATION), ``attrs["causal"]`` and `extra` attrs set."""
    if evidence not in (CAUSAL, ASSOCIATION):
        raise ValueError(f"evidence must be {CAUSAL!r} or {ASSOCIATION!r}, got {evidence!r}")
    table.attrs.update(evidence=evidence, causal=evidence == CAUSAL, **extra)
    return table


def is_causal(table: pd.DataFrame) -> bool:
    """True only for a table labelled causal (its ``evidence`` attr, else an all-causal ``evidence``
    column); every other table is association."""
    if "evidence" in table.attrs:
        return table.attrs["evidence"] == CAUSAL
    return "evidence" in table.columns and len(table) > 0 and bool((table["evidence"] == CAUSAL).all())


def hand_impact(seats: pd.DataFrame, column: str = "cards", kind: str = "card", confidence: float = 0.95,
                min_deals: int = 2) -> pd.DataFrame:
    """Win rate of seats dealt each item (card or family) against seats not dealt it, paired within deals.

    `seats`: one row per (decided game, seat) with ``deal`` (the cluster: the games sharing a seed),
    ``won`` (bool) and `column` (the items the seat was dealt: a set, list or tuple per row). For each
    item, each deal where some seats were dealt it and some were not gives d = (wins / seats with it) -
    (wins / seats without it); the difference is the mean of d over those deals, its interval and
    p-value the paired t of the two rates on deals - 1 degrees of freedom (`_paired_t`).
    Since the deal decides who holds the item, this is the item's causal effect on winning (against
    the hands that lack it, in the games as played). Rows: item, kind, n_with, win_with (pooled over
    every deal, with its cluster-robust Wilson interval), n_without, win_without, diff_pp, diff_low,
    diff_high, p_value, test, deals (the paired deals), method, evidence; items with fewer than
    `min_deals` paired deals are left out. ``p_holm`` is added by `opening_hand_impact` over its table.
    """
    for name in ("deal", "won", column):
        if name not in seats.columns:
            raise ValueError(f"seats need a {name!r} column; have {', '.join(map(str, seats.columns))}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if min_deals < 2:
        raise ValueError(f"min_deals must be at least 2 (a paired t needs two deals), got {min_deals!r}")
    codes = pd.factorize(seats["deal"].to_numpy(), sort=False)[0]
    won = seats["won"].to_numpy(bool)
    held = [set(items) for items in seats[column]]
    names = sorted({item for items in held for item in items}, key=str)
    index = {item: j for j, item in enumerate(names)}
    has = np.zeros((len(seats), len(names)), dtype=bool)
    for i, items in enumerate(held):
        has[i, [index[item] for item in items]] = True
    n_deals = int(codes.max()) + 1 if len(codes) else 0
    n1, w1 = np.zeros((n_deals, len(names))), np.zeros((n_deals, len(names)))
    np.add.at(n1, codes, has)
    np.add.at(w1, codes, has & won[:, None])
    n_all = np.bincount(codes, minlength=n_deals).astype(float)
    w_all = np.bincount(codes, weights=won.astype(float), minlength=n_deals)
    n0, w0 = n_all[:, None] - n1, w_all[:, None] - w1
    both = (n1 > 0) & (n0 > 0)
    paired = both.sum(axis=0)
    keep = np.flatnonzero(paired >= min_deals)
    groups = np.concatenate([has[:, keep], ~has[:, keep]], axis=1).astype(float)
    rates = clusters.rates(groups * won[:, None], groups, codes, confidence=confidence)   # with (k), without (k)
    k = len(keep)
    rows = []
    for i, j in enumerate(keep):
        c = both[:, j]
        test = _paired_t(w1[c, j] / n1[c, j] - w0[c, j] / n0[c, j], confidence)
        rows.append({
            "item": str(names[j]), "kind": kind,
            "n_with": int(has[:, j].sum()), "win_with": float(rates["rate"][i]),
            "with_low": float(rates["ci_low"][i]), "with_high": float(rates["ci_high"][i]),
            "n_without": int((~has[:, j]).sum()), "win_without": float(rates["rate"][k + i]),
            "without_low": float(rates["ci_low"][k + i]), "without_high": float(rates["ci_high"][k + i]),
            "diff_pp": 100 * test[0], "diff_low": 100 * test[1], "diff_high": 100 * test[2],
            "p_value": test[3], "test": OPENING_TEST, "deals": int(paired[j]), "method": OPENING_METHOD,
            "evidence": CAUSAL,
        })
    table = pd.DataFrame(rows, columns=_OPENING_COLUMNS[:-1])
    if len(table):
        table = table.sort_values("diff_pp", ascending=False, ignore_index=True)
    return label_evidence(table, CAUSAL, test=OPENING_TEST, method=OPENING_METHOD)


def _paired_t(d: np.ndarray, confidence: float) -> tuple[float, float, float, float]:
    """(mean, low, high, p-value against 0) of the per-deal differences `d`: the one-sample t on len(d) - 1
    degrees of freedom (the paired t of the two rates, as `stats.paired_difference`); all-equal differences
    are their own interval."""
    mean = float(d.mean())
    if np.all(d == d[0]):
        return mean, mean, mean, 1.0 if mean == 0 else 0.0
    se = float(d.std(ddof=1)) / math.sqrt(len(d))
    q = float(sps.t.ppf(0.5 + confidence / 2, len(d) - 1))
    return mean, mean - q * se, mean + q * se, float(2 * sps.t.sf(abs(mean) / se, len(d) - 1))


_OPENING_COLUMNS = ["item", "kind", "n_with", "win_with", "with_low", "with_high", "n_without", "win_without",
                    "without_low", "without_high", "diff_pp", "diff_low", "diff_high", "p_value", "test", "deals",
                    "method", "evidence", "p_holm"]


def opening_module(module):
    """The game's ``opening`` module (``opening_hands(rules, seed)``, ``card_name``, ``card_family``),
    or a clear error for a game that has none."""
    try:
        return importlib.import_module(f"{module.__name__}.opening")
    except ModuleNotFoundError as exc:
        raise ValueError(f"{module.__name__} has no opening hands to read (no {module.__name__}.opening module); "
                         "opening-hand impact needs a game whose deal decides the starting cards") from exc


def seat_hands(df: pd.DataFrame, rules=None, policy: str | None = None) -> pd.DataFrame:
    """One row per (decided game, seat) of a results table: deal, seat, policy, won, ``cards`` (the
    names of the cards dealt to the seat, from the game's own deal for the game's seed:
    ``<game>.opening.opening_hands``) and ``families`` (their families: a Nightmarium legion and ability).
    `rules` default to the run's (``df.attrs["rules"]``)."""
    if "game" not in df.attrs:
        raise ValueError("the results table names no game (df.attrs['game']): opening hands need the game's deal")
    if "game_seed" not in df.columns:
        raise ValueError("the results table has no game_seed column: opening hands are dealt from each game's seed")
    module = load_game(df.attrs["game"])
    opening = opening_module(module)
    if df.attrs.get("engine") == "kernel" and not getattr(opening, "KERNEL_SAME_DEAL", False):
        raise ValueError(f"these games were played by {module.__name__}'s batch kernel, whose random stream deals other "
                         "cards than play_game for a seed: play them with engine='python' for opening-hand impact")
    if rules is None:
        rules = run_rules(module, df.attrs)
    games = df[decided(df)]
    wins, deals, seeds = seat_wins(games), clusters.cluster_ids(games), games["game_seed"].to_numpy()
    dealt = {seed: opening.opening_hands(rules, seed) for seed in dict.fromkeys(int(x) for x in seeds)}
    names, fams = {}, {}
    rows = []
    for seat in range(seat_count(df)):
        if f"seat{seat}_policy" not in games:
            continue
        policies = games[f"seat{seat}_policy"].astype(str).to_numpy()
        for g in np.flatnonzero(policies != "nan"):
            hand = dealt[int(seeds[g])][seat]
            for c in hand:
                if c not in names:
                    names[c], fams[c] = opening.card_name(rules, c), _groups(opening, rules, c)
            rows.append((seat, deals[g], policies[g], bool(wins[g, seat]), frozenset(names[c] for c in hand),
                         frozenset(f for c in hand for f in fams[c])))
    out = pd.DataFrame(rows, columns=["seat", "deal", "policy", "won", "cards", "families"])
    if policy is not None:
        if policy not in set(out["policy"]):
            raise ValueError(f"policy {policy!r} sat in no decided game; known: {sorted(set(out['policy']))}")
        out = out[out["policy"] == policy].reset_index(drop=True)
    return out


def _groups(opening, rules, card) -> tuple:
    """The families a card counts in: ``card_families`` (several, e.g. a Nightmarium card's legion and its
    ability) when the game's opening module has it, else its one ``card_family``."""
    several = getattr(opening, "card_families", None)
    return tuple(several(rules, card)) if several is not None else (opening.card_family(rules, card),)


def run_rules(module, attrs: dict):
    """The run's Rules rebuilt from ``attrs["rules"]`` (the published rules when absent), or a clear error."""
    recorded = attrs.get("rules")
    published = module.Rules()
    if recorded is None:
        return published
    rules = _rebuilt(module, recorded, rules_dict(published))
    if rules is None:
        raise ValueError("the run's rules cannot be rebuilt from its metadata: pass rules= to read the opening hands")
    return rules


def opening_hand_impact(df: pd.DataFrame, rules=None, policy: str | None = None, families: bool = True,
                        confidence: float = 0.95, min_deals: int = 2) -> pd.DataFrame:
    """The causal effect of each card (and, with `families`, each card family: a Nightmarium legion or ability)
    in a seat's starting hand on its win rate: `hand_impact` on the seats' opening hands (`seat_hands`),
    one table of kind ``card`` and ``family`` rows with ``p_holm``, Holm's adjustment over every row.

    Like a card game's opening-hand win rate: the deal decides who starts with the card, so the with
    and without seats differ only by chance, and pairing them within the deal (under seat rotation the
    rotated games share the deal, `analyses.clusters`) removes what the deal does to every seat.
    ``attrs["evidence"] == "causal"`` (`is_causal`); the in-game counterpart (`in_game_impact`) is
    association. With `policy`, only that policy's seats (the pairs then hold the policy fixed)."""
    seats = seat_hands(df, rules, policy)
    parts = [hand_impact(seats, "cards", "card", confidence, min_deals)]
    if families:
        parts.append(hand_impact(seats, "families", "family", confidence, min_deals))
    parts = [p for p in parts if len(p)]
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=_OPENING_COLUMNS[:-1])
    table["p_holm"] = clusters.holm(table["p_value"].to_numpy(float)) if len(table) else []
    return label_evidence(table, CAUSAL, test=OPENING_TEST, method=OPENING_METHOD, multiplicity="Holm over the table",
                          in_game_bias=IN_GAME_BIAS)


def opening_impact(df: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """The report's causal card table: `opening_hand_impact` of a run, with a ``finding`` column that marks
    the rows at the level the game states Findings at (``<game>.opening.FINDING_KINDS``; both levels when the
    game names none). Every marked row is a test of the game's family (`analyses.multiplicity`), so a game
    with a hundred printed cards states its findings per card family and keeps the per-card rows as a
    table. Empty for a game without opening hands, or a run without a decided game."""
    if "game" not in df.attrs or not len(df) or not decided(df).any():
        return pd.DataFrame()
    try:
        opening = opening_module(load_game(df.attrs["game"]))
    except ValueError:
        return pd.DataFrame()
    table = opening_hand_impact(df, confidence=confidence)
    kinds = tuple(getattr(opening, "FINDING_KINDS", ("card", "family")))
    table["finding"] = table["kind"].isin(kinds).to_numpy(bool) if len(table) else []
    table.attrs["finding_kinds"] = list(kinds)
    return table


def in_game_impact(df: pd.DataFrame, policy: str | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """The in-game counterpart of `opening_hand_impact`: win rate of seats that played each card kind or
    family (the per-seat ``played_<x>`` stats) against seats that did not (`card_impact`). Association,
    not cause: ``attrs["bias"]`` says why (IN_GAME_BIAS)."""
    names = [n for n in per_seat_stats(df) if n.startswith("played_")]
    table = card_impact(df, names, policy, confidence).impact if names else pd.DataFrame()
    return label_evidence(table, ASSOCIATION, bias=IN_GAME_BIAS)
