"""`nerathsim.parity`: possible captures counted exactly on hand-built positions (the small map: Kar - Kmarch -
Vmarch is the border to Vailin, Kcoast - Ncoast the border to Nerath), battles recorded with the calculator's
exact odds, the measured game equal to the unmeasured one, and the table's arithmetic on a hand-made input."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from analyses import clusters
from nerathsim import battle_odds
from nerathsim import engine as E
from nerathsim.game import LegalActions, play_game
from nerathsim.observation import observe
from nerathsim.parity import (
    ROUTES,
    ParityStats,
    ParityWatch,
    capture_capacity,
    capture_routes,
    enemy_region,
    equal_differences,
    equality_tests,
    holm,
    parity_table,
    play_parity,
    possible_captures,
    pre_battle_odds,
    reach_forces,
)
from nerathsim.policies import BALANCED
from nerathsim.rules import Rules
from nerathsim.scenario import action, build_state, region

K, V, I, N = range(4)
FFA = Rules(map="small", mode="free_for_all", events=False, dungeons=False)


def _state(units, rules=FFA, ships=()):
    return build_state(rules, units={"Kar": {"karkoth": "castle"}, **units}, ships=ships, realm="karkoth")


def _names(s, regions):
    return sorted(s.board.names[r] for r in regions)


def test_an_enemy_region_is_land_another_alliance_owns():
    s = _state({})
    assert enemy_region(s, region(s, "Kmarch"), V) and enemy_region(s, region(s, "Vmarch"), K)   # realm 0 too
    assert not enemy_region(s, region(s, "Kmarch"), K) and not enemy_region(s, region(s, "Inner Sea"), K)


def test_possible_captures_are_the_enemy_regions_the_reachable_force_takes_at_even_odds_or_better():
    s = _state({"Kmarch": {"karkoth": "3 footsoldier"}, "Kcoast": {"karkoth": "footsoldier"},
                "Vmarch": {"vailin": "footsoldier"}, "Ncoast": {"nerath": "3 footsoldier"}})
    assert battle_odds({"footsoldier": 3}, {"footsoldier": 1}).attacker_wins >= 0.5
    assert battle_odds({"footsoldier": 1}, {"footsoldier": 3}).attacker_wins < 0.5
    forces = reach_forces(s, K)
    fs = s.tab.idx["footsoldier"]
    assert _names(s, forces) == ["Ncoast", "Vmarch"]           # a footsoldier walks one step: nothing further
    assert forces[region(s, "Vmarch")][fs] == 3 and forces[region(s, "Ncoast")][fs] == 1
    assert _names(s, possible_captures(s, K)) == ["Vmarch"]
    # a second footsoldier on the coast does not make 2 against 3 an even fight; four do
    s2 = _state({"Kcoast": {"karkoth": "4 footsoldier"}, "Ncoast": {"nerath": "3 footsoldier"}})
    assert battle_odds({"footsoldier": 4}, {"footsoldier": 3}).attacker_wins >= 0.5
    assert _names(s2, possible_captures(s2, K)) == ["Ncoast"]


def test_an_empty_enemy_region_is_possible_only_for_a_unit_that_can_take_it():
    units = {"Kmarch": {"karkoth": "dragon"}}                   # three steps: every region of the ring near Kar
    s = _state(units)
    got = _names(s, possible_captures(s, K))
    assert {"Vmarch", "Vale", "Vcoast", "Ncoast", "Nmarch"} <= set(got)
    assert "Kcoast" not in got and "Crypt" not in got and "Inner Sea" not in got   # own, a dungeon, a sea
    s2 = _state(units, rules=Rules(map="small", mode="free_for_all", events=False, dungeons=False,
                                   flyers_capture=False))
    assert possible_captures(s2, K) == []


def test_cargo_a_warship_can_land_counts_toward_a_possible_capture():
    s = _state({}, ships=[("karkoth", "Inner Sea", ["footsoldier"])])
    got = _names(s, possible_captures(s, K))
    assert "Isle" in got                                        # only by sea
    assert _names(s, possible_captures(_state({}), K)) == []


def test_capacity_counts_the_captures_open_together_each_unit_attacking_once():
    # 3 footsoldiers at Kmarch reach only Vmarch: one capture; the coast's lone footsoldier takes Ncoast
    # (empty) as a second; defended 3 to 1 the coast cannot take it
    s = _state({"Kmarch": {"karkoth": "3 footsoldier"}, "Kcoast": {"karkoth": "footsoldier"},
                "Vmarch": {"vailin": "footsoldier"}})
    assert _names(s, possible_captures(s, K)) == ["Ncoast", "Vmarch"]
    assert capture_capacity(s, K) == 2
    s2 = _state({"Kmarch": {"karkoth": "3 footsoldier"}, "Kcoast": {"karkoth": "footsoldier"},
                 "Vmarch": {"vailin": "footsoldier"}, "Ncoast": {"nerath": "3 footsoldier"}})
    assert capture_capacity(s2, K) == 1
    # one dragon reaches five empty regions but takes one of them
    s3 = _state({"Kmarch": {"karkoth": "dragon"}})
    assert len(possible_captures(s3, K)) >= 5
    assert capture_capacity(s3, K) == 1
    # the cheapest unit takes an empty region, so the dragon stays free for another
    s4 = _state({"Kmarch": {"karkoth": "dragon"}, "Kcoast": {"karkoth": "footsoldier"}})
    assert capture_capacity(s4, K) == 2


def test_a_warships_cargo_lands_once():
    s = _state({}, ships=[("karkoth", "Inner Sea", ["footsoldier"])])
    assert "Isle" in _names(s, possible_captures(s, K))
    assert reach_forces(s, K)[region(s, "Isle")] == [int(u == s.tab.idx["footsoldier"]) for u in range(s.tab.U)]
    assert capture_capacity(s, K) == 1
    assert capture_capacity(_state({}), K) == 0
    # a ship puts its whole load ashore on one coast, however many empty coasts its two places could reach
    two = _state({}, ships=[("karkoth", "Inner Sea", ["footsoldier", "footsoldier"])])
    assert len(possible_captures(two, K)) >= 2
    assert capture_capacity(two, K) == 1
    # one footsoldier on the coast, a ship with two places: one boards (a unit counts once)
    one = _state({"Kcoast": {"karkoth": "footsoldier"}}, ships=[("karkoth", "Inner Sea", [])])
    assert reach_forces(one, K)[region(one, "Isle")][one.tab.idx["footsoldier"]] == 1
    assert reach_forces(one, K)[region(one, "Ncoast")][one.tab.idx["footsoldier"]] == 1     # by land or by ship
    # Isle held by one: one boarder loses (odds below even), so both board, each taking one place
    assert battle_odds({"footsoldier": 1}, {"footsoldier": 1}).attacker_wins < 0.5
    strong = {x: {owner: "5 footsoldier"} for owner, xs in (("vailin", ("Vmarch", "Vcoast", "Vale")),
              ("iron_circle", ("Imarch", "Icoast", "Iron")), ("nerath", ("Nmarch", "Ncoast", "Nera"))) for x in xs}
    held = _state({**strong, "Kcoast": {"karkoth": "2 footsoldier"}, "Isle": {"vailin": "footsoldier"}},
                  ships=[("karkoth", "Inner Sea", [])])
    assert _names(held, possible_captures(held, K)) == ["Isle"]
    assert capture_capacity(held, K) == 1
    # Isle held by two: three would win (0.79), but a ship takes two and two lose (0.48)
    assert battle_odds({"footsoldier": 2}, {"footsoldier": 2}).attacker_wins < 0.5
    assert battle_odds({"footsoldier": 3}, {"footsoldier": 2}).attacker_wins >= 0.5
    two_held = _state({**strong, "Kcoast": {"karkoth": "3 footsoldier"}, "Isle": {"vailin": "2 footsoldier"}},
                      ships=[("karkoth", "Inner Sea", [])])
    assert capture_capacity(two_held, K) == 0
    # three footsoldiers on Karkoth's coast: one walks into Ncoast, one ship carries the others to one coast
    s2 = _state({"Kcoast": {"karkoth": "3 footsoldier"}}, ships=[("karkoth", "Inner Sea", [])])
    assert capture_capacity(s2, K) == 2


def test_each_possible_capture_is_open_by_land_by_flyers_alone_or_only_by_sea():
    s = _state({"Kcoast": {"karkoth": "footsoldier"}, "Kmarch": {"karkoth": "3 footsoldier, dragon"},
                "Vmarch": {"vailin": "footsoldier"}}, ships=[("karkoth", "Inner Sea", ["footsoldier"])])
    possible = possible_captures(s, K)
    routes = capture_routes(s, K, possible)
    assert set(routes) == set(possible)
    assert routes[region(s, "Ncoast")] == ("empty", "land")          # the coast's footsoldier walks in
    assert routes[region(s, "Vmarch")] == ("defended", "land")       # three against one, on foot
    assert routes[region(s, "Vale")] == ("empty", "flyers")          # only the dragon flies that far
    assert routes[region(s, "Isle")] == ("empty", "sea")             # only the ship's cargo lands there
    assert set(routes.values()) <= set(ROUTES)
    # without the dragon nothing flies to Vale; with flyers unable to take a region it is no capture at all
    grounded = Rules(map="small", mode="free_for_all", events=False, dungeons=False, flyers_capture=False)
    s2 = _state({"Kmarch": {"karkoth": "dragon"}}, rules=grounded, ships=[("karkoth", "Inner Sea", ["footsoldier"])])
    by_sea = capture_routes(s2, K, possible_captures(s2, K))
    assert region(s2, "Isle") in by_sea and all(route == "sea" for _held, route in by_sea.values())


@pytest.mark.parametrize("seed", [3, 4])
def test_a_games_captures_by_route_add_up_to_its_possible_and_captured(seed):
    _result, st = play_parity(Rules(map="small", events=False), ["balanced"] * 4, seed)
    assert st.routes and all(key in ROUTES for _q, key in st.routes)
    for q in range(4):
        tallies = [v for (realm, _key), v in st.routes.items() if realm == q]
        assert sum(n for n, _k in tallies) == st.possible[q]
        assert sum(k for _n, k in tallies) == st.captured[q]
    table = parity_table([st, st])
    for q, row in enumerate(table["realms"]):
        assert [x["possible"] for x in row["routes"]] == [2 * st.routes.get((q, key), [0, 0])[0] for key in ROUTES]


def _drive(s, scripted, rng):
    """Play Karkoth's turn through a ParityWatch: the scripted actions first, then the balanced heuristic's
    answers until the turn ends. Returns the watch's ParityStats."""
    w = ParityWatch(s.rules.order)
    start = s.turns
    todo = list(scripted)
    while s.turns == start and not s.is_terminal:
        a = todo.pop(0) if todo else BALANCED(observe(s, s.current_player), LegalActions(s), rng)
        w(s, a, lambda: E.apply_action(s, a, rng))
    return w.stats


