"""On a toy with no effects, how often does a report state a false finding? (fixed seeds, a statistical test)

Each simulated report has one game: three fair seats (400 independent games) and a mixed table of three
equally strong policies. Every seat and policy test and the χ² test of equal seats are one family, Holm-
adjusted (`analyses.multiplicity`); a claim selected there is measured again on a fresh confirmation run
(`analyses.findings.confirm`). The share of reports with at least one adjusted p-value below 5% is the
family-wise error rate, nominally 5% (a little less: the exact binomial test is discrete and the seats
of a game are negatively correlated); the share whose Findings select a false claim is at most that, and
the share that state a confirmed false finding (selected, then confirmed on fresh games) is far below it.
"""
import math

import numpy as np
import pandas as pd

from analyses.clusters import INDEPENDENT
from analyses.findings import ALPHA, game_findings
from analyses.multiplicity import with_family
from analyses.replication import Measured
from analyses.stats import proportions, seat_uniformity
from analyses.study import GameStudy

REPORTS = 250
GAMES = 400
SEATS = 3


def _rates(counts, key: str, names) -> pd.DataFrame:
    table = proportions(counts, np.full(len(counts), GAMES), 1 / SEATS)
    return table.rename(columns={"n": "games", "rate": "win_rate"}).assign(
        **{key: names}, players=SEATS, lineup="p+p+p", method=INDEPENDENT)


def _study(rng) -> GameStudy:
    seats = _rates(rng.multinomial(GAMES, [1 / SEATS] * SEATS), "seat", list(range(SEATS)))
    policies = _rates(rng.multinomial(GAMES, [1 / SEATS] * SEATS), "policy", ["a", "b", "c"])
    chi2, chi2_p = seat_uniformity(seats["wins"])
    summary = pd.DataFrame([{"players": SEATS, "lineup": "p+p+p", "games": GAMES, "timeouts": 0, "chi2": chi2,
                             "chi2_p": chi2_p, "method": f"{INDEPENDENT}; Pearson chi-square"}])
    empty = pd.DataFrame()
    g = GameStudy(game="toy", title="Toy", rules_version="toy-1", rules={}, policy_reprs={}, games_played=2 * GAMES,
                  runs={"main": GAMES, "mixed": GAMES}, fpa_summary=summary, fpa_seats=seats, outcomes=empty,
                  by_policy=policies, by_faction=empty, matrix=empty, ratings=empty, length=empty,
                  turns=pd.Series(dtype=int), sweep_field="", sweep=empty, sweep_seats=empty, impact=empty,
                  impact_caveat="", team_game=False, teams=empty, fixes=empty, fix_ideas=(), impact_outcomes=empty,
                  main_policy="p", pool=("a", "b", "c"), extra={}, assumptions=empty, seed=0)
    return with_family(g)


def _fresh(rng) -> Measured:
    empty = pd.DataFrame()
    seats = _rates(rng.multinomial(GAMES, [1 / SEATS] * SEATS), "seat", list(range(SEATS)))
    policies = _rates(rng.multinomial(GAMES, [1 / SEATS] * SEATS), "policy", ["a", "b", "c"])
    test = "two-sided exact binomial test"
    return Measured(1, {"main": GAMES}, seats.assign(test=test), empty, policies.assign(test=test), empty, empty,
                    empty, empty)


def test_a_report_on_a_game_without_effects_states_a_false_finding_at_most_at_the_nominal_rate():
    rng = np.random.default_rng(np.random.SeedSequence(20261207))
    rejected = selected = confirmed = 0
    for _ in range(REPORTS):
        g = _study(rng)
        assert g.family.size == 2 * SEATS + 1
        rejected += int(bool((g.fpa_seats["p_family"] < ALPHA).any() or (g.by_policy["p_family"] < ALPHA).any()
                             or (g.fpa_summary["p_family"] < ALPHA).any()))
        if not ((g.fpa_seats["p_family"] < ALPHA).any() or (g.by_policy["p_family"] < ALPHA).any()):
            continue                       # nothing can be selected: the report states no claim (checked below once)
        f = game_findings(g, _fresh(rng))
        claims = f[f["selected"]]
        assert (claims["status"] != "").all()      # every selected claim says what the fresh run found
        selected += int(len(claims) > 0)
        confirmed += int((claims["status"] == "confirmed").any())
    se = math.sqrt(ALPHA * (1 - ALPHA) / REPORTS)
    print(f"reports with an adjusted p < {ALPHA}: {rejected / REPORTS:.3f} (nominal {ALPHA}, SE {se:.3f}); "
          f"selecting a false claim: {selected / REPORTS:.3f}; stating a confirmed false finding: "
          f"{confirmed / REPORTS:.3f}")
    assert abs(rejected / REPORTS - ALPHA) <= 3 * se      # family-wise error near the nominal 5%
    assert selected <= rejected                          # a claim needs an adjusted p below 5%
    assert confirmed / REPORTS <= ALPHA * ALPHA + 3 * math.sqrt(ALPHA * ALPHA / REPORTS)   # selected, then confirmed


def test_a_report_with_nothing_selected_states_no_claim():
    rng = np.random.default_rng(3)
    for _ in range(20):
        g = _study(rng)
        if (g.fpa_seats["p_family"] < ALPHA).any() or (g.by_policy["p_family"] < ALPHA).any():
            continue
        f = game_findings(g, _fresh(rng))
        assert not f["selected"].any() and not f["significant"].any() and (f["status"] == "").all()
        return
    raise AssertionError("no report without a selected claim in 20 draws")
