"""The engine's and the heuristic's shortcuts give what their plain versions give.

`HeuristicPolicy.choose` scores the common actions inline (kept creature facts, per-table card
columns, an open-slot mask) and must pick what the plain `_Context.score` picks, with the same
draws; `creatures._can_place` must answer what listing the placements answers.
"""
from __future__ import annotations

import numpy as np
import pytest

import nightsim
from nightsim.engine.creatures import _can_place, _card_placements
from nightsim.policies.heuristic import _Context, _pick


def _positions(rules, seeds, policy):
    """(state, legal actions) at every decision of seeded games of `policy` (random half the time)."""
    for seed in seeds:
        chance, moves = np.random.default_rng(seed), np.random.default_rng(500 + seed)
        s = nightsim.new_game(rules, chance)
        while not s.is_terminal:
            legal = nightsim.legal_actions(s)
            yield s, legal
            if len(legal) == 1 or moves.random() < 0.5:
                a = legal[int(moves.random() * len(legal))]
            else:
                a = policy(nightsim.observe(s, s.current_player), legal, moves)
            nightsim.apply_action(s, a, chance)


@pytest.mark.parametrize("kwargs", [dict(players=4), dict(players=3, seals=True, herald_plays_seals=True)],
                         ids=lambda x: str(x))
def test_choose_scores_every_action_as_the_plain_context_does(kwargs):
    """`choose`'s inlined scoring (kept creature facts, the penalty's card values from per-table
    columns and an open-slot mask, Devour, Take and Scavenge) picks what the plain
    `_Context.score` picks (`_pick`), with the same draws, for every kind of decision."""
    rules = nightsim.Rules(**kwargs)
    kinds = set()
    for pol in (nightsim.POLICIES["greedy"], nightsim.POLICIES["aggressor"], nightsim.POLICIES["purist"]):
        for i, (s, legal) in enumerate(_positions(rules, range(8), pol)):
            if len(legal) == 1:
                continue
            obs = nightsim.observe(s, s.current_player)
            u1, u2 = np.random.default_rng(i), np.random.default_rng(i)
            plain = _pick(legal, _Context(obs, pol.weights).score, u2)
            assert pol.choose(obs.creatures, obs.player, rules.table, legal, u1, obs) is plain
            assert u1.bit_generator.state == u2.bit_generator.state
            kinds.update(type(a).__name__ for a in legal)
    assert {"Play", "Draw", "Take", "Scavenge", "Devour", "PenaltyDiscard"} <= kinds


@pytest.mark.parametrize("kwargs", [dict(players=4), dict(players=3, seals=True, herald_plays_seals=True)],
                         ids=lambda x: str(x))
def test_can_place_answers_whether_the_placements_list_has_any(kwargs):
    """`creatures._can_place` (a Herald's and a Mocker's question) is True exactly when
    `_card_placements` lists a placement, for every seat's hand, with and without seals."""
    rules = nightsim.Rules(**kwargs)
    answers = set()
    for s, _ in _positions(rules, range(4), nightsim.POLICIES["greedy"]):
        for p in range(rules.players):
            for allow_seals in (True, False):
                for cards in (s.hands[p], s.hands[p][:1], []):
                    can = _can_place(s, p, cards, allow_seals)
                    assert can == bool(_card_placements(s, p, cards, allow_seals))
                    answers.add(can)
    assert answers == {True, False}
