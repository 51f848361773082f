"""dreamsim.sample_state: a state consistent with one seat's observation,
the unseen cards dealt at random — consistency, frequencies, and playing on to the end."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import dreamsim
from dreamsim import apply_action, legal_actions, observe, sample_state
from dreamsim.engine.cards import BLACK, KIND_NAMES, LOCATION_OF_SUSPENSE
from dreamsim.engine.determinize import PARTNER_KINDS, SUSPENSE_KINDS, unseen_cards
from dreamsim.engine.scenario import build_state


def _positions(seed: int, policy: str):
    """Every live state of one game (random or heuristic play), as clones."""
    rules = dreamsim.Rules(players=2 + seed % 3)
    s = dreamsim.new_game(rules, seed)
    rng = np.random.default_rng(seed)
    pol = dreamsim.POLICIES[policy]
    while not s.is_terminal:
        yield s.clone()
        legal = legal_actions(s)
        apply_action(s, pol(observe(s, s.current_player), legal, rng), rng)


@pytest.mark.parametrize("seed,policy", [(0, "random"), (1, "heuristic"), (2, "random"), (3, "runner"),
                                         (4, "heuristic"), (5, "random")])
def test_the_sampled_state_looks_to_the_seat_exactly_like_its_observation(seed, policy):
    rng = np.random.default_rng(100 + seed)
    checked = 0
    for s in _positions(seed, policy):
        for p in range(s.n):
            obs = observe(s, p)
            t = sample_state(obs, rng)
            assert observe(t, p) == obs, f"seed {seed}, seat {p}, {s!r}"
            assert sorted(t.all_cards()) == sorted(s.all_cards())  # every card once, none invented
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_sampled_state_plays_on_legally_to_the_end(seed):
    rng = np.random.default_rng(seed)
    for i, s in enumerate(_positions(seed, "heuristic")):
        if i % 7:
            continue
        t = sample_state(observe(s, s.current_player), rng)
        assert legal_actions(t) == legal_actions(s.clone())  # the seat's own choice is the same
        while not t.is_terminal:
            legal = legal_actions(t)
            assert legal
            apply_action(t, legal[int(rng.integers(len(legal)))], rng)  # apply_action checks legality


def _frequency_test(counts: np.ndarray, expected: np.ndarray) -> float:
    keep = expected > 0
    return stats.chisquare(counts[keep], expected[keep] * counts[keep].sum() / expected[keep].sum()).pvalue


def test_every_unseen_card_kind_lands_in_each_hidden_place_with_the_right_frequency():
    """At a deal (3 players, no Horror yet): the Black Nightmare never leaves a hand, so it is in
    the deck; every other unseen kind lands in a hidden place in proportion to its unseen copies
    (expected count = copies x place size / unseen cards other than the Black)."""
    s = dreamsim.new_game(dreamsim.Rules(players=3), 7)
    obs = observe(s, 0)
    assert obs.horror == -1
    pool = unseen_cards(obs)
    kinds = np.bincount(pool, minlength=len(KIND_NAMES)).astype(float)
    free = kinds.copy()
    free[BLACK] = 0
    rng = np.random.default_rng(11)
    n = 3000
    places = {1: np.zeros(len(KIND_NAMES)), 2: np.zeros(len(KIND_NAMES)), "deck": np.zeros(len(KIND_NAMES))}
    tops = np.zeros(len(KIND_NAMES))
    for _ in range(n):
        t = sample_state(obs, rng)
        for q in (1, 2):
            places[q] += np.bincount(t.hands[q], minlength=len(KIND_NAMES))
        places["deck"] += np.bincount(t.deck, minlength=len(KIND_NAMES))
        tops[t.deck[-1]] += 1
    for q in (1, 2):
        expected = free * obs.hand_sizes[q] / free.sum() * n
        assert places[q][BLACK] == 0
        assert _frequency_test(places[q], expected) > 1e-3, q
    expected = free * (obs.deck_size - 1) / free.sum() * n
    expected[BLACK] = n
    assert places["deck"].sum() == pytest.approx(expected.sum())
    assert _frequency_test(places["deck"], expected) > 1e-3
    # the top card of the deck alone: the Black with chance 1 / deck size, the rest by their share
    expected_top = free * (1 - 1 / obs.deck_size) / free.sum()
    expected_top[BLACK] = 1 / obs.deck_size
    assert _frequency_test(tops, expected_top) > 1e-3


def _position_with_hidden_traps_and_discard():
    """A live position from a heuristic game where seat 1 has face-down traps and the discard
    pile holds hidden cards under its top."""
    for seed in range(0, 300, 3):  # players = 2 + seed % 3: the 2-player games only
        for s in _positions(seed, "heuristic"):
            if len(s.traps[1]) >= 1 and len(s.discard) >= 3 and s.current_player == 0:
                return s
    raise AssertionError("no such position in 100 two-player games")


def test_face_down_traps_get_suspense_and_partner_cards_in_proportion_to_the_unseen_ones():
    s = _position_with_hidden_traps_and_discard()
    obs = observe(s, 0)
    pool = unseen_cards(obs)
    rng = np.random.default_rng(5)
    n = 3000
    loc_counts, partner_counts = {}, {}
    below = np.zeros(len(KIND_NAMES))
    for _ in range(n):
        t = sample_state(obs, rng)
        loc, kind = t.traps[1][0]
        loc_counts[loc] = loc_counts.get(loc, 0) + 1
        partner_counts[kind] = partner_counts.get(kind, 0) + 1
        below += np.bincount(t.discard[:-1], minlength=len(KIND_NAMES))
        assert t.discard[-1] == obs.discard_top
    su = sorted(k for k in set(pool) if k in SUSPENSE_KINDS)
    got = np.array([loc_counts.get(LOCATION_OF_SUSPENSE[k], 0) for k in su], float)
    want = np.array([pool.count(k) for k in su], float)
    assert got.sum() == n and _frequency_test(got, want) > 1e-3
    kinds = [k for k in PARTNER_KINDS if k in pool]
    got = np.array([partner_counts.get(k, 0) for k in kinds], float)
    # the partner is drawn after the Suspense card, from the unseen partner-kind cards
    want = np.array([pool.count(k) for k in kinds], float)
    assert got.sum() == n and _frequency_test(got, want) > 1e-3
    assert below.sum() == n * (obs.discard_size - 1)
    assert set(np.flatnonzero(below)) <= set(pool)  # only unseen cards go under the top


def test_the_black_nightmare_stays_with_the_horror_and_a_bad_observation_is_refused():
    s = build_state(where=["Corridor 2", "Corridor 1"], hands=[["walk", "star"], ["black", "walk"]], horror=1)
    rng = np.random.default_rng(0)
    for _ in range(50):
        t = sample_state(observe(s, 0), rng)
        assert BLACK in t.hands[1] and observe(t, 0) == observe(s, 0)
    s.is_terminal = True
    with pytest.raises(ValueError, match="Reproduce with"):
        sample_state(observe(s, 0), rng)
    with pytest.raises(ValueError, match="Observation"):
        sample_state(("not", "an", "observation"), rng)
