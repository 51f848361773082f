"""Hypothesis properties over random legal play, checked at every step."""
from collections import Counter

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dreamsim
from dreamsim.engine import cards as C
from dreamsim.engine.engine import _moves_from, apply_legal

ALL = Counter(C.director_cards() + list(C.NIGHTMARES))

rules_strategy = st.builds(
    dreamsim.Rules,
    players=st.integers(2, 6),
    hand_size=st.integers(1, 7),
    max_turns=st.integers(5, 200),
    actions_per_turn=st.integers(1, 3),
    refill=st.sampled_from(["after_play", "end_of_turn"]),
    deck_exhaustion=st.sampled_from(["reshuffle", "stop"]),
    nightmares=st.sampled_from(["after_deal", "after_first_round", "none"]),
    stager=st.sampled_from(["last_seat", "first_seat", "chance"]),
    start=st.sampled_from(["same_corridor", "own_corridor"]),
    shuffle_layout=st.booleans(),
    layout=st.sampled_from([dreamsim.DEFAULT_LAYOUT, ("R B T F .", "C S M C .", "C C* C C ."),
                            ("C C C C C C", "F S M R T B")]),
    dreamwalk_return_arrow=st.booleans(),
    vertigo_rotation=st.sampled_from(["any", "quarter"]),
    intercept_takes=st.sampled_from(["played", "hand"]),
    cancel_trap_setting=st.booleans(),
    black_ignores_town_hall=st.booleans(),
    town_hall_discards=st.sampled_from(["one", "all"]),
    effect_ends_with_card=st.booleans(),
    dreamwalk_trap_self=st.sampled_from(["corridor", "trap_location"]),
    horror_remote_town_hall_wins=st.booleans(),
    star_trap_needs_eligibility=st.booleans(),
    debt_carries_over=st.booleans(),
    speed_cancel_shielded=st.booleans(),
    intercept_own_turn=st.booleans(),
    restaurant_discard_horror=st.booleans(),
    vertigo_trap_optional=st.booleans(),
    discard_action=st.booleans(),
    horror_hand_limit=st.sampled_from(["nightmares_free", "black_free", "all_cards"]),
    paralysis=st.sampled_from(["turn_start", "immediate"]),
)


def check_invariants(s: dreamsim.State) -> None:
    # card conservation: deck + discard + hands + traps + nightmares (+ cards being played) = all 102
    assert Counter(s.all_cards()) == ALL
    # the grid stays a valid arrangement of the 12 locations
    placed = [l for l in s.grid if l >= 0]
    assert sorted(placed) == list(range(12))
    assert all(s.grid[s.cell_of[l]] == l for l in range(12))
    assert all(0 <= r < 4 for r in s.rot)
    # every Midnighter stands on a location
    assert all(0 <= w < 12 for w in s.where)
    assert s.actions_left >= 0 and all(d >= 0 for d in s.debt)
    # the Black Nightmare is only ever in the Horror's hand once it has triggered
    if s.horror >= 0:
        assert C.BLACK in s.hands[s.horror]
    if not s.is_terminal:
        # a non-terminal state always has a legal action
        assert dreamsim.legal_actions(s)
    # the engine's cache of the moves from each location agrees with the board
    for loc, moves in enumerate(s.geo):
        if moves is not None:
            s.geo[loc] = None
            assert _moves_from(s, loc) == moves, loc


def random_playout(rules, seed, check=True):
    rng = np.random.default_rng(seed)
    s = dreamsim.new_game(rules, rng)
    steps = 0
    while not s.is_terminal:
        legal = dreamsim.legal_actions(s)
        a = legal[int(rng.integers(len(legal)))]
        apply_legal(s, a, rng)
        steps += 1
        if check:
            check_invariants(s)
        assert steps < 100_000, "game did not terminate"
    return s


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_invariants_hold_at_every_step_and_game_ends(rules, seed):
    s = random_playout(rules, seed)
    # every game ends: someone woke, the Horror won, or the turn cap
    assert (s.winner is not None) != s.timed_out
    if s.winner is not None:
        assert s.woke == s.winner or (s.horror_won and s.horror == s.winner)
    else:
        assert s.turns == rules.max_turns


def test_many_default_games_end_with_valid_results():
    for seed in range(40):
        r = dreamsim.play_game(dreamsim.Rules(), ["random"] * 4, seed)
        assert r.timed_out or r.winner in range(4)
        assert sum(r.scores) == (0 if r.winner is None else 1)


def test_clone_mid_reaction_continues_identically():
    """A clone taken at an out-of-turn decision plays on exactly like the original."""
    rules = dreamsim.Rules(players=4)
    for seed in range(30):
        rng = np.random.default_rng(seed)
        s = dreamsim.new_game(rules, rng)
        while not s.is_terminal and s.decision != "reaction":
            legal = dreamsim.legal_actions(s)
            apply_legal(s, legal[int(rng.integers(len(legal)))], rng)
        if s.is_terminal:
            continue
        c = s.clone()
        r1, r2 = np.random.default_rng(1), np.random.default_rng(1)
        for _ in range(60):
            if s.is_terminal:
                break
            l1, l2 = dreamsim.legal_actions(s), dreamsim.legal_actions(c)
            assert l1 == l2
            apply_legal(s, l1[0], r1)
            apply_legal(c, l2[0], r2)
        assert repr(s) == repr(c)
        return
    raise AssertionError("no reaction decision reached")


def test_policy_seat_streams_are_independent():
    """Changing seat 3's policy must not change the cards seats 0-2 are dealt."""
    rules = dreamsim.Rules(players=4)
    a = dreamsim.play_game(rules, ["random"] * 4, seed=3, record=True)
    b = dreamsim.play_game(rules, ["random", "random", "random", "runner"], seed=3, record=True)
    assert a.log[1]["hands"][:3] == b.log[1]["hands"][:3]
