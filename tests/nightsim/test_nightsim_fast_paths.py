"""play_game's fast paths for the built-in policies give exactly the games of calling them.

`play_game` makes a built-in `RandomPolicy` seat's choice itself from block-drawn uniforms and
skips its observation, and hands a built-in `HeuristicPolicy` block-drawn uniforms and skips it
when one action is legal (nightsim/RULES.md, "(d) Policies"). A wrapper of another type gets
none of that: it is observed, called with the seat's numpy Generator, and checked. Records and
event logs must be identical, seed for seed.
"""
from __future__ import annotations

import numpy as np
import pytest

import nightsim
from nightsim.creatures import ExecutionerTarget, ScavengerTarget, _can_place, _card_placements
from nightsim.game import UNIFORM_BLOCK, Uniforms
from nightsim.observation import seat_views
from nightsim.policies import HeuristicPolicy, _Context, _pick


class Plain:
    """Calls a built-in policy the ordinary way (a type play_game has no fast path for)."""

    def __init__(self, name):
        self.name, self.inner = name, nightsim.POLICIES[name]

    def __call__(self, obs, legal, rng):
        assert isinstance(rng, np.random.Generator)
        return self.inner(obs, legal, rng)


LINEUPS = [
    (dict(players=4), ["random"] * 4),
    (dict(players=4), ["greedy"] * 4),
    (dict(players=4), ["aggressor", "greedy", "purist", "random"]),
    (dict(players=3, seals=True, herald_plays_seals=True, scavenger_optional=True), ["random", "purist", "greedy"]),
]


@pytest.mark.parametrize("kwargs,names", LINEUPS, ids=lambda x: str(x))
def test_play_game_gives_the_same_games_as_calling_the_built_in_policies(kwargs, names):
    rules = nightsim.Rules(**kwargs)
    for seed in range(40):
        fast = nightsim.play_game(rules, names, seed, record=True)
        plain = nightsim.play_game(rules, [Plain(n) for n in names], seed, record=True)
        assert fast.to_record() == plain.to_record(), f"seed {seed}"
        assert fast.log == plain.log, f"seed {seed}"


def test_uniforms_are_the_generators_own_numbers_in_order():
    a = np.random.default_rng(np.random.SeedSequence(7))
    u = Uniforms(np.random.default_rng(np.random.SeedSequence(7)))
    n = 2 * UNIFORM_BLOCK + 5
    assert [u.random() for _ in range(n)] == [a.random() for _ in range(n)]


@pytest.mark.parametrize("kwargs", [dict(players=4), dict(players=3, seals=True, herald_plays_seals=True)],
                         ids=lambda x: str(x))
def test_choose_from_the_creatures_is_the_policys_choice_and_observes_only_when_needed(kwargs):
    """`HeuristicPolicy.choose` (what play_game asks a built-in heuristic) picks what `__call__`
    picks from the full observation, with the same tie-break draws, and calls the observation
    function only for an action the creatures cannot score (seals, discard choices)."""
    rules = nightsim.Rules(**kwargs)
    lean_types = {nightsim.Play, nightsim.Draw, nightsim.StartDiscard, nightsim.Take, nightsim.Scavenge,
                  nightsim.PenaltyDiscard, nightsim.Devour}
    seen_other = seen_devour = 0
    for name in ("greedy", "purist", "aggressor"):
        pol = nightsim.POLICIES[name]
        for seed in range(15):
            chance = np.random.default_rng(seed)
            s = nightsim.new_game(rules, chance)
            u1 = np.random.default_rng(1000 + seed)
            u2 = np.random.default_rng(1000 + seed)
            while not s.is_terminal:
                p = s.current_player
                legal = nightsim.legal_actions(s)
                obs = nightsim.observe(s, p)
                if len(legal) > 1:
                    calls = []

                    def obs_fn(s=s, p=p, calls=calls):
                        calls.append(1)
                        return nightsim.observe(s, p)

                    lean = HeuristicPolicy(pol.weights).choose(obs.creatures, p, rules.table, legal, u1, obs_fn)
                    full = pol(obs, legal, u2)
                    assert lean is full, f"{name} seed {seed}"
                    needs = any(type(a) not in lean_types for a in legal)
                    seen_other += needs
                    seen_devour += type(legal[0]) is nightsim.Devour
                    assert len(calls) == (1 if needs else 0)
                    a = full
                else:
                    a = legal[0]
                nightsim.apply_action(s, a, chance)
    assert seen_devour > 0  # scored from the creatures alone
    assert seen_other > 0 or not rules.seals  # with seals, the observation function was exercised


