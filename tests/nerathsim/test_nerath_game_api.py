"""The game-module protocol: play_game, GameResult, errors, LegalActions, Observation, policies, analyses."""
import dataclasses
import re

import numpy as np
import pytest

import nerathsim as api
from analyses.games import load_game, make_rules
from analyses.runner import simulate
from nerathsim import engine as E
from nerathsim.game import LegalActions
from nerathsim.game_actions import Amok, Buy, Embark, Fight, Move, RetreatTo, Sail, Unload
from nerathsim.log import LUCK_NOTE
from nerathsim.observation import observe
from nerathsim.policies import Purchase, RandomPolicy, WarPolicy
from nerathsim.rules import Rules

K, V, I, N = range(4)
# the rules of Parts I–II without the cards and guardians of Part III (scenarios of other rules stay exact)
FFA = Rules(map="small", mode="free_for_all", events=False, dungeons=False)

SMALL = dataclasses.replace(FFA, max_rounds=6)


def test_exports():
    for name in ("Rules", "new_game", "legal_actions", "apply_action", "observe", "play_game", "POLICIES",
                 "GameResult", "IllegalActionError", "RULES_VERSION", "FACTIONS"):
        assert hasattr(api, name), name
    assert api.FACTIONS == ("karkoth", "vailin", "iron_circle", "nerath")
    assert {"random", "balanced", "aggressive", "defensive"} <= set(api.POLICIES)
    assert "nerath-battles" in api.RULES_VERSION


def test_record_is_flat_and_plain():
    res = api.play_game(SMALL, ["balanced"] * 4, 1)
    row = res.to_record()
    for i in range(4):
        assert row[f"seat{i}_policy"] == "balanced"
        assert row[f"seat{i}_faction"] == api.FACTIONS[i]
        assert row[f"seat{i}_score"] == row[f"seat{i}_vp"]
        for stat in ("regions", "gold_earned", "gold_spent", "battles_fought", "battles_won", "units_lost", "luck",
                     "spent_dragon"):
            assert f"seat{i}_{stat}" in row
    assert "karkoth_vp" in row and "nerath_luck" in row and "rounds" in row
    assert set(("winner", "turns", "decisions", "timed_out")) <= set(row)
    for k, v in row.items():
        assert v is None or isinstance(v, (int, float, str, bool, np.integer, np.floating)), (k, v)
    assert sum(row[f"seat{i}_gold_spent"] for i in range(4)) == sum(
        row[f"seat{i}_spent_{u}"] for i in range(4) for u in api.Rules().units.names)


def test_team_wins_are_tuples_and_strings_in_the_record():
    rules = dataclasses.replace(api.Rules(map="small"), vp_to_win=3, max_rounds=8)
    for seed in range(6):
        res = api.play_game(rules, ["aggressive"] * 4, seed)
        if res.winner is not None:
            assert isinstance(res.winner, tuple) and res.winner in ((0, 2), (1, 3))
            assert res.to_record()["winner"] in ("0+2", "1+3")
            return
    pytest.fail("no team won in six short games")


def test_two_player_factions_and_scores():
    rules = api.Rules(map="small", players=2, max_rounds=3)
    res = api.play_game(rules, ["balanced", "random"], 3)
    assert res.factions == ("karkoth+iron_circle", "vailin+nerath")
    assert res.scores == (res.realm_stats["vp"][0] + res.realm_stats["vp"][2],
                          res.realm_stats["vp"][1] + res.realm_stats["vp"][3])


def test_format_log_needs_record():
    res = api.play_game(SMALL, ["balanced"] * 4, 2, record=True)
    text = res.format_log()
    assert "== Turn 1 (round 1): Karkoth" in text and "collects" in text
    with pytest.raises(ValueError, match="record=True"):
        api.play_game(SMALL, ["balanced"] * 4, 2).format_log()


@pytest.mark.parametrize("rules, seed", [(api.Rules(), 1), (api.Rules(players=2, casualty_choice="order"), 4)])
def test_format_log_reads_as_a_game_report_one_line_per_event(rules, seed):
    res = api.play_game(rules, ["balanced"] * rules.players, seed, record=True)
    lines = res.format_log().splitlines()
    shown = [e for e in res.log if e["event"] != "decision"]
    assert len(lines) == len(shown) + 1 and lines.count(LUCK_NOTE) == 1          # luck explained once
    assert not [x for x in lines if re.search(r"[{}\[\]]|\w+\(\w*=|Effect\(|Hit\(|Move\(", x)]   # no code reprs
    turns = [int(m.group(1)) for x in lines for m in [re.match(r"== Turn (\d+) ", x)] if m]
    assert turns == list(range(1, res.turns + 1))                         # numbered like GameResult.turns
    rolls = [x for x in lines if re.match(r"    round \d+", x)]
    assert len(rolls) == sum(1 for e in shown if e["event"] == "roll") and all("dice" in x or "die" in x for x in rolls)
    assert all(" -> " in x and "hit" in x for x in rolls)
    # one line per event: the decision behind it is not written again
    assert not any("press the attack" in x or "take the hit" in x for x in lines)


