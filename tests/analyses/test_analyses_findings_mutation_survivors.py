"""Which findings a report states, in what words and order: hand-built tables with the exact sentences.

A four-seat game whose every table is built by hand (seats, policies, duels, a rule change tried, the
other player counts, events, unit prices, length, time-outs), stated without and with a fresh
confirmation run; a team game; the card groups; the across-games list.
"""
import types

import numpy as np
import pandas as pd
import pytest

from analyses.findings import (
    COLUMNS,
    NO_CONFIRMATION,
    NOT_CONFIRMED,
    _Collector,
    _impact,
    game_findings,
    sort_findings,
    study_findings,
    verdict,
)
from analyses.fixes import Fix


def seat_game(seat_p=(0.001, 0.5, 0.3, 0.02), timeouts=3):
    seats = pd.DataFrame({"lineup": "L", "seat": [0, 1, 2, 3], "players": 4,
                          "win_rate": [0.30, 0.26, 0.24, 0.20], "ci_low": [0.28, 0.24, 0.22, 0.18],
                          "ci_high": [0.32, 0.28, 0.26, 0.22], "games": 2000, "expected": 0.25,
                          "effect_pp": [5.0, 1.0, -1.0, -5.0], "p_value": list(seat_p)})
    other = seats.assign(lineup="M", p_value=1e-9)           # another lineup: never stated
    summary = pd.DataFrame({"lineup": ["L"], "players": [4], "timeouts": [timeouts], "timeout_rate": [timeouts / 2000],
                            "timeout_ci_low": [0.0005], "timeout_ci_high": [0.004], "games": [2000]})
    by_policy = pd.DataFrame({"policy": ["greedy", "random_play", "balanced"], "win_rate": [0.31, 0.20, 0.27],
                              "ci_low": [0.29, 0.18, 0.25], "ci_high": [0.33, 0.22, 0.29], "games": 1500,
                              "expected": 0.25, "effect_pp": [6.0, -5.0, 2.0], "p_value": [1e-4, 0.001, 0.2]})
    matrix = pd.DataFrame({"policy": ["greedy", "greedy", "balanced", "balanced"],
                           "opponent": ["random", "balanced", "random", "greedy"],
                           "win_rate": [0.9, 0.6, 0.8, 0.4], "ci_low": [0.88, 0.55, 0.77, 0.35],
                           "ci_high": [0.92, 0.65, 0.83, 0.45], "games": [400, 300, 400, 300],
                           "p_value": [1e-9, 0.004, 1e-6, 0.004]})
    ratings = pd.DataFrame({"policy": ["balanced", "greedy", "random"], "elo": [1500.0, 1600.0, 1000.0]})
    fixes = pd.DataFrame({"field": ["hand_size"], "value": ["7"], "change": ["hand size 7"], "measure": ["seat_4_win_rate"],
                          "before": [0.20], "before_low": [0.18], "before_high": [0.22], "after": [0.24],
                          "after_low": [0.22], "after_high": [0.26], "games": [900], "diff_pp": [4.0],
                          "diff_low": [2.0], "diff_high": [6.0], "p_value": [0.003], "closer": [True],
                          "expected": [0.25]})
    ideas = (Fix("last_seat", "hand_size", 7, "deal 7 cards"), Fix("last_seat", "bonus", 1, "give the last seat a bonus"),
             Fix("first_seat", "bonus", 2, "slow the first seat"))
    length = pd.DataFrame({"metric": ["rounds", "turns"], "median": [9.0, 36.5], "p10": [6.0, 24.2], "p90": [12.0, 48.7],
                           "mean": [9.1, 36.44], "ci_low": [8.9, 35.81], "ci_high": [9.3, 37.06], "n": [2000, 2000]})
    sweep_seats = pd.DataFrame({"players": [4, 3, 3, 3], "seat": [3, 0, 1, 2], "win_rate": [0.2, 0.40, 0.30, 0.30],
                                "ci_low": [0.18, 0.37, 0.27, 0.27], "ci_high": [0.22, 0.43, 0.33, 0.33], "games": 900,
                                "expected": [0.25, 1 / 3, 1 / 3, 1 / 3], "effect_pp": [-5.0, 6.7, -3.3, -3.3],
                                "p_value": [1e-9, 0.001, 0.04, 0.3]})
    events = pd.DataFrame({"event": ["deck_runs_out"], "rate": [0.125], "ci_low": [0.11], "ci_high": [0.14], "n": [2000]})
    prices = pd.DataFrame({"unit": ["war_elephant", "archer", "knight"], "attack_value_ratio": [0.8, np.nan, 0.5],
                           "cost": [6.0, 3.0, 10.0], "break_even_attack": [4.8, 3.0, 5.2]})
    return types.SimpleNamespace(
        game="g", title="G", team_game=False, fpa_summary=summary, fpa_seats=pd.concat([seats, other], ignore_index=True),
        teams=pd.DataFrame(), by_policy=by_policy, matrix=matrix, ratings=ratings, fixes=fixes, fix_ideas=ideas,
        extra={"Game events (main run)": events, "Break-even prices against footsoldiers (exact)": prices},
        opening_impact=None, sweep=pd.DataFrame(), sweep_field="players", sweep_seats=sweep_seats, length=length,
        main_policy="balanced", family=None, confirmation=None, warnings=pd.DataFrame())