TIE_DRAW = HeuristicPolicy(nightsim.Weights(discard=0.5), "tie")  # Draw and StartDiscard tie: a draw to break it
CHOICE_RULES = [dict(players=4), dict(players=2), dict(players=5, min_discard=3),
                dict(players=3, actions_per_turn=3, hand_size=7)]


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


@pytest.mark.parametrize("kwargs", CHOICE_RULES, ids=lambda x: str(x))
def test_choose_turn_picks_what_choose_picks_from_the_listed_turn_actions(kwargs):
    """`HeuristicPolicy.choose_turn` (play_game's turn actions without seals) scores the placements
    `turn._turn_actions` lists, in its order, without the list: the same pick and the same draws."""
    rules = nightsim.Rules(**kwargs)
    turns = ties = 0
    for pol in (nightsim.POLICIES["greedy"], nightsim.POLICIES["purist"], TIE_DRAW):
        for s, legal in _positions(rules, range(6), pol):
            if s.stack:
                continue
            p = s.turn_player
            u1, u2 = np.random.default_rng(turns), np.random.default_rng(turns)
            hand = s.hands[p]
            fused = pol.choose_turn(seat_views(s)[p], hand, s.turn_legion, s.open_slots(p),
                                    len(hand) >= rules.min_discard, rules.table, s._acts.plays, u1)
            listed = legal[0] if len(legal) == 1 else pol.choose(seat_views(s), p, rules.table, legal, u2, None)
            assert fused is listed, f"{pol.name} decision {s.decisions}"
            assert u1.bit_generator.state == u2.bit_generator.state  # the same draws were made
            ties += u1.bit_generator.state != np.random.default_rng(turns).bit_generator.state
            turns += 1
    assert turns > 500 and ties > 0


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


@pytest.mark.parametrize("kwargs", [dict(players=4), dict(players=2),
                                    dict(players=3, seals=True, herald_plays_seals=True, scavenger_optional=True)],
                         ids=lambda x: str(x))
def test_choose_victim_picks_what_choose_picks_from_the_listed_targets(kwargs):
    """`HeuristicPolicy.choose_victim` (play_game's Executioner and Scavenger targets) scores the targets
    `_exec_targets` / `_scav_targets` list (then Decline when the Scavenger is optional), in their order,
    without the list: the same pick and the same draws as `choose` from the engine's list."""
    rules = nightsim.Rules(**kwargs)
    seen = {ExecutionerTarget: 0, ScavengerTarget: 0}
    ties = 0
    for pol in (nightsim.POLICIES["greedy"], nightsim.POLICIES["aggressor"], nightsim.POLICIES["purist"]):
        for i, (s, legal) in enumerate(_positions(rules, range(12), pol)):
            kind = type(s.stack[-1]) if s.stack else None
            if kind not in seen:
                continue
            p = s.current_player
            take = kind is ExecutionerTarget
            targets = s._acts.take if take else s._acts.scavenge
            u1, u2 = np.random.default_rng(i), np.random.default_rng(i)
            fused = pol.choose_victim(seat_views(s), p, targets, take, rules.scavenger_optional and not take, u1)
            listed = legal[0] if len(legal) == 1 else pol.choose(seat_views(s), p, rules.table, legal, u2,
                                                                 lambda s=s, p=p: nightsim.observe(s, p))
            assert fused is listed, f"{pol.name} decision {s.decisions}"
            assert u1.bit_generator.state == u2.bit_generator.state  # the same draws were made
            ties += u1.bit_generator.state != np.random.default_rng(i).bit_generator.state
            seen[kind] += 1
    assert min(seen.values()) > 20 and ties > 0


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