def test_actions_of_different_kinds_never_compare_equal():
    assert Fight(3) != Amok(3) and RetreatTo(3) != Amok(3)
    assert len({Fight(3), Amok(3), RetreatTo(3)}) == 3
    assert Move(1, 2, "footsoldier", 1) == Move(1, 2, "footsoldier", 1)


def random_states(n=25, seed=0):
    """States met in random games on the small map (each a fresh clone)."""
    rng = np.random.default_rng(seed)
    out = []
    s = api.new_game(dataclasses.replace(FFA, max_rounds=4), rng)
    while not s.is_terminal and len(out) < n:
        legal = api.legal_actions(s)
        if rng.random() < 0.2:
            out.append(s.clone())
        E.apply_legal(s, legal[int(rng.integers(len(legal)))], rng)
    return out


def test_fast_legality_check_agrees_with_the_list():
    for s in random_states(40):
        legal = api.legal_actions(s)
        la = LegalActions(s)
        assert all(a in la for a in legal)
        probes = []
        for a in legal:
            if isinstance(a, Move):
                probes += [a._replace(count=a.count + 50), a._replace(dst=(a.dst + 1) % s.board.n)]
            elif isinstance(a, Buy):
                probes += [a._replace(at=(a.at + 3) % s.board.n)]
            elif isinstance(a, (Sail, Unload)):
                probes += [a._replace(dst=(a.dst + 5) % s.board.n), a._replace(ship=a.ship + 99)]
            elif isinstance(a, Embark):
                probes += [a._replace(src=(a.src + 1) % s.board.n)]
        probes += [Fight(1), Amok(2), RetreatTo(0), Move(0, 1, "footsoldier", 1), Buy("dragon", 0)]
        for p in probes:
            assert (p in la) == (p in legal), (p, s.decision)


def test_by_kind_lists_the_same_actions_in_the_same_order():
    for s in random_states(30, seed=1):
        legal = api.legal_actions(s)
        grouped = E.legal_by_kind(s)
        kinds = {}
        for a in legal:
            kinds.setdefault(type(a), []).append(a)
        assert [list(g) for g in grouped] == list(kinds.values())


def test_observation_shows_own_hand_and_counts_of_others():
    s = api.new_game(dataclasses.replace(FFA, events=True), np.random.default_rng(0))
    o = observe(s, 0)
    assert o.hand == tuple(s.hands[K]) and o.hand_sizes == (3, 2, 2, 2)
    assert o.realm == K and o.decision in ("movement", "play cards")   # a card window may open first
    o.memo["x"] = 1
    assert observe(s, 1).memo == {}


def test_purchase_strategy_never_buys_what_it_weights_zero():
    nodragons = WarPolicy(name="no-dragons", purchase=Purchase().without("dragon").with_weight("footsoldier", 1.0))
    rules = dataclasses.replace(FFA, max_rounds=5)
    for seed in range(3):
        res = api.play_game(rules, [nodragons] * 4, seed)
        assert all(v == 0 for v in res.realm_stats["spent_dragon"])
    dragons_only = WarPolicy(name="dragons", purchase=Purchase(weights=(("dragon", 1.0),)))
    res = api.play_game(rules, [dragons_only] * 4, 0)
    spent = res.realm_stats
    assert sum(spent["gold_spent"]) == sum(spent["spent_dragon"]) > 0


def test_random_policy_ends_by_the_round_cap():
    res = api.play_game(dataclasses.replace(api.Rules(), max_rounds=3), ["random"] * 4, 0)
    assert res.timed_out or res.winner is not None
    assert res.stats["rounds"] <= 3
    flat = RandomPolicy(flat=True)
    res = api.play_game(SMALL, [flat] * 4, 0)
    assert res.timed_out or res.winner is not None


def test_heuristics_beat_random_on_the_small_map():
    wins = 0
    for seed in range(6):
        pols = ["random"] * 4
        pols[seed % 4] = "balanced"
        res = api.play_game(dataclasses.replace(FFA, max_rounds=10), pols, seed)
        wins += res.winner == seed % 4
    assert wins >= 4


def test_analyses_layer_runs_the_game_module():
    module = load_game("nerathsim")
    rules = make_rules(module, {"map": "small", "mode": "free_for_all", "max_rounds": "4"})
    df = simulate(module, 4, rules=rules, policies="balanced,random,random,random", progress=False)
    assert len(df) == 4 and "seat0_faction" in df.columns and "karkoth_vp" in df.columns
    assert df.attrs["rules_version"] == api.RULES_VERSION