def measured(seat_p=(1e-4, 0.9, 0.5, 0.03), seat_eff=(4.0, 0.5, -0.5, -4.0), greedy_rate=0.30):
    seats = pd.DataFrame({"lineup": "L", "seat": [0, 1, 2, 3], "players": 4, "win_rate": [0.29, 0.255, 0.245, 0.21],
                          "ci_low": [0.27, 0.23, 0.22, 0.19], "ci_high": [0.31, 0.28, 0.27, 0.23], "games": 3000,
                          "expected": 0.25, "effect_pp": list(seat_eff), "p_value": list(seat_p),
                          "test": "exact binomial test"})
    by_policy = pd.DataFrame({"policy": ["balanced", "greedy"], "win_rate": [0.26, greedy_rate], "ci_low": [0.24, 0.28],
                              "ci_high": [0.28, 0.32], "games": 1200, "expected": 0.25,
                              "effect_pp": [1.0, 100 * (greedy_rate - 0.25)], "p_value": [0.4, 0.002]})
    matrix = pd.DataFrame({"policy": ["greedy", "greedy"], "opponent": ["random", "balanced"], "win_rate": [0.85, 0.58],
                           "ci_low": [0.8, 0.52], "ci_high": [0.9, 0.64], "games": [200, 250], "p_value": [1e-8, 0.01]})
    fixes = pd.DataFrame({"change": ["hand size 7"], "diff_pp": [-1.0], "diff_low": [-3.0], "diff_high": [1.0],
                          "games": [800], "p_value": [0.3]})
    return types.SimpleNamespace(fpa_seats=seats, by_policy=by_policy, matrix=matrix, fixes=fixes,
                                 sweep_seats=pd.DataFrame())


def test_a_seat_game_states_its_findings_significant_first_by_size_with_the_tables_numbers():
    f = game_findings(seat_game())
    assert [(r.kind, r.text) for r in f.itertuples()] == [   (   'units',
        'Footsoldiers are the best buy: on attack a knight is worth only 0.50 of its 10-gold price in footsoldiers '
        '(exact battles; break-even price 5.2 gold). Rule change to try: lower its price towards 5 gold.'),
    (   'policy',
        'The greedy policy is dominant: it beats every other policy in two-player duels, even its closest rival '
        "balanced (60.0% [55.0, 65.0] of 300 games; largest of its duels' p = 0.004, unadjusted). Not yet "
        'confirmed: this report has no confirmation run (fresh games) to measure it again.'),
    (   'sweep',
        'With 3 players, seat 1 wins 40.0% [37.0, 43.0] of 900 games against a fair 33.3% (+6.7 points, p = 0.001, '
        'unadjusted). Not yet confirmed: this report has no confirmation run (fresh games) to measure it again.'),
    (   'policy',
        'At the mixed table the greedy policy is strongest: it wins 31.0% [29.0, 33.0] of 1,500 games against a '
        'fair 25.0% (+6.0 points, p < 0.001, unadjusted). Not yet confirmed: this report has no confirmation run '
        '(fresh games) to measure it again.'),
    (   'seat',
        'Seat 1 of 4 (first to play) wins 30.0% [28.0, 32.0] of 2,000 games against a fair 25.0% — advantaged by '
        '5.0 points (p = 0.001, unadjusted). Not yet confirmed: this report has no confirmation run (fresh games) '
        'to measure it again.'),
    (   'seat',
        'Seat 4 of 4 (last to play) wins 20.0% [18.0, 22.0] of 2,000 games against a fair 25.0% — disadvantaged by '
        '5.0 points (p = 0.02, unadjusted). Not yet confirmed: this report has no confirmation run (fresh games) '
        'to measure it again.'),
    (   'fix',
        'Rule change tried — hand size 7: seat 4 win rate 20.0% [18.0, 22.0] before, 24.0% [22.0, 26.0] after, '
        'over the same 900 deals (+4.0 points [2.0, 6.0], p = 0.003, unadjusted); it helps: closer to a fair '
        '25.0%. Not yet confirmed: this report has no confirmation run (fresh games) to measure it again.'),
    ('timeouts', '0.1% [0.1, 0.4] of 2,000 games hit the turn cap without a winner.'),
    (   'fix',
        'Rule change to try: give the last seat a bonus. (The simulator has no rule switch for this yet, so it is '
        'not tested here.)'),
    ('event', '“deck runs out” happens in 12.5% [11.0, 14.0] of 2,000 games.'),
    (   'length',
        'A game lasts 36.5 turns at the median (80% of games between 24 and 49; mean 36.4 [35.8, 37.1], 2,000 '
        'games).'),
    (   'trust',
        'How far to trust this: the findings rest on the balanced policy in every seat. It beats random play in '
        '80.0% [77.0, 83.0] of 400 two-player duels but is rated 2 of 3 policies (the greedy policy rates higher); '
        'expert players may find lines it misses, so treat small effects as properties of this policy.')]
    assert list(f["status"]) == [""] + [NO_CONFIRMATION] * 6 + [""] * 5
    assert not f["significant"].any()        # without a fresh run nothing is stated as confirmed
    assert list(f["selected"]) == [False] + [True] * 6 + [False] * 5
    assert list(f["effect"].fillna(0)) == pytest.approx([-50.0, 10.0, 6.7, 6.0, 5.0, -5.0, 4.0, 0.15, 0, 0, 0, 0])
    assert list(f["row"]) == [2, 1, 1, 0, 0, 3, 0, 0, -1, 0, 1, 2]


