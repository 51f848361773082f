"""An observation holds only what its seat may know, as a value, and nothing else decides a policy.

The hidden information of Nightmarium is the other seats' hands and the order of the deck
(the discard pile is face up, creatures and seals are on the table, a Herald's cards are
turned over). Re-dealing all of it — every card in another hand or in the deck goes to a
random place among those, each hand keeping its size — must leave `observe`, `legal_actions`
and every shipped policy's choice unchanged.
"""
from __future__ import annotations

import numpy as np
import pytest

import nightsim
from nightsim import Rules, legal_actions, observe
from nightsim.engine.engine import apply_legal
from nightsim.engine.scenario import build_state, card_id


def redeal(s: nightsim.State, seat: int, rng) -> nightsim.State:
    """A copy of s in which every card `seat` cannot see (other hands, the deck) is dealt anew."""
    t = s.clone()
    others = [p for p in range(t.n) if p != seat]
    hidden = t.deck + [c for p in others for c in t.hands[p]]
    hidden = [hidden[i] for i in rng.permutation(len(hidden))]
    for p in others:
        k = len(t.hands[p])
        t.hands[p], hidden = hidden[:k], hidden[k:]
    t.deck = hidden
    return t


def assert_blind_to_hidden_cards(s, rng):
    p = s.current_player
    t = redeal(s, p, rng)
    assert t.hands[p] == s.hands[p] and sorted(t.all_cards()) == sorted(s.all_cards())
    obs = observe(s, p)
    assert observe(t, p) == obs
    legal = legal_actions(s)
    assert legal_actions(t) == legal
    for name, policy in nightsim.POLICIES.items():
        seed = int(rng.integers(2**32))
        a = policy(obs, legal, np.random.default_rng(seed))
        b = policy(observe(t, p), legal_actions(t), np.random.default_rng(seed))
        assert a == b, f"policy {name!r} chose differently after a re-deal of hidden cards"
    q = (p + 1) % s.n                        # any seat's view, not only the deciding one's
    assert observe(redeal(s, q, rng), q) == observe(s, q)


