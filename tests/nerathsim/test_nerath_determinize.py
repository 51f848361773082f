"""nerathsim.sample_state: a state consistent with one seat's observation, the
other hands, every deck order, the treasure deck, the guardian supply and the face-down guardians
drawn at random — consistency, conservation, frequencies, playing on."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy import stats

import nerathsim
from nerathsim import engine as E
from nerathsim import observe, sample_state
from nerathsim.determinize import hidden_pools
from nerathsim.observation import Observation
from nerathsim.rules import Rules

FFA = Rules(mode="free_for_all")


def _positions(rules, seed: int, every: int = 7, policy: str = "balanced"):
    """Every `every`-th state of one game (clones)."""
    s = nerathsim.new_game(rules, seed)
    rng = np.random.default_rng(seed)
    pol = nerathsim.POLICIES[policy]
    i = 0
    while not s.is_terminal:
        if i % every == 0:
            yield s.clone()
        legal = E.legal_actions(s)
        E.apply_action(s, pol(observe(s, s.current_player), legal, rng), rng)
        i += 1


def view(o: Observation) -> tuple:
    """Everything an Observation answers, as plain values (its own hand and notebook included)."""
    b = o.board
    out = [o.decision, o.phase, o.realm, o.turn_realm, o.round, o.turns, tuple(o.owner), tuple(o.gold), tuple(o.vp),
           o.hand, o.hand_sizes, tuple(o.ships), o.battle, tuple(o.battle_sites), o.window, o.pending_card,
           o.treasures, tuple(o.kept(q) for q in range(4)), tuple(o.income(q) for q in range(4)),
           tuple(o.mobile_regions()), repr(o.memo)]
    out += [tuple(tuple(o.units(r, q)) for q in range(4)) for r in range(b.n)]
    out += [o.dungeon(r) for r in range(b.n) if b.is_dungeon[r]]
    c = o._s
    mine = o.rules.seating[o.player]
    out += [tuple(c.hands[q]) for q in mine] + [tuple(c.must_play[q]) for q in mine] + [tuple(map(tuple, c.used))]
    out.append(None if c.pending is None else tuple(c.pending.reactors))
    if o.phase == E.PH_PRESS:
        out.append(tuple(o.retreat_options()))
    if o.phase == E.PH_AMOK:
        out.append(tuple(o.amok_targets()))
    if o.phase in (E.PH_BUY, E.PH_REINFORCE):
        out.append(repr(o.placement_spots()))
    return tuple(out)


def _all_ids(s) -> tuple:
    """Every card and guardian id the state holds anywhere (a multiset per kind)."""
    cards = Counter()
    for q in range(4):
        cards.update(s.hands[q])
        cards.update(s.decks[q])
        cards.update(s.used[q])
        cards.update(s.kept[q])
    cards.update(s.treasure_deck)
    guardians = Counter(s.supply)
    for g in s.guardians.values():
        guardians.update(g)
    return cards, guardians


@pytest.mark.parametrize("rules,seed", [(Rules(), 0), (FFA, 1), (Rules(), 2), (FFA, 3),
                                        (Rules(mode="free_for_all", game_length="long", treasures_per_dungeon=2), 4)])
def test_the_sampled_state_looks_to_the_seat_exactly_like_its_observation(rules, seed):
    rng = np.random.default_rng(100 + seed)
    checked = 0
    for s in _positions(rules, seed, every=11):
        for p in range(s.n):
            obs = observe(s, p)
            t = sample_state(obs, rng)
            assert view(observe(t, p)) == view(obs), f"seed {seed}, seat {p}, {s!r}"
            assert _all_ids(t) == _all_ids(s)
            for q in range(4):
                assert len(t.hands[q]) == len(s.hands[q]) and len(t.decks[q]) == len(s.decks[q])
                assert sorted(t.must_play[q]) == sorted(x for x in t.hands[q] if t.cards.cards[x].timing == "immediate")
            assert len(t.treasure_deck) == len(s.treasure_deck) and len(t.supply) == len(s.supply)
            checked += 1
        if checked > 150:
            break
    assert checked >= 40


def test_the_seats_own_notebook_is_a_copy():
    """Playing on from a sampled state never touches the real game's plans."""
    s = next(x for i, x in enumerate(_positions(FFA, 5, every=1)) if i == 3)
    obs = observe(s, s.current_player)
    obs.memo["probe"] = [1]
    t = sample_state(obs, np.random.default_rng(0))
    t.memo[s.current_player]["probe"].append(2)
    assert obs.memo["probe"] == [1]
    assert all(m == {} for i, m in enumerate(t.memo) if i != s.current_player)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_sampled_state_plays_on_legally_to_the_end(seed):
    rng = np.random.default_rng(seed)
    pol = nerathsim.POLICIES["balanced"]
    for i, s in enumerate(_positions(FFA, seed, every=40)):
        if i > 8:
            break
        t = sample_state(observe(s, s.current_player), rng)
        assert list(E.legal_actions(t)) == list(E.legal_actions(s.clone()))
        while not t.is_terminal:
            legal = E.legal_actions(t)
            E.apply_action(t, pol(observe(t, t.current_player), legal, rng), rng)
        assert t.is_terminal