@pytest.mark.parametrize("seed, rounds", [(0, 0), (1, 0), (0, 2)])
def test_a_turn_counts_its_possible_captures_what_it_took_and_its_battle_at_the_exact_odds(seed, rounds):
    s = _state({"Kmarch": {"karkoth": "3 footsoldier"}, "Kcoast": {"karkoth": "4 footsoldier"},
                "Ncoast": {"nerath": "footsoldier"}, "Nera": {"nerath": "castle, 3 footsoldier"},
                "Vale": {"vailin": "castle, 3 footsoldier"}})
    s.turns += 4 * rounds            # Karkoth's turn in a later round: the turn counter is not the realm
    rng = np.random.default_rng(seed)
    moves = [action(s, "Move", "Kmarch", "Vmarch", "footsoldier", 3),      # empty: walked in
             action(s, "Move", "Kcoast", "Ncoast", "footsoldier", 4)]      # a battle, 4 against 1
    st = _drive(s, moves, rng)
    assert st.measured[K] == st.turns[K] == 1 and sum(st.turns) == 1
    vmarch, ncoast = region(s, "Vmarch"), region(s, "Ncoast")
    assert st.possible[K] == 2 and st.turn_log[0][2] == (vmarch, ncoast)   # as at the turn's first decision
    assert st.turn_log[0][1] == 4 * rounds + 1
    assert len(st.battles) == 1
    q, p, won, exact, at_sea = st.battles[0]
    assert q == K and exact and not at_sea
    assert p == pytest.approx(battle_odds({"footsoldier": 4}, {"footsoldier": 1}).attacker_wins, abs=1e-12)
    assert won == (s.stats["attacks_won"][K] == 1)
    taken = (vmarch,) + ((ncoast,) if won else ())
    assert st.turn_log[0][3] == taken and st.captured[K] == st.captures[K] == len(taken)
    assert s.owner[vmarch] == K and (s.owner[ncoast] == K) == won


