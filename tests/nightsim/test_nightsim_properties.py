"""Hypothesis properties over random legal action sequences, checked at every step."""
import dataclasses

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nightsim
from nightsim.engine.engine import apply_legal

rules_strategy = st.builds(
    nightsim.Rules,
    players=st.integers(2, 5),
    hand_size=st.integers(1, 7),  # 0 is refused
    creatures_to_win=st.integers(3, 7),
    seals=st.booleans(),
    max_turns=st.integers(5, 150),
    penalty_timing=st.sampled_from(["before_abilities", "after_abilities"]),
    win_timing=st.sampled_from(["immediate", "end_of_action"]),
    scavenger_optional=st.booleans(),
    seal_target=st.sampled_from(["own", "any"]),
    immunity=st.sampled_from(["all_other_creatures", "opponents_only"]),
    seal_counts_as_play=st.booleans(),
    herald_plays_seals=st.booleans(),
    mocker_plays_seals=st.booleans(),
)


def check_invariants(s: nightsim.State) -> None:
    table = s.table
    # card conservation: deck + discard + hands + creatures + seals (+ Herald's revealed) = all cards
    assert sorted(s.all_cards()) == list(range(len(table.cards)))
    for p, crs in enumerate(s.creatures):
        # creature limit held
        assert len(crs) <= s.rules.limit
        for cr in crs:
            # anatomically valid: the card in build position i fits body-part slot i
            assert 1 <= len(cr.cards) <= 3
            for slot, card in enumerate(cr.cards):
                assert not table.is_seal[card] and table.fits[card][slot]
            if cr.seal >= 0:
                assert table.is_seal[cr.seal]
    assert s.actions_left >= 0
    # the public copy of the creatures that observations share is never stale
    fresh = tuple(tuple((tuple(cr.cards), cr.seal) for cr in crs) for crs in s.creatures)
    assert nightsim.observe(s, s.current_player).creatures == fresh
    if not s.is_terminal:
        # a non-terminal state always has a legal action
        assert nightsim.legal_actions(s)


def random_playout(rules, seed, check=True):
    rng = np.random.default_rng(seed)
    s = nightsim.new_game(rules, rng)
    steps = 0
    while not s.is_terminal:
        legal = nightsim.legal_actions(s)
        a = legal[int(rng.integers(len(legal)))]
        apply_legal(s, a, rng)
        steps += 1
        if check:
            check_invariants(s)
        assert steps < 200_000, "game did not terminate"
    return s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_invariants_hold_at_every_step_and_game_ends(rules, seed):
    s = random_playout(rules, seed)
    # every game ends: a win or the turn cap
    assert (s.winner is not None) != s.timed_out
    if s.winner is not None:
        assert s.complete_count(s.winner) >= rules.creatures_to_win
    else:
        assert s.turns == rules.max_turns


def test_seals_are_in_the_deck_only_with_the_expansion():
    base = nightsim.Rules()
    lo = dataclasses.replace(base, seals=True)
    assert len(base.table.cards) == 108 and not any(base.table.is_seal)
    assert len(lo.table.cards) == 120 and sum(lo.table.is_seal) == 12
    assert sorted(c.legion for c in lo.table.cards if c.seal) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