@pytest.mark.parametrize("seed", [2, 3])
def test_a_state_sampled_in_the_middle_of_a_battle_plays_on_to_the_end(seed):
    """The public copy's battle tables are read-only; a state sampled from it still fights on (card
    bonuses copy the tables, casualty plans are worked out without being kept)."""
    rng = np.random.default_rng(seed)
    pol = nerathsim.POLICIES["balanced"]
    played = 0
    for s in _positions(FFA, seed, every=3):
        if s.battle is None:
            continue
        t = sample_state(observe(s, s.current_player), rng)
        while not t.is_terminal:
            legal = E.legal_actions(t)
            E.apply_action(t, pol(observe(t, t.current_player), legal, rng), rng)
        played += 1
        if played == 4:
            break
    assert played == 4

def _mid_game(rules, seed, want):
    for s in _positions(rules, seed, every=1):
        if want(s):
            return s
    raise AssertionError(f"no position found in game {seed}")


def _check_share(counts: Counter, expected: dict, n: int):
    """Each id's count against its expected probability: |z| < 4.5 for every id (binomial standard error)
    and a chi-square over the ids (p > 1e-4)."""
    obs, exp = [], []
    for x, p in expected.items():
        k = counts.get(x, 0)
        se = np.sqrt(n * p * (1 - p))
        assert abs(k - n * p) < 4.5 * se + 1e-9, f"id {x}: {k} of {n}, expected {n * p:.1f} ± {se:.1f}"
        obs.append(k)
        exp.append(n * p)
    assert set(counts) <= set(expected), f"ids drawn outside the pool: {set(counts) - set(expected)}"
    if len(obs) > 1:
        scale = sum(obs) / sum(exp)
        assert stats.chisquare(obs, [e * scale for e in exp]).pvalue > 1e-4


def test_every_unseen_event_card_lands_in_each_hidden_place_with_the_right_frequency():
    """Another realm's unseen event card is in its hand with probability copies x (events in hand) /
    (its unseen events), and on top of its deck with probability copies / unseen; the seat's own deck
    order is uniform too."""
    s = _mid_game(FFA, 6, lambda s: s.round >= 1 and s.phase == E.PH_MOVE
                  and any(len(s.hands[q]) >= 1 for q in range(4) if q != s.current_player))
    seat = s.current_player
    obs = observe(s, seat)
    pools = hidden_pools(obs)
    other = max((q for q in range(4) if q != seat), key=lambda q: (pools.event_hand[q], -q))
    n = 3000
    rng = np.random.default_rng(17)
    hand, top, own_top = Counter(), Counter(), Counter()
    for _ in range(n):
        t = sample_state(obs, rng)
        hand.update(x for x in t.hands[other] if t.cards.cards[x].kind != "treasure")
        if t.decks[other]:
            top[t.decks[other][-1]] += 1
        own_top[t.decks[seat][-1]] += 1
    pool = Counter(pools.events[other])
    m = len(pools.events[other])
    k = pools.event_hand[other]
    assert k >= 1 and m > k
    # hand: each copy is in hand with probability k / m -> expected count n * copies * k / m
    for x, copies in pool.items():
        p = copies * k / m
        se = np.sqrt(n * copies * (k / m) * (1 - k / m))
        assert abs(hand[x] - n * p) < 4.5 * se, f"card {x} in hand {hand[x]} of {n}, expected {n * p:.1f}"
    _check_share(top, {x: c / m for x, c in pool.items()}, n)
    own = Counter(pools.events[seat])
    _check_share(own_top, {x: c / len(pools.events[seat]) for x, c in own.items()}, n)


