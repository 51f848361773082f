"""Simulated reports on toy games with a known truth: does a report's Findings section control its errors?

One simulated report is one game played twice, a *discovery* run and an independent *confirmation*
run, and analysed by the report's own code. Each run is `deals` deals of 4 rotations sharing a seed
(the rotate design: the deal is the unit), 4 seats, one policy in every seat, all games decided:

- seat-bound luck: with chance `seat_luck` the deal hands every rotation to one seat drawn uniformly
  (the seats stay fair, but a seat's wins repeat within the deal);
- `cards` per-seat opening-hand cards: each seat of each deal is dealt each card with chance `share`,
  and holds it in every rotation of the deal (the hand follows the seat's deal);
- outside the lucky deals each game is an independent draw of its winner with chance proportional to the
  seats' weights: 1 for every seat, times (1 + `beta`) for a holder of card 0. ``beta=0`` is the null
  toy (seat luck and 12 irrelevant cards); ``beta > 0`` the toy with one real effect.

The tables are those the report builds: `first_player_advantage` of the results frame (fpa_seats,
fpa_summary) and the causal opening-hand table (`hand_impact` on the seats' hands, ``p_holm`` and
``finding=True``, the columns `opening_impact` gives). They go into a `GameStudy`, one Holm family per game
(`with_family`: 4 seats, the χ² test of equal seats and the 12 cards), and `game_findings` selects the
claims (family-adjusted p < 0.05) and measures them again on the confirmation run (a `Measured` with its
fpa_seats and opening_impact, built only when a claim was selected, as the report plays a confirmation
run only for what it selected).

The truth is exact (`true_effect`): in a deal with k holders of card 0 (0 < k < 4) and no luck, a game
is won by a holder with chance k(1 + beta) / (k beta + 4), so the deal's paired difference — the win
rate of its holder seats minus that of its other seats, the quantity `hand_impact` averages — has mean
(1 + beta)/(k beta + 4) - 1/(k beta + 4) = beta / (k beta + 4); a lucky deal gives its seat every game,
a holder with chance k/4, and its difference has mean 1/4 - 1/4 = 0. The estimate is the mean over the
deals with 0 < k < 4, so its expectation is (1 - seat_luck) beta E[1 / (k beta + 4) | 0 < k < 4] with k
~ Binomial(4, share): exactly, whatever the number of such deals.

The test (tests/analyses/test_analyses_report_error_control.py) and
`benchmarks/studies/report_error_control.py` call these.
"""
from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pandas as pd
from scipy import stats as sps

from analyses.card_impact import _OPENING_COLUMNS, OPENING_METHOD, OPENING_TEST, hand_impact, label_evidence
from analyses.clusters import holm, rates, uniformity
from analyses.findings import ALPHA, CONFIRMED_STATUS, game_findings, pts
from analyses.first_player import first_player_advantage
from analyses.multiplicity import named_test, with_family
from analyses.replication import Measured
from analyses.study import GameStudy

import toygame as toy

PLAYERS = 4
POLICY = "p"
LINEUP = (POLICY,) * PLAYERS
#: the card with the real effect in the effect toy (an irrelevant one in the null toy)
EFFECT_CARD = "card00"


@dataclasses.dataclass(frozen=True)
class Toy:
    """One toy game: its size (deals per run, each 4 rotations) and its truth. The defaults are the
    null toy at the size the error-control test and benchmark use (250 deals: 1,000 games a run);
    `effect_toy()` the toy with one real effect at that size."""

    deals: int = 250
    seat_luck: float = 0.3
    beta: float = 0.0
    share: float = 0.5
    cards: int = 12

    def __post_init__(self):
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 2:
            raise ValueError(f"deals must be an integer >= 2, got {self.deals!r}")
        if not 0 <= self.seat_luck < 1:
            raise ValueError(f"seat_luck must be in [0, 1), got {self.seat_luck!r}")
        if not self.beta >= 0:
            raise ValueError(f"beta must be >= 0, got {self.beta!r}")
        if not 0 < self.share < 1:
            raise ValueError(f"share must be in (0, 1), got {self.share!r}")
        if isinstance(self.cards, bool) or not isinstance(self.cards, int) or self.cards < 1:
            raise ValueError(f"cards must be a positive integer, got {self.cards!r}")

    @property
    def names(self) -> list[str]:
        return [f"card{j:02d}" for j in range(self.cards)]

    def truth(self) -> float:
        """The exact effect of card 0 in points (0 in the null toy)."""
        return 100 * true_effect(self.seat_luck, self.beta, self.share)