def test_a_fresh_run_confirms_a_claim_only_with_the_same_sign_and_an_adjusted_p_below_alpha():
    f = game_findings(seat_game(), measured())
    assert [(r.kind, r.status, r.significant, r.confirm_row) for r in f.itertuples()] == [   ('policy', 'confirmed', True, 1),
    ('policy', 'confirmed', True, 1),
    ('seat', 'confirmed', True, 0),
    ('units', '', False, -1),
    ('sweep', 'not confirmed', False, -1),
    ('seat', 'not confirmed', False, 3),
    ('fix', 'not confirmed', False, 0),
    ('timeouts', '', False, -1),
    ('fix', '', False, -1),
    ('event', '', False, -1),
    ('length', '', False, -1),
    ('trust', '', False, -1)]
    assert list(f["text"][:7]) == [   'The greedy policy is dominant: it beats every other policy in two-player duels, even its closest rival '
    "balanced (60.0% [55.0, 65.0] of 300 games; largest of its duels' p = 0.004, unadjusted). Confirmation run: "
    "against balanced 58.0% [52.0, 64.0] of 250 fresh games (the largest of its duels' p = 0.03, Holm-adjusted "
    "over this game's 6 confirmation test(s)) — confirmed.",
    'At the mixed table the greedy policy is strongest: it wins 31.0% [29.0, 33.0] of 1,500 games against a fair '
    '25.0% (+6.0 points, p < 0.001, unadjusted). Confirmation run: 30.0% [28.0, 32.0] of 1,200 fresh games (+5.0 '
    "points, p = 0.008, Holm-adjusted over this game's 6 confirmation test(s)) — confirmed.",
    'Seat 1 of 4 (first to play) wins 30.0% [28.0, 32.0] of 2,000 games against a fair 25.0% — advantaged by 5.0 '
    'points (p = 0.001, unadjusted). Confirmation run: 29.0% [27.0, 31.0] of 3,000 fresh games (+4.0 points, p < '
    "0.001, Holm-adjusted over this game's 6 confirmation test(s), exact binomial test) — confirmed.",
    'Footsoldiers are the best buy: on attack a knight is worth only 0.50 of its 10-gold price in footsoldiers '
    '(exact battles; break-even price 5.2 gold). Rule change to try: lower its price towards 5 gold.',
    'With 3 players, seat 1 wins 40.0% [37.0, 43.0] of 900 games against a fair 33.3% (+6.7 points, p = 0.001, '
    'unadjusted). Not confirmed: the confirmation run did not measure it.',
    'Seat 4 of 4 (last to play) wins 20.0% [18.0, 22.0] of 2,000 games against a fair 25.0% — disadvantaged by 5.0 '
    'points (p = 0.02, unadjusted). Confirmation run: 21.0% [19.0, 23.0] of 3,000 fresh games (-4.0 points, p = '
    "0.06, Holm-adjusted over this game's 6 confirmation test(s), exact binomial test) — not confirmed: read the "
    "first run's result as chance.",
    'Rule change tried — hand size 7: seat 4 win rate 20.0% [18.0, 22.0] before, 24.0% [22.0, 26.0] after, over '
    'the same 900 deals (+4.0 points [2.0, 6.0], p = 0.003, unadjusted); it helps: closer to a fair 25.0%. '
    "Confirmation run: -1.0 points [-3.0, 1.0] over 800 fresh deals (p = 0.30, Holm-adjusted over this game's 6 "
    'confirmation test(s)) — not confirmed: the fresh games point the other way.']


