"""Seats that play two realms (2 and 3 players): every decision is made for the right realm.

A seat that plays two realms must decide each realm's turn as that realm: putting the seat number where
the realm belongs would make one realm (Karkoth, with 3 players) play as another and never attack.
"""
import numpy as np
import pytest

import nerathsim
from nerathsim import engine as E
from nerathsim.maps import REALMS
from nerathsim.observation import observe

K, V, I, N = range(4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_decision_of_a_turn_is_made_for_the_realm_whose_turn_it_is(players, default_action):
    rules = nerathsim.Rules(map="small", players=players, max_rounds=2)
    s = E.new_game(rules, np.random.default_rng(5))
    seen = set()
    while not s.is_terminal:
        obs = observe(s, s.current_player)
        assert rules.seating[obs.player].count(obs.realm) == 1, (obs, REALMS[obs.realm])
        if s.phase in (E.PH_MOVE, E.PH_COMBAT, E.PH_REGROUP, E.PH_BUY, E.PH_REINFORCE):
            assert obs.realm == obs.turn_realm == s.realm, (obs, REALMS[s.realm])
            seen.add(s.realm)
        E.apply_action(s, default_action(s), np.random.default_rng(0))
    assert seen == {K, V, I, N}


def test_karkoths_first_turn_with_three_players_is_decided_as_karkoth():
    s = E.new_game(nerathsim.Rules(players=3, events=False), np.random.default_rng(100))   # no card window first
    assert s.realm == K and s.current_player == 1          # seat 1 plays Karkoth alone (V+N | K | IC)
    obs = observe(s, 1)
    assert obs.realm == K and s.decision == "movement"
    assert obs.friends(obs.realm) == {K, I}


@pytest.mark.parametrize("seed", [100, 101, 102])
def test_karkoth_fights_battles_in_three_player_games(seed):
    """The issue's reproducer: before the fix Karkoth fought 0 battles in every game and K+IC always won."""
    r = nerathsim.play_game(nerathsim.Rules(players=3), ["balanced"] * 3, seed=seed)
    rec = r.to_record()
    for realm in REALMS:
        assert rec[f"{realm}_battles_fought"] >= 3, (realm, rec[f"{realm}_battles_fought"])
        assert rec[f"{realm}_units_bought"] >= 3, (realm, rec[f"{realm}_units_bought"])


STATS = ("battles_fought", "units_bought", "conquests")
CONFIGS = [(2, "alliance"), (3, "alliance"), (4, "alliance"), (4, "free_for_all")]


def _rates(players, mode, games=6):
    """Per realm and stat: the count per game turn over `games` fixed-seed games of the default map
    (the small map is not representative here: its 2- and 3-player games drag on at lower rates)."""
    rules = nerathsim.Rules(players=players, mode=mode)
    tot = {k: np.zeros(4) for k in STATS}
    turns = 0
    for seed in range(games):
        r = nerathsim.play_game(rules, ["balanced"] * players, seed=1000 + seed)
        rec = r.to_record()
        turns += r.turns
        for k in STATS:
            tot[k] += [rec[f"{realm}_{k}"] for realm in REALMS]
    return {k: v / turns for k, v in tot.items()}


@pytest.fixture(scope="module")
def four_player_rates():
    return _rates(4, "alliance")


@pytest.mark.parametrize("players,mode", CONFIGS)
def test_every_realm_fights_buys_and_captures_at_about_the_four_player_rate(players, mode, four_player_rates):
    """A realm that silently stops playing fails here: with every seat count and mode, each
    realm's battles, purchases and conquests per turn stay within half to twice the four-player
    alliance game's mean rate (measured on these seeds: 0.65-1.21x)."""
    got = _rates(players, mode)
    for k in STATS:
        ref = four_player_rates[k].mean()
        assert ref > 0.3, (k, ref)
        for p, rate in enumerate(got[k]):
            assert 0.5 * ref <= rate <= 2.0 * ref, (players, mode, REALMS[p], k, round(rate, 3), round(ref, 3))