def test_pre_battle_odds_are_the_calculators_and_fall_back_to_the_estimate_for_huge_armies():
    br = FFA.battle
    t = E.tables(FFA)
    att, dfd = [0] * t.U, [0] * t.U
    att[t.idx["footsoldier"]], att[t.idx["dragon"]] = 3, 1
    dfd[t.idx["footsoldier"]], dfd[t.idx["castle"]] = 4, 1
    p, exact = pre_battle_odds(br, att, dfd, False)
    want = battle_odds({"footsoldier": 3, "dragon": 1}, {"footsoldier": 4, "castle": 1}).attacker_wins
    assert exact and p == pytest.approx(want, abs=1e-12)
    big_a, big_d = [0] * t.U, [0] * t.U
    big_a[t.idx["footsoldier"]], big_d[t.idx["footsoldier"]] = 90, 90
    p, exact = pre_battle_odds(br, big_a, big_d, False)
    assert not exact and 0.0 < p < 1.0


def test_the_measured_game_is_the_unmeasured_game():
    rules = Rules()
    res, st = play_parity(rules, ["tuned"] * 4, 5)
    plain = play_game(rules, ["tuned"] * 4, 5)
    assert res.to_record() == plain.to_record() and res.log is None
    assert sum(st.turns) == res.turns and st.measured == st.turns
    assert all(set(got) <= set(poss) for _q, _n, poss, got in st.turn_log)
    assert all(c <= t for c, t in zip(st.captured, st.captures))
    assert len(st.battles) == sum(res.realm_stats["attacks"])
    assert sum(won for _q, _p, won, _e, _s in st.battles) == sum(res.realm_stats["attacks_won"])