def team_game(p_team=0.01):
    teams = pd.DataFrame({"team": ["karkoth_iron", "vailin_nerath"], "seats": ["0+2", "1+3"], "win_rate": [0.56, 0.44],
                          "ci_low": [0.53, 0.41], "ci_high": [0.59, 0.47], "games": 1000, "expected": 0.5,
                          "effect_pp": [6.0, -6.0], "p_value": [p_team, p_team]})
    by_policy = pd.DataFrame({"policy": ["greedy", "balanced"], "win_rate": [0.5, 0.5], "ci_low": [0.47, 0.47],
                              "ci_high": [0.53, 0.53], "games": 800, "expected": 0.5, "effect_pp": [0.0, 0.0],
                              "p_value": [1.0, 1.0]})
    sweep = pd.DataFrame({"metric": ["seat0_win_rate", "karkoth+iron_win_rate", "karkoth+iron_win_rate", "turns"],
                          "value": [3, 3, 4, 3], "estimate": [0.9, 0.62, 0.9, 30.0], "ci_low": [0.8, 0.58, 0.85, 28.0],
                          "ci_high": [0.95, 0.66, 0.95, 32.0], "n": 500})
    summary = pd.DataFrame({"lineup": ["L"], "players": [4], "timeouts": [0], "timeout_rate": [0.0],
                            "timeout_ci_low": [0.0], "timeout_ci_high": [0.004], "games": [1000]})
    return types.SimpleNamespace(
        game="t", title="T", team_game=True, fpa_summary=summary, fpa_seats=pd.DataFrame(), teams=teams,
        by_policy=by_policy, matrix=pd.DataFrame(), ratings=pd.DataFrame(), fixes=pd.DataFrame(),
        fix_ideas=(Fix("team", "order", "x", "let vailin move first"),), extra={}, opening_impact=None, sweep=sweep,
        sweep_field="players", sweep_seats=pd.DataFrame(), length=pd.DataFrame(), main_policy="balanced",
        family=None, confirmation=None, warnings=pd.DataFrame())


def test_a_team_game_states_the_weaker_alliance_a_tie_and_the_other_player_counts():
    f = game_findings(team_game())
    assert [(r.kind, r.text) for r in f.itertuples()] == [
        ('sweep', 'With 3 players, karkoth + iron wins 62.0% [58.0, 66.0] of 500 games (a rate, not a test).'),
        ('team', 'The alliances are unbalanced: vailin nerath wins 44.0% [41.0, 47.0] of 1,000 games against a fair '
                 '50.0% — 6.0 points short (p = 0.01, unadjusted); karkoth iron wins the rest. Not yet confirmed: this '
                 'report has no confirmation run (fresh games) to measure it again.'),
        ('policy', 'At the mixed table (partners rotated) no single policy is strongest: greedy and balanced are tied, '
                    'each winning 50.0% [47.0, 53.0] of 800 games against a fair 50.0% (+0.0 points, p = 1.00, unadjusted).'),
        ('fix', 'Rule change to try: let vailin move first. (The simulator has no rule switch for this yet, so it is '
                'not tested here.)'),
        ('trust', 'How far to trust this: the findings rest on the balanced policy in every seat; expert players may '
                   'find lines it misses.')]
    assert f.loc[1, "selected"] and f.loc[1, "key"] == '{"team": "vailin_nerath"}' and not f.loc[2, "selected"]
    assert list(f["effect"].fillna(0)) == pytest.approx([12.0, -6.0, 0.0, 0.0, 0.0])


