"""dreamsim's cheaper per-game and per-decision work gives exactly the games of the plain code.

- `play_game` draws from `simcore.stream.streams(seed, 1 + players)`: chance from stream 0, seat i from 1 + i.
- `state.shuffled` is `Stream.shuffle` of a copy: the same order and the same draws.
- `new_game` deals the hands by slicing the shuffled deck: the hands (kept in kind order) and deck of
  the card-by-card deal.
- `Turn.legal` keys its table of hand-only actions by one int and builds the list in one pass: the
  legal actions of the plain construction at every turn decision of seeded games, under several rules.
- Recording a game (the log) changes nothing in it: the records of recorded and unrecorded games are equal.
- The Turn frame that ends is reused for the next turn: never on the stack twice.
- A trap window nobody can spring a trap in is not pushed (`traps.window_opens`): the games (records and
  logs) of pushing every window.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dreamsim
import dreamsim.engine.refill
import dreamsim.engine.turn
from dreamsim.engine.actions import DISCARD, DUTCH_EXTRA, DUTCH_REDUCE, PASS, SET_TRAP, STAR, STEAL
from dreamsim.engine.cards import BLACK, RED, director_cards
from dreamsim.engine.engine import apply_legal, new_game
from dreamsim.engine.state import _moves_from, shuffled
from dreamsim.engine.traps import TrapWindow, window_opens
from dreamsim.engine.turn import Turn, _can_activate
from dreamsim.policies.policies import POLICIES
from simcore.stream import Stream, seed_int, streams


def test_the_streams_of_play_game_are_simcores_streams_of_the_seed():
    """Seat i's policy draws from stream 1 + i of the seed, whatever the other seats play."""
    seen = {}

    def recorder(seat):
        def choose(obs, legal, rng):
            seen.setdefault(seat, [rng.state])
            return legal[0]
        return choose

    dreamsim.play_game(dreamsim.Rules(players=3), ["random", recorder(1), recorder(2)], 12345)
    assert seen == {1: [streams(12345, 4)[2].state], 2: [streams(12345, 4)[3].state]}
    ss = np.random.SeedSequence(7)
    assert new_game(dreamsim.Rules(players=3), ss).deck == new_game(dreamsim.Rules(players=3), seed_int(ss)).deck


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64), cards=st.lists(st.integers(min_value=0, max_value=16),
                                                                       max_size=110))
def test_shuffled_is_the_streams_fisher_yates(seed, cards):
    a, b = Stream.of(seed % 2**64, 0), Stream.of(seed % 2**64, 0)
    out = shuffled(a, cards)
    ref = list(cards)
    for i in range(len(ref) - 1, 0, -1):  # Fisher-Yates from the top, one below(i + 1) a swap
        j = b.below(i + 1)
        ref[i], ref[j] = ref[j], ref[i]
    assert out == ref and sorted(out) == sorted(cards) and a.state == b.state  # the same draws


@pytest.mark.parametrize("players, hand_size", [(2, 5), (4, 5), (6, 5), (3, 12), (6, 12)])
def test_the_deal_is_the_card_by_card_deal(players, hand_size):
    rules = dreamsim.Rules(players=players, hand_size=hand_size, nightmares="after_first_round")
    for seed in range(20):
        s = new_game(rules, seed)  # rests at the first turn: nothing drawn yet
        deck = director_cards()
        Stream.of(seed, 0).shuffle(deck)  # the chance stream of the seed (play_game's stream 0)
        hands = [[] for _ in range(players)]
        for _ in range(hand_size):
            for p in range(players):
                hands[p].append(deck.pop())
        assert s.turns == 0 and s.hands == [sorted(h) for h in hands] and s.deck == deck


def plain_turn_legal(s) -> list:
    """Turn.legal as first written: each part built from the hand and the board directly."""
    al = s.actions_left
    if al <= 0:
        return []
    p = s.turn_player
    rules = s.rules
    kinds = set(s.hands[p])
    loc = s.where[p]
    walks, vertigos = _moves_from(s.clone(), loc)
    out = []
    if 0 in kinds:
        out += walks
    if 1 in kinds:
        out += vertigos
    if 2 in kinds and _can_activate(s, p, loc):
        out.append(STAR)
    if (al >= rules.trap_actions and not (p != s.horror and (s.red >> p) & 1) and kinds & set(range(5))
            and kinds & set(range(5, 11))):
        out += [SET_TRAP[k + 1] for k in range(5, 11) if k in kinds]
    if al >= rules.dutch_angle_actions and 3 in kinds:
        out.append(DUTCH_EXTRA)
        out += [DUTCH_REDUCE[t] for t in range(s.n) if t != p]
    if rules.discard_action:
        out += [DISCARD[k] for k in range(11) if k in kinds]
    if 4 in kinds and al >= rules.steal_actions:
        out += [STEAL[t] for t in range(s.n) if t != p and any(k != BLACK for k in s.hands[t])]
    out.append(PASS)
    return out