#: the real effect of the effect toy: card 0 doubles its holder's odds outside the lucky deals (about
#: +11.9 points with seat luck 0.3); found (selected, then confirmed) in about 94% of reports of 250 deals
EFFECT_BETA = 1.0


def effect_toy(**kwargs) -> Toy:
    return Toy(**{"beta": EFFECT_BETA, **kwargs})


def true_effect(seat_luck: float, beta: float, share: float, players: int = PLAYERS) -> float:
    """E[paired difference of a deal | 0 < k < players holders] of the card that multiplies its holder's
    weight by (1 + beta) outside the lucky deals (see the module docstring), as a probability."""
    k = np.arange(1, players)
    pk = sps.binom.pmf(k, players, share)
    return float((1 - seat_luck) * beta * np.sum(pk / (k * beta + players)) / np.sum(pk))


def draw_run(t: Toy, rng: np.random.Generator):
    """(winners (games,), deal (games,), hands (deals x seats x cards) bool) of one run."""
    hands = rng.random((t.deals, PLAYERS, t.cards)) < t.share
    weights = 1 + t.beta * hands[:, :, 0]
    cdf = np.cumsum(weights / weights.sum(axis=1, keepdims=True), axis=1)            # deals x seats
    u = rng.random((t.deals, PLAYERS))                                                # deals x rotations
    drawn = (u[:, :, None] > cdf[:, None, :]).sum(axis=-1).clip(max=PLAYERS - 1)
    lucky = rng.random(t.deals) < t.seat_luck
    lucky_seat = rng.integers(PLAYERS, size=t.deals)
    winners = np.where(lucky[:, None], lucky_seat[:, None], drawn)
    deal = np.repeat(np.arange(t.deals), PLAYERS)
    return winners.reshape(-1), deal, hands


def paired_differences(winners: np.ndarray, deal: np.ndarray, hands: np.ndarray, card: int = 0) -> np.ndarray:
    """Per deal with 0 < k < 4 holders of `card`: holders' win rate minus the others' (what `hand_impact`
    averages), straight from the draws; for the Monte-Carlo check of `true_effect`."""
    deals = hands.shape[0]
    held = hands[:, :, card]
    k = held.sum(axis=1)
    holder_wins = np.bincount(deal, weights=held[deal, winners], minlength=deals)
    games = np.bincount(deal, minlength=deals)
    ok = (k > 0) & (k < PLAYERS)
    k, w, n = k[ok], holder_wins[ok], games[ok]
    return w / (n * k) - (n - w) / (n * (PLAYERS - k))


def results(winners: np.ndarray, deal: np.ndarray) -> pd.DataFrame:
    """The run as `analyses.simulate` records it (rotation r of the lineup in game r of each deal)."""
    rot = np.arange(len(winners)) % PLAYERS
    return toy.results_frame(winners, deal, rot, LINEUP)


def seat_frame(t: Toy, winners: np.ndarray, deal: np.ndarray, hands: np.ndarray) -> pd.DataFrame:
    """One row per (game, seat): deal, seat, won and ``cards`` (the names the seat was dealt), as
    `card_impact.seat_hands` gives them."""
    names = np.array(t.names, dtype=object)
    dealt = [frozenset(names[row]) for row in hands.reshape(-1, t.cards)]            # (deal, seat) order
    games = len(winners)
    seat = np.tile(np.arange(PLAYERS), games)
    game_deal = np.repeat(deal, PLAYERS)
    return pd.DataFrame({"seat": seat, "deal": game_deal, "policy": POLICY,
                         "won": np.repeat(winners, PLAYERS) == seat,
                         "cards": [dealt[d * PLAYERS + s] for d, s in zip(game_deal, seat)]})