def test_even_alliances_are_not_found_and_trigger_no_rule_change():
    f = game_findings(team_game(p_team=0.4))
    assert [(r.kind, r.text) for r in f.itertuples()] == [
        ('sweep', 'With 3 players, karkoth + iron wins 62.0% [58.0, 66.0] of 500 games (a rate, not a test).'),
        ('policy', 'At the mixed table (partners rotated) no single policy is strongest: greedy and balanced are tied, '
                    'each winning 50.0% [47.0, 53.0] of 800 games against a fair 50.0% (+0.0 points, p = 1.00, unadjusted).'),
        ('not_found', 'Neither alliance is favoured: vailin nerath wins 44.0% [41.0, 47.0] of 1,000 games against a '
                      'fair 50.0% (6.0 points short, p = 0.40, unadjusted).'),
        ('trust', 'How far to trust this: the findings rest on the balanced policy in every seat; expert players may '
                   'find lines it misses.')]
    assert not f["selected"].any()


def _rows(game, title, rows):
    """A game's findings table of hand-written rows (kind, text, effect, source, row, significant, status), in the
    order `game_findings` gives them."""
    out = [{"game": game, "title": title, "kind": k, "text": t, "effect": e, "source": s, "row": i, "numbers": f"n{i}",
            "significant": sig, "selected": sig, "status": st, "key": "", "confirm_row": 7 if sig else -1,
            "confirm_numbers": "c" if sig else "", "robustness": "R" if sig else ""}
           for k, t, e, s, i, sig, st in rows]
    return sort_findings(pd.DataFrame(out, columns=COLUMNS))


def _study_games():
    a = _rows("a", "A", [("policy", "Greedy is strongest.", -12.0, "by_policy", 0, True, "confirmed"),
                         ("seat", "Seat 1 wins 30%.", 5.0, "fpa_seats", 0, True, "confirmed"),
                         ("seat", "Seat 4 wins 20%.", -5.0, "fpa_seats", 3, True, "confirmed"),
                         ("impact", "Card x.", 3.0, "opening_impact", 2, True, "confirmed"),
                         ("impact", "Card y.", 9.0, "opening_impact", 0, True, "confirmed"),
                         ("impact", "Card z.", -7.0, "opening_impact", 1, True, "confirmed"),
                         ("fix", "Rule change tried — x.", 2.0, "fixes", 0, False, "not confirmed"),
                         ("fix", "Rule change to try: y.", np.nan, "", -1, False, ""),
                         ("not_found", "No event.", 0.5, "x", 0, False, "")])
    b = _rows("b", "B", [("team", "Alliance gap.", -6.0, "teams", 0, False, NOT_CONFIRMED),
                         ("sweep", "Three players.", 4.0, "sweep", 1, True, "confirmed")])
    c = _rows("c", "C", [("seat", "Seat gap.", 4.0, "fpa_seats", 0, False, NO_CONFIRMATION)])
    d = _rows("d", "D", [("length", "A game lasts 30 turns.", np.nan, "length", 1, False, "")])
    warned = pd.DataFrame({"kind": ["few_games", "rank_disagreement"], "source": ["by_policy", "opening_impact"],
                           "row": [0, 0]})
    games = {"a": types.SimpleNamespace(title="A", team_game=False, warnings=warned),
             "b": types.SimpleNamespace(title="B", team_game=True, warnings=None),
             "c": types.SimpleNamespace(title="C", team_game=False, warnings=pd.DataFrame()),
             "d": types.SimpleNamespace(title="D", team_game=False)}
    return games, {"a": a, "b": b, "c": c, "d": d}


def test_each_verdict_names_the_first_significant_imbalance_or_why_there_is_none():
    games, per_game = _study_games()
    assert verdict(games["a"], per_game["a"]) == "A: not balanced by seat — seat 1 wins 30%."
    assert verdict(games["b"], per_game["b"]) == (
        "B: no alliance is clearly favoured with these policies — the first run's alliance gap was not confirmed on "
        "fresh games.")
    assert verdict(games["c"], per_game["c"]) == (
        "C: a seat gap was found on the first run but is not yet confirmed (no confirmation run).")
    assert verdict(games["d"], per_game["d"]) == "D: no seat is clearly favoured with these policies."