def test_every_unseen_guardian_lands_on_each_face_down_dungeon_with_the_right_frequency():
    """A face-down dungeon with g tokens holds a given unseen tile with probability about copies x g / unseen
    (the first token exactly copies / unseen); the supply's top likewise."""
    s = nerathsim.new_game(FFA, 8)
    obs = observe(s, 0)
    pools = hidden_pools(obs)
    assert pools.face_down and not s.revealed
    r = min(pools.face_down)
    m = len(pools.guardians)
    pool = Counter(pools.guardians)
    n = 3000
    rng = np.random.default_rng(5)
    first, top = Counter(), Counter()
    for _ in range(n):
        t = sample_state(obs, rng)
        first[t.guardians[r][0]] += 1
        top[t.supply[-1]] += 1
    expected = {x: c / m for x, c in pool.items()}
    _check_share(first, expected, n)
    _check_share(top, expected, n)


def test_another_realms_treasures_come_from_the_unseen_treasures():
    """After a realm won a dungeon and holds its treasure, another seat sees only that it holds one: the
    sampled hand holds exactly that many treasures, drawn uniformly from the unseen treasures."""
    rules = Rules(mode="free_for_all", game_length="long")
    s = None
    for seed in range(10, 40):
        for x in _positions(rules, seed, every=1):
            k = [x.stats["treasures"][q] - x.stats["treasures_played"][q] for q in range(4)]
            if any(k):
                s = x
                break
        if s is not None:
            break
    assert s is not None, "no realm held a treasure in 30 games"
    holder = next(q for q in range(4) if s.stats["treasures"][q] > s.stats["treasures_played"][q])
    seat = (holder + 1) % 4
    obs = observe(s, seat)
    pools = hidden_pools(obs)
    k = pools.treasure_hand[holder]
    assert k == s.stats["treasures"][holder] - s.stats["treasures_played"][holder] >= 1
    m = len(pools.treasures)
    pool = Counter(pools.treasures)
    n = 2000
    rng = np.random.default_rng(23)
    got = Counter()
    for _ in range(n):
        t = sample_state(obs, rng)
        held = [x for x in t.hands[holder] if t.cards.cards[x].kind == "treasure"]
        assert len(held) == k
        got.update(held[:1])
    _check_share(got, {x: c / m for x, c in pool.items()}, n)


def test_sample_state_refuses_what_is_not_a_live_observation():
    with pytest.raises(ValueError, match="needs a nerathsim.Observation"):
        sample_state("nope", np.random.default_rng(0))
    res = nerathsim.play_game(FFA, ["balanced"] * 4, seed=1)
    assert res.winner is not None
    s = nerathsim.new_game(FFA, 1)
    while not s.is_terminal:
        legal = E.legal_actions(s)
        E.apply_action(s, nerathsim.BALANCED(observe(s, s.current_player), legal, np.random.default_rng(0)),
                       np.random.default_rng(s.decisions))
    with pytest.raises(ValueError, match="game is over.*Reproduce with"):
        sample_state(observe(s, 0), np.random.default_rng(0))
