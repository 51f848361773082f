"""IS-MCTS: finds the one winning move of hand-built positions, is
deterministic for a seed, plays through `simulate` by name, and refuses bad specs."""
from __future__ import annotations

import numpy as np
import pytest

import analyses
import dreamsim
import nightsim
from analyses.games import resolve_policies
from analyses.search import ISMCTSPolicy, parse_ismcts
from analyses.search.ismcts import CappedChooser
from dreamsim.engine.scenario import build_state as dream_position
from nightsim.engine.scenario import build_state as night_position
from nightsim.engine.scenario import find_cards


def _night_one_winning_move():
    """2 creatures win; seat 0 has one complete creature, legs + torso, a fitting head and one
    action left; seat 1 could finish its second creature next turn (it holds a head too)."""
    r = nightsim.Rules(players=2, creatures_to_win=2)
    legs, torso, head = (find_cards(r, slots=(part,), ability=None, seal=False) for part in ("legs", "torso", "head"))
    s = night_position(r, hands=[[head[1], legs[2], torso[2]], [head[4], legs[5]]],
                       creatures=[[[legs[0], torso[0], head[0]], [legs[1], torso[1]]],
                                  [[legs[3], torso[3], head[3]], [legs[4], torso[4]]]], actions_left=1)
    return s


def _dream_one_winning_move():
    """Seat 0 on the Bridge with a Midnight Star and one action left: only the Star wakes it
    (seat 1 holds no card, so nobody can cancel or intercept it in any determinisation)."""
    return dream_position(where=["Bridge", "Corridor 1"], hands=[["star", "walk", "walk", "vertigo", "walk"], []],
                          actions_left=1)


def _winners(game, s):
    out = []
    for a in game.legal_actions(s):
        t = s.clone()
        game.apply_action(t, a, np.random.default_rng(0))
        if t.is_terminal and t.winner == s.current_player:
            out.append(a)
    return out


@pytest.mark.parametrize("game,position,rollout", [
    (nightsim, _night_one_winning_move, None), (nightsim, _night_one_winning_move, "random"),
    (dreamsim, _dream_one_winning_move, None), (dreamsim, _dream_one_winning_move, "random"),
])
def test_ismcts_finds_the_one_winning_move(game, position, rollout):
    s = position()
    legal = game.legal_actions(s)
    win = _winners(game, s)
    assert len(win) == 1 and len(legal) >= 3  # a real choice with exactly one winning move
    # with random rollouts and no bias towards the rollout policy's choice: the search alone finds it
    policy = ISMCTSPolicy(game.__name__, iterations=60, rollout=rollout, bias=0.0 if rollout == "random" else 1.0)
    for seed in range(3):
        assert policy(game.observe(s, 0), legal, np.random.default_rng(seed)) == win[0]


def test_the_choice_depends_only_on_the_observation():
    """Two states that look the same to seat 0 (the second is a determinisation of the first)
    get the same choice from the same generator: the policy never reads the real state."""
    s = nightsim.new_game(nightsim.Rules(players=2), 4)
    t = nightsim.sample_state(nightsim.observe(s, 0), np.random.default_rng(9))
    assert t.hands[1] != s.hands[1] or t.deck != s.deck
    policy = ISMCTSPolicy("nightsim", iterations=30)
    picks = [policy(nightsim.observe(x, 0), nightsim.legal_actions(x), np.random.default_rng(1)) for x in (s, t)]
    assert picks[0] == picks[1]


@pytest.mark.parametrize("game", [nightsim, dreamsim])
def test_a_game_is_deterministic_for_its_seed(game):
    policy = ISMCTSPolicy(game.__name__, iterations=8, cutoff=30)
    rules = game.Rules(players=2)
    runs = [game.play_game(rules, [policy, "heuristic"], seed=5).to_record() for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0]["seat0_policy"] == "ismcts:8"


def test_simulate_plays_ismcts_by_name():
    df = analyses.simulate("nightsim", 2, rules={"players": 2}, policies="ismcts:50,random", seed=3, progress=False)
    assert len(df) == 2
    assert set(df["seat0_policy"]) | set(df["seat1_policy"]) == {"ismcts:50", "random"}
    assert df.attrs["policies"][0].startswith("ISMCTSPolicy(game='nightsim', iterations=50, rollout='heuristic'")