def test_across_games_the_largest_effects_are_taken_at_most_two_a_game_never_a_flagged_one():
    games, per_game = _study_games()
    s = study_findings(games, per_game, top=3, per_game_top=2)
    assert list(s.columns) == COLUMNS
    assert [(r.game, r.kind, r.text) for r in s.itertuples()] == [
        ("a", "verdict", "A: not balanced by seat — seat 1 wins 30%."),
        ("a", "fix", "A: Rule change tried — x."),
        ("b", "verdict", "B: no alliance is clearly favoured with these policies — the first run's alliance gap was "
                         "not confirmed on fresh games."),
        ("c", "verdict", "C: a seat gap was found on the first run but is not yet confirmed (no confirmation run)."),
        ("d", "verdict", "D: no seat is clearly favoured with these policies."),
        ("a", "impact", "A: Card y."), ("a", "impact", "A: Card z."), ("b", "sweep", "B: Three players.")]
    head = s.iloc[0]
    assert (head["effect"], head["source"], head["row"], head["numbers"], head["significant"], head["status"],
            head["confirm_row"], head["confirm_numbers"], head["robustness"]) == (
        5.0, "fpa_seats", 0, "n0", True, "confirmed", 7, "c", "R")
    assert not head["selected"] and head["key"] == ""
    b = s.iloc[2]
    assert np.isnan(b["effect"]) and (b["source"], b["row"], b["numbers"], b["significant"], b["status"],
                                      b["confirm_row"], b["confirm_numbers"], b["robustness"]) == (
        "", -1, "", False, "", -1, "", "")
    one = study_findings(games, per_game, top=1, per_game_top=1)
    assert list(one["text"][5:]) == ["A: Card y."]
    flagged_first = study_findings(games, {**per_game, "a": per_game["a"].iloc[[0, 1]]}, per_game_top=1)
    assert list(flagged_first["text"][4:]) == ["A: Card y.", "B: Three players."]
    nothing = study_findings({"d": games["d"]}, {"d": per_game["d"]})
    assert list(nothing["kind"]) == ["verdict"]


def test_the_study_reads_each_games_own_findings_when_none_are_given():
    games, per_game = _study_games()
    for name, g in games.items():
        g.findings = per_game[name]
    assert study_findings(games).equals(study_findings(games, per_game))


def test_a_policy_is_dominant_only_when_every_duel_is_significant_after_adjustment():
    g = seat_game()
    g.matrix = g.matrix.assign(p_family=[1e-6, 0.2, 1e-6, 0.2])      # the duels' family-adjusted p-values
    f = game_findings(g)
    duel = f[f["source"] == "matrix"].iloc[0]
    assert (duel["kind"], duel["selected"]) == ("not_found", False)
    assert duel["text"] == ("No policy is dominant: the top-rated greedy does not clearly beat balanced in two-player "
                            "duels (60.0% [55.0, 65.0] of 300 games).")
    g.matrix = g.matrix.assign(p_family=[1e-6, 0.01, 1e-6, 0.01])
    f = game_findings(g)
    duel = f[f["source"] == "matrix"].iloc[0]
    assert duel["kind"] == "policy" and "largest of its duels' p = 0.01," in duel["text"]


def test_a_strongest_policy_that_is_not_significant_is_stated_but_not_selected():
    g = seat_game()
    g.by_policy = g.by_policy.assign(p_value=[0.2, 0.001, 0.2])
    row = game_findings(g).set_index("source").loc["by_policy"]
    assert row["text"].startswith("At the mixed table the greedy policy is strongest: it wins 31.0%")
    assert not row["selected"] and row["status"] == "" and row["key"] == '{"policy": "greedy"}'


def test_a_sentence_must_show_its_tables_numbers_even_from_the_first_row():
    g = seat_game()
    c = _Collector(g)
    with pytest.raises(AssertionError, match="does not show"):
        c.add("seat", "Seat 1 wins 31.0%.", 5.0, "fpa_seats", 0, "win_rate:pct")
    c.add("seat", "Seat 1 wins 30.0%.", 5.0, "fpa_seats", 0, "win_rate:pct")
    assert [r["text"] for r in c.rows] == ["Seat 1 wins 30.0%."]


def test_a_last_seat_fix_is_suggested_when_the_last_seat_is_significantly_behind_by_any_margin():
    g = seat_game(seat_p=(0.5, 0.5, 0.5, 0.01))
    g.fpa_seats.loc[3, "effect_pp"] = -0.5
    ideas = [r.text for r in game_findings(g).itertuples() if r.text.startswith("Rule change to try")]
    assert ideas == ["Rule change to try: give the last seat a bonus. (The simulator has no rule switch for this yet, "
                     "so it is not tested here.)"]
    g.fpa_seats.loc[3, "effect_pp"] = 0.5
    assert not any(r.text.startswith("Rule change to try") for r in game_findings(g).itertuples())