def _games():
    g1 = ParityStats(turns=[2, 2, 2, 2], measured=[2, 2, 2, 2], possible=[4, 2, 0, 1], captured=[2, 1, 0, 0],
                     captures=[2, 1, 0, 1],
                     battles=[(K, 0.8, True, True, False), (K, 0.5, False, True, False), (V, 0.9, True, True, False)])
    g2 = ParityStats(turns=[2, 2, 2, 2], measured=[2, 2, 2, 2], possible=[2, 2, 0, 3], captured=[0, 0, 0, 3],
                     captures=[0, 0, 0, 3],
                     battles=[(K, 0.6, True, False, False), (V, 0.7, False, True, True)])
    return [g1, g2]


def test_the_table_sums_per_realm_with_intervals_clustered_by_game():
    tb = parity_table(_games())
    k, v, i, n = tb["realms"]
    z = sps.norm.ppf(0.975)
    assert tb["games"] == 2 and k["possible"] == 6 and k["possible_per_game"] == pytest.approx(3.0)
    assert k["share"] == pytest.approx(2 / 6)
    # CR1: per game (Y - R N) / total = (2 - 4/3) / 6 and (0 - 2/3) / 6; var = 2 / 1 * (2 / 81)
    se = math.sqrt(2 * 2 / 81)
    assert k["share_ci"] == pytest.approx((1 / 3 - z * se, 1 / 3 + z * se))
    assert k["battles"] == 3 and k["wins"] == 2 and k["inexact_odds"] == 1
    assert k["mean_odds"] == pytest.approx(1.9 / 3) and k["win_rate"] == pytest.approx(2 / 3)
    assert k["obs_minus_exp"] == pytest.approx(0.1 / 3)
    # residuals per game: (1 - 1.3) - d * 2 and (1 - 0.6) - d * 1, over 3 battles
    d = 0.1 / 3
    se_d = math.sqrt(2 * (((-0.3 - 2 * d) / 3) ** 2 + ((0.4 - d) / 3) ** 2))
    assert k["obs_minus_exp_ci"] == pytest.approx((d - z * se_d, d + z * se_d))
    assert v["share"] == pytest.approx(0.25) and v["obs_minus_exp"] == pytest.approx((1 - 1.6) / 2)
    assert math.isnan(i["share"]) and i["battles"] == 0 and math.isnan(i["win_rate"])
    assert n["share"] == pytest.approx(0.75) and n["captures"] == 4
    assert tb["share_test"]["df"] == 2                          # iron_circle had nothing to take
    # games stored without routes: every route row is empty, not a made-up count
    assert all(x["possible"] == 0 == x["captured"] and math.isnan(x["share"]) for r in tb["realms"] for x in r["routes"])
    with pytest.raises(ValueError, match="at least one game"):
        parity_table([])