def test_specs_parse_into_policies_whose_repr_names_the_parameters():
    p = resolve_policies(dreamsim, "ismcts:40:rollout=random:c=1.5:cutoff=20,heuristic", 2)[0]
    assert p == ISMCTSPolicy("dreamsim", iterations=40, rollout="random", c=1.5, cutoff=20, name=p.name)
    assert repr(p) == "ISMCTSPolicy(game='dreamsim', iterations=40, rollout='random', c=1.5, cutoff=20, seconds=None, bias=1.0)"
    assert parse_ismcts(nightsim, "ismcts:7").rollout == "heuristic"  # the parameterised heuristic by default


@pytest.mark.parametrize("spec,message", [
    ("ismcts:abc", "positive integer"), ("ismcts:0", "positive integer"), ("ismcts:-3", "positive integer"),
    ("ismcts:5:depth=3", "bad option"), ("ismcts:5:c=x", "expects float"),
    ("ismcts:5:rollout=nobody", "unknown rollout policy"),
])
def test_a_bad_spec_is_a_clear_value_error(spec, message):
    with pytest.raises(ValueError, match=message):
        resolve_policies(nightsim, f"{spec},random", 2)
    with pytest.raises(ValueError, match=message):
        analyses.simulate("nightsim", 1, rules={"players": 2}, policies=f"{spec},random", progress=False)


def test_a_time_budget_stops_the_search():
    policy = ISMCTSPolicy("nightsim", iterations=20_000, seconds=0.05)  # the largest budget the limits allow
    s = nightsim.new_game(nightsim.Rules(players=2), 1)
    root = policy.search(nightsim.observe(s, 0), np.random.default_rng(0))
    assert 0 < root.visits < 20_000


# --- paired mode: one-step rollout improvement of the rollout policy on common random numbers ---