def _confirmed_change(within_after=True):
    table = pd.DataFrame({"measure": ["seat 1 win rate", "seat 2 win rate", "mean turns"], "seat": [1.0, 2.0, np.nan],
                          "before": [0.62, 0.38, 30.0], "before_low": [0.6, 0.36, 29.0], "before_high": [0.64, 0.4, 31.0],
                          "after": [0.53, 0.47, 32.5], "after_low": [0.51, 0.45, 31.0], "after_high": [0.55, 0.49, 34.0],
                          "n": [6000, 6000, 6000], "target_low": [0.46, 0.46, np.nan],
                          "target_high": [0.54, 0.54, np.nan], "within_before": [False, False, True],
                          "within_after": [within_after, True, True]})
    table.attrs = {"words": "deal 7 cards", "code": "hand_size=7"}
    return table


def test_a_confirmed_rule_change_names_the_seat_it_helps_and_the_band_every_seat_reaches():
    g = seat_game(seat_p=(0.5, 0.5, 0.5, 0.5))
    g.fpa_seats = g.fpa_seats[g.fpa_seats["lineup"] == "L"]
    g.fixes, g.fix_ideas = g.fixes.iloc[:0], ()
    g.extra = {"Confirmed rule change: hand_size=7": _confirmed_change(), "Confirmed rule change: none": pd.DataFrame()}
    row = game_findings(g).set_index("kind").loc["fix"]
    assert row["text"] == (
        "This report's games find no seat clearly favoured, but a longer run shows what this change improves. "
        "Confirmed rule change — deal 7 cards (hand_size=7): seat 1 of 2 (first to play) wins 62.0% [60.0, 64.0] under "
        "the published rules and 53.0% [51.0, 55.0] with the change, over 6,000 fresh games each; every seat is then "
        "within 50 ± 4 points; a game lasts 30.0 turns on average before and 32.5 after.")
    assert row["effect"] == pytest.approx(9.0) and row["source"] == "extra:Confirmed rule change: hand_size=7"
    later = _confirmed_change(False).iloc[:2].assign(before=[0.41, 0.57])     # seat 1 is the furthest from fair
    g.extra = {"Game events (main run)": seat_game().extra["Game events (main run)"],
               "Confirmed rule change: none": pd.DataFrame(), "Confirmed rule change: hand_size=7": later}
    text = game_findings(g).set_index("kind").loc["fix", "text"]
    assert "seat 1 of 2 (first to play) wins 41.0% [60.0, 64.0] under the published rules" in text
    assert text.endswith("; not every seat is within 50 ± 4 points.") and "turns" not in text


def test_a_seat_ahead_by_less_than_a_point_is_advantaged_and_p_at_alpha_is_not_significant():
    g = seat_game(seat_p=(0.01, 0.5, 0.5, 0.5))
    g.fpa_seats.loc[0, "effect_pp"] = 0.4
    seat = game_findings(g).set_index("kind").loc["seat", "text"]
    assert "— advantaged by 0.4 points (p = 0.01, unadjusted)." in seat
    even = game_findings(team_game(p_team=0.05))
    assert "team" not in set(even["kind"]) and even["text"].str.startswith("Neither alliance is favoured").any()


def test_the_three_largest_card_groups_are_stated_the_fourth_is_named_and_p_at_alpha_is_not_found():
    n = 6
    opening = pd.DataFrame({
        "item": [f"G{i}" for i in range(n)], "kind": "family", "n_with": 400, "win_with": 0.3, "n_without": 600,
        "win_without": 0.25, "diff_pp": [2.0, -9.0, 5.0, 7.5, 1.0, 3.0], "diff_low": -1.0, "diff_high": 1.0,
        "p_value": 0.9, "p_family": [0.01, 1e-5, 0.001, 1e-4, 0.05, 0.2], "deals": 300, "finding": True})
    g = seat_game()
    g.opening_impact = opening
    c = _Collector(g)
    _impact(c)
    assert [(r["kind"], 0.0 if np.isnan(r["effect"]) else r["effect"], r["selected"]) for r in c.rows] == [
        ("impact", -9.0, True), ("impact", 7.5, True), ("impact", 5.0, True), ("impact", 0.0, False),
        ("not_found", 3.0, False)]
    assert c.rows[3]["text"] == ("1 more pass this run's test as well (see the opening-hand table), but only the three "
                                 "largest are measured again on fresh games, so read these as unconfirmed: G0.")
    assert c.rows[4]["text"].startswith("No clear effect of 2 of the 6 card groups in the opening hand: none moves a "
                                        "seat's win rate by more than 3.0 points (largest: at least one G5 card")