VARIANTS = [
    dict(players=2),
    dict(players=4, seals=True),
    dict(players=3, seals=True, herald_plays_seals=True, mocker_plays_seals=True, seal_target="any"),
    dict(players=5, scavenger_optional=True, penalty_timing="after_abilities"),
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={v}" for k, v in v.items()))
def test_re_dealing_what_a_seat_cannot_see_changes_neither_its_view_nor_any_policys_choice(variant):
    rules = Rules(**variant)
    names = ["greedy", "random", "aggressor", "purist", "heuristic"]
    decisions_seen = set()
    for game in range(3):
        rng = np.random.default_rng(game)
        s = nightsim.new_game(rules, rng)
        pols = [nightsim.POLICIES[names[(i + game) % len(names)]] for i in range(rules.players)]
        while not s.is_terminal:
            assert_blind_to_hidden_cards(s, rng)
            decisions_seen.add(s.decision)
            p = s.current_player
            apply_legal(s, pols[p](observe(s, p), legal_actions(s), rng), rng)
    assert {"turn action", "pure-legion penalty discard"} <= decisions_seen


def test_every_decision_kind_is_checked_against_a_re_deal():
    """Positions for the decisions that games reach rarely: Herald placement, seal re-activation,
    discard choice, Executioner, Scavenger and Devourer targets."""
    rs = Rules(players=3, seals=True)
    c = lambda n: card_id(rs, n)  # noqa: E731
    seal_h = nightsim.engine.scenario.find_cards(rs, legion="Homunculi", seal=True)[0]
    positions = [
        # Herald: head Herald completes [C legs, C torso]; two cards turned over
        (dict(hands=[[c(55)], [c(3)], [c(6)]], creatures=[[[c(87), c(86)]], [], []], deck=[c(30), c(66), c(69)]),
         [nightsim.Play(c(55), 0, 2)]),
        # seal re-activation offered
        (dict(hands=[[seal_h], [c(3)], [c(6)]], creatures=[[[c(54), c(35), c(46)]], [], []], deck=[c(15), c(30)]),
         [nightsim.PlaySeal(seal_h, 0, 0)]),
        # discard choice under way
        (dict(hands=[[c(3), c(6), c(15)], [c(30)], [c(33)]], deck=[c(36)]),
         [nightsim.StartDiscard(), nightsim.DiscardCard(c(6))]),
        # Executioner, then Devourer targets
        (dict(hands=[[c(82)], [c(3)], [c(6)]], creatures=[[[c(15), c(86)], [c(99)]], [[c(30), c(35)]], [[c(66)]]]),
         [nightsim.Play(c(82), 0, 2)]),
        (dict(hands=[[c(25)], [c(3)], [c(6)]], creatures=[[[c(87), c(2)], [c(99)]], [[c(30), c(35)]], []]),
         [nightsim.Play(c(25), 0, 2)]),
        # Scavenger target
        (dict(hands=[[c(1)], [c(3)], [c(6)]], creatures=[[[c(87), c(2)]], [[c(30), c(35)]], [[c(66)]]]),
         [nightsim.Play(c(1), 0, 2)]),
    ]
    seen = set()
    rng = np.random.default_rng(7)
    for kw, actions in positions:
        s = build_state(rs, **kw)
        for a in actions:
            nightsim.apply_action(s, a, rng)
        seen.add(s.decision)
        assert_blind_to_hidden_cards(s, rng)
    assert seen == {"Herald placement", "seal re-activation", "discard choice", "Executioner target",
                    "Devourer target", "Scavenger target"}


def test_an_observation_is_a_value_without_the_state():
    s = nightsim.new_game(Rules(players=3, seals=True), 0)
    obs = observe(s, 1)
    assert not hasattr(obs, "_s") and not hasattr(obs, "hands")

    def plain(x):
        if isinstance(x, tuple):
            return all(plain(y) for y in x)
        return isinstance(x, (int, str, Rules)) or x is None
    assert all(plain(getattr(obs, f)) for f in obs._fields)
    with pytest.raises(AttributeError):
        obs.hand = ()
    before = observe(s, 1)
    rng = np.random.default_rng(0)
    for _ in range(20):
        apply_legal(s, legal_actions(s)[0], rng)
    assert obs == before                     # a later move does not reach an observation handed out
    assert hash(obs) == hash(before)


def test_a_game_won_inside_a_mocker_play_can_still_be_observed():
    r = Rules(players=2)
    c = lambda n: card_id(r, n)  # noqa: E731
    s = build_state(r, hands=[[c(31), c(85)], []],
                    creatures=[[[c(18), c(20), c(19)], [c(24), c(23), c(16)], [c(42), c(32), c(40)],
                                [c(66), c(71)], [c(87), c(86)]], []])
    rng = np.random.default_rng(0)
    nightsim.apply_action(s, nightsim.Play(c(31), 3, 2), rng)   # the head Mocker completes creature 3 ...
    nightsim.apply_action(s, nightsim.Play(c(85), 4, 2), rng)   # ... and its play completes the 5th
    assert s.is_terminal and len(s.stack) > 1                   # the activations are left unfinished
    assert observe(s, 0).decision == observe(s, 1).decision == "game over"


def test_a_discard_choice_is_seen_only_by_the_seat_that_makes_it():
    s = nightsim.new_game(Rules(players=2), 0)
    rng = np.random.default_rng(0)
    card = s.hands[0][0]
    nightsim.apply_action(s, nightsim.StartDiscard(), rng)
    nightsim.apply_action(s, nightsim.DiscardCard(card), rng)
    assert observe(s, 0).discard_picked == (card,)
    assert observe(s, 1).discard_picked == ()