@pytest.mark.parametrize("game,position,rollout", [
    (nightsim, _night_one_winning_move, "random"), (dreamsim, _dream_one_winning_move, "random"),
    (nightsim, _night_one_winning_move, None), (dreamsim, _dream_one_winning_move, None),
])
def test_paired_search_finds_the_one_winning_move(game, position, rollout):
    s = position()
    legal = game.legal_actions(s)
    win = _winners(game, s)
    policy = ISMCTSPolicy(game.__name__, iterations=60, rollout=rollout, paired=True)
    for seed in range(3):
        choice, table = policy.choose_paired(game.observe(s, 0), np.random.default_rng(seed), legal)
        assert choice == win[0]
        means = {a: m for a, m, _ in table}
        assert means[win[0]] == 1.0 and [n for _, _, n in table] == [60 // len(legal)] * len(legal)


@pytest.mark.parametrize("game", [nightsim, dreamsim])
def test_paired_search_keeps_the_rollout_policys_choice_without_a_significant_gain(game):
    """With an unreachable margin (z huge) the paired search plays exactly its rollout policy:
    the same generator gives the heuristic's own choice in every position of a played game."""
    rules = game.Rules(players=2)
    s = game.new_game(rules, 11 if game is nightsim else 12)  # a deal whose game has 12 decisions with a choice
    heuristic = game.POLICIES["heuristic"]
    policy = ISMCTSPolicy(game.__name__, iterations=6, cutoff=5, paired=True, z=1e9)
    chance, checked = np.random.default_rng(0), 0
    while not s.is_terminal and checked < 12:
        legal = game.legal_actions(s)
        obs = game.observe(s, s.current_player)
        if len(legal) > 1:
            assert policy(obs, legal, np.random.default_rng(checked)) == heuristic(obs, legal, np.random.default_rng(checked))
            checked += 1
        game.apply_action(s, heuristic(obs, legal, chance), chance)
    assert checked == 12


def test_paired_spec_parses_and_a_paired_game_is_deterministic():
    p = resolve_policies(dreamsim, "ismcts:16:paired=1:z=0.5:cutoff=10,heuristic", 2)[0]
    assert p.paired is True and p.z == 0.5 and p.cutoff == 10
    assert repr(p).endswith("bias=1.0, paired=True, z=0.5)")
    runs = [dreamsim.play_game(dreamsim.Rules(players=2), [p, "heuristic"], seed=2).to_record() for _ in range(2)]
    assert runs[0] == runs[1]
    for spec, message in (("ismcts:5:paired=2", "paired expects 0 or 1"), ("ismcts:5:z=-1", "z must be >= 0")):
        with pytest.raises(ValueError, match=message):
            resolve_policies(nightsim, f"{spec},random", 2)


def test_paired_search_with_a_tiny_time_budget_still_answers():
    s = _dream_one_winning_move()
    legal = dreamsim.legal_actions(s)
    policy = ISMCTSPolicy("dreamsim", iterations=20_000, seconds=1e-9, rollout="random", paired=True, z=0.0)
    choice, table = policy.choose_paired(dreamsim.observe(s, 0), np.random.default_rng(0), legal)
    assert choice in legal and [n for _, _, n in table] == [1] * len(legal)


class _SeatSpy:
    """A rollout policy that records the seats it was asked for and plays the first legal action."""

    observes = True

    def __init__(self):
        self.seats = set()

    def __call__(self, obs, legal, rng):
        self.seats.add(obs.player)
        return legal[0]


def test_orollout_plays_the_other_seats_in_the_rollouts():
    s = dream_position(where=["Corridor 1", "Corridor 2"], hands=[["walk", "walk", "vertigo"], ["walk", "star"]],
                       actions_left=2)
    mine, other = _SeatSpy(), _SeatSpy()
    policy = ISMCTSPolicy("dreamsim", iterations=12, rollout=mine, orollout=other, paired=True, z=0.0, cutoff=8)
    legal = dreamsim.legal_actions(s)
    policy(dreamsim.observe(s, 0), legal, np.random.default_rng(0))
    assert mine.seats == {0} and other.seats == {1}
    alone = _SeatSpy()
    ISMCTSPolicy("dreamsim", iterations=12, rollout=alone, paired=True, z=0.0, cutoff=8)(
        dreamsim.observe(s, 0), legal, np.random.default_rng(0))
    assert alone.seats == {0, 1}


def test_orollout_spec_parses_plays_deterministically_and_refuses_unknown_policies():
    p = resolve_policies(dreamsim, "ismcts:12:paired=1:z=0:cutoff=4:orollout=heuristic,heuristic", 2)[0]
    assert p.orollout == "heuristic" and "orollout='heuristic'" in repr(p)
    runs = [dreamsim.play_game(dreamsim.Rules(players=2), [p, "heuristic"], seed=5).to_record() for _ in range(2)]
    assert runs[0] == runs[1]
    with pytest.raises(ValueError, match="unknown orollout policy"):
        resolve_policies(dreamsim, "ismcts:5:orollout=nobody,heuristic", 2)


def test_gamecap_bounds_the_searched_decisions_of_a_game_and_changes_nothing_before():
    rules, spec = dreamsim.Rules(players=2), "ismcts:12:paired=1:z=0:topk=3:rollout=tuned:cutoff=3:belief=reactions"

    def play(extra, seed=4):
        policy = resolve_policies(dreamsim, f"{spec}{extra},heuristic", 2)[0]
        made = []
        base = policy.for_game

        class Spy:   # keeps the chooser the game makes, to read its count
            def for_game(self, rng):
                made.append(base(rng))
                return made[-1]

            def __call__(self, obs, legal, rng):
                raise AssertionError("play_game uses for_game")

            def __repr__(self):
                return "spy"
        game = dreamsim.play_game(rules, [Spy(), "heuristic"], seed=seed)
        return game.to_record(), made[0]

    plain, chooser = play("")
    assert chooser.searched > 3
    unreached, c2 = play(f":gamecap={chooser.searched}")   # a cap never reached: the same game
    assert unreached == plain and c2.searched == chooser.searched
    capped, c3 = play(":gamecap=3")
    assert c3.searched == 3 and capped == play(":gamecap=3")[0]   # bounded, deterministic for the seed
    assert isinstance(resolve_policies(dreamsim, "ismcts:5:gamecap=2,heuristic", 2)[0].for_game(
        np.random.default_rng(0)), CappedChooser)
    with pytest.raises(ValueError, match="gamecap must be a non-negative integer"):
        resolve_policies(dreamsim, "ismcts:5:gamecap=-1,heuristic", 2)


def test_a_capped_chooser_plays_the_rollout_policys_choice_once_the_cap_is_spent():
    s = dream_position(where=["Corridor 1", "Corridor 2"], hands=[["walk", "walk", "vertigo"], ["walk", "star"]],
                       actions_left=2)
    obs, legal = dreamsim.observe(s, 0), dreamsim.legal_actions(s)
    policy = ISMCTSPolicy("dreamsim", iterations=8, rollout="heuristic", paired=True, z=0.0, cutoff=2, gamecap=1)
    chooser = CappedChooser(policy, np.random.default_rng(0))
    chooser(obs, legal)
    assert chooser.searched == 1
    spent = CappedChooser(policy, np.random.default_rng(1))
    spent.searched = 1
    heuristic = dreamsim.POLICIES["heuristic"]
    assert spent(obs, legal) == heuristic(obs, legal, np.random.default_rng(1)) and spent.searched == 1