def test_each_realm_against_the_rest_is_the_clustered_ratio_difference_of_analyses():
    rng = np.random.default_rng(4)
    n = rng.integers(0, 6, size=(30, 4)).astype(float)
    y = np.minimum(n, rng.integers(0, 4, size=(30, 4))).astype(float)
    out = equality_tests(y, n)
    for k in range(4):
        rest = [j for j in range(4) if j != k]
        ref = clusters.ratio_difference(y[:, k], n[:, k], y[:, rest].sum(axis=1), n[:, rest].sum(axis=1),
                                        clusters=np.arange(30))
        assert out["vs_rest"][k] == pytest.approx(ref["diff"], abs=1e-12)
        se = (ref["ci_high"] - ref["diff"]) / sps.t.ppf(0.975, 29)
        assert abs(out["vs_rest"][k] / out["vs_rest_z"][k]) == pytest.approx(se, rel=1e-9)
    assert out["vs_rest_holm"] == pytest.approx(clusters.holm(out["vs_rest_p"]).tolist())
    assert out["vs_rest_p"] == pytest.approx([2 * sps.norm.sf(abs(z)) for z in out["vs_rest_z"]], rel=1e-12)
    assert out["df"] == 3 and out["chi2"] >= 0 and 0 <= out["p"] <= 1
    # one game: no variance between games to estimate, so no test (NaN), and no error
    assert math.isfinite(equality_tests(y[:2], n[:2])["chi2"])          # two games: a test
    one = equality_tests(y[:1], n[:1])
    assert math.isnan(one["p"]) and all(math.isnan(p) for p in one["vs_rest_holm"])
    # one realm with data: nothing to compare it with
    alone = equality_tests(y * [1, 0, 0, 0], n * [1, 0, 0, 0])
    assert math.isnan(alone["chi2"]) and math.isnan(alone["p"]) and alone["df"] == 0


def test_the_wald_test_sees_a_realm_that_takes_less_and_not_equal_realms():
    rng = np.random.default_rng(7)
    n = rng.integers(5, 15, size=(200, 4)).astype(float)
    same = rng.binomial(n.astype(int), 0.3).astype(float)
    assert equality_tests(same, n)["p"] > 0.001
    weak = same.copy()
    weak[:, 2] = rng.binomial(n[:, 2].astype(int), 0.15)
    out = equality_tests(weak, n)
    assert out["p"] < 1e-6 and int(np.nanargmin(out["vs_rest_holm"])) == 2 and out["vs_rest"][2] < 0