def test_a_study_states_its_opening_hand_findings():
    g = seat_game()
    g.opening_impact = pd.DataFrame({
        "item": ["Herald ability"], "kind": ["family"], "n_with": [900], "win_with": [0.30], "n_without": [1100],
        "win_without": [0.21], "diff_pp": [9.0], "diff_low": [6.0], "diff_high": [12.0], "p_value": [1e-5],
        "test": ["two-sided paired t test over deals"], "deals": [700], "finding": [True]})
    impact = game_findings(g).set_index("source").loc["opening_impact"]
    assert impact["kind"] == "impact" and impact["selected"]
    assert impact["text"].startswith("Seats dealt at least one Herald ability card in their opening hand won 30.0%")


def test_the_dominance_sentence_quotes_the_largest_p_value_of_its_duels_not_the_closest_duels():
    g = seat_game()
    g.matrix = g.matrix.assign(p_family=[0.03, 0.01, 1e-6, 0.01])    # the easy duel has the larger adjusted p
    f = game_findings(g)
    duel = f[(f["source"] == "matrix") & (f["kind"] == "policy")].iloc[0]
    assert "largest of its duels' p = 0.03," in duel["text"]


def test_a_first_seat_fix_is_suggested_only_when_the_first_seat_itself_is_significantly_behind():
    g = seat_game(seat_p=(0.01, 0.5, 0.5, 0.5))
    g.fpa_seats.loc[0, "effect_pp"] = -5.0
    ideas = [r.text for r in game_findings(g).itertuples() if r.text.startswith("Rule change to try")]
    assert ideas == ["Rule change to try: slow the first seat. (The simulator has no rule switch for this yet, so it "
                     "is not tested here.)"]
    g = seat_game(seat_p=(0.5, 0.01, 0.5, 0.5))
    g.fpa_seats.loc[1, "effect_pp"] = -5.0
    assert not any(r.text.startswith("Rule change to try: slow") for r in game_findings(g).itertuples())


def test_a_run_without_timeouts_says_nothing_about_the_turn_cap():
    assert "timeouts" not in set(game_findings(seat_game(timeouts=0))["kind"])
    assert "timeouts" in set(game_findings(seat_game(timeouts=1))["kind"])


def test_the_turn_cap_sentence_reads_the_main_line_up_of_the_summary():
    g = seat_game(timeouts=4)
    g.fpa_summary = pd.concat([g.fpa_summary, g.fpa_summary.assign(lineup="M", timeouts=0, timeout_rate=0.0)],
                              ignore_index=True)
    row = game_findings(g).set_index("kind").loc["timeouts"]
    assert row["text"].startswith("0.2% [0.1, 0.4] of 2,000 games hit the turn cap")


def test_a_seat_behind_by_less_than_a_point_is_disadvantaged():
    g = seat_game(seat_p=(0.5, 0.5, 0.5, 0.01))
    g.fpa_seats.loc[3, "effect_pp"] = -0.5
    seat = game_findings(g).set_index("kind").loc["seat"]
    assert "— disadvantaged by 0.5 points" in seat["text"]


def test_a_strongest_policy_at_exactly_alpha_is_not_selected():
    g = seat_game()
    g.by_policy = g.by_policy.assign(p_value=[0.05, 0.001, 0.2])
    row = game_findings(g).set_index("source").loc["by_policy"]
    assert not row["selected"]


def test_the_team_sweep_states_the_setting_furthest_from_even_and_skips_the_main_player_count():
    g = team_game()
    g.sweep = pd.DataFrame({"metric": ["karkoth+iron_win_rate"] * 3, "value": [2, 3, 4], "estimate": [0.8, 0.4, 0.95],
                            "ci_low": [0.75, 0.35, 0.9], "ci_high": [0.85, 0.45, 0.98], "n": 400})
    sweep = game_findings(g).set_index("kind").loc["sweep"]
    assert sweep["text"].startswith("With 2 players, karkoth + iron wins 80.0% [75.0, 85.0]")   # 4 players is the main
    g.fpa_summary = pd.concat([g.fpa_summary, g.fpa_summary.assign(lineup="M", players=2)], ignore_index=True)
    sweep = game_findings(g).set_index("kind").loc["sweep"]
    assert sweep["text"].startswith("With 2 players")        # the main run's player count is the summary's first row


def test_a_turn_cap_share_above_one_percent_is_significant_and_below_it_is_not():
    g = seat_game(timeouts=40)
    g.fpa_summary = g.fpa_summary.assign(timeout_rate=0.02)
    assert game_findings(g).set_index("kind").loc["timeouts", "significant"]
    g.fpa_summary = g.fpa_summary.assign(timeout_rate=0.005)
    assert not game_findings(g).set_index("kind").loc["timeouts", "significant"]