RULE_SETS = [
    dict(players=4),
    dict(players=2),
    dict(players=6, discard_action=False),
    dict(players=3, trap_actions=1, dutch_angle_actions=1, steal_actions=2, multicolour_actions=4),
    dict(players=5, dreamwalk_return_arrow=True, extra_first_turn_seats=2),
]


@pytest.mark.parametrize("kwargs", RULE_SETS)
def test_turn_legal_is_the_plain_construction_at_every_turn_decision(kwargs):
    rules = dreamsim.Rules(**kwargs)
    checked = nightmare_hands = 0
    for seed in range(12):
        chance, *prngs = streams(seed, 1 + rules.players)
        s = new_game(rules, chance)
        choose = [partial(POLICIES["random"], None, rng=r) for r in prngs]
        while not s.is_terminal:
            if type(s.stack[-1]) is Turn:
                assert s.legal == plain_turn_legal(s), (seed, s.turns)
                checked += 1
                nightmare_hands += any(k >= RED for k in s.hands[s.turn_player])
            apply_legal(s, choose[s.current_player](tuple(s.legal)), chance)
    assert checked > 500 and nightmare_hands > 20


@pytest.mark.parametrize("names", [["random"] * 4, ["random"] * 6, ["heuristic", "random", "runner", "random"]])
def test_unrecorded_games_have_the_records_of_recorded_ones(names):
    rules = dreamsim.Rules(players=len(names))
    for seed in range(25):
        fast = dreamsim.play_game(rules, names, seed)
        recorded = dreamsim.play_game(rules, names, seed, record=True)
        assert fast.to_record() == recorded.to_record(), f"seed {seed}"


def test_the_reused_turn_frame_is_never_on_the_stack_twice():
    """Turn.finish hands its own frame to the next turn (`_begin_turn(..., turn)`): a frame on the
    stack once, deciding for the turn player (or the captor of a captured turn)."""
    rules = dreamsim.Rules(players=4)
    turns = 0
    for seed in range(8):
        chance, *prngs = streams(seed, 5)
        s = new_game(rules, chance)
        choose = [partial(POLICIES["random"], None, rng=r) for r in prngs]
        while not s.is_terminal:
            assert len({id(f) for f in s.stack}) == len(s.stack)
            if type(s.stack[-1]) is Turn:
                turns += 1
                assert s.stack[-1].seat == (s.controller if s.controller >= 0 else s.turn_player) == s.current_player
            apply_legal(s, choose[s.current_player](tuple(s.legal)), chance)
    assert turns > 1000


def _always_open(s, turn_start):
    return True


@pytest.mark.parametrize("kwargs", [*RULE_SETS, dict(players=4, refill="end_of_turn"),
                                    dict(players=4, dreamwalk_trap_self="trap_location")])
def test_skipping_trap_windows_nobody_can_spring_in_plays_the_same_games(kwargs, monkeypatch):
    """`traps.window_opens` keeps a trap window off the stack when its `legal` would be empty. The plain
    construction pushes every window (`window_opens` always True) and the loop finishes the empty ones
    unseen: the same records and logs; and `window_opens` is `TrapWindow.legal` not empty at every decision."""
    rules = dreamsim.Rules(**kwargs)
    n = rules.players
    fast = [dreamsim.play_game(rules, ["random"] * n, seed, record=True) for seed in range(25)]
    checked = 0
    for seed in range(12):  # window_opens against the window's own legal list, at positions with traps
        chance, *prngs = streams(seed, 1 + n)
        s = new_game(rules, chance)
        choose = [partial(POLICIES["random"], None, rng=r) for r in prngs]
        while not s.is_terminal:
            if s.n_traps:
                for turn_start in (False, True):
                    assert window_opens(s, turn_start) == bool(TrapWindow(turn_start).legal(s))
                checked += 1
            apply_legal(s, choose[s.current_player](tuple(s.legal)), chance)
    monkeypatch.setattr(dreamsim.engine.refill, "window_opens", _always_open)
    monkeypatch.setattr(dreamsim.engine.turn, "window_opens", _always_open)
    for seed, game in enumerate(fast):
        plain = dreamsim.play_game(rules, ["random"] * n, seed, record=True)
        assert game.to_record() == plain.to_record(), seed
        assert game.log == plain.log, seed
    assert checked > 100