def opening_table(seats: pd.DataFrame) -> pd.DataFrame:
    """The report's causal card table (`card_impact.opening_impact`'s columns): every row a finding."""
    table = hand_impact(seats, "cards", "card")
    table["p_holm"] = holm(table["p_value"].to_numpy(float))
    table["finding"] = True
    table = label_evidence(table, "causal", test=OPENING_TEST, method=OPENING_METHOD,
                           multiplicity="Holm over the table")
    assert list(table.columns) == _OPENING_COLUMNS + ["finding"]
    return table


def seat_tables(winners: np.ndarray, deal: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(fpa_summary, fpa_seats) as `first_player_advantage(results(winners, deal))` gives them, built
    straight from the arrays with the same functions (`clusters.rates`, `clusters.uniformity`) and a
    tenth of the time; the test checks the two agree. Only the columns the findings read are in the summary."""
    won = winners[:, None] == np.arange(PLAYERS)
    expected = float(won.sum(axis=1).mean() / PLAYERS)
    table = rates(won.astype(float), np.ones(won.shape), deal, expected=np.full(PLAYERS, expected))
    table = table.rename(columns={"n": "games", "rate": "win_rate"}).assign(seats=1, seat=list(range(PLAYERS)))
    table["p_holm"] = holm(table["p_value"].to_numpy())
    lineup = "+".join(LINEUP)
    seats = table.assign(players=PLAYERS, lineup=lineup)
    seats = seats[["players", "lineup", "seat", "seats"] + [c for c in table.columns if c not in ("seat", "seats")]]
    omnibus = uniformity(won, deal)
    summary = pd.DataFrame([{"players": PLAYERS, "lineup": lineup, "games": len(winners), "decided": len(winners),
                             "timeouts": 0, "chi2": omnibus["chi2"], "chi2_p": omnibus["chi2_p"],
                             "chi2_df": omnibus["chi2_df"], "deals": int(len(np.unique(deal))),
                             "design_effect": omnibus["design_effect"],
                             "method": f"{seats['method'].iloc[0]}; {omnibus['method']}"}])
    return summary, seats


def run_tables(t: Toy, run) -> tuple:
    """(fpa_summary, fpa_seats, opening_impact) of one drawn run."""
    winners, deal, hands = run
    summary, seats = seat_tables(winners, deal)
    return summary, seats, opening_table(seat_frame(t, winners, deal, hands))


def report_tables(t: Toy, run) -> tuple:
    """(fpa_summary, fpa_seats) of one drawn run as the report builds them: `first_player_advantage`
    of its results frame."""
    winners, deal, _ = run
    fpa = first_player_advantage(results(winners, deal))
    return fpa.summary, fpa.seats


def study(t: Toy, summary: pd.DataFrame, seats: pd.DataFrame, opening: pd.DataFrame) -> GameStudy:
    """The discovery run as a `GameStudy` with its family (`with_family`)."""
    empty = pd.DataFrame()
    games = PLAYERS * t.deals
    g = GameStudy(game="toy", title="Toy", rules_version="toy-1", rules={}, policy_reprs={}, games_played=games,
                  runs={"main": games}, fpa_summary=summary, fpa_seats=seats, outcomes=empty, by_policy=empty,
                  by_faction=empty, matrix=empty, ratings=empty, length=empty, turns=pd.Series(dtype=int),
                  sweep_field="", sweep=empty, sweep_seats=empty, impact=empty, impact_caveat="", team_game=False,
                  teams=empty, fixes=empty, fix_ideas=(), impact_outcomes=empty, main_policy=POLICY, pool=(POLICY,),
                  extra={}, assumptions=empty, seed=0, opening_impact=opening)
    return with_family(g)


def _labelled(table: pd.DataFrame) -> pd.DataFrame:
    """A confirmation table with its ``test`` column, as `analyses.replication.measure` labels it."""
    return table.assign(test=table["method"].map(named_test))


def measured(t: Toy, seats: pd.DataFrame, opening: pd.DataFrame) -> Measured:
    empty = pd.DataFrame()
    return Measured(1, {"main": PLAYERS * t.deals}, _labelled(seats), empty, empty, empty, empty, empty, empty,
                    opening_impact=_labelled(opening))


def _is_true(t: Toy, source: str, key: dict, effect: float) -> bool:
    """Is a selected claim true? Only card 0 of the effect toy, and only in its true direction."""
    return t.beta > 0 and source == "opening_impact" and key.get("item") == EFFECT_CARD and effect > 0


def report(t: Toy, rng: np.random.Generator) -> dict:
    """One simulated report (see the module docstring). Its fields: ``false_selected`` (a false claim —
    a seat, a card without effect, or card 0 in the wrong direction — was selected on the discovery run),
    ``false_stated`` (and confirmed: the report states it as a finding), ``false_claims`` (how many were
    selected), ``effect_selected`` / ``effect_stated`` (the same for the real effect), ``estimate`` (the
    confirmation's estimate the real effect's sentence prints, in points: the ``confirm_row`` of the
    confirmation's opening-hand table; NaN when not selected), ``discovery_estimate`` (the selected
    discovery estimate, subject to the winner's curse) and ``shown`` (the sentence shows that confirmation
    estimate; True when there is no such sentence)."""
    discovery, fresh = draw_run(t, rng), draw_run(t, rng)
    summary, seats, opening = run_tables(t, discovery)
    g = study(t, summary, seats, opening)
    chosen = bool((g.fpa_seats["p_family"] < ALPHA).any() or (g.opening_impact["p_family"] < ALPHA).any())
    if chosen:
        _, fresh_seats, fresh_opening = run_tables(t, fresh)
        confirmation = measured(t, fresh_seats, fresh_opening)
    else:                   # nothing selected: the report plays no confirmation run
        confirmation = measured(t, seats.iloc[:0], opening.iloc[:0])
    f = game_findings(g, confirmation)
    claims = f[f["selected"]]
    out = {"false_selected": False, "false_stated": False, "false_claims": 0, "effect_selected": False,
           "effect_stated": False, "estimate": np.nan, "discovery_estimate": np.nan, "shown": True}
    for _, r in claims.iterrows():
        key = json.loads(r["key"])
        stated = r["status"] == CONFIRMED_STATUS
        if _is_true(t, r["source"], key, r["effect"]):
            out["effect_selected"], out["effect_stated"] = True, stated
            out["discovery_estimate"] = float(r["effect"])
            if r["confirm_row"] >= 0:
                est = float(confirmation.opening_impact.at[int(r["confirm_row"]), "diff_pp"])
                out["estimate"] = est
                out["shown"] = f"Confirmation run: {pts(est)}" in r["text"]
        else:
            out["false_selected"] = True
            out["false_claims"] += 1
            out["false_stated"] = out["false_stated"] or stated
    return out


def reports(t: Toy, n: int, seed: int = 0) -> pd.DataFrame:
    """`n` simulated reports of toy `t`, one row each (`report`), from `seed`'s SeedSequence."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    return pd.DataFrame([report(t, rng) for _ in range(n)])


def share(x) -> tuple[float, float]:
    """(share, binomial standard error) of a 0/1 column."""
    x = np.asarray(x, dtype=float)
    p = float(x.mean())
    return p, math.sqrt(max(p * (1 - p), 1e-12) / len(x))


def estimate_error(table: pd.DataFrame, t: Toy, column: str = "estimate") -> tuple[float, float, int]:
    """(mean printed confirmation estimate minus the truth, its standard error, reports) over the reports
    that selected the real effect's claim (`column` "discovery_estimate": the selected discovery estimate)."""
    est = table[column].dropna().to_numpy(float)
    if len(est) < 2:
        return np.nan, np.nan, len(est)
    return float(est.mean() - t.truth()), float(est.std(ddof=1) / math.sqrt(len(est))), len(est)