def test_holm_adjusts_step_down_and_keeps_nan():
    assert holm([0.01, 0.04, math.nan, 0.03]) == pytest.approx([0.03, 0.06, math.nan, 0.06], nan_ok=True)
    assert holm([0.2, 0.6, 0.7]) == pytest.approx([0.6, 1.0, 1.0])         # an adjusted p stops at 1


def test_equality_keeps_a_realm_with_one_possible_capture_and_calls_equal_constant_realms_equal():
    n = np.array([[1, 2, 2, 2], [0, 2, 2, 2], [0, 2, 2, 2]], dtype=float)
    out = equality_tests(n.copy(), n)                     # every realm took all it could: ratios all 1
    assert out["df"] == 3 and out["vs_rest"] == pytest.approx([0.0] * 4)
    assert out["vs_rest_z"] == pytest.approx([0.0] * 4) and out["vs_rest_p"] == pytest.approx([1.0] * 4)


def test_equal_gains_over_a_shared_baseline_are_rejected_at_the_nominal_rate():
    """The realm-gain design of benchmarks/studies/nerath_policy_by_realm.py: per seed one baseline game
    whose seat wins are shared by the four realms' gains (candidate win - baseline win), so a seed's gains
    are correlated. Under equal gains the test rejects at about 5% (coverage by simulation: 400 data sets
    of 200 seeds, tolerance 3 standard errors of a 5% rate)."""
    rng = np.random.default_rng(20261207)
    rejected, sets, seeds = 0, 400, 200
    for _ in range(sets):
        evil = rng.random((seeds, 1)) < 0.5                  # the baseline game: one alliance wins it
        base = np.hstack([evil, ~evil, evil, ~evil]).astype(float)
        lift = rng.random((seeds, 4)) < 0.3                  # the candidate turns a loss into a win this often
        gains = np.maximum(base, lift) - base                # every realm gains 15 points on average
        rejected += equality_tests(gains, np.ones_like(gains))["p"] < 0.05
    rate = rejected / sets
    assert abs(rate - 0.05) < 3 * np.sqrt(0.05 * 0.95 / sets), rate


def test_equal_paired_differences_over_a_shared_baseline_are_rejected_at_the_nominal_rate():
    """The capacity-share check of nerath_policy_by_realm.py --profile: per seed the candidate's share in each
    realm's seat minus the reference's in one baseline game (so a seed's differences share that game), a seed
    without capacity left out (NaN). Realms differ in their share, not in the difference: the test rejects at
    about 5% (coverage by simulation: 400 data sets of 200 seeds, tolerance 3 standard errors of a 5% rate)."""
    rng = np.random.default_rng(20261208)
    rejected, sets, seeds = 0, 400, 200
    level = np.array([0.7, 0.55, 0.8, 0.65])                 # each realm's own share
    for _ in range(sets):
        game = rng.normal(0.0, 0.08, (seeds, 1))              # the baseline game moves every realm's share
        base = level + game + rng.normal(0.0, 0.05, (seeds, 4))
        cand = level + rng.normal(0.0, 0.1, (seeds, 4))
        d = cand - base
        d[rng.random((seeds, 4)) < 0.03] = np.nan
        rejected += equal_differences(d)["p"] < 0.05
    rate = rejected / sets
    assert abs(rate - 0.05) < 3 * np.sqrt(0.05 * 0.95 / sets), rate


def test_equal_differences_leaves_out_the_missing_and_finds_a_shifted_realm():
    rng = np.random.default_rng(3)
    d = rng.normal(0.0, 0.05, (200, 4))
    d[:, 2] += 0.05
    d[::7, 0] = np.nan
    out = equal_differences(d)
    assert out["p"] < 1e-6 and int(np.nanargmin(out["vs_rest_holm"])) == 2
    assert out["vs_rest"][0] == pytest.approx(np.nanmean(d[:, 0]) - d[:, 1:].mean(), abs=1e-12)
